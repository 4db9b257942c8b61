"""Verification types and stack map frames (JVMS §4.10.1.2, §4.7.4) as plain data, and a straight-line type
simulator. The StackMapTable attribute's bytes are read and written by :mod:`.stack_map`.

Frames are decoded to their full form (every local and stack entry) but remember the frame_type they
were written with, so an untouched frame is written back exactly as it was. The simulator computes the
type state at an instruction by running forward from the nearest frame before it. No merge is ever
needed: every jump target and every instruction after an unconditional transfer carries its own frame
(JVMS §4.10.1), so the walk from that frame is straight-line code. No class hierarchy is consulted.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from . import opcodes as op
from .errors import CodeFormatError, shown

# Verification types (JVMS §4.10.1.2). The simple ones are small ints; the others small classes.
TOP, INTEGER, FLOAT, DOUBLE, LONG, NULL, UNINITIALIZED_THIS = range(7)


class Obj:
    """Object_variable_info: a class (internal name, or array descriptor). Equal by name."""

    __slots__ = ("name", "index")

    def __init__(self, name: str, index: Optional[int] = None):
        self.name = name
        self.index = index  # the CONSTANT_Class it was read from, reused when written back

    def __eq__(self, other):
        return isinstance(other, Obj) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"Obj({self.name})"


class Uninit:
    """Uninitialized_variable_info: the object created by a particular ``new`` instruction."""

    __slots__ = ("new_insn",)

    def __init__(self, new_insn):
        self.new_insn = new_insn

    def __eq__(self, other):
        return isinstance(other, Uninit) and other.new_insn is self.new_insn

    def __hash__(self):
        return id(self.new_insn)

    def __repr__(self):
        return f"Uninit(@{self.new_insn.offset})"


def is_wide(t) -> bool:
    return t is LONG or t is DOUBLE or t == LONG or t == DOUBLE


class Frame:
    """A full frame: ``locals`` and ``stack`` as tuples of verification types (a long is one entry).

    ``kind`` is the frame_type byte it was read with (a hint for writing it back), None for new frames.
    """

    __slots__ = ("locals", "stack", "kind")

    def __init__(self, locals_: tuple, stack: tuple, kind: Optional[int] = None):
        self.locals = locals_
        self.stack = stack
        self.kind = kind

    def __repr__(self):
        return f"Frame(locals={list(self.locals)}, stack={list(self.stack)}, kind={self.kind})"


@lru_cache(maxsize=8192)
def type_from_descriptor(desc: str):
    """The verification type of a field descriptor (one shared instance per descriptor: types are never
    changed once made)."""
    op.check_field_descriptor(desc)
    c = desc[0]
    if c in "IZBCS":
        return INTEGER
    if c == "F":
        return FLOAT
    if c == "J":
        return LONG
    if c == "D":
        return DOUBLE
    if c == "L":
        return Obj(desc[1:-1])
    if c == "[":
        return Obj(desc)
    raise CodeFormatError(f"bad field descriptor {desc!r}")


@lru_cache(maxsize=8192)
def split_method_descriptor(desc: str) -> tuple[tuple, str]:
    """(the argument descriptors, the return descriptor) of a method descriptor."""
    op.check_method_descriptor(desc)
    args = []
    i = 1
    while desc[i] != ")":
        j = i
        while desc[j] == "[":
            j += 1
        if desc[j] == "L":
            j = desc.index(";", j)
        args.append(desc[i:j + 1])
        i = j + 1
    return tuple(args), desc[i + 1:]


def initial_locals(class_name: str, method_name: str, descriptor: str, is_static: bool) -> tuple:
    """The implicit frame at offset 0 (JVMS §4.10.1.6), as entries."""
    out = []
    if not is_static:
        if method_name == "<init>" and class_name != "java/lang/Object":
            out.append(UNINITIALIZED_THIS)
        else:
            out.append(Obj(class_name))
    for a in split_method_descriptor(descriptor)[0]:
        out.append(type_from_descriptor(a))
    return tuple(out)


def entries_to_slots(entries) -> list:
    slots = []
    for t in entries:
        slots.append(t)
        if t is LONG or t is DOUBLE:
            slots.append(TOP)
    return slots


def slots_to_entries(slots) -> tuple:
    out = []
    i = 0
    n = len(slots)
    while i < n:
        t = slots[i]
        out.append(t)
        i += 2 if (t is LONG or t is DOUBLE) else 1
    while out and out[-1] is TOP:
        out.pop()
    return tuple(out)


def with_local(entries: tuple, slot: int, vtype) -> tuple:
    """``entries`` with ``vtype`` declared at ``slot``, padding with top."""
    slots = entries_to_slots(entries)
    while len(slots) < slot:
        slots.append(TOP)
    if len(slots) == slot:
        slots.append(vtype)
        if is_wide(vtype):
            slots.append(TOP)
    else:
        slots[slot] = vtype
        if is_wide(vtype):
            if len(slots) == slot + 1:
                slots.append(TOP)
            else:
                slots[slot + 1] = TOP
    # Entries form again, but keep trailing tops that pad before the new local intact.
    out = []
    i = 0
    while i < len(slots):
        t = slots[i]
        out.append(t)
        i += 2 if is_wide(t) else 1
    return tuple(out)


def with_locals(entries: tuple, first_slot: int, vtypes: list) -> tuple:
    """``entries`` with ``vtypes`` declared from ``first_slot`` on (all beyond the current locals)."""
    slots = entries_to_slots(entries)
    if len(slots) > first_slot:
        out = entries
        slot = first_slot
        for t in vtypes:
            out = with_local(out, slot, t)
            slot += 2 if is_wide(t) else 1
        return out
    pad = first_slot - len(slots)
    return tuple(entries) + (TOP,) * pad + tuple(vtypes)


# --- straight-line type simulation -------------------------------------------------------------------
_LOAD_TYPE = {}
for _o in (op.ILOAD, *range(op.ILOAD_0, op.ILOAD_0 + 4)):
    _LOAD_TYPE[_o] = INTEGER
for _o in (op.LLOAD, *range(op.LLOAD_0, op.LLOAD_0 + 4)):
    _LOAD_TYPE[_o] = LONG
for _o in (op.FLOAD, *range(op.FLOAD_0, op.FLOAD_0 + 4)):
    _LOAD_TYPE[_o] = FLOAT
for _o in (op.DLOAD, *range(op.DLOAD_0, op.DLOAD_0 + 4)):
    _LOAD_TYPE[_o] = DOUBLE
_STORE_TYPE = {}
for _o in (op.ISTORE, *range(op.ISTORE_0, op.ISTORE_0 + 4)):
    _STORE_TYPE[_o] = INTEGER
for _o in (op.LSTORE, *range(op.LSTORE_0, op.LSTORE_0 + 4)):
    _STORE_TYPE[_o] = LONG
for _o in (op.FSTORE, *range(op.FSTORE_0, op.FSTORE_0 + 4)):
    _STORE_TYPE[_o] = FLOAT
for _o in (op.DSTORE, *range(op.DSTORE_0, op.DSTORE_0 + 4)):
    _STORE_TYPE[_o] = DOUBLE

# (number of entries popped, type pushed or None) for instructions with a fixed shape.
_SIMPLE = {}


def _simple(names: str, pops: int, push):
    for n in names.split():
        _SIMPLE[op.OPCODES[n]] = (pops, push)


_simple("nop iinc goto goto_w", 0, None)
_simple("aconst_null", 0, NULL)
_simple("iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5 bipush sipush", 0, INTEGER)
_simple("lconst_0 lconst_1", 0, LONG)
_simple("fconst_0 fconst_1 fconst_2", 0, FLOAT)
_simple("dconst_0 dconst_1", 0, DOUBLE)
_simple("iaload baload caload saload", 2, INTEGER)
_simple("laload", 2, LONG)
_simple("faload", 2, FLOAT)
_simple("daload", 2, DOUBLE)
_simple("iastore lastore fastore dastore aastore bastore castore sastore", 3, None)
_simple("iadd isub imul idiv irem ishl ishr iushr iand ior ixor lcmp fcmpl fcmpg dcmpl dcmpg", 2, INTEGER)
_simple("ladd lsub lmul ldiv lrem lshl lshr lushr land lor lxor", 2, LONG)
_simple("fadd fsub fmul fdiv frem", 2, FLOAT)
_simple("dadd dsub dmul ddiv drem", 2, DOUBLE)
_simple("ineg l2i f2i d2i i2b i2c i2s arraylength instanceof", 1, INTEGER)
_simple("lneg i2l f2l d2l", 1, LONG)
_simple("fneg i2f l2f d2f", 1, FLOAT)
_simple("dneg i2d l2d f2d", 1, DOUBLE)
_simple("ifeq ifne iflt ifge ifgt ifle ifnull ifnonnull tableswitch lookupswitch monitorenter monitorexit "
        "ireturn lreturn freturn dreturn areturn athrow", 1, None)
_simple("if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple if_acmpeq if_acmpne", 2, None)
_simple("return", 0, None)

_NEWARRAY_TYPES = {4: "[Z", 5: "[C", 6: "[F", 7: "[D", 8: "[B", 9: "[S", 10: "[I", 11: "[J"}
_LDC_TYPES = {3: INTEGER, 4: FLOAT, 5: LONG, 6: DOUBLE, 7: "java/lang/Class", 8: "java/lang/String",
              15: "java/lang/invoke/MethodHandle", 16: "java/lang/invoke/MethodType"}


class TypeState:
    """Locals (slot form) and stack (entry form) while walking straight-line code."""

    __slots__ = ("locals", "stack")

    def __init__(self, locals_: list, stack: list):
        self.locals = locals_
        self.stack = stack

    def set_local(self, slot: int, t) -> None:
        loc = self.locals
        need = slot + (2 if is_wide(t) else 1)
        while len(loc) < need:
            loc.append(TOP)
        if slot > 0 and is_wide(loc[slot - 1]):
            loc[slot - 1] = TOP  # overwrote the second half of a long/double
        loc[slot] = t
        if is_wide(t):
            loc[slot + 1] = TOP

    def step(self, insn, cp, this_class: str) -> None:
        """Apply one instruction's effect (JVMS §6.5) to this state."""
        o = insn.opcode
        stack = self.stack
        simple = _SIMPLE.get(o)
        if simple is not None:
            pops, push = simple
            if pops:
                del stack[len(stack) - pops:]
            if push is not None:
                stack.append(push)
            return
        t = _LOAD_TYPE.get(o)
        if t is not None:
            stack.append(t)
            return
        t = _STORE_TYPE.get(o)
        if t is not None:
            stack.pop()
            self.set_local(_local_index(insn), t)
            return
        effect = _EFFECTS.get(o)
        if effect is None:
            raise CodeFormatError(f"cannot simulate {op.MNEMONICS[o]} (only class files >= 50 carry frames)")
        effect(self, insn, cp, this_class)


