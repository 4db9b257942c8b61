"""Reading a Code attribute (JVMS §4.7.3) into the label model: offsets become :class:`Label` objects.

The package installs :func:`decode_code` as the model's decoder (``model.CODE_DECODER``), so that
``Method.code`` decodes on demand without the model importing this layer above it.
"""

from __future__ import annotations

import struct

from . import opcodes as op
from .access import ACC_STATIC
from .code import Code
from .errors import ClassFormatError, CodeFormatError
from .instructions import (Handler, Insn, Label, LineNumbers, LocalVariables, StackMapTable, Switch,
                           TypeAnnotations)
from .frames import initial_locals
from .model import Attribute
from .stack_map import decode_stack_map
from .type_annotations import decode_type_annotations

_u2 = struct.Struct(">H")
_s2 = struct.Struct(">h")
_u4 = struct.Struct(">I")
_s4 = struct.Struct(">i")
_u2x4 = struct.Struct(">HHHH")
_u2x5 = struct.Struct(">HHHHH")

K = op.KIND


def decode_code(method, attr: Attribute) -> Code:
    """The method's Code attribute ``attr`` as a :class:`Code`; a malformed one raises CodeFormatError."""
    cf = method.owner
    cp = cf.constant_pool
    data = attr.data
    try:
        return _decode(method, attr, cf, cp, data)
    except (IndexError, struct.error) as e:
        raise CodeFormatError(f"{method.where()}: truncated Code attribute ({e})") from None
    except ClassFormatError as e:  # the code, or a constant it refers to
        raise CodeFormatError(f"{method.where()}: {e}") from None


def _decode(method, attr, cf, cp, data) -> Code:
    max_stack, max_locals, code_length = struct.unpack_from(">HHI", data, 0)
    code_start = 8
    code_end = code_start + code_length
    if code_end > len(data):
        raise CodeFormatError("code runs past the Code attribute")
    if code_length == 0:
        raise CodeFormatError("code_length is 0; a method's code cannot be empty (JVMS §4.7.3)")
    code = data[code_start:code_end]
    labels: dict[int, Label] = {}

    def label(off: int) -> Label:
        lab = labels.get(off)
        if lab is None:
            lab = labels[off] = Label()
            lab.offset = off
        return lab

    insns, insn_at = _decode_instructions(code, code_length, label)
    handlers, p = _decode_handlers(data, code_end, label)
    attrs, frame_data, p = _decode_attributes(data, p, cf, cp, label, insn_at)
    if p != len(data):
        raise CodeFormatError("Code attribute has trailing bytes")

    # every label must sit on an instruction boundary or at the very end
    for off in labels:
        if off not in insn_at and off != code_length:
            raise CodeFormatError(f"offset {off} is not the start of an instruction")

    if frame_data is not None:
        initial = initial_locals(cf.name, method.name, method.descriptor, bool(method.access_flags & ACC_STATIC))
        for off, frame in decode_stack_map(frame_data, initial, cp, insn_at):
            if off not in insn_at:
                raise CodeFormatError(f"stack map frame at offset {off}, which is not an instruction")
            label(off).frame = frame

    return Code(method, attr.name_index, max_stack, max_locals, _in_code_order(insns, labels, code_length),
                handlers, attrs)


def _decode_instructions(code: bytes, code_length: int, label) -> tuple[list, dict]:
    """The instructions of ``code`` in order, and each one by its offset (JVMS §6.5 for the operands)."""
    insns = []
    insn_at = {}
    pos = 0
    kind = K
    unpack_s2 = _s2.unpack_from
    unpack_u2 = _u2.unpack_from
    while pos < code_length:
        o = code[pos]
        k = kind[o]
        if k == 0:  # K_NONE
            insn = Insn(o)
            size = 1
        elif k == op.K_CP2:
            insn = Insn(o, unpack_u2(code, pos + 1)[0])
            size = 3
        elif k == op.K_LOCAL:
            insn = Insn(o, code[pos + 1])
            size = 2
        elif k == op.K_BRANCH:
            insn = Insn(o, label(pos + unpack_s2(code, pos + 1)[0]))
            size = 3
        elif k == op.K_BYTE:
            b = code[pos + 1]
            insn = Insn(o, b - 256 if b > 127 else b)
            size = 2
        elif k == op.K_SHORT:
            insn = Insn(o, unpack_s2(code, pos + 1)[0])
            size = 3
        elif k == op.K_CP1:
            insn = Insn(o, code[pos + 1])
            size = 2
        elif k == op.K_IINC:
            c = code[pos + 2]
            insn = Insn(o, (code[pos + 1], c - 256 if c > 127 else c))
            size = 3
        elif k == op.K_INVOKEINTERFACE:
            insn = Insn(o, (unpack_u2(code, pos + 1)[0], code[pos + 3], code[pos + 4]))
            size = 5
        elif k == op.K_INVOKEDYNAMIC:
            insn = Insn(o, (unpack_u2(code, pos + 1)[0], unpack_u2(code, pos + 3)[0]))
            size = 5
        elif k == op.K_BRANCH_W:
            insn = Insn(o, label(pos + _s4.unpack_from(code, pos + 1)[0]))
            size = 5
        elif k == op.K_NEWARRAY:
            atype = code[pos + 1]
            if not 4 <= atype <= 11:  # JVMS §6.5.newarray: T_BOOLEAN (4) .. T_LONG (11)
                raise CodeFormatError(f"newarray with array type {atype} at offset {pos}")
            insn = Insn(o, atype)
            size = 2
        elif k == op.K_MULTIANEWARRAY:
            insn = Insn(o, (unpack_u2(code, pos + 1)[0], code[pos + 3]))
            size = 4
        elif k == op.K_TABLESWITCH or k == op.K_LOOKUPSWITCH:
            insn, size = _decode_switch(code, pos, o, k, label)
        elif k == op.K_WIDE:
            insn, size = _decode_wide(code, pos)
        else:
            raise CodeFormatError(f"invalid opcode {o} at offset {pos}")
        insn.offset = pos
        insns.append(insn)
        insn_at[pos] = insn
        pos += size
    if pos != code_length:
        raise CodeFormatError("last instruction runs past the end of the code")
    return insns, insn_at


