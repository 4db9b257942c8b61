"""A cold deep set-up's Python pass, over several cores: the class library's loaded classes counted deep by this
process and by helper processes at once, each keeping what it counts in the deep cache (:mod:`.deep_cache`).

The deep cache is made for several processes: method numbers are appended to ``numbers.txt`` under its lock,
and the class library's pack is replaced under its own lock by a process that merges what is on disk with what
it adds. So a helper is a plain Python process (``python -m pytest_bytecount.jvm.deep_workers``, no JVM, no
pytest) that opens the same cache folder, counts the classes it is sent exactly as the set-up's transformer would,
keeps them, and answers how many it kept. On its standard input: one line of JSON (the class library, the cache
folder), then the classes as a pack of the deep cache's own format (records of a name and its original bytes);
on its standard output, one line of JSON. Data only, both ways. The set-up
then reads the pack again and gives every kept class its counted bytes from Java, as a warm set-up does.

Nothing here decides a count: a class a helper did not keep (it failed, refused a method, or never ran) is
counted by the set-up's own transformer as when the cache is cold and no helper runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from ..counting.instr.deep import MethodNumbers, deep_class
from .agent import ORIGINALS_CLASS, agent_jar, transformer_class
from .deep_cache import DeepCache, cache_root, pack_bytes, read_pack

MAX_HELPERS = 7  # helper processes at most, beside the set-up's own


def helpers_wanted() -> int:
    """Helper processes for this machine: one fewer than the cores this process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(0, min(MAX_HELPERS, cores - 1))


def count_shared(cache: DeepCache, numbers: MethodNumbers, original: bytes, targets: frozenset = frozenset()) -> tuple:
    """The class ``original`` counted deep with the cache's shared method numbers (handed out before it is counted):
    (its :class:`~..counting.instr.deep.DeepClass`, whether it may be kept: the numbers were shared and no method was
    too large to count)."""
    shared = {"ok": True}

    def reserve(method_ids):
        shared["ok"] = cache.number(numbers, method_ids)

    counted = deep_class(original, numbers, targets, reserve)
    return counted, shared["ok"] and not counted.refused


def count_and_keep(cache: DeepCache, numbers: MethodNumbers, items: list,
                   done: Optional[Callable[[int], None]] = None) -> int:
    """Count each ``(internal name, original bytes)`` of ``items`` deep, as the set-up's transformer counts a class
    of the class library, and keep it in ``cache`` (a class with a method too large to count is not kept: the
    transformer counts it again, and says so). How many were kept."""
    kept = 0
    for k, (name, original) in enumerate(items):
        try:
            counted, keep = count_shared(cache, numbers, original)
        except Exception:  # noqa: BLE001 - left to the transformer, which reports what fails
            continue
        if keep:
            cache.put(name, original, counted.data, library=True)
            kept += 1
        if done is not None:
            done(k + 1)
    cache.flush()
    return kept


def split(items: list, parts: int) -> list:
    """``items`` in ``parts`` lists of about the same number of bytes (the largest first, each to the lightest)."""
    out = [[] for _ in range(parts)]
    weight = [0] * parts
    for item in sorted(items, key=lambda it: -len(it[1])):
        k = weight.index(min(weight))
        out[k].append(item)
        weight[k] += len(item[1])
    return out