def _local_index(insn) -> int:
    o = insn.opcode
    if insn.arg is not None:
        return insn.arg
    # xload_n / xstore_n: the index is in the opcode
    if op.ILOAD_0 <= o <= op.ALOAD_3:
        return (o - op.ILOAD_0) & 3
    return (o - op.ISTORE_0) & 3


# --- the instructions whose effect depends on their operands or on the stack's types -------------------
# Each takes (state, insn, cp, this_class); TypeState.step finds them in _EFFECTS by opcode.
def _aload(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.append(state.locals[_local_index(insn)])


def _astore(state: TypeState, insn, cp, this_class: str) -> None:
    state.set_local(_local_index(insn), state.stack.pop())


def _aaload(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    stack.pop()
    arr = stack.pop()
    if type(arr) is Obj and arr.name.startswith("["):
        stack.append(type_from_descriptor(arr.name[1:]))
    else:
        stack.append(NULL)


def _ldc(state: TypeState, insn, cp, this_class: str) -> None:
    tag = cp.tag(insn.arg)
    if tag == 17:  # Dynamic
        state.stack.append(type_from_descriptor(cp.dynamic_ref(insn.arg)[2]))
        return
    t = _LDC_TYPES.get(tag)
    if t is None:
        raise CodeFormatError(f"{op.MNEMONICS[insn.opcode]} of constant pool entry {insn.arg}, which is no "
                              f"loadable constant (JVMS §4.4)")
    state.stack.append(Obj(t) if isinstance(t, str) else t)


def _pop(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.pop()


def _pop2(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    if is_wide(stack.pop()) is False:
        stack.pop()


def _dup(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.append(state.stack[-1])


def _dup_x1(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.insert(-2, state.stack[-1])


def _dup_x2(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    stack.insert(-2 if is_wide(stack[-2]) else -3, stack[-1])


def _dup2(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    if is_wide(stack[-1]):
        stack.append(stack[-1])
    else:
        stack.extend(stack[-2:])


def _dup2_x1(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    if is_wide(stack[-1]):
        stack.insert(-2, stack[-1])
    else:
        stack[-3:-3] = stack[-2:]


def _dup2_x2(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    if is_wide(stack[-1]):
        depth = 2 if is_wide(stack[-2]) else 3
        stack.insert(-depth, stack[-1])
    else:
        depth = 3 if is_wide(stack[-3]) else 4
        stack[len(stack) - depth:len(stack) - depth] = stack[-2:]


def _swap(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    stack[-1], stack[-2] = stack[-2], stack[-1]


def _field(state: TypeState, insn, cp, this_class: str) -> None:
    o = insn.opcode
    stack = state.stack
    desc = cp.member_ref(insn.arg)[2]
    if o == op.GETFIELD:
        stack.pop()
    if o in (op.GETSTATIC, op.GETFIELD):
        stack.append(type_from_descriptor(desc))
    else:
        stack.pop()
        if o == op.PUTFIELD:
            stack.pop()


def _invoke(state: TypeState, insn, cp, this_class: str) -> None:
    o = insn.opcode
    stack = state.stack
    index = insn.arg[0] if o in (op.INVOKEINTERFACE, op.INVOKEDYNAMIC) else insn.arg
    if o == op.INVOKEDYNAMIC:
        name, desc = cp.dynamic_ref(index)[1:]
    else:
        _, name, desc = cp.member_ref(index)
    args, ret = split_method_descriptor(desc)
    if args:
        del stack[len(stack) - len(args):]
    if o != op.INVOKESTATIC and o != op.INVOKEDYNAMIC:
        receiver = stack.pop()
        if name == "<init>":
            if receiver == UNINITIALIZED_THIS:
                done = Obj(this_class)
            elif type(receiver) is Uninit:
                done = Obj(cp.class_name(receiver.new_insn.arg))
            else:
                raise CodeFormatError(f"<init> called on {shown(repr(receiver))}, which is not an "
                                      f"uninitialized object (JVMS §4.10.1.9.invokespecial)")
            # every copy of the receiver, in locals and on the stack, is initialized now
            state.locals = [done if x == receiver else x for x in state.locals]
            state.stack = stack = [done if x == receiver else x for x in stack]
    if ret != "V":
        stack.append(type_from_descriptor(ret))


def _new(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.append(Uninit(insn))


def _newarray(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.pop()
    state.stack.append(Obj(_NEWARRAY_TYPES[insn.arg]))


def _anewarray(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.pop()
    name = cp.class_name(insn.arg)
    state.stack.append(Obj("[" + (name if name.startswith("[") else f"L{name};")))


def _checkcast(state: TypeState, insn, cp, this_class: str) -> None:
    state.stack.pop()
    name = cp.class_name(insn.arg)
    state.stack.append(Obj(name))


def _multianewarray(state: TypeState, insn, cp, this_class: str) -> None:
    stack = state.stack
    del stack[len(stack) - insn.arg[1]:]
    stack.append(Obj(cp.class_name(insn.arg[0])))


_EFFECTS = {
    op.ALOAD: _aload, **dict.fromkeys(range(op.ALOAD_0, op.ALOAD_3 + 1), _aload),
    op.ASTORE: _astore, **dict.fromkeys(range(op.ASTORE_0, op.ASTORE_3 + 1), _astore),
    op.AALOAD: _aaload,
    op.LDC: _ldc, op.LDC_W: _ldc, op.LDC2_W: _ldc,
    op.POP: _pop, op.POP2: _pop2, op.DUP: _dup, op.DUP_X1: _dup_x1, op.DUP_X2: _dup_x2, op.DUP2: _dup2,
    op.DUP2_X1: _dup2_x1, op.DUP2_X2: _dup2_x2, op.SWAP: _swap,
    op.GETSTATIC: _field, op.GETFIELD: _field, op.PUTSTATIC: _field, op.PUTFIELD: _field,
    **dict.fromkeys(range(op.INVOKEVIRTUAL, op.INVOKEDYNAMIC + 1), _invoke),
    op.NEW: _new, op.NEWARRAY: _newarray, op.ANEWARRAY: _anewarray, op.CHECKCAST: _checkcast,
    op.MULTIANEWARRAY: _multianewarray,
}