def _decode_switch(code: bytes, pos: int, o: int, k: int, label) -> tuple[Insn, int]:
    """tableswitch or lookupswitch at ``pos`` and its size: padding to a multiple of 4, then s4 operands."""
    p = (pos + 4) & ~3
    if any(code[pos + 1:p]):
        raise CodeFormatError(f"non-zero switch padding at offset {pos}")
    default = label(pos + _s4.unpack_from(code, p)[0])
    if k == op.K_TABLESWITCH:
        low, high = struct.unpack_from(">ii", code, p + 4)
        n = high - low + 1
        if n < 0 or n > 65536:
            raise CodeFormatError(f"tableswitch at {pos} with low {low} > high {high}")
        offs = struct.unpack_from(f">{n}i", code, p + 12)
        return Insn(o, Switch(default, [label(pos + d) for d in offs], low, high)), p + 12 + 4 * n - pos
    n = _s4.unpack_from(code, p + 4)[0]
    if n < 0 or n > 65536:
        raise CodeFormatError(f"lookupswitch at {pos} with {n} pairs")
    pairs = struct.unpack_from(f">{2 * n}i", code, p + 8)
    return Insn(o, Switch(default, [label(pos + d) for d in pairs[1::2]], keys=list(pairs[0::2]))), p + 8 + 8 * n - pos


def _decode_wide(code: bytes, pos: int) -> tuple[Insn, int]:
    """The instruction a ``wide`` prefix at ``pos`` widens (JVMS §6.5.wide), and the size of both."""
    o2 = code[pos + 1]
    k2 = K[o2]
    if k2 == op.K_LOCAL:
        return Insn(o2, _u2.unpack_from(code, pos + 2)[0], True), 4
    if k2 == op.K_IINC:
        return Insn(o2, (_u2.unpack_from(code, pos + 2)[0], _s2.unpack_from(code, pos + 4)[0]), True), 6
    raise CodeFormatError(f"wide prefix before {op.MNEMONICS[o2]} at offset {pos}")


def _decode_handlers(data: bytes, p: int, label) -> tuple[list, int]:
    """The exception table at ``p``, and the position after it."""
    n = _u2.unpack_from(data, p)[0]
    p += 2
    handlers = []
    for _ in range(n):
        s, e, h, t = _u2x4.unpack_from(data, p)
        p += 8
        handlers.append(Handler(label(s), label(e), label(h), t))
    return handlers, p


def _decode_attributes(data: bytes, p: int, cf, cp, label, insn_at) -> tuple[list, bytes | None, int]:
    """The Code attribute's own attributes at ``p``: those with offsets decoded, the others raw; the
    StackMapTable's bytes (decoded once every label exists); and the position after them."""
    n = _u2.unpack_from(data, p)[0]
    p += 2
    attrs = []
    frame_data = None
    for _ in range(n):
        name_index = _u2.unpack_from(data, p)[0]
        length = _u4.unpack_from(data, p + 2)[0]
        body = data[p + 6:p + 6 + length]
        if len(body) != length:
            raise CodeFormatError("Code sub-attribute runs past the Code attribute")
        p += 6 + length
        name = cp.utf8(name_index)
        if name == "LineNumberTable":
            cnt = _u2.unpack_from(body, 0)[0]
            vals = struct.unpack_from(f">{2 * cnt}H", body, 2)
            if 2 + 4 * cnt != length:
                raise CodeFormatError("LineNumberTable has the wrong length")
            attrs.append(LineNumbers(name_index, [(label(vals[i]), vals[i + 1]) for i in range(0, 2 * cnt, 2)]))
        elif name in ("LocalVariableTable", "LocalVariableTypeTable"):
            cnt = _u2.unpack_from(body, 0)[0]
            if 2 + 10 * cnt != length:
                raise CodeFormatError(f"{name} has the wrong length")
            entries = []
            for i in range(cnt):
                s, ln, ni, di, slot = _u2x5.unpack_from(body, 2 + 10 * i)
                entries.append((label(s), label(s + ln), ni, di, slot))
            attrs.append(LocalVariables(name_index, entries))
        elif name == "StackMapTable" and cf.major_version >= 50:
            if frame_data is not None:
                raise CodeFormatError("more than one StackMapTable")
            frame_data = body
            attrs.append(StackMapTable(name_index))
        elif name in ("RuntimeVisibleTypeAnnotations", "RuntimeInvisibleTypeAnnotations"):
            attrs.append(TypeAnnotations(name_index, decode_type_annotations(body, label, insn_at)))
        else:
            attrs.append(Attribute(name_index, body))
    return attrs, frame_data, p


def _in_code_order(insns: list, labels: dict, code_length: int) -> list:
    """The items list: each label right before the instruction at its offset, one at the end last."""
    if not labels:
        return insns
    items: list = []
    for insn in insns:
        lab = labels.get(insn.offset)
        if lab is not None:
            items.append(lab)
        items.append(insn)
    lab = labels.get(code_length)
    if lab is not None:
        items.append(lab)
    return items
