"""Proof that a refactoring changed no behaviour: a digest of what the instrumenter produces, before and after.

    python benchmarks/equivalence.py digest OUT.txt [SOURCE ...]
    python benchmarks/equivalence.py compare BEFORE.txt AFTER.txt

``digest`` writes one sorted line per unit of work, ``<source> <unit> <options> <hashes...>``:

- every class of the real-world corpus (tests/support/corpus.py, the whole of it, never the CI sample) and
  of the counting fixtures' builds, instrumented with every method as a target, once per option set
  (``block``, ``instruction``, ``block+abrupt+allocations``), one batch per source and option set as
  benchmarks/corpus.py counts them: ``bytes=`` the SHA-256 of the instrumented class file, ``maps=`` that of
  its counter maps described field by field, ``counts=`` that of the counts JSON its methods get from a
  fixed synthetic counter array (the derivation from raw counters, without a JVM). A class with nothing to
  count gets ``original=``, the SHA-256 of its unchanged bytes;
- per batch (unit ``:batch``) the layout resource's hash and the numbers of counters and maps; per refusal
  (a method left uncounted for passing 64 KB; unit ``:refused:<method>``) its message's hash, the message
  itself going to stderr; and (``:input``) the hash of the classes read, so that a changed corpus is told
  apart from a changed instrumenter;
- per counting fixture main and build (source ``fixtures/<build>``): the SHA-256 of the counts JSON the
  command line's ``count`` prints for a real run on HotSpot 17 (one subprocess per main), with the
  exit status, for the same three option sets.

``digest --without-key KEY OUT.txt [SOURCE ...]`` (the option before the file) hashes the counts JSON and the layout resource as if ``KEY`` (a string
value such as ``bytecode_sha256``) were absent: after a change that adds such a key on purpose, it shows that
nothing else moved.

``compare`` prints how many units are equal and every one that differs, is missing or is new; its exit
status is 1 when any does. Take a digest before the refactoring and one after, on the same machine:

    python benchmarks/equivalence.py digest before.txt      # about 25 minutes on 2 cores
    python benchmarks/equivalence.py digest after.txt
    python benchmarks/equivalence.py compare before.txt after.txt

SOURCE names: the corpus's (java.base, java.base-25, guava, ...), ``counting-<build>`` for the fixtures'
classes and ``fixtures`` for the counting runs; none means all of them. The script reaches the package
only through the two imports marked below and ``python -m pytest_bytecount``, so it keeps working when
the package's modules move: update those two lines if ``instrument`` or ``Classpath`` moves.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from _support import (  # first: this checkout's package
    BUILD_MAINS, CORPUS_NAMES, FIXTURES_JAVA, LEGACY_TARGETS, TARGET_CLASSES, compile_java, corpus_source, iter_classes,
    jdk17_home,
)

# --- The package's internals this script uses: the only lines a reorganisation should need to update. ---
from pytest_bytecount.classfile.classpath import Classpath  # noqa: E402
try:
    from pytest_bytecount.counting.pipeline.per_class import ClassCounter  # noqa: E402
except ImportError:  # the layout before counting/ was grouped, so that a digest of that code can be taken
    from pytest_bytecount.counting.per_class import ClassCounter  # noqa: E402
try:
    from pytest_bytecount.counting.options import CountingOptions  # noqa: E402
except ImportError:  # before the options were one value
    CountingOptions = None
# ---------------------------------------------------------------------------------------------------------

# Option set name -> keyword arguments of ``ClassCounter`` and the command line's flags.
OPTION_SETS = {
    "block": ({"strategy": "block"}, ["--strategy", "block"]),
    "instruction": ({"strategy": "instruction"}, ["--strategy", "instruction"]),
    "block+abrupt+allocations": ({"strategy": "block", "abrupt": True, "allocations": True},
                                 ["--strategy", "block", "--abrupt", "--allocations"]),
}
# the counting runs also count inclusively (every application class counted and linked)
RUN_OPTION_SETS = {**OPTION_SETS, "block+inclusive": ({"strategy": "block", "inclusive": True},
                                                      ["--strategy", "block", "--inclusive"])}
BUILDS = tuple(BUILD_MAINS)  # javac17, javac8, ecj45, ecj48
FIXTURE_SOURCES = tuple(f"counting-{b}" for b in BUILDS)
COUNTING_RUNS = "fixtures"
ALL_SOURCES = (*CORPUS_NAMES, *FIXTURE_SOURCES, COUNTING_RUNS)
PROGRESS_EVERY = 500  # classes


def sha(data) -> str:
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode("utf-8")).hexdigest()


def field(text: str) -> str:
    """A name as one space-free field of a digest line (class names never hold one; made sure anyway)."""
    return text.replace("%", "%25").replace(" ", "%20").replace("\n", "%0A").replace("\t", "%09")


# --------------------------------------------------------------------------- describing counter maps


def plain(value):
    """``value`` as JSON-ready data, by its fields alone: no type or module name, so the description survives
    the classes moving or being renamed; sets and mappings sorted, so it never depends on hash order.
    Names starting with ``_`` are caches (CounterMap keeps index tables there once asked), not state."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if not f.name.startswith("_")}
    if isinstance(value, Mapping):
        pairs = sorted(([plain(k), plain(v)] for k, v in value.items()), key=lambda kv: _key(kv[0]))
        return dict(pairs) if all(isinstance(k, str) for k, _ in pairs) else pairs
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=_key)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "__dict__"):
        return {k: plain(v) for k, v in sorted(vars(value).items()) if not k.startswith("_")}
    if hasattr(value, "__slots__"):
        return {k: plain(getattr(value, k)) for k in sorted(value.__slots__) if not k.startswith("_")}
    return str(value)


