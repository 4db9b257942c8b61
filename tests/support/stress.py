"""The stress edit from the engine's acceptance criteria: an ``iinc`` of a fresh int local before every
instruction, the local initialised at method entry. Every method grows and many branches must widen."""

from __future__ import annotations

from pytest_bytecount.classfile import ClassFile, CodeTooLargeError, Insn
from pytest_bytecount.classfile import opcodes as op
from pytest_bytecount.classfile.frames import INTEGER


def stress_method(method, wide: bool = False) -> None:
    """``wide`` writes every inserted ``iinc`` with the 6-byte ``wide`` form, so that methods of real
    libraries (rarely over 10 KB) grow past the 32 KB reach of short branches."""
    code = method.code
    slot = code.add_local(INTEGER)
    insns = code.instructions
    code.insert_many([(insn, [Insn(op.IINC, (slot, 1), wide)], True) for insn in insns])
    # Initialise before everything, and keep jumps to the first instruction (a loop head) after it.
    first = code.instructions[0]
    code.insert_before(first, [Insn(op.ICONST_0), Insn(op.ISTORE, slot)], jumps_run_inserted=False)


def stress_class(data: bytes, wide: bool = False) -> tuple[bytes, list[str]]:
    """The stress-edited class, and the methods left unedited because they would exceed 64 KB."""
    cf = ClassFile.parse(data)
    too_large = []
    for m in cf.methods:
        if not m.has_code():
            continue
        attr_index, original = m.find_attribute("Code")
        stress_method(m, wide)
        try:
            m.attributes[attr_index] = m.code.encode()
        except CodeTooLargeError as e:
            m.attributes[attr_index] = original
            too_large.append(str(e))
    return cf.to_bytes(), too_large
