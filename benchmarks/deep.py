"""What deep counts cost: a deep-marked test against the same test flat, and a session's extra start-up.

    python benchmarks/deep.py [--rounds 3] [--repeat 8]

One temporary project holds two workloads, each as a flat test and as the same test marked ``deep=True``:

- ``demo``: the README's demo, ``demo.Sorting#insertionSort`` on 200 reversed ints (the target's own loop,
  hardly any JDK code);
- ``collections``: the six JDK-heavy methods of fixtures-java/deep-cases (good versions) at n = 2,048: a
  HashSet, a HashMap of strings, an ArrayList read by index, an ArrayDeque, a StringBuilder, a HashSet of keys.

Each test is parametrized ``--repeat`` times. Sessions are whole ``pytest`` subprocesses on HotSpot 17, timed by
pytest itself (``--junitxml``: setup + call + teardown per test), in this order per round:

- ``flat``: the flat tests only (the JVM starts as usual);
- ``deep, cold``: the deep tests only, with an empty deep cache (every JDK class counted afresh);
- ``deep, warm``: the same again, the deep cache filled.

Per workload it prints the median time of a test (the first test of a session, which starts the JVM, left
out) and the deep/flat ratio; per session kind the median wall time of the whole session and the first
test's own time (JVM start, and for deep the counting of the JVM's loaded classes), and the deep sessions'
extra start-up over the flat session's.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from _support import ROOT, jdk17_home  # first: this checkout's package

CASES = ROOT / "fixtures-java" / "deep-cases" / "good"
DEMO = ROOT / "examples" / "demo" / "src"

TESTS = '''
import jpype
import pytest

REPEAT = range({repeat})
CASES = [("Dedup", "unique"), ("Prices", "total"), ("Sales", "total"), ("Tasks", "drain"), ("Csv", "join"),
         ("Points", "distinct")]


@pytest.mark.bytecount("demo.Sorting#insertionSort"{deep})
@pytest.mark.parametrize("r", REPEAT)
def test_demo(bytecount, r):
    sorting = bytecount.jclass("demo.Sorting")
    a = jpype.JArray(jpype.JInt)(range(200, 0, -1))
    sorting.insertionSort(a)
    assert a[0] == 1


@pytest.mark.bytecount("cases.*#unique", "cases.*#total", "cases.*#drain", "cases.*#join", "cases.*#distinct"{deep})
@pytest.mark.parametrize("r", REPEAT)
def test_collections(bytecount, r):
    for cls, method in CASES:
        assert getattr(bytecount.jclass("cases." + cls), method)(2048) >= 0
'''


def make_project(folder: Path, repeat: int) -> None:
    for root in (DEMO, CASES):
        for path in root.rglob("*.java"):
            target = folder / "src" / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    (folder / "pyproject.toml").write_text(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{jdk17_home()}"\n')
    (folder / "test_flat.py").write_text(TESTS.format(repeat=repeat, deep=""))
    (folder / "test_deep.py").write_text(TESTS.format(repeat=repeat, deep=", deep=True"))


def session(folder: Path, module: str, cache: Path) -> dict:
    """One pytest session on ``module`` (recording baselines): its wall time and each test's time."""
    env = dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache))
    xml = folder / "times.xml"
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--bytecount-update",
                           f"--junitxml={xml}", module], cwd=folder, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"pytest failed in {folder}:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    tests = [(case.get("name"), float(case.get("time"))) for case in ET.parse(xml).getroot().iter("testcase")]
    return {"wall": wall, "first": tests[0][1], "tests": tests[1:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bytecount-deep-bench-") as tmp:
        folder = Path(tmp) / "project"
        make_project(folder, args.repeat)
        session(folder, "test_flat.py", Path(tmp) / "unused")  # compiles the sources once (javac, cached)
        runs: dict = {"flat": [], "deep, cold": [], "deep, warm": []}
        for r in range(args.rounds):
            cache = Path(tmp) / f"deep-cache-{r}"
            runs["flat"].append(session(folder, "test_flat.py", cache))
            runs["deep, cold"].append(session(folder, "test_deep.py", cache))
            runs["deep, warm"].append(session(folder, "test_deep.py", cache))
    print(f"# {time.strftime('%Y-%m-%d')}, {platform.node()}, {os.cpu_count()} cores, HotSpot 17, "
          f"python benchmarks/deep.py --rounds {args.rounds} --repeat {args.repeat}")
    print("\nper test (median, the session's first test left out):")
    for workload in ("demo", "collections"):
        def per_test(kind):
            return statistics.median(t for run in runs[kind] for name, t in run["tests"] if name.startswith(f"test_{workload}"))
        flat, deep = per_test("flat"), per_test("deep, warm")
        print(f"  {workload:12} flat {flat * 1000:8.1f} ms   deep {deep * 1000:8.1f} ms   deep/flat {deep / flat:5.2f}x")
    print("\nsessions (median):")
    flat_wall = statistics.median(run["wall"] for run in runs["flat"])
    flat_first = statistics.median(run["first"] for run in runs["flat"])
    for kind, values in runs.items():
        wall = statistics.median(run["wall"] for run in values)
        first = statistics.median(run["first"] for run in values)
        extra = "" if kind == "flat" else f"   first test's extra start-up over flat {first - flat_first:5.2f} s"
        print(f"  {kind:11} whole session {wall:6.2f} s   first test {first:5.2f} s{extra}")
    print(f"  (flat session {flat_wall:.2f} s)")


if __name__ == "__main__":
    main()
