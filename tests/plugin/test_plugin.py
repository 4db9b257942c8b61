"""The pytest experience, run the way a user runs it: real pytest processes on a real Java project.

Each run is a subprocess because a process gets one JVM, and each costs a JVM start and a javac run, so most
stories share one child project and its fixed sequence of runs (the ``shared`` fixture) instead of starting
pytest processes of their own: each story has its own test module under tests/<story>/ (its own
baseline file), its own copy of the demo's Sorting in a package of its own (so one story's edits of the Java
cannot move another's counts), and the demo itself with its committed baselines under tests/. A run takes
only the stories it is for, and each test reads only its own outcome, results entry, report section and
files; a story checks the session's summary only where the lines name its own tests or files, or where the
run was its alone. The stories whose point is the whole session (its exit status, xdist, faulthandler, the
options a printed command repeats) keep a pytest process of their own.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from types import SimpleNamespace

import pytest
from tests.support.paths import DEMO_SRC, EXAMPLES
from tests.support.pytest_project import DEMO_IGNORED, demo_copy, demo_project, run
from tests.support.shared_run import run_session, write_project


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



# --- the stories of one shared child project -------------------------------------------------------------

SORTING = (DEMO_SRC / "demo" / "Sorting.java").read_text()
# the stories that have a Sorting of their own: the package, the folder under tests/ and the tests' middle name
STORIES = ["missing", "recorded", "rawhash", "tolerance", "onlynew", "stale", "skipped", "corrupt", "typo"]
DEMO_TESTS = ["tests/test_sorting.py", "tests/test_search.py"]  # the demo's 8 tests, with committed baselines
DEMO_ON_INSERTION_SORT = ["tests/test_sorting.py::test_insertion_sort[10]",
                          "tests/test_sorting.py::test_insertion_sort[100]",
                          "tests/test_sorting.py::test_insertion_sort_is_quadratic"]
DEMO_OTHERS = ["tests/test_sorting.py::test_fib", "tests/test_search.py::test_index_of[0]",
               "tests/test_search.py::test_index_of[1998]", "tests/test_search.py::test_index_of[1999]",
               "tests/test_search.py::test_index_of_is_logarithmic"]
CORRUPT = '{"format": 1, "tests": {'

BAD_MARKERS = '''
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
'''
TYPO = '''
    import pytest
    @pytest.mark.bytecount("typo.Sorting#insertonSort")
    def test_typo(bytecount): pass
'''
COUNTER = '''
package st;
public class Counter {
    static int n;
    public static int next() { return ++n; }
}
'''
STATICS = '''
    import pytest
    @pytest.mark.bytecount("st.Counter#next")
    @pytest.mark.parametrize("i", range(3))
    def test_next(bytecount, i):
        assert bytecount.jclass("st.Counter").next() == 1
'''
PLUGINS = '''
    from pathlib import Path

    def test_plugins(request):
        """The names pytest-bytecount's plugin objects are registered under, written beside this run's results."""
        names = sorted(n for n, _ in request.config.pluginmanager.list_name_plugin() if str(n).startswith("bytecount"))
        Path(request.config.option.bytecount_json).with_suffix(".plugins").write_text("\\n".join(names))
'''


def story(pkg: str, tests: str = TESTS) -> str:
    """``tests`` as story ``pkg`` runs them: on its own package's Sorting, named test_<pkg>_sort and so on."""
    return tests.replace("demo.Sorting", f"{pkg}.Sorting").replace("def test_", f"def test_{pkg}_")


def node(pkg: str, name: str) -> str:
    """The node id of story ``pkg``'s test ``name`` (``sort[10]``, ``fib``, ``plain``)."""
    return f"tests/{pkg}/test_{pkg}.py::test_{pkg}_{name}"


def counted(pkg: str) -> list:
    return [node(pkg, "sort[10]"), node(pkg, "sort[50]"), node(pkg, "fib")]


def every(pkg: str) -> list:
    return [*counted(pkg), node(pkg, "plain")]


def outcomes(session, nodeids) -> list:
    return [session.outcome(n.split("::")[-1]) for n in nodeids]


def statuses(session, nodeids) -> list:
    return [session.result(n)["status"] for n in nodeids]


