"""Type annotations on code (JVMS §4.7.20): Runtime[In]VisibleTypeAnnotations of a Code attribute.

Decoded far enough to turn the offsets of their targets into labels and instructions; the rest of each
annotation (type path, annotation) stays raw bytes.
"""

from __future__ import annotations

import struct

from .errors import CodeFormatError

_u2 = struct.Struct(">H")


def _skip_annotation(b: bytes, p: int) -> int:
    """The end of the annotation at ``p`` (JVMS §4.7.16). Nested element values are walked with an explicit
    stack, not recursion: their depth is bounded only by the attribute's length."""
    levels = [[_u2.unpack_from(b, p + 2)[0], True]]  # per open level: values left, each behind a name?
    p += 4
    while levels:
        level = levels[-1]
        if level[0] == 0:
            levels.pop()
            continue
        level[0] -= 1
        if level[1]:
            p += 2  # element_name_index
        tag = chr(b[p])
        p += 1
        if tag in "BCDFIJSZsc":
            p += 2
        elif tag == "e":
            p += 4
        elif tag == "@":
            levels.append([_u2.unpack_from(b, p + 2)[0], True])
            p += 4
        elif tag == "[":
            levels.append([_u2.unpack_from(b, p)[0], False])
            p += 2
        else:
            raise CodeFormatError(f"bad element_value tag {tag!r}")
    return p


_TARGET_INFO_SIZE = {0x00: 1, 0x01: 1, 0x10: 2, 0x11: 2, 0x12: 2, 0x13: 0, 0x14: 0, 0x15: 0, 0x16: 1, 0x17: 2}


def decode_type_annotations(body: bytes, label, insn_at) -> list:
    """[(target_type, target, rest_bytes)] from the attribute's bytes; ``label(offset)`` gives the Label at an
    offset, ``insn_at`` the instruction at each offset."""
    n = _u2.unpack_from(body, 0)[0]
    p = 2
    out = []
    for _ in range(n):
        tt = body[p]
        p += 1
        if tt in (0x40, 0x41):
            cnt = _u2.unpack_from(body, p)[0]
            p += 2
            table = []
            for _ in range(cnt):
                s, ln, slot = struct.unpack_from(">HHH", body, p)
                p += 6
                table.append((label(s), label(s + ln), slot))
            target = table
        elif tt == 0x42:
            target = _u2.unpack_from(body, p)[0]
            p += 2
        elif 0x43 <= tt <= 0x4B:
            # these name the annotated instruction itself (instanceof, new, checkcast, a call...), not a
            # position that inserted code could take over, so they hold the instruction
            # An offset that is no instruction (ASM's test corpus has one past the code's end, which HotSpot loads:
            # it never reads these) annotates nothing; the entry is dropped, as ASM drops it.
            off = _u2.unpack_from(body, p)[0]
            insn = insn_at.get(off)
            target = insn if tt <= 0x46 else (insn, body[p + 2])
            p += 2 if tt <= 0x46 else 3
        elif tt in _TARGET_INFO_SIZE:
            size = _TARGET_INFO_SIZE[tt]
            target = bytes(body[p:p + size])
            p += size
        else:
            raise CodeFormatError(f"unknown type annotation target type 0x{tt:02x}")
        start = p
        path_len = body[p]
        p += 1 + 2 * path_len
        p = _skip_annotation(body, p)
        if 0x43 <= tt <= 0x4B and (target if tt <= 0x46 else target[0]) is None:
            continue
        out.append((tt, target, bytes(body[start:p])))
    if p != len(body):
        raise CodeFormatError("type annotations attribute has trailing bytes")
    return out


def encode_type_annotations(entries: list) -> bytes:
    """The attribute's bytes, the targets' labels and instructions at their laid-out offsets."""
    out = bytearray(_u2.pack(len(entries)))
    for tt, target, rest in entries:
        out.append(tt)
        if tt in (0x40, 0x41):
            out += _u2.pack(len(target))
            for s, e, slot in target:
                out += struct.pack(">HHH", s.offset, e.offset - s.offset, slot)
        elif tt == 0x42:
            out += _u2.pack(target)
        elif 0x43 <= tt <= 0x46:
            out += _u2.pack(target.offset)
        elif 0x47 <= tt <= 0x4B:
            out += _u2.pack(target[0].offset)
            out.append(target[1])
        else:
            out += target
        out += rest
    return bytes(out)
