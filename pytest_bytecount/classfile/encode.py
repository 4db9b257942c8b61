"""Writing a :class:`~.code.Code` back (JVMS §4.7.3): offsets laid out again, switch padding, long branches,
``max_stack`` and ``max_locals``, and the Code's own attributes with their labels turned into offsets.
"""

from __future__ import annotations

import struct

from . import opcodes as op
from .access import ACC_STATIC
from .errors import CodeFormatError, CodeTooLargeError
from .frames import Frame, initial_locals, slots_to_entries
from .instructions import Insn, Label, LineNumbers, LocalVariables, StackMapTable, TypeAnnotations
from .model import Attribute
from .stack_map import encode_stack_map
from .type_annotations import encode_type_annotations

_u2 = struct.Struct(">H")
_s2 = struct.Struct(">h")
_u4 = struct.Struct(">I")
_s4 = struct.Struct(">i")
_u2u2 = struct.Struct(">HH")
_u2x4 = struct.Struct(">HHHH")
_u2x5 = struct.Struct(">HHHHH")

MAX_CODE_LENGTH = 65535

K = op.KIND
STACK_DELTA = op.STACK_DELTA
NO_ARG_LOCALS = {}  # xload_n / xstore_n -> n
for _o in range(op.ILOAD_0, op.ALOAD_3 + 1):
    NO_ARG_LOCALS[_o] = (_o - op.ILOAD_0) & 3
for _o in range(op.ISTORE_0, op.ASTORE_3 + 1):
    NO_ARG_LOCALS[_o] = (_o - op.ISTORE_0) & 3
# per opcode, its size when no operand or offset can change it (0: _size works it out)
_FIXED_SIZE = [0] * 256
for _o in range(256):
    _k = K[_o]
    if _o in NO_ARG_LOCALS or _k == op.K_NONE:
        _FIXED_SIZE[_o] = 1
    elif _k in (op.K_BYTE, op.K_SHORT, op.K_CP2, op.K_BRANCH_W, op.K_INVOKEINTERFACE, op.K_INVOKEDYNAMIC,
                op.K_NEWARRAY, op.K_MULTIANEWARRAY):
        _FIXED_SIZE[_o] = op.FIXED_LENGTH[_k]


def encode_code(code) -> Attribute:
    """The Code attribute of ``code`` (a :class:`~.code.Code`), laid out again."""
    cf = code.method.owner
    cp = cf.constant_pool
    items = code.items
    insns = [i for i in items if type(i) is Insn]
    if not insns:
        raise CodeFormatError("a method's code cannot be empty")
    code_length, long_branches = _lay_out(items, insns)
    max_stack, max_locals = _limits(code, insns, code_length, cp)

    out = bytearray()
    append = out.append
    pack_u2 = _u2.pack
    for insn in insns:  # the commonest kinds emitted here rather than through a call
        o = insn.opcode
        k = K[o]
        if k == 0:
            append(o)
        elif k == op.K_CP2:
            append(o)
            out += pack_u2(insn.arg)
        else:
            _emit(out, insn, long_branches, cp)
    assert len(out) == code_length

    body = bytearray()
    body += struct.pack(">HHI", max_stack, max_locals, code_length)
    body += out
    body += _u2.pack(len(code.handlers))
    for h in code.handlers:
        if h.start.offset >= h.end.offset:
            raise CodeFormatError("empty exception range after editing")
        body += _u2x4.pack(h.start.offset, h.end.offset, h.handler.offset, h.catch_type)

    new_frames = _widening_frames(code, insns, long_branches) if long_branches else []
    _encode_attributes(body, code, new_frames)
    return Attribute(code.name_index, bytes(body))


def _lay_out(items: list, insns: list) -> tuple[int, set]:
    """Give every item its offset; returns the code length and the ids of the short branches that had to
    become goto_w (or an inverted if around one) to reach their target."""
    long_branches: set = set()
    # Lay out until no branch needs widening; widening only grows code, so this terminates.
    while True:
        pos = 0
        for item in items:
            item.offset = pos
            if type(item) is Insn:
                pos += _FIXED_SIZE[item.opcode] or _size(item, pos, long_branches)
        grew = False
        for insn in insns:
            k = K[insn.opcode]
            if k == op.K_BRANCH and id(insn) not in long_branches:
                d = insn.arg.offset - insn.offset
                if d < -32768 or d > 32767:
                    long_branches.add(id(insn))
                    grew = True
        if not grew:
            break
        if pos > MAX_CODE_LENGTH * 2:
            break  # hopelessly too large already: stop widening, report the size below
    return pos, long_branches


