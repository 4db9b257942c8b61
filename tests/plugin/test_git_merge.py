"""Baselines that survive merges, and history from git, on real git repositories: branches that re-record different
tests merge with git's own merge; branches that re-record the same test merge with the plugin's merge driver, or leave
git's conflict markers, and either way that test asks to be re-recorded (``--bytecount-update=conflicted``) while
every other test is judged as before; ``history`` names the commit where a test's figure changed."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

from tests.support.chromium import Dom
from tests.support.git_repo import commit_all, git, git_env, init  # noqa: F401 - git_env is a fixture
from tests.support.pytest_project import java_project, run

# two loops, each the target of its own test; SUM's first and last lines are three lines apart, so that two branches
# can change the one and the other without a conflict in the source
LOOPS = """
package st;

public class Loops {
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    public static int prod(int n) {
        int p = 1;
        for (int i = 1; i <= n; i++) {
            p *= 2;
        }
        return p;
    }
}
"""
SUM_SETUP = ("int s = 0;", "int s = 0 + n - n;")  # 4 more instructions, once
SUM_RETURN = ("return s;", "return s + 0 * n;")  # 4 more, once
PROD_LOOP = ("p *= 2;", "p *= 2; p ^= 0;")  # 4 more a turn (p += 0 would be one iinc)

TESTS = {"test_loops": """
import pytest

@pytest.mark.bytecount("st.Loops#sum")
def test_sum(bytecount):
    assert bytecount.jclass("st.Loops").sum(100) == 4950

@pytest.mark.bytecount("st.Loops#prod")
def test_prod(bytecount):
    assert bytecount.jclass("st.Loops").prod(10) == 1024
