"""--bytecount-check-determinism: each marked test runs twice, each run in a fresh class loader, and counts that
differ fail the test naming the method and the metric. End to end with pytester (one JVM per process)."""

from __future__ import annotations

import json
import textwrap

import pytest

from pytest_bytecount import __version__
from pytest_bytecount.regression.determinism import CountDifference, DeterminismCheck, differences, repetitions_differ
from pytest_bytecount.regression.status import FAILING
from tests.support.pytest_project import java_project, run


SET_WALK = '''
package order;

import java.util.HashSet;
import java.util.Set;

/** Puts keys 0..n-1 in a HashSet, reads them back in the set's order, and sorts what it read. */
public class SetWalk {
    /** No hashCode of its own: the set's order follows identity hash codes, which are new every run. */
    static final class IdentityKey {
        final int id;
        IdentityKey(int id) { this.id = id; }
    }

    /** hashCode from the value: the set's order is the same every run. */
    static final class ValueKey {
        final int id;
        ValueKey(int id) { this.id = id; }
        @Override public int hashCode() { return id; }
        @Override public boolean equals(Object o) { return o instanceof ValueKey && ((ValueKey) o).id == id; }
    }

    public static int byIdentity(int n) {
        Set<IdentityKey> set = new HashSet<>();
        for (int i = 0; i < n; i++) set.add(new IdentityKey(i));
        int[] ids = new int[n];
        int k = 0;
        for (IdentityKey key : set) ids[k++] = key.id;
        return insertionSort(ids);
    }

    public static int byValue(int n) {
        Set<ValueKey> set = new HashSet<>();
        for (int i = n - 1; i >= 0; i--) set.add(new ValueKey(i));
        int[] ids = new int[n];
        int k = 0;
        for (ValueKey key : set) ids[k++] = key.id;
        return insertionSort(ids);
    }

    /** Sorts a and returns the number of shifts: the work depends on the order a came in. */
    static int insertionSort(int[] a) {
        int shifts = 0;
        for (int i = 1; i < a.length; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
                shifts++;
            }
            a[j + 1] = x;
        }
        return shifts;
    }
}
'''
# 1,000 keys in identity-hash order: the shift count is the number of inversions of a random permutation,
# about 250,000 give or take 5,000 (its standard deviation), so two runs agreeing by chance is very unlikely.
ORDER_TESTS = '''
import pytest

@pytest.mark.bytecount("order.SetWalk#insertionSort")
def test_value_order(bytecount):
    assert bytecount.jclass("order.SetWalk").byValue(1000) == 0   # HashSet of small ints: already sorted

@pytest.mark.bytecount("order.SetWalk#insertionSort")
def test_identity_order(bytecount):
    assert bytecount.jclass("order.SetWalk").byIdentity(1000) >= 0
'''


@pytest.fixture
def project(pytester):
    return java_project(pytester, {"order/SetWalk.java": textwrap.dedent(SET_WALK)}, {})


def test_counts_that_depend_on_identity_hash_order_fail_naming_method_and_metric(project):
    project.makepyfile(test_order=ORDER_TESTS)
    result = run(project, "--bytecount-check-determinism", "--bytecount-update", "--bytecount-weights=default")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*_ test_identity_order _*",
        "bytecount: not deterministic: counts differ between two runs of this test, each in a fresh class loader "
        "(--bytecount-check-determinism):",
        "order.SetWalk#insertionSort([[]I)I:",
        "                       first run    second run    difference",
        "    total      * [+-]*",
        "    cost       * [+-]*",
        "    opcode *",
        "A baseline of this test would be flaky. Likely causes: iteration over hash-based collections of objects "
        "without their own hashCode*",
    ])
    assert "invocations" not in result.stdout.str()  # one call per run either way: only what moved is named
    result.stdout.fnmatch_lines(["1 recorded, 1 nondeterministic"])
    tests = json.loads((project.path / "bytecount" / "test_order.json").read_text())["tests"]
    assert list(tests) == ["test_value_order"]  # a nondeterministic test never becomes a baseline


