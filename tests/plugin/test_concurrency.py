"""Concurrency and crashes: parallel workers, parallel processes, killed writers and dying JVMs lose nothing.

Real pytest processes on real javac-compiled classes (tests/java-guarantees); see README "Guarantees".
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time


from tests.support.guard_project import (baseline, guard_classes, make_project, pytest_command, run,
                                   work_total)

MODULE = '''
import pytest

@pytest.mark.bytecount("guard.Work#work")
@pytest.mark.parametrize("n", range({count}))
def test_work_{name}(bytecount, n):
    assert bytecount.jclass("guard.Work").work(n) == n * (n - 1) // 2
'''


def test_four_xdist_workers_updating_three_modules_record_every_entry(pytester):
    modules = {f"test_mod{m}": MODULE.format(name=m, count=10) for m in range(3)}
    make_project(pytester, guard_classes(), **modules)
    result = run(pytester, "-n", "4", "--bytecount-update")
    result.assert_outcomes(passed=30)
    for m in range(3):
        tests = baseline(pytester, f"test_mod{m}")["tests"]
        assert sorted(tests) == sorted(f"test_work_{m}[{n}]" for n in range(10))
        for n in range(10):
            counts = tests[f"test_work_{m}[{n}]"]["methods"]["guard.Work#work(I)I"]
            assert counts["total"] == work_total(n) and counts["invocations"] == 1
    assert not list((pytester.path / "bytecount").glob(".*"))  # no temporary files left behind


RACE = '''
import os, time
from pathlib import Path
import pytest

def wait_for(name):
    deadline = time.time() + 120
    while not Path(name).exists():
        assert time.time() < deadline, "the other pytest process never got there"
        time.sleep(0.02)

@pytest.mark.bytecount("guard.Work#work")
def test_{me}_first(bytecount):
    bytecount.jclass("guard.Work").work(1)

@pytest.mark.bytecount("guard.Work#work")
def test_{me}_meets_the_other_process(bytecount):
    # Both processes have read the baseline (empty) when they meet; from here on they write in turns.
    Path("{me}.here").touch()
    wait_for("{other}.here")
    bytecount.jclass("guard.Work").work(2)

@pytest.mark.bytecount("guard.Work#work")
@pytest.mark.parametrize("n", range(12))
def test_{me}_then(bytecount, n):
    bytecount.jclass("guard.Work").work(n)
'''


def test_two_pytest_processes_updating_one_baseline_file_keep_each_others_entries(pytester):
    make_project(pytester, guard_classes(), test_race=RACE.format(me="alpha", other="beta")
                 + RACE.format(me="beta", other="alpha"))
    procs = [pytester.popen(pytest_command("-k", who, "--bytecount-update"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL) for who in ("alpha", "beta")]
    outputs = [p.communicate(timeout=600)[0].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(outputs)
    tests = baseline(pytester, "test_race")["tests"]
    expected = {f"test_{who}_{name}" for who in ("alpha", "beta")
                for name in ["first", "meets_the_other_process", *(f"then[{n}]" for n in range(12))]}
    assert set(tests) == expected
    assert tests["test_beta_then[11]"]["methods"]["guard.Work#work(I)I"]["total"] == work_total(11)


WRITER = r'''
import json, sys
from pathlib import Path
from pytest_bytecount.regression.baseline import update

path = Path(sys.argv[1])
texts = [json.loads(Path(sys.argv[2]).read_text()), json.loads(Path(sys.argv[3]).read_text())]
print("ready", flush=True)
i, previous = 0, None
while True:
    i += 1
    def change(b, tests=texts[i % 2]):
        b.tests = dict(tests)
        return True
    print("writing", flush=True)
    previous = update(path, change, previous).baseline
'''


def test_a_writer_killed_at_any_moment_leaves_the_old_or_the_new_file(tmp_path):
    """SIGKILL a process rewriting a baseline in a loop, at random moments: the file always parses and
    is exactly one of the two versions; temporary files of killed writers are removed by the next one."""
    from pytest_bytecount.regression.baseline import BaselineFile, update

    def version(tag: str) -> dict:  # about 1 MB of baseline, so that a write takes a while
        entry = {"jvm": "17", "plugin": tag, "methods": {
            f"pkg.C#m{j}()V": {"invocations": j, "total": 7 * j, "opcodes": {f"op{k}": k for k in range(40)}}
            for j in range(6)}}
        return {f"test_{tag}[{i}]": entry for i in range(150)}

    path = tmp_path / "bytecount" / "test_x.json"
    texts = []
    for tag in ("old", "new"):
        source = tmp_path / f"{tag}.json"
        source.write_text(json.dumps(version(tag)))
        b = BaselineFile(tmp_path / tag, version(tag))
        texts.append(b.render().encode())
    update(path, lambda b: b.tests.update(version("old")) or True)
    rng = random.Random(7)
    kills = orphans_seen = 0
    while kills < 20 or not orphans_seen:  # until at least one kill has landed inside a write
        assert kills < 100, "no kill landed inside a write; the test proved nothing"
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(tmp_path / "old.json"),
                                   str(tmp_path / "new.json")], stdout=subprocess.PIPE, env=os.environ)
        assert writer.stdout.readline() == b"ready\n"
        for _ in range(rng.randint(1, 4)):  # let it start a few writes, then kill it at a random moment
            assert writer.stdout.readline() == b"writing\n"
        time.sleep(rng.uniform(0, 0.03))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        kills += 1
        assert path.read_bytes() in texts
        assert BaselineFile.load(path).tests in (version("old"), version("new"))
        orphans_seen += bool(list(path.parent.glob(".test_x.json.*.tmp")))
    update(path, lambda b: False)
    assert sorted(p.name for p in path.parent.iterdir()) == ["test_x.json"]


CRASHING = '''
import pytest

@pytest.mark.bytecount("guard.Work#work")
def test_1_works(bytecount):
    assert bytecount.jclass("guard.Work").work(3) == 3

@pytest.mark.bytecount("guard.Work#boom")
def test_2_throws_a_java_exception(bytecount):
    bytecount.jclass("guard.Work").boom(3)

@pytest.mark.bytecount("guard.Work#work")
def test_3_works(bytecount):
    assert bytecount.jclass("guard.Work").work(4) == 6

@pytest.mark.bytecount("guard.Work#{crash}")
def test_4_kills_the_jvm(bytecount):
    bytecount.jclass("guard.Work").{crash}()

@pytest.mark.bytecount("guard.Work#work")
def test_5_works(bytecount):
    assert bytecount.jclass("guard.Work").work(5) == 10
'''


def test_a_jvm_crash_without_xdist_loses_none_of_the_results_finished_before_it(pytester):
    """Runtime.halt() ends the pytest process inside test_4; what tests 1 to 3 produced is on disk."""
    make_project(pytester, guard_classes(), test_crash=CRASHING.format(crash="halt"))
    result = run(pytester, "--bytecount-update", "--bytecount-json=results.json")
    assert result.ret == 7  # the JVM's halt status: pytest never got to report
    assert sorted(baseline(pytester, "test_crash")["tests"]) == ["test_1_works", "test_3_works"]
    results = json.loads((pytester.path / "results.json").read_text())
    assert {k: v["test_outcome"] for k, v in results.items()} == {
        "test_crash.py::test_1_works": "passed", "test_crash.py::test_2_throws_a_java_exception": "failed",
        "test_crash.py::test_3_works": "passed"}


def test_with_xdist_a_jvm_crash_fails_its_test_and_the_run_goes_on(pytester):
    """A native crash (SIGSEGV in the JVM) under -n 1: xdist reports it against the crashing test and
    restarts the worker; a Java exception fails only its own test; every other result is recorded."""
    make_project(pytester, guard_classes(), test_crash=CRASHING.format(crash="segfault"),
                 extra=f'jvm-options = ["-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile={pytester.path}/hs_err.log"]\n')
    result = run(pytester, "-n", "1", "--bytecount-update", "--bytecount-json=results.json")
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(["*IllegalStateException: boom at 3*",
                                 "*worker 'gw0' crashed while running 'test_crash.py::test_4_kills_the_jvm'*"])
    tests = baseline(pytester, "test_crash")["tests"]
    assert sorted(tests) == ["test_1_works", "test_3_works", "test_5_works"]
    assert tests["test_5_works"]["methods"]["guard.Work#work(I)I"]["total"] == work_total(5)
    results = json.loads((pytester.path / "results.json").read_text())
    # the crashed test too, as an error: every test pytest reported has a status
    assert sorted(results) == ["test_crash.py::test_1_works", "test_crash.py::test_2_throws_a_java_exception",
                               "test_crash.py::test_3_works", "test_crash.py::test_4_kills_the_jvm",
                               "test_crash.py::test_5_works"]
    assert results["test_crash.py::test_4_kills_the_jvm"]["status"] == "error"
    assert (pytester.path / "hs_err.log").is_file()
