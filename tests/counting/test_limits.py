"""Counts stay exact at the limits: past 2**32 executions in one invocation, and under 16 threads.

Expected counts come from the JVMTI oracle (tests/support/oracle.py, no code shared with the
instrumenter) on small runs, scaled by what the fixture guarantees by construction:
- ``limits.Spin#spin(n)`` runs the same instructions on every extra iteration, so its counts are
  c(2) + (n - 2) * (c(3) - c(2)); ours are measured at n = 2**32 + 5 in ONE invocation, where an int
  counter would have wrapped;
- ``limits.Sweep#sweep(from)`` runs the same instructions on every two extra passes of its int loop, so
  its counts are c(1) + (k - 1) * (c(2) - c(1)) for k pass pairs; ours are measured at 2**31 - 1 pairs
  (2**32 - 2 passes), where the per-block strategy reads the loop's counts from its own int locals;
- ``limits.Hammer`` runs ``step`` with the same argument sequence on every thread, so 16 threads count
  16 times what one thread counts.
Ours run on HotSpot 17 through tests/support/count_worker.py (the public layers), both strategies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.counting.flow.method_plan import plan_method

from tests.support.count_jobs import WORKER
from tests.support.javac import compile_java
from tests.support.jdk import jdk17_home
from tests.support.oracle import oracle_counts
from tests.support.paths import FIXTURES_JAVA

FIXTURES = FIXTURES_JAVA / "limits"
BIG = 2 ** 32 + 5
SPIN = "limits.Spin#spin(J)J"
STEP = "limits.Hammer#step(I)I"
SWEEP = "limits.Sweep#sweep(I)I"
INT_MAX = 2 ** 31 - 1


@pytest.fixture(scope="module")
def limits_classes() -> Path:
    return compile_java(FIXTURES, release="17", options=["-g"])


def _ours(classes: Path, target: str, main: str, args: list, strategy: str, tmp_path: Path) -> dict:
    jobs = {"java_home": str(jdk17_home()), "variant": "server",
            "jobs": [{"classpath": [str(classes)], "targets": [target], "main": main, "args": args,
                      "strategy": strategy}]}
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    run = subprocess.run([sys.executable, str(WORKER), str(tmp_path / "jobs.json"), str(tmp_path / "out.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    (result,) = json.loads((tmp_path / "out.json").read_text())["results"]
    assert "error" not in result, result
    return result


def _oracle(classes: Path, cls: str, args: list, method: str) -> dict:
    counts = oracle_counts([classes], [cls], cls, args)
    return dict(counts)[method]


def _scaled(first: dict, second: dict, steps: int) -> dict:
    """One invocation's counts after ``steps`` steps, from the oracle's after 1 and after 2 (each step runs
    the same instructions): first + (steps - 1) * (second - first)."""
    assert first["invocations"] == second["invocations"] == 1
    opcodes = {k: first["opcodes"].get(k, 0) + (steps - 1) * (n - first["opcodes"].get(k, 0))
               for k, n in second["opcodes"].items()}
    return {"invocations": 1, "opcodes": opcodes, "calls": {}, "total": sum(opcodes.values())}


@pytest.mark.parametrize("strategy", ["block", "instruction"])
def test_counts_stay_exact_past_two_to_the_32_in_one_invocation(limits_classes, tmp_path, strategy):
    c2 = _oracle(limits_classes, "limits.Spin", ["2"], SPIN)
    c3 = _oracle(limits_classes, "limits.Spin", ["3"], SPIN)
    expected = _scaled(c2, c3, BIG - 1)  # step 1 is n = 2
    assert max(expected["opcodes"].values()) > 2 ** 32
    got = _ours(limits_classes, "limits.Spin#spin", "limits.Spin", [str(BIG)], strategy, tmp_path)[SPIN]
    assert {k: got[k] for k in ("invocations", "opcodes", "calls", "total")} == expected


@pytest.mark.parametrize("strategy", ["block", "instruction"])
def test_a_loop_counted_from_its_own_locals_stays_exact_at_two_to_the_32_passes(limits_classes, tmp_path, strategy):
    """The rules of counting/derived.py bound a visit of such a loop to 2**32 - 1 passes; 2**32 - 2 passes
    read as unsigned 32-bit changes of the loop's locals (the latch's count passes 2**31, a local wraps)."""
    cf = ClassFile.parse((limits_classes / "limits" / "Sweep.class").read_bytes())
    method = next(m for m in cf.methods if m.name == "sweep")
    assert len(plan_method(method, "block", False, False, None, None, None).block_plan.derived) >= 2
    c1 = _oracle(limits_classes, "limits.Sweep", [str(INT_MAX - 2)], SWEEP)
    c2 = _oracle(limits_classes, "limits.Sweep", [str(INT_MAX - 4)], SWEEP)
    expected = _scaled(c1, c2, 2 ** 31 - 1)  # pass pairs from -INT_MAX up to INT_MAX
    assert expected["opcodes"]["iinc"] > 2 ** 32
    got = _ours(limits_classes, "limits.Sweep#sweep", "limits.Sweep", [str(-INT_MAX)], strategy, tmp_path)[SWEEP]
    assert {k: got[k] for k in ("invocations", "opcodes", "calls", "total")} == expected


@pytest.mark.parametrize("strategy", ["block", "instruction"])
def test_sixteen_threads_lose_nothing(limits_classes, tmp_path, strategy):
    calls = 200_000
    one = _oracle(limits_classes, "limits.Hammer", ["1", str(calls)], STEP)
    assert one["invocations"] == calls
    got = _ours(limits_classes, "limits.Hammer#step", "limits.Hammer", ["16", str(calls)], strategy, tmp_path)[STEP]
    assert got["invocations"] == 16 * calls
    assert got["opcodes"] == {k: 16 * v for k, v in one["opcodes"].items()}
    assert got["total"] == 16 * one["total"]


@pytest.mark.parametrize("n", [2 ** 27, 2 ** 28], ids=["past-2**31", "past-2**32"])
def test_deep_counts_stay_exact_past_two_to_the_31_and_32_in_one_invocation(limits_classes, tmp_path, n):
    """A method's own instructions in one invocation (deep counts' per-invocation tally) past 2**31 and 2**32:
    spin calls nothing, so its deep total is its flat total, the oracle's scaled count."""
    expected = _scaled(_oracle(limits_classes, "limits.Spin", ["2"], SPIN),
                       _oracle(limits_classes, "limits.Spin", ["3"], SPIN), n - 1)["total"]
    assert 2 ** 31 < expected < 2 ** 33
    command = [sys.executable, "-m", "pytest_bytecount", "count", "--deep", "--no-cache", "-cp", str(limits_classes),
               "--java-home", str(jdk17_home()), "--target", "limits.Spin#spin", "limits.Spin", str(n)]
    env = dict(os.environ, BYTECOUNT_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout)[SPIN]
    assert got["total"] == expected
    assert {k: got["deep"][k] for k in ("windows", "total", "copied", "methods")} == \
        {"windows": 1, "total": expected, "copied": 0, "methods": {SPIN: expected}}
