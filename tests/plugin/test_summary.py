"""The end-of-session summary and the marker's own rules, without pytest runs or a JVM."""

from __future__ import annotations

from pytest_bytecount.regression.marker_rules import idle_targets, matched_by, over_limit, render_idle
from pytest_bytecount.regression.results import TestResult
from pytest_bytecount.regression.status import FAILING, PASSING, STATUSES, VERDICTS, worse
from pytest_bytecount.plugin.summary import (LooseDeep, Summary, Unwritten, accept_command, accepted_lines, improved_lines,
                                             markdown)


def ran(n, abrupt=None):
    entry = {"invocations": n, "total": 3 * n, "opcodes": {"nop": 3 * n} if n else {}, "calls": {}}
    if abrupt is not None:
        entry["abrupt"] = {"invocations": abrupt, "total": abrupt, "opcodes": {}, "calls": {}}
    return entry


def test_a_pattern_whose_methods_none_ran_is_idle_and_one_that_ran_is_not():
    counts = {"shop.Inventory#total()I": ran(0), "shop.Inventory#indexOf(I)I": ran(2),
              "shop.Inventory$Item#price()I": ran(0)}
    idle = idle_targets(["shop.Inventory#total", "shop.Inventory#indexOf", "shop.Inventory$*"], counts)
    assert [(t.pattern, t.methods) for t in idle] == [
        ("shop.Inventory#total", ("shop.Inventory#total()I",)),
        ("shop.Inventory$*", ("shop.Inventory$Item#price()I",))]
    # a class pattern is satisfied by any one of its methods running
    assert idle_targets(["shop.Inventory"], counts) == []
    text = render_idle(idle, abrupt=False)
    assert text.startswith("NOT RUN: target 'shop.Inventory#total' matched shop.Inventory#total()I, which did not run")
    assert "max_invocations=0" in text and "abrupt=True" in text


def test_an_invocation_that_ended_by_an_exception_counts_as_run_when_tallied():
    counts = {"a.B#f()V": ran(0, abrupt=1)}
    assert idle_targets(["a.B#f"], counts) == []
    assert over_limit(counts, 0) == [("a.B#f()V", 1)]


def test_patterns_match_method_ids_as_the_counting_contract_says():
    ids = ["p.A#f()V", "p.A#f(I)V", "p.A$In#g()V", "p.q.B#<init>()V"]
    assert matched_by("p.A#f", ids) == ["p.A#f()V", "p.A#f(I)V"]
    assert matched_by("p.A#f(I)V", ids) == ["p.A#f(I)V"]
    assert matched_by("p.*", ids) == ["p.A#f()V", "p.A#f(I)V", "p.A$In#g()V"]
    assert matched_by("p.**", ids) == ids


def test_every_status_is_either_passing_or_failing_or_not_judged_as_pytest_skips_it():
    assert set(PASSING).isdisjoint(FAILING)
    assert set(STATUSES) == set(PASSING) | set(FAILING) | {"skipped", "xfailed"}


def test_the_headline_counts_each_test_once_and_shows_only_what_happened():
    s = Summary({"t.py::a": "passed", "t.py::b": "recorded", "t.py::c": "recorded", "t.py::d": "failed"})
    assert s.headline() == "1 passed, 2 recorded, 1 failed"
    assert Summary({}).headline() == "no counted tests"


def test_improved_tests_are_named_with_the_one_command_that_accepts_them():
    ids = {f"tests/test_x.py::test_{i:02d}": "improved" for i in range(12)}
    ids["tests/test_y.py::test_z[a b]"] = "improved"
    lines = Summary(ids).lines()
    assert lines[0] == "13 improved"
    assert lines[1] == "improved, the baseline is stale (13):"
    assert lines[2:12] == [f"  tests/test_x.py::test_{i:02d}" for i in range(10)]
    assert lines[12] == "  and 3 more"
    # more than ten: the command names the modules, quoted for the shell
    assert lines[13] == "  to accept them: pytest tests/test_x.py tests/test_y.py --bytecount-update"
    assert accept_command(["t.py::x[a b]"]) == "pytest 't.py::x[a b]' --bytecount-update"


