"""Calling-context trees in pytest: recorded beside the baseline with ``--bytecount-update`` (a file of their own,
the same bytes for the same run), shown as call paths when the deep work changes, summing to the deep figures the
verdict uses, and removed with the entries and files that go stale."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from pytest_bytecount.counting.counts.calltree import CallTree
from tests.support.pytest_project import java_project, run

DEDUP = """
package app;

import java.util.*;

public class Orders {
    public static int distinct(int n) {
        Set<Integer> seen = new HashSet<>();
        int count = 0;
        for (int i = 0; i < n; i++) {
            Integer id = (i * 31) % 1000;
            if (!seen.contains(id)) {
                seen.add(id);
                count++;
            }
        }
        return count;
    }
}
"""
# the regression: the set became a list, whose contains walks it
SLOW = DEDUP.replace("Set<Integer> seen = new HashSet<>();", "List<Integer> seen = new ArrayList<>();")

TEST = '''
import pytest

@pytest.mark.bytecount("app.Orders#distinct")
def test_distinct(bytecount):
    assert bytecount.jclass("app.Orders").distinct(3000) == 1000
'''

TARGET = "app.Orders#distinct(I)I"


def _kept(pytester) -> dict:
    return json.loads(gzip.decompress((pytester.path / "bytecount" / "test_orders.trees.json.gz").read_bytes()))


def _paths(out: str) -> list:
    lines = out.split("short test summary info")[0].splitlines()
    start = next(i for i, ln in enumerate(lines) if "where the work" in ln and "(call paths" in ln)
    paths = []
    for ln in lines[start + 1:]:
        if not ln.startswith("      "):
            break
        paths.append(ln.strip())
    return paths


def test_the_tree_is_kept_beside_the_baseline_and_sums_to_the_deep_figures(pytester):
    java_project(pytester, {"app/Orders.java": DEDUP}, {"test_orders": TEST}, pinned=False)
    assert run(pytester, "--bytecount-update", "--bytecount-json=results.json").ret == 0
    kept_file = pytester.path / "bytecount" / "test_orders.trees.json.gz"
    first = kept_file.read_bytes()
    counts = json.loads((pytester.path / "bytecount" / "test_orders.json").read_text())
    assert "tree" not in json.dumps(counts), "the reviewable counts file holds no tree"
    tree = CallTree.from_dict(_kept(pytester)["tests"]["test_distinct"][TARGET])
    deep = counts["tests"]["test_distinct"]["methods"][TARGET]["deep"]
    assert tree.total() == deep["total"] and tree.copied() == deep["copied"]
    # the target is the root's one child, and the set's methods are called from it
    assert {p[0] for p in tree.nodes if p} == {TARGET}
    contains = [p for p in tree.nodes if p and p[-1] == "java.util.HashSet#contains(Ljava/lang/Object;)Z"]
    assert contains == [(TARGET, "java.util.HashSet#contains(Ljava/lang/Object;)Z")]
    assert tree.nodes[contains[0]][1] == 3000  # invoked once per element
    results = json.loads((pytester.path / "results.json").read_text())
    assert CallTree.from_dict(results["test_orders.py::test_distinct"]["trees"][TARGET]) == tree
    # the same run again: the same bytes
    assert run(pytester, "--bytecount-update").ret == 0
    assert kept_file.read_bytes() == first


def test_a_regression_names_the_path_to_the_culprit_and_a_fix_the_path_that_vanished(pytester):
    java_project(pytester, {"app/Orders.java": DEDUP}, {"test_orders": TEST}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    (pytester.path / "src" / "app" / "Orders.java").write_text(SLOW)
    failed = run(pytester)
    out = failed.stdout.str()
    assert failed.ret == 1 and "REGRESSED: deep" in out, out
    paths = _paths(out)
    # the first path leads from the target through the list's contains to the loop that walks it
    assert paths[0].startswith("Orders.distinct -> ArrayList.contains -> "), paths
    assert "ArrayList.indexOfRange" in paths[0] and paths[0].split()[-1].startswith("+"), paths
    # the line that changed most is the one whose call changed, with the work under that call: the tree's figures
    lines = out.split("short test summary info")[0].splitlines()
    top = lines[lines.index("    lines that changed most:") + 1]
    assert top.strip().startswith("Orders.java:") and top.endswith("| if (!seen.contains(id)) {"), top
    json_run = run(pytester, "--bytecount-json=results.json")
    assert json_run.ret == 1
    result = json.loads((pytester.path / "results.json").read_text())["test_orders.py::test_distinct"]
    now_total, before_total = (CallTree.from_dict(result[k][TARGET]).totals() for k in ("trees", "baseline_trees"))
    under = (before_total[(TARGET, "java.util.HashSet#contains(Ljava/lang/Object;)Z")],
             now_total[(TARGET, "java.util.ArrayList#contains(Ljava/lang/Object;)Z")])
    assert f"under its calls {under[0]:,} -> {under[1]:,} ({under[1] - under[0]:+,})" in top, top
    # the fix (recorded slow, then back to the set): the walk's path is what vanished
    assert run(pytester, "--bytecount-update").ret == 0
    (pytester.path / "src" / "app" / "Orders.java").write_text(DEDUP)
    improved = run(pytester, "-rP")  # a passing test's bytecount section holds the verdict's text
    text = improved.stdout.str()
    assert improved.ret == 0 and "improved" in text, text
    paths = _paths(text)
    assert paths[0].startswith("Orders.distinct -> ArrayList.contains -> ") and paths[0].split()[-1].startswith("-"), \
        paths


def test_stale_entries_and_files_take_their_trees_with_them(pytester):
    two = TEST + '''

@pytest.mark.bytecount("app.Orders#distinct")
def test_small(bytecount):
    assert bytecount.jclass("app.Orders").distinct(10) == 10
'''
    java_project(pytester, {"app/Orders.java": DEDUP}, {"test_orders": two}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    assert sorted(_kept(pytester)["tests"]) == ["test_distinct", "test_small"]
    pytester.makepyfile(test_orders=TEST)
    assert run(pytester, "--bytecount-update").ret == 0
    assert sorted(_kept(pytester)["tests"]) == ["test_distinct"]
    (pytester.path / "test_orders.py").unlink()
    pytester.makepyfile(test_other="def test_plain():\n    pass\n")
    assert run(pytester, "--bytecount-update").ret == 0
    assert not (pytester.path / "bytecount").exists()


def _read_collapsed(text: str) -> dict:
    """Collapsed stacks read as flame-graph tools read them: the count after the last space, frames split on ';'."""
    out: dict = {}
    for line in text.splitlines():
        stack, _, n = line.rpartition(" ")
        out[tuple(stack.split(";"))] = out.get(tuple(stack.split(";")), 0) + int(n)
    return out


def test_profiles_of_this_run_and_of_the_baseline_sum_to_their_deep_totals(pytester):
    from tests.regression.test_pprof import decode, stacks

    java_project(pytester, {"app/Orders.java": DEDUP}, {"test_orders": TEST}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    before = json.loads((pytester.path / "bytecount" / "test_orders.json").read_text())
    (pytester.path / "src" / "app" / "Orders.java").write_text(SLOW)
    failed = run(pytester, "--bytecount-profiles=profiles", "--bytecount-json=results.json")
    assert failed.ret == 1
    assert "bytecount: wrote 4 profile files (collapsed stacks, pprof) to profiles" in failed.stdout.str()
    now = json.loads((pytester.path / "results.json").read_text())["test_orders.py::test_distinct"]["counts"]
    folder = pytester.path / "profiles"
    for side, deep in (("", now[TARGET]["deep"]),
                       (".baseline", before["tests"]["test_distinct"]["methods"][TARGET]["deep"])):
        stem = folder / f"test_orders.py__test_distinct{side}"
        collapsed = _read_collapsed(Path(f"{stem}.collapsed").read_text())
        assert sum(collapsed.values()) == deep["total"]
        assert all(s[0] == TARGET.replace(";", ",") for s in collapsed)
        profile = decode(Path(f"{stem}.pb.gz").read_bytes())
        assert sum(s.value[0] for s in profile.sample) == deep["total"]
        assert sum(s.value[2] for s in profile.sample) == deep["copied"]
        assert {frames[0] for frames, _, _ in stacks(profile)} == {TARGET}
    # the run's profile holds the list's walk, the baseline's does not
    walk = "java.util.ArrayList#indexOfRange(Ljava/lang/Object;II)I".replace(";", ",")
    assert any(walk in s for s in _read_collapsed((folder / "test_orders.py__test_distinct.collapsed").read_text()))
    assert not any(walk in s for s in
                   _read_collapsed((folder / "test_orders.py__test_distinct.baseline.collapsed").read_text()))


def test_the_differential_flame_graphs_of_a_regression_and_of_its_fix_in_a_browser(pytester, tmp_path):
    import pytest

    from tests.support.chromium import Dom, dump_dom, find_chromium, read_png, screenshot

    if find_chromium() is None:
        pytest.skip("no chromium on PATH to render the report (Debian: apt-get install chromium; CI installs it)")
    walk = "java.util.ArrayList#indexOfRange(Ljava/lang/Object;II)I"
    java_project(pytester, {"app/Orders.java": DEDUP}, {"test_orders": TEST}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    pictures = {}
    for name, source in (("regression", SLOW), ("fix", DEDUP)):
        (pytester.path / "src" / "app" / "Orders.java").write_text(source)
        run(pytester, f"--bytecount-html={name}")
        page = pytester.path / name / "index.html"
        dom = Dom(dump_dom(page))
        assert not dom.find("script")
        pictures[name] = {kind: [t for _, _, t in dom.find("g", class_=kind)]
                          for kind in ("new", "vanished", "grew", "shrank", "same")}
        pictures[name]["png"] = read_png(screenshot(page, tmp_path / f"{name}.png", height=1600))
        if name == "regression":  # the regression is recorded: the fix is judged against it
            assert run(pytester, "--bytecount-update").ret == 0
    new, vanished = pictures["regression"]["new"], pictures["fix"]["vanished"]
    # the regression's new path runs through ArrayList.contains into the walk; the fix shows that path vanished
    assert any(f"{TARGET} -> java.util.ArrayList#contains(Ljava/lang/Object;)Z" in t and walk in t for t in new), new
    assert any(walk in t and "(vanished)" in t for t in vanished), vanished
    assert any("java.util.HashSet#contains" in t for t in pictures["regression"]["vanished"])
    assert any("java.util.HashSet#contains" in t for t in pictures["fix"]["new"])
    # drawn: the new frames' red and the vanished frames' pale blue fill whole runs of pixels
    for name, colour in (("regression", "#d63e30"), ("fix", "#a4bee7")):
        from tests.support.chromium import longest_run

        assert longest_run(pictures[name]["png"][2], colour) > 100, name


def _command(pytester, *args):
    import sys

    return pytester.run(sys.executable, "-m", "pytest_bytecount", *args)


def test_the_flamegraph_and_tree_commands_draw_results_and_baselines_with_no_jvm(pytester):
    import shutil

    java_project(pytester, {"app/Orders.java": DEDUP}, {"test_orders": TEST}, pinned=False)
    assert run(pytester, "--bytecount-update").ret == 0
    shutil.copytree(pytester.path / "bytecount", pytester.path / "main-baselines")  # the baselines as main has them
    (pytester.path / "src" / "app" / "Orders.java").write_text(SLOW)
    assert run(pytester, "--bytecount-json=results.json").ret == 1
    result = json.loads((pytester.path / "results.json").read_text())["test_orders.py::test_distinct"]
    b, n = result["baseline_counts"][TARGET]["deep"]["total"], result["counts"][TARGET]["deep"]["total"]

    tree = _command(pytester, "tree", "results.json")
    lines = tree.stdout.lines
    assert tree.ret == 0 and lines[0] == f"test_orders.py::test_distinct {TARGET}: {b:,} -> {n:,} instructions " \
                                         f"({n - b:+,}, {(n - b) / b * 100:+.1f}%)", lines
    assert lines[1] == "  where the work went (call paths, most growth first):"
    assert lines[2].strip().startswith("Orders.distinct -> ArrayList.contains -> ArrayList.indexOf"), lines
    assert "(other)" not in "\n".join(lines[2:7]) and lines[2].split()[-1].startswith("+")

    page = _command(pytester, "flamegraph", "results.json", "--profiles", "exported")
    assert page.ret == 0, page.stderr.str()
    assert "bytecount: 1 flame graph (1 differential) of 1 test: bytecount-flamegraph.html" in page.stderr.str()
    svg = (pytester.path / "bytecount-flamegraph.html").read_text()
    assert "<script" not in svg
    assert "java.util.ArrayList#indexOf(Ljava/lang/Object;)I (new)" in svg
    assert "java.util.HashSet#contains(Ljava/lang/Object;)Z (vanished)" in svg
    assert sorted(p.name for p in (pytester.path / "exported").iterdir()) == [
        "test_orders.py__test_distinct.baseline.collapsed", "test_orders.py__test_distinct.baseline.pb.gz",
        "test_orders.py__test_distinct.collapsed", "test_orders.py__test_distinct.pb.gz"]

    # the slow code recorded on a branch, compared with main's baselines: the same growth, read from the files alone
    assert run(pytester, "--bytecount-update").ret == 0
    branch = _command(pytester, "tree", "bytecount", "--against", "main-baselines", "--test", "test_distinct")
    assert branch.ret == 0 and branch.stdout.lines[0] == (f"bytecount/test_orders.json::test_distinct {TARGET}: "
                                                          f"{b:,} -> {n:,} instructions ({n - b:+,}, "
                                                          f"{(n - b) / b * 100:+.1f}%)"), branch.stdout.lines
    assert branch.stdout.lines[2] == lines[2]
    # one run's trees alone: a plain tree, rows summing to the whole
    alone = _command(pytester, "tree", "main-baselines/test_orders.json", "--share", "0")
    rows = alone.stdout.lines
    assert alone.ret == 0 and rows[0].startswith(f"main-baselines/test_orders.json::test_distinct {TARGET}: {b:,} "
                                                 f"instructions in "), rows
    assert rows[2].split() == [f"{b:,}", *rows[2].split()[1:3], "Orders.distinct"]  # the target's total heads it
    own = sum(int(r.split()[1].replace(",", "")) for r in rows[2:] if r.strip() and len(r.split()) == 4)
    assert own == b  # with no share cut, every node has a row, and their own instructions sum to the whole
    missing = _command(pytester, "flamegraph", "nothing.json")
    assert missing.ret == 2 and missing.stderr.lines == ["bytecount: error: nothing.json: no such file or folder"]


CALLER = """
package app;

