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
at once (130, 143), in mid-line and without pytest's interrupted summary. Whoever started it, a Java
``sun.misc.SignalHandler`` of ours then passes both to Python's main thread, where they raise
``KeyboardInterrupt`` once Java returns to Python (:meth:`SignalOwners._interrupts_to_python`).

POSIX only (Linux, macOS); elsewhere every method does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
from functools import lru_cache
from typing import Dict, Optional

FAULTS = tuple(getattr(signal, name) for name in ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL") if hasattr(signal, name))
INTERRUPTS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))
SUPPORTED = sys.platform.startswith(("linux", "darwin"))
SIGACTION_SIZE = 512  # bytes enough for any platform's struct sigaction (152 on Linux x86-64, 16 on macOS)


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


@lru_cache(maxsize=None)
def _c():
    """The C library's ``sigaction`` and ``dladdr`` (glibc before 2.34 keeps ``dladdr`` in libdl)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "dladdr"):
        libc = ctypes.CDLL(ctypes.util.find_library("dl"), use_errno=True)
        libc.sigaction = ctypes.CDLL(None, use_errno=True).sigaction
    libc.sigaction.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    libc.dladdr.argtypes = (ctypes.c_void_p, ctypes.POINTER(_DlInfo))
    return libc


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


class SignalOwners:
    """The process's one record of who handles what (:data:`owners`): a JVM runs once per process."""

    def __init__(self):
        self._jvm: Dict[int, bytes] = {}  # signal -> the JVM's sigaction, as last seen in place
        self._java_handler = None  # the sun.misc.SignalHandler passing INT and TERM to Python, once installed
        self.pending: Dict[int, int] = {}  # signal -> times passed to Python before its handler ran

    def started(self) -> None:
        """Right after a JVM started in this process: note its fault handlers; its interrupts go to Python."""
        self.note()
        self.reclaim()

    def note(self) -> None:
        """Remember the JVM's fault handlers that are in place now."""
        if not SUPPORTED:
            return
        for signum in FAULTS:
            if jvm_handles(signum):
                self._jvm[signum] = installed(signum)

    def reclaim(self) -> None:
        """Put the JVM's fault handlers back where something covered them, and have the JVM pass SIGINT and
        SIGTERM to Python (see the module's text)."""
        if not SUPPORTED:
            return
        self._reclaim_faults()
        if _main_thread():  # Python's signal handlers can be set from the main thread only
            self._interrupts_to_python()

    def _reclaim_faults(self) -> None:
        self.note()
        if signal.SIGSEGV not in self._jvm and faulthandler_covers(signal.SIGSEGV):
            # the JVM started before faulthandler was enabled: faulthandler keeps the JVM's handlers as the
            # ones it restores, and they are reached only that way
            import faulthandler

            faulthandler.disable()
            self.note()
        for signum in FAULTS:
            if signum in self._jvm and not jvm_handles(signum):
                install(signum, self._jvm[signum])

    def _interrupts_to_python(self) -> None:
        """The JVM's own handlers for INT and TERM exit the process (JPype's defaults), and JPype's
        ``interrupt=False`` handler also interrupts the main Java thread, whose InterruptedException can
        meet the KeyboardInterrupt inside JPype ("Fatal error in exception handling") and lose it. This
        handler only asks Python to run its handler in the main thread, once Java returns to it; a second
        signal before that ends the process at once, as the JVM would (a test stuck in Java)."""
        if self._java_handler is not None:
            return
        for signum in INTERRUPTS:
            current = signal.getsignal(signum)
            if current is signal.default_int_handler or current == signal.SIG_DFL:
                jvm_action = installed(signum)  # signal.signal also installs Python's C handler: keep the JVM's
                signal.signal(signum, self._in_python)
                install(signum, jvm_action)
        if WAKE is not None and signal.getsignal(WAKE) in (signal.SIG_DFL, None):
            signal.signal(WAKE, _woken)  # Python's C handler: a blocked call in the main thread returns early
        import jpype

        handler = _java_signal_handler(self._from_java)
        Signal = jpype.JClass("sun.misc.Signal")
        for name in ("INT", "TERM"):
            try:
                Signal.handle(Signal(name), handler)
            except Exception:  # noqa: BLE001 - a JVM started with -Xrs, say: Python's C handler keeps it
                signum = getattr(signal, f"SIG{name}")
                if signal.getsignal(signum) is not None:  # None: a handler set outside Python, left alone
                    signal.signal(signum, signal.getsignal(signum))
        self._java_handler = handler  # the proxy lives as long as the JVM may call it

    def _in_python(self, signum, frame):
        """Python's handler of SIGINT and SIGTERM while a JVM runs: pytest ends as on Ctrl-C, with its
        interrupted summary and the files it writes closed. Hidden from the traceback: pytest's line under the
        interruption names the test's own code that was running, not this handler."""
        __tracebackhide__ = True
        self.pending[signum] = 0
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise KeyboardInterrupt(f"terminated by {signal.Signals(signum).name}")

    def _from_java(self, signum: int) -> None:
        """On the JVM's signal dispatcher thread: the signal, to Python's main thread."""
        import _thread

        if signal.getsignal(signum) == self._in_python:
            self.pending[signum] = self.pending.get(signum, 0) + 1
            name = signal.Signals(signum).name
            if self.pending[signum] > 1:
                _tell_user(f"a second {name} before Java returned to Python: the process ends now "
                           f"(exit {128 + signum})")
                os._exit(128 + signum)
            timer = threading.Timer(WAIT_NOTICE_S, self._still_in_java, (signum, name))
            timer.daemon = True
            timer.start()
        if sys.version_info >= (3, 10):
            _thread.interrupt_main(signum)
        else:  # pragma: no cover - 3.9 simulates SIGINT only
            _thread.interrupt_main()
        _wake_main_thread()

    def _still_in_java(self, signum: int, name: str) -> None:
        if self.pending.get(signum):
            _tell_user(f"{name}: pytest stops as soon as Java returns to Python; send {name} again "
                       f"{'(Ctrl-C) ' if signum == signal.SIGINT else ''}to end the process now")

    def jvm_stopped(self) -> None:
        """After the JVM shut down: Python's own handling of SIGINT and SIGTERM again."""
        if not SUPPORTED or self._java_handler is None or not _main_thread():
            return
        self._java_handler = None
        for signum in INTERRUPTS:
            current = signal.getsignal(signum)
            if current == self._in_python:
                current = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
            if current is not None:
                signal.signal(signum, current)


