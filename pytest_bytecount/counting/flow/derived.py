"""Counts the program keeps for us: a counted block inside a loop whose count is the change of one of the
method's own int locals across each visit of the loop, so that nothing is counted on the loop's iterations.

``for (int i = 0; i < n; i++)`` runs its latch block (the one with ``iinc i, 1``) exactly ``i_exit -
i_entry`` times per visit; Monte Carlo's ``under++`` arm runs ``under_exit - under_entry`` times. Where
that is provably exact, the block's counter is a long that the loop's entries save the local for and its
exits add the local's change to, instead of an add on every iteration. A block D and an int local x
derive when all of these hold (each is checked; a block failing any keeps its counter):

1. D writes x only by ``iinc`` instructions whose constants sum to +1 or -1 (the step s).
2. The loop L is the strongly connected component holding D in the flow graph (normal and exception
   edges) restricted to D and the blocks that do not write x; D lies on a cycle of it. So inside L only
   D changes x, and one visit of L (from entering it to leaving it) changes x by s times D's runs.
3. L has one entry, its header T, which is not D: every edge from outside L into L enters T, none of them
   is an exception edge (T is no handler of code outside L), and the method's first block is in L only
   as T (the start of the method then enters L).
4. Every edge out of L is a normal one, taken by a conditional branch, a ``goto`` or falling through:
   no handler outside L catches from inside it, and no ``switch`` leaves it. (Returns and throws are
   never inside a loop: they end a block with no successor, so no cycle holds them.)
5. A guard bounds the visit: T ends with a conditional branch with one target in L and one outside,
   whose staying edge implies ``g < v`` for an int local g that L changes by exactly one
   ``iinc g, +1`` (or ``g > v`` and ``iinc g, -1``), in a block I other than T; a comparison with a
   small constant may also be ``<=`` or ``==`` (``>=`` or ``==``). Every cycle through T passes I, and
   no cycle avoiding T does (T is on no cycle of L without I, I on none of L without T). So between two
   passes of T, g grows by exactly 1, and T lets the loop go on only while g is at most
   ``Integer.MAX_VALUE - 1``: g never wraps, and T stays at most 2**32 - 1 times per visit.
6. D is on no cycle of L without T: it runs at most once between two passes of T, and not before the
   first (T is the entry), so at most 2**32 - 1 times per visit.

By 6 the change of x over a visit, taken modulo 2**32 as an unsigned number (times s), is D's count for
the visit exactly, even when x itself wraps. Where D and x derive, L's entries save x to a local of
our own and L's exits add ``(x - saved) * s`` as an unsigned 32-bit number to D's long counter: on an
edge that falls through, right before the next block; before a ``goto``; after a branch that jumps, in
a trampoline the branch is redirected to (the code then jumps on to the original target).

The cases refused, so counted as before: ``i += 2`` (a step of 2 may wrap past ``Integer.MAX_VALUE``),
``i <= n`` or ``i != n`` against a variable (n may be ``Integer.MAX_VALUE``), loops over ``long``s, a
``continue`` that skips the ``i++``, a loop variable also stored to inside the loop (the loop is then
the part of it that does not store), loops left by a ``switch`` or by an exception that an instruction
on the loop's cycle throws to a handler outside it (a block off the cycle that throws is left to by a
branch, which is fine), loops entered other than through their header, and methods with ``jsr``/``ret``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...classfile import Label
from ...classfile import opcodes as op
from .graph import components, on_cycles

_INT_MAX = 2**31 - 1
_INT_MIN = -(2**31)
_STORES = {**{o: 1 for o in (op.ISTORE, op.FSTORE, op.ASTORE)}, **{o: 2 for o in (op.LSTORE, op.DSTORE)}}
_STORE_N = {op.ISTORE_0: 1, op.FSTORE_0: 1, op.ASTORE_0: 1, op.LSTORE_0: 2, op.DSTORE_0: 2}
_ILOADS = {op.ILOAD_0 + k: k for k in range(4)}
# the jump's condition on (v1, v2), or on (v, 0)
_RELATION = {op.IF_ICMPEQ: "eq", op.IF_ICMPNE: "ne", op.IF_ICMPLT: "lt", op.IF_ICMPGE: "ge", op.IF_ICMPGT: "gt",
             op.IF_ICMPLE: "le", op.IFEQ: "eq", op.IFNE: "ne", op.IFLT: "lt", op.IFGE: "ge", op.IFGT: "gt",
             op.IFLE: "le"}
_NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "gt": "le", "le": "gt"}
_SWAPPED = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
# (values popped, values pushed) of instructions that may compute a compared operand without a side
# effect on locals; a sequence of them is followed backwards from the branch to find where an operand starts
_OPERAND_EFFECT = {
    **dict.fromkeys([op.ILOAD, op.LLOAD, op.FLOAD, op.DLOAD, op.ALOAD, *range(op.ILOAD_0, op.ALOAD_3 + 1),
                     *range(op.ICONST_M1, op.ICONST_5 + 1), op.BIPUSH, op.SIPUSH, op.LDC, op.LDC_W, op.GETSTATIC],
                    (0, 1)),
    **dict.fromkeys([op.GETFIELD, op.ARRAYLENGTH, op.INEG, op.I2B, op.I2C, op.I2S, op.L2I], (1, 1)),
    **dict.fromkeys([op.IALOAD, op.AALOAD, op.BALOAD, op.CALOAD, op.SALOAD, op.IADD, op.ISUB, op.IMUL, op.IDIV,
                     op.IREM, op.IAND, op.IOR, op.IXOR, op.ISHL, op.ISHR, op.IUSHR], (2, 1)),
}


@dataclass(frozen=True)
class Derivation:
    """Block ``block``'s count is the change of int local ``slot`` (``step`` per run) over the visits of
    ``loop``, a set of blocks entered through ``header``: saved on ``entries`` (and at the method's start
    when ``at_start``), added on ``exits``. Edges are (from block, to block)."""

    block: int
    slot: int
    step: int
    loop: frozenset
    header: int
    entries: tuple
    exits: tuple
    at_start: bool


WORK_LIMIT = 200_000  # blocks visited by the analysis per method, past which the remaining blocks keep counters


def derivations(code, blocks, found) -> dict:
    """{block: :class:`Derivation`} for every block whose count derives (the module's rules). Empty when
    the method uses jsr/ret (``found`` None). Each candidate is analysed within the outermost loop holding
    it, so the work grows with the loops' sizes, not the method's; once :data:`WORK_LIMIT` blocks have been
    visited (a huge method with a huge loop), the remaining candidates keep their counters."""
    if found is None:
        return {}
    normal, exceptional = found
    n = len(blocks)
    succs = [{t for t in a | b if t < n} for a, b in zip(normal, exceptional)]
    preds: list = [set() for _ in range(n)]
    for u in range(n):
        for t in succs[u]:
            preds[t].add(u)
    outer = {}  # block on a cycle -> its strongly connected component of the whole graph
    for c in components(succs, range(n)):
        if len(c) > 1 or c[0] in succs[c[0]]:
            for v in c:
                outer[v] = c
    writes = [_writes(b) for b in blocks]
    labels = label_blocks(code, blocks)
    out = {}
    work = 0
    for d in sorted(outer):
        for x, step in _steps(blocks[d]):
            allowed = [b for b in outer[d] if b == d or x not in writes[b]]
            loop = next(frozenset(c) for c in components(succs, allowed) if d in c)
            while loop is not None and (len(loop) > 1 or d in succs[d]):
                work += len(loop)
                if work > WORK_LIMIT:
                    return out
                derivation, header = _derive(d, x, step, loop, blocks, found, succs, preds, writes, labels)
                if derivation is not None:
                    out[d] = derivation
                    break
                # the loop nested in this one that holds d, if any: its header is the next candidate
                loop = None if header is None else next(
                    (frozenset(c) for c in components(succs, loop - {header}) if d in c), None)
            if d in out:
                break
    return out


def _derive(d, x, step, loop, blocks, found, succs, preds, writes, labels) -> tuple:
    """(the derivation of block d from local x over ``loop``, or None; the loop's header, or None when it
    has several entries)."""
    normal, exceptional = found
    n = len(blocks)
    entries, exits = [], []
    placeable = True
    for u in loop:
        for t in normal[u] | exceptional[u]:
            if t not in loop:
                exits.append((u, t))
        for p in preds[u]:
            if p not in loop:
                entries.append((p, u))
    for u, t in entries + exits:
        if t in exceptional[u] or t >= n or edge_places(blocks, labels, u, t) is None:
            placeable = False  # a handler enters or leaves the loop, or a switch (rules 3, 4)
    heads = {t for _, t in entries} | ({0} if 0 in loop else set())
    if len(heads) != 1:
        return None, None
    header, = heads
    if not placeable or header == d or not _guarded(header, loop, blocks, labels, succs, writes):
        return None, header
    if d in on_cycles(succs, loop - {header}):
        return None, header  # rule 6
    return Derivation(d, x, step, loop, header, tuple(sorted(entries)), tuple(sorted(exits)), 0 in loop), header


def _guarded(header, loop, blocks, labels, succs, writes) -> bool:
    """Rule 5: the header's test bounds how often the loop goes on."""
    block = blocks[header]
    branch = block[-1]
    relation = _RELATION.get(branch.opcode)
    if relation is None:
        return False
    jump, fall = labels[id(branch.arg)], header + 1
    if (jump in loop) == (fall in loop):
        return False
    return any(_bounds(g, g_first, constant, relation, jump in loop, header, loop, succs, writes)
               for g, g_first, constant in _compared_locals(block))


def _bounds(g, g_first, constant, relation, jump_stays, header, loop, succs, writes) -> bool:
    """Whether comparing local g (the first operand or not; ``constant``: the other, when known) by
    ``relation`` bounds the loop as rule 5 says."""
    if not g_first:
        relation = _SWAPPED[relation]
    staying = relation if jump_stays else _NEGATED[relation]  # g <staying> the other operand, to go on
    changes = [(b, i) for b in sorted(loop) for i in writes[b].get(g, ())]
    if len(changes) != 1:
        return False
    latch, insn = changes[0]
    if latch == header or insn.opcode != op.IINC or insn.arg[1] not in (1, -1):
        return False
    if insn.arg[1] == 1:
        bounded = staying == "lt" or (staying in ("le", "eq") and constant is not None and constant < _INT_MAX)
    else:
        bounded = staying == "gt" or (staying in ("ge", "eq") and constant is not None and constant > _INT_MIN)
    return (bounded and header not in on_cycles(succs, loop - {latch})
            and latch not in on_cycles(succs, loop - {header}))


def _compared_locals(block) -> list:
    """[(g, whether g is the first operand, the other operand's value when it is a constant)] for a block
    ending with an int comparison of local g's value: ``iload g; if<cond>``, ``...; iload g; if_icmp<cond>``
    or ``iload g; <an operand>; if_icmp<cond>`` (both, when both operands are locals); empty for any other
    shape."""
    branch = block[-1]
    if op.IFEQ <= branch.opcode <= op.IFLE:
        g = _iload(block[-2]) if len(block) >= 2 else None
        return [] if g is None else [(g, True, 0)]
    if len(block) < 3:
        return []
    out = []
    g = _iload(block[-2])
    if g is not None:
        first_start = _operand_start(block, len(block) - 2)
        out.append((g, False, _constant(block[first_start:len(block) - 2]) if first_start is not None else None))
    start = _operand_start(block, len(block) - 1)
    g = _iload(block[start - 1]) if start is not None and start >= 1 else None
    if g is not None:
        out.append((g, True, _constant(block[start:-1])))
    return out


def _operand_start(block, end: int) -> Optional[int]:
    """Where the instructions computing the one value on top of the stack before ``block[end]`` start,
    following known side-effect-free instructions backwards; None past the block's start or an unknown one."""
    need = 1
    k = end
    while need > 0:
        k -= 1
        if k < 0:
            return None
        effect = _OPERAND_EFFECT.get(block[k].opcode)
        if effect is None:
            return None
        need += effect[0] - effect[1]
    return k if need == 0 else None


def _constant(insns) -> Optional[int]:
    if len(insns) != 1:
        return None
    i = insns[0]
    if op.ICONST_M1 <= i.opcode <= op.ICONST_5:
        return i.opcode - op.ICONST_0
    if i.opcode in (op.BIPUSH, op.SIPUSH):
        return i.arg
    return None


def _iload(insn) -> Optional[int]:
    if insn.opcode == op.ILOAD:
        return insn.arg
    return _ILOADS.get(insn.opcode)


def _writes(block) -> dict:
    """{local slot: [instructions writing it]} of one block (a long or double store writes two slots)."""
    out: dict = {}
    for insn in block:
        o = insn.opcode
        if o == op.IINC:
            slots = [insn.arg[0]]
        elif o in _STORES:
            slots = [insn.arg + k for k in range(_STORES[o])]
        elif op.ISTORE_0 <= o <= op.ASTORE_3:
            base = op.ISTORE_0 + (o - op.ISTORE_0) // 4 * 4
            slots = [(o - base) + k for k in range(_STORE_N[base])]
        else:
            continue
        for s in slots:
            out.setdefault(s, []).append(insn)
    return out


def _steps(block) -> list:
    """[(slot, +1 or -1)]: the locals the block writes only by ``iinc``, by constants summing to +-1."""
    out = []
    for slot, insns in sorted(_writes(block).items()):
        if all(i.opcode == op.IINC and i.arg[0] == slot for i in insns):
            total = sum(i.arg[1] for i in insns)
            if total in (1, -1):
                out.append((slot, total))
    return out


def label_blocks(code, blocks) -> dict:
    """{id(label): index of the block starting at the instruction after it} (branch targets start blocks;
    a label before no block's first instruction is left out)."""
    first = {id(b[0]): i for i, b in enumerate(blocks)}
    out: dict = {}
    pending: list = []
    for item in code.items:
        if type(item) is Label:
            pending.append(item)
            continue
        if id(item) in first:
            out.update((id(lab), first[id(item)]) for lab in pending)
        pending = []
    return out


def edge_places(blocks, labels, u: int, t: int) -> Optional[list]:
    """How code can run on the edge from block u to block t alone: ``"fall"`` (before t, for code falling
    into it), ``"goto"`` (before u's goto) or ``"jump"`` (a trampoline for u's branch), one or both of
    the last two for a branch whose jump and fall-through both reach t; None when u leaves by a switch."""
    last = blocks[u][-1]
    k = op.KIND[last.opcode]
    if k in (op.K_TABLESWITCH, op.K_LOOKUPSWITCH):
        return None
    if last.opcode in (op.GOTO, op.GOTO_W):
        return ["goto"]
    places = []
    if k in (op.K_BRANCH, op.K_BRANCH_W) and labels[id(last.arg)] == t:
        places.append("jump")
    if u + 1 == t and last.opcode not in op.RETURNS and last.opcode != op.ATHROW:
        places.append("fall")
    return places or None
