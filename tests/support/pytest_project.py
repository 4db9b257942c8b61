"""Shared by the end-to-end tests: the JDK they configure and one way to run pytest on a pytester project
(a subprocess each, since a process gets one JVM)."""

from __future__ import annotations

import shutil

from .jdk import JDK17  # noqa: F401 - the tests import it from here too
from .paths import DEMO_SRC, EXAMPLES

# st.Calc#twice: the smallest class a test can count, for tests about the plugin rather than the counts
CALC = """
package st;

public class Calc {
    public static int twice(int x) {
        return x + x;
    }
}
"""

# Deep counts are the default; the stories about the plugin itself pin flat counts, which are the same on every JDK
# and need no deep set-up. Those about deep counts, and about the default, say so themselves (a marker's deep=True, a
# project of their own, or the settings they give).
PINNED_FLAT = "deep = false"

DEMO_IGNORED = shutil.ignore_patterns(".bytecount-cache", ".pytest_cache", "__pycache__", "*.bak")


def run(pytester, *args):
    """pytest in a subprocess, with pytest's faulthandler as a user has it (no cache: runs stay independent)."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=600)


def java_project(pytester, sources: dict, tests: dict, pinned: bool = True):
    """A pytester project compiling ``sources`` ({"pkg/Cls.java": text} under src/) with JDK 17, with the
    test modules ``tests`` ({module name: text}, possibly none); flat counts unless a marker asks for deep ones, or
    as a user's project has it with ``pinned=False`` (deep by default)."""
    for rel, text in sources.items():
        path = pytester.path / "src" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    pytester.makepyprojecttoml(f"""
        [tool.bytecount]
        sources = ["src"]
        java-home = "{JDK17}"
        {PINNED_FLAT if pinned else ""}
    """)
    if tests:
        pytester.makepyfile(**tests)
    return pytester


def demo_project(pytester, tests: dict):
    """java_project on the demo project's sources (examples/demo/src: ``demo.Sorting``, ``demo.Search``)."""
    sources = {path.relative_to(DEMO_SRC).as_posix(): path.read_text() for path in sorted(DEMO_SRC.rglob("*.java"))}
    return java_project(pytester, sources, tests)


def demo_copy(pytester):
    """examples/demo as committed (sources, tests under tests/, baselines in tests/bytecount/) copied into
    the pytester project, its ``[tool.bytecount]`` compiling and running with JDK 17."""
    shutil.copytree(EXAMPLES / "demo", pytester.path, ignore=DEMO_IGNORED, dirs_exist_ok=True)
    pyproject = pytester.path / "pyproject.toml"
    text = pyproject.read_text()
    assert text.count("[tool.bytecount]\n") == 1 and "java-home" not in text, text
    pyproject.write_text(text.replace("[tool.bytecount]\n", f'[tool.bytecount]\njava-home = "{JDK17}"\n'))
    return pytester
