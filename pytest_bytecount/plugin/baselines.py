"""A session's baseline files: where each test's lives, the files as read, updates under the folder lock,
and the stale ones (entries of tests that no longer exist, files of deleted test modules)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import pytest

from ..regression.baseline import BaselineError, BaselineFile, update
from ..regression.compare import that_ran
from ..regression.results import TestResult
from ..regression.scaling import baseline_entry
from ..regression.git import Commit, GitError, relative, resolve, show, toplevel
from ..regression.tree_store import kept_from, read_kept, trees_path, update_trees
from ..regression.stale import (Prune, is_full_run, remove as remove_stale_file, run_directories, stale_files,
                                still_collected)
from .config import Settings
from .project_cache import project_cache
from ..wording import counted


def _remove(tests: dict, keys) -> bool:
    gone = [k for k in keys if k in tests]
    for k in gone:
        del tests[k]
    return bool(gone)


class Baselines:
    """The baseline files one session reads and writes, and what it says about them at the end."""

    def __init__(self, config, settings: Callable[[], Settings], updating: Optional[str]):
        self._config = config
        self._settings = settings
        self._updating = updating  # None, "all", "new" or "conflicted"
        self._files: dict = {}  # baseline path -> BaselineFile as first read
        self._views: dict = {}  # baseline path -> the BaselineFile this process last wrote
        self.counted_tests = False  # whether this process collected a marked test
        self.notes: list = []  # unreadable baseline files replaced, and where their copies went
        self.unwritten: dict = {}  # baseline path -> why it could not be written (the first OS error)
        self.unremoved: dict = {}  # baseline path -> stale keys that could not be removed
        self.written: set = set()  # baseline files written this session
        self.stale: dict = {}  # baseline path -> keys of tests that no longer exist (full runs only)
        self.stale_files: list = []  # stale.StaleFile: baseline files of deleted test modules
        self.removed_files: set = set()  # stale baseline files removed this session
        self._trees: dict = {}  # baseline path -> the calling-context trees kept beside it, as first read
        self.ref: Optional[CompareRef] = None  # --bytecount-compare-ref: the commit whose baselines are compared with

    # --- where, and what is stored ------------------------------------------------------------------------
    def path(self, item) -> Path:
        return self.path_for(Path(item.path))

    def path_for(self, test_file: Path) -> Path:
        s = self._settings()
        if s.baseline_dir is not None:
            try:
                rel = test_file.relative_to(Path(self._config.rootpath))
            except ValueError:
                rel = Path(test_file.name)
            return Path(s.baseline_dir) / rel.with_suffix(".json")
        return test_file.parent / "bytecount" / f"{test_file.stem}.json"

    def load(self, path: Path) -> BaselineFile:
        """The file the verdicts compare with: as on disk, or as committed at :attr:`ref`."""
        b = self._files.get(path)
        if b is None:
            b = self._files[path] = BaselineFile.load(path) if self.ref is None else self.ref.load(path)
        return b

    def ref_described(self) -> Optional[dict]:
        """``{"ref", "commit", "short", "date", "subject"}`` of :attr:`ref`, or None."""
        return None if self.ref is None else {"ref": self.ref.name, **self.ref.commit.to_dict()}

    def trees(self, path: Path, key: str) -> dict:
        """``{method id: tree dict}`` kept for the test ``key`` beside the baseline ``path`` ({} if none)."""
        entry = self._kept(path)[0].get(key)
        return entry if isinstance(entry, dict) else {}

    def code(self, path: Path, key: str) -> dict:
        """``{method id: code fingerprint}`` of the application callees kept for the test ``key`` ({} if none)."""
        entry = self._kept(path)[1].get(key)
        return {m: f for m, f in entry.items() if isinstance(f, str)} if isinstance(entry, dict) else {}

    def _kept(self, path: Path) -> tuple:
        kept = self._trees.get(path)
        if kept is None:
            kept = self._trees[path] = read_kept(path) if self.ref is None else self.ref.kept(path)
        return kept

    # --- which tests exist ----------------------------------------------------------------------------------
    def collect(self, items) -> None:
        self.counted_tests = self.counted_tests or bool(items)

    # --- writing ----------------------------------------------------------------------------------------------
    def record(self, r: TestResult) -> Optional[bool]:
        """Write the test's baseline entry (only the methods that ran): whether the file changed, or None when
        it could not be written (:attr:`unwritten` says why)."""
        path, key = Path(r.baseline), r.key
        entry = {"jvm": r.jvm, "plugin": r.plugin, "methods": that_ran(r.counts)}
        if r.mode is not None:
            entry["mode"] = r.mode
        if r.deep_runtime is not None:
            entry["deep_runtime"] = r.deep_runtime
        if r.scaling:
            entry["scaling"] = baseline_entry(r.scaling)

        holds = []  # whether the file holds this run's entry now (its trees are kept with it)

        def change(b: BaselineFile) -> bool:
            holds[:] = [False]
            stored = b.entry(key)  # a broken entry is replaced, as a missing one is added
            if stored == entry:
                holds[0] = True
                return False
            if self._updating == "conflicted" and not b.is_conflicted(key):
                return False  # only the entries a merge could not decide
            if self._updating == "new" and stored is not None:
                if "scaling" not in entry or "scaling" in stored:
                    return False
                b.tests[key] = {**stored, "scaling": entry["scaling"]}  # only the missing complexity check
                return True
            b.tests[key] = entry
            b.broken.pop(key, None)
            b.conflicted.pop(key, None)
            holds[0] = True
            return True

        written = self._update(path, change)
        if written is not None and holds and holds[0] and (r.trees or r.callee_code or trees_path(path).exists()):
            self._keep_trees(path, {key: r.trees} if r.trees else {}, [key],
                             {key: r.callee_code} if r.callee_code else {})
        return written

    def _keep_trees(self, path: Path, trees: dict, keys, code: Optional[dict] = None) -> None:
        """The kept trees (and callees' code fingerprints) of ``keys`` replaced by ``trees`` and ``code`` (a key they
        lack loses its own)."""
        code = code or {}

        def change(tests: dict, fingerprints: dict) -> bool:
            before = {k: (tests.get(k), fingerprints.get(k)) for k in keys}
            for k in keys:
                tests.pop(k, None)
                fingerprints.pop(k, None)
            tests.update(trees)
            fingerprints.update(code)
            return any((tests.get(k), fingerprints.get(k)) != before[k] for k in keys)

        try:
            update_trees(path, change)
        except OSError as e:
            self.unwritten.setdefault(trees_path(path), str(e))

    def _update(self, path: Path, change) -> Optional[bool]:
        """Apply ``change`` to the baseline file under its folder's lock: whether the file was written, or
        None when it could not be (the error is kept in :attr:`unwritten`)."""
        try:
            done = update(path, change, self._views.get(path), replace_unreadable=True, keep_copy_in=self._copies)
        except (BaselineError, OSError) as e:
            self.unwritten.setdefault(path, str(e))
            return None
        self._views[path] = done.baseline
        if done.written:
            self.written.add(path)
        if done.replaced_error is not None:
            kept = f"the {counted(len(done.kept), 'entry', 'entries')} it still held that read as sound" if done.kept \
                else "none of its entries"
            lost = f" (not kept, to re-record: {', '.join(done.lost)})" if done.lost else ""
            copy = f", and a copy of it is in {done.backup}" if done.backup is not None else ""
            self.notes.append(f"{path} could not be read ({done.replaced_error.problem}); it was replaced, keeping "
                              f"{kept}{lost}{copy}")
        return done.written

    def _copies(self) -> Path:
        """Where the copy of an unreadable baseline goes before it is replaced: the project's cache folder,
        which version control ignores (never beside the baselines)."""
        return project_cache(self._settings().root) / "replaced"

    # --- stale baselines, at the end of the session ---------------------------------------------------------
    def find_stale(self, configured: Callable[[], bool], modules: dict) -> None:
        """``configured``: whether the project uses pytest-bytecount (no walk over its folders if not);
        ``modules``: ``{module path: [test keys]}`` of the modules collected in full (:mod:`.collection`)."""
        in_use = lru_cache(maxsize=None)(lambda: self.counted_tests or configured())  # asked at most once
        self.stale = self._stale_entries(in_use, modules)
        self.stale_files = self._stale_files(in_use)

    def remove_stale(self) -> None:
        for path, keys in self.stale.items():
            if self._update(path, lambda b, keys=keys: _remove(b.tests, keys)) is None:
                self.unremoved[path] = keys
            elif trees_path(path).exists():
                self._keep_trees(path, {}, keys)
        for stale in self.stale_files:
            self._remove_stale_file(stale)

    def full_run(self) -> bool:
        option = self._config.option
        return is_full_run(self._config.args, option.keyword, option.markexpr)

    def _stale_entries(self, in_use: Callable[[], bool], modules: dict) -> dict:
        """Baseline entries whose tests are proven gone: missing from a module collected in full. A test a
        narrowed run left out (``-k``, ``--lf``, a plugin, ...) is still in its module's collection."""
        stale = {}
        try:
            if not modules or not in_use():
                return stale
            paths = {module: self.path_for(Path(module)) for module in modules}
        except pytest.UsageError:
            return stale  # the settings' problem is reported where they were needed
        for module, keys in sorted(modules.items()):
            path = paths[module]
            if not path.is_file():
                continue
            try:
                b = BaselineFile.load(path)  # as it is now, with this session's updates
            except BaselineError:
                continue
            collected = set(keys)
            gone = sorted(k for k in b.tests if not still_collected(k, collected))
            if gone:
                stale[path] = gone
        return stale

    def _stale_files(self, in_use: Callable[[], bool]) -> list:
        """Baseline files of test modules deleted from disk, on a full run, in the directories it covers.
        Found from the filesystem and the run's paths, which the xdist controller has too."""
        config = self._config
        if not self.full_run():
            return []
        try:
            if not in_use():
                return []  # a project that does not use the plugin: no walk over its folders
            baseline_dir = self._settings().baseline_dir
        except pytest.UsageError:
            return []  # the settings' problem is reported where they were needed
        directories = run_directories(config.args, config.invocation_params.dir)
        prune = Prune(tuple(config.getini("norecursedirs")))
        return stale_files(Path(config.rootpath), directories, baseline_dir, prune)

    def _remove_stale_file(self, stale) -> None:
        try:
            # the default layout's bytecount/ folder goes with its last file; a baseline-dir tree stays
            removed = remove_stale_file(stale, remove_empty_folder=self._settings().baseline_dir is None)
        except OSError as e:
            self.unwritten.setdefault(stale.baseline, f"the stale file could not be removed: {e}")
            return
        if removed:
            self.removed_files.add(stale.baseline)
            try:  # its trees go with it, and then the folder the trees file kept
                trees_path(stale.baseline).unlink()
                if self._settings().baseline_dir is None:
                    stale.baseline.parent.rmdir()
            except OSError:
                pass


