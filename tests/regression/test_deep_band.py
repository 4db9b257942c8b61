"""Deep counts taken on another class library than the baseline's, compared loosely within a band, without a
JVM: the rule on plain dicts, and the text a reviewer reads."""

from __future__ import annotations

import re

import pytest

from pytest_bytecount.regression.compare import parse_tolerances
from pytest_bytecount.regression.deep_band import (across_class_libraries, compare_loosely, loose_line, render_loose,
                                                   without_deep)

M = "shop.Cart#total(I)J"
OTHER = "shop.Cart#add(I)V"
JDK17 = {"version": "17.0.19+10", "vendor": "Debian", "class_library": "e4bb8d5c01d7447e"}
JDK25 = {"version": "25.0.2+10-LTS", "vendor": "Eclipse Adoptium", "class_library": "f192213436fb570a"}
RERECORD = "pytest tests/test_cart.py::test_total --bytecount-update"


def entry(total, copied=0, own=40):
    """One method's counts: its own flat figures (the same on every class library) and a deep group."""
    return {"total": own, "invocations": 1, "calls": {"java/util/List.add(Ljava/lang/Object;)Z": 3},
            "opcodes": {"iload": own}, "deep": {"total": total, "copied": copied, "windows": 1,
                                                 "methods": {M: own, "java.util.ArrayList#add(Ljava/lang/Object;)Z": total - own}}}


def loose(base: dict, now: dict, tolerance: str = ""):
    return compare_loosely(base, now, JDK17, JDK25, parse_tolerances(tolerance))


def test_only_a_baseline_with_deep_counts_from_another_runtime_is_compared_loosely():
    stored = {M: entry(100_000)}
    assert across_class_libraries(stored, JDK17, JDK25)
    assert not across_class_libraries(stored, JDK17, dict(JDK17))  # the same runtime: compared exactly
    assert not across_class_libraries(None, JDK17, JDK25)  # no baseline: a new test
    assert not across_class_libraries(stored, JDK17, None)  # this run took no deep counts
    assert not across_class_libraries({M: without_deep(stored)[M]}, JDK17, JDK25)  # the baseline has none
    # a baseline that does not say where its deep counts were taken is from another runtime as far as is known
    assert across_class_libraries(stored, None, JDK25)


def test_without_deep_keeps_every_other_figure():
    stripped = without_deep({M: entry(100_000)})
    assert stripped == {M: {"total": 40, "invocations": 1, "calls": {"java/util/List.add(Ljava/lang/Object;)Z": 3},
                            "opcodes": {"iload": 40}}}


@pytest.mark.parametrize("base,now,status", [
    (100_000, 100_000, "passed"),
    (100_000, 250_000, "passed"),  # 2.5x: as far as String.format moved between HotSpot 17 and Java 25
    (100_000, 400_000, "passed"),  # exactly the band
    (100_000, 400_001, "regressed"),
    (100_000, 1_000_000, "regressed"),  # a linear target given ten times its input
    (1_000_000, 250_000, "passed"),  # a quarter: still the band
    (1_000_000, 249_999, "improved"),
])
def test_a_deep_total_may_move_four_times_either_way(base, now, status):
    assert loose({M: entry(base)}, {M: entry(now)}).status == status


def test_copied_elements_are_judged_apart_from_the_total():
    verdict = loose({M: entry(100_000, copied=5_000)}, {M: entry(110_000, copied=50_000)})
    assert verdict.status == "regressed"
    assert [(f.name, f.base, f.now, f.status) for f in verdict.figures] == [
        ("deep.total", 100_000, 110_000, "same"), ("deep.copied", 5_000, 50_000, "regressed")]