def _limits(code, insns: list, code_length: int, cp) -> tuple[int, int]:
    """``max_stack`` and ``max_locals`` (never below the ones the code declares); CodeTooLargeError when the
    code, its locals or its stack pass a u2 (JVMS §4.7.3, §4.11)."""
    max_stack = max_locals = 0
    if code_length <= MAX_CODE_LENGTH:
        max_stack = code.max_stack if code.stack_bounded else \
            max(code.max_stack, compute_max_stack(insns, code.handlers, cp, code.items))
        max_locals = max(code.max_locals, compute_max_locals(insns, code.method))
    for size, unit in ((code_length, "bytes"), (max_locals, "locals"), (max_stack, "stack")):
        if size > 0xFFFF:
            owner, _, method = code.method.where().partition("#")
            raise CodeTooLargeError(owner, method, size, unit)
    return max_stack, max_locals


def _encode_attributes(body: bytearray, code, new_frames: list) -> None:
    """The Code's own attributes, offsets from the labels; a StackMapTable is added when frames exist."""
    cf = code.method.owner
    cp = cf.constant_pool
    items = code.items
    attrs = list(code.attributes)
    if (new_frames or any(type(i) is Label and i.frame is not None for i in items)) \
            and not any(type(a) is StackMapTable for a in attrs) and cf.major_version >= 50:
        attrs.append(StackMapTable(cp.add_utf8("StackMapTable")))
    body += _u2.pack(len(attrs))
    for a in attrs:
        t = type(a)
        if t is LineNumbers:
            data = _u2.pack(len(a.entries)) + b"".join(
                _u2u2.pack(lab.offset, line) for lab, line in a.entries)
        elif t is LocalVariables:
            data = _u2.pack(len(a.entries)) + b"".join(
                _u2x5.pack(s.offset, e.offset - s.offset, ni, di, slot) for s, e, ni, di, slot in a.entries)
        elif t is StackMapTable:
            frames = [(i.offset, i.frame) for i in items if type(i) is Label and i.frame is not None]
            if new_frames:
                have = {off for off, _ in frames}
                frames.extend(f for f in new_frames if f[0] not in have)
                frames.sort(key=lambda f: f[0])
            _check_unique(frames)
            initial = initial_locals(cf.name, code.method.name, code.method.descriptor,
                                     bool(code.method.access_flags & ACC_STATIC))
            data = encode_stack_map(frames, initial, cp)
        elif t is TypeAnnotations:
            data = encode_type_annotations(a.entries)
        else:
            data = a.data
        body += _u2.pack(a.name_index)
        body += _u4.pack(len(data))
        body += data


def _widening_frames(code, insns, long_branches) -> list:
    """Frames for the instruction after each inverted-if-around-goto_w (JVMS §4.10.1: it follows an
    unconditional branch, so it needs one). The state is the branch's own, minus its operands."""
    cf = code.method.owner
    if cf.major_version < 50:
        return []
    out = []
    state_at = code.type_states([i for i in insns if id(i) in long_branches and i.opcode in op.CONDITIONAL_BRANCHES])
    for insn, st in state_at.items():
        pops = 2 if (op.IF_ICMPEQ <= insn.opcode <= op.IF_ACMPNE) else 1
        stack = tuple(st.stack[:len(st.stack) - pops])
        out.append((insn.offset + 8, Frame(slots_to_entries(st.locals), stack)))
    return out


def _check_unique(frames):
    last = -1
    for off, _ in frames:
        if off == last:
            raise CodeFormatError(f"two stack map frames at offset {off}")
        last = off


def _size(insn: Insn, pos: int, long_branches) -> int:
    o = insn.opcode
    k = K[o]
    if k == op.K_BRANCH:
        if id(insn) in long_branches:
            return 5 if o in (op.GOTO, op.JSR) else 8
        return 3
    if k == op.K_LOCAL:
        if o in NO_ARG_LOCALS:
            return 1
        return 4 if (insn.wide or insn.arg > 255) else 2
    if k == op.K_IINC:
        local, inc = insn.arg
        return 6 if (insn.wide or local > 255 or not -128 <= inc <= 127) else 3
    if k == op.K_CP1:
        return 2 if insn.arg <= 255 else 3
    if k == op.K_TABLESWITCH:
        s = insn.arg
        return (3 - (pos & 3)) + 1 + 12 + 4 * len(s.targets)
    if k == op.K_LOOKUPSWITCH:
        return (3 - (pos & 3)) + 1 + 8 + 8 * len(insn.arg.targets)
    if k == 0:
        return 1
    return op.FIXED_LENGTH[k]


