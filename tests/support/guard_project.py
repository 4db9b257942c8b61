"""A tiny Java project for the guarantee tests (tests/java-guarantees), driven through real pytest processes.

The classes are compiled once per source hash (support/javac.py); each test writes its own
pyproject.toml pointing at them, so no test pays for javac unless it is about ``sources``.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

from .javac import compile_java
from .jdk import JDK17
from .pytest_project import PINNED_FLAT

GUARD_SRC = Path(__file__).resolve().parent.parent / "java-guarantees"


def guard_classes() -> Path:
    """The compiled classes of tests/java-guarantees (package ``guard``), cached."""
    return compile_java(GUARD_SRC, options=["-g"])


def work_total(n: int) -> int:
    """Executed instructions of guard.Work#work(n), javac's loop shape: see Work.java."""
    return 9 + 9 * n


def make_project(pytester, classpath, *, extra: str = "", **modules: str):
    """pyproject.toml with ``[tool.bytecount]`` (JDK 17, the given classpath) and the test modules."""
    entries = ", ".join(json.dumps(str(p)) for p in ([classpath] if isinstance(classpath, (str, Path)) else classpath))
    pinned = "" if re.search(r"^deep\s*=", extra, re.M) else f"{PINNED_FLAT}\n"
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = [{entries}]\njava-home = "{JDK17}"\n{pinned}{extra}')
    for name, text in modules.items():
        (pytester.path / f"{name}.py").write_text(textwrap.dedent(text))
    return pytester


def copy_classes(pytester, folder: str = "classes") -> Path:
    """A private copy of the compiled classes inside the project, for tests that damage them."""
    target = pytester.path / folder
    shutil.copytree(guard_classes(), target, ignore=shutil.ignore_patterns(".bytecount-build.json"))
    return target


# Plugins of the surrounding environment that the runs do not need; blocking one that is not installed is
# harmless, and hypothesis alone costs seconds of start-up in every process.
QUIET = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark"]


def run(pytester, *args, timeout: float = 600):
    """One pytest process (a process gets one JVM), as a user runs it."""
    return pytester.runpytest_subprocess(*QUIET, *args, timeout=timeout)


def pytest_command(*args) -> list:
    """The same command as :func:`run`, for tests that start processes themselves (``pytester.popen``)."""
    import sys

    return [sys.executable, "-m", "pytest", *QUIET, *args]


def baseline(pytester, module: str) -> dict:
    return json.loads((pytester.path / "bytecount" / f"{module}.json").read_text(encoding="utf-8"))


def files_under(root: Path) -> set:
    """Every file under ``root`` (relative, POSIX), caches and bytecode excluded."""
    skip = ("__pycache__", ".bytecount-cache", ".pytest_cache")
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() and not any(part in skip for part in p.relative_to(root).parts)}
