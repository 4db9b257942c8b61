"""Where one method's counters go, before any code is emitted: which of the three layouts counts it (one
counter per Ball-Larus path, counters on the blocks :mod:`.plan` picks, or one per instruction kind), how
wide the counters are, which exits need a catch-all handler, and the :class:`~.countermap.CounterMap`
saying what each counter stands for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...classfile import CodeFormatError
from ...classfile.inserted_frames import this_uninitialized
from ..counts.countermap import CounterMap
from .derived import derivations, edge_places, label_blocks
from .graph import basic_blocks, block_successors, blocks_in_cycles, loop_depths, loop_heads
from ..counts.keys import (INVOKES, alloc_key, block_contents, block_lines, bootstrap_methods, call_key, code_fingerprint,
                   instruction_lines, line_digests)
from .plan import BlockPlan, PathPlan, every_block, plan_block_counters, plan_paths
from ..targets import MethodId

PATHS, BLOCKS, KEYS = "paths", "blocks", "keys"  # the layouts: per path, per block, per instruction kind
BOOTSTRAP = "bootstrap methods"  # the class's, kept beside the call keys of its constant pool


@dataclass
class MethodPlan:
    """The decisions for one method (the code itself is :mod:`.emit`'s).

    ``wide``: long counters (or, per instruction kind, int increments spilled into longs at loop heads),
    for a loop may run an instruction more than 2**31 times in one invocation. ``abrupt``: tally exits by
    exception; ``catch_all``: a handler over the body (for ``abrupt`` or the inclusive hooks); ``uninit``:
    in a constructor, per instruction whether ``this`` is still uninitialized there."""

    method: object
    layout: str
    cmap: CounterMap
    blocks: list
    heads: Optional[set]
    wide: bool
    abrupt: bool
    catch_all: bool
    uninit: Optional[list]
    hooks: Optional[object]  # an inclusive.MethodHooks
    call_keys: dict
    block_plan: Optional[BlockPlan] = None
    paths: Optional[PathPlan] = None
    looping: frozenset = frozenset()  # per instruction kind, wide: the keys counted in a block on a cycle
    line_counts: Optional[list] = None  # per instruction kind: per block, {source line: instructions}

    @property
    def code(self):
        return self.method.code


def plan_method(method, strategy: str, abrupt: bool, allocations: bool, inclusive, call_keys: Optional[dict],
                max_blocks: Optional[int], lines: bool = True, derive: bool = True) -> MethodPlan:
    """Plan ``method``'s counters. ``inclusive``: an inclusive.InclusivePlan or None; ``max_blocks``: past
    this many counted blocks, count per instruction kind; ``lines``: per instruction kind, a counter per
    source line too (per block, lines cost no counter); ``derive``: per block, take the counts a loop's
    own int locals keep from their change across each visit (:mod:`.derived`)."""
    cf = method.owner
    cp = cf.constant_pool
    code = method.code
    insns = code.instructions
    keys = call_keys if call_keys is not None else {}
    if BOOTSTRAP not in keys:  # per constant pool, as the call keys
        keys[BOOTSTRAP] = bootstrap_methods(cf)
    digest = code_fingerprint(code, cp, keys[BOOTSTRAP], keys)  # before any edit
    hooks = inclusive.hooks(cf, method) if inclusive is not None else None
    # Exits by exception: one handler over the whole body, in constructors one per stretch where ``this``
    # is (un)initialized; the inclusive hooks' exit by exception needs the same catch-all handler.
    uninit = None
    catch_all = abrupt or hooks is not None
    if catch_all and method.name == "<init>" and cf.major_version >= 50:  # older: no frames to write
        uninit = this_uninitialized(code)
        abrupt = abrupt and uninit is not None
        catch_all = uninit is not None
    # Blocks end after every instruction that can throw when the handler covers everything, so that an
    # exception never leaves a block counted in part.
    blocks = basic_blocks(code, precise=abrupt)
    found = block_successors(code, blocks)
    allocs = sorted({k for k in (alloc_key(i, cp) for i in insns) if k}) if allocations else None
    elements = sorted({k[2:] for k in allocs if k.startswith("a:")}) if allocs else []  # lengths: runtime values
    # In a method with a loop one invocation may run an instruction more than 2**31 times. The block
    # strategy then keeps long counters (exact to 2**63). The per-instruction reference keeps its int
    # increments and adds each counter into a long at every loop head: between two loop heads each
    # instruction runs at most once, so an int never holds more than the method's instruction count.
    heads = loop_heads(found, len(blocks))
    wide = heads is not None or bool(elements)
    block_plan = _block_plan(code, cf, blocks, found, abrupt, derive and heads is not None, max_blocks) \
        if strategy == "block" else None
    # A loop-free method with a few paths: one counter per path, one add per invocation (Ball-Larus)
    paths = plan_paths(code, blocks, found) if block_plan is not None and not abrupt and not wide else None
    cmap = CounterMap(MethodId(cf.name, method.name, method.descriptor), 0, sorted({i.mnemonic for i in insns}),
                      sorted({call_key(i, cp, keys) for i in insns if i.opcode in INVOKES}), digest,
                      allocs=allocs, elements=elements)
    plan = MethodPlan(method, KEYS, cmap, blocks, heads, wide, abrupt, catch_all, uninit, hooks, keys)
    at = instruction_lines(code)  # every instruction's source line, for the per-line counts and digests
    if paths is not None:
        plan.layout, plan.paths = PATHS, paths
        cmap.blocks = block_contents(blocks, cp, keys, allocs is not None)
        cmap.block_lines = block_lines(blocks, code, at)
        cmap.block_exprs = [tuple((p, 1) for p in through) for through in paths.block_paths]
        cmap.invocation_expr, cmap.counters = tuple((p, 1) for p in range(paths.paths)), paths.paths
    elif block_plan is not None:
        plan.layout, plan.block_plan = BLOCKS, block_plan
        cmap.blocks = block_contents(blocks, cp, keys, allocs is not None)
        cmap.block_lines = block_lines(blocks, code, at)
        cmap.block_exprs, cmap.invocation_expr = block_plan.block_exprs, block_plan.invocation_expr
        cmap.counters = block_plan.counters + len(elements)
        if abrupt:  # the same counters, after an invocation counter of its own (the constant 1)
            cmap.abrupt = CounterMap(cmap.method, 0, cmap.opcodes, cmap.calls, cmap.code_fingerprint, cmap.blocks,
                                     [tuple((off + 1, c) for off, c in e) for e in block_plan.block_exprs],
                                     ((0, 1),), 1 + cmap.counters, allocs, elements, block_lines=cmap.block_lines)
    else:
        if lines:  # per source line, a counter that each block adds its instructions on that line to
            plan.line_counts = block_lines(blocks, code, at)
            cmap.lines = sorted({k for counts in plan.line_counts for k in counts})
        if wide:  # only counters of keys in a block on a cycle can pass 2**31 in one invocation
            plan.looping = frozenset(k for b in blocks_in_cycles(found, len(blocks)) for i in blocks[b] for k in
                                     (i.mnemonic, call_key(i, cp, keys) if i.opcode in INVOKES else None,
                                      alloc_key(i, cp)))
        if abrupt:
            cmap.abrupt = CounterMap(cmap.method, 0, cmap.opcodes, cmap.calls, digest, allocs=allocs,
                                     elements=elements, lines=cmap.lines)
    if cmap.has_lines:
        cmap.line_digests = line_digests(code, cp, keys, at)
    return plan


def _block_plan(code, cf, blocks, found, abrupt: bool, derive: bool, max_blocks: Optional[int]) -> Optional[BlockPlan]:
    """The counters per block (every block with ``abrupt``), or None past ``max_blocks`` counters. The
    spanning tree leaves as many counters as the flow graph has independent cycles, so where that is
    past ``max_blocks`` nothing is derived either (the layout is dropped anyway)."""
    if abrupt:
        block_plan = every_block(blocks)
    else:
        n = len(blocks)
        few = max_blocks is None or found is None or sum(len(a | b) for a, b in zip(*found)) - n + 1 <= max_blocks
        depth = None if found is None else loop_depths([{t for t in a | b if t < n} for a, b in zip(*found)], n)
        free, exits = _off_loop_counting(code, cf, blocks, found, depth) if derive and few else ({}, frozenset())
        block_plan = plan_block_counters(code, blocks, found, set(free), exits, depth)
        block_plan.derived = {b: free[b] for b in block_plan.counted if b in free}
    if max_blocks is not None and block_plan.counters > max_blocks:
        return None  # a huge method: fewer counters per instruction kind than per block
    return block_plan


def _off_loop_counting(code, cf, blocks, found, depth: Optional[list]) -> tuple:
    """(the blocks whose counts derive from a loop's own locals, :func:`~.derived.derivations`; the edges
    leaving a loop that may carry a counter): counting on a loop's way in and out rather than on its
    passes. Neither when some branch such code would sit behind cannot be simulated, for its trampoline's
    stack map frame (class files with frames only)."""
    if found is None:
        return {}, frozenset()
    normal, exceptional = found
    n = len(blocks)
    labels = label_blocks(code, blocks)
    exits = frozenset((u, t) for u in range(n) for t in normal[u]
                      if t < n and depth[t] < depth[u] and t not in exceptional[u]
                      and edge_places(blocks, labels, u, t) is not None)
    free = derivations(code, blocks, found)
    if cf.major_version >= 50:
        edges = exits.union(*(d.entries + d.exits for d in free.values()))
        jumps = [blocks[u][-1] for u, t in edges if "jump" in edge_places(blocks, labels, u, t)]
        try:
            if jumps:
                code.type_states(jumps)
        except CodeFormatError:
            return {}, frozenset()
    return free, exits
