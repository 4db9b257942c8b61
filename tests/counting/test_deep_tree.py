"""Calling-context trees (``count --deep --tree``) against the independent JVMTI oracle (tests/support/oracle_deep.py,
which shares no code with the plugin), on the stress fixture of the deep rules (fixtures-java/deep).

The oracle counts steps, entries and copied elements per UNFOLDED call path (the methods of its shadow stack from the
window's opener down, left-out classes skipped); the folding of recursion is done here, in a few lines of its own,
as a calling-context tree folds a call: a method already on the caller's path is that method's node again. Every
target's tree (normal and abrupt windows together) must then equal the oracle's path for path: own instructions,
invocations and copied elements, on HotSpot 17, Zero 17 and HotSpot 25. The window's own node (the empty path)
holds what ran in the window outside any node (nothing, for these targets) and counts each window as one of its
invocations. ``reflection`` on 25 is the documented exception (test_deep.py's HISTORY_DEPENDENT). ``format`` on JDK 17
runs java.util.regex's chain of nodes (Formatter.parse), whose calls fold back to a node and then call a method
whose frame is still on the stack but no longer on the path: there the tree must fold against the caller's path,
not against the whole call stack.

Also: the JSON that ``count --deep --tree`` prints holds each target's tree under ``deep.tree``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Tuple

import pytest

from tests.counting.test_deep import FIXTURE, HISTORY_DEPENDENT, PROPERTIES, TARGETS, _vm
from tests.support.javac import compile_java
from tests.support.oracle_deep import deep_oracle

VMS = ["hotspot17", "zero17", "java25"]

# `count` run as the command line runs it; what it hands to render_json (trees included) also goes to a file
_COUNT_KEEPING_THE_COUNTS = """
import json
import sys
import pytest_bytecount.cli as cli

rendered = cli.render_json
def render_json(counts):
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(counts, out)
    return rendered(counts)
cli.render_json = render_json
sys.exit(cli.main(sys.argv[2:]))
"""

_RUNS: Dict[str, Tuple[dict, dict, dict]] = {}


@pytest.fixture(scope="module")
def stress() -> Path:
    return compile_java(FIXTURE, release="17", options=["-g"])


def fold(path: tuple, method: str) -> tuple:
    """A call of ``method`` from the node of ``path``: back to ``method``'s node when it is on the path."""
    return path[:path.index(method) + 1] if method in path else path + (method,)


def folded(paths: dict, windows: int) -> dict:
    """The oracle's unfolded paths of one target -> its calling-context tree, ``{path: [own, calls, copied]}``."""
    tree: dict = {(): [0, windows, 0]} if windows else {}
    for path, values in paths.items():
        node: tuple = ()
        for method in path:
            node = fold(node, method)
        mine = tree.setdefault(node, [0, 0, 0])
        for i in range(3):
            mine[i] += values[i]
    return tree


def plugin_tree(data: dict) -> dict:
    """``deep.tree`` of the JSON (CallTree.to_dict's form) -> ``{path: [own, calls, copied]}``."""
    frames = data["frames"]
    return {tuple(frames[i] for i in row[0]): [row[1], row[2], row[3]] for row in data["nodes"]}


def _short(method: str) -> str:
    """``java.util.ArrayList#indexOf(Ljava/lang/Object;)I`` -> ``ArrayList.indexOf``."""
    cls, _, rest = method.partition("#")
    return f"{cls.rsplit('.', 1)[-1]}.{rest.split('(', 1)[0]}"


def runs(classes: Path, vm: str, cache: Path) -> Tuple[dict, dict, dict]:
    """(the oracle's counts, ``count``'s counts as made, the JSON ``count`` printed) of deep.Stress 40 on ``vm``."""
    if vm not in _RUNS:
        java, jvm_args = _vm(vm)
        oracle = deep_oracle([classes], "deep.Stress", ["40"], TARGETS, java=java, extra_jvm_args=PROPERTIES,
                             paths=True)
        cache.mkdir(parents=True, exist_ok=True)
        made = cache.parent / "counts.json"
        command = [sys.executable, "-c", _COUNT_KEEPING_THE_COUNTS, str(made), "count", "--deep", "--abrupt",
                   "--tree", "--no-cache", "-cp", str(classes), *jvm_args,
                   *[a for t in TARGETS for a in ("--target", t)], "deep.Stress", "40"]
        proc = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, BYTECOUNT_CACHE_DIR=str(cache)),
                              cwd=str(cache.parent), timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        _RUNS[vm] = (oracle, json.loads(made.read_text(encoding="utf-8")), json.loads(proc.stdout))
    return _RUNS[vm]


def _cases():
    for vm in VMS:
        for target in TARGETS:
            yield pytest.param(vm, target, id=f"{vm}-{target.split('#')[1].split('(')[0]}")


@pytest.mark.parametrize("vm, target", list(_cases()))
def test_the_tree_equals_the_oracles_folded_paths(stress, vm, target, tmp_path_factory):
    if target in HISTORY_DEPENDENT.get(vm, ()):
        pytest.skip("the documented exception: its counts follow the JVM's history")
    oracle, counts, _ = runs(stress, vm, tmp_path_factory.mktemp(f"tree-{vm}") / "cache")
    deep = counts[target]["deep"]
    assert "tree" in deep, target
    mine = plugin_tree(deep["tree"])
    # the tree holds every instruction and every copied element of the target's windows, normal and abrupt
    assert sum(v[0] for v in mine.values()) == deep["total"] + deep["abrupt"]["total"]
    assert sum(v[2] for v in mine.values()) == deep["copied"] + deep["abrupt"]["copied"]
    windows = oracle[target]["windows"] + oracle[target]["abrupt"]["windows"]
    theirs = folded(oracle.paths[target], windows)
    differ = {path: (mine.get(path), theirs.get(path)) for path in set(mine) | set(theirs)
              if mine.get(path) != theirs.get(path)}
    assert not differ, f"{len(differ)} paths differ, [own, calls, copied] (plugin, oracle):\n" + "\n".join(
        f"{' > '.join(map(_short, path))}: {values}" for path, values in sorted(differ.items())[:8])


def test_the_oracles_paths_hold_what_it_counts_per_method(stress, tmp_path_factory):
    """The oracle's own consistency, path against method: each method's steps over its paths are its deep count."""
    oracle, _, _ = runs(stress, "hotspot17", tmp_path_factory.mktemp("tree-hotspot17") / "cache")
    assert oracle.stats["paths"] > 1000
    for target in TARGETS:
        per_method: dict = {}
        for path, (steps, entries, _) in oracle.paths[target].items():
            assert path[0] == target and entries > 0, path
            per_method[path[-1]] = per_method.get(path[-1], 0) + steps
        expected: dict = {}
        for record in (oracle[target], oracle[target]["abrupt"]):
            for method, n in record["methods"].items():
                expected[method] = expected.get(method, 0) + n
        assert {m: n for m, n in per_method.items() if n} == expected, target


def test_the_json_holds_each_targets_tree(stress, tmp_path_factory):
    _, counts, printed = runs(stress, "hotspot17", tmp_path_factory.mktemp("tree-hotspot17") / "cache")
    for target in TARGETS:
        assert printed[target]["deep"].get("tree") == counts[target]["deep"]["tree"], target
