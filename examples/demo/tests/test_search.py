"""The short form of the marker: ``bytecount("pkg.Cls#method", ...)`` is ``@pytest.mark.bytecount(...)``. It is
imported here as ``counted``, so that it is not mistaken for the ``bytecount`` fixture the tests take."""

import jpype
import pytest

from pytest_bytecount import bytecount as counted


def evens(n):
    return jpype.JArray(jpype.JInt)(range(0, 2 * n, 2))  # 0, 2, 4, ..., 2n - 2


@counted("demo.Search#indexOf")
@pytest.mark.parametrize("key", [0, 1998, 1999])  # the first, the last, and one that is not there
def test_index_of(bytecount, key):
    search = bytecount.jclass("demo.Search")
    assert search.indexOf(evens(1000), key) == (key // 2 if key % 2 == 0 else -1)


# A complexity check takes deep counts (the work anywhere, the JDK included) unless the marker says deep=False:
# this search calls nothing, so its own instructions are all its work, and the flat counts skip the deep set-up.
@counted("demo.Search#indexOf", deep=False)
def test_index_of_is_logarithmic(bytecount):
    search = bytecount.jclass("demo.Search")

    def look_up_all(n):  # 64 look-ups in an array of n: each costs about log2(n) turns of the loop
        a = evens(n)
        for key in range(0, 2 * n, 2 * n // 64):
            search.indexOf(a, key)

    bytecount.scaling([256, 512, 1024, 2048, 4096, 8192, 16384], look_up_all)  # stored: log n
