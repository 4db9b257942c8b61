"""Tolerances and verdicts, without a JVM."""

from __future__ import annotations

import pytest

from pytest_bytecount.regression.compare import Tolerance, ToleranceError, compare, parse_tolerances, render_verdict


def counts(total, invocations=1, calls=None, opcodes=None, sha="a"):
    return {"total": total, "invocations": invocations, "calls": calls or {}, "opcodes": opcodes or {"nop": total},
            "code_fingerprint": sha}


def test_a_tolerance_allows_the_larger_of_its_absolute_and_relative_parts():
    t = parse_tolerances("total=5%|100")["total"]
    assert t == Tolerance(100, 0.05)
    assert t.allows(1000, 1100) and not t.allows(1000, 1101)  # 5% of 1000 is 50 < 100
    assert t.allows(10_000, 10_500) and not t.allows(10_000, 10_501)
    assert parse_tolerances("calls=0, invocations=2")["invocations"] == Tolerance(2, 0.0)


@pytest.mark.parametrize("spec", ["total", "size=5", "total=five", "total=5%%", "total=-1"])
def test_malformed_tolerances_are_errors(spec):
    with pytest.raises(ToleranceError):
        parse_tolerances(spec)


def test_verdicts():
    m = "a.B#c()V"
    assert compare(None, {m: counts(10)}, {}).status == "new"
    assert compare({m: counts(10)}, {m: counts(10)}, {}).status == "passed"
    assert compare({m: counts(10)}, {m: counts(11)}, {}).status == "regressed"
    assert compare({m: counts(10)}, {m: counts(11)}, parse_tolerances("total=1")).status == "passed"
    assert compare({m: counts(10)}, {m: counts(9)}, {}).status == "improved"
    assert compare({m: counts(10)}, {m: counts(9)}, {}, strict=True).status == "changed"
    assert compare({m: counts(10, calls={"x.Y.z()V": 1})}, {m: counts(10, calls={"x.Y.z()V": 2})}, {}).status == "regressed"
    # an opcode mix that shifts at equal totals passes, unless strict
    same_total = counts(10, opcodes={"nop": 5, "pop": 5})
    assert compare({m: counts(10)}, {m: same_total}, {}).status == "passed"
    assert compare({m: counts(10)}, {m: same_total}, {}, strict=True).status == "changed"
    # a method that did not run counts as 0 on that side: stopping is a fall, starting a rise
    assert compare({m: counts(10)}, {}, {}).status == "improved"
    assert compare({m: counts(10)}, {m: counts(0, invocations=0, opcodes={})}, {}).status == "improved"
    assert compare({}, {m: counts(10)}, {}).status == "regressed"
    assert compare({}, {m: counts(10)}, parse_tolerances("total=10,invocations=1")).status == "passed"
    assert compare({m: counts(0, invocations=0, opcodes={})}, {}, {}, strict=True).status == "passed"


def test_the_first_line_names_the_figure_outside_tolerance_even_when_the_total_fell():
    """An O(n^2) loop replaced by a HashSet: the total falls 80%, a call rises from 0, and that call is
    what fails the test, so it is what the first line says."""
    m = "shop.Inventory#distinct()I"
    base = counts(763)
    now = counts(158, calls={"java/util/Set.add(Ljava/lang/Object;)Z": 10})
    text = render_verdict(compare({m: base}, {m: now}, {}), "cmd")
    first = text.splitlines()[0]
    # the call's own work (inside the JDK) is not counted, and the first line says so beside the work figure
    assert first == "REGRESSED: new call java/util/Set.add(...) 0 -> 10 (+10; its own work is not counted); total -79.3%"
    assert "    the work done inside java/util/Set.add(...) is not counted, so a call that rises fails the test by " \
           "itself" in text.splitlines()
    assert "    total                 763 -> 158          -605 (-79.3%)" in text.splitlines()


