"""A narrowed run never loses a baseline: stale means proven gone.

A baseline entry is stale, and removed by ``--bytecount-update``, only when the run collected its test
module in full and the test is not in it. Every way of narrowing a run is tried here with an update: the
entries of the tests it left out must all stay. Each baseline also holds the entry of a test that really
was deleted (``test_removed``), so that every case shows the other side too: it is removed exactly when the
module was collected in full, which is every case except a node id that leaves a class uncollected; a run
cut short by a collection error reports it and removes nothing, as every interrupted run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.support.pytest_project import CALC, JDK17

MODULE = '''
import os
import pytest


@pytest.mark.bytecount("st.Calc#twice")
def test_a(bytecount):
    assert bytecount.jclass("st.Calc").twice(3) == 6


@pytest.mark.bytecount("st.Calc#twice")
@pytest.mark.parametrize("x", [1, 2])
def test_b(bytecount, x):
    assert os.environ.get("FAIL_B") != str(x), "failing on demand"
    assert bytecount.jclass("st.Calc").twice(x) == 2 * x


class TestC:
    @pytest.mark.slow
    @pytest.mark.bytecount("st.Calc#twice")
    def test_c(self, bytecount):
        assert bytecount.jclass("st.Calc").twice(4) == 8
'''

OTHER = '''
import pytest


@pytest.mark.bytecount("st.Calc#twice")
def test_d(bytecount):
    assert bytecount.jclass("st.Calc").twice(5) == 10
'''

# a third-party plugin that drops items without calling pytest_deselected
DROPPER = '''
def pytest_collection_modifyitems(items):
    items[:] = [item for item in items if "test_b" in item.nodeid]
'''

KEPT = ["TestC::test_c", "test_a", "test_b[1]", "test_b[2]"]  # every test of tests/test_mod.py


def _run(pytester, args, environ) -> subprocess.CompletedProcess:
    """pytest in a subprocess, as a user runs it: with the cache (for --lf, --ff, --sw) and faulthandler."""
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=pytester.path, env=environ,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """tests/test_mod.py (4 tests, one in a class) and tests/test_other.py (1), recorded once for the module
    by a real update, plus an entry of a deleted test in test_mod.json."""
    folder = tmp_path_factory.mktemp("recorded")
    for rel, text in {"src/st/Calc.java": CALC, "tests/test_mod.py": MODULE, "tests/test_other.py": OTHER,
                      "plugins/dropper.py": DROPPER}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    (folder / "pyproject.toml").write_text(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{JDK17}"\n'
                                           '[tool.pytest.ini_options]\nmarkers = ["slow: slow"]\n')
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bytecount-update"], cwd=folder,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    path = folder / "tests" / "bytecount" / "test_mod.json"
    data = json.loads(path.read_text())
    assert sorted(data["tests"]) == KEPT
    data["tests"]["test_removed"] = data["tests"]["test_a"]
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    return folder


@pytest.fixture
def project(pytester, recorded):
    """A copy of the recorded project (its compiled classes in .bytecount-cache come along)."""
    shutil.copytree(recorded, pytester.path, dirs_exist_ok=True)
    return pytester


def baseline_path(pytester):
    return pytester.path / "tests" / "bytecount" / "test_mod.json"


def entries(pytester) -> list:
    return sorted(json.loads(baseline_path(pytester).read_text())["tests"])


def fail_b_once(project, *args):
    """A run in which test_b[1] fails: the last-failed set of --lf and --ff, the stop of --sw (which exits 2)."""
    result = _run(project, [*args], {**os.environ, "FAIL_B": "1"})
    assert result.returncode in (1, 2) and "test_b[1] - AssertionError: failing on demand" in result.stdout, result.stdout


CASES = {
    # name: (arguments, a run before it, whether tests/test_mod.py is collected in full)
    "lf": (["--lf"], fail_b_once, True),
    "ff": (["--ff"], fail_b_once, True),
    "sw": (["--sw"], lambda p: fail_b_once(p, "--sw"), True),
    "k": (["-k", "test_a"], None, True),
    "m": (["-m", "slow"], None, True),
    "node id of a function": (["tests/test_mod.py::test_a"], None, False),  # TestC is never collected
    "node id of a class": (["tests/test_mod.py::TestC"], None, True),  # the module's functions are collected
    "deselect": (["--deselect", "tests/test_mod.py::test_a"], None, True),
    "a plugin that drops items": (["-p", "dropper"], None, True),
    "xdist": (["-n", "2"], None, True),
    "xdist with lf": (["-n", "2", "--lf"], fail_b_once, True),
    "a collection error elsewhere, continued": (["--continue-on-collection-errors"], "broken", True),
    "a collection error elsewhere": ([], "broken", True),  # interrupted: reported, not removed
}
INTERRUPTED = {"a collection error elsewhere"}


@pytest.mark.parametrize("case", CASES)
def test_an_update_narrowed_any_way_keeps_every_entry_of_the_tests_it_left_out(project, case):
    args, before, full = CASES[case]
    path = [str(project.path / "plugins"), *filter(None, [os.environ.get("PYTHONPATH")])]
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}  # -p dropper finds the plugin
    if before == "broken":
        (project.path / "tests" / "test_broken.py").write_text("import no_such_module_here\n")
    elif before is not None:
        before(project)
    result = _run(project, [*args, "--bytecount-update"], environ)
    output = result.stdout + result.stderr
    assert "INTERNALERROR" not in output, output
    removed = full and case not in INTERRUPTED
    assert entries(project) == sorted(KEPT + ([] if removed else ["test_removed"])), output
    stale_lines = [line for line in result.stdout.splitlines() if "(no such test)" in line]
    if full:
        assert stale_lines == ["  tests/bytecount/test_mod.json: test_removed (no such test)"], output
        assert ("stale baselines (1), removed:" if removed else
                "stale baselines (1), not removed: the run was interrupted:") in result.stdout, output
    else:
        assert stale_lines == [], output
    assert json.loads((project.path / "tests" / "bytecount" / "test_other.json").read_text())["tests"]


def test_a_narrowed_run_without_update_calls_only_the_deleted_test_stale(project):
    fail_b_once(project)
    for args in (["--lf"], ["-k", "test_b"], ["tests/test_mod.py::test_a"]):
        result = _run(project, args, dict(os.environ))
        stale_lines = [line for line in result.stdout.splitlines() if "(no such test)" in line]
        full = args[0] != "tests/test_mod.py::test_a"
        assert stale_lines == (["  tests/bytecount/test_mod.json: test_removed (no such test)"] if full else []), \
            result.stdout
        assert entries(project) == sorted(KEPT + ["test_removed"])  # a run without --bytecount-update writes nothing