def test_small_figures_have_no_size_to_compare():
    # under 1,000 on both sides nothing is judged; a figure is taken as at least 1,000
    assert loose({M: entry(100)}, {M: entry(999)}).status == "passed"
    assert loose({M: entry(100)}, {M: entry(4_000)}).status == "passed"
    assert loose({M: entry(100)}, {M: entry(4_001)}).status == "regressed"
    assert loose({M: entry(5_000)}, {M: entry(200)}).status == "improved"  # 5,000 is more than 4 x 1,000
    # elements copied are taken as at least a hundredth of the method's deep total in the baseline: a class
    # library that copies a few elements where the other copied none changes nothing of the method's size
    assert loose({M: entry(2_000_000, copied=0)}, {M: entry(2_000_000, copied=80_000)}).status == "passed"
    assert loose({M: entry(2_000_000, copied=0)}, {M: entry(2_000_000, copied=80_001)}).status == "regressed"


def test_the_worst_method_decides_and_only_methods_that_ran_on_both_sides_are_compared():
    base = {M: entry(100_000), OTHER: entry(100_000)}
    assert loose(base, {M: entry(10_000), OTHER: entry(100_000)}).status == "improved"
    assert loose(base, {M: entry(10_000), OTHER: entry(1_000_000)}).status == "regressed"
    # a method that started running (or stopped) is the exact comparison's to judge: no deep figure for it here
    verdict = loose({M: entry(100_000)}, {M: entry(100_000), OTHER: entry(9_000_000)})
    assert verdict.status == "passed" and {f.method for f in verdict.figures} == {M}


def test_a_tolerance_looser_than_the_band_wins():
    assert loose({M: entry(100_000)}, {M: entry(900_000)}).status == "regressed"
    assert loose({M: entry(100_000)}, {M: entry(900_000)}, "deep=800%").status == "passed"
    # a tighter one does not: exact figures are not comparable across class libraries
    assert loose({M: entry(100_000)}, {M: entry(120_000)}, "deep=0").status == "passed"


def test_the_line_names_both_runtimes_the_band_and_the_command():
    verdict = loose({M: entry(100_000)}, {M: entry(120_000)})
    assert loose_line(verdict, RERECORD) == (
        "bytecount: deep counts compared loosely, within 4x, across two class libraries: the baseline's were taken "
        "on Java 17.0.19+10 (Debian, class library e4bb8d5c01d7447e), this run's on Java 25.0.2+10-LTS (Eclipse "
        "Adoptium, class library f192213436fb570a). Re-record them on this runtime with: " + RERECORD)
    assert render_loose(verdict, RERECORD) == loose_line(verdict, RERECORD)  # within the band: the line alone


def test_a_rise_beyond_the_band_reads_like_a_regression():
    text = render_loose(loose({M: entry(1_700_000, copied=2_000)}, {M: entry(674_000_000, copied=3_000)}), RERECORD)
    lines = text.splitlines()
    # 674,000,000 / 1,700,000 = 396.47...
    assert lines[0] == ("REGRESSED: deep.total 1,700,000 -> 674,000,000 (396x, beyond the 4x band); the deep counts "
                        "were compared loosely, across two class libraries, whose figures differ by less than that")
    assert lines[1] == f"{M}: REGRESSED"
    assert re.fullmatch(r"\s+deep\.total\s+1,700,000 -> 674,000,000\s+396x  beyond the band", lines[2])
    assert re.fullmatch(r"\s+deep\.copied\s+2,000 -> 3,000\s+1\.5x", lines[3])
    assert lines[4].startswith("bytecount: deep counts compared loosely, within 4x") and lines[4].endswith(RERECORD)
    assert "Java 17.0.19+10 (Debian" in lines[4] and "Java 25.0.2+10-LTS (Eclipse Adoptium" in lines[4]


def test_a_fall_beyond_the_band_says_the_baseline_is_stale():
    text = render_loose(loose({M: entry(1_000_000), OTHER: entry(50_000)}, {M: entry(100_000), OTHER: entry(50_000)}),
                        RERECORD)
    assert text.splitlines()[0] == ("improved: deep.total 1,000,000 -> 100,000 (0.1x, below the 4x band); the deep "
                                    "counts were compared loosely, across two class libraries; the baseline is stale")
    assert f"{OTHER}:" not in text  # only the methods that moved beyond the band are listed
