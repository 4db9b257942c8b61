"""A failed write fails the run: a baseline, the results JSON or the HTML report that could not be written
makes the exit status non-zero, and the summary names each file, the OS error and the tests whose entries
were lost.

Two real causes: a folder nobody may write (``chattr +i`` as root, where permissions do not stop root; a
read-only mode otherwise) and a full disk (a 4 KB tmpfs, filled; it needs root and mount, and the test says
so when the machine refuses). Each case first shows that the same run passes where the files can be written.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.pytest_project import CALC, java_project, run

MODULE = '''
import pytest


@pytest.mark.bytecount("st.Calc#twice")
@pytest.mark.parametrize("x", [1, 2])
def test_twice(bytecount, x):
    assert bytecount.jclass("st.Calc").twice(x) == 2 * x
'''


@contextlib.contextmanager
def unwritable(folder: Path):
    """Nothing can be created, renamed or removed in ``folder`` while inside."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"chattr +i is refused here, so root cannot be kept from writing: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


@contextlib.contextmanager
def full_disk(folder: Path):
    """``folder`` is a 4 KB filesystem with no space left."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(folder)], capture_output=True,
                             text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        with contextlib.suppress(OSError):  # the write, or the flush at close, runs out of space
            with open(folder / "filler", "wb") as f:
                f.write(b"\0" * 8192)
        assert os.statvfs(folder).f_bavail == 0
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def recorded(pytester):
    java_project(pytester, {"st/Calc.java": CALC}, {"tests/test_calc": MODULE})
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    return pytester


def changed_code(project) -> None:
    source = project.path / "src" / "st" / "Calc.java"
    source.write_text(CALC.replace("return x + x;", "return x + x + 0;"))


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_an_update_into_a_folder_that_cannot_be_written_fails_its_tests_and_the_run(pytester, workers):
    project = recorded(pytester)
    folder = project.path / "tests" / "bytecount"
    before = (folder / "test_calc.json").read_text()
    changed_code(project)

    with unwritable(folder):
        result = run(project, "--bytecount-update", *workers)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    path = folder / "test_calc.json"
    result.stdout.fnmatch_lines([
        f"bytecount: the baseline of test_twice[[]1[]] could not be written to {path}: *",
        "Nothing was recorded for this test: make the folder writable (or free some space) and run the update again.",
        "2 unwritten",
        "not written: the baseline file could not be written (2):",
        "bytecount: could not write tests/bytecount/test_calc.json: [[]Errno *",
        "  the baselines of these tests were not written: tests/test_calc.py::test_twice[[]1[]], "
        "tests/test_calc.py::test_twice[[]2[]]",
        "*= 2 failed, 1 not written in *",
    ])
    assert (folder / "test_calc.json").read_text() == before, out

    run(project, "--bytecount-update", *workers).assert_outcomes(passed=2)  # writable again: recorded
    assert json.loads((folder / "test_calc.json").read_text()) != json.loads(before)


def test_results_json_and_html_report_that_cannot_be_written_fail_a_passing_run(pytester):
    project = recorded(pytester)
    out_dir = project.path / "out"
    args = ["--bytecount-json", "out/results.json", "--bytecount-html", "out/html"]
    passing = run(project, *args)
    assert passing.ret == pytest.ExitCode.OK and (out_dir / "results.json").exists()
    for old in (out_dir / "results.json", out_dir / "html" / "index.html"):
        old.unlink()
    (out_dir / "html").rmdir()

    with unwritable(out_dir):
        result = run(project, *args)
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "bytecount: could not write out/html/index.html: [[]Errno *] * (the HTML report)",
        "bytecount: could not write out/results.json: [[]Errno *] * (--bytecount-json)",
        "*= 2 passed, 2 not written in *",
    ])


def test_a_full_disk_fails_the_run_and_names_the_error(pytester):
    project = recorded(pytester)
    changed_code(project)
    full = project.path / "full"
    with full_disk(full):
        result = run(project, "--bytecount-update", "--bytecount-baseline-dir", "full/baselines",
                     "--bytecount-json", "full/results.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "bytecount: could not write full/baselines/tests/test_calc.json: [[]Errno 28] No space left on device*",
        "  the baselines of these tests were not written: tests/test_calc.py::test_twice[[]1[]], "
        "tests/test_calc.py::test_twice[[]2[]]",
        "bytecount: could not write full/results.json: [[]Errno 28] No space left on device (--bytecount-json)",
        "*= 2 failed, 2 not written in *",
    ])
