"""The widest work figure in force decides a test's verdict; the narrower ones explain it (values alone, no JVM).

With deep counts the deep work decides (``deep`` + ``copied``: the instructions run anywhere, the JDK's included,
and the elements native copies moved), with inclusive counts ``inclusive``, else ``total``. The counts are written
by hand after the shapes of real changes: a fix that moves the JDK's work into the method, a fix that copies a few
more elements while doing far less work, a callee that starts scanning a list under ``inclusive=True``."""

from __future__ import annotations

from pathlib import Path

from pytest_bytecount.regression.compare import bound_deep_work, nested_targets, parse_tolerances, percent_change
from pytest_bytecount.regression.counts_verdict import Stored, decide

M = "app.Lists#subtract(Ljava/util/List;Ljava/util/List;)Ljava/util/List;"
ACCEPT = "pytest tests/test_lists.py::test_subtract --bytecount-update"
REMOVE = "java/util/ArrayList.remove(Ljava/lang/Object;)Z"
BAG = "app/HashBag.remove(Ljava/lang/Object;)Z"
CONTAINS = "java/util/List.contains(Ljava/lang/Object;)Z"


def entry(total: int, calls: dict, deep: int = 0, copied: int = 0, methods: tuple = (), inclusive: dict = None) -> dict:
    out = {"total": total, "invocations": 1, "calls": calls, "opcodes": {"iload": total}, "code_fingerprint": "a"}
    if deep:
        out["deep"] = {"total": deep, "copied": copied, "windows": 1,
                       "methods": {m: 10 for m in (M.replace("#", "#"), *methods)}}
    if inclusive is not None:
        out["inclusive"] = inclusive
    return out


def verdict(before: dict, after: dict, tolerance: str = "", strict: bool = False):
    return decide(Stored({M: before}), {M: after}, None, None, parse_tolerances(tolerance), strict, "test_subtract",
                  Path("tests/bytecount/test_lists.json"), ACCEPT)


# A list subtraction: ArrayList.remove(Object) per element (the JDK scans and shifts) replaced by a counting bag.
# The method's own instructions rise (the bag's loop is its own now) and a new call appears; the work falls 92%.
SLOW = entry(5_513, {REMOVE: 500}, deep=1_000_000, copied=120_000,
             methods=("java.util.ArrayList#remove(Ljava/lang/Object;)Z",))
BAGGED = entry(14_017, {BAG: 500}, deep=84_000, copied=200, methods=("app.HashBag#remove(Ljava/lang/Object;)Z",))


def test_a_fix_that_moves_the_jdk_s_work_into_the_method_improves_on_the_deep_work():
    v = verdict(SLOW, BAGGED)
    assert v.status == "improved" and v.says_why
    first = v.message.splitlines()[0]
    assert first.startswith("improved: deep 1,000,000 -> 84,000 (-916,000, -91.6%)"), first
    assert "total 5,513 -> 14,017" in first  # the narrower figure that rose explains the verdict
    assert first.endswith("the baseline is stale")
    # the same change counted flat: the new call's work is counted nowhere, so it decides
    flat = verdict({k: v for k, v in SLOW.items() if k != "deep"}, {k: v for k, v in BAGGED.items() if k != "deep"})
    assert flat.status == "regressed"  # its own total decides flat, and so does the call into code not counted
    assert flat.message.startswith("REGRESSED: total 5,513 -> 14,017 (+8,504, +154.3%); new call app/HashBag.remove(...) "
                                   "0 -> 500 (+500; its own work is not counted)")


def test_a_few_more_elements_copied_while_the_work_falls_is_an_improvement():
    """An array removal that rescanned per value, made one pass with a count map: 4 more elements copied."""
    before = entry(900, {}, deep=60_000, copied=511)
    after = entry(1_004, {}, deep=21_000, copied=515)
    v = verdict(before, after)
    assert v.status == "improved" and "copied 511 -> 515" in v.message.splitlines()[0]


