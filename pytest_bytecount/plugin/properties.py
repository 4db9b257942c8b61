"""A counted test's JUnit XML properties (``--junitxml``): per method its ``total``, ``invocations`` (and ``cost``), and
for the test its verdict (``regressed``, ``new``, ``over-budget``...: under ``--bytecount-update`` the verdict on the
counts it records), the figure that decides, that figure now and in the baseline. Each attempt of a test that a
plugin runs again (pytest-rerunfailures) has its own, never piled up, and an attempt that counted otherwise than the
one before it says so."""

from __future__ import annotations

from typing import Optional

from ..regression.budgets import WORK, figure_of
from ..regression.compare import that_ran
from ..regression.results import TestResult

PREFIX = "bytecount "
RERUN_DIFFERED = ("an earlier attempt of this test (a rerun) counted otherwise: the counts depend on something that "
                  "changed between the attempts")


def rerun_note(earlier: Optional[TestResult], result: TestResult) -> Optional[str]:
    """The note for a test run again whose earlier attempt counted otherwise, or None."""
    if earlier is None or earlier is result or not earlier.counts or not result.counts:
        return None
    return RERUN_DIFFERED if that_ran(earlier.counts) != that_ran(result.counts) else None


def set_properties(item, result: TestResult) -> None:
    """The test's ``bytecount ...`` properties, this result's only."""
    props = []
    for method, c in sorted(result.counts.items()):
        props += [(f"{PREFIX}{method} total", c.get("total")), (f"{PREFIX}{method} invocations", c.get("invocations"))]
        if "cost" in c:
            props.append((f"{PREFIX}{method} cost", c["cost"]))
    props.append((f"{PREFIX}verdict", result.status))
    if result.counts:
        value, figure = figure_of(result.counts, WORK)
        props += [(f"{PREFIX}figure", figure), (f"{PREFIX}now", value)]
        if result.baseline_counts:
            props.append((f"{PREFIX}baseline", figure_of(result.baseline_counts, WORK)[0]))
    if RERUN_DIFFERED in result.hints:
        props.append((f"{PREFIX}note", RERUN_DIFFERED))
    item.user_properties[:] = [(k, v) for k, v in item.user_properties if not str(k).startswith(PREFIX)] + props