def _key(value) -> str:
    return json.dumps(value, sort_keys=True)


def describe(maps: list) -> str:
    return json.dumps([plain(m) for m in maps], sort_keys=True, separators=(",", ":"))


def class_of(method_id: str) -> str:
    """The internal class name of a method id as the counts JSON spells it (``pkg.Outer$Inner#name(desc)``)."""
    return method_id.split("#", 1)[0].replace(".", "/")


def synthetic_values(size: int) -> list:
    """A fixed counter array with zeros among small numbers: enough to tell one derivation from another."""
    return [(i * 2654435761 >> 7) % 7 for i in range(size)]


# --------------------------------------------------------------------------- instrumenting a source


def source_classes(name: str) -> tuple[Path, dict]:
    """(classpath root, {internal name: original bytes}) of a corpus source or a fixture build."""
    if name in FIXTURE_SOURCES:
        root = fixture_builds()[name.split("-", 1)[1]]
        return root, {str(p.relative_to(root).with_suffix("")).replace(os.sep, "/"): p.read_bytes()
                      for p in sorted(root.rglob("*.class"))}
    source = corpus_source(name)
    return source.path, dict(iter_classes(source))


def new_counter(classpath, kwargs: dict):
    """A ClassCounter of every class, counted as ``kwargs`` say: through CountingOptions, or as the constructor took
    them before (keywords)."""
    try:
        return ClassCounter(classpath, CountingOptions(("**",), **kwargs))
    except TypeError:  # no CountingOptions, or one without these fields
        return ClassCounter(classpath, ["**"], **kwargs)


