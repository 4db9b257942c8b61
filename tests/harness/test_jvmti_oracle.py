"""The JVMTI oracle (support/oracle.py) counts what the JVM really executes, as the contract says.

The exactness tests trust the oracle, so here it must reproduce counts derived by hand from javap
listings: a loop, recursion, an invocation that ends by an exception, a recursive `return` that
HotSpot does not single-step, pair rewriting, a wide `iinc`, call keys, and 8 threads at once. Both
of its ways of watching (breakpoints and single steps) must agree, and so must HotSpot 17, Zero and
HotSpot 25. Each JVM run is one child process; a module fixture runs each combination once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.javac import compile_java
from tests.support.jdk import jdk25_java, zero_java
from tests.support.oracle import OracleAnomaly, code_listing, oracle_counts, parse_javap

KERNELS = """\
package oraclecheck;

import java.util.ArrayList;
import java.util.List;

public class Kernels {
    static final List<Integer> SEEN = new ArrayList<>();
    static int field = 7;

    static int sum(int n) {
        int s = 0;
        for (int i = 1; i <= n; i++) s += i;
        return s;
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static int failsAfterSteps(int x) {
        int y = x * 2;
        if (y > 0) throw new IllegalStateException("boom");
        return y;
    }

    static int catches(int x) {
        try {
            return failsAfterSteps(x);
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    static int alwaysFails() {
        throw new UnsupportedOperationException();
    }

    static void countdown(int n) {
        if (n > 0) countdown(n - 1);
    }

    static int work(int x) {
        return x * 3 + 1;
    }

    static int pairs(int a, int b, int c, int d, int e, int f) {
        return e + f;
    }

    static int wideStep(int n) {
        int x = 0;
        for (int i = 0; i < n; i++) x += 1000;
        return x;
    }

    static String describe(List<Integer> values) {
        return "n=" + values.size();
    }

    static final class Counter {
        private int value;

        void increment() {
            value++;
        }

        int get() {
            return value;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        sum(10);
        fib(5);
        failsAfterSteps(-1);
        catches(1);
        try {
            alwaysFails();
        } catch (UnsupportedOperationException expected) {
        }
        countdown(3);
        for (int i = 0; i < 100; i++) pairs(1, 2, 3, 4, 5, 6);
        wideStep(3);
        SEEN.add(field);
        describe(SEEN);
        Counter counter = new Counter();
        for (int i = 0; i < 100; i++) {
            counter.increment();
            counter.get();
        }
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 1000; i++) work(i);
            });
            threads[t].start();
        }
        for (Thread thread : threads) thread.join();
    }
}
"""

# A target method called from the <clinit> of a class that is not a target, which the interpreter
# initialises while it resolves `Other.X`: HotSpot posts no single steps in there.
LAZY = """\
package oraclelazy;

public class Main {
    public static void main(String[] args) {
        System.out.println(Other.X + Target.twice(1));
    }
}

class Target {
    static int twice(int x) {
        return x * 2;
    }
}

class Other {
    static int X = Target.twice(21);
}
"""

KERNEL_CLASSES = ["oraclecheck.Kernels", "oraclecheck.Kernels$Counter"]
K = "oraclecheck.Kernels#"


def _compile(root: Path, name: str, source: str) -> Path:
    package, cls = name.rsplit(".", 1)
    (root / package).mkdir(parents=True, exist_ok=True)
    (root / package / f"{cls}.java").write_text(source, encoding="utf-8")
    return compile_java(root, release="17")


@pytest.fixture(scope="module")
def kernels(tmp_path_factory) -> Path:
    return _compile(tmp_path_factory.mktemp("oracle-kernels"), "oraclecheck.Kernels", KERNELS)


@pytest.fixture(scope="module")
def lazy(tmp_path_factory) -> Path:
    return _compile(tmp_path_factory.mktemp("oracle-lazy"), "oraclelazy.Main", LAZY)


JVMS = {"hotspot17": lambda: None, "zero": zero_java, "hotspot25": jdk25_java}


@pytest.fixture(scope="module")
def counts(kernels):
    """``counts(jvm, events)``: the oracle's result for Kernels.main, computed once per combination."""
    cache = {}

    def get(jvm: str = "hotspot17", events: str = "breakpoint"):
        if (jvm, events) not in cache:
            java = JVMS[jvm]()
            if jvm != "hotspot17" and java is None:
                pytest.skip(f"{jvm} is not installed")
            cache[jvm, events] = oracle_counts([kernels], KERNEL_CLASSES, "oraclecheck.Kernels",
                                               java=java, events=events)
        return cache[jvm, events]

    return get


