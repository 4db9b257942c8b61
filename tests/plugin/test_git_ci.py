"""CI the way teams work, on real git repositories made by the test: a comparison with the baselines committed on
another branch (``--bytecount-compare-ref``) and the pull-request comment (``--bytecount-pr-comment``)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.git_repo import commit_all, git, git_env, init  # noqa: F401 - git_env is a fixture
from tests.support.chromium import Dom, dump_dom, find_chromium
from tests.support.pytest_project import demo_copy, java_project, run

LOOP = """
package st;

public class Loop {
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }
}
"""
# the same sum, each turn of its loop doing a second, useless turn: twice the work
SLOWER = LOOP.replace("s += i;", "s += i;\n            for (int k = 0; k < 1; k++) { s += 0; }")

TESTS = {"test_loop": """
import pytest

@pytest.mark.bytecount("st.Loop#sum")
def test_sum(bytecount):
    assert bytecount.jclass("st.Loop").sum(100) == 4950
"""}

@pytest.fixture
def repo(pytester, git_env):
    """A project in git whose ``main`` holds a recorded baseline of ``st.Loop#sum``."""
    java_project(pytester, {"st/Loop.java": LOOP}, TESTS)
    init(pytester)
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    commit_all(pytester, "sum: record its baseline")
    return pytester


def results(project, name="results.json") -> dict:
    return json.loads((project.path / name).read_text())


def test_a_branch_that_re_recorded_a_regression_passes_alone_and_fails_against_main(repo):
    main = git(repo, "rev-parse", "--short", "main").strip()
    git(repo, "checkout", "-q", "-b", "slow")
    (repo.path / "src" / "st" / "Loop.java").write_text(SLOWER)
    run(repo, "--bytecount-update").assert_outcomes(passed=1)  # the regression, re-recorded on the branch
    commit_all(repo, "sum: a second loop")
    run(repo).assert_outcomes(passed=1)  # against its own baselines the branch passes

    result = run(repo, "--bytecount-compare-ref=main", "--bytecount-json=results.json")
    result.assert_outcomes(failed=1)
    compared = f"compared with the baselines at main: commit {main} (*, 'sum: record its baseline'), read through git"
    result.stdout.fnmatch_lines([f"bytecount: {compared}", "1 regressed", compared])
    (r,) = results(repo).values()
    assert r["status"] == "regressed" and r["message"].startswith("REGRESSED: ")
    # the counts it compared with are main's, not the branch's: sum(100) by hand is 4 to set up, 3 for each of the
    # 101 tests of the loop, 6 for each of its 100 turns and 2 to return, 909
    at_main = json.loads(git(repo, "show", "main:bytecount/test_loop.json"))["tests"]["test_sum"]["methods"]
    assert r["baseline_counts"] == at_main and r["baseline_counts"]["st.Loop#sum(I)I"]["total"] == 909
    assert json.loads((repo.path / "bytecount" / "test_loop.json").read_text())["tests"]["test_sum"]["methods"][
        "st.Loop#sum(I)I"]["total"] == r["counts"]["st.Loop#sum(I)I"]["total"]

    # an update against main writes this checkout's files, never main's
    before = git(repo, "show", "main:bytecount/test_loop.json")
    result = run(repo, "--bytecount-compare-ref=main", "--bytecount-update")
    result.stdout.fnmatch_lines([f"{compared}; the update wrote this checkout's files, never REF's"])
    assert git(repo, "show", "main:bytecount/test_loop.json") == before
    assert git(repo, "status", "--porcelain", "--", "bytecount") == ""  # the branch's file, rewritten as it was


def test_a_test_the_ref_lacks_is_new_and_the_work_tree_is_untouched(repo):
    git(repo, "checkout", "-q", "-b", "more")
    repo.makepyfile(test_more="""
        import pytest

        @pytest.mark.bytecount("st.Loop#sum")
        def test_sum_of_ten(bytecount):
            assert bytecount.jclass("st.Loop").sum(10) == 45
    """)
    run(repo, "--bytecount-update").assert_outcomes(passed=2)
    commit_all(repo, "sum: a second test")
    result = run(repo, "--bytecount-compare-ref=main", "--bytecount-json=results.json")
    statuses = {k: r["status"] for k, r in results(repo).items()}
    assert statuses == {"test_loop.py::test_sum": "passed", "test_more.py::test_sum_of_ten": "new"}, result.stdout
    assert git(repo, "status", "--porcelain", "--", "bytecount") == ""


def test_a_ref_that_names_no_commit_is_a_one_line_usage_error(repo):
    result = run(repo, "--bytecount-compare-ref=no-such-branch")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    (line,) = [x for x in result.stderr.lines if "bytecount" in x]
    assert line == (f"ERROR: bytecount: --bytecount-compare-ref=no-such-branch: 'no-such-branch' does not name a "
                    f"commit in the git repository {repo.path}")
    assert "Traceback" not in result.stderr.str()


