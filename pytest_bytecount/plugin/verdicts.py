"""The verdicts on a counted test's report: the counts verdict, on its setup (when it did not pass) or its call,
and the complexity verdict (``bytecount.scaling``) after it; the test shows the worse of the two. The result rides
on the report in its JSON shape (``report.bytecount``), to the xdist controller and to a project's own hooks."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from ..version import __version__
from ..classfile import ClassFormatError
from ..counting.targets import TargetError
from ..regression.baseline import BaselineError
from ..regression.budgets import budget_status, check_budgets, named_figures, parse_budgets, render_over_budget
from ..regression.projection import budget_verdict
from ..regression.marker_rules import idle_targets, over_limit, render_idle, render_over_limit
from ..regression.determinism import DeterminismCheck
from ..regression.results import TestResult
from ..regression.counts_verdict import decide_scaling
from ..regression.status import FAILING, VERDICTS, worse
from .arguments import update_command
from .baseline_keys import baseline_key, command_id
from .comparison import compare_with_baseline, fail
from .fixture import BytecountFixture
from .markers import BytecountMarker
from .properties import rerun_note, set_properties

fixture_key = pytest.StashKey[BytecountFixture]()  # the test's bytecount fixture, once set up
determinism_key = pytest.StashKey[DeterminismCheck]()  # --bytecount-check-determinism's second run
result_key = pytest.StashKey[TestResult]()  # the result of the test's call, while its verdicts are made
NOT_RECORDED = "(no baseline yet: --bytecount-update records one once the test is within its budget)"


def carry(item, report, result: TestResult) -> None:
    """The result goes on the report in its JSON shape (``report.bytecount``, documented): so it reaches
    the controller from an xdist worker, and a project's own hooks can read it; and into the test's JUnit
    properties (:mod:`.properties`)."""
    note = rerun_note(item.stash.get(result_key, None), result)
    if note is not None and note not in result.hints:
        result.hints.append(note)
    item.stash[result_key] = result
    set_properties(item, result)
    report.bytecount = result.to_dict()


def carried(report) -> Optional[TestResult]:
    """The result a report carries (reports of tests that are not counted carry none)."""
    data = getattr(report, "bytecount", None)
    return None if data is None else TestResult.from_dict(data)


def skipped_status(report) -> str:
    """The status of a test pytest reports as skipped: ``xfailed`` when an xfail marker expected its failure."""
    return "xfailed" if hasattr(report, "wasxfail") else "skipped"


class Verdicts:
    """The verdicts of one session (``session``: the plugin's :class:`~.session.BytecountSession`, whose
    baselines, settings and JVM they read)."""

    def __init__(self, session):
        self.session = session

    def judge(self, item, when: str, report) -> None:
        """The counts verdict, on the report of a counted test's setup (when it did not pass) or call."""
        marker = BytecountMarker.of(item)
        if marker is None:
            return
        if when == "setup" and report.outcome != "passed":  # never ran: still one status per test
            carry(item, report, self._result(item, skipped_status(report) if report.skipped else "error"))
        elif when == "setup":  # should the process running it die (an xdist worker), its status is this
            report.bytecount_pending = self._result(item, "error").to_dict()
        elif when == "call" and item.stash.get(fixture_key, None) is not None:
            carry(item, report, self._judge(item, marker, item.stash[fixture_key], report))

    def _result(self, item, status: str, counts: Optional[dict] = None) -> TestResult:
        try:
            path = str(self.session.baselines.path(item))
        except pytest.UsageError:  # unusable settings: every counted test already fails with the reason
            path = ""
        return TestResult(item.nodeid, path, baseline_key(item), status, counts or {}, self.session.java.jvm_version,
                          __version__, command_id=command_id(item), shard=self.session.shard)

    def _judge(self, item, marker: BytecountMarker, fixture: BytecountFixture, report) -> TestResult:
        """The test's status and the verdict text; fails a passing test whose counts fail their checks."""
        try:
            now = fixture.counts()
        except Exception as e:  # noqa: BLE001 - the JVM side failed: say so against this test
            return fail(report, self._result(item, "error"), "error", f"bytecount: could not read the counts: {e}")
        result = self._result(item, "passed", now)
        try:
            trees = fixture.trees()
        except Exception as e:  # noqa: BLE001 - the JVM side failed: say so against this test
            return fail(report, result, "error", f"bytecount: could not read the calling-context trees: {e}")
        result.trees = {m: t.to_dict() for m, t in trees.items() if m in now} or None
        result.mode = "in-place" if fixture.in_place else None if marker.loader_scope == "test" else \
            f"{marker.loader_scope}-loader"
        result.deep_runtime = self.session.java.deep_counting().runtime_identity() if fixture.deep else None
        result.fell_back = fixture.fell_back or None
        # a nested class a class pattern leaves out holds none of the work deep counts miss: its run inside a window
        # is in the target's deep counts; the hint stays for a test whose targets did not run at all
        ran = any(c.get("invocations") or c.get("abrupt") for c in now.values())
        result.hints = [] if fixture.deep and ran else fixture.hints()
        if self.session.weights() is not None:
            result.weights = self.session.weights().describe()
        determinism = item.stash.get(determinism_key, None)
        if determinism is not None and not determinism.ok:
            result.status = determinism.status
            return result
        if report.outcome != "passed":  # the test's own failure: its counts are not judged
            result.status = skipped_status(report) if report.skipped else "failed"
            self.session.java.explain_failure(report)
            return result
        if marker.max_invocations is None:
            try:
                idle = idle_targets(marker.targets, now, fixture.matched_methods)
            except (TargetError, ClassFormatError) as e:  # a glob whose classes have no method the pattern names,
                return fail(report, result, "error", f"bytecount: {e}")  # or a class it matches that cannot be read
            if idle:
                methods = [m for t in idle for m in t.methods]
                elsewhere = fixture.loaded_elsewhere(methods)
                if elsewhere and not fixture.in_place:
                    elsewhere.append("To count the classes where the application loads them, mark the test with "
                                     "in_place=True (or set in-place = true in [tool.bytecount]).")
                text = [render_idle(idle, marker.abrupt, in_place=fixture.in_place), *fixture.reload_note(methods)]
                return fail(report, result, "not-run", "\n".join(text + elsewhere))
        else:
            over = over_limit(now, marker.max_invocations)
            if over:
                return fail(report, result, "over-limit", render_over_limit(over, marker.max_invocations))
        result = compare_with_baseline(self.session, item, marker, result, report,
                                       deep_by_default=fixture.deep and not fixture.deep_asked)
        return self._within_budget(marker, result, report)

    def _within_budget(self, marker: BytecountMarker, result: TestResult, report) -> TestResult:
        """The budgets (the project's, and the marker's, which win for the figures they name), checked on every run
        besides the baseline comparison: a test over one fails, and an update records nothing for it."""
        project = self.session.default_budgets
        mine = named_figures(parse_budgets(marker.budget))  # the marker's spec was checked at collection
        budgets = parse_budgets(marker.budget, project)
        if not budgets:
            return result
        checks = check_budgets(budgets, result.counts, skip_missing=named_figures(project) - mine)
        result.budgets = [c.to_dict() for c in checks] or None
        status = budget_status(checks)
        if status is None:
            return result
        return self._fails_budget(result, report, status, render_over_budget(checks, bool(self.session.update)))

    def _fails_budget(self, result: TestResult, report, status: str, text: str) -> TestResult:
        """A budget's failure (``over-budget`` or ``unchecked``) leads the test's text, on every surface. The counts
        verdict's text follows where it still says something: not under an update (which records nothing for the
        test), nor a "no baseline" whose advice to record would fail the same way."""
        was = result.status
        result.status = "over-budget" if "over-budget" in (status, was) else status
        result.accept = None  # no update accepts it: every surface that offers a command offers none
        rest = result.message
        if was == "new":
            rest = "" if self.session.update else NOT_RECORDED
        elif self.session.update and report.outcome == "passed":
            rest = ""
        result.message = "\n".join(t for t in (text, rest) if t)
        # the test's report failed, if at all, on this result's text (a test that failed by itself is not judged)
        report.outcome, report.longrepr = "failed", result.message
        return result

    def judge_scaling(self, item, when: str, report) -> None:
        """The complexity verdict (``bytecount.scaling``), after the counts verdict: the test shows the
        worse of the two."""
        result = item.stash.get(result_key, None)
        fixture = item.stash.get(fixture_key, None)
        if when != "call" or result is None or fixture is None:
            return
        self._scaling_verdict(item, fixture, result, report)
        self._scaling_budget(fixture, result, report)
        carry(item, report, result)

    def _scaling_budget(self, fixture: BytecountFixture, result: TestResult, report) -> None:
        """A budget at sizes (``bytecount.scaling(..., budget=)``): checked on every run, besides the baseline
        comparison, with or without a baseline; a projection over its limit, or one that cannot be trusted, fails
        the test, and an update records nothing for it."""
        scaling = fixture.scaling_result
        judged = result.status in VERDICTS or result.status in ("over-budget", "unchecked")
        if scaling is None or scaling.budget is None or not judged or report.outcome == "skipped":
            return
        status, text = budget_verdict(scaling, bool(self.session.update))
        result.scaling = scaling.to_dict()
        if status is None:
            return
        self._fails_budget(result, report, status, text)

    def _scaling_verdict(self, item, fixture: BytecountFixture, result: TestResult, report) -> None:
        try:
            stored = self.session.baselines.load(Path(result.baseline))
            entry = stored.entry(result.key) or {}
            recorded_again = stored.is_conflicted(result.key) and self.session.update is not None
        except BaselineError:
            return  # unreadable: the counts verdict already failed the test or re-records the file
        decision = decide_scaling(entry, fixture.scaling_result,
                                  result.status, f"{result.baseline}, {result.key}",
                                  update_command([command_id(item)], self.session.options))
        if decision.scaling is not None:
            result.scaling = decision.scaling
        text, status = decision.text, decision.status
        if not text:
            return
        # a status that is not a verdict on counts (not-run, nondeterministic, over-budget, ...) outranks every one
        leads = result.status in VERDICTS
        if leads:
            result.status = worse(result.status, status)
        # a worse order is the news: it comes first, the counts' verdict after it, on every surface (after a budget's)
        first = status == "regressed" and leads
        result.message = "\n".join(t for t in ((text, result.message) if first else (result.message, text)) if t)
        update = self.session.update
        if report.outcome == "skipped" or update == "all" or (update == "new" and not entry.get("scaling")) \
                or recorded_again:
            return  # being recorded
        if status in FAILING:
            if report.outcome == "passed":
                report.outcome = "failed"
                report.longrepr = text
            elif isinstance(report.longrepr, str):
                report.longrepr = f"{text}\n{report.longrepr}" if first else f"{report.longrepr}\n{text}"
        elif status == "improved" and report.outcome == "passed":
            report.sections.append(("bytecount", text))
