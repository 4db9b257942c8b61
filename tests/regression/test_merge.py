"""Merging baseline files test by test, without git: the three-way rule, a conflicted file's sides, the driver's
files (counts and trees), and the pull-request comment's parts."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from pytest_bytecount.regression.baseline import BaselineFile, ConflictedEntry
from pytest_bytecount.regression.merge import BOTH_CHANGED, conflict_sides, three_way, union
from pytest_bytecount.regression.merge_files import merge_baselines, merge_trees
from pytest_bytecount.regression.results import TestResult
from pytest_bytecount.regression.tree_store import encode
from pytest_bytecount.plugin.pr_comment import MARKER, comment, runtimes, title, write_comment

M = "a.B#f()V"


def e(total: int) -> dict:
    return {"jvm": "17", "methods": {M: {"calls": {}, "invocations": 1, "opcodes": {"nop": total}, "total": total}}}


def test_three_way_takes_the_side_that_changed_and_marks_what_both_changed():
    base = {"same": e(1), "ours": e(2), "theirs": e(3), "both": e(4), "gone": e(5), "clash": e(6)}
    ours = {"same": e(1), "ours": e(20), "theirs": e(3), "both": e(40), "clash": e(60), "added": e(7)}
    theirs = {"same": e(1), "ours": e(2), "theirs": e(30), "both": e(40), "gone": e(5), "clash": e(61)}
    merged, conflicted = three_way(base, ours, theirs)
    assert conflicted == ["clash"]
    assert merged == {"same": e(1), "ours": e(20), "theirs": e(30), "both": e(40), "added": e(7),
                      "clash": {**e(60), "conflicted": BOTH_CHANGED}}  # "gone": removed on our side only


def test_three_way_marks_an_entry_removed_on_one_side_and_changed_on_the_other():
    merged, conflicted = three_way({"t": e(1)}, {}, {"t": e(2)})
    assert conflicted == ["t"] and merged["t"]["methods"] == e(2)["methods"]


def test_two_sides_without_a_base_keep_what_either_alone_holds():
    merged, conflicted = three_way(None, {"a": e(1), "c": e(3)}, {"b": e(2), "c": e(4)})
    assert conflicted == ["c"] and merged["a"] == e(1) and merged["b"] == e(2)


def render(tests: dict) -> str:
    return BaselineFile(Path("x.json"), tests).render()


def conflicted_text(ours: dict, theirs: dict, base: dict = None) -> str:
    """A file as git's merge leaves it when both sides changed it: each side's whole text between markers."""
    mid = f"||||||| base\n{render(base)}" if base is not None else ""
    return f"<<<<<<< HEAD\n{render(ours)}{mid}=======\n{render(theirs)}>>>>>>> other\n"


def test_a_file_with_conflict_markers_reads_as_its_sides_merged():
    text = conflicted_text({"a": e(1), "c": e(3)}, {"a": e(1), "b": e(2), "c": e(4)})
    ours, base, theirs = conflict_sides(text)
    assert base is None and json.loads(ours)["tests"]["c"] == e(3) and json.loads(theirs)["tests"]["c"] == e(4)
    b = BaselineFile.parse(Path("x.json"), text.encode())
    assert b.markers and sorted(b.conflicted) == ["c"]
    assert b.get("a") == e(1)["methods"] and b.get("b") == e(2)["methods"]
    try:
        b.get("c")
        raise AssertionError("a conflicted entry must not be read as counts")
    except ConflictedEntry as err:
        assert "git left its conflict markers in the file" in str(err)
        assert "pytest --bytecount-update=conflicted" in str(err)
    # diff3's base section: what only one side changed is taken from it
    text = conflicted_text({"a": e(10), "c": e(3)}, {"a": e(1), "c": e(4)}, base={"a": e(1), "c": e(5)})
    b = BaselineFile.parse(Path("x.json"), text.encode())
    assert b.get("a") == e(10)["methods"] and sorted(b.conflicted) == ["c"]
    assert conflict_sides("<<<<<<< HEAD\nno end\n") is None


def test_a_marked_entry_stays_marked_until_it_is_recorded_again():
    data = render({"a": e(1), "c": {**e(3), "conflicted": BOTH_CHANGED}})
    b = BaselineFile.parse(Path("x.json"), data.encode())
    assert b.conflicted == {"c": BOTH_CHANGED} and b.entry("c") is None and b.get("a") == e(1)["methods"]
    assert b.render() == data  # an update of another test writes the mark back


def test_the_driver_writes_a_valid_file_and_names_the_conflicted_entries(tmp_path):
    base, ours, theirs = (tmp_path / n for n in ("O", "A", "B"))
    base.write_text(render({"t1": e(1), "t2": e(2)}))
    ours.write_text(render({"t1": e(10), "t2": e(20)}))
    theirs.write_text(render({"t1": e(1), "t2": e(21), "t3": e(3)}))
    done = subprocess.run([sys.executable, "-m", "pytest_bytecount", "merge-driver", str(base), str(ours), str(theirs),
                           "tests/bytecount/test_x.json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("bytecount merge-driver: tests/bytecount/test_x.json: 1 entry changed on both branches, "
                           "marked conflicted: t2. The merge is done; re-record them with: pytest "
                           "--bytecount-update=conflicted\n")
    tests = json.loads(ours.read_text())["tests"]
    assert tests == {"t1": e(10), "t2": {**e(20), "conflicted": BOTH_CHANGED}, "t3": e(3)}
    # a side it cannot read is left to git as a conflict, and %A is untouched
    theirs.write_text("{not json")
    before = ours.read_bytes()
    done = subprocess.run([sys.executable, "-m", "pytest_bytecount", "merge-driver", str(base), str(ours), str(theirs),
                           "x.json"], capture_output=True, text=True)
    assert done.returncode == 1 and "cannot merge, left to git as a conflict: the merged branch's version" in done.stderr
    assert ours.read_bytes() == before


def test_the_driver_adds_a_file_both_branches_created():
    data, conflicted = merge_baselines(b"", render({"a": e(1)}).encode(), render({"b": e(2)}).encode(), "x.json")
    assert conflicted == [] and sorted(json.loads(data)["tests"]) == ["a", "b"]


def test_the_trees_of_a_test_both_branches_changed_are_dropped():
    tree = {"m": {"work": 1}}
    base = encode({"t1": tree, "t2": tree})
    ours = encode({"t1": {"m": {"work": 2}}, "t2": {"m": {"work": 3}}})
    theirs = encode({"t1": tree, "t2": {"m": {"work": 4}}})
    data, dropped = merge_trees(base, ours, theirs)
    assert dropped == ["t2"] and json.loads(gzip.decompress(data))["tests"] == {"t1": {"m": {"work": 2}}}


def result(nodeid: str, status: str, message: str = "", jvm: str = "17.0.21") -> TestResult:
    return TestResult(nodeid=nodeid, baseline="", key=nodeid.split("::")[-1], status=status, message=message, jvm=jvm)


def test_the_comment_is_none_when_all_pass_and_titles_what_changed(tmp_path):
    passed = {"t.py::a": result("t.py::a", "passed")}
    assert comment(passed, "x") is None
    mixed = {**passed, "t.py::b": result("t.py::b", "improved", "IMPROVED: total 10 -> 5"),
             "t.py::c": result("t.py::c", "regressed", "REGRESSED: total 5 -> 10")}
    assert title(mixed) == "1 regressed, 1 improved of 3 counted tests"
    text = comment(mixed, "1 baseline file as last committed in abc1234", "report/index.html",
                   "https://example.org/run/1")
    lines = text.splitlines()
    assert lines[0] == MARKER and lines[1] == "### pytest-bytecount: 1 regressed, 1 improved of 3 counted tests"
    assert [x.split(" | ")[1] for x in lines if x.startswith("| `t.py::")] == ["regressed", "improved"]
    assert "HTML report: `report/index.html` (in the artefacts of https://example.org/run/1)." in lines
    assert "Counted on Java 17.0.21." in lines
    path = tmp_path / "c.md"
    assert write_comment(path, text) == "wrote" and write_comment(path, None) == "removed" and not path.exists()


def test_runtimes_name_each_jvm_once():
    rs = {"a": result("a", "passed", jvm="17.0.21"), "b": result("b", "passed", jvm="17.0.21"),
          "c": result("c", "passed", jvm="25.0.2")}
    assert runtimes(rs) == ["Java 17.0.21", "Java 25.0.2"]


def test_shards_from_scratch_union_their_tests_and_a_test_two_record_differently_is_a_clash():
    a, b = {"t1": {"n": 1}, "t2": {"n": 2}}, {"t2": {"n": 2}, "t3": {"n": 3}}
    assert union([("a", a), ("b", b)]) == ({"t1": {"n": 1}, "t2": {"n": 2}, "t3": {"n": 3}}, {})
    merged, clashes = union([("a", a), ("b", {"t2": {"n": 20}}), ("c", {})])
    assert clashes == {"t2": ["a", "b"]} and merged == {"t1": {"n": 1}}


def test_shards_from_committed_baselines_take_the_one_shard_that_changed_a_test_or_removed_it():
    base = {"t1": {"n": 1}, "t2": {"n": 2}, "gone": {"n": 9}}
    a = {**base, "t1": {"n": 10}}  # re-recorded t1
    b = {"t1": {"n": 1}, "t2": {"n": 2}, "new": {"n": 5}}  # recorded a new test, removed a stale one
    assert union([("a", a), ("b", b)], base) == ({"t1": {"n": 10}, "t2": {"n": 2}, "new": {"n": 5}}, {})
    _, clashes = union([("a", a), ("b", {**base, "t1": {"n": 11}})], base)
    assert clashes == {"t1": ["a", "b"]}
