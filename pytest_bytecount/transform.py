"""The counting transform: ByCounter-style counters in the target methods (the counting contract).

For each target method:
- discovery: the opcodes (by mnemonic, ``wide`` forms under the instruction they modify) and the call
  signatures present in its code;
- one ``int`` local per opcode and per signature, zeroed at entry and declared in every stack map frame;
- an ``iinc`` of the opcode's counter (and of the callee's, for invokes) before every instruction;
- before every ``*return``: ``Counters.add(first, 1, c0, c1, ...)``, adding this invocation's counters
  to the batch-wide totals (see :mod:`.runtime_class`). An invocation that ends by an exception reports
  nothing.

A :class:`CounterMap` tells, for each method, which counter index stands for which opcode or signature.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .classfile import ClassFile, ClassFormatError, CodeFormatError, CodeTooLargeError, Insn
from .classfile import opcodes as op
from .classfile.assemble import push_int
from .classfile.frames import INTEGER
from .runtime_class import MAX_VALUES_PER_CALL, RUNTIME_CLASS, add_descriptor
from .targets import MethodId

INVOKES = frozenset((op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE, op.INVOKEDYNAMIC))


@dataclass
class CounterMap:
    """One method's counters, from index ``base`` on, per strategy:

    - ``instruction``: counter ``base`` counts invocations, then one counter per opcode (``opcodes``), then
      one per call signature (``calls``);
    - ``block``: ``counters`` raw counters. ``blocks[i]`` holds basic block i's static opcode and call
      counts; ``block_exprs[i]`` says how often block i ran, as a sum of raw counters times coefficients
      ``((offset from base, coefficient), ...)`` (flow conservation, see :func:`plan_block_counters`);
      ``invocation_expr`` likewise gives the number of normal completions.
    """

    method: MethodId
    base: int
    opcodes: list  # mnemonics present, sorted
    calls: list  # call signatures present, sorted
    code_sha256: str = ""
    blocks: Optional[list] = None  # [(Counter of opcodes, Counter of calls)] for the block strategy
    block_exprs: Optional[list] = None
    invocation_expr: tuple = ((0, 1),)
    counters: int = 0

    @property
    def size(self) -> int:
        if self.blocks is not None:
            return self.counters
        return 1 + len(self.opcodes) + len(self.calls)

    def opcode_indexes(self) -> dict:
        return {k: self.base + 1 + i for i, k in enumerate(self.opcodes)}

    def call_indexes(self) -> dict:
        first = self.base + 1 + len(self.opcodes)
        return {k: first + i for i, k in enumerate(self.calls)}

    def opcode_range(self) -> tuple[int, int]:
        return self.base + 1, self.base + 1 + len(self.opcodes)

    def _combine(self, per_block) -> list:
        """[(counter index, weight)] for sum over blocks of per_block(i) times block i's count."""
        acc: dict = {}
        for i, expr in enumerate(self.block_exprs):
            w = per_block(i)
            if w:
                for off, coef in expr:
                    acc[off] = acc.get(off, 0) + w * coef
        return [(self.base + off, w) for off, w in sorted(acc.items()) if w]

    def weights(self, key: str, kind: str) -> list:
        """Block strategy: [(counter index, weight)] whose weighted sum is the count of ``key``."""
        which = 0 if kind == "opcode" else 1
        return self._combine(lambda i: self.blocks[i][which].get(key, 0))

    def block_sizes(self) -> list:
        """Block strategy: [(counter index, weight)] whose weighted sum is the total."""
        return self._combine(lambda i: sum(self.blocks[i][0].values()))

    def invocation_weights(self) -> list:
        return [(self.base + off, coef) for off, coef in self.invocation_expr]

    def invocations(self, values) -> int:
        return sum(values[i] * w for i, w in self.invocation_weights())

    def derive(self, values) -> tuple[dict, dict]:
        """(opcode counts, call counts) from this method's raw counter values."""
        if self.blocks is None:
            return ({k: values[i] for k, i in self.opcode_indexes().items()},
                    {k: values[i] for k, i in self.call_indexes().items()})
        opcodes: dict = {}
        calls: dict = {}
        for (ops, cs), expr in zip(self.blocks, self.block_exprs):
            n = sum(values[self.base + off] * coef for off, coef in expr)
            if n:
                for k, w in ops.items():
                    opcodes[k] = opcodes.get(k, 0) + n * w
                for k, w in cs.items():
                    calls[k] = calls.get(k, 0) + n * w
        return opcodes, calls


