"""The calling-context trees the ``flamegraph`` and ``tree`` commands read, from any file the plugin writes:

- a ``--bytecount-json`` results file: each test's trees of that run, and those kept with the baseline it was
  compared with;
- a baseline file (``bytecount/test_x.json``), whose trees are kept beside it (``test_x.trees.json.gz``), or that
  trees file itself;
- a folder: every trees file under it.

Each test read is ``{"trees": {method: tree dict}, "baseline_trees": {...} or None}``, the shape of a result in the
results file, so the pictures and exports of the HTML report and ``--bytecount-profiles`` apply as they are.
A second input (``--against``) gives each test's trees to compare with, in place of the ones its baseline kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from .tree_store import SUFFIX, read_trees, trees_path


class TreeInputError(ValueError):
    """An input that holds no trees, or is no file the plugin writes; the message says which and why."""


def _baseline_tests(counts_file: Path, label: str) -> dict:
    path = trees_path(counts_file)
    if not path.exists():
        raise TreeInputError(f"{label}: no trees are kept beside it ({path.name} is missing): a baseline recorded "
                             f"with deep counts keeps them; re-record it with --bytecount-update")
    kept = read_trees(counts_file)
    if not kept:
        raise TreeInputError(f"{path}: not a trees file the plugin wrote (or it holds no trees)")
    name = counts_file.name
    return {f"{label}::{key}": {"trees": trees, "baseline_trees": None, "match": (name, key)}
            for key, trees in sorted(kept.items()) if trees}


def _counts_file_of(trees_file: Path) -> Path:
    return trees_file.with_name(trees_file.name[:-len(SUFFIX)] + ".json")


def _results_tests(data: dict, label: str) -> dict:
    out = {}
    for nodeid, r in sorted(data.items()):
        if r.get("trees") or r.get("baseline_trees"):
            match = (Path(r["baseline"]).name, r.get("key")) if r.get("baseline") and r.get("key") else (None, nodeid)
            out[nodeid] = {"trees": r.get("trees") or {}, "baseline_trees": r.get("baseline_trees") or None,
                           "match": match}
    if not out:
        raise TreeInputError(f"{label}: no test in it has trees: they come with deep counts (the default), so this "
                             f"run's tests took flat counts only (deep=False, or a JVM that cannot take deep counts)")
    return out


def read_inputs(name: str) -> dict:
    """``{test label: {"trees", "baseline_trees", "match"}}`` of one input (a file or folder named ``name``), in
    label order; TreeInputError when it holds none. ``match`` pairs the tests of two inputs: the baseline file's
    name and the test's key."""
    path = Path(name)
    if path.is_dir():
        found = sorted(path.rglob("*" + SUFFIX))
        if not found:
            raise TreeInputError(f"{name}: no trees files ({'*' + SUFFIX}) under this folder: deep baselines keep "
                                 f"them beside each bytecount/test_x.json")
        out = {}
        for f in found:
            counts = _counts_file_of(f)
            out.update(_baseline_tests(counts, str(counts.relative_to(path.parent) if path.parent != path else counts)))
        return out
    if not path.exists():
        raise TreeInputError(f"{name}: no such file or folder")
    if path.name.endswith(SUFFIX):
        counts = _counts_file_of(path)
        return _baseline_tests(counts, str(counts))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise TreeInputError(f"{name}: not a JSON file the plugin writes ({e})") from None
    if isinstance(data, dict) and data.get("format") is not None and isinstance(data.get("tests"), dict):
        return _baseline_tests(path, str(path))
    if isinstance(data, dict) and data and all(isinstance(r, dict) and "counts" in r for r in data.values()):
        return _results_tests(data, name)
    raise TreeInputError(f"{name}: expected a --bytecount-json results file, a baseline file (bytecount/test_x.json), "
                         f"its trees file (test_x{SUFFIX}) or a folder of them")


def against(tests: dict, older: dict) -> dict:
    """``tests`` with each one's baseline trees taken from ``older`` (``read_inputs``' shape): its trees for the
    same test (by node id, else by baseline file name and key). A test that ``older`` lacks has none."""
    by_match = {t["match"]: t for t in older.values()}
    out = {}
    for label, t in tests.items():
        old = older.get(label) or by_match.get(t["match"])
        out[label] = {**t, "baseline_trees": (old or {}).get("trees") or None}
    return out


def chosen(tests: dict, test: Optional[str]) -> dict:
    """The tests named by ``test`` (a label, a node id's end after ``::``, or a key); all of them when None.
    TreeInputError naming the tests when none matches."""
    if test is None:
        return tests
    exact = {label: t for label, t in tests.items() if label == test or label.endswith("::" + test)}
    key = test.rsplit("::", 1)[-1]
    picked = exact or {label: t for label, t in tests.items() if label.rsplit("::", 1)[-1] == key}
    if not picked:
        shown = ", ".join(list(tests)[:10]) + (", ..." if len(tests) > 10 else "")
        raise TreeInputError(f"no test {test!r} has trees here; the tests with trees: {shown}")
    return picked
