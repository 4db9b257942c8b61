"""What counting in place costs a session whose application loads thousands of classes inside the counted test,
beside the same session without the plugin (figures, not a test).

    python benchmarks/in_place_session.py [--rounds 5] [--java-home DIR] [--jar /usr/share/java/guava.jar]

The "application" is a Python module that starts its own JVM (``jpype.startJVM``, as konlpy or tabula-py do) with
a real jar on its class path, and whose API, called by the test, first loads every class of the jar (2,040 classes
of Debian's guava 31.1) and then splits a string with ``com.google.common.base.Splitter``. Three settings of one
project alternate within each round:

- ``no plugin``: ``-p no:bytecount``, the test unmarked;
- ``in place, flat``: ``@pytest.mark.bytecount("com.google.common.base.Splitter#splitToList", in_place=True,
  deep=False)``: the in-place transformer sees each class the application loads during the test;
- ``in place, deep``: the same marker without ``deep=False`` (deep counts by default), the deep cache warm: every
  class the application loads carries deep code.

Each cell is the median over the rounds of the whole pytest process: wall time, and CPU time (user + system, every
thread of the child). The target: the in-place session at most 1.3x the session without the plugin, in CPU.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import tempfile
import zipfile
from pathlib import Path

from _support import java_version, jdk17_home, timed_session  # first: this checkout's package

APP = '''
import jpype

JAR = {jar!r}
NAMES = {names!r}


def start():
    if not jpype.isJVMStarted():
        jpype.startJVM(classpath=[JAR])


def load_everything():
    """Load every class of the jar (not initialised), as a large application does on its first calls."""
    Class = jpype.JClass("java.lang.Class")
    loader = jpype.JClass("java.lang.ClassLoader").getSystemClassLoader()
    loaded = 0
    for name in NAMES:
        try:
            Class.forName(name, False, loader)
            loaded += 1
        except Exception:  # noqa: BLE001 - a class whose optional dependency is missing
            pass
    return loaded


def split(text):
    splitter = jpype.JClass("com.google.common.base.Splitter").on(",")
    return len(splitter.splitToList(text))
'''

TEST = '''
import pytest

import app


@pytest.fixture(scope="module")
def started():
    app.start()
    return True

{marker}
def test_application(started{fixture}):
    assert app.load_everything() > {least}
    assert app.split(",".join(["word"] * 500)) == 500
'''

SETTINGS = {"no plugin": None, "in place, flat": ", deep=False", "in place, deep": ""}
TARGET = "com.google.common.base.Splitter#splitToList"


def project(folder: Path, setting: str, jar: str, names: list, java_home: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "app.py").write_text(APP.format(jar=jar, names=names))
    extra = SETTINGS[setting]
    marker = "" if extra is None else f'@pytest.mark.bytecount("{TARGET}", in_place=True{extra})'
    (folder / "tests").mkdir()
    (folder / "tests" / "test_app.py").write_text(TEST.format(marker=marker, fixture="" if extra is None else ", bytecount",
                                                              least=len(names) * 9 // 10))
    (folder / "pyproject.toml").write_text(f'[tool.bytecount]\njava-home = "{java_home}"\nclasspath = ["{jar}"]\n\n'
                                           f'[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n')
    return folder


def session(folder: Path, setting: str, env: dict) -> tuple:
    """(wall seconds, CPU seconds) of one ``python -m pytest`` in ``folder``; its test must pass or be new."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"]
    command += ["-p", "no:bytecount"] if SETTINGS[setting] is None else ["--bytecount-update"]
    return timed_session(command, folder, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--java-home", default=None, help="the JDK the sessions run on (default: JDK 17)")
    parser.add_argument("--jar", default="/usr/share/java/guava.jar", help="the jar whose classes the application loads")
    args = parser.parse_args()
    java_home = args.java_home or str(jdk17_home())
    with zipfile.ZipFile(args.jar) as z:
        names = sorted(n[:-6].replace("/", ".") for n in z.namelist()
                       if n.endswith(".class") and not n.startswith("META-INF") and n != "module-info.class")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    env["JAVA_HOME"] = java_home  # the application's jpype.startJVM() takes the JVM JAVA_HOME names
    with tempfile.TemporaryDirectory() as tmp:
        folders = {s: project(Path(tmp) / str(k), s, args.jar, names, java_home) for k, s in enumerate(SETTINGS)}
        for setting, folder in folders.items():  # baselines recorded, the deep cache warm
            session(folder, setting, env)
        figures: dict = {s: [] for s in folders}
        order = list(folders)
        for r in range(args.rounds):
            for setting in order[r % len(order):] + order[:r % len(order)]:
                figures[setting].append(session(folders[setting], setting, env))
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
    print(f"{datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores, Java {java_version(Path(java_home))} "
          f"at {java_home}; the application loads {len(names):,} classes of {args.jar} in the counted test")
    print(f"python benchmarks/in_place_session.py --rounds {args.rounds}")
    medians = {s: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
               for s, rows in figures.items()}
    bare_wall, bare_cpu = medians["no plugin"]
    print(f"{'session':<16} {'wall':>8} {'CPU':>8} {'wall / no plugin':>17} {'CPU / no plugin':>16}")
    for setting, (wall, cpu) in medians.items():
        print(f"{setting:<16} {wall:>7.2f}s {cpu:>7.2f}s {wall / bare_wall:>16.2f}x {cpu / bare_cpu:>15.2f}x")


if __name__ == "__main__":
    main()
