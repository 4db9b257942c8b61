"""Exits by exception and allocation recording (``abrupt=True``, ``allocations=True``).

- Every counting fixture, every build (javac 17 and 8, ecj 45.3 and 48.0 with jsr/ret), both strategies,
  on HotSpot 17: the normal counts stay exactly the oracle's (tests/support/oracle.py, a JVMTI agent
  sharing no code with the instrumenter), and the counts under ``"abrupt"`` equal the oracle's counts of
  the invocations that ended by an exception, constructors that throw before ``super(...)`` included.
  Running on HotSpot verifies every instrumented class (the handler's frames included).
- Allocations: per method, the objects recorded add up to the executed ``new`` instructions and the
  arrays to ``newarray``/``anewarray``/``multianewarray`` (the oracle's opcode counts); and for
  ``limits.Allocs`` every figure equals what its source says by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.count_jobs import run_jobs
from tests.support.counting_fixtures import BUILD_MAINS, TARGET_CLASSES
from tests.support.javac import compile_java
from tests.support.jdk import jdk17_home
from tests.support.oracle import oracle_counts
from tests.support.paths import FIXTURES_JAVA

LIMITS = FIXTURES_JAVA / "limits"
CASES = [(build, main) for build, mains in BUILD_MAINS.items() for main in mains]


def _run(jobs: list, tmp: Path) -> list:
    return run_jobs(jobs, tmp, str(jdk17_home()))


@pytest.fixture(scope="module")
def ours(counting_classes, tmp_path_factory):
    cache: dict = {}

    def get(build: str, strategy: str) -> dict:
        if (build, strategy) not in cache:
            mains = BUILD_MAINS[build]
            jobs = [{"classpath": [str(counting_classes[build])], "main": m, "strategy": strategy,
                     "targets": [c.replace("/", ".") for c in TARGET_CLASSES[m]], "abrupt": True,
                     "allocations": True} for m in mains]
            cache[(build, strategy)] = dict(zip(mains, _run(jobs, tmp_path_factory.mktemp(f"{build}-{strategy}"))))
        return cache[(build, strategy)]

    return get


@pytest.fixture(scope="module")
def oracle(counting_classes):
    cache: dict = {}

    def get(build: str, main: str):
        if (build, main) not in cache:
            cache[(build, main)] = oracle_counts([counting_classes[build]], TARGET_CLASSES[main], main)
        return cache[(build, main)]

    return get


def _normal(c: dict) -> dict:
    return {k: c[k] for k in ("calls", "invocations", "opcodes", "total")}


@pytest.mark.parametrize("strategy", ["block", "instruction"])
@pytest.mark.parametrize("build,main", CASES, ids=[f"{b}-{m.rsplit('.', 1)[1]}" for b, m in CASES])
def test_abrupt_exits_are_tallied_apart_and_exactly(ours, oracle, build, main, strategy):
    got = ours(build, strategy)[main]
    assert "error" not in got, got
    expected = oracle(build, main)
    assert {k: _normal(v) for k, v in got.items() if v["invocations"]} == {k: dict(v) for k, v in expected.items()}
    abrupt = {k: v["abrupt"] for k, v in got.items() if v["abrupt"]["invocations"]}
    assert abrupt == expected.abrupt_counts
    for method, c in got.items():
        a = c["allocations"]
        news = sum(c["opcodes"].get(o, 0) for o in ("newarray", "anewarray", "multianewarray"))
        assert sum(a["objects"].values()) == c["opcodes"].get("new", 0), method
        assert sum(a["arrays"].values()) == news, method


def test_some_fixture_really_exits_by_exception(oracle):
    """The test above is not vacuous: the oracle sees abrupt exits, constructors among them."""
    seen = {m for build, main in CASES if build == "javac17" for m in oracle(build, main).abrupt}
    assert any("#<init>" in m for m in seen) and len(seen) >= 5, seen


@pytest.mark.parametrize("strategy", ["block", "instruction"])
def test_allocations_equal_what_the_source_says(tmp_path, strategy):
    classes = compile_java(LIMITS, release="17", options=["-g"])
    (result,) = _run([{"classpath": [str(classes)], "main": "limits.Allocs", "targets": ["limits.Allocs#make"],
                       "strategy": strategy, "allocations": True}], tmp_path)
    make = result["limits.Allocs#make(I)I"]
    assert make["invocations"] == 3
    assert make["allocations"] == {
        "arrays": {"[I": 3, "[Ljava/lang/String;": 3, "[[I": 3},
        "elements": {"[I": 15, "[Ljava/lang/String;": 30, "[[I": 15},
        "objects": {"java/lang/StringBuilder": 3, "limits/Allocs$Cell": 15},
    }