def test_stale_baselines_and_nondeterministic_tests_are_named():
    s = Summary({"t.py::a": "nondeterministic"}, stale_entries={"bc/t.json": ["old_a", "old_b"]},
                stale_files={"bc/test_gone.json": "test_gone.py"}, run_args=("tests",))
    lines = s.lines()
    assert lines[0] == "1 nondeterministic, 3 stale"
    assert lines[1:3] == ["nondeterministic: counts differ between two runs (1):", "  t.py::a"]
    assert lines[3:] == ["stale baselines (3):", "  bc/t.json: old_a, old_b (no such test)",
                         "  bc/test_gone.json: its test module test_gone.py no longer exists (if it moved, move "
                         "this file with it)",
                         "  to remove them: pytest tests --bytecount-update"]
    removed = Summary({}, stale_files={"bc/test_gone.json": "test_gone.py"}, updating="all").lines()
    assert removed[1] == "stale baselines (1), removed:" and not any("to remove" in line for line in removed)



def test_a_failing_verdict_outranks_every_passing_one_and_regressed_outranks_all():
    passing = [v for v in VERDICTS if v in PASSING]
    failing = [v for v in VERDICTS if v in FAILING]
    assert passing and failing
    for p in passing:
        for f in failing:
            assert worse(p, f) == f and worse(f, p) == f
    assert all(worse(v, "regressed") == "regressed" == worse("regressed", v) for v in VERDICTS)
    assert worse("improved", "passed") == "improved"  # a stale baseline is worth saying


def test_the_section_ends_with_what_the_session_wrote_and_found_in_colour():
    s = Summary({"t.py::a": "recorded", "u.py::b": "unwritten"}, weights=("default (v1)",),
                unwritten=(Unwritten("bc/u.json", "[Errno 28] No space left on device", ("u.py::b",), ("old",)),
                           Unwritten("results.json", "[Errno 13] Permission denied (--bytecount-json)")),
                notes=("bc/t.json could not be read",), refused=("a.B#huge()V: over 64 KB",),
                written=("bc/t.json",), html_report="report/index.html")
    assert s.terminal_lines() == [
        ("1 recorded, 1 unwritten", None),
        ("not written: the baseline file could not be written (1):", None),
        ("  u.py::b", None),
        ("cost weights: default (v1)", None),
        ("bytecount: could not write bc/u.json: [Errno 28] No space left on device", "red"),
        ("  the baselines of these tests were not written: u.py::b", "red"),
        ("  stale entries not removed: old", "red"),
        ("bytecount: could not write results.json: [Errno 13] Permission denied (--bytecount-json)", "red"),
        ("bytecount: bc/t.json could not be read", "yellow"),
        ("not counted: a.B#huge()V: over 64 KB", None),
        ("bytecount: wrote bc/t.json", None),
        ("bytecount: HTML report report/index.html", None),
    ]
    assert Summary({"t.py::a": "passed"}).terminal_lines() == [("1 passed", None)]


def test_an_interrupted_update_names_what_it_wrote_and_removes_no_stale_baseline():
    statuses = {"t.py::a": "recorded", "t.py::b": "recorded", "t.py::c": "passed"}
    s = Summary(statuses, {"bc/t.json": ["gone"]}, updating="all", interrupted=True)
    assert s.lines() == [
        "1 passed, 2 recorded, 1 stale",
        "interrupted: the baselines written before the interruption (2):",
        "  t.py::a",
        "  t.py::b",
        "  every other baseline is as it was before this run",
        "stale baselines (1), not removed: the run was interrupted:",
        "  bc/t.json: gone (no such test)",
        "  to remove them: pytest --bytecount-update",
    ]
    assert "interrupted" not in "\n".join(Summary(statuses, updating="all").lines())


def _result(nodeid, status, counts):
    return TestResult(nodeid, "bc/t.json", nodeid.split("::")[1], status, counts, "17.0.2", "0.1")


def _all_tests(md: str) -> str:
    """The job summary's table of every counted test (after the changed ones)."""
    return md[md.index("| test | status | method |"):]