STRATEGIES = ("instruction", "block")
# Past this many basic blocks a method is counted per instruction kind instead: its counters stay few,
# so the stack map frames that must declare them all stay small.
MAX_BLOCKS = 256


@dataclass
class Batch:
    """Counter indexes handed out to every method instrumented together (one Counters class)."""

    strategy: str = "instruction"
    maps: list = field(default_factory=list)
    size: int = 0
    arities: set = field(default_factory=set)

    def allocate(self, method: MethodId, opcodes: list, calls: list, code_sha256: str, blocks=None,
                 plan=None) -> CounterMap:
        if plan is None:
            cmap = CounterMap(method, self.size, opcodes, calls, code_sha256)
        else:
            cmap = CounterMap(method, self.size, opcodes, calls, code_sha256, blocks, plan.block_exprs,
                              plan.invocation_expr, len(plan.counted))
        self.size += cmap.size
        self.maps.append(cmap)
        return cmap


def call_key(insn: Insn, cp, cache: Optional[dict] = None) -> str:
    """``owner/Name.name(desc)ret`` for invokes, ``indy name(desc)ret`` for invokedynamic. ``cache``: a
    dict kept per constant pool, to decode each referenced signature once."""
    if cache is None:
        return _call_key(insn, cp)
    index = insn.arg[0] if insn.opcode in (op.INVOKEINTERFACE, op.INVOKEDYNAMIC) else insn.arg
    ckey = (insn.opcode == op.INVOKEDYNAMIC, index)
    key = cache.get(ckey)
    if key is None:
        key = cache[ckey] = _call_key(insn, cp)
    return key


def _call_key(insn: Insn, cp) -> str:
    if insn.opcode == op.INVOKEDYNAMIC:
        _, name, desc = cp.dynamic_ref(insn.arg[0])
        return f"indy {name}{desc}"
    index = insn.arg[0] if insn.opcode == op.INVOKEINTERFACE else insn.arg
    owner, name, desc = cp.member_ref(index)
    return f"{owner}.{name}{desc}"


# Instructions that cannot throw (JVMS 6.5): constants, locals, stack shuffles, arithmetic other than
# integer division, conversions, comparisons, branches. Everything else may, so inside a try range it
# ends its basic block: an exception caught in the method then never leaves a block counted in part.
_CANNOT_THROW = frozenset(
    [op.NOP, op.ACONST_NULL, *range(op.ICONST_M1, op.SIPUSH + 1), *range(op.ILOAD, op.ALOAD_3 + 1),
     *range(op.ISTORE, op.ASTORE_3 + 1), *range(op.POP, op.SWAP + 1), *range(op.IADD, op.LXOR + 1),
     *range(op.I2L, op.DCMPG + 1), *range(op.IFEQ, op.GOTO), op.GOTO_W, op.IFNULL, op.IFNONNULL, op.IINC]
) - {op.IDIV, op.LDIV, op.IREM, op.LREM}
_ENDS_BLOCK = frozenset([*range(op.IFEQ, op.RETURN + 1), op.ATHROW, op.IFNULL, op.IFNONNULL, op.GOTO_W,
                         op.JSR_W])


def basic_blocks(code) -> list[list[Insn]]:
    """Split the code into blocks: one entry (the first instruction), executed all or nothing, except
    for an exception thrown by the last instruction. Leaders: the first instruction, every jump, switch
    and handler target, the instruction after any branch, switch, return, throw, jsr or ret, and the
    instruction after one that can throw inside a try range."""
    targets = set()
    for insn in code.instructions:
        k = op.KIND[insn.opcode]
        if k in (op.K_BRANCH, op.K_BRANCH_W):
            targets.add(id(insn.arg))
        elif k in (op.K_TABLESWITCH, op.K_LOOKUPSWITCH):
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
        if item.opcode in _ENDS_BLOCK or (open_ranges > 0 and item.opcode not in _CANNOT_THROW):
            leader = True
    if current:
        blocks.append(current)
    return blocks


@dataclass
class BlockPlan:
    """Which basic blocks carry a counter, and how every block's count follows from those counters."""

    counted: list  # block indexes with a counter, in counter order
    block_exprs: list  # per block: ((counter offset, coefficient), ...)
    invocation_expr: tuple
    entry_once: bool = False  # counter 0 is the entry block, which no jump reaches: it is 1 at every return


