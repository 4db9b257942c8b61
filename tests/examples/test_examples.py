"""examples/maven-layout and examples/gradle-layout, as a user runs them: each is copied, built with
javac by ``examples/build_without_tools.py`` against Debian's jars (what ``mvn compile
dependency:build-classpath`` or the Gradle task would write), then its own tests run against the committed
baselines. A deliberate change to the Maven example's Java fails its tests until it is accepted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.support.paths import EXAMPLES
from tests.support.pytest_project import JDK17, run

IGNORED = shutil.ignore_patterns("target", "build", ".bytecount-cache", "__pycache__", ".pytest_cache")


def build(pytester, name: str, layout: str) -> None:
    """A copy of ``examples/<name>`` in the pytester folder, built as its README says."""
    shutil.copytree(EXAMPLES / name, pytester.path, ignore=IGNORED, dirs_exist_ok=True)
    compile_example(pytester, layout)


def compile_example(pytester, layout: str) -> None:
    env = {**os.environ, "JAVA_HOME": str(JDK17)}
    done = subprocess.run([sys.executable, str(EXAMPLES / "build_without_tools.py"), layout], cwd=pytester.path,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("name, layout, tests", [("maven-layout", "maven", 2), ("gradle-layout", "gradle", 2)])
def test_an_example_passes_against_its_committed_baselines(pytester, name, layout, tests):
    build(pytester, name, layout)
    baselines = sorted(p.read_bytes() for p in pytester.path.glob("tests/bytecount/*.json"))
    assert baselines
    result = run(pytester, f"--bytecount-java-home={JDK17}")
    result.assert_outcomes(passed=tests)
    assert sorted(p.read_bytes() for p in pytester.path.glob("tests/bytecount/*.json")) == baselines


def test_a_change_to_the_maven_example_fails_until_it_is_accepted(pytester):
    build(pytester, "maven-layout", "maven")
    source = pytester.path / "src" / "main" / "java" / "shop" / "Tags.java"
    text = source.read_text()
    slower = text.replace("!out.contains(tag)", "!out.contains(tag) && !out.contains(tag)")  # same result
    assert slower != text
    source.write_text(slower)
    compile_example(pytester, "maven")
    failed = run(pytester, f"--bytecount-java-home={JDK17}")
    failed.assert_outcomes(failed=2)
    failed.stdout.fnmatch_lines(["*shop.Tags#normalize(*REGRESSED*", "*java/util/List.contains*"])
    run(pytester, f"--bytecount-java-home={JDK17}", "--bytecount-update").assert_outcomes(passed=2)
    run(pytester, f"--bytecount-java-home={JDK17}").assert_outcomes(passed=2)
