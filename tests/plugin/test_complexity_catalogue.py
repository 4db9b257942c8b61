"""The complexity catalogue (tests/catalogue/complexity) judged end to end, as users write their checks: a marker
with no deep option and ``bytecount.scaling(SIZES, lambda n: ...)``.

One child session records every case's baseline on the BEFORE sources (``--bytecount-update``), then one judges
the AFTER sources (``--bytecount-json``); each test reads its own case out of them. What is asserted follows from
the orders the algorithms have, reasoned from the code (each case's ``before``, ``after`` and ``why``):

- the baseline records the BEFORE version's order (linear code as ``n``);
- a regression fails, and its result says ``COMPLEXITY GOT WORSE`` naming the AFTER version's order;
- a harmless change or a fix reports no worse order, and a fix passes (its counts may read as improved);
- the order named now is the AFTER version's.

``python benchmarks/complexity_catalogue.py`` prints the same runs as a table, beside the flat variant.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_bytecount.regression.growth import name_order
from pytest_bytecount.regression.projection import project
from tests.catalogue.complexity import (CASES, KINDS, WORSE, check, order_line, outcomes, recorded_orders,
                                        recorded_series, scaling_of, use_sources, verdicts, worse_order,
                                        write_project)
from tests.support.pytest_project import JDK17
from tests.support.shared_run import run_session

ROOT = Path(__file__).resolve().parents[2]

# (what is asserted, case) -> why the plugin gets it wrong today: a real current limitation, kept as a strict
# expected failure so that the fix is seen the day it lands
LIMITS: dict = {}


def _params(what: str, kinds=KINDS):
    return [pytest.param(case, id=case.name, marks=[pytest.mark.xfail(strict=True, reason=LIMITS[what, case.name])]
                         if (what, case.name) in LIMITS else []) for case in CASES if case.kind in kinds]


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """Every case in one project: recorded on BEFORE (``record``, ``recorded``: each baseline's order), judged on
    AFTER (``judged``, ``results``: each case's result, ``outcomes``: each case's pytest outcome)."""
    folder = write_project(tmp_path_factory.mktemp("complexity"), CASES, java_home=JDK17)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path_factory.mktemp("deep-cache")))
        env.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        record = run_session(folder, "--bytecount-update", name="record")
        recorded = recorded_orders(folder, CASES)
        series = recorded_series(folder, CASES)
        use_sources(folder, "after", CASES)
        judged = run_session(folder, name="judged")
    return SimpleNamespace(record=record, recorded=recorded, series=series, judged=judged, results=verdicts(judged.results_file),
                           outcomes=outcomes(judged.junit))


def test_the_catalogue_holds_each_kind_written_as_users_write_it():
    for case in CASES:
        check(case)  # both versions hold the method; the module marks it with no option
        text = case.test_module.read_text()
        assert "deep" not in text and text.count("bytecount.scaling(SIZES, lambda n: ") == 1, case.name
    kinds = [case.kind for case in CASES]
    assert kinds.count("regression") >= 9 and kinds.count("harmless") >= 4 and kinds.count("fix") >= 3
    assert {case.after for case in CASES if case.kind == "regression"} >= {"n^2", "n log n"}


def test_every_case_records_on_its_before_sources(catalogue):
    assert outcomes(catalogue.record.junit) == {case.name: "passed" for case in CASES}, catalogue.record.stdout
    assert catalogue.record.ret == 0


@pytest.mark.parametrize("case", _params("recorded"))
def test_the_baseline_records_the_before_order(catalogue, case):
    assert catalogue.recorded[case.name] == case.before, (case.name, case.why)


@pytest.mark.parametrize("case", _params("worse", ["regression"]))
def test_a_regression_fails_naming_its_new_order(catalogue, case):
    result = catalogue.results[case.name]
    assert catalogue.outcomes[case.name] == "failed" and result["status"] == "regressed", \
        (case.name, result["message"])
    line = order_line(result)
    assert line.startswith(f"{case.method_prefix}") and f": {WORSE}: " in line, (case.name, result["message"])
    assert worse_order(result) == case.after, (case.name, case.why, line)


@pytest.mark.parametrize("case", _params("not worse", ["harmless", "fix"]))
def test_a_harmless_change_or_a_fix_reports_no_worse_order(catalogue, case):
    result = catalogue.results[case.name]
    assert WORSE not in result["message"], (case.name, result["message"])
    assert scaling_of(case, result).get("baseline_order") == case.before, (case.name, result.get("scaling"))
    if case.kind == "fix":
        assert catalogue.outcomes[case.name] == "passed", (case.name, result["message"])
        assert result["status"] in ("passed", "improved"), (case.name, result["message"])


@pytest.mark.parametrize("case", _params("now"))
def test_the_order_named_now_is_the_after_order(catalogue, case):
    scaling = scaling_of(case, catalogue.results[case.name])
    assert scaling.get("order") == case.after, (case.name, case.why, scaling)


# A budget set where a team would set one: twice the BEFORE version's fitted cost, at 16 times the largest size the
# case measures. Projected from the AFTER version's counts, every regression goes over it with its new order, and no
# harmless change or fix does. Two AFTER versions grow by no sum of the modelled terms, so their fits are too rough
# to project, and the check says "cannot project" (which fails the test) instead of guessing:
REFUSED = {
    "sortloop": "n/16 sorts of a copy, n^2 log n / 16: no term of the fit is n^2 log n (fit error 4%)",
    "sortcall": "Arrays.sort of pseudo-random ints: insertion sorts of short runs inside a dual-pivot quicksort, "
                "whose partitions vary with the values (fit error 6%)",
}
PRODUCTION = 16


@pytest.mark.parametrize("case", _params("budget"))
def test_a_budget_at_a_production_size_fails_every_regression_and_no_harmless_change_or_fix(catalogue, case):
    sizes, before = catalogue.series[case.name]
    result = catalogue.results[case.name]
    size = PRODUCTION * sizes[-1]
    limit = int(2 * name_order(sizes, before).at(size))
    (projection,) = project(result["scaling"]["sizes"], scaling_of(case, result)["values"], {size: limit})
    expected = "refused" if case.name in REFUSED else "over" if case.kind == "regression" else "within"
    assert projection.status == expected, (case.name, case.why, projection)
    if expected == "over":  # for the right reason: the regression's own order, projected
        assert projection.order == case.after, (case.name, projection)