WAIT_NOTICE_S = 1.0  # a signal still waiting for Java this long is explained to the user
# A real-time signal neither HotSpot nor glibc uses, sent to the main thread after interrupt_main(): a call blocked
# there in Python (time.sleep, a lock, select) returns early (EINTR), and Python then runs the interrupt's handler.
# interrupt_main() alone only sets a flag, which a blocked call reads when it is over.
WAKE = signal.SIGRTMIN + 5 if SUPPORTED and hasattr(signal, "SIGRTMIN") else None


def _woken(signum, frame) -> None:
    """The wake-up signal's Python handler: nothing to do, the interrupt's own handler runs next."""


def _wake_main_thread() -> None:
    if WAKE is None or signal.getsignal(WAKE) is not _woken:
        return
    try:
        signal.pthread_kill(threading.main_thread().ident, WAKE)
    except (OSError, ValueError):  # the main thread is gone: nothing waits there
        pass


def _tell_user(text: str) -> None:
    """A line on the user's terminal, past pytest's output capture (which holds file descriptor 2 while a
    test runs); on standard error without one."""
    line = f"\npytest-bytecount: {text}\n".encode()
    try:
        fd = os.open("/dev/tty", os.O_WRONLY | os.O_NOCTTY)
    except OSError:
        fd = None
    try:
        os.write(2 if fd is None else fd, line)
    except OSError:
        pass
    finally:
        if fd is not None:
            os.close(fd)


def _java_signal_handler(on_signal):
    """A ``sun.misc.SignalHandler`` (JDK 9+: module jdk.unsupported) calling ``on_signal(number)``."""
    import jpype

    @jpype.JImplements("sun.misc.SignalHandler")
    class PassToPython:
        @jpype.JOverride
        def handle(self, sig):
            on_signal(int(sig.getNumber()))

    return PassToPython()


def before_jvm_start() -> None:
    """Right before this process starts a JVM: Python's faulthandler off. HotSpot hands a fault it does not
    recognise (a real crash) to the handler it found installed before its own, and faulthandler would then
    print a Python traceback and end the process, with no ``hs_err_pid*.log`` to say where in the JVM. Off,
    the JVM writes its crash report; the SIGABRT that ends it is not given to faulthandler either. Never
    switched off while a JVM runs that may already hand faults to it: its handler would then return, and
    the fault would repeat forever."""
    import faulthandler

    if faulthandler.is_enabled():
        faulthandler.disable()


def faulthandler_covers(signum: int) -> bool:
    """Whether Python's faulthandler is enabled and something other than the JVM handles ``signum``."""
    import faulthandler

    return faulthandler.is_enabled() and handler_library(signum) is not None and not jvm_handles(signum)


owners = SignalOwners()
