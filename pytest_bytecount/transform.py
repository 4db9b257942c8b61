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
    """One method's counters: index ``base`` counts invocations, then one per opcode, then per call."""

    method: MethodId
    base: int
    opcodes: list  # mnemonics, in counter order
    calls: list  # call signatures, in counter order
    code_sha256: str = ""

    @property
    def size(self) -> int:
        return 1 + len(self.opcodes) + len(self.calls)

    def opcode_indexes(self) -> dict:
        return {k: self.base + 1 + i for i, k in enumerate(self.opcodes)}

    def call_indexes(self) -> dict:
        first = self.base + 1 + len(self.opcodes)
        return {k: first + i for i, k in enumerate(self.calls)}

    def opcode_range(self) -> tuple[int, int]:
        return self.base + 1, self.base + 1 + len(self.opcodes)


@dataclass
class Batch:
    """Counter indexes handed out to every method instrumented together (one Counters class)."""

    maps: list = field(default_factory=list)
    size: int = 0
    arities: set = field(default_factory=set)

    def allocate(self, method: MethodId, opcodes: list, calls: list, code_sha256: str) -> CounterMap:
        cmap = CounterMap(method, self.size, opcodes, calls, code_sha256)
        self.size += cmap.size
        self.maps.append(cmap)
        return cmap


def call_key(insn: Insn, cp) -> str:
    """``owner/Name.name(desc)ret`` for invokes, ``indy name(desc)ret`` for invokedynamic."""
    if insn.opcode == op.INVOKEDYNAMIC:
        _, name, desc = cp.dynamic_ref(insn.arg[0])
        return f"indy {name}{desc}"
    index = insn.arg[0] if insn.opcode == op.INVOKEINTERFACE else insn.arg
    owner, name, desc = cp.member_ref(index)
    return f"{owner}.{name}{desc}"


def instrument_method(method, batch: Batch) -> CounterMap:
    import hashlib

    cf = method.owner
    cp = cf.constant_pool
    _, raw = method.find_attribute("Code")
    digest = hashlib.sha256(raw.data if hasattr(raw, "data") else b"").hexdigest()
    code = method.code
    insns = code.instructions
    opcodes = sorted({i.mnemonic for i in insns})
    calls = sorted({call_key(i, cp) for i in insns if i.opcode in INVOKES})
    cmap = batch.allocate(MethodId(cf.name, method.name, method.descriptor), opcodes, calls, digest)

    op_slot = {k: code.add_local(INTEGER) for k in opcodes}
    call_slot = {k: code.add_local(INTEGER) for k in calls}

    # the report before each return: add(first, 1, c0, ..., cN) in chunks of at most 250 values
    values = [None] + [op_slot[k] for k in opcodes] + [call_slot[k] for k in calls]

    def report() -> list:
        out = []
        for start in range(0, len(values), MAX_VALUES_PER_CALL):
            chunk = values[start:start + MAX_VALUES_PER_CALL]
            out.append(push_int(cp, cmap.base + start))
            out += [Insn(op.ICONST_1) if slot is None else Insn(op.ILOAD, slot) for slot in chunk]
            out.append(Insn(op.INVOKESTATIC, cp.add_methodref(RUNTIME_CLASS, "add", add_descriptor(len(chunk)))))
            batch.arities.add(len(chunk))
        return out

    edits = []
    for insn in insns:
        inserted = [Insn(op.IINC, (op_slot[insn.mnemonic], 1))]
        if insn.opcode in INVOKES:
            inserted.append(Insn(op.IINC, (call_slot[call_key(insn, cp)], 1)))
        if insn.opcode in op.RETURNS:
            inserted += report()
        edits.append((insn, inserted, True))
    code.insert_many(edits)
    init = []
    for slot in list(op_slot.values()) + list(call_slot.values()):
        init += [Insn(op.ICONST_0), Insn(op.ISTORE, slot)]
    # zero the counters before everything, and keep jumps to the first instruction (a loop head) after it
    code.insert_before(code.instructions[0], init, jumps_run_inserted=False)
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
    for m in cf.methods:
        if not m.has_code() or (wanted is not None and (m.name, m.descriptor) not in wanted):
            continue
        index, original = m.find_attribute("Code")
        saved = (batch.size, len(batch.maps), set(batch.arities))
        cmap = instrument_method(m, batch)
        try:
            m.attributes[index] = m.code.encode()
        except CodeTooLargeError as e:
            m.attributes[index] = original
            batch.size, batch.maps[saved[1]:], batch.arities = saved[0], [], saved[2]
            refused.append(str(e))
            continue
        maps.append(cmap)
    return InstrumentedClass(cf.name, cf.to_bytes(), maps, refused)
