"""``--bytecount-profiles=DIR`` and the ``flamegraph`` command's exports: each counted test's calling-context trees,
for this run and as kept with its baseline, in the formats existing viewers open.

Per test that has trees (``<id>`` is its node id, made a file name):

- ``<id>.collapsed`` and ``<id>.baseline.collapsed``: collapsed stacks (``frame;frame;frame N``, one line per node,
  N its own instructions), which flamegraph.pl, inferno, speedscope and async-profiler's converter read; the
  converter and ``inferno-diff-folded`` build a difference of the two;
- ``<id>.pb.gz`` and ``<id>.baseline.pb.gz``: pprof profiles (:mod:`.pprof`), for ``pprof -diff_base``, Pyroscope
  and Parca.

Frames are method ids with the characters collapsed stacks reserve (``;`` and space) written as ``,`` and ``_``.
Every target of a test goes into its files, each path starting at the target's frame.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..counting.counts.calltree import CallTree
from ..files import write_atomically
from .pprof import pprof_bytes


def file_stem(nodeid: str) -> str:
    """A node id as a file name: ``tests/test_a.py::test_b[1]`` -> ``tests_test_a.py__test_b_1``."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", nodeid.replace("::", "__")).strip("_.")
    return stem or "test"


def sides(result: dict) -> dict:
    """``{"": this run's trees, "baseline": the baseline's}`` of one result (the JSON shape), as CallTrees; a side
    without trees is left out."""
    out = {}
    for side, key in (("", "trees"), ("baseline", "baseline_trees")):
        data = result.get(key) or {}
        trees = {m: CallTree.from_dict(t) for m, t in sorted(data.items())}
        if trees:
            out[side] = trees
    return out


def collapsed_text(trees: dict) -> str:
    lines = []
    for method, tree in trees.items():
        lines += tree.collapsed(0, root=method)
    return "\n".join(lines) + ("\n" if lines else "")


def write_profiles(results: dict, folder: Path) -> list:
    """The exports of every result (``{nodeid: result in its JSON shape}``) with trees; the files written."""
    written = []
    stems: dict = {}
    for nodeid, result in sorted(results.items()):
        found = sides(result)
        if not found:
            continue
        stem = file_stem(nodeid)
        n = stems[stem] = stems.get(stem, 0) + 1
        if n > 1:  # two ids that read alike as file names
            stem = f"{stem}-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        for side, trees in found.items():
            base = folder / (f"{stem}.{side}" if side else stem)
            comment = f"{nodeid}: " + ("as kept with its baseline" if side else "this run")
            for path, data in ((Path(f"{base}.collapsed"), collapsed_text(trees).encode("utf-8")),
                               (Path(f"{base}.pb.gz"), pprof_bytes(trees, comment=comment))):
                write_atomically(path, data)
                written.append(path)
    return written