def test_the_first_line_names_each_tripped_figure_with_its_tolerance_and_the_method_when_several():
    a, b = "a.B#c()V", "a.B#d()V"
    v = compare({a: counts(1000), b: counts(10, calls={"x/Y.z()V": 1})},
                {a: counts(1200), b: counts(10, calls={"x/Y.z()V": 3})}, parse_tolerances("total=5%|50"))
    # each method named once, without its descriptor when no other shown method has its name
    assert v.headline() == ("REGRESSED: a.B#c: total 1,000 -> 1,200 (+200, +20.0%; tolerance 5%|50); "
                            "a.B#d: call x/Y.z(...) 1 -> 3 (+2; its own work is not counted), total unchanged")
    overloads = compare({a: counts(10), "a.B#c(I)V": counts(10)}, {a: counts(20), "a.B#c(I)V": counts(30)}, {})
    assert overloads.headline() == ("REGRESSED: a.B#c()V: total 10 -> 20 (+10, +100.0%); "
                                    "a.B#c(I)V: total 10 -> 30 (+20, +200.0%)")
    text = render_verdict(v, "cmd")
    assert "    total               1,000 -> 1,200        +200 (+20.0%)  outside tolerance" in text
    improved = compare({a: counts(1000)}, {a: counts(900)}, {})
    assert improved.headline() == "improved: total 1,000 -> 900 (-100, -10.0%); the baseline is stale"
    strict = compare({a: counts(1000)}, {a: counts(900)}, {}, strict=True)
    assert strict.headline() == "CHANGED: total 1,000 -> 900 (-100, -10.0%) (strict: any change fails)"


def test_a_method_that_starts_or_stops_running_says_so():
    m = "a.B#c()V"
    started = render_verdict(compare({}, {m: counts(7)}, {}), "cmd")
    assert started.splitlines()[0] == "REGRESSED: total 0 -> 7 (+7)"  # the work decides; invocations explain
    assert "    invocations             0 -> 1            +1 (new)" in started.splitlines()
    assert "did not run when the baseline was recorded, runs now" in started
    stopped = render_verdict(compare({m: counts(7)}, {}, {}), "cmd")
    assert "ran when the baseline was recorded, did not run in this test" in stopped


def test_the_failure_text_says_what_changed_and_why():
    m = "a.B#c()V"
    v = compare({m: counts(100, sha="a")}, {m: counts(150, sha="b")}, {})
    text = render_verdict(v, "pytest t.py::x --bytecount-update")
    assert text.splitlines()[0] == "REGRESSED: total 100 -> 150 (+50, +50.0%)"
    assert "a.B#c()V: REGRESSED" in text
    assert "100 -> 150" in text and "+50 (+50.0%)" in text
    assert "opcodes: nop 100 -> 150 (+50)" in text
    assert "the method's bytecode changed since the baseline" in text
    assert text.endswith("to accept: pytest t.py::x --bytecount-update")
    same = render_verdict(compare({m: counts(100)}, {m: counts(150)}, {}), "cmd")
    assert "same bytecode as the baseline" in same


def test_cost_is_a_metric_with_its_own_tolerance_when_both_sides_have_it():
    m = "a.B#c()V"
    cheap, dear = {**counts(10), "cost": 100}, {**counts(10), "cost": 104}
    assert parse_tolerances("cost=3%")["cost"] == Tolerance(0, 0.03)
    v = compare({m: cheap}, {m: dear}, parse_tolerances("total=10%,cost=3%"))
    assert v.status == "regressed"  # same total, 4% more cost
    assert "    cost                  100 -> 104          +4 (+4.0%)" in render_verdict(v, "cmd")
    assert compare({m: cheap}, {m: dear}, parse_tolerances("cost=5%")).status == "passed"
    assert compare({m: dear}, {m: cheap}, {}).status == "improved"
    assert compare({m: counts(10)}, {m: dear}, {}).status == "passed"  # no cost in the baseline: not compared


def test_a_mix_of_a_rise_within_tolerance_and_a_fall_is_not_an_improvement():
    """Total up 1% (tolerated), one call down: the method is not better on every metric, so the verdict
    passes without calling the baseline stale."""
    base = {"m": {"invocations": 1, "total": 100, "opcodes": {"iload": 100}, "calls": {"a.b()V": 3}}}
    now = {"m": {"invocations": 1, "total": 101, "opcodes": {"iload": 101}, "calls": {"a.b()V": 2}}}
    verdict = compare(base, now, parse_tolerances("total=2%,calls=1"))
    assert verdict.status == "passed" and verdict.diffs[0].status == "same"
    fell = {"m": {"invocations": 1, "total": 99, "opcodes": {"iload": 99}, "calls": {"a.b()V": 2}}}
    assert compare(base, fell, parse_tolerances("total=2%,calls=1")).status == "improved"