"""}

BASELINE = "bytecount/test_loops.json"


def change(project, edit) -> None:
    path = project.path / "src" / "st" / "Loops.java"
    old, new = edit
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))


def entry(project, key: str, rev: str = None) -> dict:
    text = git(project, "show", f"{rev}:{BASELINE}") if rev else (project.path / BASELINE).read_text()
    return json.loads(text)["tests"][key]


def total(e: dict, method: str) -> int:
    return e["methods"][method]["total"]


SUM, PROD = "st.Loops#sum(I)I", "st.Loops#prod(I)I"


@pytest.fixture
def repo(pytester, git_env):
    java_project(pytester, {"st/Loops.java": LOOPS}, TESTS)
    init(pytester)
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    commit_all(pytester, "loops: record their baselines")
    return pytester


def branch(project, name: str, edit, start: str = "main") -> None:
    git(project, "checkout", "-q", "-b", name, start)
    change(project, edit)
    run(project, "--bytecount-update").assert_outcomes(passed=2)
    commit_all(project, f"{name}: {edit[1]}")


def use_driver(project) -> None:
    """The .gitattributes line and the git config line docs/ci.md gives, with this Python."""
    (project.path / ".gitattributes").write_text("bytecount/*.json merge=bytecount\n"
                                                 "bytecount/*.trees.json.gz merge=bytecount\n")
    git(project, "config", "merge.bytecount.name", "pytest-bytecount baselines")
    git(project, "config", "merge.bytecount.driver",
        f"{shlex.quote(sys.executable)} -m pytest_bytecount merge-driver %O %A %B %P")


def test_branches_that_re_record_different_tests_merge_with_gits_own_merge(repo):
    branch(repo, "sum", SUM_SETUP)
    branch(repo, "prod", PROD_LOOP)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "sum")
    out = git(repo, "merge", "--no-edit", "prod")  # no driver configured: git's own line merge
    assert "CONFLICT" not in out
    assert entry(repo, "test_sum") == entry(repo, "test_sum", "sum")
    assert entry(repo, "test_prod") == entry(repo, "test_prod", "prod")
    run(repo).assert_outcomes(passed=2)  # the merged code matches the merged baselines


def test_the_driver_merges_the_same_test_and_marks_it_to_be_re_recorded(repo, tmp_path):
    use_driver(repo)
    commit_all(repo, "baselines: merge with pytest-bytecount's driver")
    branch(repo, "setup", SUM_SETUP)
    branch(repo, "ret", SUM_RETURN, start="main")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "setup")
    done = subprocess.run(["git", "merge", "--no-edit", "ret"], cwd=repo.path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr  # merged: no conflict left
    assert ("bytecount merge-driver: bytecount/test_loops.json: 1 entry changed on both branches, marked conflicted: "
            "test_sum. The merge is done; re-record them with: pytest --bytecount-update=conflicted") in done.stderr
    data = json.loads((repo.path / BASELINE).read_text())  # a valid file
    assert data["tests"]["test_prod"] == entry(repo, "test_prod", "main~1")  # every other entry kept
    assert data["tests"]["test_sum"]["conflicted"] == "changed on both sides of a git merge"
    assert "<<<<<<<" not in (repo.path / "src/st/Loops.java").read_text()

    result = run(repo, "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=1)
    results = json.loads((repo.path / "results.json").read_text())
    assert results["test_loops.py::test_prod"]["status"] == "passed"
    bad = results["test_loops.py::test_sum"]
    assert bad["status"] == "error"
    assert "the entry of 'test_sum' was changed on both sides of a git merge" in bad["message"]
    assert "every conflicted entry with: pytest --bytecount-update=conflicted" in bad["message"]
    assert "Re-record it with: pytest test_loops.py::test_sum --bytecount-update" in bad["message"]

    # exactly the conflicted entry is re-recorded: prod's code changes meanwhile, and its entry is left as it was
    change(repo, PROD_LOOP)
    result = run(repo, "--bytecount-update=conflicted", "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=1)  # prod regressed: compared, never recorded
    statuses = {k: r["status"] for k, r in json.loads((repo.path / "results.json").read_text()).items()}
    assert statuses == {"test_loops.py::test_sum": "recorded", "test_loops.py::test_prod": "regressed"}
    data = json.loads((repo.path / BASELINE).read_text())
    assert "conflicted" not in data["tests"]["test_sum"]
    # by hand: 909 for sum(100) (test_git_ci), 4 more to set up (iload_0, iadd, iload_0, isub) and 4 more to return
    # (iconst_0, iload_0, imul, iadd)
    assert total(data["tests"]["test_sum"], SUM) == 909 + 4 + 4
    assert data["tests"]["test_prod"] == entry(repo, "test_prod", "main~1")
    change(repo, PROD_LOOP[::-1])
    run(repo).assert_outcomes(passed=2)


def test_a_file_left_with_conflict_markers_asks_for_the_conflicted_entries_only(repo):
    branch(repo, "setup", SUM_SETUP)
    branch(repo, "ret", SUM_RETURN, start="main")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "setup")
    out = git(repo, "merge", "--no-edit", "ret", ok=False)  # no driver: git leaves markers in the baseline file
    assert f"CONFLICT (content): Merge conflict in {BASELINE}" in out
    text = (repo.path / BASELINE).read_text()
    assert "<<<<<<< HEAD" in text and ">>>>>>> ret" in text

    result = run(repo, "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=1)
    results = json.loads((repo.path / "results.json").read_text())
    assert results["test_loops.py::test_prod"]["status"] == "passed"  # both sides agree on it
    message = results["test_loops.py::test_sum"]["message"]
    assert "not valid JSON" not in message
    assert "git left its conflict markers in the file (no merge driver ran)" in message
    assert "pytest --bytecount-update=conflicted" in message

    run(repo, "--bytecount-update=conflicted").assert_outcomes(passed=2)
    data = json.loads((repo.path / BASELINE).read_text())  # valid JSON again, no markers
    assert total(data["tests"]["test_sum"], SUM) == 909 + 8 and "conflicted" not in data["tests"]["test_sum"]
    assert data["tests"]["test_prod"] == entry(repo, "test_prod", "main")
    git(repo, "add", BASELINE)
    git(repo, "commit", "-q", "--no-edit")
    run(repo).assert_outcomes(passed=2)


def test_history_names_the_commit_where_a_figure_changed(repo, tmp_path):
    first = git(repo, "rev-parse", "--short", "HEAD").strip()
    change(repo, PROD_LOOP)
    run(repo, "--bytecount-update").assert_outcomes(passed=2)
    slower = commit_all(repo, "prod: one more xor a turn")
    (repo.path / "notes.txt").write_text("unrelated\n")
    commit_all(repo, "notes")

    done = subprocess.run([sys.executable, "-m", "pytest_bytecount", "history", "--html", str(tmp_path / "h.html")],
                          cwd=repo.path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == BASELINE
    i = lines.index(f"  test_prod  {PROD}")
    prod = lines[i + 1:i + 3]
    # prod(10) by hand: 4 to set up, 3 for each of the 11 tests of the loop, 6 a turn (iload_1, iconst_2, imul, istore_1,
    # iinc, goto), 2 to return: 4 + 33 + 60 + 2 = 99; then 4 more a turn (iload_1, iconst_0, ixor, istore_1): 139
    assert prod[0].split()[:4] == [first, prod[0].split()[1], "total", "99"]
    assert prod[1].split()[:5] == [slower, prod[1].split()[1], "total", "139", "+40,"]
    assert prod[1].endswith("prod: one more xor a turn")
    assert len([x for x in lines if x.startswith("    ")]) == 3  # sum's one step, prod's two: "notes" changed nothing
    page = Dom((tmp_path / "h.html").read_text())
    (section,) = [a for _, a, _ in page.find("section", class_="series") if a["data-test"] == "test_prod"]
    circles = [(a["data-commit"], int(a["data-value"])) for _, a, _ in page.find("circle", class_="step")]
    assert (slower, 139) in circles and (first, 99) in circles
    assert not page.find("script")


def test_history_of_what_git_does_not_hold_is_a_one_line_error(repo, tmp_path):
    def history(*args, cwd=repo.path):
        return subprocess.run([sys.executable, "-m", "pytest_bytecount", "history", *args], cwd=cwd,
                              capture_output=True, text=True)

    done = history("no/such/file.json")
    assert done.returncode == 2 and done.stderr == "bytecount: error: no/such/file.json: no such file or folder\n"
    (repo.path / "docs").mkdir()
    done = history("docs")
    assert done.returncode == 2 and done.stderr.startswith("bytecount: error: no baseline files tracked by git under docs")
    if subprocess.run(["git", "-C", str(tmp_path), "rev-parse"], capture_output=True).returncode != 0:
        done = history(".", cwd=tmp_path)
        assert done.returncode == 2 and done.stderr == "bytecount: error: . is not in a git repository\n"
    done = history("--test", "test_nothing")
    assert done.returncode == 2 and "no test 'test_nothing' in the history of 1 baseline file" in done.stderr
