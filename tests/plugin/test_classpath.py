"""Classpaths as Maven and Gradle projects write them: globs and Java's ``dir/*``, several entries in one
string, a classpath file from the build tool, ``$BYTECOUNT_CLASSPATH``, the build tool's class folder found
by itself, javac options and a compile-only classpath for ``sources``, and a cache folder that ignores itself.

The project under test is a small shop whose ``Inventory.label(name, n)`` calls commons-lang3's
``StringUtils.capitalize`` once per loop turn: ``label("ab", 3)`` makes exactly 3 such calls, whatever the
classpath's spelling, so every form that works records the same 3 calls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from pytest_bytecount.plugin.config import classpath_entries, load_settings
from tests.support.pytest_project import JDK17, run
from tests.support.settings import option

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


def shop(pytester, classes: str = "target/classes", jar_dir: str = "lib") -> Path:
    """The shop compiled by JDK 17's javac into ``classes``, commons-lang3 copied into ``jar_dir``."""
    root = pytester.path
    (root / jar_dir).mkdir(parents=True)
    jar = root / jar_dir / "commons-lang3-3.12.0.jar"
    shutil.copyfile(COMMONS_LANG3, jar)
    source = root / "src/main/java/shop/Inventory.java"
    source.parent.mkdir(parents=True)
    source.write_text(INVENTORY)
    subprocess.run([f"{JDK17}/bin/javac", "-d", str(root / classes), "-cp", str(jar), str(source)], check=True)
    pytester.makepyfile(test_shop=TEST)
    return jar


def settings(pytester, text: str) -> None:
    pytester.makepyprojecttoml(f'[tool.bytecount]\njava-home = "{JDK17}"\n{text}')


def recorded_calls(pytester) -> dict:
    baseline = json.loads((pytester.path / "bytecount" / "test_shop.json").read_text())
    return baseline["tests"]["test_label"]["methods"][LABEL]["calls"]


def assert_counts_with_the_library(result, pytester) -> None:
    result.assert_outcomes(passed=1)
    assert recorded_calls(pytester)[CAPITALIZE] == 3


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


def test_a_classpath_with_javas_wildcard_counts_the_librarys_calls(pytester):
    """One of the forms above end to end (each names the same entries)."""
    shop(pytester)
    settings(pytester, f"classpath = {FORMS[1]}\n")
    assert_counts_with_the_library(run(pytester, "--bytecount-update"), pytester)


def test_a_classpath_file_written_by_the_build_tool(pytester):
    jar = shop(pytester)
    # what mvn dependency:build-classpath -Dmdep.outputFile=target/classpath.txt writes: one line, no newline
    (pytester.path / "target" / "classpath.txt").write_text(str(jar))
    settings(pytester, 'classpath = ["target/classes"]\nclasspath-file = "target/classpath.txt"\n')
    result = run(pytester, "--bytecount-update")
    assert_counts_with_the_library(result, pytester)
    # the header names the configured classpath: the entries as written, then the file and what it holds
    header = "bytecount: classpath target/classes, target/classpath.txt (1 entry: lib/commons-lang3-3.12.0.jar)"
    assert header in result.stdout.lines


def test_a_classpath_file_on_the_command_line_with_relative_entries(pytester):
    shop(pytester)
    # a Gradle task printing runtimeClasspath.asPath one entry a line; relative entries: to the file's folder
    (pytester.path / "build").mkdir()
    (pytester.path / "build" / "cp.txt").write_text("../target/classes\n../lib/*\n")
    settings(pytester, "")
    result = run(pytester, "--bytecount-update", "--bytecount-classpath-file", "build/cp.txt")
    assert_counts_with_the_library(result, pytester)
    assert "bytecount: classpath build/cp.txt (2 entries: target/classes, lib/*)" in result.stdout.lines


def test_the_environment_adds_entries(pytester, monkeypatch):
    shop(pytester)
    settings(pytester, 'classpath = ["target/classes"]\n')
    monkeypatch.setenv("BYTECOUNT_CLASSPATH", f"{pytester.path}/lib/*")
    result = run(pytester, "--bytecount-update")
    assert_counts_with_the_library(result, pytester)
    assert "bytecount: classpath target/classes, $BYTECOUNT_CLASSPATH" in result.stdout.lines


@pytest.mark.parametrize("classes, tool", [("target/classes", "Maven"), ("build/classes/java/main", "Gradle")])
def test_the_build_tools_class_folder_is_found_and_named_in_the_header(pytester, monkeypatch, classes, tool):
    shop(pytester, classes=classes)
    settings(pytester, "")
    monkeypatch.setenv("BYTECOUNT_CLASSPATH", f"{pytester.path}/lib/*")  # the dependencies
    result = run(pytester, "--bytecount-update")
    assert_counts_with_the_library(result, pytester)
    assert f"bytecount: classpath {classes} ({tool} layout; no classpath is configured)" in result.stdout.lines


