"""Control flow of one method's code: basic blocks, their successors, loops and the blocks on cycles.

Pure analysis over decoded instructions; where the counters go is decided in :mod:`.plan`."""

from __future__ import annotations

from typing import Optional

from ...classfile import Insn
from ...classfile import opcodes as op


# Instructions that cannot throw (JVMS 6.5): constants, locals, stack shuffles, arithmetic other than
# integer division, conversions, comparisons, branches. Everything else may, so inside a try range it
# ends its basic block: an exception caught in the method then never leaves a block counted in part.
CANNOT_THROW = frozenset(
    [op.NOP, op.ACONST_NULL, *range(op.ICONST_M1, op.SIPUSH + 1), *range(op.ILOAD, op.ALOAD_3 + 1),
     *range(op.ISTORE, op.ASTORE_3 + 1), *range(op.POP, op.SWAP + 1), *range(op.IADD, op.LXOR + 1),
     *range(op.I2L, op.DCMPG + 1), *range(op.IFEQ, op.GOTO + 1), op.GOTO_W, op.IFNULL, op.IFNONNULL, op.IINC]
) - {op.IDIV, op.LDIV, op.IREM, op.LREM}
_ENDS_BLOCK = frozenset([*range(op.IFEQ, op.RETURN + 1), op.ATHROW, op.IFNULL, op.IFNONNULL, op.GOTO_W,
                         op.JSR_W])


def basic_blocks(code, precise: bool = False) -> list[list[Insn]]:
    """Split the code into blocks: one entry (the first instruction), executed all or nothing, except
    for an exception thrown by the last instruction. Leaders: the first instruction, every jump, switch
    and handler target, the instruction after any branch, switch, return, throw, jsr or ret, and the
    instruction after one that can throw inside a try range (anywhere when ``precise``)."""
    targets = set()
    kind = op.KIND
    for insn in code.items:
        if type(insn) is Insn:
            k = kind[insn.opcode]
            if k == op.K_BRANCH or k == op.K_BRANCH_W:
                targets.add(id(insn.arg))
            elif k == op.K_TABLESWITCH or k == op.K_LOOKUPSWITCH:
                targets.update(id(lab) for lab in insn.arg.labels())
    targets.update(id(h.handler) for h in code.handlers)
    starts = {id(h.start) for h in code.handlers}
    ends = {id(h.end) for h in code.handlers}
    # how many try ranges are open at each instruction (ranges may nest or overlap)
    open_ranges = 0
    blocks: list = []
    current: list = []
    leader = True
    for item in code.items:
        if type(item) is not Insn:
            if id(item) in ends:
                open_ranges -= sum(1 for h in code.handlers if h.end is item)
            if id(item) in starts:
                open_ranges += sum(1 for h in code.handlers if h.start is item)
            if id(item) in targets:
                leader = True
            continue
        if leader and current:
            blocks.append(current)
            current = []
        leader = False
        current.append(item)
        if item.opcode in _ENDS_BLOCK or ((precise or open_ranges > 0) and item.opcode not in CANNOT_THROW):
            leader = True
    if current:
        blocks.append(current)
    return blocks


def block_successors(code, blocks) -> Optional[tuple]:
    """(normal, exceptional): per block, the sets of blocks (``len(blocks)`` standing for the method's exit) control can go to
    next within an invocation that completes normally: jump and switch targets, the next block, the exit
    after a return, and the handlers covering a last instruction that can throw. None when the method
    uses jsr/ret (their targets depend on the path)."""
    n = len(blocks)
    exit_ = n
    first = {id(b[0]): i for i, b in enumerate(blocks)}
    label_block: dict = {}
    pending: list = []
    pos: dict = {}
    current = -1
    for p, item in enumerate(code.items):
        pos[id(item)] = p
        if type(item) is Insn:
            if item.opcode in (op.JSR, op.JSR_W, op.RET):
                return None
            current = first.get(id(item), current)
            for lab in pending:
                label_block[id(lab)] = current
            pending = []
        else:
            pending.append(item)
    for lab in pending:  # labels after the last instruction (range ends)
        label_block[id(lab)] = n
    succs = [set() for _ in range(n)]
    handlers = [set() for _ in range(n)]
    for i, b in enumerate(blocks):
        x = b[-1]
        k = op.KIND[x.opcode]
        if k in (op.K_BRANCH, op.K_BRANCH_W):
            succs[i].add(label_block[id(x.arg)])
            if x.opcode not in (op.GOTO, op.GOTO_W):
                succs[i].add(i + 1)
        elif k in (op.K_TABLESWITCH, op.K_LOOKUPSWITCH):
            succs[i].update(label_block[id(lab)] for lab in x.arg.labels())
        elif x.opcode in op.RETURNS:
            succs[i].add(exit_)
        elif x.opcode != op.ATHROW:
            succs[i].add(i + 1)
        if x.opcode not in CANNOT_THROW:
            p = pos[id(x)]
            for h in code.handlers:
                if pos[id(h.start)] <= p < pos[id(h.end)]:
                    handlers[i].add(label_block[id(h.handler)])
    return succs, handlers