def summary(session) -> list:
    """The lines of the session's ``bytecount`` summary section, its headline first."""
    lines = session.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(r"=+ bytecount =+", line))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("=="))
    return lines[start + 1:end]


def headline(session) -> list:
    return summary(session)[0].split(", ")


def group(session, title: str) -> list:
    """The node ids the bytecount summary lists under ``title`` (``regressed (3):``)."""
    lines = summary(session)
    for i, line in enumerate(lines):
        if re.fullmatch(rf"{re.escape(title)} \(\d+\):", line):
            ids = []
            for listed in lines[i + 1:]:
                if not listed.startswith("  ") or listed.startswith("  to "):
                    break
                if not listed.startswith("    "):  # deeper: an improved test's figures
                    ids.append(listed.strip())
            return ids
    return []


def totals(session) -> dict:
    """The counts of the session's last line (``5 passed, 3 failed``), for a run that was one story's alone."""
    counts = pytest.RunResult.parse_summary_nouns(session.stdout.splitlines())
    counts.pop("warnings", None)
    return counts


def matches(text: str, lines: list, consecutive: bool = False) -> None:
    pytest.LineMatcher(text.splitlines()).fnmatch_lines(lines, consecutive=consecutive)


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """examples/demo with its committed baselines (src/demo, tests/test_sorting.py and tests/test_search.py:
    3 tests on insertionSort, 1 on fib, 4 on the binary search), and beside it each story of this module in a
    test module of its own under tests/<story>/, through one fixed sequence of runs; each run takes only the
    stories it is for, and the edits between two runs touch only the Java, tests or baselines of their own
    story. A story reads the run of the step it is at; what a later run overwrites is saved in ``saved``."""
    folder = tmp_path_factory.mktemp("shared")
    shutil.copytree(EXAMPLES / "demo", folder, ignore=DEMO_IGNORED, dirs_exist_ok=True)
    sources = {f"{pkg}/Sorting.java": SORTING.replace("package demo;", f"package {pkg};") for pkg in STORIES}
    sources["st/Counter.java"] = COUNTER
    tests = {f"tests/{pkg}/test_{pkg}.py": story(pkg) for pkg in STORIES if pkg != "typo"}
    tests.update({"tests/typo/test_typo.py": TYPO, "tests/bad/test_bad.py": BAD_MARKERS,
                  "tests/statics/test_st.py": STATICS, "tests/plugins/test_plugins.py": PLUGINS})
    # the demo's own [tool.pytest.ini_options], beside the [tool.bytecount] every story shares
    write_project(folder, sources, tests, pyproject='[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    assert SORTING.count("package demo;") == 1 and (folder / "src" / "demo" / "Sorting.java").read_text() == SORTING
    (folder / "tests" / "corrupt" / "bytecount").mkdir()
    (folder / "tests" / "corrupt" / "bytecount" / "test_corrupt.json").write_text(CORRUPT)

    def path(pkg: str):
        return folder / "tests" / pkg / "bytecount" / f"test_{pkg}.json"

    def text(pkg: str):
        return path(pkg).read_text() if path(pkg).exists() else None

    def edit(rel: str, old: str, new: str) -> None:
        file = folder / rel
        content = file.read_text()
        assert old in content, rel
        file.write_text(content.replace(old, new))

    def rewrite_tests(pkg: str, tests: str) -> None:
        (folder / "tests" / pkg / f"test_{pkg}.py").write_text(textwrap.dedent(story(pkg, tests)))

    runs, saved = {}, {}
    stories = lambda *names: [f"tests/{name}" for name in names]  # noqa: E731

    # a first run on no baselines, a corrupt one, bad markers and the demo as committed, as CI runs it
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GITHUB_STEP_SUMMARY", str(folder / "summary.md"))
        runs["first"] = run_session(folder, *stories("missing", "corrupt", "bad", "typo", "plugins"), *DEMO_TESTS,
                                    name="first")
    saved["corrupt"] = text("corrupt")

    runs["update"] = run_session(folder, "--bytecount-update", *stories(
        "recorded", "rawhash", "tolerance", "onlynew", "stale", "skipped", "corrupt", "statics"), name="update")
    saved["recorded"] = text("recorded")
    # rawhash: the baseline as older versions wrote it, the raw code bytes' hash and no code fingerprint
    if path("rawhash").exists():
        data = json.loads(text("rawhash"))
        for entry in data["tests"].values():
            for method in entry["methods"].values():
                method["bytecode_sha256"] = "0" * 64
                del method["code_fingerprint"]
        path("rawhash").write_text(json.dumps(data, indent=2, sort_keys=True))
    # one more iinc per turn of the sort's inner loop, n(n-1)/2 turns on reversed input: +45 and +1,225
    edit("src/tolerance/Sorting.java", "j--;", "j--; x += 0;")
    # onlynew: test_onlynew_fib's entry gone, the sort's work grown
    if path("onlynew").exists():
        before = json.loads(text("onlynew"))
        del before["tests"]["test_onlynew_fib"]
        path("onlynew").write_text(json.dumps(before, indent=2, sort_keys=True) + "\n")
        saved["onlynew"] = before
    edit("src/onlynew/Sorting.java", "j--;", "j--; x += 0;")
    rewrite_tests("stale", TESTS.replace('"n", [10, 50]', '"n", [10]'))
    rewrite_tests("skipped", TESTS.replace("def test_fib(bytecount):",
                                           "def test_fib(bytecount):\n    pytest.skip('not today')"))
    # the demo: read a.length once instead of on every loop check
    edit("src/demo/Sorting.java", "for (int i = 1; i < a.length; i++) {",
         "int len = a.length; for (int i = 1; i < len; i++) {")

    # the whole project, as a plain run without paths (the demo's testpaths) and with every report section
    runs["plain"] = run_session(folder, "-rA", name="plain")
    saved["stale"] = text("stale")
    runs["strict"] = run_session(folder, "--bytecount-strict", *DEMO_TESTS, name="strict")
    runs["new"] = run_session(folder, "--bytecount-update=new", *stories("onlynew"), name="new")
    runs["total=10%"] = run_session(folder, "--bytecount-tolerance", "total=10%", *stories("tolerance"), name="ten")
    runs["total=20"] = run_session(folder, "--bytecount-tolerance", "total=20", *stories("tolerance"), name="twenty")

    rewrite_tests("rawhash", TESTS.replace("fib(12) == 144", "fib(13) == 233").replace("== 465", "== 753"))
    # the demo as committed, but for more work in insertionSort's outer loop
    (folder / "src" / "demo" / "Sorting.java").write_text(SORTING)
    edit("src/demo/Sorting.java", "a[j + 1] = x;", "a[j + 1] = x; for (int k = 0; k < 2; k++) { x += 0; }")
    runs["regressed"] = run_session(folder, *stories("rawhash"), *DEMO_TESTS, name="regressed")

    runs["re-update"] = run_session(folder, "--bytecount-update", *stories("rawhash", "skipped"), name="reupdate")
    # -k narrows the run, not the collection (tests/plugin/test_narrowed_runs.py tries every way of narrowing)
    runs["narrowed"] = run_session(folder, "-k", "sort", "--bytecount-update", *stories("stale"), name="narrowed")
    return SimpleNamespace(folder=folder, runs=runs, saved=saved,
                           baseline=lambda pkg: json.loads(path(pkg).read_text()))


def test_a_missing_baseline_fails_with_the_command_to_record_it(shared):
    first = shared.runs["first"]
    assert outcomes(first, every("missing")) == ["failed", "failed", "failed", "passed"]
    assert statuses(first, counted("missing")) == ["new", "new", "new"]
    matches(first.section("test_missing_sort[10]"), [
        "*no baseline for test_missing_sort[[]10[]] in *test_missing.json*",
        "Record it with: pytest 'tests/missing/test_missing.py::test_missing_sort[[]10[]]' --bytecount-update"])
    assert "3 new" in headline(first) and group(first, "new, no baseline yet") == sorted(counted("missing"))
    assert not (shared.folder / "tests" / "missing" / "bytecount").exists()


def test_update_records_reviewable_baselines_and_the_next_run_passes(shared):
    recorded = shared.runs["update"]
    assert outcomes(recorded, every("recorded")) == ["passed"] * 4
    assert statuses(recorded, counted("recorded")) == ["recorded"] * 3
    assert f"bytecount: wrote {shared.folder}/tests/recorded/bytecount/test_recorded.json" in summary(recorded)
    text = shared.saved["recorded"]
    data = json.loads(text)
    assert sorted(data["tests"]) == ["test_recorded_fib", "test_recorded_sort[10]", "test_recorded_sort[50]"]
    fib = data["tests"]["test_recorded_fib"]
    assert fib["jvm"].startswith("17.") and fib["plugin"]
    m = fib["methods"]["recorded.Sorting#fib(I)I"]
    assert m["invocations"] == 465 and m["calls"] == {"recorded/Sorting.fib(I)I": 464}
    assert len(m["code_fingerprint"]) == 64
    assert text == json.dumps(data, indent=2, sort_keys=True) + "\n"  # stable formatting
    result = shared.runs["plain"]
    assert outcomes(result, every("recorded")) == ["passed"] * 4
    assert statuses(result, counted("recorded")) == ["passed"] * 3
    assert (shared.folder / "tests" / "recorded" / "bytecount" / "test_recorded.json").read_text() == text


def test_more_work_fails_with_a_diff_a_reviewer_understands(shared):
    result = shared.runs["regressed"]  # the demo's insertionSort does more work
    assert outcomes(result, DEMO_ON_INSERTION_SORT) == ["failed"] * 3  # the three insertionSort tests
    assert outcomes(result, DEMO_OTHERS) == ["passed"] * 5
    matches(result.section("test_insertion_sort[10]"), [
        "REGRESSED: total * -> * (+*, +*%)",
        "demo.Sorting#insertionSort([[]I)V: REGRESSED",
        "    total * -> * +* (+*%)  outside tolerance",
        "    opcodes: *",
        "    the method's bytecode changed since the baseline",
        "to accept: pytest 'tests/test_sorting.py::test_insertion_sort[[]10[]]' --bytecount-update",
    ])
    assert statuses(result, DEMO_ON_INSERTION_SORT) == ["regressed"] * 3
    assert statuses(result, DEMO_OTHERS) == ["passed"] * 5
    regressed = group(result, "regressed")
    assert set(DEMO_ON_INSERTION_SORT) <= set(regressed) and not set(DEMO_OTHERS) & set(regressed)


def test_less_work_passes_but_says_the_baseline_is_stale_and_strict_fails(shared):
    result = shared.runs["plain"]  # the demo's insertionSort reads a.length once instead of on every loop check
    assert outcomes(result, DEMO_ON_INSERTION_SORT + DEMO_OTHERS) == ["passed"] * 8
    matches(result.section("test_insertion_sort[10]"), ["improved: total * -> * (-*, -*%); the baseline is stale",
                                                         "demo.Sorting#insertionSort([[]I)V: improved"])
    assert statuses(result, DEMO_ON_INSERTION_SORT) == ["improved"] * 3
    assert statuses(result, DEMO_OTHERS) == ["passed"] * 5
    assert group(result, "improved, the baseline is stale") == sorted(DEMO_ON_INSERTION_SORT)
    strict = shared.runs["strict"]  # the demo alone
    assert totals(strict) == {"passed": 5, "failed": 3}
    matches(strict.stdout, ["*demo.Sorting#insertionSort([[]I)V: changed*"])


def test_a_baseline_with_the_raw_bytes_hash_is_compared_without_the_claim_and_upgraded_when_re_recorded(shared):
    """Older baselines hashed the raw code bytes (``bytecode_sha256``), which stay the same when only the
    constant-pool entries they point at change: such a hash proves nothing about the code, so the verdict
    claims neither way, and re-recording replaces it with the code fingerprint."""
    assert outcomes(shared.runs["update"], every("rawhash")) == ["passed"] * 4
    # with the hashes as older versions wrote them: still readable, and the counts still pass
    assert outcomes(shared.runs["plain"], every("rawhash")) == ["passed"] * 4
    # then fib(13) instead of fib(12)
    result = shared.runs["regressed"]
    assert outcomes(result, every("rawhash")) == ["passed", "passed", "failed", "passed"]
    fib = result.section("test_rawhash_fib")
    matches(fib, ["*invocations * 465 -> 753*"])
    assert "same bytecode" not in fib and "bytecode changed" not in fib
    assert outcomes(shared.runs["re-update"], every("rawhash")) == ["passed"] * 4
    upgraded = shared.baseline("rawhash")
    methods = [m for entry in upgraded["tests"].values() for m in entry["methods"].values()]
    assert methods and all("code_fingerprint" in m and "bytecode_sha256" not in m for m in methods)


def test_tolerances_from_the_marker_and_the_config(shared):
    assert outcomes(shared.runs["update"], every("tolerance")) == ["passed"] * 4
    # then one more iinc per turn of the sort's inner loop: +45 and +1,225; the runs below are this story's alone
    assert totals(shared.runs["total=10%"]) == {"passed": 4}
    assert totals(shared.runs["total=20"]) == {"passed": 2, "failed": 2}


def test_update_new_only_adds_missing_entries(shared):
    assert outcomes(shared.runs["update"], every("onlynew")) == ["passed"] * 4
    before = shared.saved["onlynew"]  # then without test_onlynew_fib's entry, and the sort doing more work
    result = shared.runs["new"]  # this story's alone
    # the missing entry is recorded; the tests that have one are judged as on any run
    assert totals(result) == {"passed": 2, "failed": 2}
    matches(result.stdout, ["1 recorded, 2 regressed"])
    after = shared.baseline("onlynew")
    # kept, though now different
    assert after["tests"]["test_onlynew_sort[10]"] == before["tests"]["test_onlynew_sort[10]"]
    assert "test_onlynew_fib" in after["tests"]


def test_stale_entries_are_reported_and_removed_once_their_module_was_collected_in_full(shared):
    assert outcomes(shared.runs["update"], every("stale")) == ["passed"] * 4
    result = shared.runs["plain"]  # test_stale_sort[50] is gone from the module; no path given, as a user runs it
    assert statuses(result, [node("stale", "sort[10]"), node("stale", "fib")]) == ["passed", "passed"]
    assert "1 stale" in headline(result)
    matches("\n".join(summary(result)), [
        "stale baselines (1):",
        "  tests/stale/bytecount/test_stale.json: test_stale_sort[[]50[]] (no such test)",
        "  to remove them: pytest --bytecount-update"])
    # a run without --bytecount-update only reports
    assert "test_stale_sort[50]" in json.loads(shared.saved["stale"])["tests"]
    # -k narrows the run, not the collection: the module was collected in full, so test_stale_sort[50] is proven
    # gone (tests/plugin/test_narrowed_runs.py tries every way of narrowing)
    partial = shared.runs["narrowed"]  # this story's alone
    matches(partial.stdout, ["1 passed, 1 stale", "stale baselines (1), removed:"])
    data = shared.baseline("stale")["tests"]
    assert "test_stale_sort[50]" not in data and "test_stale_fib" in data


def test_skipped_tests_are_never_stale(shared):
    assert outcomes(shared.runs["update"], every("skipped")) == ["passed"] * 4
    result = shared.runs["re-update"]  # test_skipped_fib now skips
    assert outcomes(result, every("skipped")) == ["passed", "passed", "skipped", "passed"]
    assert "test_skipped_fib" in shared.baseline("skipped")["tests"]


def test_a_corrupt_baseline_is_a_clear_error_and_is_not_overwritten(shared):
    result = shared.runs["first"]
    assert outcomes(result, counted("corrupt")) == ["failed"] * 3
    assert statuses(result, counted("corrupt")) == ["error"] * 3
    matches(result.section("test_corrupt_sort[10]"), ["*baseline file *test_corrupt.json is not valid JSON*"])
    assert shared.saved["corrupt"] == CORRUPT
    # only an explicit update replaces it, and keeps a copy in the cache folder (more cases: test_bad_input.py)
    assert outcomes(shared.runs["update"], every("corrupt")) == ["passed"] * 4
    assert (shared.folder / ".bytecount-cache" / "replaced" / "test_corrupt.json").read_text() == CORRUPT
    folder = shared.folder / "tests" / "corrupt" / "bytecount"
    assert sorted(p.name for p in folder.iterdir()) == ["test_corrupt.json"]
    assert sorted(shared.baseline("corrupt")["tests"]) == ["test_corrupt_fib", "test_corrupt_sort[10]",
                                                          "test_corrupt_sort[50]"]


BAD_MESSAGES = {
    "test_one": "*test_bad.py::test_one: @pytest.mark.bytecount needs one or more target patterns*",
    "test_two": "*test_bad.py::test_two: unknown @pytest.mark.bytecount option(s) [[]'tolerence'[]]*",
    "test_three": "*test_bad.py::test_three: max_invocations must be a whole number >= 0, got '0'",
    "test_four": "*test_bad.py::test_four: in_place must be True or False, got 'yes'",
    "test_five": "*test_bad.py::test_five: inclusive counts are made in the test's own class loader only: drop "
                 "in_place=True or inclusive=True",
    "test_six": "*test_bad.py::test_six: loader_scope must be one of 'test', 'module', 'session', got 'class'",
    "test_seven": "*test_bad.py::test_seven: loader_scope='module' shares a test's own class loader; it does not go "
                  "with inclusive=True",
}


def test_bad_marker_arguments_fail_each_test_with_its_own_mistake(shared):
    result = shared.runs["first"]
    # each test errors with its own mistake, before anything is counted
    assert [result.outcome(name) for name in BAD_MESSAGES] == ["error"] * 7
    for name, message in BAD_MESSAGES.items():
        matches(result.section(name), [message])
        assert "Traceback" not in result.section(name)
    assert "Traceback" not in result.stdout


def test_a_target_matching_nothing_fails_that_test_with_near_misses(shared):
    result = shared.runs["first"]
    assert result.outcome("test_typo") == "error"
    matches(result.section("test_typo"),
            ["*'typo.Sorting#insertonSort' matches no method; near misses: typo.Sorting#insertionSort*"])


def test_ci_outputs_json_junit_properties_and_a_step_summary(shared):
    result = shared.runs["first"]  # the demo as committed, with GITHUB_STEP_SUMMARY set
    assert outcomes(result, DEMO_ON_INSERTION_SORT + DEMO_OTHERS) == ["passed"] * 8
    fib = "tests/test_sorting.py::test_fib"
    assert result.result(fib)["status"] == "passed"
    assert result.result(fib)["counts"]["demo.Sorting#fib(I)I"]["invocations"] == 465  # fib(12): 2 fib(13) - 1 calls
    junit = result.junit.read_text()
    assert 'name="bytecount demo.Sorting#fib(I)I invocations" value="465"' in junit
    md = (shared.folder / "summary.md").read_text()
    assert "### pytest-bytecount" in md and f"| `{fib}` | passed | `demo.Sorting#fib(I)I` |" in md


def test_each_concern_is_a_pytest_plugin_of_its_own_and_an_output_only_when_asked_for(shared):
    # the first run writes a results file and a step summary; the plain run only the results file (no HTML: none
    # is configured), as every run of the shared project does
    expected = ["bytecount", "bytecount-json", "bytecount-jvm-guard", "bytecount-plugin", "bytecount-recording",
                "bytecount-scaling"]
    first, plain = shared.runs["first"], shared.runs["plain"]
    assert first.outcome("test_plugins") == "passed" and plain.outcome("test_plugins") == "passed"
    assert (shared.folder / "first.plugins").read_text().split("\n") == sorted(expected + ["bytecount-step-summary"])
    assert (shared.folder / "plain.plugins").read_text().split("\n") == expected


def test_a_regression_makes_the_exit_status_non_zero(demo):
    edit_source(demo, "j--;", "j--; x += 0;")
    assert run(demo).ret == pytest.ExitCode.TESTS_FAILED


def test_each_test_gets_fresh_statics(shared):
    result = shared.runs["update"]  # st.Counter#next, whose static counter starts at 0 in each test's own loader
    assert [result.outcome(f"test_next[{i}]") for i in range(3)] == ["passed"] * 3


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
            "--bytecount-jvm-option=-Xss8m", "--bytecount-strict", "--bytecount-deep", "tests/",
            "--bytecount-javac-option", "-g"]
    assert recording_options(args) == ("--bytecount-baseline-dir=bl", "--bytecount-weights=default",
                                       "--bytecount-jvm-option=-Xss8m", "--bytecount-deep", "--bytecount-javac-option=-g")
    assert update_command(["t.py::test_a[x y]"], ("--bytecount-baseline-dir=my bl",)) == \
        "pytest 't.py::test_a[x y]' '--bytecount-baseline-dir=my bl' --bytecount-update"