def digest_source(name: str, out: list) -> int:
    """Append ``name``'s units to ``out``; returns its number of classes."""
    root, originals = source_classes(name)
    out.append(f"{field(name)} :input - classes={len(originals)} "
               f"sha256={sha(''.join(f'{n} {sha(d)}' + chr(10) for n, d in sorted(originals.items())))}")
    for options, (kwargs, _flags) in OPTION_SETS.items():
        started = time.perf_counter()
        counter = new_counter(Classpath([Path(root)]), kwargs)
        names = counter.candidates()
        refused: list = []
        counters = maps = 0
        for done, cls in enumerate(sorted(set(originals) | set(names)), 1):
            key = f"{field(name)} {field(cls)} {options}"
            counted = counter.count(cls) if cls in names else None
            if counted is None:
                out.append(f"{key} original={sha(originals[cls])}")
            else:
                counts = counted.counts(synthetic_values(counted.size), lines=True)
                out.append(f"{key} bytes={sha(counted.data)} maps={sha(describe(list(counted.maps)))} "
                           f"counts={sha(json.dumps(counts, sort_keys=True, separators=(',', ':')))} "
                           f"counters_class={sha(counted.counters_data)}")
                refused += counted.refused
                counters += counted.size
                maps += len(counted.maps)
            if done % PROGRESS_EVERY == 0:
                print(f"equivalence: {name} {options}: {done} classes counted", file=sys.stderr, flush=True)
        out.append(f"{field(name)} :all {options} counters={counters} maps={maps} refused={len(refused)}")
        for i, message in enumerate(sorted(refused)):
            # The message opens with the method it names ("pkg.Cls#name(desc): code would be ..."): the unit.
            method = message.split(": ", 1)[0] if ": " in message else f"#{i}"
            out.append(f"{field(name)} :refused:{field(method)} {options} sha256={sha(message)}")
            print(f"equivalence: {name} {options}: refused {message}", file=sys.stderr, flush=True)
        print(f"equivalence: {name} {options}: {len(names)} classes, {maps} maps, {len(refused)} refused, "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return len(originals)


WITHOUT_KEYS: list = []  # --without-key


def without_keys(text: str) -> str:
    """``text`` (counts JSON or a layout resource) as if every key of :data:`WITHOUT_KEYS` were absent: its
    ``"KEY": "value", `` pieces removed, and a layout line that held nothing else removed too."""
    for key in WITHOUT_KEYS:
        piece = re.compile(r'"' + re.escape(key) + r'": "[^"]*", ')
        text = "".join(line for line in text.splitlines(keepends=True)
                       if not re.fullmatch(r"t" + piece.pattern + r"\n?", line))
        text = piece.sub("", text)
    return text


# --------------------------------------------------------------------------- counting the fixtures' mains


_BUILDS: dict = {}


def fixture_builds() -> dict:
    """{build: class root}: the counting fixtures compiled as tests/conftest.py's ``counting_classes`` does
    (cached by source hash, so the same class files as the tests')."""
    if not _BUILDS:
        counting = FIXTURES_JAVA / "counting"
        _BUILDS["javac17"] = compile_java(counting, release="17", options=["-g"])
        _BUILDS["javac8"] = compile_java(counting, release="8", options=["-g"])
        for major, options in LEGACY_TARGETS.items():
            _BUILDS[f"ecj{major}"] = compile_java(FIXTURES_JAVA / "counting-legacy", compiler="ecj",
                                                  options=[*options, "-g"])
    return _BUILDS


def count_main(root: Path, main: str, flags: list, scratch: Path) -> tuple[int, str]:
    """(exit status, counts JSON text) of ``python -m pytest_bytecount count`` on HotSpot 17."""
    output = scratch / "counts.json"
    output.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest_bytecount", "count", "--classpath", str(root), *_targets(main), *flags,
               "--java-home", str(jdk17_home()), "--jvm", "server", "--output", str(output), main]
    if "--no-cache" in _count_help():
        command.insert(4, "--no-cache")
    return _run(command, output)


def exit_hook_main(root: Path, main: str, flags: list, scratch: Path) -> tuple[int, str]:
    """(exit status, counts JSON text) of ``instrument``'s classes run on HotSpot 17 with ``-Dbytecount.out``."""
    out_dir, output = scratch / "instrumented", scratch / "exit.json"
    subprocess.run(["rm", "-rf", str(out_dir)], check=True)
    output.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest_bytecount", "instrument", "--classpath", str(root), *_targets(main),
               *flags, "--out", str(out_dir)]
    status, _ = _run(command, output)
    if status != 0:
        return status, ""
    java = [str(jdk17_home() / "bin" / "java"), "-cp", f"{out_dir}{os.pathsep}{root}", f"-Dbytecount.out={output}", main]
    return _run(java, output)


def _targets(main: str) -> list:
    return [a for c in TARGET_CLASSES[main] for a in ("--target", c.replace("/", "."))]


_HELP: list = []


def _count_help() -> str:
    if not _HELP:
        _HELP.append(subprocess.run([sys.executable, "-m", "pytest_bytecount", "count", "--help"],
                                    capture_output=True, text=True).stdout)
    return _HELP[0]


def _run(command: list, output: Path) -> tuple[int, str]:
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    if run.returncode != 0:
        print(f"equivalence: {' '.join(command)} exited with {run.returncode}:\n{run.stderr[-2000:]}",
              file=sys.stderr, flush=True)
    return run.returncode, output.read_text(encoding="utf-8") if output.exists() else ""


def ran(text: str) -> tuple[str, str, int]:
    """(the counts of the classes one of whose methods ran, their inclusive ``methods`` lists apart, the number
    of entries listed): a batch listed every target, run or not, and an inclusive target's ``methods`` were
    the methods instrumented for it; the classes counted as they load list the classes whose counted code
    ran, and a target's inclusive ``methods`` are those that contributed. The counts compared are the same."""
    if not text:
        return "", "", 0
    counts = json.loads(text)
    active = {m.split("#", 1)[0] for m, c in counts.items()
              if c["invocations"] or c.get("abrupt", {}).get("invocations")}
    kept = {m: c for m, c in counts.items() if m.split("#", 1)[0] in active}
    methods = {m: c["inclusive"].pop("methods") for m, c in kept.items() if "inclusive" in c}
    return without_keys(json.dumps(kept, sort_keys=True)), json.dumps(methods, sort_keys=True), len(counts)


