"""Classes counted deep, kept on disk per class library and reused by every later session on it: the JDK's
classes are counted once, not once per session.

Where: ``$BYTECOUNT_CACHE_DIR``, else ``$XDG_CACHE_HOME/pytest-bytecount``, else ``~/.cache/pytest-bytecount``,
under ``deep/<class library>-<plugin>``: outside any project, since it depends only on the runtime's class
library (a digest of its ``lib/modules``) and on this plugin's code.

A counted class calls the runtime with its methods' numbers, so the numbers must mean the same in every
session: ``numbers.txt`` lists the method ids in the order they were numbered (line k is number k), and is
only ever appended to, under an exclusive ``flock``, after reading what other processes appended. A class is
numbered that way before it is counted, and its file is written atomically after: ``classes/<name>`` for a
class of the class library itself (the JVM hands a retransformation bytes it rebuilds, which differ from
session to session in their constant pool's order, never in their code), ``classes/<name>-<hash of its
bytes>`` for any other. A folder whose ``numbers.txt`` is gone is emptied: its classes' numbers mean nothing.

Each entry begins with a digest of the class's name and counted bytes: an entry a full disk or a killed writer
left damaged, or one copied under another name, fails it, is counted afresh and written again (``healed`` names
them, for the one line that says so).
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import shutil
import threading
from pathlib import Path
from typing import Iterable, Optional

from ..counting.instr.deep import LOCAL_BASE, MethodNumbers
from ..counting.pipeline.cache import plugin_digest
from ..files import write_atomically


_DIGEST = 16
FLUSH_EVERY = 512  # counted classes kept in memory before they are written


def _digest(name: str, data: bytes) -> bytes:
    return hashlib.sha256(name.encode("utf-8") + b"\0" + data).digest()[:_DIGEST]


def cache_root() -> Path:
    env = os.environ.get("BYTECOUNT_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "pytest-bytecount"


class DeepCache:
    """The deep-counted classes of one class library, and their shared method numbers."""

    def __init__(self, library: str):
        self.folder = cache_root() / "deep" / f"{library}-{plugin_digest()[:16]}"
        self.classes = self.folder / "classes"
        self.numbers_file = self.folder / "numbers.txt"
        self.classes.mkdir(parents=True, exist_ok=True)
        if not self.numbers_file.exists() and any(self.classes.iterdir()):
            shutil.rmtree(self.classes)  # numbered against a list that is gone
            self.classes.mkdir(parents=True, exist_ok=True)
        self._known = 0  # lines of numbers.txt read so far
        self._read_to = 0  # the byte where what was read of numbers.txt ends (after its last whole line)
        self._pending: dict = {}  # path -> entry, written by flush() once numbers.txt is on disk
        # the JVM's threads put entries (each transform runs on the thread that loads the class) while one flushes
        self._pending_lock = threading.Lock()
        self._numbers_unsynced = False  # numbers appended since numbers.txt was last made durable
        self.healed: list = []  # names of the damaged entries found, counted afresh and written again
        atexit.register(self.flush)  # entries still pending when the process ends (a crash only makes them go)

    def _path(self, name: str, original: bytes, library: bool) -> Path:
        if library:
            return self.classes / name.replace("/", ".")
        return self.classes / f"{name.replace('/', '.')}-{hashlib.sha256(original).hexdigest()[:16]}"

    def get(self, name: str, original: bytes, library: bool = False) -> Optional[bytes]:
        """The counted class kept for ``name`` (``library``: a class of the class library, kept by name); None
        when there is none, or when the entry is damaged (it is then noted in :attr:`healed`)."""
        path = self._path(name, original, library)
        entry = self._pending.get(path)
        try:
            entry = path.read_bytes() if entry is None else entry
        except OSError:
            return None
        digest, data = entry[:_DIGEST], entry[_DIGEST:]
        if digest != _digest(name, data) or not data.startswith(b"\xca\xfe\xba\xbe"):
            self.healed.append(name.replace("/", "."))
            return None
        return data

    def put(self, name: str, original: bytes, data: bytes, library: bool = False) -> None:
        """Keep a counted class; it is written with the others by :meth:`flush` (every :data:`FLUSH_EVERY`
        entries, at the end of the set-up, and when the process ends)."""
        with self._pending_lock:
            self._pending[self._path(name, original, library)] = _digest(name, data) + data
            full = len(self._pending) >= FLUSH_EVERY
        if full:
            self.flush()

    def flush(self) -> None:
        """Write the pending entries, after making ``numbers.txt`` durable once for all of them: an entry on disk
        never uses a number that a crash of the machine could take back."""
        with self._pending_lock:  # taken whole: each of these uses numbers appended before now, made durable next
            pending, self._pending = self._pending, {}
        if not pending:
            return
        try:
            if self._numbers_unsynced:
                self._numbers_unsynced = False  # numbers appended from now on set it again
                with open(self.numbers_file, "rb") as f:
                    os.fsync(f.fileno())
            for path, entry in pending.items():
                write_atomically(path, entry)
        except OSError:
            pass  # a cache that cannot be written is only slower

    def sync(self, numbers: MethodNumbers) -> None:
        """Adopt the numbers other sessions gave (read without a lock: lines are appended whole)."""
        self._read(numbers)

    def number(self, numbers: MethodNumbers, method_ids: Iterable[str]) -> bool:
        """Give each of ``method_ids`` a shared number (appended to ``numbers.txt`` under its lock); False when
        the shared range is full (the class is then counted with the JVM's own numbers, and not kept)."""
        missing = [m for m in method_ids if m not in numbers.ids]
        if not missing:
            return all(numbers.ids[m] < LOCAL_BASE for m in method_ids)
        with open(self.numbers_file, "a+", encoding="utf-8") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                self._read(numbers)
                missing = [m for m in dict.fromkeys(method_ids) if m not in numbers.ids]
                if self._known + len(missing) > LOCAL_BASE:
                    return False
                f.seek(0, os.SEEK_END)
                text = "".join(f"{m}\n" for m in missing)
                f.write(text)
                f.flush()  # whole lines, under the lock: other processes read them; flush() makes them durable
                self._read_to += len(text.encode("utf-8"))  # read above to the end: these lines are the next
                self._numbers_unsynced = True
                for m in missing:
                    numbers.adopt(m, self._known)
                    self._known += 1
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)
        return all(numbers.ids[m] < LOCAL_BASE for m in method_ids)

    def _read(self, numbers: MethodNumbers) -> None:
        """The lines other processes (or this one) appended since the last read: only those are read."""
        try:
            with open(self.numbers_file, "rb") as f:
                f.seek(self._read_to)
                more = f.read()
        except OSError:
            return
        whole = more[:more.rfind(b"\n") + 1]  # an unfinished last line waits for the next read
        for line in whole.decode("utf-8").split("\n")[:-1]:
            numbers.adopt(line, self._known)
            self._known += 1
        self._read_to += len(whole)
