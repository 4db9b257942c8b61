"""Complexity checks on deep counts fit one work figure, deep.total + deep.copied: a part that is a small share of the
work does not decide the order, a part that carries the growth does, and an order stored on one part alone is not
compared with it. The series are simulated data structures, their orders derived by hand."""

from __future__ import annotations

from pytest_bytecount.regression.scaling import compare_scaling, render_scaling
from pytest_bytecount.regression.scaling_deep import COPIES, measure_deep

SIZES = [256, 512, 1024, 2048, 4096]
M = "app.Lists#fill(I)I"


def growth_copies(n: int) -> int:
    """Elements an ArrayList copies while n elements are added one by one: capacity 10, grown by half when full,
    each growth copying the elements held so far. A step function of n, linear on the whole."""
    capacity, copied = 10, 0
    for size in range(n):
        if size == capacity:
            copied += size
            capacity += capacity >> 1
    return copied


def _measure(total, copied, where=None):
    parts = {"deep": {M: [total(n) for n in SIZES]}, "copied": {M: [copied(n) for n in SIZES]}}
    return measure_deep(SIZES, parts, {M: where or [{} for _ in SIZES]})


def test_growth_copies_that_are_a_small_share_of_linear_work_leave_it_linear():
    result = _measure(lambda n: 20 * n + 40, growth_copies)
    s = result[M]
    assert s.order == "n", s.describe()
    assert s.values == [20 * n + 40 + growth_copies(n) for n in SIZES]  # one figure: the two parts summed
    assert s.describe().endswith("in deep work (deep.total + deep.copied)")
    assert {p: v for p, (_, _, v) in s.parts.items()} == {"deep": [20 * n + 40 for n in SIZES],
                                                         "copied": [growth_copies(n) for n in SIZES]}


def test_shifts_that_carry_the_work_decide_the_order():
    """ArrayList.remove(0) until empty: n calls of constant instructions, each shifting the rest (n(n-1)/2)."""
    result = _measure(lambda n: 30 * n, lambda n: n * (n - 1) // 2,
                      where=[{"java.util.ArrayList#remove(I)Ljava/lang/Object;": 12 * n} for n in SIZES])
    s = result[M]
    assert s.order == "n^2"
    assert s.parts["deep"][0] == "n" and s.parts["copied"][0] == "n^2"
    # where the work went: the native copies first, they grew the most
    assert s.where[0] == (COPIES, [n * (n - 1) // 2 for n in SIZES])
    assert s.where[1][0] == "java.util.ArrayList#remove(I)Ljava/lang/Object;"


def test_an_order_stored_on_one_part_alone_is_not_compared_with_the_work():
    result = _measure(lambda n: 20 * n, growth_copies)
    stored = {M: {"metric": "deep", "order": "n", "exponent": 1.0, "sizes": SIZES, "values": [1] * 5,
                  "decided_by": "deep.total", "fitted": {"deep.total": "n", "deep.copied": "n log n"}}}
    verdict = compare_scaling(stored, result)
    assert [c.status for c in verdict.changes] == ["metric"]
    text = render_scaling(verdict, None, "pytest t.py::test_fill --bytecount-update")
    assert text == (f"{M}: the baseline's order (n) was fitted on deep.total, and this check fits deep work (now n, "
                    f"exponent {result[M].exponent:.2f} in deep work (deep.total + deep.copied)): orders of two "
                    f"figures are not compared. Re-record the baseline: pytest t.py::test_fill --bytecount-update")
    # recorded on the work figure, it compares
    stored[M]["decided_by"] = "deep work"
    stored[M]["values"] = result[M].values
    assert [c.status for c in compare_scaling(stored, result).changes] == ["same"]


def test_an_order_that_fell_on_flat_counts_while_jdk_calls_carry_work_cannot_be_judged():
    """A retainAll-style loop moved into one JDK call: the method's own instructions no longer grow (1), while
    the work inside the call does. Flat counts cannot tell a fix from a regression there: not "improved"."""
    from pytest_bytecount.regression.scaling import measure
    from pytest_bytecount.regression.scaling_deep import jdk_work_note, made_calls

    own = {M: [12] * len(SIZES)}  # one call of retainAll, whatever n
    result = measure(SIZES, own, "total")
    calls = {M: {"java/util/List.retainAll(Ljava/util/Collection;)Z": [1] * len(SIZES),
                 "java/lang/Object.<init>()V": [2] * len(SIZES)}}
    result.jdk_made = made_calls(calls)
    assert result.jdk_made == {M: [("java/util/List.retainAll(Ljava/util/Collection;)Z", [1] * len(SIZES))]}
    stored = {M: {"metric": "total", "order": "n^2", "exponent": 2.0, "sizes": SIZES, "values": [n * n for n in SIZES]}}
    verdict = compare_scaling(stored, result)
    assert [c.status for c in verdict.changes] == ["unjudged"] and verdict.status == "passed"
    text = render_scaling(verdict, None)
    assert text.startswith(f"{M}: the order cannot be judged on total: it fell from n^2 to 1, but the method calls "
                           "java/util/List.retainAll(Ljava/util/Collection;)Z 1 time at the largest size, whose work "
                           "total does not count")
    assert "improved" not in text
    note = jdk_work_note({"t.py::test_keep": result.to_dict()})
    assert note.startswith("complexity checks that cannot be judged on flat counts: the order of t.py::test_keep fell "
                           "from n^2 to 1 while it calls java/util/List.retainAll")
    # with no JDK call that may carry the work (only Object.<init>), a lower order is an improvement
    result.jdk_made = made_calls({M: {"java/lang/Object.<init>()V": [2] * len(SIZES)}})
    assert [c.status for c in compare_scaling(stored, result).changes] == ["better"]