def test_the_deep_work_that_rises_fails_and_names_its_figures_while_the_method_s_own_code_is_unchanged():
    v = verdict(entry(300, {CONTAINS: 50}, deep=4_000, copied=10), entry(300, {CONTAINS: 50}, deep=2_690_263, copied=10))
    assert v.status == "regressed"
    assert v.message.splitlines()[0] == "REGRESSED: deep 4,000 -> 2,690,263 (+2,686,263, +67156.6%)"
    # elements copied are work too: a rise made of copies alone fails
    copies = verdict(entry(300, {}, deep=4_000, copied=10), entry(300, {}, deep=4_000, copied=90_000))
    assert copies.status == "regressed" and copies.message.startswith("REGRESSED: copied 10 -> 90,000")


def test_a_narrower_figure_decides_only_when_a_tolerance_names_it_and_strict_stays_strict():
    assert verdict(SLOW, BAGGED, tolerance="total=0").status == "regressed"  # asked for explicitly: enforced
    assert verdict(SLOW, BAGGED, tolerance="total=0").message.startswith("REGRESSED: total 5,513 -> 14,017")
    assert verdict(SLOW, BAGGED, tolerance="total=200%").status == "improved"
    assert verdict(SLOW, BAGGED, strict=True).status == "changed"


def test_work_that_moved_from_the_jdk_into_the_method_at_the_same_deep_work_is_reshaped():
    v = verdict(entry(100, {REMOVE: 5}, deep=5_000), entry(400, {BAG: 5}, deep=5_000))
    assert v.status == "reshaped" and v.says_why
    assert "REGRESSED" not in v.message and "total 100 -> 400" in v.message.splitlines()[0]


def test_a_rise_within_tolerance_passes_and_says_so():
    v = verdict(entry(300, {}, deep=100_000), entry(300, {}, deep=100_700), tolerance="deep=1%")
    assert v.status == "passed" and v.says_why
    assert v.message == "within tolerance: deep +0.7% (tolerance 1%)"
    beyond = verdict(entry(300, {}, deep=100_000), entry(300, {}, deep=101_100), tolerance="deep=1%")
    assert beyond.status == "regressed"
    assert verdict(entry(300, {}, deep=100_000), entry(300, {}, deep=100_000)).message == ""  # nothing moved: silent


def inclusive(total: int, calls: dict, methods: list) -> dict:
    return {"total": total, "calls": calls, "methods": methods, "opcodes": {"iload": total}}


def test_a_counted_callee_that_starts_calling_into_the_jdk_fails_under_inclusive_counts():
    """The target calls an application helper that turned a HashSet into List.contains: the helper's own code
    shrank (inclusive fell slightly), the JDK call it makes 650 times now does work counted nowhere."""
    helper, add = "app.Tags#distinct(Ljava/util/List;)Ljava/util/List;", "java/util/Set.add(Ljava/lang/Object;)Z"
    before = entry(90, {"app/Tags.distinct(Ljava/util/List;)Ljava/util/List;": 1},
                   inclusive=inclusive(103_678, {add: 650, "app/Tags.distinct(Ljava/util/List;)Ljava/util/List;": 1},
                                       [M, helper]))
    after = entry(90, {"app/Tags.distinct(Ljava/util/List;)Ljava/util/List;": 1},
                  inclusive=inclusive(103_478, {CONTAINS: 650, "app/Tags.distinct(Ljava/util/List;)Ljava/util/List;": 1},
                                      [M, helper]))
    v = verdict(before, after)
    assert v.status == "regressed", v.message
    assert v.message.splitlines()[0].startswith(
        "REGRESSED: new call java/util/List.contains(...) 0 -> 650 (+650; its own work is not counted)")
    # the call it stopped making is no improvement: a fall beside a failing rise
    assert "improved" not in v.message.splitlines()[0]


