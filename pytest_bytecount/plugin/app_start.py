"""An application's own ``jpype.startJVM``, while pytest-bytecount runs a project that configures it.

Applications that drive Java through JPype often start the JVM themselves, lazily, on their first call,
with their own class path (tabula-py, jaydebeapi). In a test session the plugin may have started the JVM
before, for a counted test, and a second start fails: such an application then falls back to a
subprocess, or (when it checks ``jpype.isJVMStarted()`` first) runs without its jars. So while the
session runs, ``jpype.startJVM`` goes through here:

- no JVM yet: JPype starts the application's JVM as the application asks (its JVM, options, class path
  and keywords), with pytest-bytecount's agent added, so that tests can count in place in it, the options
  deep counts need when the session takes them, the settings' ``jvm-options`` (after the application's own,
  so that they win) and the crash note's; the configured classpath comes
  first on its class path; an application that names no JVM gets the one the settings choose (the one the
  pytest header names), where JPype would otherwise pick one of its own;
- the plugin's JVM runs: the application's class path entries are added with ``jpype.addClassPath``
  (JPype's own class loader finds them), and the call returns as if it had started the JVM; the summary
  notes what could not apply (the JVM the application asked for, its options, another ``convertStrings``);
- a JVM that something else started: the call goes to JPype as it is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

CLASS_PATH_OPTION = "-Djava.class.path="


def split_start_args(args: tuple, kwargs: dict) -> tuple:
    """``jpype.startJVM``'s arguments as (JVM library, options, class path entries, convertStrings or None)."""
    args, kwargs = list(map(str, args)), dict(kwargs)
    jvmpath = kwargs.get("jvmpath") or (args.pop(0) if args and not args[0].startswith("-") else None)
    classpath = kwargs.get("classpath")
    entries = [classpath] if isinstance(classpath, (str, os.PathLike)) else list(classpath or [])
    options = []
    for a in args:
        if a.startswith(CLASS_PATH_OPTION):
            entries += [e for e in a[len(CLASS_PATH_OPTION):].split(os.pathsep) if e]
        else:
            options.append(a)
    entries = [str(e) if str(e).endswith("*") else str(Path(e).absolute()) for e in entries]
    return jvmpath, options, entries, kwargs.get("convertStrings")


class AppStart:
    """Puts its ``startJVM`` in the place of ``jpype.startJVM`` (``install``) and back (``remove``)."""

    def __init__(self, start_options: Callable[[Optional[str], list], tuple], ours: Callable[[], bool],
                 started: Callable[[], None] = lambda: None):
        # (the application's jvmpath or None, its options) -> (the JVM library to start, the options to add: the
        # agent, those deep counts need when the session takes them, the crash note's; the configured classpath)
        self._start_options = start_options
        self._ours = ours  # whether the running JVM is the plugin's
        self._after_start = started  # once the application's start started the JVM
        self._original: Optional[Callable] = None
        self._installed: Optional[Callable] = None
        self.notes: list = []  # what an application asked for that could not apply, for the summary
        self.started = False  # the application's own start started the JVM (with the plugin's options)
        self.convert_strings: Optional[str] = None  # the note, when the application's convertStrings could not apply

    def install(self) -> None:
        import jpype

        if self._original is None:
            self._original = jpype.startJVM

            def startJVM(*args, **kwargs):  # noqa: N802 - JPype's name
                return self.start(*args, **kwargs)

            startJVM.original = self._original  # the plugin's own start goes straight to JPype's
            startJVM.__doc__ = f"jpype.startJVM, through pytest-bytecount while its session runs ({__name__})"
            self._installed = jpype.startJVM = startJVM

    def remove(self) -> None:
        import jpype

        if self._original is not None and jpype.startJVM is self._installed:
            jpype.startJVM = self._original
        self._original = None

    def start(self, *args, **kwargs) -> None:
        import jpype

        if not jpype.isJVMStarted():  # the application's JVM, with the plugin's options added
            jvmpath, options, entries, _ = split_start_args(args, kwargs)
            libjvm, added, configured = self._start_options(jvmpath, options)
            kept = [str(a) for a in args if str(a).startswith("-") and not str(a).startswith(CLASS_PATH_OPTION)]
            # the configured classpath ahead of the application's entries (or, when it gave none, of those
            # jpype.addClassPath gathered, which JPype would have used)
            given = entries or [e for e in jpype.getClassPath(True).split(os.pathsep) if e]
            classpath = [*configured, *(e for e in given if e not in configured)] or None
            kwargs = {k: v for k, v in kwargs.items() if k not in ("jvmpath", "classpath")}
            started = self._original(*([libjvm] if libjvm else []), *kept, *[o for o in added if o not in kept],
                                     classpath=classpath, **kwargs)
            self.started = True
            self._after_start()
            return started
        if not self._ours():
            return self._original(*args, **kwargs)  # someone else's JVM: JPype says what it says
        jvmpath, options, entries, convert = split_start_args(args, kwargs)
        for entry in entries:
            jpype.addClassPath(entry)
        ignored = [f"jvmpath {jvmpath}"] if jvmpath else []
        ignored += [f"option {o}" for o in options]
        if convert is not None:  # set at start for the JVM's life
            running = isinstance(jpype.JClass("java.lang.System").getProperty("java.version"), str)
            ignored += [f"convertStrings={convert!r}"] if bool(convert) != running else []
        if ignored:
            note = (f"jpype.startJVM(...) of the application: not applied: {', '.join(ignored)}: the JVM was running "
                    f"already (pytest-bytecount started it for a counted test); its class path entries were added. "
                    f"To start the JVM as the application does: {self.fix(options, convert)}")
            if note not in self.notes:
                self.notes.append(note)
            if convert is not None and bool(convert) != running:
                self.convert_strings = note  # Java strings reach the application as it does not expect
        return None

    @staticmethod
    def fix(options: list, convert) -> str:
        """The conftest.py that starts the JVM the way the application asked, before any test."""
        args = ["config", *(repr(o) for o in options)] + ([f"convertStrings={bool(convert)!r}"] if convert is not None else [])
        return (f"def pytest_configure(config): pytest_bytecount.start_jvm({', '.join(args)}) in conftest.py "
                f"(or make the application start it in a module- or session-scoped fixture, before the test's "
                f"bytecount fixture)")