def usage_error(result) -> str:
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    lines = [line for line in result.stderr.str().splitlines() if line.startswith("ERROR: bytecount: ")]
    assert len(lines) == 1, result.stderr.str()
    return lines[0][len("ERROR: bytecount: "):]


def test_no_classpath_and_no_build_folder_says_what_to_set(pytester):
    pytester.makepyfile(test_shop=TEST)
    settings(pytester, "")
    message = usage_error(run(pytester))
    assert message.startswith("no classpath: set [tool.bytecount] classpath")
    assert "classpath-file" in message and "--bytecount-classpath" in message
    assert "target/classes (Maven) or build/classes/java/main (Gradle)" in message


def test_a_missing_classpath_file_says_how_to_make_one(pytester):
    shop(pytester)
    settings(pytester, 'classpath-file = "target/classpath.txt"\n')
    message = usage_error(run(pytester))
    assert message == (f"classpath-file {pytester.path}/target/classpath.txt does not exist (build it first, "
                       f"for example with mvn dependency:build-classpath -Dmdep.outputFile=classpath.txt)")


def test_javac_options_reach_javac_and_the_cache_key(pytester):
    """-parameters keeps parameter names in the class file: reflection then says ``amount``, not ``arg0``."""
    source = pytester.path / "src" / "shop" / "Prices.java"
    source.parent.mkdir(parents=True)
    source.write_text("package shop;\npublic class Prices {\n"
                      "    public static int add(int amount, int extra) { return amount + extra; }\n}\n")
    pytester.makepyfile(test_names="""\
        import pytest

        @pytest.mark.bytecount("shop.Prices#add")
        def test_names(bytecount):
            prices = bytecount.jclass("shop.Prices")
            assert prices.add(2, 3) == 5
            method = [m for m in prices.class_.getMethods() if str(m.getName()) == "add"][0]
            print("NAMES", [str(p.getName()) for p in method.getParameters()])
    """)
    settings(pytester, 'sources = ["src"]\n')
    assert "NAMES ['arg0', 'arg1']" in run(pytester, "--bytecount-update", "-s").stdout.str()
    settings(pytester, 'sources = ["src"]\njavac-options = ["-parameters"]\n')
    assert "NAMES ['amount', 'extra']" in run(pytester, "--bytecount-update", "-s").stdout.str()


def test_a_compile_classpath_is_on_javacs_classpath_only(pytester):
    """A constant from a compile-only jar is inlined by javac (JLS 13.1): the JVM never needs the jar."""
    limits = pytester.path / "provided" / "src" / "lib" / "Limits.java"
    limits.parent.mkdir(parents=True)
    limits.write_text("package lib;\npublic class Limits { public static final int MAX = 7; }\n")
    subprocess.run([f"{JDK17}/bin/javac", "-d", str(pytester.path / "provided" / "classes"), str(limits)], check=True)
    source = pytester.path / "src" / "shop" / "Cart.java"
    source.parent.mkdir(parents=True)
    source.write_text("package shop;\npublic class Cart {\n"
                      "    public static int room(int used) { return lib.Limits.MAX - used; }\n}\n")
    pytester.makepyfile(test_cart="""\
        import pytest

        @pytest.mark.bytecount("shop.Cart#room")
        def test_room(bytecount):
            assert bytecount.jclass("shop.Cart").room(2) == 5
    """)
    settings(pytester, 'sources = ["src"]\n')
    assert "javac failed on [tool.bytecount] sources" in usage_error(run(pytester))
    settings(pytester, 'sources = ["src"]\ncompile-classpath = ["provided/classes"]\n')
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)


def test_the_cache_folder_ignores_itself_and_drops_entries_long_unused(pytester):
    shop(pytester)
    settings(pytester, 'classpath = ["target/classes", "lib/*"]\n')
    cache = pytester.path / ".bytecount-cache"
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
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert not stale.exists() and not stale_class.exists() and not retired.parent.exists()
    used = [p.name for p in (cache / "counted").iterdir() if not p.name.startswith(".")]
    assert len(used) == 1 and used[0].endswith(".class-entry")  # the class this run counted, kept
    subprocess.run(["git", "init", "-q", str(pytester.path)], check=True)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=pytester.path,
                            capture_output=True, text=True, check=True).stdout
    assert status and ".bytecount-cache" not in status