def test_fixtures_holding_classes_and_python_state_are_told_apart_from_nondeterminism(project):
    project.makepyfile(test_fixtures='''
        import pytest

        @pytest.fixture
        def walk_class(bytecount):
            return bytecount.jclass("order.SetWalk")   # a class of the first run's loader

        @pytest.fixture
        def walk(bytecount):
            return lambda n: bytecount.jclass("order.SetWalk").byValue(n)   # looks the class up on each call

        @pytest.mark.bytecount("order.SetWalk#insertionSort")
        def test_holds_a_class(walk_class):
            assert walk_class.byValue(100) == 0

        @pytest.mark.bytecount("order.SetWalk#insertionSort")
        def test_holds_the_fixture(walk):
            assert walk(100) == 0

        runs = []

        @pytest.mark.bytecount("order.SetWalk#insertionSort")
        def test_python_state(bytecount):
            runs.append(1)
            assert bytecount.jclass("order.SetWalk").byValue(10) == 0
            assert len(runs) == 1
    ''')
    result = run(project, "--bytecount-check-determinism", "--bytecount-update")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*_ test_holds_a_class _*",
        "bytecount: cannot check determinism: during the second run, code loaded for the first run kept counting "
        "(order.SetWalk#insertionSort([[]I)I). A fixture probably holds a class from bytecount.jclass(...)*",
        "*_ test_python_state _*",
        "bytecount: not deterministic: the test passed, then failed when run again in a fresh class loader*",
        "AssertionError: assert 2 == 1*",
    ])
    result.stdout.fnmatch_lines(["1 recorded, 1 nondeterministic, 1 unchecked"])
    tests = json.loads((project.path / "bytecount" / "test_fixtures.json").read_text())["tests"]
    assert list(tests) == ["test_holds_the_fixture"]


def test_differences_name_each_metric_with_both_values():
    m = "a.B#c()V"
    first = {m: {"invocations": 1, "total": 10, "opcodes": {"iadd": 4, "nop": 6}, "calls": {"x/Y.z()V": 2}}}
    second = {m: {"invocations": 1, "total": 12, "opcodes": {"iadd": 4, "nop": 7, "pop": 1}, "calls": {}}}
    assert differences(first, second) == [
        CountDifference(m, "total", 10, 12),
        CountDifference(m, "call x/Y.z()V", 2, 0),
        CountDifference(m, "opcode nop", 6, 7),
        CountDifference(m, "opcode pop", 0, 1),
    ]
    assert differences(first, first) == []
    text = DeterminismCheck(differences(first, second)).message()
    assert "a.B#c()V:\n" in text
    assert "    call x/Y.z()V             2             0            -2" in text
    assert DeterminismCheck().ok and not DeterminismCheck(second_run_error="boom").ok


def test_a_difference_only_in_the_inclusive_counts_is_named():
    m = "a.B#c()V"
    own = {"invocations": 1, "total": 10, "opcodes": {"nop": 10}, "calls": {"a/B.d()V": 1}}
    first = {m: {**own, "inclusive": {"total": 14, "opcodes": {"nop": 14}, "calls": {}, "methods": []}}}
    second = {m: {**own, "inclusive": {"total": 17, "opcodes": {"nop": 17}, "calls": {}, "methods": []}}}
    assert differences(first, second) == [CountDifference(m, "inclusive", 14, 17)]


LINE = '''
package order;

/** Linear work for complexity checks. */
public class Line {
    /** 0 + 1 + ... + (n - 1): one loop iteration per i. */
    public static int sumTo(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }
}
'''
# javac 17 compiles sumTo to: 4 bytecodes before the loop, the test (iload, iload, if_icmpge) n + 1 times,
# the body (iload, iload, iadd, istore, iinc, goto) n times and 2 to return: 9n + 9 per call.
LINE_TOTAL = {n: 9 * n + 9 for n in (10, 20, 40, 80, 100, 400, 1600, 6400)}
SUM_TO = "order.Line#sumTo(I)I"

# Its static initializer refuses a second load in the same JVM: system properties are JVM-wide, outside any
# class loader, so the fresh loader of the second run meets the first run's mark.
LOAD_ONCE = '''
package order;

public class LoadOnce {
    static {
        if (System.getProperty("order.LoadOnce") != null) {
            throw new IllegalStateException("order.LoadOnce was already loaded in this JVM");
        }
        System.setProperty("order.LoadOnce", "loaded");
    }

    public static int one() {
        return 1;
    }
}
'''


@pytest.fixture
def scaling_project(project):
    (project.path / "src" / "order" / "Line.java").write_text(textwrap.dedent(LINE))
    (project.path / "src" / "order" / "LoadOnce.java").write_text(textwrap.dedent(LOAD_ONCE))
    return project


