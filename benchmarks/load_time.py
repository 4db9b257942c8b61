"""What a marker costs when its pattern matches a whole library (figures only, pytest subprocesses).

    python benchmarks/load_time.py [--rounds 3] [--compare-with CHECKOUT] [--jar /usr/share/java/guava.jar]

One test splits a string with guava's ``Splitter`` (``libguava-java``). The same test is run in a fresh
temporary project under three markers:

- ``glob``: ``com.google.common.**`` (every guava class);
- ``nested``: ``com.google.common.base.Splitter$*`` (the classes that do the work);
- ``inclusive``: four tests of ``ImmutableList.copyOf`` marked ``inclusive=True``.

Each run is a whole ``python -m pytest --bytecount-update`` subprocess, timed on the wall clock: ``cold``
with no ``.bytecount-cache`` folder, then ``warm`` with the one the cold run left. Rounds alternate the
markers (and, with ``--compare-with``, the two checkouts), and the medians are printed with the ratios the
targets are about: glob/nested, cold and warm, and, across checkouts, before/after. The cache's size after
the glob run is printed too. ``--compare-with`` runs another checkout's package (put first on PYTHONPATH)
side by side with this one.
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
import textwrap
import time
from pathlib import Path

from _support import JDK17, ROOT  # first: this checkout's package

SPLIT_TEST = '''
import pytest

@pytest.mark.bytecount({marker!r})
def test_split(bytecount):
    Splitter = bytecount.jclass("com.google.common.base.Splitter")
    parts = list(Splitter.on(",").trimResults().split("a, b ,c,, d"))
    assert [str(p) for p in parts] == ["a", "b", "c", "", "d"]
'''

INCLUSIVE_TEST = '''
import pytest

@pytest.mark.bytecount("com.google.common.collect.ImmutableList#copyOf", inclusive=True)
@pytest.mark.parametrize("n", [0, 1, 10, 100])
def test_copy(bytecount, n):
    import jpype
    ImmutableList = bytecount.jclass("com.google.common.collect.ImmutableList")
    items = jpype.JClass("java.util.ArrayList")()
    for i in range(n):
        items.add(jpype.JInt(i))
    assert ImmutableList.copyOf(items).size() == n
'''

CASES = {"glob": SPLIT_TEST.format(marker="com.google.common.**"),
         "nested": SPLIT_TEST.format(marker="com.google.common.base.Splitter$*"),
         "inclusive": INCLUSIVE_TEST}


def project(folder: Path, case: str, jar: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(textwrap.dedent(f'''
        [tool.bytecount]
        classpath = [{str(jar)!r}]
        java-home = {JDK17!r}
    '''))
    (folder / "test_case.py").write_text(CASES[case])
    return folder


def run(folder: Path, checkout: Path) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(checkout) + os.pathsep + env.get("PYTHONPATH", "")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--bytecount-update"], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"pytest failed in {folder} ({checkout}):\n{done.stdout}")
    return elapsed


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def which_package(checkout: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    return subprocess.run([sys.executable, "-c", "import pytest_bytecount; print(pytest_bytecount.__file__)"],
                          env=env, cwd=tempfile.gettempdir(), stdout=subprocess.PIPE, text=True,
                          check=True).stdout.strip()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--compare-with", type=Path, help="another checkout of pytest-bytecount, run side by side")
    p.add_argument("--jar", type=Path, default=Path("/usr/share/java/guava.jar"))
    p.add_argument("--cases", default="glob,nested,inclusive")
    args = p.parse_args(argv)
    checkouts = {"this": ROOT}
    if args.compare_with is not None:
        checkouts["other"] = args.compare_with.resolve()
    for label, checkout in checkouts.items():
        print(f"{label}: {which_package(checkout)}")
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{args.jar.name}; {args.rounds} rounds")
    cases = args.cases.split(",")
    times: dict = {}
    sizes: dict = {}
    work = Path(tempfile.mkdtemp(prefix="bytecount-load-time-"))
    try:
        for r in range(args.rounds):
            for label, checkout in checkouts.items():
                for case in cases:
                    folder = project(work / f"{r}-{label}-{case}", case, args.jar)
                    times.setdefault((label, case, "cold"), []).append(run(folder, checkout))
                    sizes[(label, case)] = size(folder / ".bytecount-cache")
                    times.setdefault((label, case, "warm"), []).append(run(folder, checkout))
                    print(f"  round {r + 1}: {label} {case}: cold {times[(label, case, 'cold')][-1]:.2f} s, "
                          f"warm {times[(label, case, 'warm')][-1]:.2f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n{'checkout':8} {'case':10} {'cold s':>8} {'warm s':>8} {'cache':>10}")
    for label in checkouts:
        for case in cases:
            print(f"{label:8} {case:10} {median[(label, case, 'cold')]:8.2f} {median[(label, case, 'warm')]:8.2f} "
                  f"{sizes[(label, case)] / 1e6:8.2f} MB")
    for label in checkouts:
        if "glob" in cases and "nested" in cases:
            for kind in ("cold", "warm"):
                ratio = median[(label, "glob", kind)] / median[(label, "nested", kind)]
                print(f"{label}: glob / nested, {kind}: {ratio:.2f}x")
    if "other" in checkouts:
        for case in cases:
            for kind in ("cold", "warm"):
                ratio = median[("other", case, kind)] / median[("this", case, kind)]
                print(f"other / this, {case} {kind}: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