def test_the_github_table_has_a_row_per_method_and_work_columns_only_where_they_are_counted():
    results = {"t.py::b": _result("t.py::b", "regressed", {"a.B#g()V": {"invocations": 2, "total": 12345}}),
               "t.py::a": _result("t.py::a", "passed", {"a.B#f()V": {"invocations": 1, "total": 7}})}
    assert _all_tests(markdown(results)) == ("| test | status | method | total | invocations |\n"
                                 "|---|---|---|---:|---:|\n"
                                 "| `t.py::a` | passed | `a.B#f()V` | 7 | 1 |\n"
                                 "| `t.py::b` | regressed | `a.B#g()V` | 12,345 | 2 |\n\n")
    results["t.py::a"].counts["a.B#f()V"]["cost"] = 1500
    lines = ["", ""] + _all_tests(markdown(results)).splitlines()
    assert lines[2] == "| test | status | method | cost | total | invocations |"
    assert lines[4:6] == ["| `t.py::a` | passed | `a.B#f()V` | 1,500 | 7 | 1 |",
                          "| `t.py::b` | regressed | `a.B#g()V` | | 12,345 | 2 |"]
    # with deep counts, the deep work (instructions anywhere plus elements copied) comes first: it decides
    results["t.py::b"].counts["a.B#g()V"]["deep"] = {"total": 2_000_000, "copied": 500, "windows": 1, "methods": {}}
    lines = ["", ""] + _all_tests(markdown(results)).splitlines()
    assert lines[2] == "| test | status | method | deep work | cost | total | invocations |"
    assert lines[5] == "| `t.py::b` | regressed | `a.B#g()V` | 2,000,500 | | 12,345 | 2 |"


JDK17 = {"version": "17.0.19+10", "vendor": "Debian", "class_library": "e4bb8d5c01d7447e"}
JDK25 = {"version": "25.0.2+10-LTS", "vendor": "Eclipse Adoptium", "class_library": "f192213436fb570a"}


def test_tests_whose_deep_counts_were_compared_loosely_are_named_with_both_runtimes_and_the_command():
    statuses = {"t.py::a": "passed", "t.py::b": "regressed", "t.py::c": "passed", "u.py::d": "passed"}
    loose = (LooseDeep("t.py::b", JDK17, JDK25, 4.0), LooseDeep("t.py::a", JDK17, JDK25, 4.0),
             LooseDeep("u.py::d", None, JDK25, 4.0))
    lines = Summary(statuses, loose=loose).lines()
    at = lines.index("  to accept them: pytest t.py::b --bytecount-update") + 1  # after the regressed group
    assert lines[at:] == [
        "deep counts compared loosely, within 4x, across two class libraries (2): the baselines' were taken on Java "
        "17.0.19+10 (Debian, class library e4bb8d5c01d7447e), this run's on Java 25.0.2+10-LTS (Eclipse Adoptium, "
        "class library f192213436fb570a)",
        "  t.py::a",
        "  t.py::b",
        "  to re-record them on this runtime: pytest t.py::a t.py::b --bytecount-update",
        "deep counts compared loosely, within 4x, across two class libraries (1): the baselines' were taken on an "
        "unknown runtime, this run's on Java 25.0.2+10-LTS (Eclipse Adoptium, class library f192213436fb570a)",
        "  u.py::d",
        "  to re-record them on this runtime: pytest u.py::d --bytecount-update",
    ]
    assert not any("loosely" in line for line in Summary(statuses).lines())


def test_an_update_names_every_regression_and_worse_order_it_accepted():
    regression = ("REGRESSED: deep 4,000 -> 103,040 (+99,040, +2476.0%)\napp.Lists#unique(I)I: REGRESSED\n"
                  "    deep          4,000 -> 103,040\n"
                  "app.Lists#unique(I)I: COMPLEXITY GOT WORSE: n (exponent 1.00) -> n^2, exponent 1.99 in deep.total\n"
                  "to accept: pytest tests/test_lists.py::test_unique --bytecount-update")
    assert accepted_lines(regression) == ["REGRESSED: deep 4,000 -> 103,040 (+99,040, +2476.0%)",
                                          "COMPLEXITY GOT WORSE: n (exponent 1.00) -> n^2, exponent 1.99 in deep.total"]
    assert accepted_lines("improved: total 40 -> 30 (-10, -25.0%); the baseline is stale") == []
    assert accepted_lines("") == []
    s = Summary({"tests/test_lists.py::test_unique": "recorded", "tests/test_lists.py::test_other": "recorded"},
                updating="all", accepted=(("tests/test_lists.py::test_unique", accepted_lines(regression)),))
    lines = s.lines()
    at = lines.index("accepted beyond the baseline (1): review these before committing the baselines")
    assert lines[at + 1] == ("  tests/test_lists.py::test_unique: REGRESSED: deep 4,000 -> 103,040 (+99,040, +2476.0%); "
                             "COMPLEXITY GOT WORSE: n (exponent 1.00) -> n^2, exponent 1.99 in deep.total")
    assert not any("accepted" in line for line in Summary({"t.py::a": "recorded"}, updating="all").lines())