def test_deep_counts_on_one_side_only_are_judged_on_the_flat_figures_and_say_so_never_silently():
    """A baseline recorded flat, before deep counts were the default (or a run without them): the flat figures both
    sides hold decide, exactly, and the verdict says the deep work was not compared and how to compare it."""
    flat, deep = entry(300, {}), entry(300, {}, deep=50_000)
    on = verdict(flat, deep)
    assert (on.status, on.flat_only, on.says_why) == ("passed", "baseline", True)
    assert on.message == ("compared on flat counts only: the baseline of test_subtract was recorded without deep "
                          f"counts, which this run takes; re-record it to judge all the work, the JDK's included: {ACCEPT}")
    off = verdict(deep, flat)
    assert (off.status, off.flat_only) == ("passed", "run")
    assert off.message.startswith("compared on flat counts only: this run took no deep counts")
    # the flat figures decide exactly: a rise of the method's own work fails, whichever side lacks deep counts
    worse = verdict(flat, entry(301, {}, deep=50_000))
    assert worse.status == "regressed" and worse.message.startswith("REGRESSED: total 300 -> 301")
    assert worse.message.splitlines()[-1].startswith("compared on flat counts only: the baseline")
    assert verdict(deep, entry(290, {})).status == "improved"
    assert verdict(deep, deep).flat_only is None and verdict(deep, deep).status == "passed"


def test_a_deep_failure_says_where_the_work_went():
    """The deep counts' methods, growth first: here ArrayList#indexOfRange is where a List.contains scan went."""
    scan = "java.util.ArrayList#indexOfRange(Ljava/lang/Object;II)I"
    before = entry(300, {}, deep=4_000)
    after = entry(300, {}, deep=2_690_263)
    before["deep"]["methods"] = {M: 300, "java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;": 3_700}
    after["deep"]["methods"] = {M: 300, scan: 2_689_963}
    lines = verdict(before, after).message.splitlines()
    at = lines.index("    where the work went (deep.methods, most growth first):")
    assert lines[at + 1].split() == [scan, "0", "->", "2,689,963", "+2,689,963"]
    assert lines[at + 2].split()[0].startswith("java.util.HashMap#putVal") and lines[at + 2].split()[-1] == "-3,700"
    assert len([line for line in lines if line.startswith("      ")]) == 2  # the target's own work did not move


def test_a_bare_tolerance_bounds_the_figure_that_decides_whichever_it_is():
    deep_before, deep_after = entry(300, {}, deep=100_000), entry(300, {}, deep=104_000)
    assert verdict(deep_before, deep_after).status == "regressed"
    within = verdict(deep_before, deep_after, "5%")
    assert within.status == "passed" and within.message == "within tolerance: deep +4.0% (tolerance 5%)"
    assert verdict(deep_before, entry(300, {}, deep=106_000), "5%").status == "regressed"
    # flat, the same spec bounds total; a tolerance named beside it wins for its own figure
    assert verdict(entry(300, {}), entry(310, {}), "5%").status == "passed"
    assert verdict(deep_before, deep_after, "5%, deep=1%").status == "regressed"


def test_a_tolerance_written_for_total_or_inclusive_bounds_the_deep_work_taken_by_default():
    tolerances, carried = bound_deep_work("total=5%", parse_tolerances("total=5%"))
    assert carried == "total" and tolerances["deep"] == tolerances["total"]
    assert bound_deep_work("inclusive=2%, calls=1", parse_tolerances("inclusive=2%, calls=1"))[1] == "inclusive"
    # named for deep itself, or a bare one, or none at all: nothing is carried over
    for spec in ("total=5%, deep=1%", "5%", "", "calls=3"):
        assert bound_deep_work(spec, parse_tolerances(spec))[1] is None, spec
    before, after = entry(300, {}, deep=100_000), entry(300, {}, deep=103_000)
    assert decide(Stored({M: before}), {M: after}, None, None, tolerances, False, "t", Path("b.json"),
                  ACCEPT).status == "passed"


