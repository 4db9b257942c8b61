"""examples/maven-layout and examples/gradle-layout, as a user runs them: each is copied, built by its own
script (javac against Debian's jars, writing what ``mvn compile dependency:build-classpath`` or the Gradle
task would write), then its own tests run against the committed baselines. A deliberate change to an
example's Java fails its tests with REGRESSED until ``--bytecount-update`` accepts it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import EXAMPLES
from tests.support.pytest_project import JDK17, run

JARS = Path("/usr/share/java")  # the build scripts' default: Debian's lib*-java packages
IGNORED = shutil.ignore_patterns("target", "build", ".bytecount-cache", "__pycache__", ".pytest_cache")


@dataclass(frozen=True)
class Example:
    name: str
    script: str
    jar: str
    tests: int  # test functions times their parameters, counted in the example's tests/
    header: str  # the header line naming the classpath its pyproject.toml configures
    source: str  # the Java file the regression edits, under src/main/java
    before: str
    after: str  # the same result with more work
    method: str  # the method whose tests fail then, and how many do
    failing: int


MAVEN = Example(
    "maven-layout", "build_without_maven.py", "commons-lang3.jar", tests=4,
    header=f"bytecount: classpath target/classes, target/classpath.txt (1 entry: {JARS}/commons-lang3.jar)",
    source="shop/Tags.java", before="!out.contains(tag)", after="!out.contains(tag) && !out.contains(tag)",
    method="shop.Tags#normalize", failing=2)
GRADLE = Example(
    "gradle-layout", "build_without_gradle.py", "guava.jar", tests=4,
    header=f"bytecount: classpath build/classpath.txt (2 entries: build/classes/java/main, {JARS}/guava.jar)",
    # the inner loop also compares the best word with itself: never greater, one more turn per word taken
    source="stats/TopWords.java", before="for (int i = 1; i < order.size()", after="for (int i = 0; i < order.size()",
    method="stats.TopWords#top", failing=2)
EXAMPLE_PARAMS = [pytest.param(MAVEN, id="maven"), pytest.param(GRADLE, id="gradle")]

pytestmark = pytest.mark.skipif(not all((JARS / e.jar).is_file() for e in (MAVEN, GRADLE)),
                                reason="needs Debian's libcommons-lang3-java and libguava-java")


def copy(example: Example, to: Path) -> Path:
    shutil.copytree(EXAMPLES / example.name, to, ignore=IGNORED, dirs_exist_ok=True)
    return to


def build(example: Example, folder: Path, env: dict = None, args=()) -> subprocess.CompletedProcess:
    """The example's own build script, run as its README says, with JDK 17's javac unless ``env`` says."""
    env = {**os.environ, "JAVA_HOME": str(JDK17)} if env is None else env
    return subprocess.run([sys.executable, example.script, *args], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)


def built(example: Example, folder: Path) -> None:
    done = build(example, folder)
    assert done.returncode == 0, done.stdout


def baselines(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted((folder / "tests" / "bytecount").glob("*.json"))}


def judged(pytester, *args):
    return run(pytester, f"--bytecount-java-home={JDK17}", *args)


@pytest.mark.parametrize("example", EXAMPLE_PARAMS)
def test_an_example_passes_against_its_committed_baselines(pytester, example):
    built(example, copy(example, pytester.path))
    committed = baselines(pytester.path)
    assert len(committed) == 2  # one file a test module
    result = judged(pytester)
    result.assert_outcomes(passed=example.tests)
    assert result.ret == 0
    assert example.header in result.stdout.lines
    assert baselines(pytester.path) == committed  # a passing run writes nothing


@pytest.mark.parametrize("example", EXAMPLE_PARAMS)
def test_a_change_to_an_examples_java_fails_until_it_is_accepted(pytester, example):
    copy(example, pytester.path)
    source = pytester.path / "src" / "main" / "java" / example.source
    text = source.read_text()
    assert text.count(example.before) == 1
    source.write_text(text.replace(example.before, example.after))
    built(example, pytester.path)
    failed = judged(pytester)
    failed.assert_outcomes(failed=example.failing, passed=example.tests - example.failing)
    failed.stdout.fnmatch_lines([f"*{example.method}(*REGRESSED*"])
    committed = baselines(pytester.path)
    judged(pytester, "--bytecount-update").assert_outcomes(passed=example.tests)
    assert baselines(pytester.path) != committed
    judged(pytester).assert_outcomes(passed=example.tests)


@pytest.mark.parametrize("example", EXAMPLE_PARAMS)
def test_the_build_scripts_say_what_is_missing(tmp_path, example):
    folder = copy(example, tmp_path / example.name)
    no_java = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    no_java["PATH"] = str(tmp_path / "empty")
    done = build(example, folder, env=no_java)
    assert done.returncode == 1 and done.stdout.startswith("build: no javac: set JAVA_HOME"), done.stdout
    done = build(example, folder, env={**no_java, "JAVA_HOME": str(tmp_path)})
    assert done.returncode == 1 and f"JAVA_HOME={tmp_path} has no bin/javac" in done.stdout, done.stdout
    (tmp_path / "jars").mkdir()
    done = build(example, folder, args=["--jars", str(tmp_path / "jars")])
    assert done.returncode == 1, done.stdout
    assert f"build: missing {tmp_path / 'jars' / example.jar}: install the jar" in done.stdout
    done = build(example, folder, env={**os.environ, "JAVA_HOME": str(JDK17), "JARS_DIR": str(tmp_path / "jars")})
    assert f"build: missing {tmp_path / 'jars' / example.jar}" in done.stdout
    assert not (folder / "target").exists() and not (folder / "build").exists()  # nothing built