def test_improved_tests_give_the_figures_that_fell():
    improvement = ("improved: deep 9,009 -> 4,509 (-4,500, -50.0%); total 9,009 -> 4,509 (-4,500, -50.0%); the baseline "
                   "is stale\np.W#f(I)I: improved\n    total               9,009 -> 4,509\n"
                   "p.W#g(I)I: complexity improved; baseline is stale: n^2 (exponent 1.98) -> n, exponent 1.00 in deep work\n"
                   "to accept: pytest t.py::test_f --bytecount-update")
    assert improved_lines(improvement) == ["deep 9,009 -> 4,509 (-4,500, -50.0%); total 9,009 -> 4,509 (-4,500, -50.0%)",
                                           "complexity improved: n^2 (exponent 1.98) -> n, exponent 1.00 in deep work"]
    assert improved_lines("REGRESSED: total 30 -> 40 (+10, +33.3%)") == []
    s = Summary({"t.py::test_f": "improved", "t.py::test_g": "passed"}, improved={"t.py::test_f": improved_lines(improvement)})
    lines = s.lines()
    at = lines.index("improved, the baseline is stale (1):")
    assert lines[at + 1:at + 5] == ["  t.py::test_f",
                                    "    deep 9,009 -> 4,509 (-4,500, -50.0%); total 9,009 -> 4,509 (-4,500, -50.0%)",
                                    "    complexity improved: n^2 (exponent 1.98) -> n, exponent 1.00 in deep work",
                                    "  to accept them: pytest t.py::test_f --bytecount-update"]


def test_the_runs_a_plugin_repeats_are_listed_once_with_one_command_that_names_the_test():
    """pytest-repeat's runs of one test (``[10-1-3]``, ``[10-2-3]``, ...) share its baseline entry: each is counted in
    the headline, as pytest counts them, and listed once, by the id the accept command runs as printed."""
    ids = {f"t.py::test_a[10-{i}-3]": "t.py::test_a[10]" for i in (1, 2, 3)}
    ids.update({f"t.py::test_b[{i}-3]": "t.py::test_b" for i in (1, 2, 3)})
    statuses = {n: "regressed" for n in ids}
    statuses["t.py::test_c"] = "regressed"
    lines = Summary(statuses, ids=ids).lines()
    assert lines[0] == "7 regressed"
    assert lines[1:6] == ["regressed (3 tests, 7 runs):", "  t.py::test_a[10] (3 runs)", "  t.py::test_b (3 runs)",
                          "  t.py::test_c",
                          "  to accept them: pytest 't.py::test_a[10]' t.py::test_b t.py::test_c --bytecount-update"]
    # without repetitions the group reads as it always did
    assert Summary({"t.py::test_c": "regressed"}).lines()[1] == "regressed (1):"


def test_a_result_is_named_in_commands_by_its_file_and_baseline_key():
    result = TestResult("tests/t.py::TestA::test_a[10-2-3]", "b.json", "TestA::test_a[10]", "passed")
    assert result.test_id == "tests/t.py::TestA::test_a[10]"
    assert TestResult("tests/t.py::test_b", "b.json", "test_b", "passed").test_id == "tests/t.py::test_b"


