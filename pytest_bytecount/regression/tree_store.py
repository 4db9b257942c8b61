"""The calling-context trees kept with a baseline file: ``bytecount/test_x.trees.json.gz`` beside
``bytecount/test_x.json``, so that a failing test shows where its work moved without running the old code again.

The file is gzip'd JSON (``{"format": 1, "tests": {test key: {method id: tree}}, "code": {test key: {method id:
fingerprint}}}``, trees in ``CallTree.to_dict``'s shape; ``code`` holds the code fingerprints of the application
methods the test's work ran through, :mod:`~..counting.pipeline.fingerprints`), written with no timestamp and sorted keys, so identical trees give identical bytes.
It is kept out of the reviewable counts file: it is an aid to reading a verdict, never part of one. A tree file that
is missing or cannot be read holds no trees; the verdict is the same, without its paths.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Callable, Optional

from .baseline import folder_lock, write_atomically

SUFFIX = ".trees.json.gz"
FORMAT = 1


def trees_path(baseline: Path) -> Path:
    baseline = Path(baseline)
    return baseline.with_name(baseline.stem + SUFFIX)


def read_kept(baseline: Path) -> tuple:
    """``({test key: {method id: tree dict}}, {test key: {method id: fingerprint}})`` kept beside ``baseline`` (empty
    when there is none, or it cannot be read)."""
    try:
        raw = trees_path(baseline).read_bytes()
    except OSError:
        return {}, {}
    return kept_from(raw)


def kept_from(raw: Optional[bytes]) -> tuple:
    """:func:`read_kept` of a trees file's bytes (read from git, say; None: no file)."""
    try:
        data = json.loads(gzip.decompress(raw)) if raw is not None else None
    except (OSError, EOFError, ValueError):
        return {}, {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}, {}
    tests, code = data.get("tests"), data.get("code")
    return (tests if isinstance(tests, dict) else {}), (code if isinstance(code, dict) else {})


def read_trees(baseline: Path) -> dict:
    """``{test key: {method id: tree dict}}`` kept beside ``baseline`` ({} when there is none, or it cannot be read)."""
    return read_kept(baseline)[0]


def encode(tests: dict, code: Optional[dict] = None) -> bytes:
    data = {"format": FORMAT, "tests": tests}
    if code:
        data["code"] = code
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def update_trees(baseline: Path, change: Callable[[dict, dict], bool]) -> bool:
    """Apply ``change`` to the kept trees and code fingerprints (``change(tests, code)``) under the baseline folder's
    lock; the file goes when nothing is left in it. Whether it was written (an OSError when it could not be)."""
    path = trees_path(baseline)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    with folder_lock(folder):
        tests, code = read_kept(baseline)
        if not change(tests, code):
            return False
        code = {k: v for k, v in code.items() if v}
        if tests or code:
            write_atomically(path, encode(tests, code))
        else:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
    return True
