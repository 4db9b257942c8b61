"""A failure that a small tolerance would pass says which: the smallest, from 0.001% up to 1%, under which the
comparison itself would pass the test, on the figures that tripped; and with it written on the marker, as the line
says, the test passes. A real regression (a rise past 1%) gets no such line."""

from __future__ import annotations

from tests.support.pytest_project import java_project, run

BEFORE = """
package app;

import java.util.Arrays;

public class Prices {
    public static int median(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = (i * 7919) % 10007;
        Arrays.sort(a);
        return a[n / 2];
    }
}
"""
# the same work and a helper called once: a few instructions in millions
AFTER = BEFORE.replace("        return a[n / 2];", "        return middle(a);").replace(
    "    public static int median", "    static int middle(int[] a) {\n        return a[a.length / 2];\n    }\n\n"
    "    public static int median")
# a real regression: the array sorted twice
WORSE = BEFORE.replace("        Arrays.sort(a);", "        Arrays.sort(a);\n        a[0] = 99999;\n        Arrays.sort(a);")

TEST = '''
import pytest

@pytest.mark.bytecount("app.Prices#median"{tolerance})
def test_median(bytecount):
    assert bytecount.jclass("app.Prices").median(20000) >= 0
'''


def test_a_failure_a_small_tolerance_passes_names_it_and_that_tolerance_passes_it(pytester):
    java_project(pytester, {"app/Prices.java": BEFORE}, {"test_prices": TEST.format(tolerance="")}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    (pytester.path / "src" / "app" / "Prices.java").write_text(AFTER)
    failed = run(pytester)
    out = failed.stdout.str()
    assert failed.ret == 1, out
    # The failure section only: with CI set, pytest's short summary repeats the whole message.
    failures = out.split("short test summary info")[0]
    (line,) = [ln for ln in failures.splitlines() if ln.startswith("a tolerance would pass it")]
    assert line.startswith('a tolerance would pass it as reshaped: tolerance="deep=0.001%"'), line
    (pytester.path / "test_prices.py").write_text(TEST.format(tolerance=', tolerance="deep=0.001%"'))
    passed = run(pytester)
    assert passed.ret == 0, passed.stdout.str()


def test_a_real_regression_gets_no_tolerance_line(pytester):
    java_project(pytester, {"app/Prices.java": BEFORE}, {"test_prices": TEST.format(tolerance="")}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    (pytester.path / "src" / "app" / "Prices.java").write_text(WORSE)
    failed = run(pytester)
    assert failed.ret == 1 and "REGRESSED: deep" in failed.stdout.str()
    assert "a tolerance would pass it" not in failed.stdout.str()