def test_a_deterministic_complexity_check_passes_and_records_its_scaling_entry(scaling_project):
    scaling_project.makepyfile(test_line='''
        import pytest

        @pytest.mark.bytecount("order.Line#sumTo", deep=False)
        def test_linear(bytecount):
            Line = bytecount.jclass("order.Line")
            assert bytecount.scaling([10, 20, 40, 80], lambda n: Line.sumTo(n)).order == "n"
    ''')
    result = run(scaling_project, "--bytecount-check-determinism", "--bytecount-update")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["1 recorded"])
    entry = json.loads((scaling_project.path / "bytecount" / "test_line.json").read_text())["tests"]["test_linear"]
    scaling = entry["scaling"][SUM_TO]
    assert (scaling["metric"], scaling["order"], scaling["sizes"]) == ("total", "n", [10, 20, 40, 80])
    assert scaling["values"] == [LINE_TOTAL[n] for n in (10, 20, 40, 80)]  # the first run's, one call each
    assert entry["methods"][SUM_TO]["total"] == sum(scaling["values"])

    again = run(scaling_project, "--bytecount-check-determinism")
    again.assert_outcomes(passed=1)
    again.stdout.fnmatch_lines(["1 passed"])


def test_complexity_checks_that_measure_differently_in_the_second_run_name_the_method_and_each_size(scaling_project):
    scaling_project.makepyfile(test_line='''
        import pytest

        runs = []

        @pytest.mark.bytecount("order.Line#sumTo", deep=False)
        def test_linear_then_quadratic(bytecount):
            runs.append(1)   # Python state outlives the class loader: the second run sums to n * n
            Line = bytecount.jclass("order.Line")
            bytecount.scaling([10, 20, 40, 80], lambda n: Line.sumTo(n if len(runs) == 1 else n * n))

        checks = []

        @pytest.mark.bytecount("order.Line#sumTo", deep=False)
        def test_checks_once(bytecount):
            checks.append(1)   # the same calls each run, but only the first makes them a complexity check
            Line = bytecount.jclass("order.Line")
            if len(checks) == 1:
                bytecount.scaling([10, 20, 40, 80], lambda n: Line.sumTo(n))
            else:
                for n in [10, 20, 40, 80]:
                    Line.sumTo(n)
    ''')
    result = run(scaling_project, "--bytecount-check-determinism", "--bytecount-update")
    result.assert_outcomes(failed=2)
    first = {n: LINE_TOTAL[n] for n in (10, 20, 40, 80)}
    second = {n: LINE_TOTAL[n * n] for n in (10, 20, 40, 80)}
    result.stdout.fnmatch_lines([
        "*_ test_linear_then_quadratic _*",
        "bytecount: not deterministic: counts differ between two runs of this test, each in a fresh class loader "
        "(--bytecount-check-determinism):",
        f"{SUM_TO}:",
        f"    total * {sum(first.values()):,} * {sum(second.values()):,} * "
        f"{sum(second.values()) - sum(first.values()):+,}",
        *[f"    scaling total at n={n} * {first[n]:,} * {second[n]:,} * {second[n] - first[n]:+,}"
          for n in (10, 20, 40, 80)],
        "    scaling order * n * n^2",
        "A baseline of this test would be flaky. Likely causes: *, or Python state kept between runs *",
        "*_ test_checks_once _*",
        "bytecount: not deterministic: counts differ between two runs of this test, each in a fresh class loader *",
        f"{SUM_TO}:",
        "* first run    second run    difference",
        *[f"    scaling total at n={n} * {first[n]:,}  not measured" for n in (10, 20, 40, 80)],
        "    scaling order * n  not measured",
        "A baseline of this test would be flaky. *",
    ])
    # the counts agree: no total line in that test's failure section (which ends where the next section starts;
    # some pytest releases repeat every full message in the short summary)
    section = result.stdout.str().split("_ test_checks_once _")[1].split("= bytecount =")[0]
    assert "scaling total at n=10" in section and "    total " not in section
    assert "already called" not in result.stdout.str()  # the second run starts without the first one's check
    result.stdout.fnmatch_lines(["2 nondeterministic"])
    assert not (scaling_project.path / "bytecount" / "test_line.json").exists()  # never a baseline


def test_an_error_inside_pytest_bytecount_in_the_second_run_is_reported_as_the_plugins_not_the_tests(
        scaling_project):
    """The fitting code gets malformed values only on its second call, as a bug in the plugin's bookkeeping
    between the two runs would hand them over: the TypeError is raised by pytest-bytecount's own code (its
    innermost frame is in the package), not by the test or by Java, so it must not be called nondeterminism."""
    scaling_project.makepyfile(test_line='''
        import pytest
        import pytest_bytecount.regression.scaling

        @pytest.fixture
        def fit_breaks_on_second_call(monkeypatch):
            fit = pytest_bytecount.regression.scaling.fit
            calls = []

            def fit_with_a_bug(sizes, values):
                calls.append(1)
                return fit(sizes, values if len(calls) == 1 else [None] * len(values))

            monkeypatch.setattr(pytest_bytecount.regression.scaling, "fit", fit_with_a_bug)

        @pytest.mark.bytecount("order.Line#sumTo", deep=False)
        def test_linear(bytecount, fit_breaks_on_second_call):
            Line = bytecount.jclass("order.Line")
            assert bytecount.scaling([10, 20, 40, 80], lambda n: Line.sumTo(n)).order == "n"
    ''')
    result = run(scaling_project, "--bytecount-check-determinism", "--bytecount-json=results.json")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*_ test_linear _*",
        f"bytecount: cannot check determinism: the second run of this test stopped on an error inside "
        f"pytest-bytecount {__version__}, not in the test or its Java code:",
        "TypeError: *",
        "raised in pytest_bytecount/regression/growth.py, line *",
        "This is a bug in pytest-bytecount: please report it with this message. Until it is fixed, run this test "
        "without --bytecount-check-determinism.",
    ])
    assert "not deterministic" not in result.stdout.str()
    result.stdout.fnmatch_lines(["1 error"])
    results = json.loads((scaling_project.path / "results.json").read_text())
    assert results["test_line.py::test_linear"]["status"] == "error"


