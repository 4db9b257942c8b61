"""Inclusive counts through pytest: the marker option, baselines, and a regression inside a callee."""

from __future__ import annotations

import json

from tests.support.pytest_project import java_project, run

CALC = """
package inc;

public class Calc {
    public static int score(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += weigh(a[i]);
        }
        return s;
    }

    static int weigh(int x) {
        return x * 2;
    }
}
"""

TESTS = '''
import jpype
import pytest

@pytest.mark.bytecount("inc.Calc#score", inclusive=True)
def test_score(bytecount):
    assert bytecount.jclass("inc.Calc").score(jpype.JArray(jpype.JInt)([1, 2, 3])) > 0
'''


def test_a_regression_inside_a_callee_fails_on_the_inclusive_metric_alone(pytester):
    java_project(pytester, {"inc/Calc.java": CALC}, {"test_calc": TESTS})
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    methods = json.loads((pytester.path / "bytecount" / "test_calc.json").read_text())["tests"]["test_score"]["methods"]
    assert list(methods) == ["inc.Calc#score([I)I"], "callees are not reported on their own"
    score = methods["inc.Calc#score([I)I"]
    assert score["calls"] == {"inc/Calc.weigh(I)I": 3}
    inclusive = score["inclusive"]
    assert inclusive["methods"] == ["inc.Calc#score([I)I", "inc.Calc#weigh(I)I"]
    # by hand: weigh is iload_0 iconst_2 imul ireturn, called 3 times
    assert inclusive["total"] == score["total"] + 4 * 3
    assert inclusive["opcodes"]["imul"] == 3 and inclusive["opcodes"]["ireturn"] == score["opcodes"]["ireturn"] + 3
    run(pytester).assert_outcomes(passed=1)

    # the callee gets two more instructions per call; the target's own bytecode and counts stay the same
    path = pytester.path / "src" / "inc" / "Calc.java"
    path.write_text(path.read_text().replace("return x * 2;", "return x * 2 + 1;"))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "inc.Calc#score([[]I)I: REGRESSED",
        f"    inclusive * {inclusive['total']} -> {inclusive['total'] + 6} * +6 *",
        "    inclusive opcodes: iadd 3 -> 6 (+3), iconst_1 0 -> 3 (+3)",
        "    same bytecode as the baseline, but the code of its callee inc.Calc#weigh(I)I changed since the baseline",
    ])
    assert "    total " not in result.stdout.str(), "the flat counts did not change"
