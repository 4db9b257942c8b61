"""Cost weights in pytest, run the way a user runs them: real pytest processes (pytester) on a small Java project.

Each run is a subprocess because a process gets one JVM.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from tests.support.pytest_project import JDK17, PINNED_FLAT, run


SCALE = '''
package cost;

/** A loop whose multiply becomes a divide: the same instruction count, a higher cost. */
public class Scale {
    public static int scale(int n) {
        int s = 0;
        for (int i = 1; i <= n; i++) {
            s += i * 3;
        }
        return s;
    }
}
'''
# javap -c (javac 17): 0: iconst_0 1: istore_1 2: iconst_1 3: istore_2 | 4: iload_2 5: iload_0 6: if_icmpgt 21 |
# 9: iload_1 10: iload_2 11: iconst_3 12: imul 13: iadd 14: istore_1 15: iinc 18: goto 4 | 21: iload_1 22: ireturn.
# scale(100): 4 + 101 x 3 + 100 x 8 + 2 = 1,109 instructions. Default weights: all 1 but imul 2, so
# cost 1,109 + 100 = 1,209; with idiv (10) in place of imul: 1,109 + 100 x 9 = 2,009 (+66.2%).
TOTAL, COST, COST_WITH_IDIV = 1109, 1209, 2009

TESTS = '''
import pytest

@pytest.mark.bytecount("cost.Scale#scale", tolerance="total=10%,cost=3%")
def test_tight(bytecount):
    assert bytecount.jclass("cost.Scale").scale(100) > 0

@pytest.mark.bytecount("cost.Scale#scale", tolerance="total=10%,cost=70%")
def test_loose(bytecount):
    assert bytecount.jclass("cost.Scale").scale(100) > 0
'''

PLAIN_TESTS = '''
import pytest

@pytest.mark.bytecount("cost.Scale#scale")
def test_plain(bytecount):
    assert bytecount.jclass("cost.Scale").scale(100) > 0
'''


def make_project(pytester, tests: str, weights: str = 'weights = "default"'):
    (pytester.path / "src" / "cost").mkdir(parents=True)
    (pytester.path / "src" / "cost" / "Scale.java").write_text(textwrap.dedent(SCALE))
    pytester.makepyprojecttoml(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{JDK17}"\n{PINNED_FLAT}\n{weights}\n')
    pytester.makepyfile(test_cost=tests)
    return pytester


def baseline(pytester) -> dict:
    return json.loads((pytester.path / "bytecount" / "test_cost.json").read_text())


def multiply_becomes_divide(pytester) -> None:
    path = pytester.path / "src" / "cost" / "Scale.java"
    path.write_text(path.read_text().replace("s += i * 3;", "s += i / 3;"))


def test_with_weights_every_method_gets_a_cost_in_baselines_results_and_the_summary(pytester, monkeypatch):
    project = make_project(pytester, TESTS)
    summary = project.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run(project, "--bytecount-update", "--bytecount-json=results.json", "--junitxml=junit.xml")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["cost weights: default table (*default.toml), sha256 *"])
    method = baseline(project)["tests"]["test_tight"]["methods"]["cost.Scale#scale(I)I"]
    assert (method["total"], method["cost"]) == (TOTAL, COST)
    results = json.loads((project.path / "results.json").read_text())["test_cost.py::test_tight"]
    assert results["counts"]["cost.Scale#scale(I)I"]["cost"] == COST
    assert results["weights"].startswith("default table")
    assert f'name="bytecount cost.Scale#scale(I)I cost" value="{COST}"' in (project.path / "junit.xml").read_text()
    assert f"| {COST:,} | {TOTAL:,} | 1 |" in summary.read_text()  # cost, the work figure in force, first


def test_a_costlier_instruction_at_the_same_total_fails_on_cost_beyond_its_tolerance(pytester):
    project = make_project(pytester, TESTS)
    run(project, "--bytecount-update").assert_outcomes(passed=2)
    multiply_becomes_divide(project)
    result = run(project)
    result.assert_outcomes(passed=1, failed=1)  # test_loose allows 70% more cost
    result.stdout.fnmatch_lines([
        "*_ test_tight _*",
        f"REGRESSED: cost {COST:,} -> {COST_WITH_IDIV:,} (+800, +66.2%; tolerance 3%); total unchanged",
        "cost.Scale#scale(I)I: REGRESSED",
        f"    cost * {COST:,} -> {COST_WITH_IDIV:,} * +800 (+66.2%)  outside tolerance",
        "    opcodes: idiv 0 -> 100 (+100), imul 100 -> 0 (-100)",
        "    the method's bytecode changed since the baseline",
    ])
    assert "    total" not in result.stdout.str()  # the instruction count did not move
    result.stdout.fnmatch_lines(["1 passed, 1 regressed"])


def test_baselines_recorded_without_weights_are_weighed_from_their_stored_counts(pytester):
    project = make_project(pytester, PLAIN_TESTS, weights="")
    run(project, "--bytecount-update").assert_outcomes(passed=1)
    recorded = (project.path / "bytecount" / "test_cost.json").read_text()
    assert '"cost"' not in recorded
    # turning weights on (or changing the table) never fails a test by itself: the baseline's cost is
    # recomputed from its opcodes and calls with the table in use
    run(project, "--bytecount-weights=default").assert_outcomes(passed=1)
    assert (project.path / "bytecount" / "test_cost.json").read_text() == recorded
    multiply_becomes_divide(project)
    run(project).assert_outcomes(passed=1)  # without weights an opcode mix shift at the same total passes
    result = run(project, "--bytecount-weights=default")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"    cost * {COST:,} -> {COST_WITH_IDIV:,} * +800 (+66.2%)  outside tolerance"])


def test_a_table_of_your_own_next_to_pyproject(pytester):
    project = make_project(pytester, PLAIN_TESTS, weights='weights = "ci/weights.toml"')
    (project.path / "ci").mkdir()
    (project.path / "ci" / "weights.toml").write_text('extends = "default"\n[opcodes]\nimul = 5\n')
    result = run(project, "--bytecount-update")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["cost weights: *ci/weights.toml, sha256 *"])
    assert baseline(project)["tests"]["test_plain"]["methods"]["cost.Scale#scale(I)I"]["cost"] == TOTAL + 100 * 4


def test_a_cost_tolerance_without_weights_fails_its_test_and_a_bad_table_is_a_usage_error(pytester):
    project = make_project(pytester, TESTS, weights="")
    result = run(project)
    result.assert_outcomes(errors=2)  # each misused marker is its own test's error
    result.stdout.fnmatch_lines(["*test_cost.py::test_tight: tolerance 'total=10%,cost=3%' sets a cost tolerance, "
                                 "but no weight table is active: set [[]tool.bytecount[]] weights = \"default\"*"])
    (project.path / "weights.toml").write_text("[opcodes]\nimull = 5\n")
    result = run(project, "--bytecount-weights=weights.toml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*bytecount: weight table *weights.toml: [[]opcodes[]] 'imull': not a JVM opcode "
                                 "mnemonic as javap prints it; did you mean imul*"])
