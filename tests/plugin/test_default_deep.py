"""Deep counts by default, as a user meets them in a real pytest run on HotSpot 17:

- a project whose baselines were recorded flat (before deep counts were the default) keeps passing on its flat
  figures, the summary names the tests and the command that re-records them with all the work, and after that
  update the deep work decides;
- a marker's pattern that matches two overloads, one calling the other, counts the work once: the inner overload,
  which runs only inside the outer one, is judged as part of it.
"""

from __future__ import annotations

import json

from tests.support.pytest_project import java_project, run
from tests.support.session_reads import summary_of as summary

TEXT = {"app/Text.java": """
package app;

import java.util.*;

public class Text {
    public static int words(String s) {
        List<String> seen = new ArrayList<>();
        for (String w : s.split(" ")) {
            if (!seen.contains(w)) seen.add(w);
        }
        return seen.size();
    }

    public static int words(String s, int from) {
        return 0;
    }
}
"""}

# the same work, moved into the second overload, which the first now calls
DELEGATING = TEXT["app/Text.java"].replace("""    public static int words(String s) {
        List<String> seen""", """    public static int words(String s) {
        return words(s, 0);
    }

    public static int unused(String s) {
        List<String> seen""").replace("""    public static int words(String s, int from) {
        return 0;
    }""", """    public static int words(String s, int from) {
        List<String> seen = new ArrayList<>();
        for (String w : s.split(" ")) {
            if (!seen.contains(w)) seen.add(w);
        }
        return seen.size();
    }""")

TESTS = '''
import pytest

@pytest.mark.bytecount("app.Text#words", tolerance="1%")  # the work, whichever figure decides
def test_words(bytecount):
    assert bytecount.jclass("app.Text").words(" ".join(f"w{i % 40}" for i in range(400))) == 40
'''


def test_baselines_recorded_flat_pass_on_their_flat_figures_until_re_recorded_with_all_the_work(pytester):
    java_project(pytester, TEXT, {"test_text": TESTS})  # flat: deep = false, as before deep counts were the default
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    pyproject = pytester.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("deep = false", ""))  # the default now: deep counts

    judged = run(pytester)
    judged.assert_outcomes(passed=1)
    assert summary(judged)[:4] == [
        "1 passed",
        "compared on flat counts only: the baselines were recorded without deep counts (1):",
        "  test_text.py::test_words",
        "  to re-record them with all the work: pytest test_text.py::test_words --bytecount-update"]

    run(pytester, "test_text.py::test_words", "--bytecount-update").assert_outcomes(passed=1)
    stored = json.loads((pytester.path / "bytecount" / "test_text.json").read_text())["tests"]["test_words"]
    assert stored["methods"]["app.Text#words(Ljava/lang/String;)I"]["deep"]["total"] > 40 * 400  # the scan's equals
    assert "deep_runtime" in stored
    again = run(pytester)
    again.assert_outcomes(passed=1)
    assert summary(again) == ["1 passed"]


def test_an_overload_that_runs_only_inside_the_other_is_judged_as_part_of_it(pytester):
    java_project(pytester, TEXT, {"test_text": TESTS}, pinned=False)
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    (pytester.path / "src" / "app" / "Text.java").write_text(DELEGATING)
    result = run(pytester, "--bytecount-json=results.json")
    (entry,) = json.loads((pytester.path / "results.json").read_text()).values()
    counts = entry["counts"]
    outer, inner = "app.Text#words(Ljava/lang/String;)I", "app.Text#words(Ljava/lang/String;I)I"
    # the work moved into the inner overload: it is all inside the outer one's deep work, where it counts once
    # (the outer's deep work rose by the call itself, a few instructions: within the marker's 1%)
    assert counts[outer]["deep"]["methods"][inner] == counts[inner]["total"] > 0
    assert entry["status"] in ("passed", "reshaped"), entry["message"]
    result.assert_outcomes(passed=1)
    assert "deep 0 ->" not in result.stdout.str()


def test_the_counted_classes_of_a_deep_session_are_kept_and_the_next_session_reuses_them(pytester):
    """Deep counts by default must not count every marked class again in every session: a class's cache entry is
    keyed by the method numbers its deep code carries, which the same tests hand out in the same order."""
    java_project(pytester, TEXT, {"test_text": TESTS, "test_more": TESTS.replace("test_words", "test_more")},
                 pinned=False)
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    counted = pytester.path / ".bytecount-cache" / "counted"
    entries = sorted(p.name for p in counted.iterdir() if p.name.endswith(".class-entry"))
    assert entries, "no counted class was kept"
    first = run(pytester, "--bytecount-json=one.json")
    first.assert_outcomes(passed=2)
    again = run(pytester, "--bytecount-json=two.json")
    again.assert_outcomes(passed=2)
    assert sorted(p.name for p in counted.iterdir() if p.name.endswith(".class-entry")) == entries  # reused
    one, two = (json.loads((pytester.path / f).read_text()) for f in ("one.json", "two.json"))
    assert {n: r["counts"] for n, r in one.items()} == {n: r["counts"] for n, r in two.items()}


NESTED = {"app/Walk.java": """
package app;

public class Walk {
    static class Cursor {
        int at;
        boolean step() { return ++at < 100; }
    }

    public static int run() {
        Cursor c = new Cursor();
        int n = 0;
        while (c.step()) n++;
        return n;
    }
}
"""}

NESTED_TESTS = '''
import pytest

@pytest.mark.bytecount("app.Walk#run")
def test_walk(bytecount):
    assert bytecount.jclass("app.Walk").run() == 99

@pytest.mark.bytecount("app.Walk#run", deep=False)
def test_walk_flat(bytecount):
    assert bytecount.jclass("app.Walk").run() == 99
'''


def test_no_nested_class_hint_where_deep_counts_hold_the_nested_classs_work(pytester, tmp_path):
    """The hint that a class pattern leaves out a nested class that ran is about flat counts; under deep counts the
    nested class's run is in the target's deep work, and the hint would send the user after nothing."""
    java_project(pytester, NESTED, {"test_walk": NESTED_TESTS}, pinned=False)
    result = run(pytester, "--bytecount-update", f"--bytecount-json={tmp_path / 'r.json'}", "-p", "no:randomly")
    assert result.ret == 0, result.stdout.str()
    got = {n.split("::")[1]: r for n, r in json.loads((tmp_path / "r.json").read_text()).items()}
    deep = got["test_walk"]["counts"]["app.Walk#run()I"]["deep"]["methods"]
    assert deep["app.Walk$Cursor#step()Z"] > 0
    assert not got["test_walk"].get("hints")
    assert got["test_walk_flat"]["hints"] == [
        "hint: app.Walk#run leaves out 1 nested class that this test loaded (Walk$Cursor); the target app.Walk.** "
        "(beside app.Walk#run) counts app.Walk with its nested classes"]
