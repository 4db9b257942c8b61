"""Baseline files: one JSON file per test module, made to be reviewed and merged.

    {
      "format": 1,
      "tests": {
        "test_sort[10]": {
          "jvm": "17.0.19", "plugin": "0.1.0",
          "methods": {"demo.Sorting#insertionSort([I)V": {"code_fingerprint": "...", "calls": {...},
                      "invocations": 1, "opcodes": {...}, "total": 970}}
        }
      }
    }

Keys are sorted and indented, one count a line, so a change is a small diff. A file is data only (JSON,
never executed) and is checked whole on reading: a file that does not parse, misses a key, holds a
negative or non-integer count, or was written by a newer format is an error naming the file and the key,
and it is never overwritten, except by an explicit update, which first puts a copy of it in a folder the
caller names (the plugin's is in its cache folder, which version control ignores), never beside it.

Writing (:func:`update`):
- Under an exclusive ``flock`` of the baseline folder itself (no lock file is left behind), the file is
  re-read, the change is applied to what is on disk now, and the result is written. Two pytest processes
  updating the same file therefore never lose each other's entries.
- The new text goes to a temporary file in the same folder, is fsynced, renamed over the old file
  (``os.replace``, atomic) and the folder is fsynced: a reader, or a process killed at any point, sees
  the old file or the new one, never a torn one. Temporary files of killed writers are ignored by readers
  and removed by the next writer (which holds the lock, so no live writer owns them).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

from ..counting.counts import REQUIRED_SCALARS, TABLES
from .merge import CONFLICTED, MARKERS_LEFT, conflict_sides, three_way
from .salvage import readable_entries

# how a test's counts were made, when not in its own class loader (the default, which the file leaves out)
MODES = ("in-place", "module-loader", "session-loader")


def _mode(mode: Optional[str]) -> str:
    if mode in ("module-loader", "session-loader"):
        return f"in a class loader its {mode.split('-')[0]}'s tests share (loader_scope={mode.split('-')[0]!r})"
    return "in place (in_place=True)" if mode == "in-place" else "in the test's own class loader"


def mode_changed(stored: Optional[str], now: Optional[str], key: str, path: Path) -> str:
    """The first line of a verdict whose baseline was counted another way (``mode`` in the baseline)."""
    return (f"bytecount: the baseline of {key} in {path} was counted {_mode(stored)}, and this run counts "
            f"{_mode(now)}: the counts below moved with that setting, which is not a regression of the code. "
            f"Accept the new way with the command at the end.")


try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: updates are atomic but not serialised between processes
    fcntl = None

FORMAT = 1
_TMP_SUFFIX = ".tmp"


class BaselineError(ValueError):
    """A baseline file that cannot be read or written. ``problem``: what is wrong, without the advice the
    message adds (for the note of an update that replaced the file)."""

    def __init__(self, path: Path, message: str, problem: Optional[str] = None):
        self.path = Path(path)
        self.problem = problem or message
        super().__init__(message)


REPLACED_COPIES = ".bytecount-cache/replaced/"  # where an update keeps a copy of the file it replaces (plugin)
_RERECORD = f"re-record it with --bytecount-update (which keeps a copy of the current file in {REPLACED_COPIES})"


class NewerFormatError(BaselineError):
    """A baseline file written by a newer pytest-bytecount (a higher ``format``)."""


def _short(key: str, limit: int = 80) -> str:
    text = repr(key)
    return text if len(text) <= limit else text[: limit - 5] + "...'"


def _count_problem(value) -> Optional[str]:
    if type(value) is not int:  # bool is an int subclass, and not a count
        return f"is {json.dumps(value)[:40]}, not an integer"
    if value < 0:
        return f"is {value}, a negative count"
    return None


def _check(path: Path, data) -> dict:
    """The ``tests`` table of a parsed baseline file, or :class:`BaselineError` naming what is wrong with the file's
    frame (format, the table itself); each entry is checked on its own (:func:`_entry_problems`), so a broken one
    fails only its test."""

    def bad(where: str, problem: str) -> BaselineError:
        text = f"baseline file {path}: {where} {problem}"
        return BaselineError(path, f"{text}; fix it by hand, or {_RERECORD}", text)

    if not isinstance(data, dict):
        raise bad("the top level", "must be an object with 'format' and 'tests'")
    if "format" not in data:
        raise bad("the top level", "has no 'format' key")
    version = data["format"]
    if type(version) is not int:
        raise bad("'format'", f"is {json.dumps(version)[:40]}, not an integer")
    if version > FORMAT:
        raise NewerFormatError(path, f"baseline file {path} has format {version}, written by a newer "
                                     f"pytest-bytecount; this one reads format {FORMAT}. Upgrade pytest-bytecount "
                                     f"(the file is left as it is; --bytecount-update would rewrite it in format "
                                     f"{FORMAT}, keeping a copy of the current file in {REPLACED_COPIES})",
                               f"baseline file {path} has format {version}, written by a newer pytest-bytecount")
    if version < 1:
        raise bad("'format'", f"is {version}; formats start at 1")
    if "tests" not in data:
        raise bad("the top level", "has no 'tests' key")
    tests = data["tests"]
    if not isinstance(tests, dict):
        raise bad("'tests'", "must be an object")
    return tests


def _entry_problems(key: str, entry) -> list:
    """Every problem of one test's entry (``tests[key]``), each naming where it is; none for a sound entry."""
    where = f"tests[{_short(key)}]"
    if not isinstance(entry, dict):
        return [f"{where} must be an object"]
    if "methods" not in entry:
        return [f"{where} has no 'methods' key"]
    if not isinstance(entry["methods"], dict):
        return [f"{where}.methods must be an object"]
    out = []
    if "mode" in entry and entry["mode"] not in MODES:
        out.append(f"{where}.mode is {entry['mode']!r}; known: {', '.join(repr(m) for m in MODES)}")
    for method, counts in entry["methods"].items():
        mwhere = f"{where}.methods[{_short(method)}]"
        if not isinstance(counts, dict):
            out.append(f"{mwhere} must be an object")
            continue
        for metric in REQUIRED_SCALARS:
            if metric not in counts:
                out.append(f"{mwhere} has no '{metric}' key")
            elif _count_problem(counts[metric]):
                out.append(f"{mwhere}.{metric} {_count_problem(counts[metric])}")
        for table in TABLES:
            if table not in counts:
                continue
            if not isinstance(counts[table], dict):
                out.append(f"{mwhere}.{table} must be an object")
                continue
            problems = ((name, _count_problem(value)) for name, value in counts[table].items())
            out += [f"{mwhere}.{table}[{_short(name)}] {problem}" for name, problem in problems if problem]
        if "inclusive" in counts:
            inclusive = counts["inclusive"]
            if not isinstance(inclusive, dict):
                out.append(f"{mwhere}.inclusive must be an object")
            elif _count_problem(inclusive.get("total")):
                out.append(f"{mwhere}.inclusive.total {_count_problem(inclusive.get('total'))}")
        for name in ("code_fingerprint", "bytecode_sha256"):  # the raw bytes' hash, in older baselines
            if name in counts and not isinstance(counts[name], str):
                out.append(f"{mwhere}.{name} must be a string")
        digests = counts.get("line_digests")
        if digests is not None and not (isinstance(digests, dict) and all(isinstance(v, str) for v in digests.values())):
            out.append(f"{mwhere}.line_digests must be an object of strings")
    return out


