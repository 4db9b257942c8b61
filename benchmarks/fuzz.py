"""Long fuzzing run of the class-file engine (figures and findings, not a test).

    python benchmarks/fuzz.py [--inputs 100000] [--seed 1] [--budget 2.0]

The same seeds and mutations as tests/classfile/test_fuzz.py (see tests/support/fuzz.py): the compiled
fixtures plus 30 guava and 15 commons-lang3 classes when installed, cut into pieces of a few methods,
each input damaged by one to three structure-aware mutations and run through every stage (parse, write,
decode, re-encode, re-parse, both counting strategies, reading the counted class back).

Prints progress every 30 s and a final table: inputs tried, inputs/s, outcomes by error type, contract
violations (anything but success or the engine's own errors, a failed round trip, an unusable message,
an input over the time budget), the slowest input, and the peak memory of the process. Each violation
is printed with its seed piece and mutations, so ``--replay SEED_INDEX 'MUTATIONS'`` reproduces it.
Exits 1 when there is any violation.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import os
import platform
import random
import resource
import signal
import sys
import time
from collections import Counter
from pathlib import Path

from _support import FIXTURES_JAVA, compile_java, fuzz  # first: this checkout's package

HANG_SECONDS = 60  # an input still running after this is stopped and reported as a hang


def seed_classes() -> list[bytes]:
    """The seeds of tests/classfile/test_fuzz.py: the fixtures as conftest.py compiles them, and the jars."""
    roots = [compile_java(FIXTURES_JAVA / "engine", release="17", options=["-g"])]
    for release in ("17", "8"):
        roots.append(compile_java(FIXTURES_JAVA / "counting", release=release, options=["-g"]))
    legacy = {"45": ["-source", "1.3", "-target", "1.1"], "48": ["-source", "1.4", "-target", "1.4"]}
    for options in legacy.values():
        for src in ("legacy", "counting-legacy"):
            roots.append(compile_java(FIXTURES_JAVA / src, compiler="ecj", options=[*options, "-g"]))
    classes = [data for root in roots for data in fuzz.class_files(root)]
    return classes + fuzz.jar_sample(fuzz.JARS / "guava.jar", 30) + fuzz.jar_sample(fuzz.JARS / "commons-lang3.jar", 15)


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed gives the same inputs")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds one input may take")
    parser.add_argument("--max-mutations", type=int, default=3)
    parser.add_argument("--long-weight", type=float, default=0.2,
                        help="how often a piece with a method over 8 KB is drawn, relative to any other piece")
    parser.add_argument("--replay", nargs=2, metavar=("SEED_INDEX", "MUTATIONS"),
                        help="run one input, as printed for a violation, and show its traceback")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    ordinary, long = fuzz.seed_pieces(seed_classes())
    seeds = ordinary + long
    layouts = [fuzz.layout(s) for s in seeds]
    if args.replay:
        index, mutations = int(args.replay[0]), ast.literal_eval(args.replay[1])
        print(fuzz.exercise(fuzz.mutate(seeds[index], layouts[index], mutations)))
        return 0
    rss_before = max_rss_mb()
    print(f"{len(seeds)} seed pieces ({len(long)} with a method over {fuzz.SPLIT_LIMIT:,} bytes), "
          f"{sum(map(len, seeds)) / 1e6:.2f} MB, ready in {time.perf_counter() - t0:.1f} s; "
          f"{args.inputs:,} inputs, seed {args.seed}, budget {args.budget} CPU s per input", flush=True)

    rng = random.Random(args.seed)
    outcomes: Counter = Counter()
    violations: dict = {}  # (stage, kind) -> (count, first seed index, first mutations, message)
    slowest = (0.0, None, None)
    signal.signal(signal.SIGALRM, _alarm)
    start = last = time.perf_counter()
    # a piece with a method over 8 KB costs a hundred times an ordinary one: draw those less often
    weights = [1.0] * len(ordinary) + [args.long_weight] * len(long)
    inputs = fuzz.iter_inputs(seeds, layouts, rng, args.max_mutations, weights)
    for n in range(1, args.inputs + 1):
        index, mutations, data = next(inputs)
        t = time.process_time()  # CPU time: other work on the machine does not count against an input
        signal.alarm(HANG_SECONDS)
        key = None
        try:
            outcomes[fuzz.exercise(data)] += 1
        except fuzz.ContractViolation as e:
            cause = type(e.cause).__name__ if e.cause is not None else "-"
            key, message = (e.stage, cause), str(e).splitlines()[0][:300]
        except Hang:
            key, message = ("hang", f"over {HANG_SECONDS} s"), "stopped"
        finally:
            signal.alarm(0)
        took = time.process_time() - t
        if key is None and took > args.budget:
            key, message = ("time budget", f"over {args.budget} s"), f"{took:.2f} s"
        if key is not None:
            outcomes["violation"] += 1
            count, *first = violations.get(key, (0, index, mutations, message))
            violations[key] = (count + 1, *first)
        if took > slowest[0]:
            slowest = (took, index, mutations)
        now = time.perf_counter()
        if now - last >= 30 or n == args.inputs:
            last = now
            done = ", ".join(f"{k} {v:,}" for k, v in outcomes.most_common())
            print(f"  {n:>9,} inputs  {n / (now - start):6.0f}/s  {done}", flush=True)
    elapsed = time.perf_counter() - start

    print()
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.platform()}, Python {platform.python_version()}; "
          f"{datetime.date.today().isoformat()}")
    print("| figure | value |\n| --- | ---: |")
    print(f"| inputs tried | {args.inputs:,} |")
    print(f"| time | {elapsed:,.0f} s |")
    print(f"| inputs/s | {args.inputs / elapsed:,.0f} |")
    for outcome, count in sorted(outcomes.items(), key=lambda kv: -kv[1]):
        print(f"| outcome: {outcome} | {count:,} ({100 * count / args.inputs:.1f}%) |")
    print(f"| contract violations | {sum(v[0] for v in violations.values()):,} |")
    print(f"| slowest input (CPU time) | {slowest[0]:.2f} s (seed piece {slowest[1]}) |")
    print(f"| peak memory (process max RSS) | {max_rss_mb():.0f} MB ({rss_before:.0f} MB before fuzzing) |")
    for (stage, kind), (count, index, mutations, message) in violations.items():
        print(f"\nVIOLATION {stage} / {kind}: {count:,} inputs; first: --replay {index} \"{mutations}\"\n  {message}")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
