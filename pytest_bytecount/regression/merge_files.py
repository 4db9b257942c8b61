"""git's merge driver for baseline files (``python -m pytest_bytecount merge-driver %O %A %B %P``, docs/ci.md): the
three versions of a file merged test by test (:func:`~.merge.three_way`). A counts file (``bytecount/test_x.json``)
gets a valid file in which an entry both sides changed is marked conflicted; a trees file (``.trees.json.gz``) drops
such a test's trees, which its re-recording writes again.

And the files of CI shards (``python -m pytest_bytecount merge OUT IN...``, docs/pytest.md): each shard's version of a
baseline file, or its ``--bytecount-json`` results, merged by :func:`~.merge.union`; a test two shards recorded
differently is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from .baseline import BaselineError, BaselineFile, NewerFormatError
from .merge import three_way, union
from .tree_store import SUFFIX, encode, kept_from


class MergeError(Exception):
    """A side that cannot be merged (a newer format, a file that is not a baseline file): git keeps the conflict."""


def _tests(raw: Optional[bytes], side: str, path: str) -> dict:
    if not raw or not raw.strip():  # git gives an empty file for a side that has none
        return {}
    try:
        return BaselineFile.parse(Path(path), raw).tests
    except NewerFormatError as e:
        raise MergeError(f"{side}: {e.problem or e}") from None
    except BaselineError as e:
        raise MergeError(f"{side}: {e.problem or e}") from None


def merge_baselines(base: Optional[bytes], ours: bytes, theirs: bytes, path: str) -> tuple:
    """``(the merged file's bytes, the conflicted test keys)`` of a counts file's three versions."""
    o, a, b = (_tests(raw, side, path) for raw, side in ((base, "the common ancestor's version"),
                                                         (ours, "this branch's version"),
                                                         (theirs, "the merged branch's version")))
    merged, conflicted = three_way(o, a, b)
    return BaselineFile(Path(path), merged).render().encode("utf-8"), conflicted


def merge_trees(base: Optional[bytes], ours: bytes, theirs: bytes) -> tuple:
    """``(bytes, keys dropped)`` of a trees file's three versions: trees both sides changed are dropped (a re-record
    writes them), every other test's kept as the side that changed it has them."""
    (ot, oc), (at, ac), (bt, bc) = (kept_from(raw) if raw else ({}, {}) for raw in (base, ours, theirs))
    trees, clashed = three_way(ot, at, bt)
    code, clashed_code = three_way(oc, ac, bc)
    dropped = sorted(set(clashed) | set(clashed_code))
    for key in dropped:
        trees.pop(key, None)
        code.pop(key, None)
    return encode(trees, code), dropped


def is_trees_file(path: str) -> bool:
    return str(path).endswith(SUFFIX)


def merge_shard_baselines(sides: list, base: Optional[bytes], path: str) -> tuple:
    """``(the merged counts file's bytes, clashes)`` of the shards' versions of one file (``sides``: ``[(label, bytes
    or None)]``), with ``base`` the version they started from (None: they recorded from scratch)."""
    tables = [(label, _tests(raw, label, path)) for label, raw in sides if raw is not None]
    merged, clashes = union(tables, None if base is None else _tests(base, "the base", path))
    return BaselineFile(Path(path), merged).render().encode("utf-8"), clashes


def merge_shard_trees(sides: list, base: Optional[bytes]) -> tuple:
    """``(bytes, clashes)`` of the shards' versions of one trees file, as :func:`merge_shard_baselines`."""
    kept = [(label, kept_from(raw)) for label, raw in sides if raw is not None]
    start = None if base is None else kept_from(base)
    trees, clashes = union([(label, t) for label, (t, _) in kept], None if start is None else start[0])
    code, code_clashes = union([(label, c) for label, (_, c) in kept], None if start is None else start[1])
    return encode(trees, code), {**code_clashes, **clashes}


def merge_results(sides: list) -> tuple:
    """``(results, clashes)`` of shards' ``--bytecount-json`` results (``[(label, {node id: result})]``): each test's
    result from the shard that ran it."""
    return union(sides)
