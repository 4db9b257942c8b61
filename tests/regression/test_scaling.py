"""Complexity checks the way a user runs them: ``bytecount.scaling`` in real pytest processes (pytester) on
a small Java project, recorded with --bytecount-update, then run against a worse implementation.

The story: ``shop.Sorter.sort`` is a merge sort (n log n). Someone swaps in an insertion sort, which is
about as cheap on the small inputs the test uses: the summed counts rise 38%, inside a 50% tolerance, yet
the order is now n^2, and the check says so.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.support.javac import compile_java
from tests.support.pytest_project import JDK17, java_project, run


MERGE_SORT = '''
package shop;

public class Sorter {
    /** Bottom-up merge sort, all in one method. */
    public static void sort(int[] a) {
        int n = a.length;
        int[] from = a;
        int[] to = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    if (i < mid && (j >= hi || from[i] <= from[j])) {
                        to[k] = from[i++];
                    } else {
                        to[k] = from[j++];
                    }
                }
            }
            int[] t = from;
            from = to;
            to = t;
        }
        if (from != a) {
            System.arraycopy(from, 0, a, 0, n);
        }
    }
}
'''

INSERTION_SORT = '''
package shop;

public class Sorter {
    /** "Simpler, and faster on small arrays." */
    public static void sort(int[] a) {
        for (int i = 1; i < a.length; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }
}
'''

TESTS = '''
import random
import jpype
import pytest

def shuffled(n):
    xs = list(range(n))
    random.Random(n).shuffle(xs)
    return jpype.JArray(jpype.JInt)(xs)

@pytest.mark.bytecount("shop.Sorter#sort", deep=False)
def test_sort_scales(bytecount):
    Sorter = bytecount.jclass("shop.Sorter")
    result = bytecount.scaling(SIZES, lambda n: Sorter.sort(shuffled(n)))
    print(result)

def test_plain():
    assert True
'''

SORT = "shop.Sorter#sort([I)V"
NODE = "test_shop.py::test_sort_scales"


VARIANTS = {"merge sort": MERGE_SORT, "insertion sort": INSERTION_SORT}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict:
    """Class folders of each variant of shop.Sorter, compiled once (and cached by source hash)."""
    out = {}
    for name, source in VARIANTS.items():
        src = tmp_path_factory.mktemp("sorter") / "shop"
        src.mkdir()
        (src / "Sorter.java").write_text(textwrap.dedent(source))
        out[name] = compile_java(src.parent, release="17")
    return out


@pytest.fixture
def project(pytester, builds):
    use(pytester, builds["merge sort"])
    write_tests(pytester, [8, 16, 32, 64])
    return pytester


def use(pytester, classes) -> None:
    """Put one build of shop.Sorter on the classpath: swapping it is what checking out another commit does."""
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["{classes}"]\njava-home = "{JDK17}"\n')


def write_tests(pytester, sizes, tests: str = TESTS) -> None:
    pytester.makepyfile(test_shop=f"SIZES = {sizes!r}\n" + tests)


def baseline(pytester) -> dict:
    return json.loads((pytester.path / "bytecount" / "test_shop.json").read_text())


def test_update_stores_the_order_and_a_worse_one_fails_though_the_totals_are_within_tolerance(project, builds):
    record = run(project, "--bytecount-update", "-s")
    record.assert_outcomes(passed=2)
    record.stdout.fnmatch_lines([f"*{SORT}: n log n, exponent 1.24", "    n        8     16     32      64",
                                 "    total  862  2,075  4,876  11,282", "    fits: const *, n log n *", "    why: n log n: * of the work at n=64 *"])
    entry = baseline(project)["tests"]["test_sort_scales"]
    assert entry["scaling"] == {SORT: {"metric": "total", "order": "n log n", "exponent": 1.24, "sizes": [8, 16, 32, 64],
                                       "values": [862, 2075, 4876, 11282]}}
    assert entry["methods"][SORT]["total"] == 862 + 2075 + 4876 + 11282  # the counts baseline is still there
    run(project).assert_outcomes(passed=2)

    use(project, builds["insertion sort"])
    result = run(project, "--bytecount-tolerance", "total=50%", "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        f"{SORT}: COMPLEXITY GOT WORSE: n log n (exponent 1.24) -> n^2, exponent 1.85",
        "    n           8     16     32      64",
        "    baseline  862  2,075  4,876  11,282",
        "    now       429  1,315  5,914  18,768",
        "    fits now: const *, n^2 *",
        "    why: n^2: 95% of the work at n=64 *",
        f"to accept: pytest {NODE} --bytecount-update",
        "1 regressed",
    ])
    assert "REGRESSED" not in result.stdout.str()  # the counts alone are within the 50% tolerance
    scaling = json.loads((project.path / "results.json").read_text())[NODE]["scaling"]
    assert scaling["metric"] == "total" and scaling["sizes"] == [8, 16, 32, 64]
    method = scaling["methods"][SORT]
    assert set(method) == {"values", "order", "exponent", "fits", "baseline_order", "evidence", "change"}
    assert method["change"] == "worse"
    assert (method["values"], method["order"], method["exponent"], method["baseline_order"]) == \
        ([429, 1315, 5914, 18768], "n^2", 1.85, "n log n")
    assert set(method["fits"]) == {"1", "log n", "n", "n log n", "n^2", "n^3", "2^n"}

    # accepting it records the new order
    run(project, "--bytecount-update").assert_outcomes(passed=2)
    assert baseline(project)["tests"]["test_sort_scales"]["scaling"][SORT]["order"] == "n^2"
    run(project).assert_outcomes(passed=2)


def test_a_baseline_without_the_check_fails_until_recorded(project):
    # the same work without the complexity check first, so the counts themselves match
    write_tests(project, [8, 16, 32, 64], TESTS.replace("    result = bytecount.scaling", "    for n in SIZES:\n"
                                                        "        Sorter.sort(shuffled(n))\n    return\n    result ="))
    run(project, "--bytecount-update").assert_outcomes(passed=2)
    write_tests(project, [8, 16, 32, 64])
    result = run(project)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([f"{SORT}: no complexity baseline (now n log n, exponent 1.24)",
                                 f"to accept: pytest {NODE} --bytecount-update",
                                 "1 new"])
    before = baseline(project)["tests"]
    # adding only what is missing adds the complexity check to the existing entry, counts untouched
    run(project, "--bytecount-update=new").assert_outcomes(passed=2)
    after = baseline(project)["tests"]
    assert set(after) == set(before)
    for key, entry in after.items():
        assert entry["methods"] == before[key]["methods"]
    assert [k for k, e in after.items() if "scaling" in e] == [k for k in after if "sort" in k]
    run(project).assert_outcomes(passed=2)


def test_misuse_is_reported_against_the_test(project):
    write_tests(project, [8, 16, 32])
    result = run(project, "--bytecount-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*ScalingError: a complexity check needs at least 4 increasing sizes n >= 1*"])
    # the test's own line and the message, no frame of the plugin's (as pytest.raises and pytest.fail show theirs)
    failure = result.stdout.str().split("= FAILURES =")[1].split("short test summary")[0]
    assert "pytest_bytecount/" not in failure and "bytecount.scaling(" in failure, failure
    assert len(failure.splitlines()) < 20, failure
    write_tests(project, [8, 16, 32, 64], TESTS.replace("lambda n: Sorter.sort(shuffled(n)))",
                                                        "lambda n: Sorter.sort(shuffled(n)), method='shop.Sorter#srot')"))
    result = run(project, "--bytecount-update")
    result.stdout.fnmatch_lines(["*method 'shop.Sorter#srot' matches none of the measured methods: shop.Sorter#sort([[]I)V*"])


def test_xdist_workers_measure_and_the_controller_records_the_order(project, builds):
    write_tests(project, [8, 16, 32, 64], TESTS + TESTS.replace("test_sort_scales", "test_sort_scales_too")
                .replace("def test_plain", "def test_plain_too"))
    run(project, "-n", "2", "--bytecount-update").assert_outcomes(passed=4)
    data = baseline(project)
    assert {k: v["scaling"][SORT]["order"] for k, v in data["tests"].items()} == \
        {"test_sort_scales": "n log n", "test_sort_scales_too": "n log n"}
    run(project, "-n", "2").assert_outcomes(passed=4)
    use(project, builds["insertion sort"])
    result = run(project, "-n", "2", "--bytecount-tolerance", "total=50%")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines([f"*{SORT}: COMPLEXITY GOT WORSE: n log n (exponent 1.24) -> n^2, exponent 1.85*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


# With inclusive=True the work a target does through the application's methods it calls is counted; a helper
# that turns quadratic leaves the target's own body as it was, so only a check on the inclusive counts sees it.
DISTINCT = '''
package shop;

public class Distinct {
    public static int count(int[] sorted) {
        return distinct(sorted);
    }

    private static int distinct(int[] sorted) {
        int d = 0;
        for (int i = 0; i < sorted.length; i++) {
            BODY
        }
        return d;
    }
}
'''
LINEAR = "if (i == 0 || sorted[i] != sorted[i - 1]) { d++; }"
QUADRATIC = ("boolean seen = false; for (int j = 0; j < i; j++) { if (sorted[j] == sorted[i]) { seen = true; break; } }"
             " if (!seen) { d++; }")

INCLUSIVE_TESTS = '''
import jpype
import pytest

@pytest.mark.bytecount("shop.Distinct#count", inclusive=True, deep=False)
def test_distinct_scales(bytecount):
    Distinct = bytecount.jclass("shop.Distinct")
    print(bytecount.scaling([64, 128, 256, 512], lambda n: Distinct.count(jpype.JArray(jpype.JInt)(range(n)))METRIC))
'''
COUNT = "shop.Distinct#count([I)I"


def inclusive_project(pytester, body: str, metric: str = "") -> None:
    java_project(pytester, {"shop/Distinct.java": DISTINCT.replace("BODY", body)},
                 {"test_distinct": INCLUSIVE_TESTS.replace("METRIC", metric)})


def test_with_inclusive_counts_the_check_fits_the_inclusive_work_and_sees_a_helper_turn_quadratic(pytester):
    inclusive_project(pytester, LINEAR)
    record = run(pytester, "--bytecount-update", "-s")
    record.assert_outcomes(passed=1)
    record.stdout.fnmatch_lines([f"*{COUNT}: n, exponent 1.00 (fitted on inclusive)", "    n*64*128*256*512",
                                 "    inclusive  *"])
    stored = json.loads((pytester.path / "bytecount" / "test_distinct.json").read_text())
    assert stored["tests"]["test_distinct_scales"]["scaling"][COUNT]["metric"] == "inclusive"

    inclusive_project(pytester, QUADRATIC)
    result = run(pytester, "--bytecount-tolerance=all=10000%")  # only the order decides
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"{COUNT}: COMPLEXITY GOT WORSE: n (exponent 1.00) -> n^2, exponent * "
                                 f"(fitted on inclusive)"])
    # the target's own body is the same: fitted on its flat total, the order would not have moved
    inclusive_project(pytester, QUADRATIC, ", metric='total'")
    flat = run(pytester, "--bytecount-update", "-s")
    flat.stdout.fnmatch_lines([f"*{COUNT}: 1, exponent *"])


def test_an_inclusive_check_needs_inclusive_counts(pytester):
    inclusive_project(pytester, LINEAR, ", metric='inclusive'")
    (pytester.path / "test_distinct.py").write_text(
        (pytester.path / "test_distinct.py").read_text().replace(", inclusive=True", ""))
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*ScalingError: scaling(metric='inclusive') fits the inclusive counts, which this "
                                 "test does not take: mark it with inclusive=True*"])