def _emit(out: bytearray, insn: Insn, long_branches, cp) -> None:
    """One instruction's bytes at its laid-out offset, in the shortest form its operands allow."""
    o = insn.opcode
    k = K[o]
    arg = insn.arg
    pos = insn.offset
    if k == 0:
        out.append(o)
    elif k == op.K_CP2:
        out.append(o)
        out += _u2.pack(arg)
    elif k == op.K_LOCAL:
        if o in NO_ARG_LOCALS:
            out.append(o)
        elif insn.wide or arg > 255:
            out += bytes((op.WIDE, o))
            out += _u2.pack(arg)
        else:
            out += bytes((o, arg))
    elif k == op.K_BRANCH:
        _emit_branch(out, o, arg.offset - pos, id(insn) in long_branches)
    elif k == op.K_BYTE:
        out.append(o)
        out.append(arg & 0xFF)
    elif k == op.K_SHORT:
        out.append(o)
        out += _s2.pack(arg)
    elif k == op.K_CP1:
        if arg <= 255:
            out += bytes((o, arg))
        else:
            out.append(op.LDC_W)
            out += _u2.pack(arg)
    elif k == op.K_IINC:
        local, inc = arg
        if insn.wide or local > 255 or not -128 <= inc <= 127:
            out += bytes((op.WIDE, o))
            out += struct.pack(">Hh", local, inc)
        else:
            out += bytes((o, local, inc & 0xFF))
    elif k == op.K_INVOKEINTERFACE:
        out.append(o)
        out += struct.pack(">HBB", *arg)
    elif k == op.K_INVOKEDYNAMIC:
        out.append(o)
        out += _u2u2.pack(*arg)
    elif k == op.K_BRANCH_W:
        out.append(o)
        out += _s4.pack(arg.offset - pos)
    elif k == op.K_NEWARRAY:
        out += bytes((o, arg))
    elif k == op.K_MULTIANEWARRAY:
        out.append(o)
        out += struct.pack(">HB", *arg)
    elif k == op.K_TABLESWITCH or k == op.K_LOOKUPSWITCH:
        _emit_switch(out, o, k, arg, pos)
    else:
        raise CodeFormatError(f"cannot encode opcode {o}")


def _emit_branch(out: bytearray, o: int, d: int, long: bool) -> None:
    """A 16-bit branch by ``d`` bytes; a long one becomes goto_w / jsr_w, or an inverted if around a goto_w."""
    if long:
        if o == op.GOTO or o == op.JSR:
            out.append(op.GOTO_W if o == op.GOTO else op.JSR_W)
            out += _s4.pack(d)
        else:  # if<cond> L  ==>  if<!cond> +8; goto_w L
            out.append(op.invert_branch(o))
            out += _s2.pack(8)
            out.append(op.GOTO_W)
            out += _s4.pack(d - 3)
    else:
        out.append(o)
        out += _s2.pack(d)


def _emit_switch(out: bytearray, o: int, k: int, s, pos: int) -> None:
    """tableswitch or lookupswitch: padding to a multiple of 4 after the opcode, then s4 offsets from ``pos``."""
    out.append(o)
    out += bytes(3 - (pos & 3))
    out += _s4.pack(s.default.offset - pos)
    if k == op.K_TABLESWITCH:
        if s.high - s.low + 1 != len(s.targets):
            raise CodeFormatError("tableswitch: high - low + 1 differs from the number of targets")
        out += struct.pack(">ii", s.low, s.high)
        out += struct.pack(f">{len(s.targets)}i", *(t.offset - pos for t in s.targets))
    else:
        out += _s4.pack(len(s.targets))
        vals = []
        for key, t in zip(s.keys, s.targets):
            vals.append(key)
            vals.append(t.offset - pos)
        out += struct.pack(f">{len(vals)}i", *vals)