def _block_successors(code, blocks) -> Optional[tuple]:
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
        if x.opcode not in _CANNOT_THROW:
            p = pos[id(x)]
            for h in code.handlers:
                if pos[id(h.start)] <= p < pos[id(h.end)]:
                    handlers[i].add(label_block[id(h.handler)])
    return succs, handlers


def _block_likelihood(normal, n: int) -> list:
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


def plan_block_counters(code, blocks) -> BlockPlan:
    """Count as few blocks as flow conservation allows (Knuth's spanning-tree method).

    In an invocation that completes normally, control runs a path from the entry to a return, so each
    block is entered as often as it is left. Split every block b into b_in -> b_out (that edge's count is
    b's count, which a counter in b measures), draw the flow edges b_out -> t_in (to the exit after a
    return, to handlers from a last instruction that can throw) and a virtual edge from the exit back to
    the entry (its count: the invocations). Take a spanning tree holding every flow edge and the virtual
    one, completed with the block edges most likely run (a static guess): the block edges off the tree
    get counters, every other edge follows from the balance at its vertices (peeling leaves). When the
    flow edges alone close a cycle, or the method uses jsr/ret, every block is counted and the
    invocations are the executions of blocks that return.
    """
    n = len(blocks)
    returns = tuple((i, 1) for i, b in enumerate(blocks) if b[-1].opcode in op.RETURNS)
    every = BlockPlan(list(range(n)), [((i, 1),) for i in range(n)], returns)
    found = _block_successors(code, blocks)
    if found is None:
        return every
    normal, exceptional = found
    exit_ = 2 * n
    # vertices: block i's entry i, its exit n + i, the method's exit 2n
    edges = [(exit_, 0)] + [(i, n + i) for i in range(n)]
    for i in range(n):
        for t in sorted(normal[i] | exceptional[i]):
            edges.append((n + i, exit_ if t == n else t))

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

    join(exit_, 0)
    for a, b in edges[n + 1:]:
        if not join(a, b):
            return every
    likely = _block_likelihood(normal, n)
    counted = []
    for i in sorted(range(n), key=lambda i: -likely[i]):
        if not join(i, n + i):
            counted.append(i)
    counted.sort()
    value: dict = {1 + blk: {j: 1} for j, blk in enumerate(counted)}

    incident = [[] for _ in range(2 * n + 1)]  # (edge index, +1 entering the vertex, -1 leaving it)
    for k, (a, b) in enumerate(edges):
        incident[b].append((k, 1))
        incident[a].append((k, -1))
    unknown = [sum(1 for k, _ in inc if k not in value) for inc in incident]
    todo = [v for v in range(2 * n + 1) if unknown[v] == 1]
    while todo:
        v = todo.pop()
        if unknown[v] != 1:
            continue
        (k, sign), = [(k, sg) for k, sg in incident[v] if k not in value]
        acc: dict = {}
        for k2, sg in incident[v]:  # the sum of sign * count over v's edges is 0
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
    if len(value) != len(edges):  # cannot happen on a spanning tree; stay exact regardless
        return every
    exprs = [tuple(sorted(value[1 + i].items())) for i in range(n)]
    entry_once = bool(counted) and counted[0] == 0 and all(0 not in normal[i] | exceptional[i] for i in range(n))
    return BlockPlan(counted, exprs, tuple(sorted(value[0].items())), entry_once)


