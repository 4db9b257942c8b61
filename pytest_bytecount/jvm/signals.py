"""Who handles the process's signals while a JVM runs in it: the JVM its faults, Python its interrupts.

**Faults.** HotSpot raises SIGSEGV on purpose, and handles it in libjvm: implicit null checks, safepoint
polls, stack banging. So do Zero and other variants for some of SIGSEGV, SIGBUS, SIGFPE and SIGILL. A
handler installed over the JVM's after it started takes those signals: Python's ``faulthandler``, which
pytest enables in its own ``pytest_configure``, after a conftest may already have started the JVM, prints
"Fatal Python error: Segmentation fault" and re-raises the signal without its context, and the JVM then
aborts the process (exit 134, an ``hs_err_pid*.log``; JPype issues 842 and 1261). pytest also hands the
signals back to the handlers from before it enabled faulthandler when it unconfigures, which leaves a JVM
still running without its own. :class:`SignalOwners` notes the JVM's handlers (``sigaction``, as opaque
bytes) while libjvm holds them, and puts them back wherever something covered them; the handler's
address is told apart by the shared object it lies in (``dladdr``).

**Interrupts.** A JVM started with JPype's defaults takes SIGINT and SIGTERM itself and exits the process
at once (130, 143), in mid-line and without pytest's interrupted summary. pytest-bytecount starts its
JVM with ``interrupt=False``: JPype's own Java handler then passes both to Python (``KeyboardInterrupt``,
the main thread's Java call interrupted). A SIGTERM passed to Python is dropped while Python leaves
SIGTERM at its default, so a handler that raises ``KeyboardInterrupt`` is installed then. In a JVM that
something else started, Python's handlers are put back over the JVM's.

POSIX only (Linux, macOS); elsewhere every method does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
from typing import Dict, List, Optional

FAULTS = tuple(getattr(signal, name) for name in ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL") if hasattr(signal, name))
INTERRUPTS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))
SUPPORTED = sys.platform.startswith(("linux", "darwin"))
SIGACTION_SIZE = 512  # bytes enough for any platform's struct sigaction (152 on Linux x86-64, 16 on macOS)


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


_libc: list = []


def _c():
    """The C library's ``sigaction`` and ``dladdr`` (glibc before 2.34 keeps ``dladdr`` in libdl)."""
    if not _libc:
        libc = ctypes.CDLL(None, use_errno=True)
        if not hasattr(libc, "dladdr"):
            libc = ctypes.CDLL(ctypes.util.find_library("dl"), use_errno=True)
            libc.sigaction = ctypes.CDLL(None, use_errno=True).sigaction
        libc.sigaction.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
        libc.dladdr.argtypes = (ctypes.c_void_p, ctypes.POINTER(_DlInfo))
        _libc.append(libc)
    return _libc[0]


def installed(signum: int) -> bytes:
    """The signal's ``struct sigaction`` as it is now, as opaque bytes (the handler's address first)."""
    buf = ctypes.create_string_buffer(SIGACTION_SIZE)
    if _c().sigaction(signum, None, buf) != 0:
        raise OSError(ctypes.get_errno(), f"sigaction({signum}) failed")
    return buf.raw


def install(signum: int, action: bytes) -> None:
    """Install a ``struct sigaction`` read by :func:`installed`."""
    buf = ctypes.create_string_buffer(action, SIGACTION_SIZE)
    if _c().sigaction(signum, buf, None) != 0:
        raise OSError(ctypes.get_errno(), f"sigaction({signum}) failed")


def handler_library(signum: int) -> Optional[str]:
    """The file of the shared object whose code handles ``signum``: None for SIG_DFL and SIG_IGN, "" for
    code in no named shared object (a statically linked Python's own faulthandler, say)."""
    address = ctypes.c_void_p.from_buffer_copy(installed(signum)[:ctypes.sizeof(ctypes.c_void_p)]).value
    if not address or address == 1:  # SIG_DFL, SIG_IGN
        return None
    info = _DlInfo()
    if not _c().dladdr(ctypes.c_void_p(address), ctypes.byref(info)) or not info.dli_fname:
        return ""
    return os.fsdecode(info.dli_fname)


def jvm_handles(signum: int) -> bool:
    """Whether the JVM's own code (libjvm) handles ``signum`` now."""
    library = handler_library(signum)
    return library is not None and os.path.basename(library).startswith("libjvm.")


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def terminated(signum, frame):
    """SIGTERM ends pytest as Ctrl-C does: with its interrupted summary, and the files it writes closed."""
    raise KeyboardInterrupt(f"terminated by signal {signum} (SIGTERM)")


class SignalOwners:
    """The process's one record of the JVM's fault handlers (:data:`owners`): a JVM runs once per process."""

    def __init__(self):
        self._jvm: Dict[int, bytes] = {}  # signal -> the JVM's sigaction, as last seen in place
        self.routed = False  # the JVM was started with JPype's interrupt=False: it passes SIGINT/SIGTERM on

    def started(self, routed: bool) -> None:
        """Right after a JVM started in this process: note its handlers; Python gets SIGTERM."""
        self.routed = routed
        self.note()
        self.reclaim()

    def note(self) -> None:
        """Remember the JVM's fault handlers that are in place now."""
        if not SUPPORTED:
            return
        for signum in FAULTS:
            if jvm_handles(signum):
                self._jvm[signum] = installed(signum)

    def reclaim(self) -> List[str]:
        """Put the JVM's fault handlers back where something covered them, and Python's interrupt handlers
        over the JVM's (see the module's text). The names of the signals changed, for tests and messages."""
        if not SUPPORTED:
            return []
        changed = self._reclaim_faults()
        if _main_thread():  # Python's signal handlers can be set from the main thread only
            changed += self._reclaim_interrupts()
        return changed

    def _reclaim_faults(self) -> List[str]:
        changed = []
        self.note()
        if signal.SIGSEGV not in self._jvm and faulthandler_covers(signal.SIGSEGV):
            # the JVM started before faulthandler was enabled: faulthandler keeps the JVM's handlers as the
            # ones it restores, and they are reached only that way
            import faulthandler

            faulthandler.disable()
            self.note()
            changed += [signal.Signals(s).name for s in FAULTS if s in self._jvm]
        for signum in FAULTS:
            if signum in self._jvm and not jvm_handles(signum):
                install(signum, self._jvm[signum])
                changed.append(signal.Signals(signum).name)
        return changed

    def _reclaim_interrupts(self) -> List[str]:
        changed = []
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            routing = installed(signal.SIGTERM) if self.routed and jvm_handles(signal.SIGTERM) else None
            signal.signal(signal.SIGTERM, terminated)
            if routing is not None:  # JPype's Java handler passes SIGTERM on to the Python handler
                install(signal.SIGTERM, routing)
            changed.append("SIGTERM")
        if self.routed:
            return changed
        for signum in INTERRUPTS:
            handler = signal.getsignal(signum)
            if callable(handler) and jvm_handles(signum):  # Python's handler, but the JVM's at the C level
                signal.signal(signum, handler)
                changed.append(signal.Signals(signum).name)
        return changed


def faulthandler_covers(signum: int) -> bool:
    """Whether Python's faulthandler is enabled and something other than the JVM handles ``signum``."""
    import faulthandler

    return faulthandler.is_enabled() and handler_library(signum) is not None and not jvm_handles(signum)


owners = SignalOwners()
