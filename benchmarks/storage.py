"""Counter storage does not grow with invocations (figures, not a test).

    python benchmarks/storage.py [--invocations 1000000]

Counts ``demo.Sorting#fib`` (examples/demo), calls ``fib(1)`` once, measures the JVM's used heap after a
full GC, calls it a million more times (one thread, then 8 threads), and measures again. The counters are
one ``long[]`` per thread that ran counted code, whatever the number of invocations.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_bytecount.classpath import Classpath  # noqa: E402
from pytest_bytecount.counts import counts_from_values  # noqa: E402
from pytest_bytecount.instrument import instrument  # noqa: E402
from pytest_bytecount.jvm import ClassDir, JvmSession, choose_jvm  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--invocations", type=int, default=1_000_000)
    p.add_argument("--java-home", default="/usr/lib/jvm/java-17-openjdk-amd64")
    args = p.parse_args(argv)
    classes = Path(tempfile.mkdtemp(prefix="bytecount-demo-"))
    subprocess.run(["javac", "--release", "11", "-d", str(classes), str(ROOT / "examples/demo/src/demo/Sorting.java")],
                   check=True)
    classpath = Classpath.parse([str(classes)])
    batch = instrument(classpath, ["demo.Sorting#fib"])
    session = JvmSession(choose_jvm(args.java_home), ["-XX:+UseSerialGC"])
    import jpype

    with ClassDir(batch) as out:
        loader = session.loader(out.path, classpath.entries)
        sorting = jpype.JClass(jpype.JClass("java.lang.Class").forName("demo.Sorting", True, loader))
        runtime = jpype.JClass("java.lang.Runtime").getRuntime()
        system = jpype.JClass("java.lang.System")

        def used() -> int:
            for _ in range(3):
                system.gc()
            return runtime.totalMemory() - runtime.freeMemory()

        sorting.fib(1)
        before = used()
        # the invocations happen inside Java (fib recursing), not one JPype call each
        single = 0
        while single < args.invocations:
            sorting.fib(25)
            single += 242_785  # invocations of fib in fib(25)
        mid = used()
        threads = jpype.JClass("java.util.concurrent.Executors").newFixedThreadPool(8)
        task = jpype.JClass("java.util.concurrent.Callable")
        futures = [threads.submit(jpype.JProxy(task, dict(call=lambda: sorting.fib(22)))) for _ in range(8)]
        for f in futures:
            f.get()
        threads.shutdown()
        after = used()
        counts = counts_from_values(batch.maps, session.read_counters(loader, batch.size))
    fib = counts["demo.Sorting#fib(I)I"]
    print(f"counters in the batch: {batch.size}; invocations counted: {fib['invocations']:,}; "
          f"bytecodes counted: {fib['total']:,}")
    assert fib["invocations"] == 1 + single + 8 * 57_313, fib["invocations"]
    print(f"used heap after 1 invocation: {before / 1e6:.2f} MB; after {single:,} more on one thread: "
          f"{mid / 1e6:.2f} MB ({(mid - before) / 1e3:+.0f} KB); after 8 threads x 57,313 more: {after / 1e6:.2f} MB "
          f"({(after - mid) / 1e3:+.0f} KB: 8 arrays of {batch.size} longs, plus the pool's threads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
