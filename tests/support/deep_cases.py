"""A test over the six JDK-heavy methods of ``fixtures-java/deep-cases`` (good versions), most of whose work is the
JDK's: shared by the tests and the benchmarks that need a deep session with real JDK work."""

from __future__ import annotations

from .paths import FIXTURES_JAVA

SOURCES = FIXTURES_JAVA / "deep-cases" / "good"  # the project's src/: package cases

HEAVY_TEST = '''
import pytest

CASES = [("Dedup", "unique"), ("Prices", "total"), ("Sales", "total"), ("Tasks", "drain"), ("Csv", "join"),
         ("Points", "distinct")]


@pytest.mark.bytecount("cases.*")
def test_collections(bytecount):
    for name, method in CASES:
        getattr(bytecount.jclass(f"cases.{name}"), method)(SIZE)
'''


def heavy_test(n: int) -> str:
    """The text of a test module calling each of the six methods once at size ``n``."""
    return HEAVY_TEST.replace("SIZE", str(n))
