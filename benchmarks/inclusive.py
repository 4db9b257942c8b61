"""What inclusive counts cost: time and allocation of the same kernels original, flat and inclusive (figures).

    python benchmarks/inclusive.py [--java-home DIR] [--runs 25]

``inclusive.Kernels`` (benchmarks/java/inclusive): ``fib(27)``, whose every invocation calls itself or a
one-instruction ``leaf``, and ``sum(3,000,000)``, a loop calling a tiny ``step``: the worst case, where
nearly all the work is calls between instrumented methods. The original class, the targets counted flat
(block strategy), counted with ``inclusive=True`` as one batch (``count``, ``instrument``) and as the
plugin counts them, class by class as they load, are loaded side by side in one JVM and called in
alternation; the median of the runs after the first ``--runs // 2 - 2`` is reported, with the calling
thread's exact allocated bytes (``ThreadMXBean.getCurrentThreadAllocatedBytes``) over one more call each.
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
from pytest_bytecount.counting.instrument import instrument
from pytest_bytecount.counting.per_class import ClassCounter
from pytest_bytecount.jvm.loaders import LoadTimeLoaders
from pytest_bytecount.jvm.session import ClassDir, JvmSession, choose_jvm

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
    batches = {"flat": instrument(classpath, targets), "inclusive": instrument(classpath, targets, inclusive=True)}
    session = JvmSession(choose_jvm(args.java_home), [])
    session.start()
    import jpype

    mx = jpype.JObject(jpype.JClass("java.lang.management.ManagementFactory").getThreadMXBean(),
                       jpype.JClass("com.sun.management.ThreadMXBean"))
    forname = jpype.JClass("java.lang.Class").forName
    dirs = {name: ClassDir(b) for name, b in batches.items()}
    loaders = {"original": session.loader_without_instrumentation(classpath.entries)}
    loaders.update({name: session.loader(d.path, classpath.entries) for name, d in dirs.items()})
    as_they_load = LoadTimeLoaders(session, ClassCounter(classpath, targets, inclusive=True), classpath.entries).new()
    loaders["as they load"] = as_they_load.loader
    kernels = {name: jpype.JClass(forname("inclusive.Kernels", True, loader)) for name, loader in loaders.items()}
    print(f"{session.vm_name()}, {args.runs} runs")
    print("| kernel | original ms | flat × | inclusive × | inclusive as they load × | bytes allocated by one call, "
          "inclusive / as they load |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
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
        for name in ("inclusive", "as they load"):
            before = mx.getCurrentThreadAllocatedBytes()
            getattr(kernels[name], kernel)(arg)
            allocated.append(mx.getCurrentThreadAllocatedBytes() - before)
        print(f"| {kernel}({arg:,}) | {med['original'] * 1000:.2f} | {med['flat'] / med['original']:.2f} | "
              f"{med['inclusive'] / med['original']:.2f} | {med['as they load'] / med['original']:.2f} | "
              f"{allocated[0]} / {allocated[1]} |")
    counts = batches["inclusive"].counts(session.read_counters(loaders["inclusive"], batches["inclusive"].size))
    loaded = as_they_load.counts()
    for method, c in counts.items():
        print(f"{method}: flat total {c['total']:,}, inclusive total {c['inclusive']['total']:,} "
              f"(as they load: {loaded[method]['inclusive']['total']:,})")
    for d in dirs.values():
        d.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
