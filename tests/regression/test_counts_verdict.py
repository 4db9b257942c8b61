"""The counts verdict decided from values alone (no pytest, no JVM): what a test's status and text are for a
baseline and the counts of a run. The counts are written by hand; the rules are the documented ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bytecount.regression.compare import parse_tolerances
from pytest_bytecount.regression.counts_verdict import CountsVerdict, ScalingDecision, Stored, decide, decide_scaling
from pytest_bytecount.regression.scaling import baseline_entry, measure

M = "shop.Cart#total(I)J"
INIT = "shop.Cart#<clinit>()V"
JDK17 = {"version": "17.0.19+10", "vendor": "Debian", "class_library": "e4bb8d5c01d7447e"}
JDK25 = {"version": "25.0.2+10-LTS", "vendor": "Eclipse Adoptium", "class_library": "f192213436fb570a"}
ACCEPT = "pytest tests/test_cart.py::test_total --bytecount-update"
PATH = Path("tests/bytecount/test_cart.json")


def counts(total: int, deep: int = 0) -> dict:
    entry = {"total": total, "invocations": 1, "calls": {}, "opcodes": {"iload": total}, "code_fingerprint": "a"}
    if deep:
        entry["deep"] = {"total": deep, "copied": 0, "windows": 1, "methods": {M: total}}
    return entry


def verdict(stored: Stored, now: dict, mode=None, runtime=None, tolerance: str = "", strict: bool = False):
    return decide(stored, now, mode, runtime, parse_tolerances(tolerance), strict, "test_total", PATH, ACCEPT)


def test_the_same_counts_pass_in_silence():
    v = verdict(Stored({M: counts(40)}), {M: counts(40)})
    assert v == CountsVerdict("passed", "", {M: counts(40)}, {M: "same"}, {}) and not v.says_why


def test_no_baseline_is_new_and_says_how_to_record_it():
    v = verdict(Stored(None), {M: counts(40)})
    assert v.status == "new"
    assert v.message == f"bytecount: no baseline for test_total in {PATH}.\nRecord it with: {ACCEPT}"


def test_a_rise_beyond_the_tolerance_regresses_and_names_the_figure():
    v = verdict(Stored({M: counts(40)}), {M: counts(44)})
    assert v.status == "regressed" and v.method_status == {M: "regressed"}
    assert v.message.startswith("REGRESSED: total 40 -> 44 (+4, +10.0%)") and ACCEPT in v.message
    assert verdict(Stored({M: counts(40)}), {M: counts(44)}, tolerance="total=10%").status == "passed"


def test_a_fall_improves_and_says_why_while_passing():
    v = verdict(Stored({M: counts(40)}), {M: counts(30)})
    assert v.status == "improved" and v.says_why
    assert verdict(Stored({M: counts(40)}), {M: counts(30)}, strict=True).status == "changed"  # strict: any change fails


def test_counts_that_moved_with_the_mode_are_a_changed_setting_not_a_regression():
    v = verdict(Stored({M: counts(40)}, mode=None), {M: counts(44)}, mode="in-place")
    assert v.status == "changed"
    assert v.message.startswith(f"bytecount: the baseline of test_total in {PATH} was counted ")


def test_a_class_initializer_counted_in_place_says_it_runs_once_per_process():
    v = verdict(Stored({M: counts(40), INIT: counts(900)}, mode="in-place"), {M: counts(40)}, mode="in-place")
    assert v.status == "improved"  # it did not run in this process: a fall to 0
    assert f"{INIT} is shop.Cart's class initializer: in place it runs once per JVM process" in v.message


def test_deep_figures_from_another_class_library_are_compared_within_the_band_and_the_rest_exactly():
    stored = Stored({M: counts(40, deep=100_000)}, deep_runtime=JDK17)
    within = verdict(stored, {M: counts(40, deep=250_000)}, runtime=JDK25)
    assert within.status == "passed" and within.says_why and within.loose is not None
    assert "deep" not in within.baseline_counts[M]  # compared exactly: only the figures without deep
    assert "compared loosely" in within.message
    beyond = verdict(stored, {M: counts(40, deep=1_000_000)}, runtime=JDK25)
    assert beyond.status == "regressed" and beyond.method_status == {M: "regressed"} and beyond.tripped[M]
    own = verdict(stored, {M: counts(44, deep=250_000)}, runtime=JDK25)  # the method's own code rose: exact
    assert own.status == "regressed" and own.message.startswith("REGRESSED: total 40 -> 44")


@pytest.mark.parametrize("runtime", [JDK17, dict(JDK17)])
def test_deep_figures_on_the_same_class_library_are_compared_exactly(runtime):
    v = verdict(Stored({M: counts(40, deep=100_000)}, deep_runtime=JDK17), {M: counts(40, deep=100_001)},
                runtime=runtime)
    assert v.status == "regressed" and v.loose is None


def method(total: int, calls: dict = None, fingerprint: str = "a", invocations: int = 1) -> dict:
    return {"total": total, "invocations": invocations, "calls": calls or {}, "opcodes": {"iload": total},
            "code_fingerprint": fingerprint}


TOTAL, INDEX_OF, INIT_ARRAY = "shop.Inventory#total()I", "shop.Inventory#indexOf(I)I", "shop.Inventory#<init>([I)V"


def test_a_method_that_starts_running_is_a_rise_from_zero_and_one_that_stops_a_fall():
    """A class target: total() starts calling indexOf(), which did not run when the baseline was recorded."""
    before = {TOTAL: method(40), INIT_ARRAY: method(5)}
    after = {TOTAL: method(42, {"shop/Inventory.indexOf(I)I": 1}, "b"), INIT_ARRAY: method(5), INDEX_OF: method(10)}
    rise = verdict(Stored(before), after)
    assert rise.status == "regressed" and rise.method_status[INDEX_OF] == "regressed"
    lines = rise.message.splitlines()
    assert lines[0].startswith("REGRESSED: shop.Inventory#indexOf: total 0 -> 10 (+10); shop.Inventory#total: ")
    assert lines[lines.index("shop.Inventory#indexOf(I)I: REGRESSED") + 1] == \
        "    did not run when the baseline was recorded, runs now"
    fall = verdict(Stored(after), before)
    assert fall.status == "improved" and fall.method_status[INDEX_OF] == "improved"
    lines = fall.message.splitlines()
    assert lines[lines.index("shop.Inventory#indexOf(I)I: improved") + 1] == \
        "    ran when the baseline was recorded, did not run in this test"


def test_a_renamed_method_reads_as_a_rename_and_passes_as_reshaped():
    """indexOf renamed positionOf, its caller reserve following: the same code and counts under a new name."""
    reserve, position_of = "shop.Inventory#reserve(I)I", "shop.Inventory#positionOf(I)I"
    before = {reserve: method(12, {"shop/Inventory.indexOf(I)I": 1}, "r"), INDEX_OF: method(30, fingerprint="i")}
    after = {reserve: method(12, {"shop/Inventory.positionOf(I)I": 1}, "r2"), position_of: method(30, fingerprint="i")}
    v = verdict(Stored(before), after)
    assert v.status == "reshaped" and v.says_why
    assert v.message.startswith("reshaped: renamed? shop.Inventory#indexOf -> shop.Inventory#positionOf (the same "
                                "code and counts); ")
    assert ("shop.Inventory#positionOf(I)I: renamed? it ran as shop.Inventory#indexOf(I)I in the baseline: the same "
            "code, and the same counts") in v.message.splitlines()
    assert "REGRESSED" not in v.message and "improved" not in v.message
    other_code = dict(after, **{position_of: method(30, fingerprint="p")})  # another body: no rename is claimed
    assert "renamed?" not in verdict(Stored(before), other_code).message


FIB = "demo.Sorting#fib(I)I"


def test_the_same_code_on_another_path_is_told_apart_from_changed_code():
    """fib(13) instead of fib(12): more invocations of the same bytecode, or of changed bytecode; a baseline that
    holds only the raw code bytes' hash (older files) makes neither claim."""
    stored = {FIB: method(1000, {"demo/Sorting.fib(I)I": 464}, "f", 465)}
    same_code = verdict(Stored(stored), {FIB: method(1600, {"demo/Sorting.fib(I)I": 752}, "f", 753)})
    assert same_code.status == "regressed" and same_code.message.splitlines()[0] == \
        "REGRESSED: total 1,000 -> 1,600 (+600, +60.0%)"
    assert "    invocations           465 -> 753          +288 (+61.9%)" in same_code.message.splitlines()
    assert "    same bytecode as the baseline: the code took another path (inputs or callees changed)" in \
        same_code.message.splitlines()
    changed = verdict(Stored(stored), {FIB: method(1600, {"demo/Sorting.fib(I)I": 752}, "g", 753)})
    assert "    the method's bytecode changed since the baseline" in changed.message.splitlines()
    raw = {k: v for k, v in stored[FIB].items() if k != "code_fingerprint"}
    raw["bytecode_sha256"] = "0" * 64
    unknown = verdict(Stored({FIB: raw}), {FIB: method(1600, {"demo/Sorting.fib(I)I": 752}, "f", 753)})
    assert unknown.status == "regressed"
    assert "same bytecode" not in unknown.message and "bytecode changed" not in unknown.message