def test_under_strict_a_shift_only_in_the_callees_inclusive_counts_is_named_on_the_first_line():
    m = "a.B#c()V"
    base = {**counts(10), "inclusive": {"total": 20, "calls": {}, "opcodes": {"nop": 20}, "methods": []}}
    now = {**counts(10), "inclusive": {"total": 20, "calls": {}, "opcodes": {"nop": 19, "pop": 1}, "methods": []}}
    verdict = compare({m: base}, {m: now}, {}, strict=True)
    assert verdict.status == "changed"
    assert verdict.headline() == "CHANGED: inclusive opcodes nop 20 -> 19 (-1); inclusive unchanged (strict: any change fails)"


def inclusive_counts(total, inclusive_total, calls=None, methods=()):
    own = counts(total, calls=calls)
    own["inclusive"] = {"calls": {}, "methods": ["a.B#c()V", *methods], "opcodes": {"nop": inclusive_total},
                        "total": inclusive_total}
    return own


def test_calls_that_moved_to_counted_methods_reshape_the_test_when_the_work_stays_within_tolerance():
    """A block of c() extracted into a private helper: c's own total falls, a call to the helper
    appears, and the inclusive total (c's work with the helper's) grows by the call's few instructions."""
    m = "a.B#c()V"
    base = {m: inclusive_counts(100, 100)}
    now = {m: inclusive_counts(60, 104, calls={"a/B.helper(I)I": 1}, methods=["a.B#helper(I)I"])}
    loose = compare(base, now, parse_tolerances("inclusive=5%"))
    assert loose.status == "reshaped" and not loose.failed
    assert loose.headline() == ("reshaped: new call a/B.helper(...) 0 -> 1 (+1; its work is counted in inclusive); "
                                "inclusive +4.0%; the work stayed within tolerance, only where it is done moved")
    assert "    its work (inclusive) stayed within tolerance; what rose moved the work between the method, the methods it " \
        "calls and the JDK: the test passes (strict checking fails it)" in render_verdict(loose, "cmd").splitlines()
    # the work itself beyond its tolerance: a regression, named first
    tight = compare(base, now, {})
    assert tight.status == "regressed"
    assert tight.headline().startswith("REGRESSED: inclusive 100 -> 104 (+4, +4.0%)")
    # strict: any change fails
    assert compare(base, now, parse_tolerances("inclusive=5%"), strict=True).status == "changed"


def test_a_call_whose_work_is_not_counted_still_fails_beside_counted_ones():
    m = "a.B#c()V"
    base = {m: inclusive_counts(100, 100)}
    now = {m: inclusive_counts(100, 102, calls={"a/B.helper(I)I": 1, "java/util/List.contains(Ljava/lang/Object;)Z": 500},
                               methods=["a.B#helper(I)I"])}
    v = compare(base, now, parse_tolerances("inclusive=5%"))
    assert v.status == "regressed"
    assert v.headline() == ("REGRESSED: new call java/util/List.contains(...) 0 -> 500 (+500; its own work is not "
                            "counted); inclusive +2.0%")  # the helper's call explains (its work is in inclusive)
    assert "    calls: java/util/List.contains(Ljava/lang/Object;)Z 0 -> 500 (+500), a/B.helper(I)I 0 -> 1 (+1)" in \
        render_verdict(v, "cmd").splitlines()


def test_a_call_to_a_method_the_test_counts_is_judged_in_that_method_s_own_entry():
    """A recursive call, or a call to another marked method: the callee's work has an entry of its own,
    so the call is churn, and the callee's entry says whether the work grew."""
    walk, sign = "a.R#walk(I)J", "a/R.walk(I)J"
    # memoisation removed: the recursive calls rise with the method's own total, the total decides
    v = compare({walk: counts(100, calls={sign: 10})}, {walk: counts(9000, calls={sign: 900})}, {})
    assert v.status == "regressed"
    assert v.headline() == "REGRESSED: total 100 -> 9,000 (+8,900, +8900.0%)"  # the recursive calls explain it
    assert "    calls: a/R.walk(I)J 10 -> 900 (+890)" in render_verdict(v, "cmd").splitlines()
    # the work of a loop moved into another marked method: each method is judged on its own work
    c, helper = "a.B#c()V", "a.B#helper(I)I"
    base = {c: counts(100)}
    moved = {c: counts(60, calls={"a/B.helper(I)I": 1}), helper: counts(40)}
    verdict = compare(base, moved, {})
    assert verdict.status == "regressed"
    assert {d.method: d.status for d in verdict.diffs} == {c: "reshaped", helper: "regressed"}  # new work is the helper's
    # the same call to a method the test does not count is not assumed counted
    alone = compare(base, {c: counts(60, calls={"a/B.helper(I)I": 1})}, {})
    assert alone.status == "regressed" and "its own work is not counted" in alone.headline()