OUTER = "app.Text#split(Ljava/lang/String;)[Ljava/lang/String;"
INNER = "app.Text#split(Ljava/lang/String;I)[Ljava/lang/String;"


def overloads(outer_deep: int, inner_total: int, inner_deep: int, inner_ran_inside: int) -> dict:
    """One pattern's two overloads, the first calling the second: the inner one's windows inside the outer's."""
    outer = {"total": 20, "invocations": 1, "calls": {}, "opcodes": {"iload": 20},
             "deep": {"total": outer_deep, "copied": 0, "windows": 1,
                      "methods": {OUTER: 20, INNER: inner_ran_inside, "java.lang.String#indexOf(II)I": outer_deep - 20
                                  - inner_ran_inside}}}
    inner = {"total": inner_total, "invocations": 1, "calls": {}, "opcodes": {"iload": inner_total},
             "deep": {"total": inner_deep, "copied": 0, "windows": 1, "methods": {INNER: inner_total}}}
    return {OUTER: outer, INNER: inner}


def test_a_target_that_runs_only_inside_another_is_judged_as_part_of_it_so_the_work_counts_once():
    before, after = overloads(1_000, 100, 900, 100), overloads(1_000, 100, 900, 100)
    assert nested_targets(after) == {INNER: OUTER}
    # the outer call's work stayed the same, the inner one's own verdict does not decide
    del before[INNER]  # recorded when the outer did the work itself; the inner overload is new
    v = decide(Stored(before), after, None, None, parse_tolerances(""), False, "test_split", Path("b.json"), ACCEPT)
    assert v.status == "passed", v.message
    # a rise inside the inner one is the outer's rise: one failure, whose headline names the outer only
    worse = overloads(5_000, 500, 4_900, 500)
    v = decide(Stored(overloads(1_000, 100, 900, 100)), worse, None, None, parse_tolerances(""), False,
               "test_split", Path("b.json"), ACCEPT)
    assert v.status == "regressed"
    assert v.message.splitlines()[0] == "REGRESSED: deep 1,000 -> 5,000 (+4,000, +400.0%)"
    assert f"    runs only inside {OUTER}, whose deep work counts all of its own: judged as part of it, not again " \
           f"on its own" in v.message.splitlines()


def test_a_target_that_also_runs_on_its_own_is_judged_on_its_own():
    counts = overloads(1_000, 100, 900, 60)  # 40 of its 100 instructions ran outside the outer's windows
    assert nested_targets(counts) == {}
    assert nested_targets({OUTER: {"total": 5, "invocations": 1}}) == {}  # flat counts: nothing is nested


def test_a_tiny_change_shows_the_digits_that_make_it_visible():
    assert percent_change(302_532, 302_536) == "+0.0013%"
    assert (percent_change(1_000, 1_072), percent_change(1_000, 1_000), percent_change(1_000, 999)) == \
        ("+7.2%", "+0.0%", "-0.1%")
    v = verdict(entry(300, {}, deep=612_618), entry(300, {}, deep=612_622))
    assert v.message.splitlines()[0] == "REGRESSED: deep 612,618 -> 612,622 (+4, +0.00065%)"


def test_a_nested_target_still_decides_on_a_figure_the_outer_deep_work_does_not_hold():
    before, after = overloads(1_000, 100, 900, 100), overloads(1_000, 100, 900, 100)
    before[INNER]["cost"], after[INNER]["cost"] = 20, 500  # a weight table's cost, its own figure
    v = decide(Stored(before), after, None, None, parse_tolerances(""), False, "test_split", Path("b.json"), ACCEPT)
    assert v.status == "regressed" and v.message.startswith("REGRESSED: cost 20 -> 500"), v.message
    strict = decide(Stored(overloads(1_000, 100, 900, 100)), overloads(1_000, 101, 901, 101), None, None,
                    parse_tolerances("deep=50%"), True, "test_split", Path("b.json"), ACCEPT)
    assert strict.status == "changed"
