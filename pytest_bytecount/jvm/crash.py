"""Last words when the JVM dies.

A fatal error inside the JVM (a SIGSEGV in its compiler, say) ends the whole process at once, pytest with it: no
failure, no summary, and the JVM's own banner goes to the output pytest was capturing. HotSpot and Zero run the
``-XX:OnError`` commands before they abort, so the JVM pytest-bytecount starts gets one that copies a note onto
the terminal's standard error: which test was running, that the JVM crashed, and where its error report
(``-XX:ErrorFile``, the ``hs_err_pid<pid>.log``) is.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from pathlib import Path
from typing import Optional, Sequence


class CrashNote:
    """The note a crashing JVM prints, kept up to date with the test that is running."""

    def __init__(self, report_dir: Path):
        self.report_dir = Path(report_dir)
        self.pid = os.getpid()
        # the terminal's stderr as it is now, before pytest captures a test's output: the note goes there
        self.fd: Optional[int] = os.dup(2)
        self.path = Path(tempfile.gettempdir(), f"pytest-bytecount-running-{self.pid}.txt")
        remove_orphans(self.path.parent)
        self.test: Optional[str] = None
        self.report: Optional[str] = None  # where the JVM writes its report; None: no JVM of ours prints the note

    @property
    def error_file(self) -> Path:
        return self.report_dir / f"hs_err_pid{self.pid}.log"

    def options(self, existing: Sequence[str]) -> list:
        """The JVM options that print the note, unless the user chose an error file or command of their own."""
        if self.fd is None or os.name != "posix":
            return []
        if any(o.startswith("-XX:OnError=") for o in existing):
            return []  # the user's own command runs instead
        out = []
        if any(o.startswith("-XX:ErrorFile=") for o in existing):
            self.report = "where your -XX:ErrorFile option says"
        else:  # the JVM reads %p as its process id, %% as %
            out.append("-XX:ErrorFile=" + str(self.report_dir).replace("%", "%%") + "/hs_err_pid%p.log")
            self.report = str(self.error_file)
        # the JVM's process is this one: its stderr from before the capture, reached through /proc
        out.append("-XX:OnError=cat " + shlex.quote(str(self.path)).replace("%", "%%") + f" >/proc/%p/fd/{self.fd}")
        self._write()
        return out

    def running(self, test: Optional[str]) -> None:
        """Say which test runs from now on (None: none). Written only once a JVM of ours would print it."""
        self.test = test
        if self.report is not None:
            self._write()

    def _write(self) -> None:
        where = f"while {self.test} was running" if self.test else "while no test was running"
        text = (f"\nbytecount: the JVM crashed {where}: a fatal error inside the JVM ended this pytest process. "
                f"The JVM's error report: {self.report}\n")
        try:
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # a note that cannot be written only loses the last words

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        try:
            self.path.unlink()
        except OSError:
            pass


def remove_orphans(folder: Path) -> None:
    """Remove the notes of processes that are gone (a JVM that crashed ended its process before it could)."""
    if os.name != "posix":  # no notes elsewhere (and os.kill would end the process there)
        return
    for note in folder.glob("pytest-bytecount-running-*.txt"):
        pid = note.stem.rsplit("-", 1)[-1]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            try:
                note.unlink()
            except OSError:
                pass
        except OSError:
            pass  # alive, another user's process
