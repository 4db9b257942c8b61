"""Classpaths as Maven and Gradle projects write them: globs and Java's ``dir/*``, several entries in one
string, a classpath file from the build tool, ``$BYTECOUNT_CLASSPATH``, the build tool's class folder found
by itself, javac options and a compile-only classpath for ``sources``, and a cache folder that ignores itself.

The project under test is a small shop whose ``Inventory.label(name, n)`` calls commons-lang3's
``StringUtils.capitalize`` once per loop turn: ``label("ab", 3)`` makes exactly 3 such calls, whatever the
classpath's spelling, so every form that works records the same 3 calls.

The classpath is a setting of the whole session, so each spelling keeps a child pytest of its own; a child
pytest costs a JVM start, so the stories that need the same settings share one child project instead (each
story a test module of its own, each test reading its own outcome and files): Java's wildcard and the cache
folder (``wildcard``), and the two ``sources`` settings, whose steps share the project's runs (``compiled``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_bytecount.plugin.config import classpath_entries, load_settings
from tests.support.pytest_project import JDK17, PINNED_FLAT, run
from tests.support.settings import option
from tests.support.shared_run import run_session

COMMONS_LANG3 = Path("/usr/share/java/commons-lang3.jar")  # Debian's libcommons-lang3-java
CAPITALIZE = "org/apache/commons/lang3/StringUtils.capitalize(Ljava/lang/String;)Ljava/lang/String;"
LABEL = "shop.Inventory#label(Ljava/lang/String;I)Ljava/lang/String;"

INVENTORY = """\
package shop;

import org.apache.commons.lang3.StringUtils;

public class Inventory {
    public static String label(String name, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(StringUtils.capitalize(name));
        return sb.toString();
    }
}
"""

TEST = """\
import pytest

@pytest.mark.bytecount("shop.Inventory#label")
def test_label(bytecount):
    assert str(bytecount.jclass("shop.Inventory").label("ab", 3)) == "AbAbAb"
