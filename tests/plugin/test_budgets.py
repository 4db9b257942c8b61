"""Budgets, end to end: fixed ceilings a test's work must stay under (the marker's ``budget=``, ``[tool.bytecount]
budget``, ``--bytecount-budget``) and a complexity check's projection to a production size
(``bytecount.scaling(..., budget={size: limit})``), on the demo's insertion sort, binary search and fib, with deep
counts as users get them. A budget holds with and without a baseline, and an update never records a run over it."""

from __future__ import annotations

import json

from tests.support.chromium import Dom
from tests.support.paths import DEMO_SRC
from tests.support.pytest_project import java_project, run

SOURCES = {path.relative_to(DEMO_SRC).as_posix(): path.read_text() for path in sorted(DEMO_SRC.rglob("*.java"))}

TESTS = """
import jpype
import pytest


def reversed_ints(n):
    return jpype.JArray(jpype.JInt)(range(n, 0, -1))


def evens(n):
    return jpype.JArray(jpype.JInt)(range(0, 2 * n, 2))


@pytest.mark.bytecount("demo.Sorting#insertionSort")
def test_sort_at_production_size(bytecount):
    sorting = bytecount.jclass("demo.Sorting")
    bytecount.scaling([512, 1024, 2048, 4096, 8192], lambda n: sorting.insertionSort(reversed_ints(n)),
                      budget={100_000: 10**9})


def look_up_all(search):
    def run(n):
        a = evens(n)
        for key in range(0, 2 * n, 2 * n // 64):
            search.indexOf(a, key)
    return run


@pytest.mark.bytecount("demo.Search#indexOf")
def test_search_at_a_million(bytecount):
    search = bytecount.jclass("demo.Search")
    bytecount.scaling([1024, 2048, 4096, 8192, 16384, 32768], look_up_all(search), budget={1_000_000: 10**6})


@pytest.mark.bytecount("demo.Search#indexOf")
def test_search_too_far(bytecount):
    search = bytecount.jclass("demo.Search")
    bytecount.scaling([1024, 2048, 4096, 8192], look_up_all(search), budget={10**9: 10**6})


@pytest.mark.bytecount("demo.Sorting#fib", budget="total<=5000")
def test_fib_over_its_ceiling(bytecount):
    assert bytecount.jclass("demo.Sorting").fib(15) == 610


@pytest.mark.bytecount("demo.Sorting#fib", budget=20_000)
def test_fib_within(bytecount):
    assert bytecount.jclass("demo.Sorting").fib(12) == 144
"""


def results_of(pytester) -> dict:
    data = json.loads((pytester.path / "results.json").read_text())
    return {nodeid.split("::", 1)[1]: r for nodeid, r in data.items()}


