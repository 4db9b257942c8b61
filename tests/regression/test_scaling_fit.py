"""The complexity fit: orders of the scaling fixtures, counted by the real plugin on a real JVM, and the
fitter's rules on hand-made series (no JVM).

The fixtures (fixtures-java/scaling, package ``scaling``) have known complexity. One pytest subprocess
(a process gets one JVM) runs ``bytecount.scaling`` on each and writes ``--bytecount-json``; the tests here
read the orders the plugin reported, and fit the same exact counts again.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap

import pytest

from pytest_bytecount.regression.scaling import (
    ORDERS,
    MethodScaling,
    ScalingError,
    ScalingResult,
    baseline_entry,
    compare_scaling,
    fit,
    measure,
    render_scaling,
    select_methods,
)
from tests.support.javac import compile_java
from tests.support.jdk import JDK17
from tests.support.paths import FIXTURES_JAVA

FIXTURES = FIXTURES_JAVA / "scaling"
DOUBLING = [2 ** k for k in range(8, 14)]  # 256 .. 8192

# case -> (targets, what run(n) does, sizes, {method: expected order})
CASES = {
    "linear scan": ("scaling.Linear", "C.sum(ints(range(n)))", DOUBLING, {"scaling.Linear#sum([I)J": "n"}),
    "binary search": ("scaling.BinarySearch", "C.indexOf(ints(range(n)), -1)", [2 ** k for k in range(4, 15)],
                      {"scaling.BinarySearch#indexOf([II)I": "log n"}),
    "merge sort": ("scaling.MergeSort", "C.sort(ints(range(n, 0, -1)))", DOUBLING,
                   {"scaling.MergeSort#merge([I[IIII)V": "n log n", "scaling.MergeSort#sort([I[III)V": "n",
                    "scaling.MergeSort#sort([I)V": "1"}),
    "merge sort, sizes not powers of 2": ("scaling.MergeSort#merge", "C.sort(ints(range(n, 0, -1)))",
                                          [200, 300, 500, 800, 1300, 2100, 3400, 5500, 8900],
                                          {"scaling.MergeSort#merge([I[IIII)V": "n log n"}),
    "insertion sort, reversed": ("scaling.InsertionSort", "C.sort(ints(range(n, 0, -1)))", [2 ** k for k in range(5, 11)],
                                 {"scaling.InsertionSort#sort([I)V": "n^2"}),
    "insertion sort, shuffled": ("scaling.InsertionSort", "C.sort(ints(shuffled(n)))", [2 ** k for k in range(5, 11)],
                                 {"scaling.InsertionSort#sort([I)V": "n^2"}),
    "triple loop": ("scaling.Triples", "C.zeroSum(ints(range(1, n + 1)))", [8, 16, 32, 64, 128, 256],
                    {"scaling.Triples#zeroSum([I)I": "n^3"}),
    "subset sum": ("scaling.SubsetSum", "C.exists(ints([1] * n), n + 1)", list(range(6, 19, 2)),
                   {"scaling.SubsetSum#from([III)Z": "2^n", "scaling.SubsetSum#exists([II)Z": "1"}),
    "fib": ("scaling.Fib", "C.fib(n)", list(range(10, 25, 2)), {"scaling.Fib#fib(I)I": "2^n"}),
    # quadratic only above 64: sizes whose upper half is past the threshold see it, smaller ones cannot
    "threshold, upper sizes past it": ("scaling.Distinct", "C.count(ints(range(n)))", [2 ** k for k in range(3, 11)],
                                       {"scaling.Distinct#count([I)I": "n^2"}),
    "threshold, all sizes below it": ("scaling.Distinct", "C.count(ints(range(n)))", [4, 8, 16, 32, 64],
                                      {"scaling.Distinct#count([I)I": "n"}),
}

DRIVER = '''
import random
import jpype
import pytest

def ints(xs):
    return jpype.JArray(jpype.JInt)(list(xs))

def shuffled(n):
    xs = list(range(n))
    random.Random(n).shuffle(xs)
    return xs
'''

CASE_TEST = '''
@pytest.mark.bytecount({targets!r}, deep=False)  # the flat fit
def test_{name}(bytecount):
    C = bytecount.jclass({cls!r})
    bytecount.scaling({sizes!r}, lambda n: {run})
'''


def _test_name(case: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in case)


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict:
    """case -> the ``"scaling"`` entry the plugin reported for it (``--bytecount-json``)."""
    classes = compile_java(FIXTURES, release="17", options=["-g"])
    root = tmp_path_factory.mktemp("scaling-fixtures")
    (root / "pyproject.toml").write_text(f'[tool.bytecount]\nclasspath = ["{classes}"]\njava-home = "{JDK17}"\n')
    tests = [DRIVER] + [CASE_TEST.format(targets=t, name=_test_name(case), cls=t.split("#")[0], sizes=sizes, run=run)
                        for case, (t, run, sizes, _) in CASES.items()]
    (root / "test_cases.py").write_text("\n".join(tests))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
         "--bytecount-update", "--bytecount-json=results.json", "test_cases.py"],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600, env=dict(os.environ))
    assert run.returncode == 0, run.stdout[-4000:]
    results = json.loads((root / "results.json").read_text())
    return {case: results[f"test_cases.py::test_{_test_name(case)}"]["scaling"] for case in CASES}


@pytest.mark.parametrize("case", list(CASES))
def test_fixtures_of_known_complexity_get_their_order(measured, case):
    _, _, sizes, expected = CASES[case]
    scaling = measured[case]
    assert scaling["sizes"] == sizes and scaling["metric"] == "total"
    assert {m: s["order"] for m, s in scaling["methods"].items()} == expected
    for method, s in scaling["methods"].items():
        assert set(s["fits"]) == set(ORDERS) and s["baseline_order"] is None
        again = fit(sizes, s["values"])  # the exact counts give the same verdict, by a clear margin
        assert again.order == s["order"] and round(again.exponent, 2) == s["exponent"]
        if s["order"] != "1":  # the order that fits has the work; each lower one fits clearly worse
            lower = [r for o, r in again.fits.items() if r is not None and ORDERS.index(o) < ORDERS.index(s["order"])]
            assert min(lower) > 2 * again.fits[s["order"]], (method, again.fits)


def test_exponents_and_growth_factors_say_how_fast(measured):
    def one(case, method):
        s = measured[case]["methods"][method]
        return s["exponent"], fit(measured[case]["sizes"], s["values"])

    assert one("linear scan", "scaling.Linear#sum([I)J")[0] == 1.0
    assert 1.05 < one("merge sort", "scaling.MergeSort#merge([I[IIII)V")[0] < 1.2  # 1 + 1/ln n
    assert one("insertion sort, reversed", "scaling.InsertionSort#sort([I)V")[0] == pytest.approx(2.0, abs=0.02)
    assert one("triple loop", "scaling.Triples#zeroSum([I)I")[0] == pytest.approx(3.0, abs=0.05)
    assert one("subset sum", "scaling.SubsetSum#from([III)Z")[1].growth == pytest.approx(2.0, abs=0.01)
    assert one("fib", "scaling.Fib#fib(I)I")[1].growth == pytest.approx((1 + 5 ** 0.5) / 2, abs=0.01)


def test_the_threshold_is_found_from_the_upper_sizes(measured):
    """Linear below 64, quadratic above: fitting all sizes alike would blur the two regimes."""
    s = measured["threshold, upper sizes past it"]
    values = s["methods"]["scaling.Distinct#count([I)I"]["values"]
    sizes = s["sizes"]
    assert all(b / a < 2.1 for a, b in zip(values[:3], values[1:4]))  # 8 .. 64: linear
    assert values[-1] / values[-2] == pytest.approx(4, rel=0.01)  # 512 -> 1024: quadratic
    assert fit(sizes, values).fits["n^2"] < 0.001
    assert fit(sizes[:5], values[:5]).order == "2^n"  # an upper half straddling the threshold misleads


def test_a_quadratic_path_above_a_threshold_fails_the_check_only_with_sizes_past_it(measured):
    """Against a linear baseline: sizes whose upper half is past the threshold fail and name the new order; sizes
    all below it cannot see it; an upper half that straddles it reads as exponential."""
    method = "scaling.Distinct#count([I)I"

    def verdict(case: str, count: int):
        s = measured[case]
        sizes, values = s["sizes"][:count], s["methods"][method]["values"][:count]
        stored = {method: {"metric": "total", "order": "n", "exponent": 1.0, "sizes": sizes,
                           "values": [13 * n for n in sizes]}}
        now = measure(sizes, {method: values})
        return compare_scaling(stored, now).status, now[method].order

    assert verdict("threshold, upper sizes past it", 8) == ("regressed", "n^2")
    assert verdict("threshold, upper sizes past it", 5)[1] == "2^n"
    assert verdict("threshold, all sizes below it", 5) == ("passed", "n")


# --- the rules, on hand-made series -----------------------------------------------------------------
SIZES = [256, 512, 1024, 2048, 4096, 8192]


@pytest.mark.parametrize("order, f", [
    ("1", lambda n: 17),
    ("log n", lambda n: 25 * math.log2(n) + 40),
    ("n", lambda n: 13 * n + 9),
    ("n log n", lambda n: 20 * n * math.log2(n) + 3 * n),
    ("n^2", lambda n: 4 * n * n + 50 * n),
    ("n^3", lambda n: n ** 3 + 5 * n * n),
])
def test_exact_series_get_their_order(order, f):
    assert fit(SIZES, [round(f(n)) for n in SIZES]).order == order


def test_an_exact_sum_is_named_by_its_highest_term_however_close_the_single_curves_fit():
    # n log n + 12 n at these sizes: a line fits it within 3%, but only bent by a negative constant (code does not
    # save that much), while the counts are exact and the sum of the two terms fits them to the rounding
    f = fit(SIZES, [round(n * math.log2(n) + 12 * n) for n in SIZES])
    assert f.order == "n log n" and f.fits["n log n"] < 1e-5 and (f.fits["n"] is None or f.fits["n"] > 0.01)
    assert f.evidence.startswith("n log n: 52% of the work at n=8,192 (n 48%)"), f.evidence


def test_falling_or_flat_counts_fit_no_growth_model():
    f = fit(SIZES, [100, 90, 80, 70, 60, 50])
    assert f.order == "1" and f.fits["n"] is None and f.fits["2^n"] is None
    flat = fit(SIZES, [5] * 6)
    assert flat.order == "1" and flat.exponent == 0.0 and all(flat.fits[o] is None for o in ORDERS[1:])


@pytest.mark.parametrize("sizes", [[1, 2, 3], [4, 2, 8, 16], [1, 2, 2, 4], [0, 1, 2, 4], [1.0, 2, 4, 8], "1248"])
def test_bad_sizes_are_errors_that_say_what_works(sizes):
    with pytest.raises(ScalingError, match="at least 4 increasing sizes"):
        fit(sizes, [1, 2, 3, 4])


def _result(order_values: dict, sizes=SIZES, metric="total") -> ScalingResult:
    return measure(sizes, order_values, metric)


def test_measure_skips_methods_that_never_ran_and_selects_by_pattern():
    values = {"a.B#f(I)V": [13 * n for n in SIZES], "a.B#g()V": [0] * 6, "a.C#h()V": [7] * 6}
    r = measure(SIZES, values)
    assert sorted(r.methods) == ["a.B#f(I)V", "a.C#h()V"]
    assert r["a.B#f"].order == "n" and r["a.C#h()V"].order == "1"
    with pytest.raises(ScalingError, match="2 methods were measured"):
        r.order
    assert measure(SIZES, values, method="a.B#f").order == "n"
    assert select_methods(r.methods, "a.*") == ["a.B#f(I)V", "a.C#h()V"]
    with pytest.raises(ScalingError, match="'a.B#x' matches none of the measured methods: a.B#f"):
        measure(SIZES, values, method="a.B#x")
    with pytest.raises(ScalingError, match="no counted method ran"):
        measure(SIZES, {"a.B#g()V": [0] * 6})


def test_the_result_dict_has_the_reported_schema():
    r = _result({"a.B#f(I)V": [4 * n * n for n in SIZES]})
    d = r.to_dict()
    assert d == {"metric": "total", "sizes": SIZES, "methods": {"a.B#f(I)V": {
        "values": [4 * n * n for n in SIZES], "order": "n^2", "exponent": 2.0,
        "fits": d["methods"]["a.B#f(I)V"]["fits"], "baseline_order": None,
        "evidence": d["methods"]["a.B#f(I)V"]["evidence"]}}}
    assert d["methods"]["a.B#f(I)V"]["evidence"].startswith("n^2: 100% of the work at n=8,192; local exponents 2.00, 2.00, 2.00")
    assert list(d["methods"]["a.B#f(I)V"]["fits"]) == list(ORDERS)
    assert json.loads(json.dumps(d)) == d


def _stored(order, values, sizes=SIZES, metric="total"):
    return baseline_entry(_result({"a.B#f(I)V": values}, sizes, metric).to_dict()) if order is None else \
        {"a.B#f(I)V": {"metric": metric, "order": order, "exponent": 1.0, "sizes": sizes, "values": values}}


def test_a_worse_order_fails_a_better_one_passes_with_a_note():
    nlogn = [round(20 * n * math.log2(n)) for n in SIZES]
    square = [4 * n * n for n in SIZES]
    stored = _stored(None, nlogn)
    assert stored["a.B#f(I)V"]["order"] == "n log n"
    worse = compare_scaling(stored, _result({"a.B#f(I)V": square}))
    assert worse.status == "regressed"
    text = render_scaling(worse, "pytest t.py::x --bytecount-update")
    assert text.splitlines()[0].startswith("a.B#f(I)V: COMPLEXITY GOT WORSE: n log n (exponent 1.13) -> n^2, exponent 2.00")
    assert "    n         " in text and "    baseline  " in text and "    now       " in text
    assert "fits now: const " in text and ", n^2 <0.01%" in text and text.endswith("to accept: pytest t.py::x --bytecount-update")
    better = compare_scaling(_stored(None, square), _result({"a.B#f(I)V": nlogn}))
    assert better.status == "improved"
    assert "complexity improved; baseline is stale: n^2 (exponent 2.00) -> n log n" in render_scaling(better, "cmd")
    same = compare_scaling(stored, _result({"a.B#f(I)V": [2 * v for v in nlogn]}))
    assert same.status == "passed" and render_scaling(same, "cmd") == ""


def test_a_near_tie_never_flips_the_verdict():
    """Baseline n log n + 12 n, now n log n + 8 n: the same order, with a smaller linear part."""
    stored = _stored(None, [round(n * math.log2(n) + 12 * n) for n in SIZES])
    assert stored["a.B#f(I)V"]["order"] == "n log n"
    now = _result({"a.B#f(I)V": [round(n * math.log2(n) + 8 * n) for n in SIZES]})
    assert now.order == "n log n"
    assert compare_scaling(stored, now).status == "passed"
    assert now.methods["a.B#f(I)V"].baseline_order == "n log n"
    # stored as n by an older rule: named again from its values, the same order, no verdict
    stored["a.B#f(I)V"]["order"] = "n"
    assert compare_scaling(stored, now).status == "passed"


def test_new_gone_and_other_metric_checks_are_reported():
    r = _result({"a.B#f(I)V": [13 * n for n in SIZES]})
    assert compare_scaling(None, r).status == "new"
    assert "a.B#f(I)V: no complexity baseline (now n, exponent 1.00)" in render_scaling(compare_scaling(None, r), None)
    gone = compare_scaling({"a.B#g()V": {"order": "n", "sizes": SIZES, "values": [1] * 6}}, r)
    assert gone.status == "changed"
    assert "a.B#g()V: the baseline holds a complexity check (n) that this test no longer makes" in render_scaling(gone, None)
    other = compare_scaling(_stored("n", [13 * n for n in SIZES], metric="invocations"), r)
    assert other.status == "changed"
    text = render_scaling(other, None, "pytest t.py::test_f --bytecount-update")
    assert ("a.B#f(I)V: the baseline's order (n) was fitted on invocations, and this check fits total (now n, "
            "exponent 1.00): orders of two figures are not compared. Re-record the baseline: "
            "pytest t.py::test_f --bytecount-update") in text


def test_printing_a_result_shows_orders_values_and_fits():
    r = _result({"a.B#f(I)V": [13 * n for n in SIZES]})
    lines = str(r).splitlines()
    assert lines[:3] == textwrap.dedent("""\
        a.B#f(I)V: n, exponent 1.00
            n        256    512   1,024   2,048   4,096    8,192
            total  3,328  6,656  13,312  26,624  53,248  106,496""").splitlines()
    # 13n exactly: the linear fit leaves nothing, n carries all the work, and each doubling doubles the count
    assert lines[3].startswith("    fits: const ") and ", n <0.01%, " in lines[3] and len(lines) == 5
    assert lines[4].startswith("    why: n: 100% of the work at n=8,192; local exponents 1.00, 1.00, 1.00; fit <0.001%")
    assert MethodScaling([1], "2^n", 9.0, {}, growth=1.618).describe() == "2^n, exponent 9.00 (x1.62 per +1 in n)"


def test_the_flat_hint_names_a_call_that_may_carry_the_work_before_boxing_and_object_init():
    """A HashSet turned List.contains, fitted flat: boxing grows faster in count than the scan's calls, yet the
    scan is where the work went; the note names it first."""
    from pytest_bytecount.regression.scaling_deep import growing_calls, incidental, jdk_work_note

    calls = {"cases.Dedup#unique(I)I": {
        "java/lang/Integer.valueOf(I)Ljava/lang/Integer;": [600, 1200, 2400, 4800],
        "java/util/List.contains(Ljava/lang/Object;)Z": [256, 512, 1024, 2048],
        "java/lang/Object.<init>()V": [300, 600, 1200, 2400],
        "java/lang/Integer.intValue()I": [256, 512, 1024, 2048]}}
    grown = growing_calls(calls, 4)["cases.Dedup#unique(I)I"]
    assert [sig for sig, _ in grown] == ["java/util/List.contains(Ljava/lang/Object;)Z",
                                         "java/lang/Integer.valueOf(I)Ljava/lang/Integer;", "java/lang/Object.<init>()V"]
    note = jdk_work_note({"t.py::test_unique": {"metric": "total", "jdk_calls": {"cases.Dedup#unique(I)I": grown}}})
    assert "t.py::test_unique calls java/util/List.contains(Ljava/lang/Object;)Z 256 -> 2,048 times" in note
    assert not incidental("java/lang/String.valueOf(I)Ljava/lang/String;")  # not a wrapper: may carry work
    assert incidental("java/lang/Long.longValue()J") and not incidental("java/util/Map.get(Ljava/lang/Object;)Ljava/lang/Object;")
    assert incidental("java/lang/Math.min(II)I") and incidental("java/lang/StrictMath.floorMod(JJ)J")


def test_the_flat_hint_is_not_said_of_a_check_that_named_its_figure():
    """scaling(..., metric="total") chose the flat fit: the run's note leaves it out, and says how to choose."""
    from pytest_bytecount.regression.scaling_deep import jdk_work_note

    grown = {"cases.Dedup#unique(I)I": [["java/util/List.contains(Ljava/lang/Object;)Z", [256, 512, 1024, 2048]]]}
    chosen = {"metric": "total", "metric_named": True, "jdk_calls": grown}
    assert jdk_work_note({"t.py::test_named": chosen}) is None
    note = jdk_work_note({"t.py::test_named": chosen, "t.py::test_plain": {"metric": "total", "jdk_calls": grown}})
    assert "t.py::test_plain calls" in note and "(and" not in note and 'scaling(..., metric="total")' in note
