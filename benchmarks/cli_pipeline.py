"""``count`` and ``instrument`` on a whole library, this checkout against another (figures only, subprocesses).

    python benchmarks/cli_pipeline.py [--compare-with CHECKOUT] [--rounds 3] [--jar /usr/share/java/guava.jar]

``benchmarks/java/guava/GuavaWork.java`` (compiled here) splits a string with guava's ``Splitter`` and
copies four lists with ``ImmutableList.copyOf``. Two commands count it:

- ``glob``: ``count --target 'com.google.common.**'`` (every guava class a target);
- ``inclusive``: ``count --inclusive --target com.google.common.collect.ImmutableList#copyOf``;

and ``instrument --target 'com.google.common.**'`` writes every guava class counted (``instrument``).

Each run is a whole ``python -m pytest_bytecount`` subprocess (``count`` on HotSpot 17), timed on the wall
clock: ``cold`` with an empty cache folder (``--cache-dir``, for a checkout whose ``count`` has one), then
``warm`` with the folder the cold run filled. Rounds alternate the checkouts; medians are printed, with
the ratio of the other checkout's time to this one's. Per command it also prints what the JSON lists (the
methods, and for the inclusive target its ``methods``) and whether the two checkouts give the same counts
for the classes whose code ran (a checkout that listed every matched method, run or not, lists more).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import NamedTuple

from _support import ROOT, child_cpu, compile_java, jdk17_home  # first: this checkout's package

COMMANDS = {
    "glob": ["--target", "com.google.common.**"],
    "inclusive": ["--inclusive", "--target", "com.google.common.collect.ImmutableList#copyOf"],
    "instrument": ["--target", "com.google.common.**"],
}
MAIN = "guava.GuavaWork"


class Run(NamedTuple):
    seconds: float  # wall clock
    text: str  # the JSON printed (``instrument``: the files written, one name a line)
    cpu: float  # user + system CPU seconds of the command's process


def run(checkout: Path, classpath: str, command_name: str, flags: list, cache: Path, jar: bool = False) -> Run:
    """One ``count`` (or ``instrument``, into a folder or with ``jar`` into one jar) run with ``checkout``'s
    package."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    help_text = subprocess.run([sys.executable, "-m", "pytest_bytecount", "count", "--help"], env=env,
                               cwd=tempfile.gettempdir(), capture_output=True, text=True).stdout
    cache_flags = ["--cache-dir", str(cache)] if "--cache-dir" in help_text else []
    if command_name == "instrument":
        out = cache.parent / (cache.name + ("-out.jar" if jar else "-out"))
        shutil.rmtree(out, ignore_errors=True)
        out.unlink(missing_ok=True)
        command = [sys.executable, "-m", "pytest_bytecount", "instrument", "--classpath", classpath, *flags,
                   *cache_flags, "--out", str(out)]
    else:
        command = [sys.executable, "-m", "pytest_bytecount", "count", "--classpath", classpath, *flags, *cache_flags,
                   "--java-home", str(jdk17_home()), MAIN]
    started, cpu = time.perf_counter(), child_cpu()
    done = subprocess.run(command, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=1800)
    seconds, cpu = time.perf_counter() - started, child_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    if command_name == "instrument" and jar:
        with zipfile.ZipFile(out) as z:
            files = sorted(n for n in z.namelist() if not n.endswith("/"))
        out.unlink()
        return Run(seconds, "\n".join(files), cpu)
    if command_name == "instrument":
        files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
        shutil.rmtree(out, ignore_errors=True)
        return Run(seconds, "\n".join(files), cpu)
    return Run(seconds, done.stdout, cpu)


def ran(text: str) -> dict:
    """The counts of the classes one of whose methods ran, without inclusive ``methods`` (compared apart)."""
    counts = json.loads(text)
    active = {m.split("#", 1)[0] for m, c in counts.items() if c["invocations"]}
    kept = {m: c for m, c in counts.items() if m.split("#", 1)[0] in active}
    for c in kept.values():
        c.get("inclusive", {}).pop("methods", None)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare-with", type=Path, help="another checkout of pytest-bytecount, run side by side")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jar", type=Path, default=Path("/usr/share/java/guava.jar"))
    args = parser.parse_args()
    if not args.jar.is_file():
        sys.exit(f"{args.jar} not found: apt-get install libguava-java")
    classes = compile_java(ROOT / "benchmarks" / "java" / "guava", classpath=[str(args.jar)])
    classpath = f"{classes}{os.pathsep}{args.jar}"
    checkouts = {"this": ROOT}
    if args.compare_with is not None:
        checkouts["other"] = args.compare_with.resolve()
    times: dict = {}
    texts: dict = {}
    for r in range(args.rounds):
        for name in (checkouts if r % 2 == 0 else list(reversed(checkouts))):
            for command, flags in COMMANDS.items():
                cache = Path(tempfile.mkdtemp(prefix="bytecount-cli-cache-"))
                try:
                    for phase in ("cold", "warm"):
                        seconds, text, _ = run(checkouts[name], classpath, command, flags, cache)
                        times.setdefault((name, command, phase), []).append(seconds)
                        texts[(name, command)] = text
                finally:
                    shutil.rmtree(cache, ignore_errors=True)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    print(f"# count on guava ({args.jar.name}), median of {args.rounds}; {platform.node()}, "
          f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}")
    print("| command | checkout | cold s | warm s | methods listed (instrument: files written) | inclusive methods |")
    print("| --- | --- | --- | --- | --- | --- |")
    for command in COMMANDS:
        for name in checkouts:
            if command == "instrument":
                files = texts[(name, command)].splitlines()
                print(f"| {command} | {name} | {statistics.median(times[(name, command, 'cold')]):.2f} | "
                      f"{statistics.median(times[(name, command, 'warm')]):.2f} | {len(files):,} | - |")
                continue
            counts = json.loads(texts[(name, command)])
            inclusive = [len(c["inclusive"]["methods"]) for c in counts.values() if "inclusive" in c]
            print(f"| {command} | {name} | {statistics.median(times[(name, command, 'cold')]):.2f} | "
                  f"{statistics.median(times[(name, command, 'warm')]):.2f} | {len(counts):,} | "
                  f"{', '.join(f'{n:,}' for n in inclusive) or '-'} |")
    if "other" in checkouts:
        for command in COMMANDS:
            for phase in ("cold", "warm"):
                ratio = statistics.median(times[("other", command, phase)]) / statistics.median(times[("this", command, phase)])
                print(f"{command} {phase}: other / this = {ratio:.2f}x")
            if command != "instrument":
                same = ran(texts[("this", command)]) == ran(texts[("other", command)])
                print(f"{command}: the same counts for the classes whose code ran: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