# --- max_stack and max_locals ------------------------------------------------------------------------
def _stack_delta(insn: Insn, cp, cache: dict) -> int:
    o = insn.opcode
    d = op.STACK_DELTA[o]
    if d is not None:
        return d
    key = (o, insn.arg if type(insn.arg) is int else insn.arg[0])
    d = cache.get(key)
    if d is not None:
        return d
    index = key[1]
    if o in (op.LDC, op.LDC_W, op.LDC2_W):
        tag = cp.tag(index)
        if tag == 17:
            d = op.field_slots(cp.dynamic_ref(index)[2])
        else:
            d = 2 if tag in (5, 6) else 1
    elif o in (op.GETSTATIC, op.PUTSTATIC, op.GETFIELD, op.PUTFIELD):
        size = op.field_slots(cp.member_ref(index)[2])
        d = {op.GETSTATIC: size, op.PUTSTATIC: -size, op.GETFIELD: size - 1, op.PUTFIELD: -size - 1}[o]
    elif o == op.INVOKEDYNAMIC:
        args, ret = op.descriptor_slots(cp.dynamic_ref(index)[2])
        d = ret - args
    elif o == op.MULTIANEWARRAY:
        d = 1 - insn.arg[1]
    else:
        args, ret = op.descriptor_slots(cp.member_ref(index)[2])
        d = ret - args - (0 if o == op.INVOKESTATIC else 1)
    cache[key] = d
    return d


def compute_max_stack(insns: list, handlers: list, cp, items: list) -> int:
    """Deepest operand stack over all paths (JVMS §4.7.3), by a worklist over the laid-out code."""
    # map labels to the index of the instruction they stand before
    index_of = {}
    n = 0
    for item in items:
        if type(item) is Label:
            index_of[id(item)] = n
        else:
            n += 1
    depth = [-1] * len(insns)
    work = [(0, 0)]
    for h in handlers:
        work.append((index_of[id(h.handler)], 1))
    cache: dict = {}
    best = 0
    while work:
        i, d = work.pop()
        while i < len(insns):
            seen = depth[i]
            if seen != -1:
                if seen != d:
                    # JVMS §4.10.1.4, §4.10.2.2: every path must reach an instruction with the same stack
                    # depth. Without this check a loop that pushes would be walked forever.
                    raise CodeFormatError(f"operand stack depth {seen} or {d} at offset {insns[i].offset}, "
                                          f"depending on the path (no JVM verifies such code)")
                break
            depth[i] = d
            insn = insns[i]
            o = insn.opcode
            k = K[o]
            if o == op.JSR or o == op.JSR_W:
                t = index_of[id(insn.arg)]
                work.append((t, d + 1))
                best = max(best, d + 1)
                i += 1
                continue
            delta = STACK_DELTA[o]
            d2 = d + (delta if delta is not None else _stack_delta(insn, cp, cache))
            # an instruction's peak is its result (dup2_x2 etc. never exceed the final depth)
            if d2 > best:
                best = d2
            if k == op.K_BRANCH or k == op.K_BRANCH_W:
                work.append((index_of[id(insn.arg)], d2))
            elif k == op.K_TABLESWITCH or k == op.K_LOOKUPSWITCH:
                for lab in insn.arg.labels():
                    work.append((index_of[id(lab)], d2))
            if o in op.UNCONDITIONAL:
                break
            d = d2
            i += 1
    return best


_WIDE_LOCAL_OPS = frozenset([op.LLOAD, op.DLOAD, op.LSTORE, op.DSTORE, *range(op.LLOAD_0, op.LLOAD_0 + 4),
                              *range(op.DLOAD_0, op.DLOAD_0 + 4), *range(op.LSTORE_0, op.LSTORE_0 + 4),
                              *range(op.DSTORE_0, op.DSTORE_0 + 4)])


def compute_max_locals(insns: list, method) -> int:
    args, _ = op.descriptor_slots(method.descriptor)
    n = args + (0 if method.access_flags & ACC_STATIC else 1)
    for insn in insns:
        o = insn.opcode
        k = K[o]
        if k == op.K_LOCAL or o in NO_ARG_LOCALS:  # iload 5 and iload_1 alike
            idx = NO_ARG_LOCALS.get(o, insn.arg)
            size = 2 if o in _WIDE_LOCAL_OPS else 1
            if idx + size > n:
                n = idx + size
        elif k == op.K_IINC:
            if insn.arg[0] + 1 > n:
                n = insn.arg[0] + 1
    return n