def _helper_environment() -> dict:
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])  # this checkout's or installation's package first
    env["PYTHONPATH"] = os.pathsep.join([package_root, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    env["BYTECOUNT_CACHE_DIR"] = str(cache_root())  # the same folder, however the variables that choose it are set
    return env


def count_in_processes(cache: DeepCache, numbers: MethodNumbers, library: str, items: list,
                       progress: Optional[Callable[[int, int], None]] = None, helpers: Optional[int] = None) -> int:
    """Count ``items`` deep and keep them in ``cache``: a share in each helper process (:func:`helpers_wanted`),
    one in this one meanwhile. How many were kept, by all of them. A helper that cannot start or fails keeps
    nothing of its share, which the caller's transformer then counts."""
    helpers = helpers_wanted() if helpers is None else helpers
    parts = split(items, helpers + 1)
    started = []
    for part in parts[1:]:
        if not part:
            continue
        try:
            process = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, env=_helper_environment())
            process.stdin.write(json.dumps({"library": library, "folder": str(cache.folder)}).encode() + b"\n")
            process.stdin.write(pack_bytes(dict(part)))
            process.stdin.close()
        except OSError:
            continue
        started.append(process)
    own = parts[0]
    total = len(items)

    def done(k: int) -> None:  # this process's share stands for the others', which run alongside
        if progress is not None and own:
            progress(min(total, k * total // len(own)), total)

    kept = count_and_keep(cache, numbers, own, done)
    for process in started:
        try:
            answer = json.loads(process.stdout.read().decode())
            kept += int(answer.get("kept", 0))
        except Exception:  # noqa: BLE001 - a helper that died kept what it flushed; the rest is counted later
            pass
        process.wait()
    return kept


def launcher() -> Optional[Path]:
    """The running runtime's ``java`` launcher, None when it has none (a runtime without ``bin/java``)."""
    import jpype

    home = Path(str(jpype.JClass("java.lang.System").getProperty("java.home")))
    for name in ("java", "java.exe"):
        if (home / "bin" / name).is_file():
            return home / "bin" / name
    return None


def read_originals(java: Path, names: list) -> dict:
    """``{internal name: class file}`` of the class library of the runtime whose ``java`` launcher is given, as its
    class loaders read them, read by a JVM of its own (``Originals.jasm``, from the agent's jar): nothing is loaded
    in the JVM that asks. A name the library lacks is left out; so is every name when that JVM cannot run."""
    try:
        done = subprocess.run([str(java), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                               str(agent_jar()), ORIGINALS_CLASS.replace("/", ".")],
                              input="".join(n + "\n" for n in names).encode("utf-8"), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return {}
    out, at, raw = {}, 0, done.stdout
    for name in names:
        if done.returncode != 0 or at + 4 > len(raw):
            return {}
        size = int.from_bytes(raw[at:at + 4], "big", signed=True)
        at += 4
        if size < 0:
            continue
        if at + size > len(raw):
            return {}
        out[name] = raw[at:at + size]
        at += size
    return out


def count_cold_library(api, platform, cache: DeepCache, numbers: MethodNumbers, library: str,
                       answered: Callable[[str], bool], progress, least: int, batch: int,
                       java: Optional[Path] = None) -> int:
    """When ``cache`` lacks at least ``least`` of the loaded classes of the class library that the set-up answers
    by name (``answered``): count them on every core (:func:`count_in_processes`) and keep them; how many were
    kept. Their original bytes come from one retransformation (``batch`` classes a call, through ``api``, an
    :class:`~.agent.Instrumentation`) by a transformer that keeps a copy and changes nothing; or, given the
    runtime's ``java`` launcher, from a JVM of its own that reads the class library (:func:`read_originals`), for a
    JVM that a retransformation would make load classes of its own. One process of the machine does it at a time: a
    second that finds the cache cold meanwhile (another xdist worker) waits, then finds the classes kept. A cache
    folder that cannot be locked leaves them to the transformer."""
    classes, listed = api.modifiable(platform)

    def missing() -> list:
        return [(i, name) for i, name, in_library in listed
                if in_library and answered(name) and cache.library(name) is None]

    if len(missing()) < least:
        return 0
    try:
        with cache.cold_lock():
            cache.reload()  # what another process kept while this one waited
            wanted = missing()
            if len(wanted) < least:
                return 0
            if java is not None:
                originals = read_originals(java, [name for _, name in wanted])
            else:
                originals = _copied(api, platform, classes, wanted, batch)
            kept = count_in_processes(cache, numbers, library, [(n, originals[n]) for _, n in wanted if n in originals],
                                      progress)
            cache.sync(numbers)  # the numbers the helpers gave
            cache.reload()
            return kept
    except OSError:
        return 0


def _copied(api, platform, classes, wanted: list, batch: int) -> dict:
    """``{internal name: class file}`` of the ``wanted`` classes (``[(index in classes, name)]``), as one
    retransformation hands them to a transformer that keeps a copy and changes nothing."""
    import jpype

    names = {name for _, name in wanted}
    originals: dict = {}

    def keep_copy(loader, name, being_redefined, data):
        if name is not None and (loader is None or loader.equals(platform)) and str(name) in names:
            originals[str(name)] = bytes(memoryview(data))
        return None

    copier = transformer_class()(keep_copy)
    api.api.addTransformer(copier, True)
    try:
        for at in range(0, len(wanted), batch):
            try:
                api.api.retransformClasses(api.pick(classes, [i for i, _ in wanted[at:at + batch]]))
            except jpype.JClass("java.lang.Throwable"):
                pass  # those not copied are counted by the transformer, as without helpers
    finally:
        api.api.removeTransformer(copier)
    return originals


def _main() -> int:
    header, _, pack = sys.stdin.buffer.read().partition(b"\n")
    work = json.loads(header.decode())
    records, whole = read_pack(pack)
    cache = DeepCache(work["library"])
    if str(cache.folder) != work["folder"] or not whole:  # another plugin version than the set-up's, or cut short
        print(json.dumps({"kept": 0, "why": f"cache folder {cache.folder}" if whole else "the classes were cut short"}))
        return 1
    numbers = MethodNumbers()
    cache.sync(numbers)
    started = time.monotonic()
    kept = count_and_keep(cache, numbers, [(name, bytes(data)) for name, data in records.items()])
    print(json.dumps({"kept": kept, "seconds": time.monotonic() - started}))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