# the complexity verdict: series whose order is plain by hand (n, n^2) over five sizes
SIZES = [100, 200, 400, 800, 1600]
LINEAR = [5 * n + 3 for n in SIZES]
QUADRATIC = [n * n + 5 * n for n in SIZES]
WHERE = f"{PATH}, test_total"


def stored_scaling(values: list) -> dict:
    return {"scaling": baseline_entry(measure(SIZES, {M: values}).to_dict())}


def test_a_worse_order_regresses_and_the_same_order_says_nothing():
    worse_order = decide_scaling(stored_scaling(LINEAR), measure(SIZES, {M: QUADRATIC}), "passed", WHERE, ACCEPT)
    assert worse_order.status == "regressed"
    assert worse_order.text.startswith(f"{M}: COMPLEXITY GOT WORSE: n (exponent 1.00) -> n^2, exponent 1.99")
    assert worse_order.scaling["methods"][M]["order"] == "n^2"
    same = decide_scaling(stored_scaling(LINEAR), measure(SIZES, {M: [v + 1 for v in LINEAR]}), "passed", WHERE,
                          ACCEPT)
    assert same.status is None and same.text == "" and same.scaling["methods"][M]["order"] == "n"


def test_a_better_order_improves():
    better = decide_scaling(stored_scaling(QUADRATIC), measure(SIZES, {M: LINEAR}), "passed", WHERE, ACCEPT)
    assert better.status == "improved" and ACCEPT in better.text


