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

from .classfile import ClassFile, CodeTooLargeError, Insn
from .classfile import opcodes as op
from .classfile.assemble import push_int
from .classfile.frames import INTEGER
from .runtime_class import MAX_VALUES_PER_CALL, RUNTIME_CLASS, add_descriptor
from .targets import MethodId

INVOKES = frozenset((op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE, op.INVOKEDYNAMIC))


@dataclass
class CounterMap:
    """One method's counters. Index ``base`` counts invocations; then, per strategy:

    - ``instruction``: one counter per opcode (``opcodes``), then one per call signature (``calls``);
    - ``block``: one counter per basic block; ``blocks[i]`` holds block i's static opcode and call counts,
      and the per-opcode totals are sums of block counts times those.
    """

    method: MethodId
    base: int
    opcodes: list  # mnemonics present, sorted
    calls: list  # call signatures present, sorted
    code_sha256: str = ""
    blocks: Optional[list] = None  # [(Counter of opcodes, Counter of calls)] for the block strategy

    @property
    def size(self) -> int:
        if self.blocks is not None:
            return 1 + len(self.blocks)
        return 1 + len(self.opcodes) + len(self.calls)

    def opcode_indexes(self) -> dict:
        return {k: self.base + 1 + i for i, k in enumerate(self.opcodes)}

    def call_indexes(self) -> dict:
        first = self.base + 1 + len(self.opcodes)
        return {k: first + i for i, k in enumerate(self.calls)}

    def opcode_range(self) -> tuple[int, int]:
        return self.base + 1, self.base + 1 + len(self.opcodes)

    def weights(self, key: str, kind: str) -> list:
        """Block strategy: [(block counter index, how often the block holds ``key``)]."""
        which = 0 if kind == "opcode" else 1
        return [(self.base + 1 + i, b[which][key]) for i, b in enumerate(self.blocks) if key in b[which]]

    def block_sizes(self) -> list:
        return [(self.base + 1 + i, sum(b[0].values())) for i, b in enumerate(self.blocks)]

    def derive(self, values) -> tuple[dict, dict]:
        """(opcode counts, call counts) from this method's raw counter values."""
        if self.blocks is None:
            return ({k: values[i] for k, i in self.opcode_indexes().items()},
                    {k: values[i] for k, i in self.call_indexes().items()})
        opcodes: dict = {}
        calls: dict = {}
        for i, (ops, cs) in enumerate(self.blocks):
            n = values[self.base + 1 + i]
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

    def allocate(self, method: MethodId, opcodes: list, calls: list, code_sha256: str, blocks=None) -> CounterMap:
        cmap = CounterMap(method, self.size, opcodes, calls, code_sha256, blocks)
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
    if blocks is not None and len(blocks) > MAX_BLOCKS:
        blocks = None  # a huge method: fewer counters per instruction kind than per block
    if blocks is not None:
        contents = [(Counter(i.mnemonic for i in b), Counter(call_key(i, cp, keys) for i in b if i.opcode in INVOKES))
                    for b in blocks]
        cmap = batch.allocate(MethodId(cf.name, method.name, method.descriptor), opcodes, calls, digest, contents)
        slots = code.add_locals([INTEGER] * len(blocks))
        for b, slot in zip(blocks, slots):
            edits[id(b[0])].append(Insn(op.IINC, (slot, 1)))
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

    # the report before each return: add(first, 1, c0, ..., cN) in chunks of at most 250 values
    values = [None] + slots

    def report() -> list:
        out = []
        for start in range(0, len(values), MAX_VALUES_PER_CALL):
            chunk = values[start:start + MAX_VALUES_PER_CALL]
            out.append(push_int(cp, cmap.base + start))
            out += [Insn(op.ICONST_1) if slot is None else Insn(op.ILOAD, slot) for slot in chunk]
            out.append(Insn(op.INVOKESTATIC, cp.add_methodref(RUNTIME_CLASS, "add", add_descriptor(len(chunk)))))
            batch.arities.add(len(chunk))
        return out

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
        cmap = instrument_method(m, batch, call_keys)
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
