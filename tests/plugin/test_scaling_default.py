"""A complexity check sees all the work by default: a test that calls ``bytecount.scaling()`` takes deep counts
unless its marker says ``deep=False``, with the marker as users write it, and so does a test that makes no such
check."""

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


FLAT_BEFORE = {
    "flat/Spaces.java": """
package flat;
public class Spaces {
    /** The text with each run of spaces made one: a regular expression, one JDK call whatever the length. */
    public static String squeeze(String s) {
        return s.replaceAll(" +", " ");
    }
    public static String text(int n) {
        return "ab  c ".repeat(n);
    }
}
""",
    "flat/Buffer.java": """
package flat;
import java.util.Arrays;
public class Buffer {
    /** n appends to a buffer that grows by one each time: its helper copies the whole buffer per append. */
    public static int fill(int n) {
        char[] buf = new char[0];
        for (int i = 0; i < n; i++) buf = grow(buf, 'x');
        return buf.length;
    }
    static char[] grow(char[] buf, char c) {
        char[] out = Arrays.copyOf(buf, buf.length + 1);
        out[buf.length] = c;
        return out;
    }
}
""",
}

SQUEEZE_LOOP = """
package flat;
public class Spaces {
    /** The same text, squeezed by a loop of its own: the work moved out of the JDK call into the method. */
    public static String squeeze(String s) {
        StringBuilder out = new StringBuilder();
        boolean space = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != ' ' || !space) out.append(c);
            space = c == ' ';
        }
        return out.toString();
    }
    public static String text(int n) {
        return "ab  c ".repeat(n);
    }
}
"""

FLAT_TESTS = """
import pytest

SIZES = [256, 512, 1024, 2048]


@pytest.mark.bytecount("flat.Spaces#squeeze", deep=False)
def test_squeeze(bytecount):
    c = bytecount.jclass("flat.Spaces")
    bytecount.scaling(SIZES, lambda n: c.squeeze(c.text(n)))


@pytest.mark.bytecount("flat.Buffer#fill", "flat.Buffer#grow", inclusive=True, deep=False)
def test_fill(bytecount):
    c = bytecount.jclass("flat.Buffer")
    bytecount.scaling(SIZES, lambda n: c.fill(n), method="flat.Buffer#fill")
"""


def test_flat_checks_say_when_work_moved_between_the_method_and_the_jdk(pytester):
    """deep=False: a regular expression replaced by a loop of the method's own raises its flat order from 1 to n
    while the work stays linear: the check cannot judge it, and says so, never "worse". With inclusive=True the
    JDK calls a helper makes count as the method's: a helper's Arrays.copyOf that grows with n is named."""
    java_project(pytester, FLAT_BEFORE, {"test_flat": FLAT_TESTS})
    record = run(pytester, "--bytecount-update", "--bytecount-json=record.json")
    assert record.ret == 0, record.stdout.str()
    recorded = {k.split("::")[1]: v for k, v in json.loads((pytester.path / "record.json").read_text()).items()}
    fill = recorded["test_fill"]["scaling"]
    assert [sig for sig, _ in fill["jdk_calls"]["flat.Buffer#fill(I)I"]][0].startswith("java/util/Arrays.copyOf(")
    (pytester.path / "src" / "flat" / "Spaces.java").write_text(SQUEEZE_LOOP)
    judged = run(pytester, "--bytecount-json=judged.json")
    out = judged.stdout.str()
    result = {k.split("::")[1]: v for k, v in json.loads((pytester.path / "judged.json").read_text()).items()}["test_squeeze"]
    (method,) = result["scaling"]["methods"].values()
    assert (method["baseline_order"], method["order"], method["change"]) == ("1", "n", "unjudged"), method
    assert "COMPLEXITY GOT WORSE" not in out and "COMPLEXITY GOT WORSE" not in result["message"]
    assert "the order cannot be judged on total: it rose from 1 to n, but the baseline's method called " \
           "java/lang/String.replaceAll(" in result["message"]
    assert "complexity checks that cannot be judged on flat counts: the order of test_flat.py::test_squeeze rose " \
           "from 1 to n while its baseline's method called JDK methods (the test's message names them)" in out