class BrokenEntry(BaselineError):
    """One test's entry of a baseline file that cannot be used: only that test fails."""


class ConflictedEntry(BrokenEntry):
    """An entry a git merge could not decide (:mod:`.merge`): its test fails until it is re-recorded."""


RERECORD_CONFLICTED = "pytest --bytecount-update=conflicted"


@dataclass
class BaselineFile:
    path: Path
    tests: dict = field(default_factory=dict)  # test key -> {"jvm", "plugin", "methods": {...}}
    exists: bool = False
    _text: Optional[bytes] = field(default=None, repr=False)  # what was read or written last
    _chunks: dict = field(default_factory=dict, repr=False)  # test key -> (entry, rendered text)
    broken: dict = field(default_factory=dict)  # test key -> its entry's problems (kept in the file as they are)
    conflicted: dict = field(default_factory=dict)  # test key -> why a merge could not decide its entry
    markers: bool = False  # read from a file with git's conflict markers (rewritten without them by an update)

    @classmethod
    def load(cls, path: Path) -> "BaselineFile":
        path = Path(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls(path)
        except OSError as e:
            raise BaselineError(path, f"baseline file {path} cannot be read: {e}") from None
        return cls.parse(path, raw)

    @classmethod
    def parse(cls, path: Path, raw: bytes) -> "BaselineFile":
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            merged = cls._merged_sides(path, raw)
            if merged is not None:
                return merged
            text = f"baseline file {path} is not valid JSON ({e})"
            raise BaselineError(path, f"{text}; fix it by hand, or {_RERECORD}", text) from None
        tests = _check(path, data)
        broken = {key: problems for key, entry in tests.items() if (problems := _entry_problems(key, entry))}
        conflicted = {key: str(entry[CONFLICTED]) for key, entry in tests.items()
                      if key not in broken and CONFLICTED in entry}
        return cls(path, tests, True, raw, broken=broken, conflicted=conflicted)

    @classmethod
    def _merged_sides(cls, path: Path, raw: bytes) -> Optional["BaselineFile"]:
        """A file git left with conflict markers, read as the merge of its sides (:func:`~.merge.conflict_sides`):
        the entries both sides agree on, or that one side alone holds, and those they hold differently marked
        conflicted. None when ``raw`` holds no conflict markers."""
        sides = conflict_sides(raw.decode("utf-8", errors="replace"))
        if sides is None:
            return None

        def sound(key, entry) -> bool:
            return not _entry_problems(key, entry)

        ours, base, theirs = (None if side is None else readable_entries(side.encode("utf-8"), sound)[0]
                              for side in sides)
        tests, keys = three_way(base, ours, theirs, MARKERS_LEFT)
        return cls(path, tests, True, raw, conflicted={key: MARKERS_LEFT for key in keys}, markers=True)

    def is_conflicted(self, test_key: str) -> bool:
        return test_key in self.conflicted

    def mode(self, test_key: str) -> Optional[str]:
        """How the test's stored counts were made: ``"in-place"``, or None (in the test's own class loader)."""
        return None if test_key in self.broken else (self.tests.get(test_key) or {}).get("mode")

    def deep_runtime(self, test_key: str) -> Optional[dict]:
        """The runtime the test's stored deep counts were taken on (version, vendor, class library), if any."""
        return None if test_key in self.broken else (self.tests.get(test_key) or {}).get("deep_runtime")

    def entry(self, test_key: str) -> Optional[dict]:
        """The test's whole entry (None: none, or a broken or conflicted one)."""
        return None if test_key in self.broken or test_key in self.conflicted else self.tests.get(test_key)

    def get(self, test_key: str) -> Optional[dict]:
        """The test's stored counts (None: no entry); :class:`BrokenEntry` naming every problem of its entry,
        and the file's other broken entries, when it cannot be used."""
        if test_key in self.broken:
            others = sorted(k for k in self.broken if k != test_key)
            also = f" (the file's other broken entries: {', '.join(_short(k) for k in others)})" if others else ""
            text = f"baseline file {self.path}: " + "; ".join(self.broken[test_key]) + also
            raise BrokenEntry(self.path, f"{text}; fix it by hand, or re-record it with the command below", text)
        if test_key in self.conflicted:
            raise ConflictedEntry(self.path, self._conflict_text(test_key))
        entry = self.tests.get(test_key)
        return None if entry is None else entry["methods"]

    def _conflict_text(self, test_key: str) -> str:
        others = len(self.conflicted) - 1
        also = f" (and {others} more of its entries)" if others else ""
        how = ("git left its conflict markers in the file (no merge driver ran): the entries both sides agree on are "
               "read as they are" if self.markers else "the merge driver kept one side's counts, marked")
        return (f"baseline file {self.path}: the entry of {_short(test_key)}{also} was {self.conflicted[test_key]}, "
                f"and neither side's counts are the merged code's; {how}. Re-record it (the command below), or "
                f"every conflicted entry with: {RERECORD_CONFLICTED}")

    def render(self) -> str:
        """``json.dumps({"format": FORMAT, "tests": tests}, indent=2, sort_keys=True, ensure_ascii=False)``
        plus a newline, with each test's text kept between writes (a file is rewritten after every test)."""
        if not self.tests:
            return '{\n  "format": %d,\n  "tests": {}\n}\n' % FORMAT
        parts = []
        for key in sorted(self.tests):
            entry = self.tests[key]
            cached = self._chunks.get(key)
            if cached is None or cached[0] is not entry:
                body = json.dumps(entry, indent=2, sort_keys=True, ensure_ascii=False).replace("\n", "\n    ")
                cached = self._chunks[key] = (entry, f"    {json.dumps(key, ensure_ascii=False)}: {body}")
            parts.append(cached[1])
        return '{\n  "format": %d,\n  "tests": {\n%s\n  }\n}\n' % (FORMAT, ",\n".join(parts))

    def save(self) -> None:
        """Write atomically (:func:`write_atomically`). Call it under :func:`folder_lock` (as :func:`update`
        does) when other processes may write the same folder."""
        data = self.render().encode("utf-8")
        write_atomically(self.path, data)
        self.exists = True
        self._text = data


def write_atomically(path: Path, data: bytes) -> None:
    """Temporary file in the same folder, fsync, rename over ``path``, fsync the folder: readers and a
    process killed at any point see the old file or the new one. The mode of an existing file is kept."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _file_mode(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=_TMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):  # mkstemp makes it owner-only
                os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def _file_mode(path: Path) -> int:
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)  # the only way to read it; set straight back
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - not possible on Windows; the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse fsync on a directory
        pass
    finally:
        os.close(fd)


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on the baseline folder: an ``flock`` of the folder itself, or, where a
    filesystem refuses that, of a ``.bytecount.lock`` file in it. Blocks until other writers are done."""
    folder = Path(folder)
    if fcntl is None:  # pragma: no cover
        folder.mkdir(parents=True, exist_ok=True)
        yield
        return
    fd = _locked(folder)
    try:
        yield
    finally:
        os.close(fd)  # releases the lock


def _locked(folder: Path) -> int:
    """A descriptor holding the folder's lock. An emptied folder is removed under its lock (see
    :mod:`pytest_bytecount.regression.stale`): a writer that waited for it then holds the lock of a folder that is
    gone, which excludes nobody, so it makes the folder anew and locks that one."""
    while True:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # pragma: no cover - e.g. a network filesystem without flock on directories
            os.close(fd)
            fd = os.open(folder / ".bytecount.lock", os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(fd)
                raise
            return fd  # a folder holding the lock file is never empty, so never removed
        try:
            if os.path.samestat(os.fstat(fd), os.stat(folder)):
                return fd
        except OSError:  # removed, and not made anew yet
            pass
        os.close(fd)


def _remove_orphans(folder: Path) -> None:
    """Temporary files of writers killed mid-write; only called under the folder lock."""
    for tmp in folder.glob(f".*.json.*{_TMP_SUFFIX}"):
        try:
            tmp.unlink()
        except OSError:
            pass


def _copy_path(path: Path, folder: Path) -> Path:
    """A free name in ``folder`` for a copy of ``path``: its name, then ``<name>.1``, ``<name>.2``, ..."""
    candidate = folder / path.name
    n = 1
    while candidate.exists():
        candidate = folder / f"{path.name}.{n}"
        n += 1
    return candidate


@dataclass
class Update:
    baseline: BaselineFile  # the file as written (or as found, when nothing changed)
    written: bool
    backup: Optional[Path] = None  # where an unreadable file was kept before it was replaced
    replaced_error: Optional[BaselineError] = None
    lost: list = field(default_factory=list)  # the keys of a replaced file's entries that could not be kept
    kept: list = field(default_factory=list)  # the keys of those it kept


def update(path: Path, change: Callable[[BaselineFile], bool], previous: Optional[BaselineFile] = None,
           replace_unreadable: bool = False, keep_copy_in: Optional[Callable[[], Path]] = None) -> Update:
    """Apply ``change`` (returns whether it changed anything) to the file as it is on disk now, under the
    folder lock, and write the result if it changed.

    ``previous`` is a view this process read or wrote before; it is reused when the file still holds
    exactly its bytes, so a series of updates does not re-parse the file each time. An unreadable file
    raises :class:`BaselineError`, unless ``replace_unreadable``: then it is copied into the folder
    ``keep_copy_in()`` gives (when given) and replaced, keeping every entry it still holds that reads as sound
    (:func:`~.salvage.readable_entries`).
    """
    path = Path(path)
    with folder_lock(path.parent):
        _remove_orphans(path.parent)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raw = None
        except OSError as e:
            raise BaselineError(path, f"baseline file {path} cannot be read: {e}") from None
        backup = replaced = None
        lost: list = []
        kept: dict = {}
        if raw is None:
            current = BaselineFile(path)
        elif previous is not None and previous._text == raw:
            current = previous
        else:
            try:
                current = BaselineFile.parse(path, raw)
            except BaselineError as e:
                if not replace_unreadable:
                    raise
                replaced = e
                if keep_copy_in is not None:
                    folder = keep_copy_in()
                    folder.mkdir(parents=True, exist_ok=True)
                    backup = _copy_path(path, folder)
                    shutil.copy2(path, backup)
                kept, lost = readable_entries(raw, lambda key, entry: not _entry_problems(key, entry))
                current = BaselineFile(path, kept, exists=True)
        written = change(current) or replaced is not None
        if written:
            current.save()
        return Update(current, written, backup, replaced, lost, sorted(kept))
