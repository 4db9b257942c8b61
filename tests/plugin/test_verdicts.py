"""Verdicts that cannot pass while guarding nothing, and that say exactly why they fail, end to end.

Each test is a user story on a small shop project: real pytest processes (pytester), javac, a real JVM.
"""

from __future__ import annotations

import json
import textwrap

from tests.support.pytest_project import java_project, run

INVENTORY = """
package shop;

public class Inventory {
    private final int[] items;

    public Inventory(int[] items) { this.items = items; }

    public int total() {
        int s = 0;
        for (int i = 0; i < items.length; i++) s += items[i];
        return s;
    }

    public int indexOf(int v) {
        for (int i = 0; i < items.length; i++) if (items[i] == v) return i;
        return -1;
    }

    public int distinct() {
        int n = 0;
        for (int i = 0; i < items.length; i++) {
            boolean seen = false;
            for (int j = 0; j < i; j++) if (items[j] == items[i]) { seen = true; break; }
            if (!seen) n++;
        }
        return n;
    }

    public int reserve(int v) {
        if (indexOf(v) < 0) throw new IllegalStateException("out of stock: " + v);
        return v;
    }
}
"""

HASHSET_DISTINCT = """    public int distinct() {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int x : items) seen.add(x);
        return seen.size();
    }
"""

HELPERS = '''
import jpype
import pytest

def inventory(bytecount, *items):
    return bytecount.jclass("shop.Inventory")(jpype.JArray(jpype.JInt)(list(items)))
'''


def shop(pytester, tests: str):
    return java_project(pytester, {"shop/Inventory.java": INVENTORY},
                        {"test_shop": HELPERS + textwrap.dedent(tests)})


def edit_java(pytester, old: str, new: str) -> None:
    path = pytester.path / "src" / "shop" / "Inventory.java"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def baseline(pytester) -> dict:
    path = pytester.path / "bytecount" / "test_shop.json"
    return json.loads(path.read_text())["tests"] if path.exists() else {}


def test_a_target_that_never_runs_fails_the_test_and_is_never_recorded(pytester):
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#total")
        def test_index(bytecount):
            assert inventory(bytecount, 1, 2, 3).indexOf(3) == 2
    ''')
    for args in ((), ("--bytecount-update",)):
        result = run(pytester, *args)
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines([
            "NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I, which did not run "
            "in this test",
            "*guards nothing*max_invocations=0*",
            "*1 not-run*",
        ])
        assert "test_index" not in baseline(pytester)


def test_a_refactoring_that_stops_a_test_calling_its_target_fails_instead_of_improving(pytester):
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#total", "shop.Inventory#indexOf")
        def test_stock(bytecount):
            inv = inventory(bytecount, 1, 2, 3)
            assert inv.total() == 6
            assert inv.indexOf(2) == 1
    ''')
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    pytester.makepyfile(test_shop=HELPERS + textwrap.dedent('''
        @pytest.mark.bytecount("shop.Inventory#total", "shop.Inventory#indexOf")
        def test_stock(bytecount):
            inv = inventory(bytecount, 1, 2, 3)
            assert inv.indexOf(2) == 1
    '''))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I*",
                                 "*1 not-run*"])
    assert "improved" not in result.stdout.str()


def test_max_invocations_zero_is_the_explicit_must_not_run_check(pytester):
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#distinct", max_invocations=0)
        def test_lookup_never_deduplicates(bytecount):
            assert inventory(bytecount, 4, 5).indexOf(5) == 1

        @pytest.mark.bytecount("shop.Inventory#indexOf", max_invocations=1)
        def test_reserve_looks_up_once(bytecount):
            inv = inventory(bytecount, 4, 5)
            assert inv.reserve(5) == 5
            assert inv.reserve(4) == 4
    ''')
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["OVER THE LIMIT: shop.Inventory#indexOf(I)I ran 2 times, more than max_invocations=1 "
                                 "allows"])
    # the summary does not offer --bytecount-update, which cannot change a limit the marker sets
    result.stdout.fnmatch_lines(["1 recorded, 1 over-limit",
                                 "over the limit: a method ran more often than the marker's max_invocations allows "
                                 "(fix the code, or raise max_invocations) (1):",
                                 "  test_shop.py::test_reserve_looks_up_once"])
    assert "to accept" not in result.stdout.str()
    assert baseline(pytester)["test_lookup_never_deduplicates"]["methods"] == {}
    run(pytester, "-k", "never").assert_outcomes(passed=1, deselected=1)


def test_a_marked_test_without_the_fixture_and_the_fixture_without_a_marker_are_their_own_tests_errors(pytester):
    """A misused test errors on its own, naming the mistake; the others run, and one that -k leaves out is
    not judged at all."""
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#total")
        def test_forgot_the_fixture():
            pass

        def test_forgot_the_marker(bytecount):
            pass

        def test_plain():
            pass

        @pytest.mark.bytecount("shop.Inventory#total")
        def test_total(bytecount):
            assert inventory(bytecount, 1, 2).total() == 3
    ''')
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=2, errors=2)
    result.stdout.fnmatch_lines([
        "*bytecount: bad use of the marker or the fixture: test_shop.py::test_forgot_the_fixture is marked "
        "@pytest.mark.bytecount but does not use the bytecount fixture*",
        "*bytecount: bad use of the marker or the fixture: test_shop.py::test_forgot_the_marker uses the bytecount "
        "fixture but has no @pytest.mark.bytecount marker*",
    ])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    assert list(baseline(pytester)) == ["test_total"]
    # deselected, the misused tests are not judged: the run passes
    result = run(pytester, "-k", "total or plain")
    result.assert_outcomes(passed=2, deselected=2)
    assert result.ret == 0


