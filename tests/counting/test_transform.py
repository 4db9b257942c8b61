"""The counting transform changes what a class does by nothing: same members, same flags, same results."""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.flow.graph import basic_blocks, block_successors
from pytest_bytecount.counting.flow.plan import plan_paths
from pytest_bytecount.counting.pipeline.report import write_files

from tests.support.counted import count_classes

from tests.support.engine import exercise, read_class_dir, write_class_dir
from tests.support.verifier import verify_hotspot

NEVER_RETURNS = ["spinForever"]


def _shape(data: bytes) -> dict:
    cf = ClassFile.parse(data)
    cp = cf.constant_pool
    return {
        "class": (cf.access_flags, cf.name, cf.super_name, [cp.class_name(i) for i in cf.interfaces]),
        "fields": [(f.access_flags, f.name, f.descriptor, [(cp.utf8(a.name_index), a.data) for a in f.attributes])
                   for f in cf.fields],
        "methods": [(m.access_flags, m.name, m.descriptor,
                     [(cp.utf8(a.name_index), a.data) for a in m.attributes if cp.utf8(a.name_index) != "Code"])
                    for m in cf.methods],
        "attributes": [(cp.utf8(a.name_index), a.data) for a in cf.attributes],
    }


def test_counted_classes_keep_every_member_flag_and_attribute(engine_classes):
    counted = count_classes(Classpath([engine_classes]), ["engine.**"])
    originals = read_class_dir(engine_classes)
    assert len(counted.classes) > 10
    for c in counted.classes:
        assert c.data != originals[c.name]
        assert _shape(c.data) == _shape(originals[c.name]), c.name
        assert c.counters_name not in originals


@pytest.mark.parametrize("strategy", ["block", "instruction"])
def test_counted_classes_verify_and_compute_the_same_results(engine_classes, tmp_path, strategy):
    counted = count_classes(Classpath([engine_classes]), ["engine.**"], strategy=strategy)
    # 33.5 KB with 22,418 instructions: an increment per instruction cannot fit in 64 KB, one per block can
    expected = ["engine.BigBranches#alreadyWideLoop(I)I"] if strategy == "instruction" else []
    assert [r.split(":")[0] for r in counted.refused] == expected
    files = counted.files
    assert dict(verify_hotspot(files, [engine_classes])) == {}
    out = tmp_path / "counted"
    write_files({f"{name}.class": data for name, data in files.items()}, out)
    write_class_dir({k: v for k, v in read_class_dir(engine_classes).items() if k not in files}, out)
    names = sorted(n for n in read_class_dir(engine_classes) if "$" not in n)
    before = exercise(engine_classes, names, NEVER_RETURNS)
    assert before.count("\n") > 100
    assert exercise(out, names, NEVER_RETURNS) == before


def test_counting_a_big_method_forces_long_branches(counting_classes):
    """counting.BigMethod is exact on every JVM (test_counting_exact); here: its counted code really needed
    goto_w, which javac did not use."""
    root = counting_classes["javac17"]
    original = ClassFile.parse((root / "counting" / "BigMethod.class").read_bytes())
    assert not any(i.opcode == 200 for m in original.methods if m.has_code() for i in m.code.instructions)
    counted = ClassFile.parse(count_classes(Classpath([root]), ["counting.BigMethod"], strategy="instruction")
                              .of("counting/BigMethod").data)
    assert any(i.mnemonic == "goto_w" for m in counted.methods if m.has_code() for i in m.code.instructions)


def test_loop_free_methods_count_one_path_per_invocation_and_the_rest_do_not(counting_classes):
    """Which plan each method gets (their counts are checked against the oracle in test_counting_exact):
    Recursion.fib (`n < 2 ? n : fib(n-1) + fib(n-2)`: two paths, no loop) adds one counter per
    invocation, selected by a path number; ManyReturns.classify (a switch) and scan (a loop) do not."""
    root = counting_classes["javac17"]
    result = count_classes(Classpath([root]), ["counting.Recursion#fib"]).of("counting/Recursion")
    fib = result.maps[0]
    assert fib.counters == 2 and sorted(fib.invocation_expr) == [(0, 1), (1, 1)]
    counted = ClassFile.parse(result.data)
    counters = result.counters_name  # its own Counters class
    code = next(m for m in counted.methods if m.name == "fib").code.instructions
    reports = [i for i in code if i.mnemonic == "invokestatic"
               and counted.constant_pool.member_ref(i.arg)[0] == counters]
    returns = [i for i in code if i.mnemonic == "ireturn"]
    assert [counted.constant_pool.member_ref(i.arg)[2] for i in reports] == ["(II)V"] * len(returns)  # add(first + path, 1)
    # ... for threads other than the owner: the owner adds into Counters.OWNED inline, at each return
    owner_tests = [i for i in code if i.mnemonic == "getstatic"
                   and counted.constant_pool.member_ref(i.arg)[:2] == (counters, "OWNER")]
    assert len(owner_tests) == len(returns)
    original = ClassFile.parse((root / "counting" / "ManyReturns.class").read_bytes())
    for name in ("classify", "scan"):  # a switch; a loop
        code = next(m for m in original.methods if m.name == name).code
        blocks = basic_blocks(code)
        assert plan_paths(code, blocks, block_successors(code, blocks)) is None