class CompareRef:
    """``--bytecount-compare-ref=REF``: the baseline files as committed at REF, read with ``git cat-file`` (no
    checkout, the work tree untouched). A file REF lacks holds no entries, so its tests are new. Updates still write
    the work tree's files: REF's are never written."""

    def __init__(self, name: str, repo: Path, commit: Commit):
        self.name, self.repo, self.commit = name, repo, commit

    @classmethod
    def open(cls, name: str, root: Path) -> "CompareRef":
        """REF resolved in the repository that holds ``root``; a :class:`pytest.UsageError` in one line when the
        project is not in git or REF names no commit."""
        try:
            repo = toplevel(root)
            return cls(name, repo, resolve(repo, name))
        except GitError as e:
            raise pytest.UsageError(f"bytecount: --bytecount-compare-ref={name}: {e}") from None

    def label(self, path: Path) -> str:
        return f"{self.name}:{relative(self.repo, path)}"

    def _bytes(self, path: Path) -> Optional[bytes]:
        try:
            return show(self.repo, self.commit.sha, path)
        except GitError as e:
            raise BaselineError(path, f"baseline file {path} at {self.name} ({self.commit.short}): {e}") from None

    def load(self, path: Path) -> BaselineFile:
        raw = self._bytes(path)
        if raw is None:
            return BaselineFile(Path(path))
        return BaselineFile.parse(Path(self.label(path)), raw)

    def kept(self, path: Path) -> tuple:
        try:
            return kept_from(show(self.repo, self.commit.sha, trees_path(path)))
        except GitError:
            return {}, {}