def test_a_test_whose_process_died_has_a_row_and_a_group_of_its_own():
    results = {"t.py::a": _result("t.py::a", "passed", {"a.B#f()V": {"invocations": 1, "total": 7}}),
               "t.py::dies": _result("t.py::dies", "error", {})}
    assert _all_tests(markdown(results)).splitlines()[2:4] == ["| `t.py::a` | passed | `a.B#f()V` | 7 | 1 |",
                                                   "| `t.py::dies` | error | | | |"]
    lines = Summary({"t.py::a": "recorded", "t.py::dies": "error"}, updating="all", lost=("t.py::dies",)).lines()
    assert lines == ["1 recorded, 1 error",
                     "error: the process running them died, so their counts were never read, nothing recorded for "
                     "them (1):", "  t.py::dies"]


def test_the_counting_words_are_pytest_s_and_a_run_of_new_tests_only_records_them_with_one_short_command():
    assert Summary({"t.py::a": "error", "t.py::b": "error", "t.py::c": "error"}).headline() == "3 errors"
    assert Summary({"t.py::a": "error"}).headline() == "1 error"
    every = Summary({"t.py::a": "new", "u.py::b": "new"}, run_args=("tests",), full_run=True).lines()
    assert every[-1] == "  to record them: pytest tests --bytecount-update=new"
    # a narrowed run (node ids, -k) or one where some tests have baselines names the tests
    narrowed = Summary({"t.py::a": "new", "u.py::b": "new"}, run_args=("tests",)).lines()
    assert narrowed[-1] == "  to record them: pytest t.py::a u.py::b --bytecount-update"
    some = Summary({"t.py::a": "new", "u.py::b": "passed"}, full_run=True).lines()
    assert some[-1] == "  to record them: pytest t.py::a --bytecount-update"


def test_the_job_summary_leads_with_the_changed_tests_their_figures_first_lines_and_accept_commands():
    m = "demo.Search#indexOf([II)I"
    worse = _result("t.py::scaled", "regressed", {m: {"invocations": 7, "total": 6_834_585}})
    worse.baseline_counts, worse.method_status = {m: {"invocations": 7, "total": 172_580}}, {m: "regressed"}
    worse.message = (f"{m}: COMPLEXITY GOT WORSE: log n (exponent 0.12) -> n, exponent 1.00\n    n  256  512\n"
                     "REGRESSED: total 172,580 -> 6,834,585 (+6,662,005, +3860.2%)")
    worse.accept = "pytest t.py::scaled --bytecount-update"
    better = _result("t.py::fixed", "improved", {m: {"invocations": 1, "total": 90}})
    better.baseline_counts, better.method_status = {m: {"invocations": 1, "total": 120}}, {m: "improved"}
    better.message = "improved: total 120 -> 90 (-30, -25.0%); the baseline is stale"
    better.accept = "pytest t.py::fixed --bytecount-update"
    same = _result("t.py::same", "passed", {m: {"invocations": 1, "total": 5}})
    md = markdown({r.nodeid: r for r in (better, same, worse)}).splitlines()
    at = md.index("#### Changed (2)")
    assert md[at + 2:at + 6] == [
        "| test | status | baseline → now | change | verdict | to accept |",
        "|---|---|---:|---:|---|---|",
        "| `t.py::scaled` | regressed | total 172,580 → 6,834,585 | +6,662,005 (+3860.2%) | COMPLEXITY GOT WORSE: log n "
        f"(exponent 0.12) -> n, exponent 1.00 ({m}) | `pytest t.py::scaled --bytecount-update` |",
        "| `t.py::fixed` | improved | total 120 → 90 | -30 (-25.0%) | improved: total 120 -> 90 (-30, -25.0%); the "
        "baseline is stale | `pytest t.py::fixed --bytecount-update` |"]
    assert "#### All counted tests" in md and not any("t.py::same" in line for line in md[:md.index("#### All counted tests")])
    # the terminal's group of a regressed test leads with the same line
    lines = Summary({"t.py::scaled": "regressed"}, leads={"t.py::scaled": "COMPLEXITY GOT WORSE: log n -> n"}).lines()
    assert lines[1:3] == ["regressed (1):", "  t.py::scaled"] and lines[3] == "    COMPLEXITY GOT WORSE: log n -> n"
    # nothing changed: the table of every test alone
    assert "Changed" not in markdown({"t.py::same": same})
