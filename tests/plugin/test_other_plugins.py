"""Beside the pytest plugins and the habits people already have, each run for real in a child pytest.

pytest-repeat (``--count=N``, ``@pytest.mark.repeat(N)``) runs a test N times under ids such as ``[10-2-3]``: every
run is the same test, compared with and recorded to its one baseline entry, and an update never deletes the entries
of tests that still run. Every command the plugin prints runs as printed from the folder pytest was started in.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

from tests.support.pytest_project import java_project, run
from tests.support.session_reads import summary_of as summary

SOURCES = {
    "rp/Calc.java": """
package rp;

public class Calc {
    public static int twice(int x) {
        return x + x;
    }
}
""",
    # the first call fills a static table that later calls reuse: runs that share a loader count otherwise
    "rp/Table.java": """
package rp;

public class Table {
    private static int[] squares;

    public static int square(int x) {
        if (squares == null) {
            squares = new int[64];
            for (int i = 0; i < squares.length; i++) {
                squares[i] = i * i;
            }
        }
        return squares[x];
    }
}
""",
}

TESTS = '''
import pytest

@pytest.mark.bytecount("rp.Calc#twice")
@pytest.mark.parametrize("x", [3, 10])
def test_twice(bytecount, x):
    assert bytecount.jclass("rp.Calc").twice(x) == 2 * x

@pytest.mark.bytecount("rp.Calc#twice")
def test_once(bytecount):
    assert bytecount.jclass("rp.Calc").twice(1) == 2

class TestGrouped:
    @pytest.mark.bytecount("rp.Calc")
    def test_in_class(self, bytecount):
        assert bytecount.jclass("rp.Calc").twice(2) == 4
'''

KEYS = ["TestGrouped::test_in_class", "test_once", "test_twice[10]", "test_twice[3]"]


def project(pytester, tests: str = TESTS):
    return java_project(pytester, SOURCES, {"test_rep": tests})


def baseline(pytester) -> dict:
    return json.loads((pytester.path / "bytecount" / "test_rep.json").read_text())


def test_repeated_runs_compare_with_the_one_entry_and_an_update_keeps_every_entry(pytester):
    project(pytester)
    run(pytester, "--bytecount-update").assert_outcomes(passed=4)
    recorded = (pytester.path / "bytecount" / "test_rep.json").read_bytes()
    assert sorted(baseline(pytester)["tests"]) == KEYS

    repeated = run(pytester, "--count=3")
    repeated.assert_outcomes(passed=12)
    assert summary(repeated)[0] == "12 passed"  # nothing new, nothing stale

    update = run(pytester, "--count=3", "--bytecount-update")
    update.assert_outcomes(passed=12)
    assert not [line for line in summary(update) if "stale" in line or "no such test" in line], summary(update)
    assert (pytester.path / "bytecount" / "test_rep.json").read_bytes() == recorded  # not one entry lost or added

    run(pytester).assert_outcomes(passed=4)


def test_an_update_from_scratch_under_repeats_records_each_test_once_under_its_own_key(pytester):
    project(pytester)
    update = run(pytester, "--count=2", "--bytecount-update")
    update.assert_outcomes(passed=8)
    assert summary(update)[0] == "8 recorded"
    assert sorted(baseline(pytester)["tests"]) == KEYS
    run(pytester).assert_outcomes(passed=4)


def test_the_repeat_marker_shares_the_entry_and_a_regression_is_listed_once_with_a_command_that_runs(pytester):
    marked = TESTS.replace('@pytest.mark.bytecount("rp.Calc#twice")\ndef test_once',
                           '@pytest.mark.repeat(3)\n@pytest.mark.bytecount("rp.Calc#twice")\ndef test_once')
    project(pytester, marked)
    run(pytester, "-p", "no:repeat", "--bytecount-update").assert_outcomes(passed=4)  # without it: one run each
    assert sorted(baseline(pytester)["tests"]) == KEYS
    calc = pytester.path / "src" / "rp" / "Calc.java"
    calc.write_text(calc.read_text().replace("return x + x;", "int y = x;\n        return y + x;"))

    regressed = run(pytester)
    regressed.assert_outcomes(failed=6)
    lines = summary(regressed)
    assert lines[0] == "6 regressed"
    assert lines[1] == "regressed (4 tests, 6 runs):"
    assert "  test_rep.py::test_once (3 runs)" in lines
    command = next(line for line in lines if line.startswith("  to accept them: "))
    assert command == ("  to accept them: pytest test_rep.py::TestGrouped::test_in_class test_rep.py::test_once "
                       "'test_rep.py::test_twice[10]' 'test_rep.py::test_twice[3]' --bytecount-update")
    # each failure's own accept line names the test as the baseline knows it, not one of its runs
    assert "to accept: pytest test_rep.py::test_once --bytecount-update" in regressed.stdout.str()
    assert "test_once[1-3] --bytecount" not in regressed.stdout.str()

    # the printed command, run as printed, with the repeating plugin still on: every entry re-recorded, none lost
    accepted = run(pytester, "test_rep.py::TestGrouped::test_in_class", "test_rep.py::test_once",
                   "test_rep.py::test_twice[10]", "test_rep.py::test_twice[3]", "--bytecount-update")
    accepted.assert_outcomes(passed=6)
    assert summary(accepted)[0] == "6 recorded"
    assert sorted(baseline(pytester)["tests"]) == KEYS
    run(pytester).assert_outcomes(passed=6)


def test_repetitions_that_count_otherwise_fail_as_nondeterministic_and_record_nothing_of_the_later_run(pytester):
    tests = '''
import pytest

@pytest.mark.bytecount("rp.Table#square", loader_scope="module")
def test_square(bytecount):
    assert bytecount.jclass("rp.Table").square(7) == 49
'''
    project(pytester, tests)
    update = run(pytester, "--count=2", "--bytecount-update")
    update.assert_outcomes(passed=1, failed=1)
    out = update.stdout.str()
    assert ("bytecount: not deterministic: test_rep.py::test_square[2-2] counted otherwise than "
            "test_rep.py::test_square[1-2], an earlier repetition of the same test") in out
    assert re.search(r"rp\.Table#square\(I\)I:\n +earlier +this run +difference\n +total +\d[\d,]* +\d+ +-\d", out), out
    lines = summary(update)
    assert lines[0] == "1 recorded, 1 nondeterministic"
    # the entry holds the first run's counts: the table filled (a loop of 64), which a later run skips
    entry = baseline(pytester)["tests"]["test_square"]["methods"]["rp.Table#square(I)I"]
    assert entry["invocations"] == 1 and entry["total"] > 64 * 5


def test_a_repetition_parameter_a_plugin_adds_first_or_last_leaves_the_key_as_the_baseline_knows_it(pytester):
    """pytest-flakefinder parametrizes first (``__flakefinder_<name>``, ids ``0``, ``1``), pytest-repeat last; a
    parameter the test itself takes, even a private one, stays part of the key."""
    pytester.makeconftest('''
import json
import pytest
from pytest_bytecount.plugin.baseline_keys import baseline_key, command_id

@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc):
    name = "__finder_" + metafunc.function.__name__
    metafunc.fixturenames.append(name)
    metafunc.parametrize(name, [0, 1])

@pytest.fixture
def __own(request):
    return request.param

def pytest_collection_modifyitems(items):
    with open("keys.json", "w") as out:
        json.dump({i.nodeid: [baseline_key(i), command_id(i)] for i in items}, out)
''')
    pytester.makepyfile(test_keys='''
import pytest

@pytest.mark.parametrize("n", [10, 20])
@pytest.mark.parametrize("s", ["a-b"])
def test_sizes(n, s):
    pass

@pytest.mark.parametrize("__own", ["x"], indirect=True)
def test_own(__own):
    pass

@pytest.mark.parametrize("p, q", [(1, 2)])  # one id for two parameters: placed by their order alone
def test_pair(p, q):
    pass
''')
    run(pytester, "--count=2", "--collect-only", "-q").stdout.fnmatch_lines(["*16 tests collected*"])
    keys = json.loads((pytester.path / "keys.json").read_text())
    assert keys["test_keys.py::test_sizes[0-a-b-10-2-2]"] == ["test_sizes[a-b-10]", "test_keys.py::test_sizes[a-b-10]"]
    assert keys["test_keys.py::test_own[1-x-1-2]"][0] == "test_own[x]"
    assert keys["test_keys.py::test_pair[1-1-2-2-2]"][0] == "test_pair[1-2]"
    assert {k for k, _ in keys.values()} == {"test_sizes[a-b-10]", "test_sizes[a-b-20]", "test_own[x]", "test_pair[1-2]"}


def test_every_printed_command_runs_as_printed_from_the_subfolder_pytest_was_started_in(pytester):
    """pytest's own lines name files relative to where the user stands; so do the commands the plugin prints (record,
    accept), and each runs there as printed."""
    java_project(pytester, SOURCES, {})
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_rep.py").write_text(TESTS)
    sub = pytester.path / "tests"

    def in_sub(*args):
        done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=sub,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        return done.returncode, done.stdout

    code, out = in_sub("test_rep.py")
    assert code == 1
    records = re.findall(r"^Record it with: (pytest .*)$", out, re.M)
    assert "pytest test_rep.py::TestGrouped::test_in_class --bytecount-update" in records, out
    assert "pytest 'test_rep.py::test_twice[3]' --bytecount-update" in records, out
    group = next(line.strip() for line in out.splitlines() if line.strip().startswith("to record them: "))
    code, out = in_sub(*shlex.split(group.split(": ", 1)[1])[1:])  # as printed, less the word pytest
    assert code == 0, out
    assert (sub / "bytecount" / "test_rep.json").is_file()

    calc = pytester.path / "src" / "rp" / "Calc.java"
    calc.write_text(calc.read_text().replace("return x + x;", "int y = x;\n        return y + x;"))
    code, out = in_sub("test_rep.py::test_once")
    assert code == 1
    accept = re.search(r"^to accept: (pytest .*)$", out, re.M)[1]
    assert accept == "pytest test_rep.py::test_once --bytecount-update", out
    code, out = in_sub(*shlex.split(accept)[1:])
    assert code == 0, out


DYING = '''
import jpype
import pytest

@pytest.mark.bytecount("rp.Calc#twice")
def test_fine(bytecount):
    assert bytecount.jclass("rp.Calc").twice(1) == 2

@pytest.mark.bytecount("rp.Calc#twice")
def test_halts(bytecount):
    bytecount.jclass("rp.Calc").twice(1)
    jpype.JClass("java.lang.Runtime").getRuntime().halt(3)  # the worker's process ends here
'''


def test_a_test_whose_xdist_worker_died_has_a_status_everywhere_and_nothing_recorded(pytester):
    project(pytester, DYING)
    result = run(pytester, "-n", "2", "--bytecount-update", "--bytecount-json=results.json", "--junitxml=j.xml")
    result.assert_outcomes(passed=1, failed=1)
    lines = summary(result)
    assert lines[0] == "1 recorded, 1 error"
    assert lines[1:3] == ["error: the process running them died, so their counts were never read, nothing recorded "
                          "for them (1):", "  test_rep.py::test_halts"]
    results = json.loads((pytester.path / "results.json").read_text())
    assert results["test_rep.py::test_halts"]["status"] == "error"
    assert "crashed while running 'test_rep.py::test_halts'" in results["test_rep.py::test_halts"]["message"]
    assert sorted(baseline(pytester)["tests"]) == ["test_fine"]


def test_a_parametrized_test_repeated_by_its_marker_is_accepted_by_the_ids_that_select_it(pytester):
    marked = TESTS.replace('@pytest.mark.bytecount("rp.Calc#twice")\n@pytest.mark.parametrize',
                           '@pytest.mark.repeat(2)\n@pytest.mark.bytecount("rp.Calc#twice")\n@pytest.mark.parametrize')
    project(pytester, marked)
    run(pytester, "--bytecount-update").assert_outcomes(passed=6)
    assert sorted(baseline(pytester)["tests"]) == KEYS
    calc = pytester.path / "src" / "rp" / "Calc.java"
    calc.write_text(calc.read_text().replace("return x + x;", "int y = x;\n        return y + x;"))
    regressed = run(pytester, "-k", "twice")
    regressed.assert_outcomes(failed=4, deselected=2)
    command = next(line.strip() for line in summary(regressed) if line.strip().startswith("to accept them: "))
    accepted = run(pytester, *shlex.split(command.split(": ", 1)[1])[1:])  # as printed, less the word pytest
    accepted.assert_outcomes(passed=4)
    run(pytester, "-k", "twice").assert_outcomes(passed=4, deselected=2)
    assert sorted(baseline(pytester)["tests"]) == KEYS


HYPOTHESIS_TESTS = '''
import pytest
from hypothesis import given, strategies as st


@pytest.mark.bytecount("rp.Calc#twice")
@given(st.integers(0, 1000))
def test_twice_any(bytecount, x):
    assert bytecount.jclass("rp.Calc").twice(x) == 2 * x


@given(st.integers(0, 1000))
def test_unmarked(x):
    assert x >= 0


@pytest.mark.bytecount("rp.Calc#twice")
@pytest.mark.parametrize("x", [0, 1000])
def test_twice_fixed(bytecount, x):
    assert bytecount.jclass("rp.Calc").twice(x) == 2 * x
'''


def test_a_marked_hypothesis_test_is_refused_before_it_runs_with_what_to_do_and_nothing_recorded(pytester):
    java_project(pytester, SOURCES, {"test_hyp": HYPOTHESIS_TESTS})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=3, errors=1)
    out = result.stdout.str()
    (line,) = [x for x in out.splitlines() if x.startswith("bytecount: bad use of the marker")]
    assert "test_hyp.py::test_twice_any is a Hypothesis @given test: its counts would sum every example" in line
    assert "count fixed inputs instead: a plain test with @pytest.mark.parametrize" in line
    assert "Traceback" not in out and "FailedHealthCheck" not in out  # refused before Hypothesis runs it
    stored = json.loads((pytester.path / "bytecount" / "test_hyp.json").read_text())
    assert sorted(stored["tests"]) == ["test_twice_fixed[0]", "test_twice_fixed[1000]"]


RERUN_TESTS = '''
import os
import pytest

FLAG = os.path.join(os.path.dirname(__file__), "attempted")


@pytest.mark.bytecount("rp.Calc#twice")
def test_flaky(bytecount):
    calc = bytecount.jclass("rp.Calc")
    first = not os.path.exists(FLAG)
    open(FLAG, "w").close()
    for x in range(3 if first else 2):  # the first attempt counts one call more, then fails
        calc.twice(x)
    assert not first
'''


def test_a_rerun_replaces_the_junit_properties_and_notes_an_attempt_that_counted_otherwise(pytester):
    import xml.etree.ElementTree as ET

    java_project(pytester, SOURCES, {"test_rerun": RERUN_TESTS})
    result = run(pytester, "-p", "rerunfailures", "--reruns=1", "--bytecount-update", "--junitxml=j.xml",
                 "--bytecount-json=results.json")
    assert result.parseoutcomes() == {"passed": 1, "rerun": 1}
    first, last = ET.parse(pytester.path / "j.xml").getroot().iter("testcase")  # one per attempt
    for case, invocations, verdict in ((first, "3", "failed"), (last, "2", "new")):
        props = [(p.get("name"), p.get("value")) for p in case.iter("property")]
        names = [n for n, _ in props]
        assert len(names) == len(set(names)), props  # each attempt's own, never piled up
        got = dict(props)
        assert got["bytecount rp.Calc#twice(I)I invocations"] == invocations
        assert (got["bytecount verdict"], got["bytecount figure"]) == (verdict, "total")
        assert got["bytecount now"] == got["bytecount rp.Calc#twice(I)I total"]
    assert "bytecount note" not in dict((p.get("name"), p.get("value")) for p in first.iter("property"))
    assert got["bytecount note"].startswith("an earlier attempt of this test (a rerun) counted otherwise")
    (r,) = json.loads((pytester.path / "results.json").read_text()).values()
    assert any(h.startswith("an earlier attempt of this test (a rerun) counted otherwise") for h in r["hints"])
    # judged against the baseline it recorded: the figure's baseline too
    (pytester.path / "attempted").unlink()
    assert run(pytester, "-p", "rerunfailures", "--reruns=1", "--junitxml=j.xml").parseoutcomes() == {"passed": 1,
                                                                                                  "rerun": 1}
    *_, case = ET.parse(pytester.path / "j.xml").getroot().iter("testcase")
    got = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert got["bytecount verdict"] == "passed" and got["bytecount baseline"] == got["bytecount now"]


TIMED_OUT = '''
import jpype
import pytest

@pytest.mark.bytecount("rp.Calc#twice")
def test_fine(bytecount):
    assert bytecount.jclass("rp.Calc").twice(1) == 2

@pytest.mark.timeout(2, method="thread")
@pytest.mark.bytecount("rp.Calc#twice")
def test_slow(bytecount):
    bytecount.jclass("rp.Calc").twice(1)
    jpype.JClass("java.lang.Thread").sleep(60_000)  # a long Java call: the thread method kills the process
'''


def test_a_test_pytest_timeouts_thread_method_kills_has_a_status_and_nothing_recorded(pytester):
    project(pytester, TIMED_OUT)
    result = run(pytester, "-n", "2", "-p", "timeout", "--bytecount-update", "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=1)
    assert summary(result)[0] == "1 recorded, 1 error"
    results = json.loads((pytester.path / "results.json").read_text())
    assert results["test_rep.py::test_slow"]["status"] == "error"
    assert "the process running the test died" in results["test_rep.py::test_slow"]["message"]
    assert sorted(baseline(pytester)["tests"]) == ["test_fine"]


def test_xdists_modes_write_the_files_of_a_serial_update_and_each_says_every_test_recorded(pytester):
    project(pytester)
    run(pytester, "--bytecount-update").assert_outcomes(passed=4)
    serial = (pytester.path / "bytecount" / "test_rep.json").read_bytes()
    for mode in (["--dist", "each"], ["--dist", "loadscope"], ["--dist", "worksteal"]):
        (pytester.path / "bytecount" / "test_rep.json").unlink()
        update = run(pytester, "-n", "2", *mode, "--bytecount-update", "--bytecount-json=results.json")
        runs = 8 if mode[1] == "each" else 4  # each worker runs every test under --dist each
        update.assert_outcomes(passed=runs)
        assert summary(update)[0] == "4 recorded", (mode, summary(update))
        statuses = {r["status"] for r in json.loads((pytester.path / "results.json").read_text()).values()}
        assert statuses == {"recorded"}, mode
        assert (pytester.path / "bytecount" / "test_rep.json").read_bytes() == serial, mode


def test_pytest_split_groups_in_one_checkout_and_pytest_cov_leave_the_files_of_a_serial_update(pytester):
    project(pytester)
    run(pytester, "--bytecount-update").assert_outcomes(passed=4)
    serial = (pytester.path / "bytecount" / "test_rep.json").read_bytes()
    (pytester.path / "bytecount" / "test_rep.json").unlink()
    ran = 0
    for group in ("1", "2"):
        done = run(pytester, "--splits", "2", "--group", group, "--bytecount-update")
        ran += done.parseoutcomes()["passed"]
        assert not [line for line in summary(done) if "stale" in line], summary(done)  # a group is no full module
    assert ran == 4 and (pytester.path / "bytecount" / "test_rep.json").read_bytes() == serial
    covered = run(pytester, "--cov", "--bytecount-update")
    covered.assert_outcomes(passed=4)
    assert (pytester.path / "bytecount" / "test_rep.json").read_bytes() == serial


SHARED_TABLE = '''
import pytest

@pytest.mark.bytecount("rp.Table#square", loader_scope="module")
def test_fill(bytecount):
    assert bytecount.jclass("rp.Table").square(7) == 49

@pytest.mark.bytecount("rp.Table#square", loader_scope="module")
def test_reuse(bytecount):
    assert bytecount.jclass("rp.Table").square(8) == 64
'''


def randomly(pytester, monkeypatch, seed: int, *args):
    """A child run with pytest-randomly on (the suite keeps it off, see tests/conftest.py) and its seed; returns the
    run and the tests in the order they ran."""
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    done = run(pytester, "-v", "-p", "randomly", "-p", "no:xdist", f"--randomly-seed={seed}", *args)
    assert f"Using --randomly-seed={seed}" in done.stdout.str()
    order = [m.group(1) for m in re.finditer(r"^test_rep\.py::(\S+) (?:PASSED|FAILED)", done.stdout.str(), re.M)]
    return done, order


def test_pytest_randomly_shuffles_tests_of_deep_counts_into_the_files_of_a_serial_update(pytester, monkeypatch):
    java_project(pytester, SOURCES, {"test_rep": TESTS}, pinned=False)  # deep counts, the default
    run(pytester, "--bytecount-update").assert_outcomes(passed=4)
    serial = (pytester.path / "bytecount" / "test_rep.json").read_bytes()
    assert '"deep"' in serial.decode()
    orders = set()
    for seed in (1, 2, 3):
        (pytester.path / "bytecount" / "test_rep.json").unlink()
        update, order = randomly(pytester, monkeypatch, seed, "--bytecount-update")
        update.assert_outcomes(passed=4)
        assert summary(update)[0] == "4 recorded"
        assert (pytester.path / "bytecount" / "test_rep.json").read_bytes() == serial, seed
        checked, _ = randomly(pytester, monkeypatch, seed + 10)
        checked.assert_outcomes(passed=4)
        assert summary(checked)[0] == "4 passed"
        orders.add(tuple(order))
    written = ("test_twice[3]", "test_twice[10]", "test_once", "TestGrouped::test_in_class")
    assert len(orders) > 1 or orders != {written}, orders  # the plugin really ran shuffled


def test_a_shared_loaders_reordering_by_pytest_randomly_names_the_order_as_the_cause(pytester, monkeypatch):
    project(pytester, SHARED_TABLE)
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)  # in the written order: test_fill fills the table
    for seed in range(1, 20):
        done, order = randomly(pytester, monkeypatch, seed)
        if order[0] == "test_reuse":
            break
        done.assert_outcomes(passed=2)  # the written order again: the same counts
    else:
        raise AssertionError("no seed of 1-19 ran test_reuse first")
    # test_reuse now fills the table (a regression), test_fill reuses it (an improvement, which passes)
    done.assert_outcomes(failed=1, passed=1)
    out = done.stdout.str()
    assert "REGRESSED" in out and "improved, the baseline is stale (1)" in out
    assert "a change of the tests' order (pytest-randomly, -k, --lf, xdist) changes what it counts" in out
    assert ("bytecount: 2 tests sharing a class loader (loader_scope) counted other work with the baseline's "
            "bytecode: the tests' order") in out
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=2)  # the usual order: the counts come back