def _listing(kernels: Path, method: str) -> list:
    descriptor = method[method.index("(") :]
    name = method[: method.index("(")]
    code = code_listing([kernels], ["oraclecheck/Kernels"])[("oraclecheck/Kernels", name, descriptor)]
    return [(bci, code[bci].mnemonic) for bci in sorted(code)]


# --------------------------------------------------------------------------- hand-derived counts


def test_a_loop_counts_each_instruction_as_often_as_it_runs(counts, kernels):
    assert _listing(kernels, "sum(I)I") == [
        (0, "iconst_0"), (1, "istore_1"), (2, "iconst_1"), (3, "istore_2"),
        (4, "iload_2"), (5, "iload_0"), (6, "if_icmpgt"),
        (9, "iload_1"), (10, "iload_2"), (11, "iadd"), (12, "istore_1"), (13, "iinc"), (16, "goto"),
        (19, "iload_1"), (20, "ireturn"),
    ]
    # sum(10): bcis 0-3 once; the test 4-6 runs 11 times (i = 1..11); the body 9-16 runs 10 times;
    # 19-20 once. iload_2 = 11 (test) + 10 (body); istore_1 = 1 + 10; iload_1 = 10 + 1.
    # total = 4 + 3*11 + 6*10 + 2 = 99.
    assert counts()[K + "sum(I)I"] == {
        "invocations": 1,
        "total": 99,
        "opcodes": {
            "goto": 10, "iadd": 10, "iconst_0": 1, "iconst_1": 1, "if_icmpgt": 11, "iinc": 10,
            "iload_0": 11, "iload_1": 11, "iload_2": 21, "ireturn": 1, "istore_1": 11, "istore_2": 1,
        },
        "calls": {},
    }


def test_recursion_counts_every_invocation_flat(counts, kernels):
    assert [m for _, m in _listing(kernels, "fib(I)I")] == [
        "iload_0", "iconst_2", "if_icmpge", "iload_0", "goto",  # 0-6: n < 2 -> n
        "iload_0", "iconst_1", "isub", "invokestatic", "iload_0", "iconst_2", "isub", "invokestatic", "iadd",
        "ireturn",
    ]
    # fib(5) makes 15 calls: 8 leaves (n < 2) and 7 inner ones. A leaf runs 6 instructions (iload_0,
    # iconst_2, if_icmpge, iload_0, goto, ireturn), an inner call 13 (iload_0, iconst_2, if_icmpge,
    # then 9-21 and ireturn). total = 8*6 + 7*13 = 139. iload_0: 2 per leaf + 3 per inner = 37;
    # iconst_2: 15 + 7 = 22; the 14 invokestatics are the 14 recursive calls (the 15th came from main).
    assert counts()[K + "fib(I)I"] == {
        "invocations": 15,
        "total": 139,
        "opcodes": {
            "goto": 8, "iadd": 7, "iconst_1": 7, "iconst_2": 22, "if_icmpge": 15, "iload_0": 37,
            "invokestatic": 14, "ireturn": 15, "isub": 14,
        },
        "calls": {"oraclecheck/Kernels.fib(I)I": 14},
    }


def test_an_invocation_ending_by_an_exception_contributes_nothing(counts):
    result = counts()
    # failsAfterSteps(-1) returns: iload_0 iconst_2 imul istore_1 iload_1 ifle(taken) iload_1 ireturn.
    # failsAfterSteps(1), called from catches(1), runs 11 instructions, the last its athrow: none count.
    assert result[K + "failsAfterSteps(I)I"] == {
        "invocations": 1,
        "total": 8,
        "opcodes": {"iconst_2": 1, "ifle": 1, "iload_0": 1, "iload_1": 2, "imul": 1, "ireturn": 1, "istore_1": 1},
        "calls": {},
    }
    # catches(1): iload_0, invokestatic (throws), then its handler: astore_1, iconst_m1, ireturn.
    assert result[K + "catches(I)I"] == {
        "invocations": 1,
        "total": 5,
        "opcodes": {"astore_1": 1, "iconst_m1": 1, "iload_0": 1, "invokestatic": 1, "ireturn": 1},
        "calls": {"oraclecheck/Kernels.failsAfterSteps(I)I": 1},
    }
    assert K + "alwaysFails()I" not in result  # never completed normally
    assert result.abrupt == {K + "alwaysFails()I": 1, K + "failsAfterSteps(I)I": 1}