def test_which_calls_inclusive_counts_cover():
    from pytest_bytecount.regression.compare import counted_in

    entry = inclusive_counts(1, 1, methods=["a.Circle#area()D", "a.B#helper(I)I", "a.MyList#size()I"])
    assert counted_in(entry, "a/B.helper(I)I") == "inclusive"  # the callee itself ran for the method
    assert counted_in(entry, "a/Shape.area()D") == "inclusive"  # through an application interface
    assert counted_in(entry, "a/B.helper(J)I") is None  # another overload did not run
    assert counted_in(entry, "java/util/List.size()I") is None  # a JDK signature: never assumed counted
    assert counted_in(entry, "indy applyAsInt()Ljava/util/function/IntUnaryOperator;") is None
    assert counted_in(counts(1), "a/B.helper(I)I") is None  # without inclusive counts nothing is covered


def test_all_sets_every_metric_and_a_metric_named_beside_it_wins():
    from pytest_bytecount.counting.counts import METRICS
    from pytest_bytecount.regression.compare import named_metrics

    t = parse_tolerances("all=5%")
    assert set(t) == set(METRICS) and set(t.values()) == {Tolerance(0, 0.05)}
    # the order does not matter: a metric named itself keeps its own tolerance
    for spec in ("all=5%, calls=10", "calls=10, all=5%"):
        t = parse_tolerances(spec)
        assert t["calls"] == Tolerance(10, 0.0) and t["total"] == Tolerance(0, 0.05)
    # over the defaults: all replaces them, and a named metric still wins
    t = parse_tolerances("all=1%", parse_tolerances("total=50, invocations=2"))
    assert t["total"] == Tolerance(0, 0.01) and t["invocations"] == Tolerance(0, 0.01)
    assert named_metrics("all=5%, total=3") == {"total"} and named_metrics("all=5%") == set()
    # `total=5%` alone leaves calls at 0: a call that rises still fails; `all=5%` loosens both
    m = "a.B#c()V"
    base, now = {m: counts(1000, calls={"x/Y.z()V": 100})}, {m: counts(1040, calls={"x/Y.z()V": 104})}
    assert compare(base, now, parse_tolerances("total=5%")).status == "regressed"
    assert compare(base, now, parse_tolerances("all=5%")).status == "passed"
    # a relative tolerance never admits a call that was not made before (5% of 0 is 0)
    assert compare(base, {m: counts(1000, calls={"x/Y.z()V": 100, "x/Y.w()V": 1})},
                   parse_tolerances("all=5%")).status == "regressed"


def test_a_method_renamed_with_the_same_code_reads_as_a_rename_not_a_regression_and_an_improvement():
    old, new, caller = "a.B#sum(I)I", "a.B#total(I)I", "a.B#report()V"
    base = {old: counts(100, sha="f1"), caller: counts(10, calls={"a/B.sum(I)I": 1})}
    now = {new: counts(100, sha="f1"), caller: counts(10, calls={"a/B.total(I)I": 1})}
    v = compare(base, now, {})
    assert v.status == "reshaped" and not v.failed
    assert v.headline().startswith("reshaped: renamed? a.B#sum -> a.B#total (the same code and counts); "
                                   "new call a/B.total(...) 0 -> 1 (+1; its work is counted in a.B#total)")
    text = render_verdict(v, "cmd")
    assert "a.B#total(I)I: renamed? it ran as a.B#sum(I)I in the baseline: the same code, and the same counts" in text
    assert "opcodes" not in text.split("a.B#total(I)I: renamed?")[1]  # no dump of the two sides
    assert compare(base, now, {}, strict=True).status == "changed"
    # the same code on another path: judged as before, and the note says what it may be
    moved = compare({old: counts(100, sha="f1")}, {new: counts(300, sha="f1")}, {})
    assert moved.status == "regressed"
    assert "did not run when the baseline was recorded, runs now; renamed? the same code as a.B#sum(I)I, which " \
           "stopped" in render_verdict(moved, "cmd")
    # other code under a new name is no rename
    assert compare({old: counts(100, sha="f1")}, {new: counts(100, sha="f2")}, {}).status == "regressed"
