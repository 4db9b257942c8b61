"""Build new class files from scratch with the same instruction and label model used for editing."""

from __future__ import annotations

from typing import Sequence

from . import opcodes as op
from .access import ACC_FINAL, ACC_PUBLIC, ACC_SUPER
from .code import Code, Insn
from .constant_pool import ConstantPool
from .model import ClassFile, Member, Method


def new_class(name: str, super_name: str = "java/lang/Object", interfaces: Sequence[str] = (),
              major_version: int = 49, access: int = ACC_PUBLIC | ACC_FINAL | ACC_SUPER) -> ClassFile:
    cp = ConstantPool()
    return ClassFile(0, major_version, cp, access, cp.add_class(name), cp.add_class(super_name),
                     [cp.add_class(i) for i in interfaces], [], [], [])


def add_field(cf: ClassFile, name: str, descriptor: str, access: int) -> Member:
    cp = cf.constant_pool
    f = Member(access, cp.add_utf8(name), cp.add_utf8(descriptor), [], cf)
    cf.fields.append(f)
    return f


def add_method(cf: ClassFile, name: str, descriptor: str, access: int, items: Sequence) -> Method:
    """A method whose code is ``items`` (Insns and Labels); offsets, max_stack and max_locals are
    computed when the class is written. Without stack map frames, so for class versions below 50."""
    cp = cf.constant_pool
    m = Method(access, cp.add_utf8(name), cp.add_utf8(descriptor), [], cf)
    cf.methods.append(m)
    code = Code(m, cp.add_utf8("Code"), 0, 0, list(items), [], [])
    m.attributes.append(code)
    return m


def push_int(cp: ConstantPool, value: int) -> Insn:
    """The shortest instruction pushing an int constant."""
    if -1 <= value <= 5:
        return Insn(op.ICONST_0 + value)
    if -128 <= value <= 127:
        return Insn(op.BIPUSH, value)
    if -32768 <= value <= 32767:
        return Insn(op.SIPUSH, value)
    return Insn(op.LDC, cp.add_integer(value))
