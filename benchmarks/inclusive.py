"""What inclusive counts cost: time and allocation of the same kernels original, flat and inclusive (figures).

    python benchmarks/inclusive.py [--java-home DIR] [--runs 25]

``inclusive.Kernels`` (benchmarks/java/inclusive): ``fib(27)``, whose every invocation calls itself or a
one-instruction ``leaf``, and ``sum(3,000,000)``, a loop calling a tiny ``step``: the worst case, where
nearly all the work is calls between instrumented methods. The original class (a plain ``URLClassLoader``)
and the targets counted as the plugin counts them, class by class as a test's loader loads them
(``ClassCounter`` in a ``LoadTimeLoaders`` loader, block strategy), flat and with ``inclusive=True``, are
loaded side by side in one JVM and called in alternation; the median of the runs after the first
``--runs // 2 - 2`` is reported, with the calling thread's exact allocated bytes
(``ThreadMXBean.getCurrentThreadAllocatedBytes``) over one more call of each counted variant. Then each
target's counts: its flat total as the flat and as the inclusive loader counted it (both ran the same
calls, so they must agree) and its inclusive total.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _support import JDK17, ROOT  # first: this checkout's package
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter
from pytest_bytecount.jvm.loaders import LoadTimeLoaders
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

KERNELS = (("fib", 27), ("sum", 3_000_000))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--java-home", default=JDK17)
    p.add_argument("--runs", type=int, default=25)
    args = p.parse_args(argv)
    classes = Path(tempfile.mkdtemp(prefix="bytecount-inclusive-"))
    subprocess.run([str(Path(args.java_home) / "bin" / "javac"), "--release", "11", "-d", str(classes),
                    str(ROOT / "benchmarks/java/inclusive/Kernels.java")], check=True)
    classpath = Classpath.parse([str(classes)])
    targets = ["inclusive.Kernels#fib", "inclusive.Kernels#sum"]
    counters = {"flat": ClassCounter(classpath, targets), "inclusive": ClassCounter(classpath, CountingOptions(tuple(targets), inclusive=True))}
    for counter in counters.values():
        counter.check()
    session = JvmSession(choose_jvm(args.java_home), [])
    session.start()
    import jpype

    mx = jpype.JObject(jpype.JClass("java.lang.management.ManagementFactory").getThreadMXBean(),
                       jpype.JClass("com.sun.management.ThreadMXBean"))
    forname = jpype.JClass("java.lang.Class").forName
    handles = {name: LoadTimeLoaders(session, counter, classpath.entries).new() for name, counter in counters.items()}
    loaders = {"original": session.loader_without_instrumentation(classpath.entries)}
    loaders.update({name: h.loader for name, h in handles.items()})
    kernels = {name: jpype.JClass(forname("inclusive.Kernels", True, loader)) for name, loader in loaders.items()}
    print(f"{session.vm_name()}, {args.runs} runs")
    print("| kernel | original ms | flat × | inclusive × | bytes allocated by one call, flat / inclusive |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kernel, arg in KERNELS:
        times: dict = {name: [] for name in kernels}
        results = set()
        for _ in range(args.runs):
            for name, k in kernels.items():
                started = time.perf_counter()
                results.add(int(getattr(k, kernel)(arg)))
                times[name].append(time.perf_counter() - started)
        assert len(results) == 1, results
        skip = max(0, args.runs // 2 - 2)
        med = {name: statistics.median(v[skip:]) for name, v in times.items()}
        allocated = []
        for name in ("flat", "inclusive"):
            before = mx.getCurrentThreadAllocatedBytes()
            getattr(kernels[name], kernel)(arg)
            allocated.append(mx.getCurrentThreadAllocatedBytes() - before)
        print(f"| {kernel}({arg:,}) | {med['original'] * 1000:.2f} | {med['flat'] / med['original']:.2f} | "
              f"{med['inclusive'] / med['original']:.2f} | {allocated[0]} / {allocated[1]} |")
    counts = {name: h.counts() for name, h in handles.items()}
    mismatched = 0
    for method, c in counts["inclusive"].items():
        flat = counts["flat"][method]["total"]
        mismatched += flat != c["total"]
        agree = "" if flat == c["total"] else " -- MISMATCH between the flat and the inclusive loader's flat totals"
        print(f"{method}: flat total {flat:,} (inclusive loader: {c['total']:,}), "
              f"inclusive total {c['inclusive']['total']:,}{agree}")
    for h in handles.values():
        h.close()
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
