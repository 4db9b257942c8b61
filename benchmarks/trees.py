"""What keeping a calling-context tree costs a deep test: this checkout beside another one that records no trees.

    python benchmarks/trees.py --against OTHER-CHECKOUT [--rounds 5] [--java-home DIR] [--size 2048]

The project holds one test over the six JDK-heavy methods of fixtures-java/deep-cases (good versions) at size n,
deep counts taken by default: most of its work is the JDK's, where every method's entry now makes or finds its node
of the tree. Each round runs the session with this checkout and with ``--against`` (a checkout of the code before
trees were recorded), alternating which goes first; each keeps its own deep cache, warmed by a session before the
rounds.

Printed per checkout, as medians over the rounds: the test's call phase (``--durations``), the whole pytest process's
wall time and its CPU time (user + system, every thread). The ratios this/against are the figures the target names
(a deep test keeping its tree at most 1.5x the same test without one).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _support import ROOT, child_cpu, java_version, jdk17_home  # first: this checkout's package
from tests.support.deep_cases import SOURCES, heavy_test

_CALL = re.compile(r"^([0-9.]+)s call ", re.M)


def project(folder: Path, size: int, java_home: str) -> Path:
    import shutil

    (folder / "tests").mkdir(parents=True)
    shutil.copytree(SOURCES, folder / "src")
    (folder / "tests" / "test_heavy.py").write_text(heavy_test(size))
    (folder / "pyproject.toml").write_text(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{java_home}"\n\n'
                                           '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    return folder


def session(folder: Path, checkout: Path) -> tuple:
    """(call seconds, wall seconds, CPU seconds) of one ``python -m pytest`` of ``checkout``'s plugin in ``folder``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(checkout)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--durations=0",
               "--durations-min=0", "--bytecount-update"]
    cpu, start = child_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the session in {folder} failed:\n{done.stdout}")
    found = _CALL.search(done.stdout)
    if found is None:
        raise SystemExit(f"no call duration in:\n{done.stdout}")
    return float(found.group(1)), wall, child_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="a checkout that records no trees")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--java-home", default=None, help="the JDK the sessions run on (default: JDK 17)")
    args = parser.parse_args()
    java_home = args.java_home or str(jdk17_home())
    checkouts = {"trees": ROOT, "no trees": args.against.resolve()}
    with tempfile.TemporaryDirectory() as tmp:
        folders = {k: project(Path(tmp) / k.replace(" ", "-"), args.size, java_home) for k in checkouts}
        for k in checkouts:  # compiled, the deep cache warm
            session(folders[k], checkouts[k])
        figures: dict = {k: [] for k in checkouts}
        for r in range(args.rounds):
            for k in (checkouts if r % 2 == 0 else reversed(list(checkouts))):
                figures[k].append(session(folders[k], checkouts[k]))
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
    print(f"{datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores, Java {java_version(Path(java_home))} "
          f"at {java_home}")
    print(f"python benchmarks/trees.py --against CHECKOUT --rounds {args.rounds} --size {args.size}")
    medians = {k: tuple(statistics.median(row[i] for row in rows) for i in range(3)) for k, rows in figures.items()}
    print(f"{'checkout':<12} {'test call':>10} {'wall':>8} {'CPU':>8}")
    for k, (call, wall, cpu) in medians.items():
        print(f"{k:<12} {call:>9.2f}s {wall:>7.2f}s {cpu:>7.2f}s")
    (c1, w1, p1), (c0, w0, p0) = medians["trees"], medians["no trees"]
    print(f"{'ratio':<12} {c1 / c0:>9.2f}x {w1 / w0:>7.2f}x {p1 / p0:>7.2f}x")


if __name__ == "__main__":
    main()
