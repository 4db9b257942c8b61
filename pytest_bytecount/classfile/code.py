"""The Code attribute (JVMS §4.7.3) as a list of instructions and labels.

Inside the model no byte offset survives: branch and switch targets, exception ranges and handlers,
line numbers, local variable ranges, stack map frames (on their labels) and type annotation targets
all hold :class:`Label` objects (or, for ``Uninitialized`` types, the ``new`` instruction itself).
Offsets are computed once, when :meth:`Code.encode` lays the method out again; that is also where
switch padding, long branches, ``max_stack`` and ``max_locals`` are worked out.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from . import opcodes as op
from .errors import ClassFormatError, CodeFormatError, CodeTooLargeError
from .frames import (Frame, TypeState, decode_stack_map, encode_stack_map, entries_to_slots, initial_locals,
                     slots_to_entries, with_local, with_locals, is_wide)
from .model import ACC_STATIC, Attribute

_u2 = struct.Struct(">H")
_s2 = struct.Struct(">h")
_u4 = struct.Struct(">I")
_s4 = struct.Struct(">i")
_u2u2 = struct.Struct(">HH")
_u2x4 = struct.Struct(">HHHH")
_u2x5 = struct.Struct(">HHHHH")

MAX_CODE_LENGTH = 65535

K = op.KIND
NO_ARG_LOCALS = {}
for _o in range(op.ILOAD_0, op.ALOAD_3 + 1):
    NO_ARG_LOCALS[_o] = (_o - op.ILOAD_0) & 3
for _o in range(op.ISTORE_0, op.ASTORE_3 + 1):
    NO_ARG_LOCALS[_o] = (_o - op.ISTORE_0) & 3


class Label:
    """A position in the code: it stands right before the next instruction after it in the list."""

    __slots__ = ("offset", "frame")

    def __init__(self):
        self.offset = -1
        self.frame: Optional[Frame] = None  # the stack map frame at this position, if any (or a mark below)

    def __repr__(self):
        return f"L@{self.offset}"


class _ComputeFrame:
    __slots__ = ()

    def __repr__(self):
        return "COMPUTE_FRAME"


# A label's frame to be worked out by :meth:`Code.encode` (as ASM's COMPUTE_INSERTED_FRAMES does for inserted
# code): the type state there, simulated from the frame before it, or, right after an unconditional jump,
# the state the first branch to the label carries (its operands popped).
COMPUTE_FRAME = _ComputeFrame()


class AddedLocalsFrame:
    """A label's frame to be worked out by :meth:`Code.encode`: ``head`` (the first locals' entries), top up
    to the locals added with :meth:`Code.add_locals`, those, and ``stack``. The frame of a place reached
    with different locals of the method's own, where only the added ones (assigned at entry, never retyped)
    are sure: a handler over the whole body, an exit every return jumps to."""

    __slots__ = ("stack", "head")

    def __init__(self, stack: tuple, head: tuple = ()):
        self.stack = stack
        self.head = head


class Insn:
    """One instruction. ``arg`` by shape:

    - constants (bipush, sipush), locals (iload ...), constant-pool indexes, newarray's atype: an int;
    - iinc: ``(local, increment)``; branches: a :class:`Label`; switches: a :class:`Switch`;
    - invokeinterface: ``(index, count, zero)``; invokedynamic: ``(index, zero)``;
      multianewarray: ``(index, dimensions)``.

    ``wide`` marks an explicit ``wide`` prefix (kept as written; added when an operand needs it).
    """

    __slots__ = ("opcode", "arg", "wide", "offset")

    def __init__(self, opcode: int, arg=None, wide: bool = False):
        self.opcode = opcode
        self.arg = arg
        self.wide = wide
        self.offset = -1

    @property
    def mnemonic(self) -> str:
        return op.MNEMONICS[self.opcode]

    def __repr__(self):
        return f"{self.offset}: {self.mnemonic} {self.arg!r}" if self.arg is not None else \
            f"{self.offset}: {self.mnemonic}"


class Switch:
    """tableswitch (``low``..``high`` with ``targets``) or lookupswitch (``keys`` with ``targets``)."""

    __slots__ = ("default", "low", "high", "keys", "targets")

    def __init__(self, default: Label, targets: list, low: int = 0, high: int = -1, keys=None):
        self.default = default
        self.targets = targets
        self.low = low
        self.high = high
        self.keys = keys

    def labels(self):
        yield self.default
        yield from self.targets


@dataclass(eq=False)
class Handler:
    """exception_table entry: ``catch_type`` 0 means any (finally)."""

    start: Label
    end: Label
    handler: Label
    catch_type: int


@dataclass(eq=False)
class LineNumbers:
    name_index: int
    entries: list  # [(Label, line)]


@dataclass(eq=False)
class LocalVariables:
    """LocalVariableTable or LocalVariableTypeTable: [(start, end, name_index, type_index, slot)]."""

    name_index: int
    entries: list


@dataclass(eq=False)
class StackMapTable:
    """Marks where the StackMapTable sits among the Code attributes; the frames live on labels."""

    name_index: int


@dataclass(eq=False)
class TypeAnnotations:
    """Runtime[In]VisibleTypeAnnotations on Code (JVMS §4.7.20): [(target_type, target, rest_bytes)].

    ``target`` holds labels or instructions where the class file has offsets: localvar targets a list
    of (start Label, end Label, slot), offset targets the annotated Insn, type-argument targets
    (Insn, index), catch targets the exception-table index, anything else raw bytes.
    """

    name_index: int
    entries: list


class Code:
    """A decoded Code attribute, edited in place and written back with :meth:`encode`."""

    def __init__(self, method, name_index: int, max_stack: int, max_locals: int, items: list,
                 handlers: list, attributes: list):
        self.method = method
        self.name_index = name_index
        self.max_stack = max_stack
        self.max_locals = max_locals
        self.items = items  # Labels and Insns in code order
        self.handlers = handlers
        self.attributes = attributes
        self.added: list = []  # (slot, type) of every local added and declared in frames, for AddedLocalsFrame

    instructions = property(lambda self: [i for i in self.items if type(i) is Insn])

    # ------------------------------------------------------------------------------------------------
    # decoding
    # ------------------------------------------------------------------------------------------------
    @classmethod
    def decode(cls, method, attr: Attribute) -> "Code":
        cf = method.owner
        cp = cf.constant_pool
        data = attr.data
        try:
            return cls._decode(method, attr, cf, cp, data)
        except (IndexError, struct.error) as e:
            raise CodeFormatError(f"{method.where()}: truncated Code attribute ({e})") from None
        except ClassFormatError as e:  # the code, or a constant it refers to
            raise CodeFormatError(f"{method.where()}: {e}") from None

    @classmethod
    def _decode(cls, method, attr, cf, cp, data):
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
                    insn = Insn(o, Switch(default, [label(pos + d) for d in offs], low, high))
                    size = p + 12 + 4 * n - pos
                else:
                    n = _s4.unpack_from(code, p + 4)[0]
                    if n < 0 or n > 65536:
                        raise CodeFormatError(f"lookupswitch at {pos} with {n} pairs")
                    pairs = struct.unpack_from(f">{2 * n}i", code, p + 8)
                    insn = Insn(o, Switch(default, [label(pos + d) for d in pairs[1::2]], keys=list(pairs[0::2])))
                    size = p + 8 + 8 * n - pos
            elif k == op.K_WIDE:
                o2 = code[pos + 1]
                k2 = kind[o2]
                if k2 == op.K_LOCAL:
                    insn = Insn(o2, unpack_u2(code, pos + 2)[0], True)
                    size = 4
                elif k2 == op.K_IINC:
                    insn = Insn(o2, (unpack_u2(code, pos + 2)[0], unpack_s2(code, pos + 4)[0]), True)
                    size = 6
                else:
                    raise CodeFormatError(f"wide prefix before {op.MNEMONICS[o2]} at offset {pos}")
            else:
                raise CodeFormatError(f"invalid opcode {o} at offset {pos}")
            insn.offset = pos
            insns.append(insn)
            insn_at[pos] = insn
            pos += size
        if pos != code_length:
            raise CodeFormatError("last instruction runs past the end of the code")

        # exception table
        p = code_end
        n = _u2.unpack_from(data, p)[0]
        p += 2
        handlers = []
        for _ in range(n):
            s, e, h, t = _u2x4.unpack_from(data, p)
            p += 8
            handlers.append(Handler(label(s), label(e), label(h), t))

        # attributes of the Code attribute
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
                attrs.append(TypeAnnotations(name_index, _decode_type_annotations(body, label, insn_at)))
            else:
                attrs.append(Attribute(name_index, body))
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

        items: list = []
        if labels:
            for insn in insns:
                lab = labels.get(insn.offset)
                if lab is not None:
                    items.append(lab)
                items.append(insn)
            lab = labels.get(code_length)
            if lab is not None:
                items.append(lab)
        else:
            items = insns
        return cls(method, attr.name_index, max_stack, max_locals, items, handlers, attrs)

    # ------------------------------------------------------------------------------------------------
    # editing
    # ------------------------------------------------------------------------------------------------
    def add_local(self, vtype, declare_in_frames: bool = True) -> int:
        """A new local variable slot after all existing ones.

        ``vtype`` is a verification type from :mod:`.frames` (``INTEGER``, ``LONG``, ``Obj(name)``...).
        With ``declare_in_frames`` every existing stack map frame declares it, which is right for a
        local that is assigned at method entry (before any frame) and stays of that type throughout.
        """
        slot = self.max_locals
        self.max_locals += 2 if is_wide(vtype) else 1
        if declare_in_frames:
            self.added.append((slot, vtype))
            for item in self.items:
                if type(item) is Label and type(item.frame) is Frame:
                    f = item.frame
                    item.frame = Frame(with_local(f.locals, slot, vtype), f.stack, f.kind)
        return slot

    def add_locals(self, vtypes: Sequence, declare_in_frames: bool = True) -> list[int]:
        """Several :meth:`add_local` at once: every frame is rewritten once, not once per local."""
        first = self.max_locals
        slots = []
        for t in vtypes:
            slots.append(self.max_locals)
            self.max_locals += 2 if is_wide(t) else 1
        if declare_in_frames and slots:
            self.added.extend(zip(slots, vtypes))
            for item in self.items:
                if type(item) is Label and type(item.frame) is Frame:
                    f = item.frame
                    item.frame = Frame(with_locals(f.locals, first, list(vtypes)), f.stack, f.kind)
        return slots

    def insert_before(self, target: Insn, code: Sequence, jumps_run_inserted: bool = True) -> None:
        """Insert ``code`` (Insns and Labels) right before ``target``.

        With ``jumps_run_inserted`` every branch, handler, frame, line number and range that pointed at
        ``target`` now points at the first inserted instruction, so jumps to ``target`` run the inserted
        code first. Without it they keep pointing at ``target``: only the fall-through runs the new code.
        """
        self.insert_many([(target, code, jumps_run_inserted)])

    def insert_many(self, edits: Iterable[tuple[Insn, Sequence, bool]]) -> None:
        """Several :meth:`insert_before` edits in one pass over the code (linear, not quadratic)."""
        before: dict[int, list] = {}
        after: dict[int, list] = {}
        for target, code, run in edits:
            (after if run else before).setdefault(id(target), []).extend(code)
        if not before and not after:
            return
        out = []
        pending = []
        found = 0
        for item in self.items:
            if type(item) is Label:
                pending.append(item)
                continue
            key = id(item)
            b = before.get(key)
            if b is not None:
                out.extend(b)
                found += 1
            out.extend(pending)
            pending = []
            a = after.get(key)
            if a is not None:
                out.extend(a)
                found += 1
            out.append(item)
        out.extend(pending)
        if found != len(before) + len(after):
            raise ValueError("insert_before: a target instruction is not in this method's code")
        self.items = out

    # ------------------------------------------------------------------------------------------------
    # encoding
    # ------------------------------------------------------------------------------------------------
    def encode(self) -> Attribute:
        """Lay the method out again and return the Code attribute's bytes."""
        try:
            self._resolve_marked_frames()
            return self._encode()
        except ClassFormatError as e:  # the code, or a constant it refers to
            raise CodeFormatError(f"{self.method.where()}: {e}") from None

    def _encode(self) -> Attribute:
        cf = self.method.owner
        cp = cf.constant_pool
        items = self.items
        insns = [i for i in items if type(i) is Insn]
        if not insns:
            raise CodeFormatError("a method's code cannot be empty")
        long_branches: set = set()  # ids of short branches that must become goto_w (or an inverted if)
        # Lay out until no branch needs widening; widening only grows code, so this terminates.
        while True:
            pos = 0
            for item in items:
                item.offset = pos
                if type(item) is Insn:
                    pos += _size(item, pos, long_branches)
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
        code_length = pos
        max_stack = max_locals = 0
        if code_length <= MAX_CODE_LENGTH:
            max_stack = max(self.max_stack, compute_max_stack(insns, self.handlers, cp, items))
            max_locals = max(self.max_locals, compute_max_locals(insns, self.method))
        for size, unit in ((code_length, "bytes"), (max_locals, "locals"), (max_stack, "stack")):
            if size > 0xFFFF:
                owner, _, method = self.method.where().partition("#")
                raise CodeTooLargeError(owner, method, size, unit)

        out = bytearray()
        for insn in insns:
            _emit(out, insn, long_branches, cp)
        assert len(out) == code_length

        body = bytearray()
        body += struct.pack(">HHI", max_stack, max_locals, code_length)
        body += out
        body += _u2.pack(len(self.handlers))
        for h in self.handlers:
            if h.start.offset >= h.end.offset:
                raise CodeFormatError("empty exception range after editing")
            body += _u2x4.pack(h.start.offset, h.end.offset, h.handler.offset, h.catch_type)

        new_frames = self._widening_frames(insns, long_branches, cp) if long_branches else []
        attrs = list(self.attributes)
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
                initial = initial_locals(cf.name, self.method.name, self.method.descriptor,
                                         bool(self.method.access_flags & ACC_STATIC))
                data = encode_stack_map(frames, initial, cp)
            elif t is TypeAnnotations:
                data = _encode_type_annotations(a.entries)
            else:
                data = a.data
            body += _u2.pack(a.name_index)
            body += _u4.pack(len(data))
            body += data
        return Attribute(self.name_index, bytes(body))

    def _resolve_marked_frames(self) -> None:
        """Replace every frame marked :data:`COMPUTE_FRAME` or :class:`AddedLocalsFrame` by the frame it
        stands for (JVMS §4.7.4)."""
        marked = [i for i in self.items if type(i) is Label and i.frame is not None and type(i.frame) is not Frame]
        for label in marked:
            if type(label.frame) is AddedLocalsFrame:
                locals_ = label.frame.head
                for slot, vtype in self.added:
                    locals_ = with_local(locals_, slot, vtype)
                label.frame = Frame(locals_, tuple(label.frame.stack))
        computed = sum(1 for label in marked if label.frame is COMPUTE_FRAME)
        if computed:
            self._compute_frames(computed)

    def _compute_frames(self, todo: int) -> None:
        """Resolve the ``todo`` labels marked :data:`COMPUTE_FRAME`, in one walk like :meth:`type_states`."""
        cf = self.method.owner
        cp = cf.constant_pool
        state = TypeState(entries_to_slots(initial_locals(cf.name, self.method.name, self.method.descriptor,
                                                          bool(self.method.access_flags & ACC_STATIC))), [])
        at_branch: dict = {}  # id(label) -> the state the first branch to it carries
        for item in self.items:
            if type(item) is Label:
                if item.frame is COMPUTE_FRAME:
                    known = state if state is not None else at_branch.get(id(item))
                    if known is None:
                        raise CodeFormatError(f"no type state known for the inserted frame at offset {item.offset}")
                    item.frame = Frame(slots_to_entries(known.locals), tuple(known.stack))
                    todo -= 1
                    if not todo:
                        return
                if item.frame is not None:
                    state = TypeState(entries_to_slots(item.frame.locals), list(item.frame.stack))
                continue
            if state is None:
                continue  # unreachable until the next frame
            unconditional = item.opcode in op.UNCONDITIONAL
            if not unconditional:
                try:
                    state.step(item, cp, cf.name)  # a conditional branch: its operands popped
                except IndexError:
                    raise CodeFormatError(f"{item.mnemonic} at offset {item.offset} finds too few values on "
                                          f"the operand stack or reads an undeclared local") from None
            if K[item.opcode] in (op.K_BRANCH, op.K_BRANCH_W) and item.arg.frame is COMPUTE_FRAME \
                    and item.opcode not in (op.JSR, op.JSR_W):
                at_branch.setdefault(id(item.arg), TypeState(list(state.locals), list(state.stack)))
            if unconditional:
                state = None

    def _widening_frames(self, insns, long_branches, cp) -> list:
        """Frames for the instruction after each inverted-if-around-goto_w (JVMS §4.10.1: it follows an
        unconditional branch, so it needs one). The state is the branch's own, minus its operands."""
        cf = self.method.owner
        if cf.major_version < 50:
            return []
        out = []
        state_at = self.type_states([i for i in insns if id(i) in long_branches and i.opcode in op.CONDITIONAL_BRANCHES])
        for insn, st in state_at.items():
            pops = 2 if (op.IF_ICMPEQ <= insn.opcode <= op.IF_ACMPNE) else 1
            stack = tuple(st.stack[:len(st.stack) - pops])
            out.append((insn.offset + 8, Frame(slots_to_entries(st.locals), stack)))
        return out

    def type_states(self, wanted: list) -> dict:
        """The type state right before each of ``wanted`` (simulated from the nearest frame before it)."""
        cf = self.method.owner
        cp = cf.constant_pool
        want = {id(i) for i in wanted}
        result = {}
        initial = initial_locals(cf.name, self.method.name, self.method.descriptor,
                                 bool(self.method.access_flags & ACC_STATIC))
        state = TypeState(entries_to_slots(initial), [])
        for item in self.items:
            if type(item) is Label:
                if item.frame is not None:
                    state = TypeState(entries_to_slots(item.frame.locals), list(item.frame.stack))
                continue
            if id(item) in want:
                if state is None:
                    raise CodeFormatError(f"no stack map frame before the instruction at offset {item.offset} "
                                          f"after an unconditional jump")
                result[item] = TypeState(list(state.locals), list(state.stack))
                if len(result) == len(want):
                    break
            if state is None:
                continue  # unreachable until the next frame
            if item.opcode in op.UNCONDITIONAL:
                state = None  # JVMS 4.10.1: the next instruction carries its own frame
            else:
                try:
                    state.step(item, cp, cf.name)
                except IndexError:  # popped an empty stack, or loaded a local the frame does not have
                    raise CodeFormatError(f"{item.mnemonic} at offset {item.offset} finds too few values on the "
                                          f"operand stack or reads an undeclared local; no JVM verifies such "
                                          f"code") from None
        return result


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
        d = arg.offset - pos
        if id(insn) in long_branches:
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
        out.append(o)
        out += bytes(3 - (pos & 3))
        s = arg
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
    else:
        raise CodeFormatError(f"cannot encode opcode {o}")


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
            d2 = d + _stack_delta(insn, cp, cache)
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


# --- type annotations on code (JVMS §4.7.20) ----------------------------------------------------------
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


def _decode_type_annotations(body: bytes, label, insn_at) -> list:
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
            off = _u2.unpack_from(body, p)[0]
            insn = insn_at.get(off)
            if insn is None:
                raise CodeFormatError(f"type annotation target offset {off} is not an instruction")
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
        out.append((tt, target, bytes(body[start:p])))
    if p != len(body):
        raise CodeFormatError("type annotations attribute has trailing bytes")
    return out


def _encode_type_annotations(entries: list) -> bytes:
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
