"""The recording plugin: each counted test's result kept as its test ends, written as its baseline under
``--bytecount-update``, and at the end the stale baselines found (removed by an update). What it keeps,
:class:`~.session.BytecountSession`'s ``results``, is what the other plugins write and the summary says.

Stale entries need to know which test modules the run collected in full (:mod:`.collection`): this plugin
watches the collectors' own reports; under xdist each worker sends what it saw to the controller."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ..regression.compare import that_ran
from ..regression.determinism import repetitions_differ
from ..regression.results import TestResult
from ..regression.status import VERDICTS
from .collection import FullCollection
from .verdicts import carried

# an update on a JVM that could not take deep counts keeps a baseline that holds them, rather than making it flat
KEPT_DEEP = ("not re-recorded: this run could not take deep counts (see the summary's line), and its baseline holds "
             "them; re-record it where pytest-bytecount starts the JVM, or mark the test deep=False to record it flat")
WORKER_MODULES = "bytecount_modules"  # in an xdist worker's workeroutput: the modules it collected in full


class Recording:
    """Results and baselines for one session (``session``: the plugin's :class:`~.session.BytecountSession`)."""

    name = "bytecount-recording"

    def __init__(self, session):
        self._s = session
        self.collection = FullCollection()
        self.lost_tests: dict = {}  # baseline path -> node ids of the tests whose entries could not be written
        self.lost_runs: list = []  # node ids of counted tests whose process died while they ran
        self._first_runs: dict = {}  # (baseline, key) -> (node id, counts that ran) of the first run judged, which
        # a plugin's repetitions of the test (pytest-repeat) must equal: they share the one entry
        self._recorded: set = set()  # (baseline, key) recorded this session
        self._pending: dict = {}  # node id -> the result of a counted test whose setup passed, until it ends

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_make_collect_report(self, collector):
        """The innermost wrapper: what the collector returned before any plugin narrowed it (``--lf``)."""
        report = yield
        self.collection.seen(collector, report)
        return report

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        """Under xdist only workers collect; each sends the modules it collected in full, for stale entries."""
        self.collection.add(getattr(node, "workeroutput", {}).get(WORKER_MODULES, {}))

    @pytest.hookimpl(tryfirst=True)  # before pytest's own reporting: a baseline not written fails its test
    def pytest_runtest_logreport(self, report) -> None:
        """Each result is saved as soon as its test ends (by the controller, under xdist): a crash of the
        JVM, which takes the process with it, loses nothing of the tests that finished before it."""
        s = self._s
        if s.is_worker:
            return
        pending = getattr(report, "bytecount_pending", None)
        if pending is not None:
            self._pending[report.nodeid] = pending
        elif report.when == "???" and report.nodeid in self._pending:  # xdist: the worker running it died
            self._lost(report)
        result = carried(report)
        if result is None or report.when not in ("setup", "call"):
            return
        self._pending.pop(report.nodeid, None)
        result = replace(result, test_outcome=report.outcome)
        if report.when == "call":
            self._same_as_earlier_repetition(report, result)
        if s.update and report.when == "call" and result.fell_back and result.flat_only == "run":
            result.message = "\n".join(t for t in (result.message, KEPT_DEEP) if t)  # flat counts by a JVM's want
        elif s.update and report.outcome == "passed" and report.when == "call":
            written = s.baselines.record(result)  # a failing test's counts are never a baseline
            if written is None:
                self._not_recorded(report, result)
            elif written or (result.baseline, result.key) in self._recorded:  # or an earlier repetition wrote it
                result.status = "recorded"
                self._recorded.add((result.baseline, result.key))
        s.results[report.nodeid] = result

    def _lost(self, report) -> None:
        """A counted test whose process died while it ran (a crashed or killed xdist worker): it errors, with the
        reason; nothing was counted, so nothing is recorded for it."""
        result = TestResult.from_dict(self._pending.pop(report.nodeid))
        result.test_outcome = report.outcome
        result.message = (f"bytecount: {report.longrepr}: the process running the test died (a JVM that halted or "
                          f"crashed, a thread timeout's kill), so its counts were never read"
                          + (" and nothing was recorded for it" if self._s.update else ""))
        self._s.results[report.nodeid] = result
        self.lost_runs.append(report.nodeid)

    def _same_as_earlier_repetition(self, report, result: TestResult) -> None:
        """A run of a test that another run of this session shares its baseline entry with (a plugin repeats
        it): its counts must equal the first's, or it fails as nondeterministic, and nothing of it is recorded."""
        if result.status not in VERDICTS or not result.counts:
            return  # not judged on its counts (failed, not-run, ...): nothing to compare
        ran = that_ran(result.counts)
        first = self._first_runs.setdefault((result.baseline, result.key), (report.nodeid, ran))
        text = repetitions_differ(result.key, first, (report.nodeid, ran)) if first[0] != report.nodeid else None
        if text is not None:
            result.status, result.message, result.test_outcome = "nondeterministic", text, "failed"
            if report.outcome == "passed":
                report.outcome, report.longrepr = "failed", text

    def _not_recorded(self, report, result: TestResult) -> None:
        """The test's baseline could not be written: the test fails, and the summary names the file."""
        path = Path(result.baseline)
        text = (f"bytecount: the baseline of {result.key} could not be written to {path}: "
                f"{self._s.baselines.unwritten[path]}\nNothing was recorded for this test: make the folder writable "
                f"(or free some space) and run the update again.")
        result.status, result.message, result.test_outcome = "unwritten", text, "failed"
        report.outcome, report.longrepr = "failed", text
        self.lost_tests.setdefault(path, []).append(report.nodeid)

    @pytest.hookimpl(tryfirst=True)  # the stale baselines are known before the summary is made
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        s = self._s
        if s.is_worker:
            s.config.workeroutput[WORKER_MODULES] = self.collection.modules()
            return
        s.interrupted = exitstatus == pytest.ExitCode.INTERRUPTED
        s.baselines.find_stale(s.configured, self.collection.modules())
        if s.update == "all" and not s.interrupted:  # an interrupted run removes nothing
            s.baselines.remove_stale()
