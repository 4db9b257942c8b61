"""Derived counts (pytest_bytecount/counting/derived.py): which loops run free of counting code.

Exactness is the oracle's to judge (tests/counting/test_exact.py runs counting.Derived and every other
counting fixture on every build, JVM and strategy); these tests check the other half of the promise, that
the innermost loops the rules admit really lose their counters and the loops built to break them keep
theirs. Which loops are which is read off the rules by hand, per method of
fixtures-java/counting/Derived.java, and the instrumented code's innermost loops are found by a flow walk
of the test's own, over single instructions (not the instrumenter's basic blocks). Counting code on the
way into and out of an inner loop runs once per pass of the loop around it, and is allowed there.
(``doAroundWhile`` is in neither list: its do-while and inner loop share a head, so which one is innermost
is a matter of definition; the oracle checks its counts like the others'.)
"""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile import ClassFile, Insn
from pytest_bytecount.classfile import opcodes as op
from pytest_bytecount.classfile.classpath import Classpath

from tests.support.counted import count_classes

# Every loop in these obeys the rules: a `<` (or `>`, or `<=` a constant) test at the head on a local
# stepped by exactly one iinc of 1 or -1, entered only through the head, left only by branches, gotos and
# falling through; every other counter the loop needs sits in a block that bumps a local by 1 once per pass.
FREE = ["sumTo", "inside", "swapped", "netSteps", "breakNested", "nearMax", "decrementing", "countdown",
        "twoInARow", "triangle", "eitherWay", "caughtAround"]
# Each of these holds a loop the rules refuse, and the loop needs a counter of its own:
KEPT = {
    "writtenElsewhere": "the loop variable is stored to and bumped twice inside the loop",
    "divideAround": "a handler outside the loop catches an instruction on its cycle",
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


def _sccs(nodes: list, succ: dict) -> list:
    """Strongly connected components (Kosaraju, iteratively) of the graph ``succ`` restricted to ``nodes``
    (instructions, keyed by id)."""
    inside = {id(v) for v in nodes}
    order, seen = [], set()
    for root in nodes:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack = [(root, iter(succ[id(root)]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if id(w) in inside and id(w) not in seen:
                    seen.add(id(w))
                    stack.append((w, iter(succ[id(w)])))
                    break
            else:
                order.append(v)
                stack.pop()
    pred: dict = {id(v): [] for v in nodes}
    for v in nodes:
        for w in succ[id(v)]:
            if id(w) in inside:
                pred[id(w)].append(v)
    out, assigned = [], set()
    for root in reversed(order):
        if id(root) in assigned:
            continue
        component, todo = [], [root]
        assigned.add(id(root))
        while todo:
            v = todo.pop()
            component.append(v)
            for w in pred[id(v)]:
                if id(w) not in assigned:
                    assigned.add(id(w))
                    todo.append(w)
        out.append(component)
    return out


def _innermost_loops(method) -> list:
    """The innermost loops of the code, as lists of instructions: cyclic components that hold no cycle once
    their entries (instructions reached from outside them, or the first) are taken out."""
    code = method.code
    insns = code.instructions
    succ = _successors(code.items)
    _handlers(code, insns, succ)
    loops, todo = [], [insns]
    while todo:
        for c in _sccs(todo.pop(), succ):
            ids = {id(v) for v in c}
            if len(c) == 1 and c[0] not in succ[id(c[0])]:
                continue
            entries = {id(w) for v in insns if id(v) not in ids for w in succ[id(v)] if id(w) in ids}
            entries.add(id(insns[0])) if id(insns[0]) in ids else None
            rest = [v for v in c if id(v) not in entries]
            if any(len(d) > 1 or d[0] in succ[id(d[0])] for d in _sccs(rest, succ)):
                todo.append(rest)
            else:
                loops.append(c)
    return loops


def _counting_in_innermost_loops(method, first_added: int) -> list:
    """The instructions of the innermost loops that write a local numbered ``first_added`` or above (the
    counters' own): counting code that runs on every pass of a loop holding no other."""
    def written(insn):
        o = insn.opcode
        slot = insn.arg[0] if o == op.IINC else insn.arg if o in (op.ISTORE, op.LSTORE) else None
        return slot is not None and slot >= first_added

    return [i for loop in _innermost_loops(method) for i in loop if written(i)]


@pytest.fixture(scope="module")
def derived_class(counting_classes):
    root = counting_classes["javac17"]
    original = ClassFile.parse((root / "counting" / "Derived.class").read_bytes())
    counted = count_classes(Classpath([root]), ["counting.Derived"], strategy="block")
    return original, ClassFile.parse(counted.of("counting/Derived").data)


def _method(cf, name):
    found = [m for m in cf.methods if m.name == name]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.parametrize("name", FREE)
def test_loops_the_rules_admit_run_free_of_counting_code(derived_class, name):
    original, counted = derived_class
    before = _method(original, name).code
    assert _counting_in_innermost_loops(_method(original, name), 0), "the fixture method has no loop"
    assert _counting_in_innermost_loops(_method(counted, name), before.max_locals) == []


@pytest.mark.parametrize("name", sorted(KEPT))
def test_loops_the_rules_refuse_keep_a_counter(derived_class, name):
    original, counted = derived_class
    before = _method(original, name).code
    assert _counting_in_innermost_loops(_method(counted, name), before.max_locals), KEPT[name]


def test_the_instruction_strategy_counts_every_loop_in_it(derived_class, counting_classes):
    """The per-instruction reference derives nothing: its increments stay in every loop."""
    original, _ = derived_class
    counted = count_classes(Classpath([counting_classes["javac17"]]), ["counting.Derived"], strategy="instruction")
    cf = ClassFile.parse(counted.of("counting/Derived").data)
    for name in FREE:
        assert _counting_in_innermost_loops(_method(cf, name), _method(original, name).code.max_locals), name
