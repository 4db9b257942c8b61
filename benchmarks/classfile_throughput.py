"""Class-file engine throughput over the real-world corpus (figures, not a test).

    python benchmarks/classfile_throughput.py [SOURCE ...]

For each corpus source (java.base of JDK 17 and 25, guava, commons-lang3, eclipse-jdt-core, scala-library,
kotlin-stdlib, groovy, clojure; see tests/support/corpus.py) it prints classes per second for:
- parse + write with methods left undecoded (what happens to every non-target class),
- parse + decode every method into the label model + write (the lossless round trip),
- the stress edit (an iinc before every instruction, a new local, re-encode with frames).
Each figure is the best of --repeat runs over the whole source, in one process. benchmarks/corpus.py checks
the same corpus with both verifiers.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from _support import CORPUS_NAMES, corpus_source, iter_classes, stress_class  # first: this checkout's package
from pytest_bytecount.classfile import ClassFile


def copy_class(data: bytes) -> None:
    ClassFile.parse(data).to_bytes()


def round_trip_class(data: bytes) -> None:
    cf = ClassFile.parse(data)
    for m in cf.methods:
        m.code
    cf.to_bytes()


def stress(data: bytes) -> None:
    stress_class(data)


def best_time(fn, classes, repeat: int, clock=time.perf_counter) -> float:
    """The least time ``clock`` measured for ``fn`` over every class, of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        for data in classes:
            fn(data)
        best = min(best, clock() - t)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", default=list(CORPUS_NAMES))
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    header = f"{'source':18} {'classes':>8} {'methods':>8} {'MB':>6} | {'copy/s':>8} {'round-trip/s':>12} {'stress/s':>9} | {'stress total s':>14}"
    print(header)
    print("-" * len(header))
    totals = [0, 0.0, 0.0, 0.0]
    for name in args.sources:
        source = corpus_source(name)
        classes = [data for _, data in iter_classes(source)]
        methods = sum(1 for d in classes for m in ClassFile.parse(d).methods if m.has_code())
        size = sum(map(len, classes)) / 1e6
        t_copy = best_time(copy_class, classes, args.repeat)
        t_rt = best_time(round_trip_class, classes, args.repeat)
        t_stress = best_time(stress, classes, args.repeat)
        n = len(classes)
        totals[0] += n
        totals[1] += t_copy
        totals[2] += t_rt
        totals[3] += t_stress
        print(f"{name:18} {n:8d} {methods:8d} {size:6.1f} | {n / t_copy:8.0f} {n / t_rt:12.0f} {n / t_stress:9.0f} | {t_stress:14.1f}",
              flush=True)
    n, a, b, c = totals
    print(f"{'all':18} {n:8d} {'':8} {'':6} | {n / a:8.0f} {n / b:12.0f} {n / c:9.0f} | {c:14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