def instrument_method(method, batch: Batch, call_keys: Optional[dict] = None) -> CounterMap:
    cf = method.owner
    cp = cf.constant_pool
    _, raw = method.find_attribute("Code")
    raw_bytes = raw.encode().data if hasattr(raw, "instructions") else raw.data  # decoded already: re-encode
    digest = hashlib.sha256(raw_bytes).hexdigest()
    code = method.code
    insns = code.instructions
    opcodes = sorted({i.mnemonic for i in insns})
    keys = call_keys if call_keys is not None else {}
    calls = sorted({call_key(i, cp, keys) for i in insns if i.opcode in INVOKES})
    edits: dict = {id(i): [] for i in insns}

    blocks = basic_blocks(code) if batch.strategy == "block" else None
    plan = plan_block_counters(code, blocks) if blocks is not None else None
    if plan is not None and len(plan.counted) > MAX_BLOCKS:
        blocks = plan = None  # a huge method: fewer counters per instruction kind than per block
    if plan is not None:
        contents = [(Counter(i.mnemonic for i in b), Counter(call_key(i, cp, keys) for i in b if i.opcode in INVOKES))
                    for b in blocks]
        cmap = batch.allocate(MethodId(cf.name, method.name, method.descriptor), opcodes, calls, digest, contents,
                              plan)
        counted = plan.counted[1:] if plan.entry_once else plan.counted
        slots = code.add_locals([INTEGER] * len(counted))
        for blk, slot in zip(counted, slots):
            edits[id(blocks[blk][0])].append(Insn(op.IINC, (slot, 1)))
        values = ([None] if plan.entry_once else []) + slots  # None: the constant 1
    else:
        cmap = batch.allocate(MethodId(cf.name, method.name, method.descriptor), opcodes, calls, digest)
        op_slots = code.add_locals([INTEGER] * (len(opcodes) + len(calls)))
        op_slot = dict(zip(opcodes, op_slots))
        call_slot = dict(zip(calls, op_slots[len(opcodes):]))
        slots = [op_slot[k] for k in opcodes] + [call_slot[k] for k in calls]
        for insn in insns:
            edits[id(insn)].append(Insn(op.IINC, (op_slot[insn.mnemonic], 1)))
            if insn.opcode in INVOKES:
                edits[id(insn)].append(Insn(op.IINC, (call_slot[call_key(insn, cp, keys)], 1)))
        values = [None] + slots  # None: the invocation, 1

    # the report before each return: add(first, c0, ..., cN) in chunks of at most 250 values

    def report() -> list:
        out = []
        for start in range(0, len(values), MAX_VALUES_PER_CALL):
            chunk = values[start:start + MAX_VALUES_PER_CALL]
            out.append(push_int(cp, cmap.base + start))
            out += [Insn(op.ICONST_1) if slot is None else Insn(op.ILOAD, slot) for slot in chunk]
            out.append(Insn(op.INVOKESTATIC, cp.add_methodref(RUNTIME_CLASS, "add", add_descriptor(len(chunk)))))
            batch.arities.add(len(chunk))
        return out

    if values:
        for insn in insns:
            if insn.opcode in op.RETURNS:
                edits[id(insn)] += report()
    init = []
    for slot in slots:
        init += [Insn(op.ICONST_0), Insn(op.ISTORE, slot)]
    # zero the counters before everything, and keep jumps to the first instruction (a loop head) after it
    code.insert_many([(insns[0], init, False)] + [(insn, edits[id(insn)], True) for insn in insns if edits[id(insn)]])
    return cmap


@dataclass
class InstrumentedClass:
    name: str
    data: bytes
    maps: list
    refused: list  # messages for methods left uninstrumented (over 64 KB)


def instrument_class(data: bytes, methods: Optional[Iterable[MethodId]], batch: Batch) -> InstrumentedClass:
    """Count ``methods`` of the class in ``data`` (all methods with code when None)."""
    cf = ClassFile.parse(data)
    wanted = None if methods is None else {(m.name, m.descriptor) for m in methods}
    maps, refused = [], []
    call_keys: dict = {}
    for m in cf.methods:
        if not m.has_code() or (wanted is not None and (m.name, m.descriptor) not in wanted):
            continue
        index, original = m.find_attribute("Code")
        saved = (batch.size, len(batch.maps), set(batch.arities))
        try:
            cmap = instrument_method(m, batch, call_keys)
        except CodeFormatError:
            raise  # names the method already
        except ClassFormatError as e:  # a name, descriptor or constant the counters need is broken
            raise CodeFormatError(f"{m.where()}: {e}") from None
        try:
            m.attributes[index] = m.code.encode()
        except CodeTooLargeError as e:
            batch.size, batch.maps[saved[1]:], batch.arities = saved[0], [], saved[2]
            m.attributes[index] = original
            if batch.strategy == "block":  # per instruction kind needs fewer counters: try that
                strategy, batch.strategy = batch.strategy, "instruction"
                try:
                    cmap = instrument_method(m, batch, call_keys)
                    m.attributes[index] = m.code.encode()
                except CodeTooLargeError as e2:
                    batch.size, batch.maps[saved[1]:], batch.arities = saved[0], [], saved[2]
                    m.attributes[index] = original
                    refused.append(str(e2))
                    continue
                finally:
                    batch.strategy = strategy
            else:
                refused.append(str(e))
                continue
        maps.append(cmap)
    return InstrumentedClass(cf.name, cf.to_bytes(), maps, refused)
