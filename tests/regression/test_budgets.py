"""Budgets as values: a spec parsed, a test's figure read off counts made by hand, and the failure text. No JVM."""

from __future__ import annotations

import pytest

from pytest_bytecount.regression.budgets import (WORK, Budget, BudgetError, budget_status, check_budgets, figure_of,
                                                  parse_budgets, render_over_budget)


def test_a_spec_names_figures_and_a_bare_number_bounds_the_figure_that_decides():
    assert parse_budgets("total<=5000") == (Budget("total", 5000),)
    assert parse_budgets("deep<=2_000_000, copied<=10000") == (Budget("deep", 2_000_000), Budget("copied", 10_000))
    assert parse_budgets(5000) == parse_budgets("5000") == (Budget(WORK, 5000),)
    assert parse_budgets(" calls <= 12 ") == (Budget("calls", 12),)
    assert parse_budgets(None) == parse_budgets("") == parse_budgets("  ") == ()


def test_the_markers_budget_wins_over_the_projects_for_the_figures_it_names():
    project = parse_budgets("deep<=100, total<=50")
    assert parse_budgets("deep<=7", project) == (Budget("total", 50), Budget("deep", 7))
    assert parse_budgets(None, project) == project


@pytest.mark.parametrize("spec, says", [
    ("total<5000", "expected FIGURE<=N"),
    ("total=5000", "expected FIGURE<=N"),
    ("totl<=5000", "unknown figure 'totl'"),
    ("total<=-5", "a budget is a number >= 0"),
    (-5, "a budget is a number >= 0"),
    ("total<=5_", "expected FIGURE<=N"),
    ("total<=1e9", "expected FIGURE<=N"),
    ("total<=5, total<=6", "total is bounded twice"),
    (2.5, "expected a string"),
    (True, "expected a string"),
])
def test_a_bad_spec_is_one_line_naming_it_and_the_form_expected(spec, says):
    with pytest.raises(BudgetError) as e:
        parse_budgets(spec)
    text = str(e.value)
    assert says in text and repr(spec) in text and "\n" not in text


def _method(total, deep=None, copied=0, methods=None, calls=None):
    counts = {"invocations": 1, "total": total, "opcodes": {}, "calls": calls or {}}
    if deep is not None:
        counts["deep"] = {"total": deep, "copied": copied, "methods": methods or {}}
    return counts


def test_a_figure_is_the_tests_summed_over_its_methods_and_each_instruction_counts_once():
    # outer's deep windows ran inner's 40 instructions each time: inner's deep work is already in outer's
    counts = {"a.Outer#run()V": _method(30, deep=1000, copied=20, methods={"a.Inner#step()V": 40}),
              "a.Inner#step()V": _method(40, deep=40),
              "a.Other#go()V": _method(5, deep=300, copied=1, calls={"java/util/List.add(Ljava/lang/Object;)Z": 3})}
    assert figure_of(counts, "total") == (75, "total")
    assert figure_of(counts, "deep") == (1300, "deep.total")
    assert figure_of(counts, "copied") == (21, "deep.copied")
    assert figure_of(counts, WORK) == (1321, "deep work (deep.total + deep.copied)")
    assert figure_of(counts, "calls") == (3, "calls")
    flat = {"a.Outer#run()V": _method(30), "a.Other#go()V": _method(5)}
    assert figure_of(flat, WORK) == (35, "total")
    assert figure_of(flat, "deep") == (None, "deep.total")


def test_each_budget_is_within_over_or_unchecked_and_the_worst_decides():
    flat = {"a.Cls#m()V": _method(5000)}
    checks = check_budgets(parse_budgets("total<=5000"), flat)
    assert [c.status for c in checks] == ["within"] and budget_status(checks) is None
    checks = check_budgets(parse_budgets("total<=4999, deep<=10"), flat)
    assert [c.status for c in checks] == ["over", "unchecked"] and budget_status(checks) == "over-budget"
    assert checks[0].excess == 1
    checks = check_budgets(parse_budgets("deep<=10"), flat)
    assert budget_status(checks) == "unchecked"
    # a project-wide budget bounds only the figures a test records
    assert check_budgets(parse_budgets("deep<=10"), flat, skip_missing={"deep"}) == []


def test_the_failure_names_the_budget_the_figure_and_by_how_much_and_an_update_records_nothing():
    counts = {"a.Cls#m()V": _method(30, deep=6_834_585)}
    checks = check_budgets(parse_budgets("deep<=5_000_000, total<=100"), counts)
    text = render_over_budget(checks, updating=False)
    first = text.splitlines()[0]
    assert first == "OVER BUDGET: deep.total 6,834,585 is over the budget deep<=5,000,000 by 1,834,585, +36.7%"
    assert "total<=100" not in text  # within its budget: not said
    assert "--bytecount-update does not accept it" in text
    assert "Nothing was recorded for this test" in render_over_budget(checks, updating=True)
    unchecked = render_over_budget(check_budgets(parse_budgets("inclusive<=5"), counts), updating=False)
    assert unchecked.startswith("BUDGET UNCHECKED: budget inclusive<=5 cannot be checked")


def test_a_checks_json_shape_names_the_budget_its_figure_and_status():
    (check,) = check_budgets(parse_budgets("12"), {"a.Cls#m()V": _method(30)})
    assert check.to_dict() == {"budget": "12", "figure": WORK, "limit": 12, "value": 30, "read_as": "total",
                               "status": "over"}