def test_budgets_hold_with_and_without_a_baseline_and_an_update_never_records_a_run_over_one(pytester):
    java_project(pytester, SOURCES, {"test_budgets": TESTS}, pinned=False)
    stored = pytester.path / "bytecount" / "test_budgets.json"

    # no baseline yet: the budgets decide first
    first = run(pytester, "--bytecount-json=results.json", "--bytecount-pr-comment=comment.md")
    first.assert_outcomes(failed=5)
    out = first.stdout.str()
    r = results_of(pytester)
    assert {k: v["status"] for k, v in r.items()} == {
        "test_sort_at_production_size": "over-budget", "test_search_at_a_million": "new",
        "test_search_too_far": "unchecked", "test_fib_over_its_ceiling": "over-budget", "test_fib_within": "new"}
    # the insertion sort: the fit's projection to n=100,000, its order and the limit, in the first line
    sort = r["test_sort_at_production_size"]
    lead = sort["message"].splitlines()[0]
    assert lead.startswith("OVER BUDGET at n=100,000: the deep work of demo.Sorting#insertionSort([I)V projected to ")
    assert "over the limit 1,000,000,000" in lead and "(order n^2, measured up to n=8,192)" in lead
    (projection,) = sort["scaling"]["methods"]["demo.Sorting#insertionSort([I)V"]["budget"]
    assert projection["status"] == "over" and projection["projected"] > 10 ** 10 and projection["order"] == "n^2"
    # ~n^2/2 shifts of a reversed array: the projection is the measured series carried on, not a guess
    values = sort["scaling"]["methods"]["demo.Sorting#insertionSort([I)V"]["values"]
    assert 0.9 < projection["projected"] / (values[-1] * (100_000 / 8192) ** 2) < 1.1
    assert "(no baseline yet: --bytecount-update records one once the test is within its budget)" in sort["message"]
    assert "Record it with" not in sort["message"]  # an update would refuse it the same way
    # the binary search's projection to a million stays under 10^6
    (search,) = r["test_search_at_a_million"]["scaling"]["methods"]["demo.Search#indexOf([II)I"]["budget"]
    assert search["status"] == "within" and search["order"] == "log n" and 1000 < search["projected"] < 10 ** 6
    # a size far beyond the sizes measured: refused, and the sizes to add named
    far = r["test_search_too_far"]["message"]
    assert far.startswith("BUDGET UNCHECKED: cannot project the deep work of demo.Search#indexOf([II)I to "
                          "n=1,000,000,000 (limit 1,000,000): n=1,000,000,000 is 122,070 times the largest size")
    assert "add sizes 16,384, 32,768, 65,536," in far
    # the fib over its ceiling: which budget, the figure and by how much
    fib = r["test_fib_over_its_ceiling"]
    assert fib["message"].startswith("OVER BUDGET: total ") and " is over the budget total<=5,000 by " in fib["message"]
    assert fib["budgets"] == [{"budget": "total<=5000", "figure": "total", "limit": 5000, "read_as": "total",
                               "status": "over", "value": fib["counts"]["demo.Sorting#fib(I)I"]["total"]}]
    # the summary lists them with their first lines
    assert "over budget: a figure, or its projection to a size, is over a fixed ceiling" in out
    assert f"    {lead}" in out
    # so does the pull-request comment, and it offers no command to accept them: no update would
    rows = {line.split(" | ")[0].strip("|` "): line for line in (pytester.path / "comment.md").read_text().splitlines()
            if line.startswith("| `")}
    assert f"| over-budget |  |  | {lead} |  |" in rows["test_budgets.py::test_sort_at_production_size"]
    assert rows["test_budgets.py::test_search_at_a_million"].endswith("--bytecount-update` |")

    # an update records the tests within their budgets, and nothing of the others
    update = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    update.assert_outcomes(passed=2, failed=3)
    assert "Nothing was recorded for this test: --bytecount-update never accepts a run over its budget" in \
        update.stdout.str()
    assert sorted(json.loads(stored.read_text())["tests"]) == ["test_fib_within", "test_search_at_a_million"]
    assert {k: v["status"] for k, v in results_of(pytester).items()} == {
        "test_sort_at_production_size": "over-budget", "test_search_at_a_million": "recorded",
        "test_search_too_far": "unchecked", "test_fib_over_its_ceiling": "over-budget", "test_fib_within": "recorded"}

    # with a baseline: the fib recorded without its budget, then given it back, fails on the budget alone
    tests = pytester.path / "test_budgets.py"
    tests.write_text(TESTS.replace('budget="total<=5000"', 'budget="total<=50_000"'))
    run(pytester, "test_budgets.py::test_fib_over_its_ceiling", "--bytecount-update").assert_outcomes(passed=1)
    recorded = stored.read_bytes()
    assert "test_fib_over_its_ceiling" in json.loads(recorded)["tests"]
    tests.write_text(TESTS)
    again = run(pytester, "test_budgets.py::test_fib_over_its_ceiling", "--bytecount-json=results.json",
                "--bytecount-html=report")
    again.assert_outcomes(failed=1)
    fib = results_of(pytester)["test_fib_over_its_ceiling"]
    assert fib["status"] == "over-budget" and fib["message"].startswith("OVER BUDGET: total ")
    assert fib["baseline_counts"] == json.loads(recorded)["tests"]["test_fib_over_its_ceiling"]["methods"]
    # the HTML report's card leads with the same line
    dom = Dom((pytester.path / "report" / "index.html").read_text(encoding="utf-8"))
    (card,) = dom.find("section", class_="budget-card")
    assert card[1]["data-status"] == "over-budget"
    assert dom.find("p", within=card, class_="lead")[0][2] == fib["message"].splitlines()[0]
    # under an update the budget still fails the test, and its baseline stays as it was
    run(pytester, "test_budgets.py::test_fib_over_its_ceiling", "--bytecount-update").assert_outcomes(failed=1)
    assert stored.read_bytes() == recorded


def test_the_scaling_section_draws_the_limit_and_the_projection(pytester):
    java_project(pytester, SOURCES, {"test_budgets": TESTS}, pinned=False)
    run(pytester, "test_budgets.py::test_sort_at_production_size", "test_budgets.py::test_search_too_far",
        "--bytecount-html=report").assert_outcomes(failed=2)
    dom = Dom((pytester.path / "report" / "index.html").read_text(encoding="utf-8"))
    sections = {a["data-test"].split("::")[1]: (t, a, x) for t, a, x in dom.find("section", class_="scaling")}
    sort = sections["test_sort_at_production_size"]
    (limit,) = dom.find("line", within=sort, class_="limit")
    assert (limit[1]["data-size"], limit[1]["data-limit"]) == ("100000", "1000000000")
    (point,) = dom.find("circle", within=sort, class_="projected")
    assert "over" in point[1]["class"].split() and int(point[1]["data-value"]) > 10 ** 10
    assert float(point[1]["cy"]) < float(limit[1]["y1"])  # drawn above its limit: over it
    assert [a["data-status"] for _, a, _ in dom.find("tr", within=sort, class_="budget-row")] == ["over"]
    far = sections["test_search_too_far"]
    assert dom.find("line", within=far, class_="limit") and not dom.find("circle", within=far, class_="projected")
    assert "cannot project" in far[2]


