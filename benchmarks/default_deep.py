"""What deep counts by default cost a session: the demo as a user runs it, beside the same session with flat counts.

    python benchmarks/default_deep.py [--rounds 5] [--java-home DIR] [--jdk-heavy]

A copy of examples/demo (its sources compiled by the session, its committed baselines) is run as a user runs it,
``python -m pytest``, in two settings that alternate within each round:

- ``deep (default)``: the markers as the README writes them, deep counts taken by default, the deep cache warm
  (one session before the rounds fills it);
- ``flat``: the same project with ``deep = false`` in ``[tool.bytecount]``.

With ``--jdk-heavy`` the project instead holds one test over the six JDK-heavy methods of
fixtures-java/deep-cases (good versions) at n = 2,048, where most of the work is the JDK's.

Each cell is the median over the rounds of the whole pytest process: wall time, and CPU time (user + system, every
thread of the child). The deep/flat ratios are the figures the targets name (default session at most 1.3x flat, a
JDK-heavy test at most 2x).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _support import ROOT, java_version, jdk17_home, timed_session  # first: this checkout's package
from tests.support.deep_cases import SOURCES, heavy_test

DEMO = ROOT / "examples" / "demo"



def project(folder: Path, heavy: bool, flat: bool, java_home: str) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    if heavy:
        (folder / "tests").mkdir(parents=True)
        shutil.copytree(SOURCES, folder / "src")
        (folder / "tests" / "test_heavy.py").write_text(heavy_test(2048))
        (folder / "pyproject.toml").write_text('[tool.bytecount]\nsources = ["src"]\n\n[tool.pytest.ini_options]\n'
                                               'testpaths = ["tests"]\n')
    else:
        shutil.copytree(DEMO, folder, ignore=shutil.ignore_patterns(".bytecount-cache", ".pytest_cache", "__pycache__"))
    pyproject = folder / "pyproject.toml"
    extra = f'java-home = "{java_home}"\n' + ("deep = false\n" if flat else "")
    pyproject.write_text(pyproject.read_text().replace("[tool.bytecount]\n", "[tool.bytecount]\n" + extra, 1))
    return folder


def session(folder: Path, env: dict) -> tuple:
    """(wall seconds, CPU seconds) of one ``python -m pytest`` in ``folder``; every test must pass or be new."""
    return timed_session([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--bytecount-update"],
                         folder, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--java-home", default=None, help="the JDK the sessions run on (default: JDK 17)")
    parser.add_argument("--jdk-heavy", action="store_true", help="the six JDK-heavy methods instead of the demo")
    args = parser.parse_args()
    java_home = args.java_home or str(jdk17_home())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        folders = {kind: project(Path(tmp) / kind.split()[0], args.jdk_heavy, kind == "flat", java_home)
                   for kind in ("deep (default)", "flat")}
        for folder in folders.values():  # the projects' classes compiled, the deep cache warm
            session(folder, env)
        figures: dict = {kind: [] for kind in folders}
        for r in range(args.rounds):
            for kind in (folders if r % 2 == 0 else reversed(list(folders))):
                figures[kind].append(session(folders[kind], env))
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
    print(f"{datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores, Java {java_version(Path(java_home))} "
          f"at {java_home}")
    print(f"python benchmarks/default_deep.py --rounds {args.rounds}" + (" --jdk-heavy" if args.jdk_heavy else ""))
    medians = {kind: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
               for kind, rows in figures.items()}
    print(f"{'session':<16} {'wall':>8} {'CPU':>8}")
    for kind, (wall, cpu) in medians.items():
        print(f"{kind:<16} {wall:>7.2f}s {cpu:>7.2f}s")
    (dw, dc), (fw, fc) = medians["deep (default)"], medians["flat"]
    print(f"{'deep / flat':<16} {dw / fw:>7.2f}x {dc / fc:>7.2f}x")


if __name__ == "__main__":
    main()
