"""One pytest session of pytest-bytecount: what ties its parts together. The settings, read once; collection;
each counted test's fixture and the determinism check's second run; the results every part reads. Each concern
is a pytest plugin of its own, registered by :mod:`.hooks`: the counted tests' hooks there, results and baselines
(:mod:`.recording`), the files written (:mod:`.outputs`), the JVM guard (:mod:`.jvm_guard`); the verdicts are
:mod:`.verdicts`', the JVM :mod:`.java`'s, the end of the session :mod:`.ending`'s."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import pytest

from ..regression.budgets import BudgetError, named_figures, parse_budgets
from ..regression.compare import ToleranceError, named_metrics, parse_tolerances
from ..regression.determinism import check_in_fresh_loader
from ..regression.weights import WeightsError, WeightTable, load_weights
from .baseline_keys import baseline_key
from .baselines import Baselines, CompareRef
from .summary import compared_line
from .config import ConfigError, Settings, load_settings, options_given
from .fixture import BytecountFixture
from .java import JavaContext
from .arguments import recording_options
from .outputs import shard_label
from .markers import NO_WEIGHTS, NO_WEIGHTS_BUDGET, BytecountMarker, is_marked, marker_problems, unmarked
from .recording import Recording
from .ending import SessionEnd
from .verdicts import Verdicts, determinism_key, fixture_key

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
        self.shard = shard_label(getattr(opt, "bytecount_shard", None), os.environ)  # named on what this run writes
        self._settings: Optional[Settings] = None
        self.default_tolerances: dict = {}  # from the settings, once read
        self.default_budgets: tuple = ()  # from the settings, once read
        self._weights: Optional[WeightTable] = None  # from the settings, once read
        self.java = JavaContext(config, self.settings, self.is_worker)
        self.baselines = Baselines(config, self.settings, self.update)
        if opt.bytecount_compare_ref is not None:
            self.baselines.ref = CompareRef.open(opt.bytecount_compare_ref, Path(config.rootpath))
        self.results: dict = {}  # nodeid -> TestResult, kept by the recording plugin as each test ends
        self.recording = Recording(self)  # results and baselines (a pytest plugin)
        self.outputs: list = []  # the output plugins of the files this run writes (outputs.py), once registered
        self.verdicts = Verdicts(self)
        self.interrupted = False  # the session ended by Ctrl-C, SIGTERM or a collection error
        self.end = SessionEnd(self)  # the stale baselines, the files and the summary, at the end

    # --- configuration, lazily: a run without marked tests never touches Java ----------------------
    def settings(self) -> Settings:
        if self._settings is None:
            try:
                settings = load_settings(Path(self.config.rootpath), self.config.option)
                self.default_tolerances = parse_tolerances(settings.tolerance)
                self.default_budgets = parse_budgets(settings.budget)
                self._weights = load_weights(settings.weights) if settings.weights else None
            except (ConfigError, ToleranceError, BudgetError, WeightsError) as e:
                raise pytest.UsageError(f"bytecount: {e}") from None
            if "cost" in named_metrics(settings.tolerance) and self._weights is None:
                raise pytest.UsageError(f"bytecount: the default tolerance {settings.tolerance!r} {NO_WEIGHTS}")
            if "cost" in named_figures(self.default_budgets) and self._weights is None:
                raise pytest.UsageError(f"bytecount: the budget {settings.budget!r} {NO_WEIGHTS_BUDGET}")
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
            if self.is_worker or not (self.configured() or self.baselines.ref is not None):
                return None
            ref = self.baselines.ref_described()
            return self.java.header_lines() + ([f"bytecount: {compared_line(ref)}"] if ref else [])
        except pytest.UsageError:
            return None

    def collected(self, items) -> None:
        """The counted tests. A misuse of the marker or the fixture is its test's own: kept for it, the test
        errors with it at setup (:meth:`check_use`), and a test that does not run is not judged."""
        def weights_active() -> bool:
            self.settings()  # loads the weight table, if any
            return self._weights is not None

        try:
            setting = self.settings().deep
        except pytest.UsageError:
            setting = None  # said once after collection
        for item in items:
            problems = marker_problems(item, weights_active)
            if problems:
                item.stash[_misuse_key] = problems
            marker = BytecountMarker.of(item)
            if marker is not None and marker.takes_deep(setting):
                self.java.runtime.wants_deep = True  # the JVM starts with what deep counts need
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

    # --- running --------------------------------------------------------------------------------------------
    def open_fixture(self, node) -> BytecountFixture:
        marker = BytecountMarker.of(node)
        if marker is None:  # reached only through request.getfixturevalue: collection catches the rest
            pytest.fail(f"bytecount: {unmarked(node.nodeid)}", pytrace=False)
        setting = self.settings().deep
        options = marker.counting_options(self.settings().in_place, marker.takes_deep(setting))
        shared = {"module": node.nodeid.split("::")[0], "session": "session"}.get(marker.loader_scope)
        fixture = node.stash[fixture_key] = BytecountFixture(self.java, options, self.weights, shared,
                                                             deep_asked=marker.asks_deep(setting))
        return fixture

    def first_run(self, item) -> None:
        """Right before a test's function runs: its thread's identity hashes start where this test's always do,
        under deep counts."""
        # by the test as its baseline knows it: a plugin's repetitions of a test start from the same state
        file, sep, _ = item.nodeid.partition("::")
        self.java.reseed_identity_hashes(f"{file}{sep}{baseline_key(item)}" if sep else item.nodeid)

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

    def take_over_app_start(self) -> None:
        """In a project that configures pytest-bytecount, an application's jpype.startJVM is the plugin's."""
        try:
            if self.configured():
                self.java.app_start.install()
        except pytest.UsageError:
            pass  # unusable settings: said once after collection

    def unwritten_outputs(self) -> dict:
        """The files besides the baselines that could not be written (file -> why), from every output plugin."""
        return {path: why for output in self.outputs for path, why in output.unwritten.items()}

    def html_report(self) -> Optional[str]:
        """Where the HTML report was written, if it was."""
        written = [str(o.written) for o in self.outputs if getattr(o, "written", None) is not None]
        return written[0] if written else None
