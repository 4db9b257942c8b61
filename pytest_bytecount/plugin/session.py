"""One pytest session of pytest-bytecount: what ties its parts together. The settings, read once; collection;
each counted test's fixture and the determinism check's second run; each result recorded as its test ends; and
what is written and said at the end. The verdicts are :mod:`.verdicts`', the files besides the baselines
:mod:`.run_files`', the JVM :mod:`.java`'s. The hooks (:mod:`.hooks`) only hand their arguments to it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Optional

import pytest

from ..regression.compare import ToleranceError, named_metrics, parse_tolerances
from ..regression.determinism import check_in_fresh_loader
from ..regression.results import TestResult
from ..regression.weights import WeightsError, WeightTable, load_weights
from .baselines import Baselines
from ..jvm import signals
from ..jvm.session import jvm_running
from .collection import FullCollection
from .config import ConfigError, Settings, load_settings, options_given
from .fixture import BytecountFixture
from .java import JavaContext
from .arguments import recording_options
from .markers import NO_WEIGHTS, BytecountMarker, is_marked, marker_problems, unmarked
from .run_files import RunFiles
from .ending import SessionEnd
from .verdicts import Verdicts, carried, determinism_key, fixture_key

_misuse_key = pytest.StashKey[list]()  # what collection found wrong with a test's marker or fixture
class BytecountSession:
    """The plugin's state for one pytest session (one per process: the xdist controller and each worker)."""

    def __init__(self, config):
        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        opt = config.option
        self.update: Optional[str] = opt.bytecount_update  # None, "all" or "new"
        self.strict: bool = opt.bytecount_strict
        self.check_determinism: bool = opt.bytecount_check_determinism
        self.options = recording_options(config.invocation_params.args)  # repeated in re-recording commands
        self._settings: Optional[Settings] = None
        self.default_tolerances: dict = {}  # from the settings, once read
        self._weights: Optional[WeightTable] = None  # from the settings, once read
        self.java = JavaContext(config, self.settings, self.is_worker)
        self.baselines = Baselines(config, self.settings, self.update)
        self.results: dict = {}  # nodeid -> TestResult (for the summary, --bytecount-json, updates)
        self.files = RunFiles(config, self.settings, self.is_worker)  # --bytecount-json, HTML, job summary
        self.verdicts = Verdicts(self)
        self.collection = FullCollection()
        self.interrupted = False  # the session ended by Ctrl-C, SIGTERM or a collection error
        self.lost_tests: dict = {}  # baseline path -> node ids of the tests whose entries could not be written
        self.end = SessionEnd(self)  # the stale baselines, the files and the summary, at the end

    # --- configuration, lazily: a run without marked tests never touches Java ----------------------
    def settings(self) -> Settings:
        if self._settings is None:
            try:
                settings = load_settings(Path(self.config.rootpath), self.config.option)
                self.default_tolerances = parse_tolerances(settings.tolerance)
                self._weights = load_weights(settings.weights) if settings.weights else None
            except (ConfigError, ToleranceError, WeightsError) as e:
                raise pytest.UsageError(f"bytecount: {e}") from None
            if "cost" in named_metrics(settings.tolerance) and self._weights is None:
                raise pytest.UsageError(f"bytecount: the default tolerance {settings.tolerance!r} {NO_WEIGHTS}")
            self._settings = settings
        return self._settings

    def weights(self) -> Optional[WeightTable]:
        """The cost weight table, once the settings were read (None before, and without one)."""
        return self._weights

    def configured(self) -> bool:
        """Whether the project uses pytest-bytecount: a [tool.bytecount] table or a --bytecount-* option
        (may raise UsageError for unusable settings)."""
        return bool(self.settings().source_file or options_given(self.config.option))

    # --- collection -----------------------------------------------------------------------------------------
    def report_header(self) -> Optional[list]:
        """The JVM in the header (a line written while tests run would break pytest's progress line), for a
        project that configures pytest-bytecount. Choosing the JVM reads files only; a setting that cannot
        be used is left out here and reported once after collection, if a test is counted."""
        try:
            if self.is_worker or not self.configured():
                return None
            return self.java.header_lines()
        except pytest.UsageError:
            return None

    def collected(self, items) -> None:
        """The counted tests. A misuse of the marker or the fixture is its test's own: kept for it, the test
        errors with it at setup (:meth:`check_use`), and a test that does not run is not judged."""
        def weights_active() -> bool:
            self.settings()  # loads the weight table, if any
            return self._weights is not None

        for item in items:
            problems = marker_problems(item, weights_active)
            if problems:
                item.stash[_misuse_key] = problems
            marker = BytecountMarker.of(item)
            if marker is not None and marker.deep:
                self.java.wants_deep = True  # the JVM starts with what deep counts need
        self.baselines.collect([item for item in items if is_marked(item)])

    def check_use(self, item) -> None:
        """Before a test's setup: the misuse of the marker or the fixture collection found in it, if any."""
        problems = item.stash.get(_misuse_key, None)
        if problems:
            pytest.fail("bytecount: bad use of the marker or the fixture: " + "; ".join(problems), pytrace=False)

    def collection_finished(self, items) -> None:
        """Check the session-wide setup once, before any test runs: the settings, the classpath (javac
        runs here for ``sources``) and the JVM's files. A problem is one UsageError, not one error per
        test; on an xdist worker, where a UsageError would crash the worker, every counted test fails
        with it instead. The JVM itself starts with the first counted test."""
        if self.config.option.collectonly or not any(is_marked(item) for item in items):
            return
        try:
            self.settings()
            self.java.classpath()
            self.java.jvm_choice()
            if not self.configured():  # the header said nothing: say what the counted tests will use
                for line in self.java.header_lines():
                    self.java.say(line)
        except pytest.UsageError as e:
            if not self.is_worker:
                raise
            self.java.unusable = str(e)

    def collector_reported(self, collector, report) -> None:
        """A collector's own report, before any narrowing: which modules were collected in full."""
        self.collection.seen(collector, report)

    def worker_modules(self, modules: dict) -> None:
        """The modules an xdist worker collected in full (the controller collects nothing itself)."""
        self.collection.add(modules)

    # --- running --------------------------------------------------------------------------------------------
    def open_fixture(self, node) -> BytecountFixture:
        marker = BytecountMarker.of(node)
        if marker is None:  # reached only through request.getfixturevalue: collection catches the rest
            pytest.fail(f"bytecount: {unmarked(node.nodeid)}", pytrace=False)
        options = marker.counting_options(self.settings().in_place, self.settings().deep)
        shared = {"module": node.nodeid.split("::")[0], "session": "session"}.get(marker.loader_scope)
        fixture = node.stash[fixture_key] = BytecountFixture(self.java, options, self.weights, shared)
        return fixture

    def first_run(self, item) -> None:
        """Right before a test's function runs: its thread's identity hashes start where this test's always do,
        under deep counts."""
        self.java.reseed_identity_hashes(item.nodeid)

    def second_run(self, item) -> None:
        """--bytecount-check-determinism, after the test function passed."""
        fixture = item.stash.get(fixture_key, None)
        if not self.check_determinism or fixture is None:
            return

        def rerun() -> None:
            self.first_run(item)
            item.runtest()

        check = item.stash[determinism_key] = check_in_fresh_loader(fixture, rerun, (Exception, pytest.fail.Exception))
        if not check.ok:
            pytest.fail(check.message(), pytrace=False)

    def log_report(self, report) -> None:
        """Each result is saved as soon as its test ends (by the controller, under xdist): a crash of the
        JVM, which takes the process with it, loses nothing of the tests that finished before it. Runs
        before pytest's own reporting, so a baseline that could not be written fails its test."""
        result = carried(report)
        if result is None or report.when not in ("setup", "call") or self.is_worker:
            return
        result = replace(result, test_outcome=report.outcome)
        if self.update and report.outcome == "passed" and report.when == "call":
            written = self.baselines.record(result)  # a failing test's counts are never a baseline
            if written is None:
                self._not_recorded(report, result)
            elif written:
                result.status = "recorded"
        self.results[report.nodeid] = result
        self.files.add(report.nodeid, result)

    def _not_recorded(self, report, result: TestResult) -> None:
        """The test's baseline could not be written: the test fails, and the summary names the file."""
        path = Path(result.baseline)
        text = (f"bytecount: the baseline of {result.key} could not be written to {path}: "
                f"{self.baselines.unwritten[path]}\nNothing was recorded for this test: make the folder writable "
                f"(or free some space) and run the update again.")
        result.status, result.message, result.test_outcome = "unwritten", text, "failed"
        report.outcome, report.longrepr = "failed", text
        self.lost_tests.setdefault(path, []).append(report.nodeid)

    def take_over_app_start(self) -> None:
        """In a project that configures pytest-bytecount, an application's jpype.startJVM is the plugin's."""
        try:
            if self.configured():
                self.java.app_start.install()
        except pytest.UsageError:
            pass  # unusable settings: said once after collection

    def guard_signals(self) -> None:
        """With a JVM in the process, whoever started it: the JVM handles its faults and Python its
        interrupts (:mod:`~pytest_bytecount.jvm.signals`)."""
        if jvm_running():
            signals.owners.reclaim()

    def close(self) -> None:
        self.files.close()
        self.java.close()
