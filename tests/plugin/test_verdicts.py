"""Verdicts that cannot pass while guarding nothing, and that say exactly why they fail, end to end.

Each test is a user story on a small shop project: javac, a real JVM, real pytest processes. The stories share
one child pytest session (tests/support/shared_run.py): each is a test module of one project, with a baseline
file of its own, and the two stories that edit Java have an ``Inventory`` of their own (packages ``dedup`` and
``tally``), so no story's edit changes another's verdict. One ``--bytecount-update`` records them all; a run
that ``-k`` narrows to the tests that must pass after it is the session whose exit status one story reads; then
the stories' edits, and one plain run. Each test reads only its own outcomes, results entries, report sections,
baseline file and summary lines.
"""

from __future__ import annotations

import json
import textwrap
from fnmatch import fnmatch
from types import SimpleNamespace

import pytest

from tests.support.session_reads import group, group_size, headline_parts, skip_kind, summary_lines
from tests.support.shared_run import run_session, write_project

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


def in_package(package: str) -> str:
    """shop.Inventory as ``package``.Inventory: the same code, for a story that edits it."""
    return INVENTORY.replace("package shop;", f"package {package};")


def module(tests: str, package: str = "shop") -> str:
    return HELPERS.replace('"shop.Inventory"', f'"{package}.Inventory"') + textwrap.dedent(tests)


IDLE_TARGET = module('''
    @pytest.mark.bytecount("shop.Inventory#total")
    def test_index(bytecount):
        assert inventory(bytecount, 1, 2, 3).indexOf(3) == 2
''')

REFACTOR = '''
    @pytest.mark.bytecount("shop.Inventory#total", "shop.Inventory#indexOf")
    def test_stock(bytecount):
        inv = inventory(bytecount, 1, 2, 3)
        assert inv.total() == 6
        assert inv.indexOf(2) == 1
'''
REFACTORED = '''
    @pytest.mark.bytecount("shop.Inventory#total", "shop.Inventory#indexOf")
    def test_stock(bytecount):
        inv = inventory(bytecount, 1, 2, 3)
        assert inv.indexOf(2) == 1
'''

LIMITS = module('''
    @pytest.mark.bytecount("shop.Inventory#distinct", max_invocations=0)
    def test_lookup_never_deduplicates(bytecount):
        assert inventory(bytecount, 4, 5).indexOf(5) == 1

    @pytest.mark.bytecount("shop.Inventory#indexOf", max_invocations=1)
    def test_reserve_looks_up_once(bytecount):
        inv = inventory(bytecount, 4, 5)
        assert inv.reserve(5) == 5
        assert inv.reserve(4) == 4
''')