import java.util.*;

public class Orders {
    public static int distinct(int n) {
        Set<Integer> seen = new HashSet<>();
        int count = 0;
        for (int i = 0; i < n; i++) {
            Integer id = Ids.normalize(i);
            if (!seen.contains(id)) {
                seen.add(id);
                count++;
            }
        }
        return count;
    }
}
"""
IDS = """
package app;

public class Ids {
    static Integer normalize(int i) {
        return (i * 31) % 1000;
    }

    static int unused(int i) {
        return i + 1;
    }
}
"""
# the callee's own work grows; the caller's bytecode stays the same
IDS_SLOW = IDS.replace("return (i * 31) % 1000;", "int x = 0;\n        for (int k = 0; k < 50; k++) x += k;\n"
                                                  "        return (i * 31 + x - x) % 1000;")
# a method the test never runs changes
IDS_OTHER = IDS.replace("return i + 1;", "return i + 2;")
CALLER_TESTS = '''
import pytest
from pathlib import Path

def n():
    return int((Path(__file__).parent / "n.txt").read_text())

@pytest.mark.bytecount("app.Orders#distinct")
def test_deep(bytecount):
    bytecount.jclass("app.Orders").distinct(n())

@pytest.mark.bytecount("app.Orders#distinct", inclusive=True, deep=False)
def test_inclusive(bytecount):
    bytecount.jclass("app.Orders").distinct(n())
'''


def test_a_failure_of_unchanged_bytecode_names_the_callee_whose_code_changed(pytester):
    java_project(pytester, {"app/Orders.java": CALLER, "app/Ids.java": IDS}, {"test_orders": CALLER_TESTS}, pinned=False)
    (pytester.path / "n.txt").write_text("2000")
    assert run(pytester, "--bytecount-update").ret == 0
    kept = _kept(pytester)["code"]
    assert sorted(kept) == ["test_deep", "test_inclusive"]
    # the one application method the work ran through; the JDK's methods and the target's own are not kept
    assert [list(kept[k]) for k in sorted(kept)] == [["app.Ids#normalize(I)Ljava/lang/Integer;"]] * 2

    def verdicts(out: str) -> dict:
        text = out.split("short test summary info")[0]
        return {name: next((ln.strip() for ln in text.split(f"_ {name} _", 1)[1].splitlines()
                            if ln.strip().startswith("same bytecode")), None) for name in ("test_deep", "test_inclusive")}

    # other inputs, and a change to a method the test never runs: nothing of the work's code changed
    (pytester.path / "n.txt").write_text("3000")
    (pytester.path / "src" / "app" / "Ids.java").write_text(IDS_OTHER)
    moved = run(pytester)
    assert moved.ret == 1
    assert set(verdicts(moved.stdout.str()).values()) == {
        "same bytecode as the baseline, and so has every application method its work ran through: the code took "
        "another path (its inputs, the class library or what ran before it changed)"}, moved.stdout.str()
    # the same inputs, and the callee's code changed: the failure names it, in deep and in inclusive counts
    (pytester.path / "n.txt").write_text("2000")
    (pytester.path / "src" / "app" / "Ids.java").write_text(IDS_SLOW)
    slower = run(pytester, "--bytecount-json=results.json")
    assert slower.ret == 1
    assert set(verdicts(slower.stdout.str()).values()) == {
        "same bytecode as the baseline, but the code of its callee app.Ids#normalize(I)Ljava/lang/Integer; changed "
        "since the baseline"}, slower.stdout.str()
    results = json.loads((pytester.path / "results.json").read_text())
    assert results["test_orders.py::test_deep"]["callees_changed"] == {
        "app.Orders#distinct(I)I": ["app.Ids#normalize(I)Ljava/lang/Integer;"]}
    # a test removed from its module takes its kept fingerprints with it
    pytester.makepyfile(test_orders=CALLER_TESTS.split("@pytest.mark.bytecount(\"app.Orders#distinct\", inclusive")[0])
    assert run(pytester, "--bytecount-update").ret == 0
    assert sorted(_kept(pytester)["code"]) == ["test_deep"]
