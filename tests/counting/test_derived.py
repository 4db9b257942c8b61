"""Derived counts (pytest_bytecount/counting/derived.py): which loops run free of counting code.

Exactness is the oracle's to judge (tests/counting/test_exact.py runs counting.Derived and every other
counting fixture on every build, JVM and strategy); these tests check the other half of the promise, that
the loops the rules admit really lose their counters and the loops built to break them keep theirs. Which
loops are which is read off the rules by hand, per method of fixtures-java/counting/Derived.java, and the
instrumented code is searched for counter writes on a cycle by a flow walk of the test's own, over single
instructions (not the instrumenter's basic blocks).
"""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile import ClassFile, Insn
from pytest_bytecount.classfile import opcodes as op
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.instrument import instrument

# Every loop in these obeys the rules: a `<` (or `>`, or `<=` a constant) test at the head on a local
# stepped by exactly one iinc of 1 or -1, entered only through the head, left only by branches, gotos and
# falling through; every other counter the loop needs sits in a block that bumps a local by 1 once per pass.
FREE = ["sumTo", "inside", "swapped", "netSteps", "breakNested", "nearMax", "decrementing", "countdown",
        "twoInARow", "triangle"]
# Each of these holds a loop the rules refuse, and the loop needs a counter of its own:
KEPT = {
    "writtenElsewhere": "the loop variable is stored to and bumped twice inside the loop",
    "caughtAround": "a handler outside the loop catches from inside it",
    "overLongs": "a long loop variable: no int guard",
    "stepTwo": "a step of 2 may wrap",
    "leaving": "a switch leaves both loops",
    "continues": "the while loop's continue skips its j++",
    "bounds": "`<=` and `!=` against a variable admit Integer.MAX_VALUE",
    "bottomTested": "the do-while's test is not at its head",
    "caughtInside": "two instructions may throw to the handler inside the loop: which one did is counted",
}


def _successors(items: list) -> dict:
    """Per instruction (by id), the instructions control may go to next: fall-through, branch and switch
    targets, and the handlers covering it."""
    insns = [i for i in items if type(i) is Insn]
    at_label: dict = {}
    pending: list = []
    for item in items:
        if type(item) is Insn:
            for lab in pending:
                at_label[id(lab)] = item
            pending = []
        else:
            pending.append(item)
    succ: dict = {id(i): [] for i in insns}
    for k, insn in enumerate(insns):
        kind = op.KIND[insn.opcode]
        if kind in (op.K_BRANCH, op.K_BRANCH_W):
            succ[id(insn)].append(at_label[id(insn.arg)])
        elif kind in (op.K_TABLESWITCH, op.K_LOOKUPSWITCH):
            succ[id(insn)] += [at_label[id(lab)] for lab in insn.arg.labels()]
        if insn.opcode not in op.UNCONDITIONAL and insn.opcode not in op.RETURNS and insn.opcode != op.ATHROW \
                and k + 1 < len(insns):
            succ[id(insn)].append(insns[k + 1])
    return succ


def _handlers(code, insns: list, succ: dict) -> None:
    position = {id(item): p for p, item in enumerate(code.items)}
    first_after: dict = {}  # per label, the instruction after it
    nxt = None
    for item in reversed(code.items):
        if type(item) is Insn:
            nxt = item
        first_after[id(item)] = nxt
    for h in code.handlers:
        for insn in insns:
            if position[id(h.start)] <= position[id(insn)] < position[id(h.end)]:
                succ[id(insn)].append(first_after[id(h.handler)])


def _writes_alone_on_a_cycle(method, first_added: int, alone: bool = True) -> list:
    """The instructions writing a local numbered ``first_added`` or above (the counters' own) that lie on
    a cycle holding no other such write: counting code that runs on every pass of some loop. (Code on a
    loop's way in and out, a save on entering and an add on leaving, shares each cycle with the other.)
    Not ``alone``: those on any cycle."""
    code = method.code
    insns = code.instructions
    succ = _successors(code.items)
    _handlers(code, insns, succ)

    def written(insn):
        o = insn.opcode
        slot = insn.arg[0] if o == op.IINC else insn.arg if o in (op.ISTORE, op.LSTORE) else None
        return slot is not None and slot >= first_added

    writes = [i for i in insns if written(i)]
    others = {id(i) for i in writes} if alone else set()
    out = []
    for insn in writes:
        seen, todo = set(), list(succ[id(insn)])
        while todo:
            nxt = todo.pop()
            if nxt is insn:
                out.append(insn)
                break
            if id(nxt) not in seen and id(nxt) not in others:
                seen.add(id(nxt))
                todo += succ[id(nxt)]
    return out


@pytest.fixture(scope="module")
def derived_class(counting_classes):
    root = counting_classes["javac17"]
    original = ClassFile.parse((root / "counting" / "Derived.class").read_bytes())
    counted = instrument(Classpath([root]), ["counting.Derived"], strategy="block")
    return original, ClassFile.parse(counted.classes["counting/Derived"])


def _method(cf, name):
    found = [m for m in cf.methods if m.name == name]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.parametrize("name", FREE)
def test_loops_the_rules_admit_run_free_of_counting_code(derived_class, name):
    original, counted = derived_class
    before = _method(original, name).code
    assert _writes_alone_on_a_cycle(_method(original, name), 0, alone=False), "the fixture method has no loop"
    assert _writes_alone_on_a_cycle(_method(counted, name), before.max_locals) == []


@pytest.mark.parametrize("name", sorted(KEPT))
def test_loops_the_rules_refuse_keep_a_counter(derived_class, name):
    original, counted = derived_class
    before = _method(original, name).code
    assert _writes_alone_on_a_cycle(_method(counted, name), before.max_locals), KEPT[name]


def test_the_instruction_strategy_counts_every_loop_in_it(derived_class, counting_classes):
    """The per-instruction reference derives nothing: its increments stay in every loop."""
    original, _ = derived_class
    counted = instrument(Classpath([counting_classes["javac17"]]), ["counting.Derived"], strategy="instruction")
    cf = ClassFile.parse(counted.classes["counting/Derived"])
    for name in FREE:
        assert _writes_alone_on_a_cycle(_method(cf, name), _method(original, name).code.max_locals, alone=False), name