BAD_SPECS = {
    "test_lt": ('budget="total<5000"', "bad budget 'total<5000': expected FIGURE<=N such as 'deep<=2_000_000'"),
    "test_unknown": ('budget="totl<=5000"', "bad budget 'totl<=5000': unknown figure 'totl'; expected one of total,"),
    "test_negative": ('budget="total<=-5"', "bad budget 'total<=-5': expected FIGURE<=N such as 'deep<=2_000_000', "
                      "several comma-separated, or a number alone for the figure that decides (a budget is a number "
                      ">= 0)"),
    "test_deep_off": ('budget="deep<=5", deep=False', "budget 'deep<=5' bounds deep, a deep count, and the marker says "
                      "deep=False"),
    "test_inclusive_off": ('budget="inclusive<=5"', "budget 'inclusive<=5' bounds inclusive, which the counts record "
                           "only with inclusive=True: add it to the marker"),
}


def test_a_bad_spec_fails_its_test_before_it_runs_with_one_line_naming_it_and_the_form_expected(pytester):
    tests = "import pytest\n" + "".join(f'''

@pytest.mark.bytecount("demo.Sorting#fib", {options})
def {name}(bytecount):
    bytecount.jclass("demo.Sorting").fib(3)
''' for name, (options, _) in BAD_SPECS.items()) + '''

@pytest.mark.bytecount("demo.Sorting#fib")
def test_bad_size(bytecount):
    fib = bytecount.jclass("demo.Sorting")
    bytecount.scaling([4, 5, 6, 7], lambda n: fib.fib(n), budget={0: 5})
'''
    java_project(pytester, SOURCES, {"test_specs": tests})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(errors=len(BAD_SPECS), failed=1)
    out = result.stdout.str()
    for name, (_, says) in BAD_SPECS.items():
        line = next(x for x in out.splitlines() if x.startswith(f"bytecount: bad use of the marker") and name in x)
        assert says in line, (name, line)
    assert "ScalingError: budget: a size is an integer n >= 1, got 0" in out
    assert not (pytester.path / "bytecount" / "test_specs.json").exists()


PROJECT_TESTS = """
import pytest


@pytest.mark.bytecount("demo.Sorting#fib")
def test_fib_12(bytecount):
    bytecount.jclass("demo.Sorting").fib(12)


@pytest.mark.bytecount("demo.Sorting#fib", budget="total<=100_000")
def test_fib_12_allowed_more(bytecount):
    bytecount.jclass("demo.Sorting").fib(12)
"""


def test_a_project_budget_bounds_every_test_the_markers_win_for_their_figures_and_the_command_line_wins(pytester):
    java_project(pytester, SOURCES, {"test_project": PROJECT_TESTS})
    pyproject = pytester.path / "pyproject.toml"
    # flat counts (deep = false): the project's deep budget bounds no figure these tests record, and is not checked
    pyproject.write_text(pyproject.read_text().replace("[tool.bytecount]", '[tool.bytecount]\nbudget = "total<=1000, deep<=10"'))
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=1)
    r = results_of(pytester)
    assert r["test_fib_12"]["status"] == "over-budget"
    assert r["test_fib_12"]["message"].startswith("OVER BUDGET: total ")
    assert "is over the budget total<=1,000 by" in r["test_fib_12"]["message"]
    assert [c["budget"] for c in r["test_fib_12"]["budgets"]] == ["total<=1000"]
    assert r["test_fib_12_allowed_more"]["status"] == "recorded"
    # the command line's budget replaces the settings'
    run(pytester, "--bytecount-update", "--bytecount-budget=total<=100000").assert_outcomes(passed=2)
    # a bad one is one usage error before any test runs
    bad = run(pytester, "--bytecount-budget=total<1000")
    assert bad.ret == 4
    assert bad.stderr.str().strip() == ("ERROR: bytecount: bad budget 'total<1000': expected FIGURE<=N such as "
                                        "'deep<=2_000_000', several comma-separated, or a number alone for the "
                                        "figure that decides")
