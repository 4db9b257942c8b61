"""What the ``flamegraph`` and ``tree`` commands read (results files, baseline files, trees files, folders), how two
inputs pair their tests, and how two bounded trees are aligned so that a path below the kept share on one side is
neither new nor vanished. Trees here are written by hand; their sums are worked out in the comments."""

from __future__ import annotations

import json

import pytest

from pytest_bytecount.counting.counts.calltree import OTHER, CallTree, aligned, changed_paths
from pytest_bytecount.regression.tree_inputs import TreeInputError, against, chosen, read_inputs
from pytest_bytecount.regression.tree_store import encode

T = "app.Orders#distinct(I)I"
SET = "java.util.HashSet#contains(Ljava/lang/Object;)Z"
LIST = "java.util.ArrayList#contains(Ljava/lang/Object;)Z"
BOX = "java.lang.Integer#valueOf(I)Ljava/lang/Integer;"
CACHE = "java.lang.Integer$IntegerCache#get(I)I"


def test_a_path_one_side_folded_into_other_is_folded_on_the_other_side_too():
    # before: the box's cache lookup (40) was kept; now it fell below the share, into the box's OTHER node (40)
    before = CallTree({(T,): [100, 1, 0], (T, SET): [500, 10, 0], (T, BOX): [60, 10, 0], (T, BOX, CACHE): [40, 10, 0]})
    now = CallTree({(T,): [100, 1, 0], (T, LIST): [9000, 10, 0], (T, BOX): [60, 10, 0], (T, BOX, OTHER): [40, 0, 0]})
    a_now, a_before = aligned(now, before)
    assert (T, BOX, CACHE) not in a_before.nodes and a_before.nodes[(T, BOX, OTHER)] == [40, 0, 0]
    assert a_now == now  # nothing of now was hidden on the other side
    assert a_before.total() == before.total() == 700 and a_now.total() == 9200
    moved = [p for p, _, _ in changed_paths(now, before, limit=10)]
    assert moved == [(T, LIST), (T, SET)]  # the box's lookup did not move: it is not listed as vanished


def test_new_work_larger_than_the_other_sides_other_node_is_not_folded():
    # before hid 25 instructions under the target; the list's 9,000 cannot be hiding there: it is new
    before = CallTree({(T,): [100, 1, 0], (T, SET): [500, 10, 0], (T, OTHER): [25, 0, 0]})
    now = CallTree({(T,): [100, 1, 0], (T, LIST): [9000, 10, 0], (T, OTHER): [10, 0, 0]})
    moved = changed_paths(now, before, limit=10, rises_first=True)
    assert [(p, b, n) for p, b, n in moved] == [((T, LIST), 0, 9000), ((T, SET), 500, 0)]  # OTHER is never listed


def _baselines(folder, trees_by_key: dict, name: str = "test_orders"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({"format": 2, "tests": {k: {"methods": {}} for k in trees_by_key}}))
    (folder / f"{name}.trees.json.gz").write_bytes(encode(trees_by_key))


def test_every_input_form_reads_and_two_inputs_pair_by_file_and_key(tmp_path):
    old = CallTree({(T,): [100, 1, 0], (T, SET): [500, 10, 0]}).to_dict()
    new = CallTree({(T,): [100, 1, 0], (T, LIST): [9000, 10, 0]}).to_dict()
    _baselines(tmp_path / "main" / "bytecount", {"test_distinct": {T: old}})
    _baselines(tmp_path / "branch" / "bytecount", {"test_distinct": {T: new}, "test_only_here": {T: new}})
    results = {"tests/test_orders.py::test_distinct": {
        "counts": {}, "baseline": "tests/bytecount/test_orders.json", "key": "test_distinct",
        "trees": {T: new}, "baseline_trees": {T: old}}}
    (tmp_path / "results.json").write_text(json.dumps(results))

    folder = read_inputs(str(tmp_path / "branch" / "bytecount"))
    assert sorted(folder) == ["bytecount/test_orders.json::test_distinct", "bytecount/test_orders.json::test_only_here"]
    assert read_inputs(str(tmp_path / "branch" / "bytecount" / "test_orders.json")).keys() == \
        read_inputs(str(tmp_path / "branch" / "bytecount" / "test_orders.trees.json.gz")).keys()
    assert read_inputs(str(tmp_path / "results.json"))["tests/test_orders.py::test_distinct"]["baseline_trees"] == {T: old}
    paired = against(folder, read_inputs(str(tmp_path / "main" / "bytecount")))
    assert paired["bytecount/test_orders.json::test_distinct"]["baseline_trees"] == {T: old}
    assert paired["bytecount/test_orders.json::test_only_here"]["baseline_trees"] is None  # main lacks it
    # a results file against a baseline folder: paired by the baseline file's name and the key
    from_results = against(read_inputs(str(tmp_path / "results.json")), read_inputs(str(tmp_path / "branch")))
    assert from_results["tests/test_orders.py::test_distinct"]["baseline_trees"] == {T: new}
    assert list(chosen(folder, "test_only_here")) == ["bytecount/test_orders.json::test_only_here"]
    assert list(chosen(folder, "tests/test_orders.py::test_distinct")) == ["bytecount/test_orders.json::test_distinct"]


@pytest.mark.parametrize("make, expected", [
    (lambda p: None, "no such file or folder"),
    (lambda p: p.write_text("{not json"), "not a JSON file the plugin writes"),
    (lambda p: p.write_text('{"a": 1}'), "expected a --bytecount-json results file, a baseline file"),
    (lambda p: p.write_text('{"format": 2, "tests": {}}'), "no trees are kept beside it"),
    (lambda p: p.write_text('{"t.py::t": {"counts": {}, "status": "passed"}}'), "no test in it has trees"),
    (lambda p: p.mkdir(), "no trees files (*.trees.json.gz) under this folder"),
])
def test_an_input_without_trees_is_a_one_line_error_that_says_why(tmp_path, make, expected):
    path = tmp_path / "input.json"
    make(path)
    with pytest.raises(TreeInputError) as e:
        read_inputs(str(path))
    assert expected in str(e.value) and "\n" not in str(e.value)


def test_a_test_not_there_is_named_with_the_tests_that_are(tmp_path):
    _baselines(tmp_path / "bytecount", {"test_distinct": {T: CallTree({(T,): [1, 1, 0]}).to_dict()}})
    with pytest.raises(TreeInputError, match=r"no test 'test_nope' has trees here; the tests with trees: "
                                             r"bytecount/test_orders.json::test_distinct"):
        chosen(read_inputs(str(tmp_path / "bytecount")), "test_nope")
