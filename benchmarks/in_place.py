"""What a counted test costs in place against in its own class loader (figures, not a test).

    python benchmarks/in_place.py [--tests 200] [--rounds 5]

One JVM, started as the plugin starts it (with its agent), the demo class ``demo.Sorting`` on the JVM's own
class path. Per test, each way, as the plugin does it: start counting, call ``fib(10)`` once, read the
counts, stop. In its own loader: a fresh loader, the class loaded and counted in it. In place: the
transformer registered and the loaded classes scanned for matched ones, ``fib`` retransformed to its
counted copy, called through the system class loader, read, and retransformed back. The two ways
alternate round by round; the figure is the median over rounds of milliseconds per test. The counts of
both ways are printed too: they must be equal.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _support import JDK17, compiled_demo  # first: this checkout's package
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter
from pytest_bytecount.jvm.in_place import InPlaceLoaders
from pytest_bytecount.jvm.loaders import LoadTimeLoaders
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

TARGET = "demo.Sorting#fib"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tests", type=int, default=200, help="counted tests per round and way")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--java-home", default=JDK17)
    args = p.parse_args(argv)
    classes = compiled_demo(args.java_home)
    classpath = Classpath.parse([str(classes)])
    session = JvmSession(choose_jvm(args.java_home), [], classpath=[classes], agent=True)
    session.start()
    import jpype

    own = LoadTimeLoaders(session, ClassCounter(classpath, [TARGET]), classpath.entries)
    placed = InPlaceLoaders(session, ClassCounter(classpath, CountingOptions((TARGET,), in_place=True)))
    system_sorting = jpype.JClass("demo.Sorting")
    forname = jpype.JClass("java.lang.Class").forName

    def own_test() -> dict:
        handle = own.new()
        jpype.JClass(forname("demo.Sorting", True, handle.loader)).fib(10)
        counts = handle.counts()
        handle.close()
        return counts

    def placed_test() -> dict:
        handle = placed.new()
        system_sorting.fib(10)
        counts = handle.counts()
        handle.close()
        return counts

    results = {"own loader": own_test(), "in place": placed_test()}  # warm both; the counts to compare
    loaded = len(placed.api.api.getAllLoadedClasses())
    figures: dict = {"own loader": [], "in place": []}
    for _ in range(args.rounds):
        for name, test in (("own loader", own_test), ("in place", placed_test)):
            start = time.perf_counter()
            for _ in range(args.tests):
                test()
            figures[name].append((time.perf_counter() - start) * 1000 / args.tests)
    print(f"{args.tests} tests x {args.rounds} rounds each way, {loaded:,} classes loaded in the JVM, "
          f"{session.choice.describe()}")
    for name, values in figures.items():
        fib = results[name]["demo.Sorting#fib(I)I"]
        print(f"  {name:10}  {statistics.median(values):6.2f} ms per test (median of rounds; "
              f"min {min(values):.2f}, max {max(values):.2f})  fib(10): {fib['invocations']} invocations, "
              f"{fib['total']} instructions")
    ratio = statistics.median(figures["in place"]) / statistics.median(figures["own loader"])
    print(f"  in place / own loader: {ratio:.2f}x; counts equal: {results['own loader'] == results['in place']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