def test_a_project_outside_git_is_a_one_line_usage_error(pytester):
    java_project(pytester, {"st/Loop.java": LOOP}, TESTS)
    if subprocess.run(["git", "-C", str(pytester.path), "rev-parse"], capture_output=True).returncode == 0:
        pytest.skip("the test's temporary folder lies inside a git repository")
    result = run(pytester, "--bytecount-compare-ref=main")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    (line,) = [x for x in result.stderr.lines if "bytecount" in x]
    assert line.startswith("ERROR: bytecount: --bytecount-compare-ref=main: ") and "is not in a git repository" in line


def test_the_comment_is_written_only_when_a_verdict_is_not_a_plain_pass(repo):
    comment = repo.path / "out" / "comment.md"
    result = run(repo, f"--bytecount-pr-comment={comment}")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"bytecount: no pull-request comment written to {comment}: every verdict passed"])
    assert not comment.exists()

    (repo.path / "src" / "st" / "Loop.java").write_text(SLOWER)
    result = run(repo, f"--bytecount-pr-comment={comment}", "-n", "2")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"bytecount: pull-request comment {comment}"])
    assert sorted(p.name for p in comment.parent.iterdir()) == ["comment.md"]  # one file, from the controller
    text = comment.read_text()
    lines = text.splitlines()
    head = git(repo, "log", "-1", "--format=%h (%cs, 'sum: record its baseline')").strip()
    assert lines[0] == "<!-- pytest-bytecount comment -->"
    assert lines[1] == "### pytest-bytecount: 1 regressed of 1 counted test"
    (row,) = [x for x in lines if x.startswith("| `test_loop.py::test_sum` |")]
    assert "| regressed | " in row and " → " in row and "| REGRESSED: total " in row
    assert "`pytest test_loop.py::test_sum --bytecount-update`" in row
    assert f"Compared with 1 baseline file as last committed in {head}." in lines
    assert any(x.startswith("Counted on Java 17.") for x in lines), text

    # the fix: the next run passes, and removes the comment it wrote, so that no old comment is posted again
    (repo.path / "src" / "st" / "Loop.java").write_text(LOOP)
    result = run(repo, f"--bytecount-pr-comment={comment}")
    result.stdout.fnmatch_lines([f"bytecount: no pull-request comment: every verdict passed (removed the earlier "
                                 f"{comment})"])
    assert not comment.exists()
    # a file it did not write is never removed
    comment.write_text("notes of my own\n")
    run(repo, f"--bytecount-pr-comment={comment}").assert_outcomes(passed=1)
    assert comment.read_text() == "notes of my own\n"


def test_the_comment_says_when_the_baselines_have_uncommitted_changes(repo):
    (repo.path / "src" / "st" / "Loop.java").write_text(SLOWER)
    run(repo, "--bytecount-update").assert_outcomes(passed=1)  # re-recorded, not committed
    (repo.path / "src" / "st" / "Loop.java").write_text(LOOP)
    comment = repo.path / "comment.md"
    run(repo, f"--bytecount-pr-comment={comment}").assert_outcomes(passed=1)  # improved: passes, and is said
    text = comment.read_text()
    assert "### pytest-bytecount: 1 improved of 1 counted test" in text
    assert ", with uncommitted changes to 1 file." in text
    assert "Review each change" not in text  # nothing fails


def test_a_complexity_regression_leads_the_comment_the_job_summary_and_the_html_card(pytester, tmp_path,
                                                                                       monkeypatch):
    demo = demo_copy(pytester)
    search = demo.path / "src" / "demo" / "Search.java"
    assert "lo = mid + 1;" in search.read_text()
    search.write_text(search.read_text().replace("lo = mid + 1;", "lo = lo + 1;"))  # a binary search gone linear
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    comment = tmp_path / "comment.md"
    result = run(demo, f"--bytecount-pr-comment={comment}", "--bytecount-html=report",
                 "tests/test_search.py::test_index_of_is_logarithmic")
    result.assert_outcomes(failed=1)
    worse = "COMPLEXITY GOT WORSE: log n (exponent *) -> n, exponent *"
    result.stdout.fnmatch_lines(["1 regressed", f"    {worse}"])

    # the comment: its title, then the bold line, then the table whose row repeats it
    lines = comment.read_text().splitlines()
    assert lines[1] == "### pytest-bytecount: 1 regressed of 1 counted test" and lines[2] == ""
    assert lines[3].startswith("**COMPLEXITY GOT WORSE: log n (exponent ") and " -> n, exponent " in lines[3]
    lead = lines[3].strip("*")
    (row,) = [x for x in lines if x.startswith("| `tests/test_search.py::test_index_of_is_logarithmic` |")]
    assert f"| {lead} |" in row
    assert "HTML report: `report" in comment.read_text()

    # the job summary leads with the same line, above its table
    md = summary.read_text().splitlines()
    assert md[0] == "### pytest-bytecount" and md[2] == f"**{lead}**", md[:4]

    # the HTML card, as Chromium renders it
    if find_chromium() is None:
        pytest.skip("no chromium on PATH to render the report (Debian: apt-get install chromium; CI installs it)")
    dom = Dom(dump_dom(demo.path / "report" / "index.html"))
    (section,) = dom.find("section", class_="method")
    leads = dom.find("p", class_="lead", within=section)
    assert leads and leads[0][2].startswith(lead), leads
