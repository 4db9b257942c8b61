"""Counter storage does not grow with invocations (figures, not a test).

    python benchmarks/storage.py [--invocations 1000000]

Counts ``demo.Sorting#fib`` (examples/demo) as the plugin does, as a test's class loader loads the class
(``ClassCounter`` in a ``LoadTimeLoaders`` loader: ``demo.Sorting`` with a Counters class of its own), and
loads the original class next to the counted one in the same JVM. For 1, then ``--invocations``, then ten times as many invocations of ``fib`` (recursing inside
Java), it reads the calling thread's exact allocated-bytes counter
(``com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes``) around the calls, for the original
and for the counted class, and prints what counting allocated on top. Then 8 more threads run counted
code: each one allocates its own counter array once (8 bytes per counter) and nothing after.
"""

from __future__ import annotations

import argparse
import sys

from _support import JDK17, compiled_demo  # first: this checkout's package
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.pipeline.per_class import ClassCounter
from pytest_bytecount.jvm.loaders import LoadTimeLoaders
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

FIB25_CALLS = 242_785  # invocations of fib in one fib(25)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--invocations", type=int, default=1_000_000)
    p.add_argument("--java-home", default=JDK17)
    args = p.parse_args(argv)
    classes = compiled_demo(args.java_home)
    classpath = Classpath.parse([str(classes)])
    counter = ClassCounter(classpath, ["demo.Sorting#fib"])
    counter.check()
    size = counter.count("demo/Sorting").size  # the counters of demo.Sorting's own Counters class
    session = JvmSession(choose_jvm(args.java_home), [])
    session.start()
    import jpype

    mx = jpype.JClass("java.lang.management.ManagementFactory").getThreadMXBean()
    mx = jpype.JObject(mx, jpype.JClass("com.sun.management.ThreadMXBean"))
    forname = jpype.JClass("java.lang.Class").forName
    handle = LoadTimeLoaders(session, counter, classpath.entries).new()  # counts demo.Sorting as it loads
    original_loader = session.loader_without_instrumentation(classpath.entries)
    counted = jpype.JClass(forname("demo.Sorting", True, handle.loader))
    original = jpype.JClass(forname("demo.Sorting", True, original_loader))

    def allocated(cls, invocations: int) -> tuple[int, int]:
        """(bytes this thread allocated, invocations made) for about ``invocations`` calls of fib."""
        calls = max(1, invocations // FIB25_CALLS)
        n = 25 if invocations >= FIB25_CALLS else 1
        before = mx.getCurrentThreadAllocatedBytes()
        for _ in range(calls):
            cls.fib(n)
        return mx.getCurrentThreadAllocatedBytes() - before, calls * (FIB25_CALLS if n == 25 else 1)

    allocated(original, 1)  # JPype's own first-call costs, for both
    allocated(counted, 1)
    rows = []
    total = 1  # the counted warm-up call above
    for wanted in (1, args.invocations, 10 * args.invocations):
        a_orig, made = allocated(original, wanted)
        a_counted, made2 = allocated(counted, wanted)
        assert made == made2
        total += made
        rows.append((made, a_orig, a_counted))
    threads = jpype.JClass("java.util.concurrent.Executors").newFixedThreadPool(8)
    task = jpype.JClass("java.util.concurrent.Callable")
    futures = [threads.submit(jpype.JProxy(task, dict(call=lambda: counted.fib(22)))) for _ in range(8)]
    for f in futures:
        f.get()
    threads.shutdown()
    total += 8 * 57_313
    counts = handle.counts()
    handle.close()
    fib = counts["demo.Sorting#fib(I)I"]
    assert fib["invocations"] == total, (fib["invocations"], total)
    print(f"demo.Sorting#fib: {size} counters in demo.Sorting's own Counters class, a per-thread array of "
          f"{8 * size} bytes; {fib['invocations']:,} invocations and {fib['total']:,} bytecodes counted (exact)")
    print()
    print("| invocations on one thread | bytes allocated, original | bytes allocated, counted | counting's share |")
    print("| ---: | ---: | ---: | ---: |")
    for made, a_orig, a_counted in rows:
        print(f"| {made:,} | {a_orig:,} | {a_counted:,} | {a_counted - a_orig:+,} |")
    print()
    print("(the bytes the original allocates are JPype's per-call cost; 8 further threads then each allocated "
          f"one array of {size} longs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