def block_likelihood(normal, n: int) -> list:
    """A static guess, per block, of how likely an invocation runs it: the entry for sure, a block on
    every path to a return for sure, otherwise a block splits its likelihood evenly among its normal
    successors along forward edges (reverse postorder; back edges do not feed it). Blocks reached only
    through handlers get 0. Only the order matters."""
    exit_ = n
    order, seen, stack = [], {0}, [(0, iter(sorted(normal[0])))]
    while stack:  # iterative depth-first search, for a postorder
        v, it = stack[-1]
        for t in it:
            if t != exit_ and t not in seen:
                seen.add(t)
                stack.append((t, iter(sorted(normal[t]))))
                break
        else:
            order.append(v)
            stack.pop()
    rpo = order[::-1]
    rank = {v: i for i, v in enumerate(rpo)}
    preds = [[] for _ in range(n + 1)]
    for v in rpo:
        for t in normal[v]:
            preds[t].append(v)
    # the blocks that dominate the exit (iterative dominators over the blocks reached normally)
    full = frozenset(rpo)
    dom = {v: full for v in rpo}
    dom[0] = frozenset((0,))
    dom[exit_] = full
    changed = True
    while changed:
        changed = False
        for v in rpo[1:] + [exit_]:
            ps = [dom[p] for p in preds[v]]
            new = (frozenset.intersection(*ps) if ps else frozenset()) | ({v} if v != exit_ else frozenset())
            if new != dom[v]:
                dom[v], changed = new, True
    sure = dom[exit_] if preds[exit_] else frozenset((0,))
    freq = [0.0] * n
    freq[0] = 1.0
    for v in rpo:
        if v in sure:
            freq[v] = 1.0
        outs = normal[v]
        for t in outs:
            if t != exit_ and rank[t] > rank[v]:
                freq[t] = min(1.0, freq[t] + freq[v] / len(outs))
    return freq


def loop_heads(found, n: int) -> Optional[set]:
    """The blocks some depth-first back edge enters (None when the method has no cycle). Every cycle
    holds a back edge, so a path that enters no such block twice runs every instruction at most once.
    ``found``: the result of :func:`block_successors`; None (jsr/ret) makes every block a head."""
    if found is None:
        return set(range(n))
    succs = [a | b for a, b in zip(*found)]
    heads = set()
    state = [0] * n  # 0 new, 1 on the stack, 2 done
    for root in range(n):
        if state[root]:
            continue
        state[root] = 1
        stack = [(root, iter(sorted(succs[root])))]
        while stack:
            v, it = stack[-1]
            for t in it:
                if t >= n:
                    continue
                if state[t] == 1:
                    heads.add(t)
                elif state[t] == 0:
                    state[t] = 1
                    stack.append((t, iter(sorted(succs[t]))))
                    break
            else:
                state[v] = 2
                stack.pop()
    return heads or None


def blocks_in_cycles(found, n: int) -> set:
    """The blocks on some cycle of the flow graph (strongly connected components with an edge inside);
    every other block runs at most once per invocation. ``found`` as for :func:`loop_heads`."""
    if found is None:
        return set(range(n))
    succs = [{t for t in a | b if t < n} for a, b in zip(*found)]
    return {v for c in components(succs, range(n)) if _cyclic(succs, c) for v in c}


def on_cycles(succs: list, nodes) -> set:
    """The nodes on some cycle of the subgraph ``succs`` induces on ``nodes``."""
    return {v for c in components(succs, nodes) if _cyclic(succs, c) for v in c}


def _cyclic(succs: list, component: list) -> bool:
    return len(component) > 1 or component[0] in succs[component[0]]


def components(succs: list, nodes) -> list:
    """The strongly connected components of the subgraph ``succs`` (per node, a set of successors)
    induces on ``nodes``, by Tarjan's algorithm (iteratively)."""
    inside = set(nodes)
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list = []
    for root in sorted(inside):
        if root in index:
            continue
        work = [(root, iter(sorted(t for t in succs[root] if t in inside)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(t for t in succs[w] if t in inside))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    out.append(sorted(component))
    return out


def loop_depths(succs: list, n: int) -> list:
    """Per block, how many loops hold it: the cyclic strongly connected components, then recursively
    those left inside each once its entries (the blocks entered from outside it, and the method's first
    block) are taken out."""
    if n == 1:  # most methods: a loop only if the block jumps to itself
        return [1 if 0 in succs[0] else 0]
    preds: list = [set() for _ in range(n)]
    for u in range(n):
        for t in succs[u]:
            preds[t].add(u)
    depth = [0] * n
    todo = [list(range(n))]
    while todo:
        for c in components(succs, todo.pop()):
            if not _cyclic(succs, c):
                continue
            inside = set(c)
            for v in c:
                depth[v] += 1
            entries = {v for v in c if v == 0 or preds[v] - inside} or {c[0]}
            todo.append([v for v in c if v not in entries])
    return depth