MISUSE = module('''
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

DYNAMIC = module('''
    def test_dynamic(request):
        request.getfixturevalue("bytecount")
''')

CLASS_TARGET = module('''
    @pytest.mark.bytecount("shop.Inventory")
    def test_class_total(bytecount):
        assert inventory(bytecount, 1, 2, 3).total() == 6
''')

FIRST_LINE = module('''
    @pytest.mark.bytecount("dedup.Inventory#distinct")
    def test_distinct(bytecount):
        assert inventory(bytecount, 1, 2, 2, 3, 1, 5, 6, 7, 8, 9).distinct() == 8
''', "dedup")

SUMMARY = module('''
    @pytest.mark.bytecount("tally.Inventory#total")
    @pytest.mark.parametrize("n", [20, 30])
    def test_total(bytecount, n):
        assert inventory(bytecount, *range(n)).total() == sum(range(n))

    @pytest.mark.bytecount("tally.Inventory#reserve")
    def test_out_of_stock(bytecount):
        inventory(bytecount, 1).reserve(7)   # throws: the test fails with a Java exception

    @pytest.mark.bytecount("tally.Inventory#total")
    @pytest.mark.skip(reason="not today")
    def test_skipped(bytecount):
        pass

    @pytest.mark.bytecount("tally.Inventory#reserve")
    @pytest.mark.xfail(reason="reserving more than in stock throws")
    def test_known_failure(bytecount):
        inventory(bytecount, 1).reserve(7)
''', "tally")

RELOAD = module('''
    @pytest.mark.bytecount("shop.Inventory#total")
    def test_warm_then_reload(bytecount):
        assert inventory(bytecount, 1, 2).total() == 3
        bytecount.reload()
''')

# the tests that pass once recorded, and the misused ones left out: a run of them alone passes
PASSING = "test_misuse and (total or plain) or test_lookup_never_deduplicates"


def edit_java(folder, package: str, old: str, new: str) -> None:
    path = folder / "src" / package / "Inventory.java"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def baseline(folder, module_name: str) -> dict:
    path = folder / "bytecount" / f"{module_name}.json"
    return json.loads(path.read_text())["tests"] if path.exists() else {}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every story's module recorded by one ``--bytecount-update``, the passing tests run again under ``-k``,
    then the stories' edits (a test that stops calling its target, two changed loops) and one plain run with
    an HTML report. Each run's baseline files are kept as it left them."""
    folder = write_project(tmp_path_factory.mktemp("verdicts"), {
        "shop/Inventory.java": INVENTORY, "dedup/Inventory.java": in_package("dedup"),
        "tally/Inventory.java": in_package("tally")}, {
        "test_idle_target.py": IDLE_TARGET, "test_refactor.py": module(REFACTOR), "test_limits.py": LIMITS,
        "test_misuse.py": MISUSE, "test_dynamic_fixture.py": DYNAMIC, "test_class_target.py": CLASS_TARGET,
        "test_first_line.py": FIRST_LINE, "test_summary.py": SUMMARY, "test_reload.py": RELOAD})
    update = run_session(folder, "--bytecount-update", name="update")
    recorded = {p.stem: json.loads(p.read_text())["tests"] for p in (folder / "bytecount").glob("*.json")}
    passing = run_session(folder, "-k", PASSING, name="passing")

    (folder / "test_refactor.py").write_text(textwrap.dedent(module(REFACTORED)))
    text = (folder / "src" / "dedup" / "Inventory.java").read_text()
    start = text.index("    public int distinct() {")
    end = text.index("    public int reserve")
    (folder / "src" / "dedup" / "Inventory.java").write_text(text[:start] + HASHSET_DISTINCT + text[end:])
    # the loop reads the field once
    edit_java(folder, "tally", "for (int i = 0; i < items.length; i++) s += items[i];", "for (int x : items) s += x;")
    plain = run_session(folder, "--bytecount-html=report", name="plain")
    return SimpleNamespace(folder=folder, update=update, recorded=recorded, passing=passing, plain=plain)


def test_a_target_that_never_runs_fails_the_test_and_is_never_recorded(runs):
    for session in (runs.plain, runs.update):
        assert session.outcome("test_index") == "failed"
        assert session.result("test_idle_target.py::test_index")["status"] == "not-run"
        section = session.section("test_index").splitlines()
        first = section.index("NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I, which did not "
                              "run in this test")
        assert any(fnmatch(line, "*guards nothing*max_invocations=0*") for line in section[first + 1:]), section
        assert "test_idle_target.py::test_index" in group(session, "not run: a target never ran, so nothing is guarded")
    assert "test_index" not in runs.recorded.get("test_idle_target", {})
    assert "test_index" not in baseline(runs.folder, "test_idle_target")


def test_a_refactoring_that_stops_a_test_calling_its_target_fails_instead_of_improving(runs):
    assert runs.update.outcome("test_stock") == "passed"
    plain = runs.plain
    assert plain.outcome("test_stock") == "failed"
    assert plain.result("test_refactor.py::test_stock")["status"] == "not-run"
    section = plain.section("test_stock")
    assert any(fnmatch(line, "NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I*")
               for line in section.splitlines()), section
    assert "test_refactor.py::test_stock" in group(plain, "not run: a target never ran, so nothing is guarded")
    # not improved: not in its report, and not among the improved tests of the summary
    assert "improved" not in section
    assert not any("test_refactor.py" in line for line in group(plain, "improved, the baseline is stale"))


def test_max_invocations_zero_is_the_explicit_must_not_run_check(runs):
    update = runs.update
    assert update.outcome("test_lookup_never_deduplicates") == "passed"
    assert update.outcome("test_reserve_looks_up_once") == "failed"
    assert update.result("test_limits.py::test_lookup_never_deduplicates")["status"] == "recorded"
    assert update.result("test_limits.py::test_reserve_looks_up_once")["status"] == "over-limit"
    assert ("OVER THE LIMIT: shop.Inventory#indexOf(I)I ran 2 times, more than max_invocations=1 allows"
            in update.section("test_reserve_looks_up_once").splitlines())
    # the summary does not offer --bytecount-update, which cannot change a limit the marker sets
    title = ("over the limit: a method ran more often than the marker's max_invocations allows (fix the code, or "
             "raise max_invocations)")
    assert group_size(update, title) == 1 and group(update, title) == ["test_limits.py::test_reserve_looks_up_once"]
    assert headline_parts(update)["over-limit"] == 1
    assert "to accept" not in update.stdout
    assert runs.recorded["test_limits"]["test_lookup_never_deduplicates"]["methods"] == {}
    assert runs.passing.outcome("test_lookup_never_deduplicates") == "passed"
    assert "test_reserve_looks_up_once" not in runs.passing.outcomes()  # deselected


def test_a_marked_test_without_the_fixture_and_the_fixture_without_a_marker_are_their_own_tests_errors(runs):
    """A misused test errors on its own, naming the mistake; the others run, and one that -k leaves out is
    not judged at all."""
    update = runs.update
    assert [update.outcome(name) for name in ("test_forgot_the_fixture", "test_forgot_the_marker", "test_plain",
                                              "test_total")] == ["error", "error", "passed", "passed"]
    for name, message in [
        ("test_forgot_the_fixture", "*bytecount: bad use of the marker or the fixture: test_misuse.py::"
                                    "test_forgot_the_fixture is marked @pytest.mark.bytecount but does not use the "
                                    "bytecount fixture*"),
        ("test_forgot_the_marker", "*bytecount: bad use of the marker or the fixture: test_misuse.py::"
                                   "test_forgot_the_marker uses the bytecount fixture but has no "
                                   "@pytest.mark.bytecount marker*"),
    ]:
        section = update.section(name)
        assert any(fnmatch(line, message) for line in section.splitlines()), section
        assert "Traceback" not in section
    assert "Traceback" not in update.stdout + update.stderr
    assert list(runs.recorded["test_misuse"]) == ["test_total"]
    # deselected, the misused tests are not judged: the run passes
    passing = runs.passing
    assert [passing.outcome(name) for name in ("test_plain", "test_total")] == ["passed", "passed"]
    assert "test_forgot_the_fixture" not in passing.outcomes() and "test_forgot_the_marker" not in passing.outcomes()
    assert passing.ret == 0


def test_the_fixture_fetched_at_run_time_without_a_marker_fails_without_a_plugin_traceback(runs):
    plain = runs.plain
    assert plain.outcome("test_dynamic") == "failed"
    section = plain.section("test_dynamic")
    assert any(fnmatch(line, "*test_dynamic_fixture.py::test_dynamic uses the bytecount fixture but has no "
                             "@pytest.mark.bytecount marker*") for line in section.splitlines()), section
    assert "plugin.py" not in section and "plugin.py" not in plain.stdout


def pytest_usage_error() -> int:
    import pytest

    return pytest.ExitCode.USAGE_ERROR


def test_a_class_target_records_only_the_methods_that_ran(runs):
    assert runs.update.outcome("test_class_total") == "passed"
    assert sorted(runs.recorded["test_class_target"]["test_class_total"]["methods"]) == [
        "shop.Inventory#<init>([I)V", "shop.Inventory#total()I"]
    assert runs.plain.outcome("test_class_total") == "passed"


def test_the_first_line_names_the_call_that_failed_the_test_and_so_does_the_html_card(runs):
    """An O(n^2) loop replaced by a HashSet: the total falls, but calls to Set.add rise from 0."""
    assert runs.update.outcome("test_distinct") == "passed"
    plain = runs.plain
    assert plain.outcome("test_distinct") == "failed"
    first = plain.section("test_distinct").splitlines()[0]
    assert first.startswith("REGRESSED: ")
    # the call is named, with the note that its own work (inside the JDK) is not counted
    assert "new call java/util/Set.add(...) 0 -> 10 (+10; its own work is not counted)" in first
    # the work figure comes last, with its direction: the total fell, and is not what failed
    assert first.endswith("; total -79.3%")
    page = (runs.folder / "report" / "index.html").read_text()
    card = page[page.index('<section class="method" id='):]
    card = card[card.index('data-test="test_first_line.py::test_distinct"'):]
    card = card[:card.index("</section>")]
    assert '<p class="tripped regressed">outside tolerance: ' in card
    assert "new call java/util/Set.add(Ljava/lang/Object;)Z 0 -&gt; 10 (+10; its own work is not counted)" in card
    assert plain.result("test_first_line.py::test_distinct")["status"] == "regressed"


def test_the_summary_agrees_with_pytest_and_names_what_needs_attention(runs):
    update = runs.update
    assert [update.outcome(name) for name in ("test_total[20]", "test_total[30]", "test_out_of_stock", "test_skipped",
                                              "test_known_failure")] == ["passed", "passed", "failed", "skipped",
                                                                         "skipped"]
    assert [skip_kind(update, "test_skipped"), skip_kind(update, "test_known_failure")] == ["pytest.skip",
                                                                                          "pytest.xfail"]
    statuses = {k: v["status"] for k, v in json.loads(update.results_file.read_text()).items()}
    assert {k: v for k, v in statuses.items() if k.startswith("test_summary.py::")} == {
        "test_summary.py::test_total[20]": "recorded", "test_summary.py::test_total[30]": "recorded",
        "test_summary.py::test_out_of_stock": "failed", "test_summary.py::test_skipped": "skipped",
        "test_summary.py::test_known_failure": "xfailed"}
    # the summary's headline counts them: these are the session's only failed, skipped and xfailed tests
    assert sorted(k for k, v in statuses.items() if v in ("failed", "skipped", "xfailed")) == [
        "test_summary.py::test_known_failure", "test_summary.py::test_out_of_stock", "test_summary.py::test_skipped"]
    parts = headline_parts(update)
    assert (parts["failed"], parts["skipped"], parts["xfailed"]) == (1, 1, 1)
    assert parts["recorded"] == sum(v == "recorded" for v in statuses.values())
    # the loop reads the field once: improved tests are named without -rA, with the command that accepts them
    plain = runs.plain
    assert [plain.outcome("test_total[20]"), plain.outcome("test_total[30]")] == ["passed", "passed"]
    assert [plain.result(f"test_summary.py::test_total[{n}]")["status"] for n in (20, 30)] == ["improved"] * 2
    assert headline_parts(plain)["improved"] == 2
    assert group(plain, "improved, the baseline is stale") == [
        "test_summary.py::test_total[20]", "test_summary.py::test_total[30]",
        "to accept them: pytest 'test_summary.py::test_total[20]' 'test_summary.py::test_total[30]' "
        "--bytecount-update"]
    # each with the figures that fell, under its id
    lines = summary_lines(plain)
    at = lines.index("  test_summary.py::test_total[20]")
    assert lines[at + 1].startswith("    ") and " -> " in lines[at + 1] and "%)" in lines[at + 1], lines[at:at + 3]
    page = (runs.folder / "report" / "index.html").read_text()
    assert 'data-status="improved" data-count="2"' in page


def test_not_run_after_a_reload_says_the_verdict_judges_the_last_loader_only(runs):
    update = runs.update
    assert update.outcome("test_warm_then_reload") == "failed"
    lines = update.section("test_warm_then_reload").splitlines()
    first = lines.index("NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I, which did not run "
                        "in this test")
    assert ("bytecount.reload() was called 1 time(s) in this test: the verdict judges the counts of the last class "
            "loader only, and shop.Inventory#total()I ran before the last reload (bytecount.counts_in(loader) reads an "
            "earlier loader's counts)") in lines[first + 2:]
