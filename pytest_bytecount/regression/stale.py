"""Stale baseline files: the file of a test module that no longer exists on disk.

Only a full run looks for them (no node ids, no ``-k``, no ``-m``), and only in the directories the run
covers: a file whose module is outside them, or was merely ignored, skipped, deselected or failed to
import, is never stale, because the rule is that the module *file* is gone. The search uses the
filesystem and the run's arguments only, not what was collected, so the xdist controller (which
collects nothing) finds the same files. Where the walk goes follows pytest's own recursion (hidden
folders, ``norecursedirs``, virtual environments are skipped), so it stays as cheap as collection.

Layouts (see ``plugin.baselines.Baselines.path_for``): by default ``<dir>/bytecount/<stem>.json`` belongs
to ``<dir>/<stem>.py``; with ``baseline-dir``, ``<baseline-dir>/<rel>.json`` to ``<rootdir>/<rel>.py``.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Sequence, Set

from .baseline import BaselineError, BaselineFile, _fsync_dir, folder_lock

FOLDER = "bytecount"  # the default layout's folder next to the test modules


@dataclass(frozen=True)
class StaleFile:
    baseline: Path
    module: Path  # the test module it belonged to, which no longer exists


@dataclass(frozen=True)
class Prune:
    """The directories pytest does not recurse into, so no test module (and no baseline of one) is
    looked for there: hidden ones, ``__pycache__``, the ``norecursedirs`` patterns, virtual environments."""

    norecursedirs: Sequence[str] = ()

    def skips(self, directory: Path) -> bool:
        name = directory.name
        return (name.startswith(".") or name == "__pycache__"
                or any(_matches(pattern, directory) for pattern in self.norecursedirs)
                or _is_venv(directory))


def _matches(pattern: str, directory: Path) -> bool:
    """pytest's ``fnmatch_ex``: a pattern without a separator matches the name, one with a separator
    the end of the whole path."""
    if os.sep not in pattern and "/" not in pattern:
        return fnmatch.fnmatch(directory.name, pattern)
    pattern = pattern.replace("/", os.sep)
    if not os.path.isabs(pattern):
        pattern = f"*{os.sep}{pattern}"
    return fnmatch.fnmatch(str(directory), pattern)


def _is_venv(directory: Path) -> bool:
    try:
        return (directory / "pyvenv.cfg").is_file() or (directory / "conda-meta" / "history").is_file()
    except OSError:
        return False


def _split(key: str) -> tuple:
    """``(stem, ids)`` of a test key: ``("TestA::test_b", "10-x")`` for ``TestA::test_b[10-x]``, ids None
    when the test has no parameters."""
    last = key.rsplit("::", 1)[-1]
    at = last.find("[")
    if at < 0 or not last.endswith("]"):
        return key, None
    cut = len(key) - len(last) + at
    return key[:cut], key[cut + 1:-1]


def still_collected(stored: str, collected: Set[str]) -> bool:
    """Whether the test of a stored key still exists among the collected keys: as it is, or with parameters
    added before or after its own (a plugin's repetitions, a new ``parametrize``): ``test_a`` by ``test_a[3]``,
    ``test_a[10]`` by ``test_a[10-1-3]`` or ``test_a[x-10]``. An update never deletes the entry of a test that still
    runs."""
    if stored in collected:
        return True
    stem, ids = _split(stored)
    for key in collected:
        other_stem, other_ids = _split(key)
        if other_stem != stem or other_ids is None:
            continue
        if ids is None or other_ids.startswith(f"{ids}-") or other_ids.endswith(f"-{ids}"):
            return True  # a parameter added before the others (flakefinder) or after them (pytest-repeat)
    return False


def is_full_run(args: Sequence[str], keyword: str, markexpr: str) -> bool:
    """A run that collects every test of the paths it names: no node ids, no ``-k``, no ``-m``."""
    return not any("::" in a for a in args) and not keyword and not markexpr


def run_directories(args: Sequence[str], invocation_dir: Path) -> List[Path]:
    """The directories among the run's paths (``config.args``: those given, else testpaths or the
    invocation directory). A file covers no other module, so it covers no stale file."""
    paths = (Path(invocation_dir) / a for a in args)  # an absolute argument stays as it is
    return [p for p in paths if p.is_dir()]


def stale_files(rootdir: Path, directories: Iterable[Path], baseline_dir: Optional[Path],
                prune: Prune) -> List[StaleFile]:
    """The baseline files, under ``directories``, of test modules that no longer exist."""
    found = {}
    for directory in directories:
        # absolute as pytest makes paths (symlinks kept), so that they compare with the rootdir
        directory = Path(os.path.abspath(directory))
        for candidate in _candidates(Path(os.path.abspath(rootdir)), directory, baseline_dir, prune):
            if candidate.baseline not in found and _is_stale(candidate):
                found[candidate.baseline] = candidate
    return [found[path] for path in sorted(found)]


def _candidates(rootdir: Path, directory: Path, baseline_dir: Optional[Path], prune: Prune) -> Iterator[StaleFile]:
    """Each JSON file where a baseline of a module under ``directory`` would be, with that module."""
    if baseline_dir is None:
        for module_dir in _walk(directory, directory, prune):
            folder = module_dir / FOLDER
            if folder.is_dir():
                for path in folder.glob("*.json"):
                    yield StaleFile(path, module_dir / (path.name[:-len(".json")] + ".py"))
        return
    try:
        rel = directory.relative_to(rootdir)
    except ValueError:
        return  # a module outside the rootdir has its baseline by name only: no directory maps to it
    top = Path(baseline_dir) / rel
    for folder in _walk(top, directory, prune):
        module_dir = directory / folder.relative_to(top)
        for path in folder.glob("*.json"):
            yield StaleFile(path, module_dir / (path.name[:-len(".json")] + ".py"))


def _walk(top: Path, modules: Path, prune: Prune) -> Iterator[Path]:
    """``top`` and the folders under it, skipping those whose counterpart under ``modules`` (the same
    folder in the default layout, the test-module folder it mirrors with baseline-dir) pytest skips."""
    for current, dirnames, _ in os.walk(top):
        current = Path(current)
        counterpart = modules / current.relative_to(top)
        dirnames[:] = [d for d in dirnames if not prune.skips(counterpart / d)]
        yield current


def _is_stale(candidate: StaleFile) -> bool:
    """The module is gone and the file is a real baseline: any other JSON file is not ours to report."""
    if candidate.module.exists() or not candidate.baseline.is_file():
        return False
    try:
        return BaselineFile.load(candidate.baseline).exists
    except BaselineError:
        return False


def remove(stale: StaleFile, remove_empty_folder: bool) -> bool:
    """Remove the file under its folder's lock, as other writes are, if it is still stale then (the
    module may be back, or another process may have removed it); the folder goes too when that leaves it
    empty and ``remove_empty_folder``. Whether the file was removed; an OSError if it could not be."""
    folder = stale.baseline.parent
    if not folder.is_dir():
        return False  # gone already: do not make it anew only to lock it
    with folder_lock(folder):
        removed = _is_stale(stale)
        if removed:
            stale.baseline.unlink()
            _fsync_dir(folder)
        if remove_empty_folder:
            try:
                folder.rmdir()  # only when empty; a writer waiting for the lock makes it anew
            except OSError:
                pass
    return removed