def test_a_recursive_return_at_the_callers_resumption_point_is_counted(counts, kernels):
    assert _listing(kernels, "countdown(I)V") == [
        (0, "iload_0"), (1, "ifle"), (4, "iload_0"), (5, "iconst_1"), (6, "isub"), (7, "invokestatic"),
        (10, "return"),
    ]
    # countdown(3): 4 invocations (n = 3, 2, 1, 0), each ends on `10: return`, and each caller
    # resumes at 10 right after its callee's own `10: return` (HotSpot single-steps that only once).
    # n > 0 three times: iload_0 iconst_1 isub invokestatic. iload_0 = 4 + 3. total = 4*3 + 3*4 = 24.
    expected = {
        "invocations": 4,
        "total": 24,
        "opcodes": {"iconst_1": 3, "ifle": 4, "iload_0": 7, "invokestatic": 3, "isub": 3, "return": 4},
        "calls": {"oraclecheck/Kernels.countdown(I)V": 3},
    }
    assert counts("hotspot17", "breakpoint")[K + "countdown(I)V"] == expected
    stepped = counts("hotspot17", "step")
    assert stepped[K + "countdown(I)V"] == expected
    assert stepped.stats["repeat_repaired"] == 3  # the three resumptions HotSpot did not post


def test_eight_threads_lose_nothing(counts):
    result = counts()
    # 8 threads x 1000 calls of work(i) = iload_0 iconst_3 imul iconst_1 iadd ireturn.
    assert result[K + "work(I)I"] == {
        "invocations": 8000,
        "total": 48000,
        "opcodes": {"iadd": 8000, "iconst_1": 8000, "iconst_3": 8000, "iload_0": 8000, "imul": 8000, "ireturn": 8000},
        "calls": {},
    }
    thread_body = result[K + "lambda$main$0()V"]
    assert thread_body["invocations"] == 8
    assert thread_body["calls"] == {"oraclecheck/Kernels.work(I)I": 8000}


def test_instruction_pairs_the_interpreter_could_fuse_count_twice(counts):
    result = counts()
    # `iload 4; iload 5` and `aload_0; getfield` are what HotSpot rewrites into one dispatch
    # (fast_iload2, fast_iaccess_0) after the first run; all 100 runs must still count both.
    assert result[K + "pairs(IIIIII)I"]["opcodes"] == {"iadd": 100, "iload": 200, "ireturn": 100}
    assert result["oraclecheck.Kernels$Counter#get()I"]["opcodes"] == {"aload_0": 100, "getfield": 100, "ireturn": 100}


def test_a_wide_instruction_counts_once_under_its_own_mnemonic(counts, kernels):
    assert _listing(kernels, "wideStep(I)I") == [
        (0, "iconst_0"), (1, "istore_1"), (2, "iconst_0"), (3, "istore_2"), (4, "iload_2"), (5, "iload_0"),
        (6, "if_icmpge"), (9, "iinc"), (15, "iinc"), (18, "goto"), (21, "iload_1"), (22, "ireturn"),
    ]  # 9 is `wide iinc 1, 1000` (javap: iinc_w), 6 bytes long
    # wideStep(3): test 4-6 four times, body 9-18 three times with 2 iincs each.
    # total = 4 + 3*4 + 3*3 + 2 = 27.
    assert counts()[K + "wideStep(I)I"] == {
        "invocations": 1,
        "total": 27,
        "opcodes": {
            "goto": 3, "iconst_0": 2, "if_icmpge": 4, "iinc": 6, "iload_0": 4, "iload_1": 1, "iload_2": 4,
            "ireturn": 1, "istore_1": 1, "istore_2": 1,
        },
        "calls": {},
    }


def test_call_keys_and_special_methods(counts):
    result = counts()
    assert result[K + "describe(Ljava/util/List;)Ljava/lang/String;"]["calls"] == {
        "indy makeConcatWithConstants(I)Ljava/lang/String;": 1,
        "java/util/List.size()I": 1,
    }
    main_calls = result[K + "main([Ljava/lang/String;)V"]["calls"]
    assert main_calls["oraclecheck/Kernels$Counter.<init>()V"] == 1
    assert main_calls["indy run()Ljava/lang/Runnable;"] == 8
    assert main_calls["java/lang/Thread.start()V"] == 8
    assert result["oraclecheck.Kernels$Counter#<init>()V"]["calls"] == {"java/lang/Object.<init>()V": 1}
    # <clinit>: new, dup, invokespecial ArrayList.<init>, putstatic, bipush 7, putstatic, return.
    assert result[K + "<clinit>()V"]["total"] == 7
    assert result[K + "<clinit>()V"]["invocations"] == 1
    assert K + "<init>()V" not in result  # Kernels is never instantiated
    assert list(result) == sorted(result)
    for entry in result.values():
        assert entry["total"] == sum(entry["opcodes"].values())
        assert all(n > 0 for n in [*entry["opcodes"].values(), *entry["calls"].values()])


