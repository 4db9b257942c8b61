"""The pytest experience, run the way a user runs it: real pytest processes (pytester) on a real Java project.

Each run is a subprocess because a process gets one JVM.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from tests.support.pytest_project import JDK17, demo_copy, demo_project, run


TESTS = '''
import jpype
import pytest

@pytest.mark.bytecount("demo.Sorting#insertionSort")
@pytest.mark.parametrize("n", [10, 50])
def test_sort(bytecount, n):
    a = jpype.JArray(jpype.JInt)(list(range(n, 0, -1)))
    bytecount.jclass("demo.Sorting").insertionSort(a)
    assert list(a) == sorted(a)

@pytest.mark.bytecount("demo.Sorting#fib", tolerance="total=10")
def test_fib(bytecount):
    assert bytecount.jclass("demo.Sorting").fib(12) == 144
    assert bytecount.counts()["demo.Sorting#fib(I)I"]["invocations"] == 465

def test_plain():
    assert True
'''


@pytest.fixture
def project(pytester):
    return demo_project(pytester, {"test_demo": TESTS})


@pytest.fixture
def demo(pytester):
    """examples/demo with its committed baselines: 8 tests, 3 of them on insertionSort (tests/test_sorting.py:
    test_insertion_sort[10], [100] and _is_quadratic), 1 on fib and 4 on the binary search."""
    return demo_copy(pytester)


def baseline(pytester) -> dict:
    return json.loads((pytester.path / "bytecount" / "test_demo.json").read_text())


def edit_source(pytester, old: str, new: str) -> None:
    path = pytester.path / "src" / "demo" / "Sorting.java"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_missing_baseline_fails_with_the_command_to_record_it(project):
    result = run(project)
    result.assert_outcomes(passed=1, failed=3)
    result.stdout.fnmatch_lines(["*no baseline for test_sort[[]10[]] in *test_demo.json*",
                                 "Record it with: pytest 'test_demo.py::test_sort[[]10[]]' --bytecount-update",
                                 "3 new"])
    assert not (project.path / "bytecount").exists()


def test_update_records_reviewable_baselines_and_the_next_run_passes(project):
    recorded = run(project, "--bytecount-update")
    recorded.assert_outcomes(passed=4)
    recorded.stdout.fnmatch_lines(["3 recorded"])
    text = (project.path / "bytecount" / "test_demo.json").read_text()
    data = json.loads(text)
    assert sorted(data["tests"]) == ["test_fib", "test_sort[10]", "test_sort[50]"]
    fib = data["tests"]["test_fib"]
    assert fib["jvm"].startswith("17.") and fib["plugin"]
    m = fib["methods"]["demo.Sorting#fib(I)I"]
    assert m["invocations"] == 465 and m["calls"] == {"demo/Sorting.fib(I)I": 464}
    assert len(m["code_fingerprint"]) == 64
    assert text == json.dumps(data, indent=2, sort_keys=True) + "\n"  # stable formatting
    result = run(project)
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["3 passed"])
    assert (project.path / "bytecount" / "test_demo.json").read_text() == text


def test_more_work_fails_with_a_diff_a_reviewer_understands(demo):
    edit_source(demo, "a[j + 1] = x;", "a[j + 1] = x; for (int k = 0; k < 2; k++) { x += 0; }")
    result = run(demo)
    result.assert_outcomes(passed=5, failed=3)  # the three insertionSort tests
    result.stdout.fnmatch_lines([
        "REGRESSED: total * -> * (+*, +*%)",
        "demo.Sorting#insertionSort([[]I)V: REGRESSED",
        "    total * -> * +* (+*%)  outside tolerance",
        "    opcodes: *",
        "    the method's bytecode changed since the baseline",
        "to accept: pytest 'tests/test_sorting.py::test_insertion_sort[[]10[]]' --bytecount-update",
    ])
    result.stdout.fnmatch_lines(["5 passed, 3 regressed"])


def test_less_work_passes_but_says_the_baseline_is_stale_and_strict_fails(demo):
    # read a.length once instead of on every loop check
    edit_source(demo, "for (int i = 1; i < a.length; i++) {", "int len = a.length; for (int i = 1; i < len; i++) {")
    result = run(demo, "-rA")
    result.assert_outcomes(passed=8)
    result.stdout.fnmatch_lines(["improved: total * -> * (-*, -*%); the baseline is stale",
                                 "demo.Sorting#insertionSort([[]I)V: improved",
                                 "5 passed, 3 improved"])
    strict = run(demo, "--bytecount-strict")
    strict.assert_outcomes(passed=5, failed=3)
    strict.stdout.fnmatch_lines(["*demo.Sorting#insertionSort([[]I)V: changed*"])


def test_a_baseline_with_the_raw_bytes_hash_is_compared_without_the_claim_and_upgraded_when_re_recorded(project):
    """Older baselines hashed the raw code bytes (``bytecode_sha256``), which stay the same when only the
    constant-pool entries they point at change: such a hash proves nothing about the code, so the verdict
    claims neither way, and re-recording replaces it with the code fingerprint."""
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    path = project.path / "bytecount" / "test_demo.json"
    data = json.loads(path.read_text())
    for entry in data["tests"].values():
        for method in entry["methods"].values():
            method["bytecode_sha256"] = "0" * 64
            del method["code_fingerprint"]
    path.write_text(json.dumps(data, indent=2, sort_keys=True))
    run(project).assert_outcomes(passed=4)  # still readable, and the counts still pass
    project.makepyfile(test_demo=TESTS.replace("fib(12) == 144", "fib(13) == 233").replace("== 465", "== 753"))
    result = run(project, "-k", "fib")
    result.assert_outcomes(failed=1, deselected=3)
    result.stdout.fnmatch_lines(["*invocations * 465 -> 753*"])
    assert "same bytecode" not in result.stdout.str() and "bytecode changed" not in result.stdout.str()
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    upgraded = json.loads(path.read_text())
    methods = [m for entry in upgraded["tests"].values() for m in entry["methods"].values()]
    assert methods and all("code_fingerprint" in m and "bytecode_sha256" not in m for m in methods)


def test_tolerances_from_the_marker_and_the_config(project):
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    # one more iinc per turn of the sort's inner loop, n(n-1)/2 turns on reversed input: +45 and +1,225
    edit_source(project, "j--;", "j--; x += 0;")
    run(project, "--bytecount-tolerance", "total=10%").assert_outcomes(passed=4)
    run(project, "--bytecount-tolerance", "total=20").assert_outcomes(passed=2, failed=2)


def test_update_new_only_adds_missing_entries(project):
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    before = baseline(project)
    del before["tests"]["test_fib"]
    (project.path / "bytecount" / "test_demo.json").write_text(json.dumps(before, indent=2, sort_keys=True) + "\n")
    edit_source(project, "j--;", "j--; x += 0;")
    result = run(project, "--bytecount-update=new")
    # the missing entry is recorded; the tests that have one are judged as on any run
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["1 recorded, 2 regressed"])
    after = baseline(project)
    assert after["tests"]["test_sort[10]"] == before["tests"]["test_sort[10]"]  # kept, though now different
    assert "test_fib" in after["tests"]


def test_stale_entries_are_reported_and_removed_once_their_module_was_collected_in_full(project):
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    project.makepyfile(test_demo=TESTS.replace('"n", [10, 50]', '"n", [10]'))
    result = run(project)
    result.stdout.fnmatch_lines(["2 passed, 1 stale", "stale baselines (1):",
                                 "  bytecount/test_demo.json: test_sort[[]50[]] (no such test)",
                                 "  to remove them: pytest --bytecount-update"])
    assert "test_sort[50]" in baseline(project)["tests"]  # a run without --bytecount-update only reports
    # -k narrows the run, not the collection: the module was collected in full, so test_sort[50] is proven
    # gone (tests/plugin/test_narrowed_runs.py tries every way of narrowing)
    partial = run(project, "-k", "sort", "--bytecount-update")
    partial.stdout.fnmatch_lines(["1 passed, 1 stale", "stale baselines (1), removed:"])
    data = baseline(project)["tests"]
    assert "test_sort[50]" not in data and "test_fib" in data


def test_skipped_tests_are_never_stale(project):
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    project.makepyfile(test_demo=TESTS.replace("def test_fib(bytecount):", "def test_fib(bytecount):\n    pytest.skip('not today')"))
    result = run(project, "--bytecount-update")
    result.assert_outcomes(passed=3, skipped=1)
    assert "test_fib" in baseline(project)["tests"]


def test_a_corrupt_baseline_is_a_clear_error_and_is_not_overwritten(project):
    (project.path / "bytecount").mkdir()
    broken = project.path / "bytecount" / "test_demo.json"
    broken.write_text('{"format": 1, "tests": {')
    result = run(project)
    result.stdout.fnmatch_lines(["*baseline file *test_demo.json is not valid JSON*"])
    assert broken.read_text() == '{"format": 1, "tests": {'
    assert result.ret != 0
    # only an explicit update replaces it, and keeps a copy in the cache folder (more cases: test_bad_input.py)
    run(project, "--bytecount-update").assert_outcomes(passed=4)
    assert (project.path / ".bytecount-cache" / "replaced" / "test_demo.json").read_text() == '{"format": 1, "tests": {'
    assert sorted(p.name for p in (project.path / "bytecount").iterdir()) == ["test_demo.json"]
    assert sorted(baseline(project)["tests"]) == ["test_fib", "test_sort[10]", "test_sort[50]"]


def test_bad_marker_arguments_fail_each_test_with_its_own_mistake(pytester):
    pytester.makepyfile(test_bad='''
        import pytest
        @pytest.mark.bytecount(42)
        def test_one(): pass
        @pytest.mark.bytecount("a.B", tolerence="total=1")
        def test_two(bytecount): pass
        @pytest.mark.bytecount("a.B", max_invocations="0")
        def test_three(bytecount): pass
        @pytest.mark.bytecount("a.B", in_place="yes")
        def test_four(bytecount): pass
        @pytest.mark.bytecount("a.B", in_place=True, inclusive=True)
        def test_five(bytecount): pass
        @pytest.mark.bytecount("a.B", loader_scope="class")
        def test_six(bytecount): pass
        @pytest.mark.bytecount("a.B", loader_scope="module", inclusive=True)
        def test_seven(bytecount): pass
    ''')
    pytester.makepyprojecttoml('[tool.bytecount]\nclasspath = ["."]\n')
    result = run(pytester)
    result.assert_outcomes(errors=7)  # each test errors with its own mistake, before anything is counted
    result.stdout.fnmatch_lines(["*test_bad.py::test_one: @pytest.mark.bytecount needs one or more target patterns*",
                                 "*test_bad.py::test_two: unknown @pytest.mark.bytecount option(s) [[]'tolerence'[]]*",
                                 "*test_bad.py::test_three: max_invocations must be a whole number >= 0, got '0'",
                                 "*test_bad.py::test_four: in_place must be True or False, got 'yes'",
                                 "*test_bad.py::test_five: inclusive counts are made in the test's own class loader "
                                 "only: drop in_place=True or inclusive=True",
                                 "*test_bad.py::test_six: loader_scope must be one of 'test', 'module', 'session', "
                                 "got 'class'",
                                 "*test_bad.py::test_seven: loader_scope='module' shares a test's own class loader; "
                                 "it does not go with inclusive=True"], consecutive=False)
    assert "Traceback" not in result.stdout.str()


def test_a_target_matching_nothing_fails_that_test_with_near_misses(project):
    project.makepyfile(test_demo='''
        import pytest
        @pytest.mark.bytecount("demo.Sorting#insertonSort")
        def test_typo(bytecount): pass
    ''')
    result = run(project)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*'demo.Sorting#insertonSort' matches no method; near misses: demo.Sorting#insertionSort*"])


def test_ci_outputs_json_junit_properties_and_a_step_summary(demo, monkeypatch):
    summary = demo.path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = run(demo, "--bytecount-json=results.json", "--junitxml=junit.xml")
    result.assert_outcomes(passed=8)
    data = json.loads((demo.path / "results.json").read_text())
    fib = "tests/test_sorting.py::test_fib"
    assert data[fib]["status"] == "passed"
    assert data[fib]["counts"]["demo.Sorting#fib(I)I"]["invocations"] == 465  # fib(12): 2 fib(13) - 1 calls
    junit = (demo.path / "junit.xml").read_text()
    assert 'name="bytecount demo.Sorting#fib(I)I invocations" value="465"' in junit
    md = summary.read_text()
    assert "### pytest-bytecount" in md and f"| `{fib}` | passed | `demo.Sorting#fib(I)I` |" in md


def test_a_regression_makes_the_exit_status_non_zero(demo):
    edit_source(demo, "j--;", "j--; x += 0;")
    assert run(demo).ret == pytest.ExitCode.TESTS_FAILED


def test_each_test_gets_fresh_statics(pytester):
    (pytester.path / "src" / "st").mkdir(parents=True)
    (pytester.path / "src" / "st" / "Counter.java").write_text(textwrap.dedent('''
        package st;
        public class Counter {
            static int n;
            public static int next() { return ++n; }
        }
    '''))
    pytester.makepyprojecttoml(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{JDK17}"\n')
    pytester.makepyfile(test_st='''
        import pytest
        @pytest.mark.bytecount("st.Counter#next")
        @pytest.mark.parametrize("i", range(3))
        def test_next(bytecount, i):
            assert bytecount.jclass("st.Counter").next() == 1
    ''')
    run(pytester, "--bytecount-update").assert_outcomes(passed=3)


def test_xdist_workers_count_and_only_the_controller_writes_baselines(project):
    result = run(project, "-n", "2", "--bytecount-update")
    result.assert_outcomes(passed=4)
    data = baseline(project)
    assert sorted(data["tests"]) == ["test_fib", "test_sort[10]", "test_sort[50]"]
    assert not list((project.path / "bytecount").glob(".*.tmp"))
    run(project, "-n", "2").assert_outcomes(passed=4)
    # the controller learns from the workers which modules they collected in full: stale entries under xdist too
    project.makepyfile(test_demo=TESTS.replace('"n", [10, 50]', '"n", [10]'))
    run(project, "-n", "2").stdout.fnmatch_lines(["2 passed, 1 stale"])
    # a regression found by a worker fails the run
    edit_source(project, "j--;", "j--; x += 0;")
    result = run(project, "-n", "2")
    result.assert_outcomes(passed=2, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_the_jvm_shuts_down_cleanly_with_pytest_faulthandler_enabled(project):
    """No -p no:faulthandler: the plugin stops the JVM before faulthandler swaps the signal handlers back."""
    for _ in range(3):
        result = project.runpytest_subprocess("-p", "no:cacheprovider", "--bytecount-update", timeout=600)
        assert result.ret == 0, result.stderr.str()[-2000:]
        assert "Fatal Python error" not in result.stderr.str()


def test_printed_commands_repeat_the_options_that_decide_where_and_what_is_recorded(project):
    """Followed as printed, a command must record where this run looks: with --bytecount-baseline-dir=bl
    the command that records a missing baseline carries the option, or it writes somewhere else."""
    result = run(project, "--bytecount-baseline-dir=bl", "--bytecount-tolerance=total=5%", "-k", "fib")
    result.assert_outcomes(failed=1, deselected=3)
    result.stdout.fnmatch_lines([
        "Record it with: pytest test_demo.py::test_fib --bytecount-baseline-dir=bl --bytecount-update",
        "  to record them: pytest test_demo.py::test_fib --bytecount-baseline-dir=bl --bytecount-update",
    ])
    assert "tolerance=total" not in result.stdout.str().split("Record it with:")[1]  # not an option of recording
    # the command, run as printed, records what the run looks for
    run(project, "test_demo.py::test_fib", "--bytecount-baseline-dir=bl", "--bytecount-update").assert_outcomes(passed=1)
    run(project, "--bytecount-baseline-dir=bl", "-k", "fib").assert_outcomes(passed=1, deselected=3)
    assert (project.path / "bl").is_dir() and not (project.path / "bytecount").exists()


def test_the_options_a_recording_repeats_are_read_in_either_spelling():
    from pytest_bytecount.plugin.arguments import recording_options, update_command

    args = ["-k", "fib", "--bytecount-baseline-dir", "bl", "--bytecount-weights=default", "--bytecount-json=r.json",
            "--bytecount-jvm-option=-Xss8m", "--bytecount-strict"]
    assert recording_options(args) == ("--bytecount-baseline-dir=bl", "--bytecount-weights=default",
                                       "--bytecount-jvm-option=-Xss8m")
    assert update_command(["t.py::test_a[x y]"], ("--bytecount-baseline-dir=my bl",)) == \
        "pytest 't.py::test_a[x y]' '--bytecount-baseline-dir=my bl' --bytecount-update"