"""

pytestmark = pytest.mark.skipif(not COMMONS_LANG3.is_file(), reason="needs Debian's libcommons-lang3-java")


def shop(root: Path, classes: str = "target/classes", jar_dir: str = "lib") -> Path:
    """The shop compiled by JDK 17's javac into ``classes``, commons-lang3 copied into ``jar_dir``, and its
    test module test_shop.py."""
    (root / jar_dir).mkdir(parents=True)
    jar = root / jar_dir / "commons-lang3-3.12.0.jar"
    shutil.copyfile(COMMONS_LANG3, jar)
    source = root / "src/main/java/shop/Inventory.java"
    source.parent.mkdir(parents=True)
    source.write_text(INVENTORY)
    subprocess.run([f"{JDK17}/bin/javac", "-d", str(root / classes), "-cp", str(jar), str(source)], check=True)
    (root / "test_shop.py").write_text(TEST)
    return jar


def settings(root: Path, text: str) -> None:
    (root / "pyproject.toml").write_text(f'[tool.bytecount]\njava-home = "{JDK17}"\n{PINNED_FLAT}\n{text}')


def recorded_calls(root: Path) -> dict:
    baseline = json.loads((root / "bytecount" / "test_shop.json").read_text())
    return baseline["tests"]["test_label"]["methods"][LABEL]["calls"]


def assert_counts_with_the_library(result, root: Path) -> None:
    result.assert_outcomes(passed=1)
    assert recorded_calls(root)[CAPITALIZE] == 3


FORMS = [
    '["target/classes", "lib/*.jar"]',          # a glob
    '["target/classes", "lib/*"]',              # Java's wildcard: every jar in lib/
    '["target/classes", "lib/**/*.jar"]',       # a glob across folders
    f'"target/classes{os.pathsep}lib/*"',       # one string, entries separated as in java -cp
]


@pytest.mark.parametrize("classpath", FORMS)
def test_classpath_entries_as_java_users_write_them_name_the_same_folders_and_jars(tmp_path, classpath):
    root = tmp_path / "shop"
    jar_dir = root / ("lib/deps" if "**" in classpath else "lib")
    jar_dir.mkdir(parents=True)
    (jar_dir / "commons-lang3-3.12.0.jar").write_bytes(COMMONS_LANG3.read_bytes())
    (root / "target" / "classes").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f"[tool.bytecount]\nclasspath = {classpath}\n")
    entries = classpath_entries(load_settings(root, option()))
    assert entries == [root / "target" / "classes", jar_dir / "commons-lang3-3.12.0.jar"]


@pytest.fixture(scope="module")
def wildcard(tmp_path_factory):
    """The shop with Java's wildcard in its classpath (``["target/classes", "lib/*"]``), recorded once: its
    test_shop.py (the wildcard story) and test_cache.py, which counts the same method (the cache story), with
    the cache folder holding, before the run, entries of kinds and ages the run must drop."""
    root = tmp_path_factory.mktemp("wildcard")
    shop(root)
    (root / "test_cache.py").write_text(TEST.replace("def test_label(", "def test_cache_label("))
    settings(root, f"classpath = {FORMS[1]}\n")
    cache = root / ".bytecount-cache"
    stale = cache / "classes" / ("0" * 64)  # compiled sources
    stale.mkdir(parents=True)
    (stale / "manifest.json").write_text("{}")
    retired = cache / "instrumented" / ("1" * 64)  # a kind of entry older versions wrote: gone whole, fresh or not
    retired.mkdir(parents=True)
    stale_class = cache / "counted" / (("0" * 64) + ".class-entry")  # a class counted on its own
    stale_class.parent.mkdir()
    stale_class.write_bytes(b"{}\n")
    long_ago = time.time() - 31 * 86400
    for old in (stale, stale_class):
        os.utime(old, (long_ago, long_ago))
    return SimpleNamespace(root=root, cache=cache, stale=stale, retired=retired, stale_class=stale_class,
                           run=run_session(root, "--bytecount-update", name="update"))


def test_a_classpath_with_javas_wildcard_counts_the_librarys_calls(wildcard):
    """One of the forms above end to end (each names the same entries)."""
    assert wildcard.run.outcome("test_label") == "passed"
    assert recorded_calls(wildcard.root)[CAPITALIZE] == 3


def test_a_classpath_file_written_by_the_build_tool(pytester):
    jar = shop(pytester.path)
    # what mvn dependency:build-classpath -Dmdep.outputFile=target/classpath.txt writes: one line, no newline
    (pytester.path / "target" / "classpath.txt").write_text(str(jar))
    settings(pytester.path, 'classpath = ["target/classes"]\nclasspath-file = "target/classpath.txt"\n')
    result = run(pytester, "--bytecount-update")
    assert_counts_with_the_library(result, pytester.path)
    # the header names the configured classpath: the entries as written, then the file and what it holds
    header = "bytecount: classpath target/classes, target/classpath.txt (1 entry: lib/commons-lang3-3.12.0.jar)"
    assert header in result.stdout.lines


def test_a_classpath_file_on_the_command_line_with_relative_entries(pytester):
    shop(pytester.path)
    # a Gradle task printing runtimeClasspath.asPath one entry a line; relative entries: to the file's folder
    (pytester.path / "build").mkdir()
    (pytester.path / "build" / "cp.txt").write_text("../target/classes\n../lib/*\n")
    settings(pytester.path, "")
    result = run(pytester, "--bytecount-update", "--bytecount-classpath-file", "build/cp.txt")
    assert_counts_with_the_library(result, pytester.path)
    assert "bytecount: classpath build/cp.txt (2 entries: target/classes, lib/*)" in result.stdout.lines


def test_the_environment_adds_entries(pytester, monkeypatch):
    shop(pytester.path)
    settings(pytester.path, 'classpath = ["target/classes"]\n')
    monkeypatch.setenv("BYTECOUNT_CLASSPATH", f"{pytester.path}/lib/*")
    result = run(pytester, "--bytecount-update")
    assert_counts_with_the_library(result, pytester.path)
    assert "bytecount: classpath target/classes, $BYTECOUNT_CLASSPATH" in result.stdout.lines


@pytest.mark.parametrize("classes, tool", [("target/classes", "Maven"), ("build/classes/java/main", "Gradle")])
def test_the_build_tools_class_folder_is_found_and_named_in_the_header(pytester, monkeypatch, classes, tool):
    shop(pytester.path, classes=classes)
    settings(pytester.path, "")
    monkeypatch.setenv("BYTECOUNT_CLASSPATH", f"{pytester.path}/lib/*")  # the dependencies
    result = run(pytester, "--bytecount-update")
    assert_counts_with_the_library(result, pytester.path)
    assert f"bytecount: classpath {classes} ({tool} layout; no classpath is configured)" in result.stdout.lines


def usage_error(result) -> str:
    """The one error line of a session stopped by a usage error (a pytester run's result or a Session)."""
    stdout, stderr = (text if isinstance(text, str) else text.str() for text in (result.stdout, result.stderr))
    assert result.ret == pytest.ExitCode.USAGE_ERROR, stdout
    assert "Traceback" not in stdout + stderr
    lines = [line for line in stderr.splitlines() if line.startswith("ERROR: bytecount: ")]
    assert len(lines) == 1, stderr
    return lines[0][len("ERROR: bytecount: "):]


def test_no_classpath_and_no_build_folder_says_what_to_set(pytester):
    (pytester.path / "test_shop.py").write_text(TEST)
    settings(pytester.path, "")
    message = usage_error(run(pytester))
    assert message.startswith("no classpath: set [tool.bytecount] classpath")
    assert "classpath-file" in message and "--bytecount-classpath" in message
    assert "target/classes (Maven) or build/classes/java/main (Gradle)" in message


def test_a_missing_classpath_file_says_how_to_make_one(pytester):
    shop(pytester.path)
    settings(pytester.path, 'classpath-file = "target/classpath.txt"\n')
    message = usage_error(run(pytester))
    assert message == (f"classpath-file {pytester.path}/target/classpath.txt does not exist (build it first, "
                       f"for example with mvn dependency:build-classpath -Dmdep.outputFile=classpath.txt)")


PRICES = ("package shop;\npublic class Prices {\n"
          "    public static int add(int amount, int extra) { return amount + extra; }\n}\n")
NAMES = """\
import pytest

@pytest.mark.bytecount("shop.Prices#add")
def test_names(bytecount):
    prices = bytecount.jclass("shop.Prices")
    assert prices.add(2, 3) == 5
    method = [m for m in prices.class_.getMethods() if str(m.getName()) == "add"][0]
    print("NAMES", [str(p.getName()) for p in method.getParameters()])
"""
CART = ("package shop;\npublic class Cart {\n"
        "    public static int room(int used) { return lib.Limits.MAX - used; }\n}\n")
ROOM = """\
import pytest

@pytest.mark.bytecount("shop.Cart#room")
def test_room(bytecount):
    assert bytecount.jclass("shop.Cart").room(2) == 5
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """``sources = ["src"]``, compiled by the plugin: shop.Prices (test_names.py, the javac options story) and
    shop.Cart (test_cart.py, the compile classpath story), whose constant comes from a jar of classes given
    only for compiling, through three runs: with neither setting (javac fails on Cart, which stops the session
    before any test), with ``compile-classpath``, and with it and ``javac-options = ["-parameters"]``. Each
    setting matters to one story only: -parameters names no constant, the compile classpath no parameter."""
    root = tmp_path_factory.mktemp("compiled")
    limits = root / "provided" / "src" / "lib" / "Limits.java"
    limits.parent.mkdir(parents=True)
    limits.write_text("package lib;\npublic class Limits { public static final int MAX = 7; }\n")
    subprocess.run([f"{JDK17}/bin/javac", "-d", str(root / "provided" / "classes"), str(limits)], check=True)
    (root / "src" / "shop").mkdir(parents=True)
    (root / "src" / "shop" / "Prices.java").write_text(PRICES)
    (root / "src" / "shop" / "Cart.java").write_text(CART)
    (root / "test_names.py").write_text(NAMES)
    (root / "test_cart.py").write_text(ROOM)
    runs = {}
    settings(root, 'sources = ["src"]\n')
    runs["sources"] = run_session(root, name="sources")
    settings(root, 'sources = ["src"]\ncompile-classpath = ["provided/classes"]\n')
    runs["compile-classpath"] = run_session(root, "--bytecount-update", "-s", name="compile_classpath")
    settings(root, 'sources = ["src"]\ncompile-classpath = ["provided/classes"]\njavac-options = ["-parameters"]\n')
    runs["javac-options"] = run_session(root, "--bytecount-update", "-s", name="javac_options")
    return runs


def test_javac_options_reach_javac_and_the_cache_key(compiled):
    """-parameters keeps parameter names in the class file: reflection then says ``amount``, not ``arg0``."""
    without, with_options = compiled["compile-classpath"], compiled["javac-options"]
    assert without.outcome("test_names") == "passed" and "NAMES ['arg0', 'arg1']" in without.stdout
    assert with_options.outcome("test_names") == "passed" and "NAMES ['amount', 'extra']" in with_options.stdout


def test_a_compile_classpath_is_on_javacs_classpath_only(compiled):
    """A constant from a compile-only jar is inlined by javac (JLS 13.1): the JVM never needs the jar."""
    assert "javac failed on [tool.bytecount] sources" in usage_error(compiled["sources"])
    assert compiled["compile-classpath"].outcome("test_room") == "passed"


def test_the_cache_folder_ignores_itself_and_drops_entries_long_unused(wildcard):
    cache = wildcard.cache
    assert wildcard.run.outcome("test_cache_label") == "passed"
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert not wildcard.stale.exists() and not wildcard.stale_class.exists() and not wildcard.retired.parent.exists()
    used = [p.name for p in (cache / "counted").iterdir() if not p.name.startswith(".")]
    # the class this run counted (one class, whichever module counts it), kept
    assert len(used) == 1 and used[0].endswith(".class-entry")
    subprocess.run(["git", "init", "-q", str(wildcard.root)], check=True)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=wildcard.root,
                            capture_output=True, text=True, check=True).stdout
    assert status and ".bytecount-cache" not in status