def test_blocks_on_cycles_match_a_brute_force_search():
    """blocks_in_cycles (which per-instruction counters need a long beside them) against reachability:
    a block is on a cycle exactly when it can reach itself."""
    import random

    from pytest_bytecount.counting.flow.graph import blocks_in_cycles

    rng = random.Random(7)
    for _ in range(3000):
        n = rng.randint(1, 12)
        normal = [set(rng.sample(range(n + 1), min(n + 1, rng.randint(0, 3)))) for _ in range(n)]  # n: the exit
        handlers = [set(rng.sample(range(n), 1)) if rng.random() < 0.2 else set() for _ in range(n)]
        expected = set()
        for v in range(n):
            seen, todo = set(), [v]
            while todo:
                for w in normal[todo[-1]] | handlers[todo.pop()]:
                    if w < n and w not in seen:
                        seen.add(w)
                        todo.append(w)
            if v in seen:
                expected.add(v)
        assert blocks_in_cycles((normal, handlers), n) == expected


@pytest.mark.parametrize("source", ["commons-lang3", "guava"])
def test_the_one_block_plan_is_the_spanning_trees(source):
    """A method of one block that returns skips the spanning tree; its plan must be the tree's own, for every
    such method of a real library (and the tree itself still runs for every other method)."""
    from tests.support.corpus import CorpusUnavailable, corpus_source, iter_classes

    from pytest_bytecount.counting.flow.plan import plan_block_counters, spanning_tree_plan

    try:
        classes = iter_classes(corpus_source(source))
    except CorpusUnavailable as e:
        pytest.skip(str(e))
    one_block = shapes = 0
    for _, data in classes:
        for m in ClassFile.parse(data).methods:
            code = m.code
            if code is None:
                continue
            blocks = basic_blocks(code)
            found = block_successors(code, blocks)
            if found is None:
                continue
            fast = plan_block_counters(code, blocks, found)
            assert fast == spanning_tree_plan(blocks, found), m.where()
            if len(blocks) == 1:
                one_block += 1
                shapes |= 1 << len(found[0][0] | found[1][0])
    assert one_block > 1000 and shapes == 0b11  # one-block methods that return (1 successor), and that only throw (0)


@pytest.mark.parametrize("source, share", [("commons-lang3", 1), ("guava", 3)])
def test_the_stack_bound_of_the_inline_reports_is_the_walk_s_max_stack(source, share, monkeypatch):
    """Where the inline owner reports are all the code added that pushes, ``max_stack`` is the declared one or the
    deepest return's stack plus the report's own depth, without a walk over the edited code. Every class of a real
    library comes out the same byte for byte as with the walk, and the bound is taken for most methods."""
    from tests.support.corpus import CorpusUnavailable, corpus_source, iter_classes

    from pytest_bytecount.classfile import encode
    from pytest_bytecount.counting.instr import emit
    from pytest_bytecount.counting.pipeline import transform
    from pytest_bytecount.counting.pipeline.transform import CounterIndexes, instrument_class

    try:
        classes = [data for k, (_, data) in enumerate(iter_classes(corpus_source(source))) if k % share == 0]
    except CorpusUnavailable as e:
        pytest.skip(str(e))
    bounded = []

    def emitting(plan, runtime=emit.RUNTIME_CLASS):
        arities = emit.emit(plan, runtime)
        bounded.append(plan.code.stack_bounded)
        return arities

    monkeypatch.setattr(transform, "emit", emitting)
    with_bound = [instrument_class(data, None, CounterIndexes("block")).data for data in classes]
    limits = encode._limits

    def walked(code, *args):
        code.stack_bounded = False
        return limits(code, *args)

    monkeypatch.setattr(encode, "_limits", walked)
    without = [instrument_class(data, None, CounterIndexes("block")).data for data in classes]
    assert len(classes) > 300 and with_bound == without
    assert sum(bounded) > len(bounded) / 2, (sum(bounded), len(bounded))


@pytest.mark.parametrize("source, share", [("commons-lang3", 1), ("guava", 4)])
def test_report_frames_known_at_marking_are_those_the_walk_finds(source, share, monkeypatch):
    """The labels of the report before a return take the type state the plan found there (a StateFrame) instead
    of a walk over the edited code at encoding (COMPUTE_FRAME). Every class of a real library comes out the same
    byte for byte either way: flat (paths, blocks, abrupt and allocations), and flat with deep code after it."""
    from tests.support.corpus import CorpusUnavailable, corpus_source, iter_classes

    from pytest_bytecount.classfile.code import COMPUTE_FRAME
    from pytest_bytecount.counting.instr import emit
    from pytest_bytecount.counting.instr.deep import MethodNumbers
    from pytest_bytecount.counting.pipeline.transform import CounterIndexes, instrument_class

    try:
        classes = [data for k, (_, data) in enumerate(iter_classes(corpus_source(source))) if k % share == 0]
    except CorpusUnavailable as e:
        pytest.skip(str(e))
    batches = [lambda: CounterIndexes("block"), lambda: CounterIndexes("block", abrupt=True, allocations=True),
               lambda: CounterIndexes("block", deep=(MethodNumbers(), frozenset()))]

    def counted(data: bytes, batch) -> bytes:
        try:
            return instrument_class(data, None, batch()).data
        except Exception as e:  # noqa: BLE001 - the same failure either way is the same outcome
            return repr(e).encode()

    known = [[counted(data, b) for b in batches] for data in classes]
    monkeypatch.setattr(emit, "StateFrame", lambda state: COMPUTE_FRAME)
    walked = [[counted(data, b) for b in batches] for data in classes]
    assert len(classes) > 300 and known == walked