def digest_counting_runs(out: list) -> int:
    """Append the counting runs' units to ``out``: per main and option set, ``count``'s JSON and the exit
    hook's; returns the number of runs."""
    runs = 0
    with tempfile.TemporaryDirectory(prefix="equivalence-") as scratch:
        for build, root in fixture_builds().items():
            for main in BUILD_MAINS[build]:
                for options, (_kwargs, flags) in RUN_OPTION_SETS.items():
                    for how, run in (("count", count_main), ("exit-hook", exit_hook_main)):
                        status, text = run(root, main, flags, Path(scratch))
                        counts, methods, listed = ran(text)
                        out.append(f"fixtures/{build}/{how} {main} {options} status={status} counts={sha(counts)}")
                        out.append(f"fixtures/{build}/{how} {main}:listed {options} entries={listed} "
                                   f"inclusive_methods={sha(methods)}")
                        runs += 1
            print(f"equivalence: fixtures/{build}: {runs} counting runs so far", file=sys.stderr, flush=True)
    return runs


# --------------------------------------------------------------------------- the two commands


def digest(path: Path, sources: list) -> int:
    started = time.perf_counter()
    units: list = []
    classes = runs = 0
    for name in sources:
        if name == COUNTING_RUNS:
            runs += digest_counting_runs(units)
        else:
            classes += digest_source(name, units)
    units.sort()
    path.write_text("".join(line + "\n" for line in units), encoding="utf-8")
    print(f"equivalence: {len(units)} units, {classes} classes, {runs} counting runs, "
          f"{time.perf_counter() - started:.0f} s -> {path}", file=sys.stderr, flush=True)
    return 0


def read_digest(path: Path) -> dict:
    """{(source, unit, options): the rest of the line}."""
    units = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        source, unit, options, rest = line.split(" ", 3)
        units[(source, unit, options)] = rest
    return units


def compare(a_path: Path, b_path: Path, ignore: tuple = ()) -> int:
    """Print the units that differ, are missing or are new; ``ignore``: fields left out of the comparison
    (say, ``counters_class`` after a change to the Counters class on purpose)."""
    a, b = read_digest(a_path), read_digest(b_path)
    if ignore:
        a, b = ({k: " ".join(f for f in v.split(" ") if f.split("=", 1)[0] not in ignore) for k, v in d.items()}
                for d in (a, b))
    equal = sum(1 for k in a if b.get(k) == a[k])
    differ = sorted(k for k in a if k in b and b[k] != a[k])
    missing, new = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    for k in differ:
        before, after = dict(_fields(a[k])), dict(_fields(b[k]))
        changed = [f for f in sorted(before.keys() | after.keys()) if before.get(f) != after.get(f)]
        print(f"DIFFERS {' '.join(k)}: {', '.join(changed) or a[k] + ' -> ' + b[k]}")
    for k in missing:
        print(f"ONLY IN {a_path.name} {' '.join(k)}")
    for k in new:
        print(f"ONLY IN {b_path.name} {' '.join(k)}")
    print(f"{equal} units equal, {len(differ)} differ, {len(missing)} only in {a_path.name}, "
          f"{len(new)} only in {b_path.name}" + (f" ({', '.join(ignore)} left out)" if ignore else ""))
    return 1 if differ or missing or new else 0


def _fields(rest: str) -> list:
    return [tuple(f.split("=", 1)) if "=" in f else (f, f) for f in rest.split(" ")]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("digest", help="write the digest of every unit of work")
    d.add_argument("out", type=Path)
    d.add_argument("sources", nargs="*", metavar="SOURCE", help=f"default: all of {', '.join(ALL_SOURCES)}")
    d.add_argument("--without-key", action="append", default=[], metavar="KEY",
                   help="hash counts and layouts as if this key were absent (repeatable)")
    c = sub.add_parser("compare", help="compare two digests; exit status 1 if any unit differs")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--ignore", action="append", default=[], metavar="FIELD",
                   help="leave this field out of the comparison (repeatable)")
    args = parser.parse_args(argv)
    if args.command == "compare":
        return compare(args.a, args.b, tuple(args.ignore))
    unknown = [s for s in args.sources if s not in ALL_SOURCES]
    if unknown:
        parser.error(f"unknown source {', '.join(unknown)}; known: {', '.join(ALL_SOURCES)}")
    WITHOUT_KEYS[:] = args.without_key
    return digest(args.out, list(args.sources) or list(ALL_SOURCES))


if __name__ == "__main__":
    sys.exit(main())