def test_second_run_failures_of_the_test_or_its_java_code_stay_nondeterminism_even_when_raised_through_the_plugin(
        scaling_project):
    """A Java exception from bytecount.jclass (the class's static initializer) and a ScalingError about what the
    second run measured both pass through pytest-bytecount's frames, yet come from the test's own code."""
    scaling_project.makepyfile(test_user='''
        import pytest

        @pytest.mark.bytecount("order.LoadOnce#one")
        def test_static_initializer_marks_the_jvm(bytecount):
            assert bytecount.jclass("order.LoadOnce").one() == 1

        sums = {}

        def cached_sum(line, n):   # the cache outlives the first run: the second never calls Java
            if n not in sums:
                sums[n] = line.sumTo(n)
            return sums[n]

        @pytest.mark.bytecount("order.Line#sumTo", deep=False)
        def test_cached_run(bytecount):
            Line = bytecount.jclass("order.Line")
            bytecount.scaling([10, 20, 40, 80], lambda n: cached_sum(Line, n))
    ''')
    result = run(scaling_project, "--bytecount-check-determinism")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*_ test_static_initializer_marks_the_jvm _*",
        "bytecount: not deterministic: the test passed, then failed when run again in a fresh class loader*",
        "*ExceptionInInitializerError*",
        "*_ test_cached_run _*",
        "bytecount: not deterministic: the test passed, then failed when run again in a fresh class loader*",
        "*ScalingError: no counted method ran during the complexity check*",
    ])
    assert "inside pytest-bytecount" not in result.stdout.str()
    result.stdout.fnmatch_lines(["2 nondeterministic"])


def test_a_check_that_found_nothing_has_no_status_and_each_failure_a_status_of_its_own():
    assert DeterminismCheck().status is None
    found = {DeterminismCheck(differences=[CountDifference("a.B#f()V", "total", 1, 2)]).status,
             DeterminismCheck(second_run_error="AssertionError").status,
             DeterminismCheck(stale_loader_methods=["a.B#f()V"]).status,
             DeterminismCheck(internal_error="KeyError: 'x'").status}
    assert found == {"nondeterministic", "unchecked", "error"}
    assert found <= set(FAILING)


def test_repetitions_of_one_test_that_count_otherwise_name_both_runs_and_what_moved():
    first = ("t.py::test_a[1-2]", {"a.B#f()V": {"invocations": 1, "total": 10, "opcodes": {"nop": 10}, "calls": {}}})
    second = ("t.py::test_a[2-2]", {"a.B#f()V": {"invocations": 1, "total": 7, "opcodes": {"nop": 7}, "calls": {}}})
    text = repetitions_differ("test_a", first, second)
    assert text.splitlines()[0] == ("bytecount: not deterministic: t.py::test_a[2-2] counted otherwise than "
                                    "t.py::test_a[1-2], an earlier repetition of the same test (both are compared "
                                    "with the one baseline entry test_a):")
    assert "    total                 10             7            -3" in text.splitlines()
    assert text.endswith("Nothing of this run is recorded.")
    assert repetitions_differ("test_a", first, ("t.py::test_a[2-2]", first[1])) is None


def test_a_first_run_in_a_shared_loader_is_said_so_and_the_shared_loader_named_as_the_cause():
    found = [CountDifference("a.B#c()V", "total", 10, 12)]
    shared = DeterminismCheck(differences=found, shared=True).message()
    assert shared.startswith("bytecount: not deterministic: counts differ between this test's run in the class "
                             "loader it shares with other tests (loader_scope) and a second run in a fresh class "
                             "loader")
    assert "each in a fresh class loader" not in shared
    assert "what a test counts depends on which tests ran before it in that loader" in shared
    assert "each in a fresh class loader" in DeterminismCheck(differences=found).message()