# --------------------------------------------------------------------------- agreement


def test_single_steps_and_breakpoints_agree(counts):
    by_breakpoints, by_steps = counts("hotspot17", "breakpoint"), counts("hotspot17", "step")
    assert by_steps == by_breakpoints
    assert by_steps.abrupt == by_breakpoints.abrupt


@pytest.mark.parametrize("events", ["breakpoint", "step"])
@pytest.mark.parametrize("jvm", ["zero", "hotspot25"])
def test_every_jvm_gives_the_same_counts(counts, jvm, events):
    result = counts(jvm, events)
    assert result == counts("hotspot17", "breakpoint")
    assert result.abrupt == counts("hotspot17", "breakpoint").abrupt


def test_single_steps_miss_code_run_by_constant_pool_resolution(lazy):
    # Other.<clinit> runs while the interpreter resolves `Other.X`, and calls Target.twice(21).
    by_breakpoints = oracle_counts([lazy], ["oraclelazy.Target"], "oraclelazy.Main")
    assert by_breakpoints["oraclelazy.Target#twice(I)I"] == {
        "invocations": 2,
        "total": 8,
        "opcodes": {"iconst_2": 2, "iload_0": 2, "imul": 2, "ireturn": 2},
        "calls": {},
    }
    with pytest.raises(OracleAnomaly, match="empty_frames"):
        oracle_counts([lazy], ["oraclelazy.Target"], "oraclelazy.Main", events="step")


# --------------------------------------------------------------------------- javap parsing


def test_javap_parsing_names_members_calls_and_skips_switch_tables():
    text = """\
Compiled from "A.java"
public final class p.A<T> extends p.Base<T> implements java.lang.Runnable {
  static final int X;
    descriptor: I

  public <U extends java.lang.Comparable<? super U>> p.A(U);
    descriptor: (Ljava/lang/Comparable;)V
    Code:
       0: aload_0
       1: invokespecial #1                  // Method p/Base."<init>":()V
       4: return

  public static <U> java.util.Map<java.lang.String, U> A(int[]) throws java.io.IOException;
    descriptor: ([I)Ljava/util/Map;
    Code:
       0: aload_0
       1: invokevirtual #2                  // Method "[I".clone:()Ljava/lang/Object;
       4: iload_w       300
       8: lookupswitch  { // 2
                    -1: 30
                     7: 32
               default: 34
          }
      28: invokestatic  #3                  // Method helper:(I)I
      31: invokeinterface #4,  2            // InterfaceMethod java/util/List.add:(Ljava/lang/Object;)Z
      36: invokedynamic #5,  0              // InvokeDynamic #0:makeConcatWithConstants:(I)Ljava/lang/String;
      41: goto_w        100
      46: areturn

  static {};
    descriptor: ()V
    Code:
       0: return
}
"""
    listing = parse_javap(text)
    assert set(listing) == {("p/A", "<init>", "(Ljava/lang/Comparable;)V"), ("p/A", "A", "([I)Ljava/util/Map;"),
                            ("p/A", "<clinit>", "()V")}
    assert listing["p/A", "<init>", "(Ljava/lang/Comparable;)V"][1].call == "p/Base.<init>()V"
    method = listing["p/A", "A", "([I)Ljava/util/Map;"]
    assert sorted(method) == [0, 1, 4, 8, 28, 31, 36, 41, 46]  # no switch-table rows
    assert [method[bci].mnemonic for bci in (4, 8, 41)] == ["iload", "lookupswitch", "goto_w"]
    assert [method[bci].call for bci in (1, 28, 31, 36)] == [
        "[I.clone()Ljava/lang/Object;",
        "p/A.helper(I)I",
        "java/util/List.add(Ljava/lang/Object;)Z",
        "indy makeConcatWithConstants(I)Ljava/lang/String;",
    ]
