"""Exits by exception and allocation recording through pytest: marker options, baselines, verdicts."""

from __future__ import annotations

import json

import pytest
from tests.support.pytest_project import java_project, run


WORK = """
package w;

public class Work {
    public static int[] copy(int[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i];
        }
        return b;
    }

    public static int check(int x) {
        if (x < 0) {
            throw new IllegalArgumentException("negative");
        }
        return x + 1;
    }
}
"""

TESTS = '''
import jpype
import pytest

@pytest.mark.bytecount("w.Work#copy", allocations=True, tolerance="total=50%")
def test_copy(bytecount):
    b = bytecount.jclass("w.Work").copy(jpype.JArray(jpype.JInt)([1, 2, 3]))
    assert list(b)[:3] == [1, 2, 3]

@pytest.mark.bytecount("w.Work#check", abrupt=True)
def test_check(bytecount):
    work = bytecount.jclass("w.Work")
    assert work.check(1) == 2
    with pytest.raises(Exception):
        work.check(-1)
    c = bytecount.counts()["w.Work#check(I)I"]
    assert c["invocations"] == 1 and c["abrupt"]["invocations"] == 1
'''


@pytest.fixture
def project(pytester):
    return java_project(pytester, {"w/Work.java": WORK}, {"test_work": TESTS})


def test_allocations_and_abrupt_exits_are_recorded_and_compared(project):
    run(project, "--bytecount-update").assert_outcomes(passed=2)
    tests = json.loads((project.path / "bytecount" / "test_work.json").read_text())["tests"]
    copy = tests["test_copy"]["methods"]["w.Work#copy([I)[I"]
    # by hand: one int[3] per call, one call
    assert copy["allocations"] == {"arrays": {"[I": 1}, "elements": {"[I": 3}, "objects": {}}
    check = tests["test_check"]["methods"]["w.Work#check(I)I"]
    assert check["invocations"] == 1 and check["abrupt"]["invocations"] == 1
    # by hand: iload_0, ifge, new, dup, ldc, invokespecial, athrow: the throwing path, counted apart
    assert check["abrupt"]["opcodes"] == {"athrow": 1, "dup": 1, "ifge": 1, "iload_0": 1, "invokespecial": 1,
                                          "ldc": 1, "new": 1}
    assert check["opcodes"] == {"iadd": 1, "iconst_1": 1, "ifge": 1, "iload_0": 2, "ireturn": 1}
    run(project).assert_outcomes(passed=2)

    # four times the memory, two more instructions: within the total tolerance, caught on elements
    path = project.path / "src" / "w" / "Work.java"
    path.write_text(path.read_text().replace("new int[a.length]", "new int[a.length * 4]"))
    result = run(project)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["w.Work#copy([[]I)[[]I: REGRESSED", "    elements * 3 -> 12 * +9 (+300.0%)  outside tolerance"])
