"""The StackMapTable attribute (JVMS §4.7.4) as bytes: read into full :class:`~.frames.Frame` objects and
written back, each frame in the frame_type it was read with while that still describes it.
"""

from __future__ import annotations

import struct

from . import opcodes as op
from .errors import CodeFormatError
from .frames import Frame, Obj, Uninit

_u2 = struct.Struct(">H")


def _read_vtype(data: bytes, pos: int, cp, insn_at):
    tag = data[pos]
    if tag < 7:
        return tag, pos + 1
    value = _u2.unpack_from(data, pos + 1)[0]
    if tag == 7:
        return Obj(cp.class_name(value), value), pos + 3
    if tag == 8:
        insn = insn_at.get(value)
        if insn is None or insn.opcode != op.NEW:
            raise CodeFormatError(f"stack map refers to offset {value} as a 'new' instruction, but it is not")
        return Uninit(insn), pos + 3
    raise CodeFormatError(f"unknown verification type tag {tag}")


def decode_stack_map(data: bytes, initial: tuple, cp, insn_at) -> list[tuple[int, Frame]]:
    """[(offset, Frame)] from a StackMapTable attribute's bytes."""
    count = _u2.unpack_from(data, 0)[0]
    pos = 2
    out = []
    locals_ = initial
    offset = -1
    for _ in range(count):
        kind = data[pos]
        pos += 1
        if kind < 64:
            delta, stack = kind, ()
        elif kind < 128:
            delta = kind - 64
            t, pos = _read_vtype(data, pos, cp, insn_at)
            stack = (t,)
        elif kind < 247:
            raise CodeFormatError(f"reserved stack map frame type {kind}")
        else:
            delta = _u2.unpack_from(data, pos)[0]
            pos += 2
            if kind == 247:
                t, pos = _read_vtype(data, pos, cp, insn_at)
                stack = (t,)
            elif kind < 251:
                k = 251 - kind
                if k > len(locals_):
                    raise CodeFormatError("chop frame removes more locals than there are")
                locals_ = locals_[:-k]
                stack = ()
            elif kind == 251:
                stack = ()
            elif kind < 255:
                new = []
                for _ in range(kind - 251):
                    t, pos = _read_vtype(data, pos, cp, insn_at)
                    new.append(t)
                locals_ = locals_ + tuple(new)
                stack = ()
            else:
                n = _u2.unpack_from(data, pos)[0]
                pos += 2
                new = []
                for _ in range(n):
                    t, pos = _read_vtype(data, pos, cp, insn_at)
                    new.append(t)
                locals_ = tuple(new)
                n = _u2.unpack_from(data, pos)[0]
                pos += 2
                new = []
                for _ in range(n):
                    t, pos = _read_vtype(data, pos, cp, insn_at)
                    new.append(t)
                stack = tuple(new)
        offset += delta + 1
        out.append((offset, Frame(locals_, stack, kind)))
    if pos != len(data):
        raise CodeFormatError("StackMapTable has trailing bytes")
    return out


def _write_vtype(out: bytearray, t, cp) -> None:
    if type(t) is int:
        out.append(t)
    elif type(t) is Obj:
        out.append(7)
        out += _u2.pack(t.index if t.index is not None else cp.add_class(t.name))
    else:
        out.append(8)
        out += _u2.pack(t.new_insn.offset)


def _same_prefix(a: tuple, b: tuple, n: int) -> bool:
    return a[:n] == b[:n]


def encode_stack_map(frames: list[tuple[int, Frame]], initial: tuple, cp) -> bytes:
    """Bytes of a StackMapTable for ``frames`` (sorted by offset, unique), reusing each frame's own kind."""
    out = bytearray(_u2.pack(len(frames)))
    prev_locals = initial
    prev_offset = -1
    for offset, f in frames:
        delta = offset - prev_offset - 1
        if delta < 0:
            raise CodeFormatError(f"two stack map frames at offset {offset}")
        loc, stack = f.locals, f.stack
        same_locals = loc == prev_locals
        kind = f.kind
        # Keep the original encoding when it still describes this frame; else pick the tightest.
        chosen = None
        if kind is not None:
            if kind < 64 or kind == 251:
                if same_locals and not stack:
                    chosen = 251 if (kind == 251 or delta > 63) else delta
            elif kind < 128 or kind == 247:
                if same_locals and len(stack) == 1:
                    chosen = 247 if (kind == 247 or delta > 63) else 64 + delta
            elif 248 <= kind <= 250:
                k = 251 - kind
                if not stack and len(prev_locals) - k == len(loc) and _same_prefix(prev_locals, loc, len(loc)):
                    chosen = kind
            elif 252 <= kind <= 254:
                k = kind - 251
                if not stack and len(loc) - k == len(prev_locals) and _same_prefix(loc, prev_locals, len(prev_locals)):
                    chosen = kind
            elif kind == 255:
                chosen = 255
        if chosen is None:
            if same_locals and not stack:
                chosen = delta if delta <= 63 else 251
            elif same_locals and len(stack) == 1:
                chosen = 64 + delta if delta <= 63 else 247
            elif not stack and 0 < len(prev_locals) - len(loc) <= 3 and _same_prefix(prev_locals, loc, len(loc)):
                chosen = 251 - (len(prev_locals) - len(loc))
            elif not stack and 0 < len(loc) - len(prev_locals) <= 3 and _same_prefix(loc, prev_locals, len(prev_locals)):
                chosen = 251 + (len(loc) - len(prev_locals))
            else:
                chosen = 255
        out.append(chosen)
        if chosen < 64:
            pass
        elif chosen < 128:
            _write_vtype(out, stack[0], cp)
        else:
            out += _u2.pack(delta)
            if chosen == 247:
                _write_vtype(out, stack[0], cp)
            elif 252 <= chosen <= 254:
                for t in loc[len(prev_locals):]:
                    _write_vtype(out, t, cp)
            elif chosen == 255:
                out += _u2.pack(len(loc))
                for t in loc:
                    _write_vtype(out, t, cp)
                out += _u2.pack(len(stack))
                for t in stack:
                    _write_vtype(out, t, cp)
        prev_locals = loc
        prev_offset = offset
    return bytes(out)
