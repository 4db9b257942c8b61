"""Where the counters go: a counter per block off a spanning tree (the others derived by flow
conservation), or, for small loop-free methods, one counter per Ball-Larus path."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ...classfile import opcodes as op
from .graph import block_likelihood, block_successors, loop_depths, loop_heads


@dataclass
class BlockPlan:
    """Which basic blocks (and which edges leaving a loop) carry a counter, and how every block's count
    follows from those counters."""

    counted: list  # block indexes with a counter, in counter order
    block_exprs: list  # per block: ((counter offset, coefficient), ...)
    invocation_expr: tuple
    entry_once: bool = False  # counter 0 is the entry block, which no jump reaches: it is 1 at every return
    derived: dict = field(default_factory=dict)  # counted block -> derived.Derivation: counted on its loop's exits
    edges: list = field(default_factory=list)  # (from block, to block) edges leaving a loop, counted after the blocks

    @property
    def counters(self) -> int:
        return len(self.counted) + len(self.edges)


def plan_block_counters(code, blocks, found=..., free=frozenset(), exits=frozenset(), depth=None) -> BlockPlan:
    """Count as few blocks as flow conservation allows (Knuth's spanning-tree method).

    In an invocation that completes normally, control runs a path from the entry to a return, so each
    block is entered as often as it is left. Split every block b into b_in -> b_out (that edge's count is
    b's count, which a counter in b measures), draw the flow edges b_out -> t_in (to the exit after a
    return, to handlers from a last instruction that can throw) and a virtual edge from the exit back to
    the entry (its count: the invocations). Take a spanning tree holding the virtual edge and every flow
    edge but those of ``exits``, completed with the edges run most often (a static guess: the deeper in
    loops, the more often, then by :func:`~.flow.block_likelihood`): the edges off the tree get
    counters, every other edge follows from the balance at its vertices (peeling leaves). When the flow
    edges alone close a cycle, or the method uses jsr/ret, every block is counted and the invocations
    are the executions of blocks that return.

    ``free``: blocks whose count costs nothing in their loop (:mod:`.derived`); they join the tree last,
    so that as many of them as possible are the counted ones; then the entry block when no jump reaches
    it (its counter is the constant 1). ``exits``: flow edges (from block, to block) leaving a loop that
    may carry a counter of their own (run once per visit of the loop, not once per pass). ``depth``: the
    blocks' :func:`~.flow.loop_depths`, when the caller has them.
    """
    if found is ...:
        found = block_successors(code, blocks)
    if found is None:
        return every_block(blocks)
    if len(blocks) == 1 and found[0][0] == {1} and not found[1][0] and not exits:
        # one block that returns (three quarters of the methods of real libraries): what the spanning tree
        # gives, without building it: the block itself is left off, and its counter, the constant 1, counts
        # the invocations too
        return BlockPlan([0], [((0, 1),)], ((0, 1),), True)
    return spanning_tree_plan(blocks, found, free, exits, depth)


def spanning_tree_plan(blocks, found: tuple, free=frozenset(), exits=frozenset(), depth=None) -> BlockPlan:
    """:func:`plan_block_counters` for ``found`` (not None), by building the spanning tree."""
    n = len(blocks)
    every = every_block(blocks)
    normal, exceptional = found
    exit_ = 2 * n
    # vertices: block i's entry i, its exit n + i, the method's exit 2n
    edges = [(exit_, 0)] + [(i, n + i) for i in range(n)]
    flow: dict = {}  # flow edge index -> (from block, to block)
    for i in range(n):
        for t in sorted(normal[i] | exceptional[i]):
            flow[len(edges)] = (i, t)
            edges.append((n + i, exit_ if t == n else t))
    likely = block_likelihood(normal, n)
    if depth is None:
        depth = loop_depths([{t for t in a | b if t < n} for a, b in zip(normal, exceptional)], n)
    heat = {("block", i): (depth[i], likely[i]) for i in range(n)}
    if all(0 not in normal[i] | exceptional[i] for i in range(n)):
        heat[("block", 0)] = (-1,)  # counted if it can be: the entry block's counter is then the constant 1
    heat.update({("block", i): (-2,) for i in free})
    heat.update({("edge", k): (depth[t], likely[t]) for k, (u, t) in flow.items() if (u, t) in exits})
    off = _off_tree(edges, heat, n)
    if off is None:
        return every
    counted = sorted(i for kind, i in off if kind == "block")
    counted_edges = sorted(k for kind, k in off if kind == "edge")
    value = {1 + blk: {j: 1} for j, blk in enumerate(counted)}
    value.update({k: {len(counted) + j: 1} for j, k in enumerate(counted_edges)})
    value = _edge_counts(edges, value, 2 * n + 1)
    if value is None:  # cannot happen on a spanning tree; stay exact regardless
        return every
    exprs = [tuple(sorted(value[1 + i].items())) for i in range(n)]
    entry_once = bool(counted) and counted[0] == 0 and all(0 not in normal[i] | exceptional[i] for i in range(n))
    return BlockPlan(counted, exprs, tuple(sorted(value[0].items())), entry_once,
                     edges=[flow[k] for k in counted_edges])


def _off_tree(edges: list, heat: dict, n: int) -> Optional[list]:
    """The edges left off the spanning tree, as ("block", block) and ("edge", edge index), or None when the
    flow edges that may not be counted (those not in ``heat``) and the virtual one alone close a cycle.
    ``heat``: per countable edge, a key; the hottest join the tree first."""
    parent = list(range(2 * n + 1))

    def find(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    def join(a, b) -> bool:
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
        return True

    join(*edges[0])
    for k in range(n + 1, len(edges)):
        if ("edge", k) not in heat and not join(*edges[k]):
            return None
    order = sorted(heat, key=lambda c: heat[c], reverse=True)  # stable: blocks before edges on a tie
    return [c for c in order if not join(*(edges[1 + c[1]] if c[0] == "block" else edges[c[1]]))]


def _edge_counts(edges: list, value: dict, vertices: int) -> Optional[dict]:
    """Every edge's count as {counter: coefficient}, from the counted edges in ``value``, by peeling
    vertices with one unknown edge (the sum of sign * count over a vertex's edges is 0); None if some
    edge stays unknown."""
    incident = [[] for _ in range(vertices)]  # (edge index, +1 entering the vertex, -1 leaving it)
    for k, (a, b) in enumerate(edges):
        incident[b].append((k, 1))
        incident[a].append((k, -1))
    unknown = [sum(1 for k, _ in inc if k not in value) for inc in incident]
    todo = [v for v in range(vertices) if unknown[v] == 1]
    while todo:
        v = todo.pop()
        if unknown[v] != 1:
            continue
        (k, sign), = [(k, sg) for k, sg in incident[v] if k not in value]
        acc: dict = {}
        for k2, sg in incident[v]:
            if k2 != k:
                for c, coef in value[k2].items():
                    acc[c] = acc.get(c, 0) - sign * sg * coef
        value[k] = {c: w for c, w in acc.items() if w}
        unknown[v] = 0
        a, b = edges[k]
        other = a if b == v else b
        unknown[other] -= 1
        if unknown[other] == 1:
            todo.append(other)
    return value if len(value) == len(edges) else None


def every_block(blocks) -> BlockPlan:
    """Every block counted; the invocations are the executions of blocks that return."""
    n = len(blocks)
    returns = tuple((i, 1) for i, b in enumerate(blocks) if b[-1].opcode in op.RETURNS)
    return BlockPlan(list(range(n)), [((i, 1),) for i in range(n)], returns)


MAX_PATHS = 64  # a loop-free method with at most this many paths counts one path per invocation


@dataclass
class PathPlan:
    """Ball and Larus's path numbering for a loop-free method: a local ``path`` starts at 0, grows by
    ``increments[b]`` on the fall-through edge into block b, and at a return is the number of the path
    the invocation took, in ``range(paths)``. One counter per path; ``block_paths[b]`` lists the paths
    through block b."""

    paths: int
    increments: dict  # block index -> increment on the fall-through edge into it
    block_paths: list


def plan_paths(code, blocks, found, limit: int = MAX_PATHS) -> Optional[PathPlan]:
    """The path plan, or None where it does not apply: loops, exception handlers, switches, jsr/ret,
    a single path (nothing to count) or more than ``limit`` paths.

    Each conditional branch lists its jump target first and its fall-through second, so every nonzero
    increment sits on a fall-through edge: only code that falls through runs it, and no jump needs a
    trampoline (or a new stack map frame)."""
    n = len(blocks)
    if found is None or code.handlers or n < 2:  # one block: one path at most
        return None
    normal, _ = found
    if loop_heads(found, n) is not None:
        return None
    succ: list = []
    for i, b in enumerate(blocks):
        k = op.KIND[b[-1].opcode]
        if k in (op.K_TABLESWITCH, op.K_LOOKUPSWITCH):
            return None
        if k in (op.K_BRANCH, op.K_BRANCH_W) and b[-1].opcode not in (op.GOTO, op.GOTO_W) and len(normal[i]) == 2:
            succ.append([normal[i].difference({i + 1}).pop(), i + 1])  # jump target, then fall-through
        else:
            succ.append(sorted(normal[i]))
    count = [0] * (n + 1)
    count[n] = 1  # the exit: one way on from a return; a block that only throws has none
    done = [False] * n

    def paths_from(v: int) -> int:  # iterative postorder over the acyclic graph
        stack = [v]
        while stack:
            x = stack[-1]
            todo = [w for w in succ[x] if w != n and not done[w]]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            if not done[x]:
                count[x] = sum(count[w] for w in succ[x])
                done[x] = True
        return count[v]

    total = paths_from(0)
    if total < 2 or total > limit:
        return None
    increments: dict = {}
    for i, ws in enumerate(succ):
        if len(ws) == 2 and count[ws[0]]:
            increments[ws[1]] = count[ws[0]]
    # every path to a return (at most ``limit``; branches that only lead to a throw are not followed)
    block_paths: list = [[] for _ in range(n)]
    stack = [(0, 0, (0,))]
    while stack:
        v, number, seen = stack.pop()
        if n in succ[v]:
            for b in seen:
                block_paths[b].append(number)
        for j, w in enumerate(succ[v]):
            if w != n and count[w]:
                step = count[succ[v][0]] if j == 1 and len(succ[v]) == 2 else 0
                stack.append((w, number + step, seen + (w,)))
    return PathPlan(total, increments, [sorted(set(p)) for p in block_paths])
