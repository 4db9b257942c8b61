"""A complexity check sees all the work by default: a test that calls ``bytecount.scaling()`` takes deep counts
unless its marker says ``deep=False``, with the marker as users write it; a test that makes no such check stays
flat."""

from __future__ import annotations

import json

from pytest_bytecount.plugin.markers import checks_scaling
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


def test_a_complexity_check_takes_deep_counts_unless_the_marker_says_deep_false(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, {"cases/Dedup.java": DEDUP}, {"test_default": TESTS})
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
    # no complexity check: the counts stay flat
    assert "deep" not in data["test_counts_only"]["counts"][method] and "scaling" not in data["test_counts_only"]


def test_a_complexity_check_is_found_in_the_test_code_and_the_functions_defined_in_it():
    def direct(bytecount):
        bytecount.scaling([1, 2, 3, 4], lambda n: n)

    def nested(bytecount):
        def check():
            return bytecount.scaling
        return check

    class Holder:
        def method(self, bytecount):
            return [bytecount.scaling for _ in range(1)]

    def counts_only(bytecount):
        scaling = 3  # a local name, not the check
        return bytecount.counts(), scaling

    assert checks_scaling(direct) and checks_scaling(nested) and checks_scaling(Holder().method)
    assert checks_scaling(Holder.method)
    assert not checks_scaling(counts_only) and not checks_scaling(None) and not checks_scaling(len)
