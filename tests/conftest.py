"""Session fixtures: the Java sources of fixtures-java/, compiled once per source hash (see support/javac.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Dict

import pytest

pytest_plugins = ["pytester"]
from tests.support.javac import LEGACY_TARGETS, compile_java
from tests.support.jdk import find_jdk_home
from tests.support.child_runs import NO_RANDOMLY
from tests.support.paths import FIXTURES_JAVA


# child pytests started as plain subprocesses inherit this; pytester clears PYTEST_ADDOPTS for its runs, so the
# fixture below sets it again for them
os.environ["PYTEST_ADDOPTS"] = " ".join(filter(None, [os.environ.get("PYTEST_ADDOPTS", ""), NO_RANDOMLY]))


@pytest.fixture(autouse=True)
def _child_pytest_runs_are_plain_runs(request, monkeypatch):
    """A pytester run is a user's own pytest run: it must not inherit the xdist worker variables of the
    worker that starts it (other plugins, such as pytest-benchmark, read them and then print warnings), and it
    runs in the order written (no pytest-randomly, see NO_RANDOMLY)."""
    if "pytester" in request.fixturenames:
        request.getfixturevalue("pytester")
        for name in [name for name in os.environ if name.startswith("PYTEST_XDIST_")]:
            monkeypatch.delenv(name)
        monkeypatch.setenv("PYTEST_ADDOPTS", NO_RANDOMLY)


@pytest.fixture(scope="session")
def engine_classes() -> Path:
    """Class-file root of fixtures-java/engine (package ``engine``), javac --release 17 (version 61)."""
    return compile_java(FIXTURES_JAVA / "engine", release="17", options=["-g"])


@pytest.fixture(scope="session")
def legacy_classes() -> Dict[str, Path]:
    """Class-file roots of fixtures-java/legacy (package ``legacy``) by major version: ``{"45": ..., "48": ...}``."""
    return {
        major: compile_java(FIXTURES_JAVA / "legacy", compiler="ecj", options=[*options, "-g"])
        for major, options in LEGACY_TARGETS.items()
    }


@pytest.fixture(scope="session")
def java25_classes() -> Path:
    """Class-file root of fixtures-java/java25 (version 69); skipped when no JDK 25+ javac is installed."""
    home = find_jdk_home(25)
    if home is None:
        pytest.skip("no JDK 25+ javac ($JAVA_HOME or /usr/lib/jvm) for the Java 25 fixtures")
    return compile_java(FIXTURES_JAVA / "java25", compiler=str(home / "bin" / "javac"), release="25", options=["-g"])


@pytest.fixture(scope="session")
def counting_classes() -> Dict[str, Path]:
    """Class-file roots of the counting fixtures by build (mains per build: support/counting_fixtures.py).

    ``javac17`` and ``javac8`` compile fixtures-java/counting (package ``counting``) with --release 17
    and --release 8; ``ecj45`` and ``ecj48`` compile fixtures-java/counting-legacy (package
    ``countinglegacy``) for class versions 45.3 and 48.0, with finally as jsr/ret.
    """
    counting = FIXTURES_JAVA / "counting"
    builds = {
        "javac17": compile_java(counting, release="17", options=["-g"]),
        "javac8": compile_java(counting, release="8", options=["-g"]),
    }
    legacy = FIXTURES_JAVA / "counting-legacy"
    for major, options in LEGACY_TARGETS.items():
        builds[f"ecj{major}"] = compile_java(legacy, compiler="ecj", options=[*options, "-g"])
    return builds
