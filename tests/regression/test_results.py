"""A counted test's result and ``--bytecount-json``, without pytest runs or a JVM."""

from __future__ import annotations

import json

from pytest_bytecount.regression.results import ResultsFile, TestResult

COUNTS = {"demo.Sorting#fib(I)I": {"invocations": 3, "total": 21, "opcodes": {"iload_0": 3}, "calls": {}}}


def test_a_result_has_the_documented_json_shape_and_optional_keys_only_when_set():
    r = TestResult("t.py::test_fib", "bytecount/t.json", "test_fib", "passed", COUNTS, "17.0.2", "0.1")
    assert r.to_dict() == {"nodeid": "t.py::test_fib", "baseline": "bytecount/t.json", "key": "test_fib",
                           "status": "passed", "counts": COUNTS, "jvm": "17.0.2", "plugin": "0.1",
                           "baseline_counts": None, "method_status": {}, "tripped": {}, "message": ""}
    r.weights, r.scaling, r.test_outcome = "default", {"metric": "total"}, "passed"
    d = r.to_dict()
    assert (d["weights"], d["scaling"], d["test_outcome"]) == ("default", {"metric": "total"}, "passed")


def test_a_result_comes_back_whole_from_its_json_shape_as_from_an_xdist_worker():
    r = TestResult("t.py::test_fib", "bytecount/t.json", "test_fib", "regressed", COUNTS, None, "0.1",
                   baseline_counts=COUNTS, method_status={"demo.Sorting#fib(I)I": "regressed"},
                   tripped={"demo.Sorting#fib(I)I": ["total 20 -> 21"]}, message="REGRESSED", weights="default")
    assert TestResult.from_dict(json.loads(json.dumps(r.to_dict()))) == r


def test_the_results_file_is_valid_json_after_each_result_and_sorted_at_the_end(tmp_path):
    path = tmp_path / "results.json"
    out = ResultsFile(path)
    b = TestResult("t.py::b", "bc/t.json", "b", "new", {}, None, "0.1")
    a = TestResult("t.py::a", "bc/t.json", "a", "passed", COUNTS, "17", "0.1", test_outcome="passed")
    out.add("t.py::b", b)
    assert json.loads(path.read_text()) == {"t.py::b": b.to_dict()}
    out.add("t.py::a", a)
    assert json.loads(path.read_text()) == {"t.py::b": b.to_dict(), "t.py::a": a.to_dict()}
    out.finish({"t.py::b": b, "t.py::a": a})
    text = path.read_text()
    assert json.loads(text) == {"t.py::a": a.to_dict(), "t.py::b": b.to_dict()}
    assert text.index('"t.py::a"') < text.index('"t.py::b"') and text.endswith("}\n")
