"""Classes counted deep, kept on disk per class library and reused by every later session on it: the JDK's
classes are counted once, not once per session.

Where: ``$BYTECOUNT_CACHE_DIR``, else ``$XDG_CACHE_HOME/pytest-bytecount``, else ``~/.cache/pytest-bytecount``,
under ``deep/<class library>-<plugin>``: outside any project, since it depends only on the runtime's class
library (a digest of its ``lib/modules``) and on this plugin's code.

A counted class calls the runtime with its methods' numbers, so the numbers must mean the same in every
session: ``numbers.txt`` lists the method ids in the order they were numbered (line k is number k), and is
only ever appended to, under an exclusive ``flock``, after reading what other processes appended. A class is
numbered that way before it is counted, and its entry is written after (``numbers.txt`` made durable first).

The classes of the class library itself are kept by name (the JVM hands a retransformation bytes it rebuilds,
which differ from session to session in their constant pool's order, never in their code), all in one file,
``library.pack``, that a warm session reads at once: records of a name and its entry, one after the other. It
is only ever replaced whole (written beside it and renamed over it), under an exclusive ``flock`` of
``library.lock``, by a process that reads the records on disk and adds its own, so that concurrent sessions
and xdist workers never lose each other's entries. Any other class (a proxy the JVM made, a class of an
application's own loader) is kept in a file of its own, ``classes/<name>-<hash of its bytes>``, written
atomically. A folder whose ``numbers.txt`` is gone is emptied: its classes' numbers mean nothing.

Each entry begins with a digest of the class's name and counted bytes: an entry a full disk or a killed writer
left damaged, or one copied under another name, fails it, is counted afresh and written again (``healed`` names
them, for the one line that says so; a pack whose records cannot be told apart is named there as well).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import glob
import hashlib
import os
import shutil
import struct
import threading
import time
from pathlib import Path
from typing import Iterable, Optional

from ..counting.instr.deep import LOCAL_BASE, MethodNumbers
from ..counting.pipeline.cache import plugin_digest
from ..files import write_atomically


_DIGEST = 16
FLUSH_EVERY = 512  # counted classes kept in memory before they are written
_LOOK_AGAIN = 0.5  # seconds: a class missing from the pack looks whether another process replaced it since then
PACK = "library.pack"
_PACK_MAGIC = b"bytecount deep pack 1\n"
_RECORD = struct.Struct(">HI")  # a record's name length and entry length, then its name (UTF-8) and entry


def _digest(name: str, data: bytes) -> bytes:
    return hashlib.sha256(name.encode("utf-8") + b"\0" + data).digest()[:_DIGEST]


def _sound(name: str, entry) -> Optional[bytes]:
    """The counted class of an entry (digest + bytes) when its digest holds, else None."""
    data = bytes(entry[_DIGEST:])
    if bytes(entry[:_DIGEST]) != _digest(name, data) or not data.startswith(b"\xca\xfe\xba\xbe"):
        return None
    return data


def read_pack(raw: bytes) -> tuple:
    """The records of a pack's bytes, ``({name: entry}, whole)``: ``whole`` is False when the bytes end inside a
    record or do not read as a pack at all (the records before the break are kept; an entry cut short is kept
    cut short, and fails its digest)."""
    if not raw.startswith(_PACK_MAGIC):
        return {}, not raw
    records, at, view = {}, len(_PACK_MAGIC), memoryview(raw)
    while at < len(raw):
        if at + _RECORD.size > len(raw):
            return records, False
        name_size, entry_size = _RECORD.unpack_from(raw, at)
        at += _RECORD.size
        if at + name_size > len(raw):
            return records, False
        try:
            name = raw[at:at + name_size].decode("utf-8")
        except UnicodeDecodeError:
            return records, False
        at += name_size
        records[name] = view[at:at + entry_size]
        at += entry_size
        if at > len(raw):
            return records, False
    return records, True


def pack_bytes(records: dict) -> bytes:
    """A pack of ``{name: entry}`` (sorted by name)."""
    out = [_PACK_MAGIC]
    for name in sorted(records):
        encoded, entry = name.encode("utf-8"), records[name]
        out += [_RECORD.pack(len(encoded), len(entry)), encoded, bytes(entry)]
    return b"".join(out)


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
        self.pack = self.folder / PACK
        self.classes.mkdir(parents=True, exist_ok=True)
        if not self.numbers_file.exists() and (self.pack.exists() or any(self.classes.iterdir())):
            shutil.rmtree(self.classes)  # numbered against a list that is gone
            self.pack.unlink(missing_ok=True)
            self.classes.mkdir(parents=True, exist_ok=True)
        self._known = 0  # lines of numbers.txt read so far
        self._read_to = 0  # the byte where what was read of numbers.txt ends (after its last whole line)
        self._pending: dict = {}  # path -> entry of a class kept in a file of its own, written by flush()
        self._only: set = set()  # paths of those whose other versions flush() removes (classes the JVM generated)
        self._pending_library: dict = {}  # name -> entry of a class of the class library, added to the pack by flush()
        # the JVM's threads put entries (each transform runs on the thread that loads the class) while one flushes
        self._pending_lock = threading.Lock()
        self._numbers_unsynced = False  # numbers appended since numbers.txt was last made durable
        self.healed: list = []  # names of the damaged entries found, counted afresh and written again
        self._packed: dict = {}  # name -> entry, as the pack read last held them
        self._pack_seen = None  # (inode, size, modification time) of the pack read last
        self._pack_lock = threading.Lock()
        self._pack_checked = 0.0  # when the pack was last looked at for changes
        self._load_pack()
        atexit.register(self.flush)  # entries still pending when the process ends (a crash only makes them go)

    def _path(self, name: str, original: bytes) -> Path:
        return self.classes / f"{name.replace('/', '.')}-{hashlib.sha256(original).hexdigest()[:16]}"

    def _load_pack(self) -> bool:
        """Read the pack again if it changed since it was read (another process replaced it); whether it did."""
        with self._pack_lock:
            self._pack_checked = time.monotonic()
            try:
                with open(self.pack, "rb") as f:
                    st = os.fstat(f.fileno())
                    seen = (st.st_ino, st.st_size, st.st_mtime_ns)
                    if seen == self._pack_seen:
                        return False
                    raw = f.read()
            except OSError:
                return False
            records, whole = read_pack(raw)
            if not whole and self._pack_seen is None:
                self.healed.append(PACK)  # the records past the break are counted afresh like any missing one
            self._packed, self._pack_seen = records, seen
            return True

    def reload(self) -> None:
        """Read the pack again now if another process replaced it (what it kept meanwhile)."""
        self._load_pack()

    @contextlib.contextmanager
    def cold_lock(self):
        """Held while a process counts the class library's classes for the cache (``cold.lock``, exclusive): the
        processes of a machine that find the cache cold at once (xdist's workers) count them once, one after the
        other finding them kept."""
        with open(self.folder / "cold.lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def library(self, name: str) -> Optional[bytes]:
        """The counted class kept for ``name``, a class of the class library; None when there is none, or when
        its entry is damaged (it is then noted in :attr:`healed`)."""
        entry = self._pending_library.get(name)
        if entry is None:
            entry = self._packed.get(name)
            if entry is None and time.monotonic() - self._pack_checked >= _LOOK_AGAIN and self._load_pack():
                entry = self._packed.get(name)  # kept by another process since the pack was read
            if entry is None:
                return None
        return self._checked(name, entry)

    def library_names(self) -> list:
        """The names of the class library's classes kept (as the pack read last holds them, and those not yet
        written)."""
        return sorted(set(self._packed) | set(self._pending_library))

    def get(self, name: str, original: bytes, library: bool = False) -> Optional[bytes]:
        """The counted class kept for ``name`` (``library``: a class of the class library, kept by name); None
        when there is none, or when the entry is damaged (it is then noted in :attr:`healed`)."""
        if library:
            return self.library(name)
        path = self._path(name, original)
        entry = self._pending.get(path)
        try:
            entry = path.read_bytes() if entry is None else entry
        except OSError:
            return None
        return self._checked(name, entry)

    def _checked(self, name: str, entry) -> Optional[bytes]:
        data = _sound(name, entry)
        shown = name.replace("/", ".")
        if data is None and shown not in self.healed:  # noted once, however often it is looked up before it heals
            self.healed.append(shown)
        return data

    def put(self, name: str, original: bytes, data: bytes, library: bool = False, only: bool = False) -> None:
        """Keep a counted class; it is written with the others by :meth:`flush` (every :data:`FLUSH_EVERY`
        entries, at the end of the set-up, and when the process ends). ``only``: the class's other versions are
        removed then (a class the JVM generates, a proxy, has other bytes from one session to the next: kept by
        its bytes, each session would add one)."""
        entry = _digest(name, data) + data
        with self._pending_lock:
            if library:
                self._pending_library[name] = entry
            else:
                path = self._path(name, original)
                self._pending[path] = entry
                if only:
                    self._only.add(path)
            full = len(self._pending) + len(self._pending_library) >= FLUSH_EVERY
        if full:
            self.flush()

    def flush(self) -> None:
        """Write the pending entries, after making ``numbers.txt`` durable once for all of them: an entry on disk
        never uses a number that a crash of the machine could take back."""
        with self._pending_lock:  # taken whole: each of these uses numbers appended before now, made durable next
            pending, self._pending = self._pending, {}
            library, self._pending_library = self._pending_library, {}
            only, self._only = self._only, set()
        if not pending and not library:
            return
        try:
            if self._numbers_unsynced:
                self._numbers_unsynced = False  # numbers appended from now on set it again
                with open(self.numbers_file, "rb") as f:
                    os.fsync(f.fileno())
            for path, entry in pending.items():
                write_atomically(path, entry)
            for path in only:
                self._drop_other_versions(path)
            if library:
                self._add_to_pack(library)
        except OSError:
            pass  # a cache that cannot be written is only slower

    def _drop_other_versions(self, path: Path) -> None:
        """Remove the files of the same class as ``path`` but ``path`` (``<name>-<16 hex digits>``)."""
        name = path.name[:-17]
        for other in self.classes.glob(f"{glob.escape(name)}-*"):
            if other != path and len(other.name) == len(path.name):
                other.unlink(missing_ok=True)

    def _add_to_pack(self, entries: dict) -> None:
        """Replace the pack by the sound records it holds now plus ``entries``, under the pack's lock."""
        with open(self.folder / "library.lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                self._load_pack()
                records = {n: e for n, e in self._packed.items() if n not in entries and _sound(n, e) is not None}
                records.update(entries)
                write_atomically(self.pack, pack_bytes(records))
                st = os.stat(self.pack)  # no other process replaces it while the lock is held
                self._packed, self._pack_seen = records, (st.st_ino, st.st_size, st.st_mtime_ns)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def prepared(self, key: str, make) -> bytes:
        """What ``make()`` returns, kept in the folder as ``prepared-<key>`` (with the digest every entry begins
        with) by the first session that needed it: what a session would otherwise work out again from the same
        class library and plugin (a damaged file is made again, silently: it is not counted work)."""
        path = self.folder / f"prepared-{key}"
        try:
            entry = path.read_bytes()
            if entry[:_DIGEST] == _digest(key, entry[_DIGEST:]):
                return entry[_DIGEST:]
        except OSError:
            pass
        data = make()
        if data:
            self.keep(key, data)
        return data

    def keep(self, key: str, data: bytes) -> None:
        """Keep ``data`` as what :meth:`prepared` returns for ``key`` from now on."""
        try:
            write_atomically(self.folder / f"prepared-{key}", _digest(key, data) + data)
        except OSError:
            pass

    def sync(self, numbers: MethodNumbers) -> None:
        """Adopt the numbers other sessions gave (read without a lock: lines are appended whole)."""
        self._read(numbers)

    def number(self, numbers: MethodNumbers, method_ids: Iterable[str]) -> bool:
        """Give each of ``method_ids`` a shared number (appended to ``numbers.txt`` under its lock); False when
        the shared range is full (the class is then counted with the JVM's own numbers, and not kept)."""
        missing = [m for m in method_ids if m not in numbers.ids]
        if not missing:
            return all(numbers.ids[m] < LOCAL_BASE for m in method_ids)
        with open(self.numbers_file, "a+b") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                f.seek(self._read_to)
                self._adopt(numbers, f.read())  # what other processes appended, read through the locked file
                missing = [m for m in dict.fromkeys(method_ids) if m not in numbers.ids]
                if self._known + len(missing) > LOCAL_BASE:
                    return False
                f.seek(0, os.SEEK_END)
                text = "".join(f"{m}\n" for m in missing).encode("utf-8")
                f.write(text)
                f.flush()  # whole lines, under the lock: other processes read them; flush() makes them durable
                self._read_to += len(text)  # read above to the end: these lines are the next
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
        self._adopt(numbers, more)

    def _adopt(self, numbers: MethodNumbers, more: bytes) -> None:
        whole = more[:more.rfind(b"\n") + 1]  # an unfinished last line waits for the next read
        for line in whole.decode("utf-8").split("\n")[:-1]:
            numbers.adopt(line, self._known)
            self._known += 1
        self._read_to += len(whole)
