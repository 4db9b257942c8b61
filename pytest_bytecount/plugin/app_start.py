"""An application's own ``jpype.startJVM``, while pytest-bytecount runs a project that configures it.

Applications that drive Java through JPype often start the JVM themselves, lazily, on their first call,
with their own class path (tabula-py, jaydebeapi). In a test session the plugin may have started the JVM
before, for a counted test, and a second start fails: such an application then falls back to a
subprocess, or (when it checks ``jpype.isJVMStarted()`` first) runs without its jars. So while the
session runs, ``jpype.startJVM`` goes through here:

- no JVM yet: JPype starts the application's JVM as the application asks (its JVM, options, class path
  and keywords), with one option more, pytest-bytecount's agent, so that tests can count in place in it;
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

    def __init__(self, agent_option: Callable[[], str], ours: Callable[[], bool]):
        self._agent_option = agent_option  # "-javaagent:..." for pytest-bytecount's agent
        self._ours = ours  # whether the running JVM is the plugin's
        self._original: Optional[Callable] = None
        self._installed: Optional[Callable] = None
        self.notes: list = []  # what an application asked for that could not apply, for the summary

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

        if not jpype.isJVMStarted():  # the application's JVM, with the agent as one option more
            agent = self._agent_option()
            return self._original(*args, *([agent] if agent not in map(str, args) else []), **kwargs)
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
                    f"already (pytest-bytecount started it for an earlier test); its class path entries were added")
            if note not in self.notes:
                self.notes.append(note)
        return None
