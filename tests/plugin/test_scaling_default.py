"""A complexity check sees all the work by default: a test that calls ``bytecount.scaling()`` takes deep counts
unless its marker says ``deep=False``, with the marker as users write it, and so does a test that makes no such
check."""

from __future__ import annotations

import json

from tests.support.paths import FIXTURES_JAVA
from tests.support.pytest_project import java_project, run

DEDUP = (FIXTURES_JAVA / "deep-cases" / "bad" / "cases" / "Dedup.java").read_text()  # a List.contains scan per element

TESTS = """
import pytest

SIZES = [256, 512, 1024, 2048]


@pytest.mark.bytecount("cases.Dedup#unique")
def test_plain(bytecount):
    c = bytecount.jclass("cases.Dedup")
    bytecount.scaling(SIZES, lambda n: c.unique(n))


@pytest.mark.bytecount("cases.Dedup#unique", deep=False)
def test_flat(bytecount):
    c = bytecount.jclass("cases.Dedup")
    bytecount.scaling(SIZES, lambda n: c.unique(n))


class TestInAClass:
    @pytest.mark.bytecount("cases.Dedup#unique")
    def test_method(self, bytecount):
        c = bytecount.jclass("cases.Dedup")

        def run(n):
            c.unique(n)

        bytecount.scaling(SIZES, run)


@pytest.mark.bytecount("cases.Dedup#unique")
def test_counts_only(bytecount):
    assert bytecount.jclass("cases.Dedup").unique(100) == 100
"""


def test_a_plain_marker_takes_deep_counts_unless_it_says_deep_false(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, {"cases/Dedup.java": DEDUP}, {"test_default": TESTS}, pinned=False)
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    assert result.ret == 0, result.stdout.str()
    data = {k.split("::", 1)[1]: v for k, v in json.loads((pytester.path / "results.json").read_text()).items()}
    method = "cases.Dedup#unique(I)I"
    # the plain marker: the work inside List.contains is in the fit, and its order is the scan's
    for name in ("test_plain", "TestInAClass::test_method"):
        scaling = data[name]["scaling"]
        assert scaling["metric"] == "deep" and scaling["methods"][method]["order"] == "n^2", (name, scaling)
        assert "deep" in data[name]["counts"][method]
    # deep=False: the method's own instructions, linear
    flat = data["test_flat"]
    assert flat["scaling"]["metric"] == "total" and flat["scaling"]["methods"][method]["order"] == "n"
    assert "deep" not in flat["counts"][method]
    # no complexity check: deep counts all the same, by default
    assert "deep" in data["test_counts_only"]["counts"][method] and "scaling" not in data["test_counts_only"]
