"""The JVM a test session counts on, and every decision about it: which JVM (the settings' choice, or the one
found running), the options it starts with (the settings', the agent's, what deep counts need, the crash note's),
who starts it (the plugin for its first counted test, ``pytest_bytecount.start_jvm``, or an application's own
``jpype.startJVM``), deep counting's set-up in it, and each test's and fixture's identity-hash start.

The plugin hands it what the settings ask for (:class:`JvmWanted`) and how to speak; it says nothing of pytest."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from .agent import agent_jar
from .crash import CrashNote
from .deep import DeepCounting, deep_counting, deep_jvm_options, slow_progress
from .session import JvmChoice, JvmError, JvmSession, check_jpype_options, choose_jvm, jvm_running, running_jvm_choice

JVM_START_KEY = "the JVM's start"  # the identity-hash start of a JVM started outside fixtures and tests, deep


@dataclass(frozen=True)
class JvmWanted:
    """What the settings ask of the JVM."""

    java_home: Optional[str] = None
    variant: str = "server"
    options: tuple = ()  # the settings' JVM options, after every other (so that they win)
    deep: bool = False  # every counted test takes deep counts


class JvmRuntime:
    """The one JVM of a session (``wanted``: the settings' wishes, read when first needed; ``say``: a line on the
    terminal; ``warn``: a line that must reach the user from an xdist worker too; ``status``: progress of long work,
    shown until it is called with None)."""

    def __init__(self, wanted: Callable[[], JvmWanted], crash: CrashNote, say: Callable[[str], None],
                 warn: Callable[[str], None], status: Callable[[Optional[str]], None] = lambda text: None):
        self._wanted = wanted
        self.crash = crash
        self._say = say
        self._warn = warn
        self._status = status
        self._choice: Optional[JvmChoice] = None
        self._unmet_choice: Optional[str] = None  # the settings' JVM, when none could be chosen and one ran
        self._jvm: Optional[JvmSession] = None
        self._deep: Optional[DeepCounting] = None
        self._deep_jvm = False  # a JVM started with the options deep counts need (by the plugin or through it)
        self.wants_deep = False  # a collected test takes deep counts: the JVM starts as they need
        self.hash_key: Optional[str] = None  # whose identity-hash start the running code has (a fixture, a test)

    # --- which JVM, with which options ------------------------------------------------------------------------
    def choice(self) -> JvmChoice:
        """The settings' JVM; with none to be found but one running, that one (adopted). Raises JvmError."""
        if self._choice is None:
            wanted = self._wanted()
            try:
                self._choice = choose_jvm(wanted.java_home, wanted.variant)
            except JvmError as e:
                running = running_jvm_choice()
                if running is None:
                    raise
                self._choice = running  # no JVM of its own to choose, but one runs: it is adopted
                self._unmet_choice = f"{_asked_for(wanted)}: {e}; the tests run on the JVM already running"
        return self._choice

    def deep_options(self, libjvm: Path, deep: bool = False) -> list:
        """The options deep counts need, for a JVM library, when the session takes deep counts."""
        if not (deep or self.wants_deep or self._wanted().deep):
            return []
        return deep_jvm_options(Path(libjvm).parent.name, Path(libjvm))

    def jvm(self) -> JvmSession:
        """The plugin's JVM, made (not started) on first use."""
        if self._jvm is None:
            choice = self.choice()
            deep = self.deep_options(choice.libjvm)
            self._deep_jvm = self._deep_jvm or bool(deep)
            self._jvm = JvmSession(choice, [*deep, *self._wanted().options], agent=True, crash=self.crash,
                                   given=self._wanted().options)
        return self._jvm

    def start(self, options: Sequence[str], classpath: Sequence[str], jpype_options: dict, deep: bool) -> JvmSession:
        """``pytest_bytecount.start_jvm``: the JVM started now, on ``classpath``, with the application's options
        after the settings'; ``deep``: with the options deep counts need."""
        if jvm_running():
            raise JvmError("a JVM is already running in this process; pytest_bytecount.start_jvm() must be the "
                           "first to start one (call it in conftest.py's pytest_configure)")
        choice = self.choice()
        deep_options = self.deep_options(choice.libjvm, deep)
        self._deep_jvm = bool(deep_options)
        self._jvm = JvmSession(choice, [*deep_options, *self._wanted().options, *options], list(classpath),
                               agent=True, jpype_options=check_jpype_options(jpype_options), crash=self.crash,
                               given=self._wanted().options)
        self._jvm.start()
        return self._jvm

    def application_start(self, jvmpath: Optional[str], options: list, choice: Optional[JvmChoice]) -> tuple:
        """For an application's own ``jpype.startJVM`` with no JVM running: the JVM library (``choice``'s, the
        settings', when the application names none) and the options to add to the application's."""
        libjvm, added = jvmpath, [f"-javaagent:{agent_jar()}"]
        if libjvm is None and choice is not None:
            libjvm = str(choice.libjvm)
            added += ["--enable-native-access=ALL-UNNAMED"] if choice.feature >= 22 else []
        deep = self.deep_options(Path(libjvm)) if libjvm else []
        self._deep_jvm = bool(deep)
        added += deep
        added += self._wanted().options  # after the application's own, so that the settings' win
        return libjvm, added + self.crash.options([*options, *added])

    @property
    def started_by_plugin(self) -> bool:
        """The plugin (or start_jvm) started the running JVM; an application's own start did not."""
        return self._jvm is not None and self._jvm.started and self._jvm.adopted is None

    @property
    def version(self) -> Optional[str]:
        """The version of the JVM the tests run on, once it runs."""
        return self._jvm.version if self._jvm is not None and self._jvm.started else None

    @property
    def session(self) -> Optional[JvmSession]:
        """The JVM as made so far (None before its first use)."""
        return self._jvm

    # --- what is said of it ---------------------------------------------------------------------------------
    def describe(self, by_application: bool) -> tuple:
        """(the JVM the tests run on or will run on, whether it was adopted while saying so)."""
        if self._jvm is not None and self._jvm.started:
            return self._jvm.describe(by_application), False
        if jvm_running():
            self.jvm().start()  # adopts it: nothing starts
            return self._jvm.describe(by_application), True
        return self.choice().describe(), False

    def not_applied(self) -> list:
        """The settings a JVM found running could not take (see :meth:`JvmSession.not_applied`)."""
        if self._jvm is None:
            return []
        return ([self._unmet_choice] if self._unmet_choice and self._jvm.adopted is not None else []) + \
            self._jvm.not_applied()

    def unpinned_hashes(self) -> list:
        """A line when deep counts ran in a JVM whose identity-hash state could not be found."""
        hashes = getattr(self._deep, "hashes", None)
        if hashes is None or hashes.offset is not None:
            return []
        return [f"identity hashes are not pinned in this JVM: {hashes.missing}; deep counts of work that follows "
                f"them (a HashMap or HashSet of objects without their own hashCode, enums, Class objects) can move "
                f"from run to run"]

    def cold_cache(self) -> list:
        """A line when deep counting's set-up found the deep cache cold (the JDK's classes counted afresh)."""
        cold = getattr(self._deep, "cold", None)
        if cold is None:
            return []
        return [f"the deep cache was cold: {cold[0]:,} classes of the class library counted deep in {cold[1]:.1f} s "
                f"and kept in {self._deep.cache.folder} for later sessions; keep that folder between CI runs "
                f"(docs/deep.md)"]

    # --- deep counts ------------------------------------------------------------------------------------------
    def deep_counting(self) -> DeepCounting:
        """The JVM's deep counting (:mod:`.deep`), set up on first use: every class loaded so far is counted deep
        (progress on a terminal, when it takes long: one status line, erased when done)."""
        if self._deep is None:
            self.jvm().start()
            try:
                self._deep = deep_counting(slow_progress(self._status, every=0.5))
            finally:
                self._status(None)
            for line in self.cold_cache():  # a worker's summary is not shown: the controller's warnings are
                self._warn(line)
            healed = self._deep.healed()
            if healed:
                self._say(healed)
                self._warn(healed)
        return self._deep

    def reseed_identity_hashes(self, key: str) -> None:
        """Where the JVM runs with what deep counts need, the current thread starts drawing identity hashes where
        ``key`` (a test's id, a fixture's) always starts (:mod:`.hash_state`): the objects a test or a fixture
        makes get the same hashes in every run, whatever ran before. With no JVM running yet, the JVM's start does
        it once the application's own ``jpype.startJVM`` started it there (so that nothing the JVM's start drew
        counts either). The deep runtime is set up for it here if no deep test did yet; a set-up that fails is
        left for the first deep test to report."""
        self.hash_key = key
        if not self._deep_jvm or not jvm_running():
            return
        try:
            self.deep_counting().reseed(key)
        except Exception:  # noqa: BLE001 - the deep test that needs the runtime reports it
            pass

    def application_started(self) -> None:
        """An application's own ``jpype.startJVM`` started the JVM: its identity hashes start where the running
        code's (a test's, a fixture's) always do, or at the JVM's start."""
        self.reseed_identity_hashes(self.hash_key or JVM_START_KEY)

    @property
    def refused(self) -> set:
        """The methods deep counting left uncounted, each with the reason."""
        return set(self._deep.refused) if self._deep is not None else set()

    def shutdown(self) -> None:
        if self._jvm is not None:
            self._jvm.shutdown()


def _asked_for(wanted: JvmWanted) -> str:
    """The JVM the settings ask for, as the user wrote it."""
    parts = ([f"java-home {wanted.java_home}"] if wanted.java_home else []) + \
        ([f'jvm = "{wanted.variant}"'] if wanted.variant != "server" else [])
    return ", ".join(parts) or "the JVM"