def test_the_fixture_fetched_at_run_time_without_a_marker_fails_without_a_plugin_traceback(pytester):
    shop(pytester, '''
        def test_dynamic(request):
            request.getfixturevalue("bytecount")
    ''')
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*test_shop.py::test_dynamic uses the bytecount fixture but has no "
                                 "@pytest.mark.bytecount marker*"])
    assert "plugin.py" not in result.stdout.str()


def pytest_usage_error() -> int:
    import pytest

    return pytest.ExitCode.USAGE_ERROR


def test_a_class_target_records_only_the_methods_that_ran(pytester):
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory")
        def test_total(bytecount):
            assert inventory(bytecount, 1, 2, 3).total() == 6
    ''')
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    assert sorted(baseline(pytester)["test_total"]["methods"]) == ["shop.Inventory#<init>([I)V",
                                                                   "shop.Inventory#total()I"]
    run(pytester).assert_outcomes(passed=1)


def test_the_first_line_names_the_call_that_failed_the_test_and_so_does_the_html_card(pytester):
    """An O(n^2) loop replaced by a HashSet: the total falls, but calls to Set.add rise from 0."""
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#distinct")
        def test_distinct(bytecount):
            assert inventory(bytecount, 1, 2, 2, 3, 1, 5, 6, 7, 8, 9).distinct() == 8
    ''')
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    text = (pytester.path / "src" / "shop" / "Inventory.java").read_text()
    start = text.index("    public int distinct() {")
    end = text.index("    public int reserve")
    (pytester.path / "src" / "shop" / "Inventory.java").write_text(text[:start] + HASHSET_DISTINCT + text[end:])
    result = run(pytester, "--bytecount-html=report", "--bytecount-json=results.json")
    result.assert_outcomes(failed=1)
    out = result.stdout.str().splitlines()
    first = out[out.index(next(line for line in out if line.startswith("_") and "test_distinct" in line)) + 1]
    assert first.startswith("REGRESSED: ")
    # the call is named, with the note that its own work (inside the JDK) is not counted
    assert "new call java/util/Set.add(...) 0 -> 10 (+10; its own work is not counted)" in first
    # the work figure comes last, with its direction: the total fell, and is not what failed
    assert first.endswith("; total -79.3%")
    page = (pytester.path / "report" / "index.html").read_text()
    card = page[page.index('<section class="method"'):]
    card = card[:card.index("</section>")]
    assert '<p class="tripped regressed">outside tolerance: ' in card
    assert "new call java/util/Set.add(Ljava/lang/Object;)Z 0 -&gt; 10 (+10; its own work is not counted)" in card
    results = json.loads((pytester.path / "results.json").read_text())
    assert results["test_shop.py::test_distinct"]["status"] == "regressed"


def test_the_summary_agrees_with_pytest_and_names_what_needs_attention(pytester):
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#total")
        @pytest.mark.parametrize("n", [20, 30])
        def test_total(bytecount, n):
            assert inventory(bytecount, *range(n)).total() == sum(range(n))

        @pytest.mark.bytecount("shop.Inventory#reserve")
        def test_out_of_stock(bytecount):
            inventory(bytecount, 1).reserve(7)   # throws: the test fails with a Java exception

        @pytest.mark.bytecount("shop.Inventory#total")
        @pytest.mark.skip(reason="not today")
        def test_skipped(bytecount):
            pass

        @pytest.mark.bytecount("shop.Inventory#reserve")
        @pytest.mark.xfail(reason="reserving more than in stock throws")
        def test_known_failure(bytecount):
            inventory(bytecount, 1).reserve(7)
    ''')
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    result.assert_outcomes(passed=2, failed=1, skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(["=* bytecount =*", "2 recorded, 1 failed, 1 skipped, 1 xfailed"])
    statuses = {k: v["status"] for k, v in json.loads((pytester.path / "results.json").read_text()).items()}
    assert statuses == {"test_shop.py::test_total[20]": "recorded", "test_shop.py::test_total[30]": "recorded",
                        "test_shop.py::test_out_of_stock": "failed", "test_shop.py::test_skipped": "skipped",
                        "test_shop.py::test_known_failure": "xfailed"}
    # the loop reads the field once: improved tests are named without -rA, with the command that accepts them
    edit_java(pytester, "for (int i = 0; i < items.length; i++) s += items[i];", "for (int x : items) s += x;")
    result = run(pytester, "-k", "total", "--bytecount-html=report")
    result.assert_outcomes(passed=2, deselected=3)
    result.stdout.fnmatch_lines([
        "2 improved",
        "improved, the baseline is stale (2):",
        "  test_shop.py::test_total[[]20[]]",
        "  test_shop.py::test_total[[]30[]]",
        "  to accept them: pytest 'test_shop.py::test_total[[]20[]]' 'test_shop.py::test_total[[]30[]]' "
        "--bytecount-update",
    ])
    page = (pytester.path / "report" / "index.html").read_text()
    assert 'data-status="improved" data-count="2"' in page


def test_not_run_after_a_reload_says_the_verdict_judges_the_last_loader_only(pytester):
    shop(pytester, '''
        @pytest.mark.bytecount("shop.Inventory#total")
        def test_warm_then_reload(bytecount):
            assert inventory(bytecount, 1, 2).total() == 3
            bytecount.reload()
    ''')
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I, which did not run in this test",
        "*",
        "bytecount.reload() was called 1 time(s) in this test: the verdict judges the counts of the last class loader "
        "only, and shop.Inventory#total()I ran before the last reload (bytecount.counts_in(loader) reads an earlier "
        "loader's counts)",
    ], consecutive=False)
