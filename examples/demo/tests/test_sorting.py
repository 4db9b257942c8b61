"""Marked tests: each one counts the executed bytecode of the methods its marker names and compares the
counts with tests/bytecount/test_sorting.json."""

import jpype
import pytest


def reversed_ints(n):
    return jpype.JArray(jpype.JInt)(range(n, 0, -1))  # the insertion sort's worst case


@pytest.mark.bytecount("demo.Sorting#insertionSort")
@pytest.mark.parametrize("n", [10, 100])
def test_insertion_sort(bytecount, n):
    sorting = bytecount.jclass("demo.Sorting")  # loaded in a class loader of this test's own
    a = reversed_ints(n)
    sorting.insertionSort(a)
    assert list(a) == list(range(1, n + 1))


@pytest.mark.bytecount("demo.Sorting#fib", tolerance="total=5%")  # counts may rise 5% before it fails
def test_fib(bytecount):
    assert bytecount.jclass("demo.Sorting").fib(12) == 144
    counts = bytecount.counts()["demo.Sorting#fib(I)I"]  # the counts so far, as a dict
    assert counts["invocations"] == 465  # explicit assertions work too
    assert counts["calls"]["demo/Sorting.fib(I)I"] == 464


@pytest.mark.bytecount("demo.Sorting#insertionSort", deep=False)  # calls nothing: flat counts see all its work
def test_insertion_sort_is_quadratic(bytecount):
    sorting = bytecount.jclass("demo.Sorting")
    # The counts at each size are fitted against 1, log n, n, n log n, n^2, ...: the order found (n^2) is
    # stored in the baseline, and a worse one fails the test.
    bytecount.scaling([16, 32, 64, 128, 256, 512], lambda n: sorting.insertionSort(reversed_ints(n)))