def test_no_complexity_verdict_without_a_counts_verdict_but_the_check_is_kept():
    for status in ("new", "failed", "not-run"):
        d = decide_scaling(stored_scaling(LINEAR), measure(SIZES, {M: QUADRATIC}), status, WHERE, ACCEPT)
        assert d.status is None and d.text == "" and d.scaling["methods"][M]["order"] == "n^2"
    assert decide_scaling({}, None, "passed", WHERE, ACCEPT) == ScalingDecision()


def test_an_order_fitted_on_another_metric_asks_to_be_re_recorded():
    stored = {"scaling": baseline_entry(measure(SIZES, {M: LINEAR}, "total").to_dict())}
    d = decide_scaling(stored, measure(SIZES, {M: LINEAR}, "inclusive"), "passed", WHERE, ACCEPT)
    assert d.status == "changed"
    assert d.text.splitlines()[0] == (f"{M}: the baseline's order (n) was fitted on total, and this check fits inclusive (now n, "
                      f"exponent 1.00): orders of two figures are not compared. Re-record the baseline: {ACCEPT}")


def test_a_malformed_stored_check_is_a_changed_verdict_naming_the_entry():
    d = decide_scaling({"scaling": {M: {"order": "n^9"}}}, measure(SIZES, {M: LINEAR}), "passed", WHERE, ACCEPT)
    assert d.status == "changed" and d.text.startswith(f"bytecount: {WHERE}: the 'scaling' entry is malformed")


def test_unchanged_bytecode_names_the_callees_whose_kept_fingerprint_differs():
    """A target's own code the same, its inclusive work through two application callees: the one whose fingerprint
    now differs from the kept one is named, one that is gone too; with every one the same, the line says so."""
    callees = ["demo.Sorting#fib(I)I", "demo.Util#a(I)I", "demo.Util#b(I)I", "demo.Util#gone()V"]

    def inclusive(total):
        return dict(method(total, {}, "f"), inclusive={"total": total, "methods": callees, "opcodes": {}, "calls": {}})

    kept = {"demo.Util#a(I)I": "x", "demo.Util#b(I)I": "y", "demo.Util#gone()V": "z"}
    now = {"demo.Util#a(I)I": "x", "demo.Util#b(I)I": "y2"}.get  # b changed, gone went

    def judged(fingerprint):
        return decide(Stored({FIB: inclusive(100)}), {FIB: inclusive(200)}, None, None, parse_tolerances(""), False,
                      "test_total", PATH, ACCEPT, code=(kept, fingerprint))

    changed = judged(now)
    assert "    same bytecode as the baseline, but the code of its callees demo.Util#b(I)I, demo.Util#gone()V " \
           "changed since the baseline" in changed.message.splitlines()
    assert changed.callees_changed == {FIB: ["demo.Util#b(I)I", "demo.Util#gone()V"]}
    same = judged(kept.get)
    assert same.callees_changed is None and any(
        ln.startswith("    same bytecode as the baseline, and so has every application method") for ln in
        same.message.splitlines())


def test_counts_that_moved_in_a_shared_loader_with_the_same_code_name_the_shared_loader_as_the_likely_cause():
    from pytest_bytecount.regression.counts_verdict import SHARED_LOADER_VERDICT

    moved = verdict(Stored({M: counts(100)}, "module-loader"), {M: counts(130)}, mode="module-loader")
    assert moved.status == "regressed" and SHARED_LOADER_VERDICT in moved.message
    assert "same bytecode as the baseline" in moved.message
    lines = moved.message.splitlines()  # what to check first is read before the command that accepts
    assert lines.index(SHARED_LOADER_VERDICT) < lines.index(next(ln for ln in lines if ln.startswith("to accept: ")))
    own = verdict(Stored({M: counts(100)}), {M: counts(130)})  # a loader of its own: not the cause
    assert SHARED_LOADER_VERDICT not in own.message
    changed_code = {M: {**counts(130), "code_fingerprint": "b"}}  # the code changed: that is the cause
    assert SHARED_LOADER_VERDICT not in verdict(Stored({M: counts(100)}, "module-loader"), changed_code,
                                                mode="module-loader").message
