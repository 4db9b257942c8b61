"""The JVM instruction set (JVMS §6.5): mnemonics as javap prints them, operand shapes, stack effects."""

from __future__ import annotations

import re
from functools import lru_cache

from .errors import ClassFormatError, shown

MNEMONICS: list = [None] * 256
_names = """
nop aconst_null iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5 lconst_0 lconst_1
fconst_0 fconst_1 fconst_2 dconst_0 dconst_1 bipush sipush ldc ldc_w ldc2_w iload lload fload dload aload
iload_0 iload_1 iload_2 iload_3 lload_0 lload_1 lload_2 lload_3 fload_0 fload_1 fload_2 fload_3
dload_0 dload_1 dload_2 dload_3 aload_0 aload_1 aload_2 aload_3 iaload laload faload daload aaload
baload caload saload istore lstore fstore dstore astore istore_0 istore_1 istore_2 istore_3 lstore_0
lstore_1 lstore_2 lstore_3 fstore_0 fstore_1 fstore_2 fstore_3 dstore_0 dstore_1 dstore_2 dstore_3
astore_0 astore_1 astore_2 astore_3 iastore lastore fastore dastore aastore bastore castore sastore pop
pop2 dup dup_x1 dup_x2 dup2 dup2_x1 dup2_x2 swap iadd ladd fadd dadd isub lsub fsub dsub imul lmul fmul
dmul idiv ldiv fdiv ddiv irem lrem frem drem ineg lneg fneg dneg ishl lshl ishr lshr iushr lushr iand
land ior lor ixor lxor iinc i2l i2f i2d l2i l2f l2d f2i f2l f2d d2i d2l d2f i2b i2c i2s lcmp fcmpl fcmpg
dcmpl dcmpg ifeq ifne iflt ifge ifgt ifle if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple
if_acmpeq if_acmpne goto jsr ret tableswitch lookupswitch ireturn lreturn freturn dreturn areturn return
getstatic putstatic getfield putfield invokevirtual invokespecial invokestatic invokeinterface
invokedynamic new newarray anewarray arraylength athrow checkcast instanceof monitorenter monitorexit
wide multianewarray ifnull ifnonnull goto_w jsr_w
""".split()
for _i, _n in enumerate(_names):
    MNEMONICS[_i] = _n
OPCODES = {n: i for i, n in enumerate(_names)}
globals().update({n.upper(): i for i, n in enumerate(_names)})

# Operand shapes (the "kind" of each opcode), used by the decoder and encoder.
K_NONE = 0       # no operands
K_BYTE = 1       # bipush: s1
K_SHORT = 2      # sipush: s2
K_LOCAL = 3      # xload/xstore/ret: u1 local (u2 under wide)
K_CP1 = 4        # ldc: u1 constant-pool index
K_CP2 = 5        # u2 constant-pool index
K_IINC = 6       # u1 local, s1 const (u2, s2 under wide)
K_BRANCH = 7     # s2 branch offset
K_BRANCH_W = 8   # s4 branch offset
K_TABLESWITCH = 9
K_LOOKUPSWITCH = 10
K_INVOKEINTERFACE = 11  # u2 index, u1 count, u1 0
K_INVOKEDYNAMIC = 12    # u2 index, u2 0
K_NEWARRAY = 13         # u1 atype
K_MULTIANEWARRAY = 14   # u2 index, u1 dimensions
K_WIDE = 15

KIND = [K_NONE] * 256
for _op in (16,):
    KIND[_op] = K_BYTE
KIND[17] = K_SHORT
for _op in list(range(21, 26)) + list(range(54, 59)) + [169]:
    KIND[_op] = K_LOCAL
KIND[18] = K_CP1
for _op in (19, 20, 178, 179, 180, 181, 182, 183, 184, 187, 189, 192, 193):
    KIND[_op] = K_CP2
KIND[132] = K_IINC
for _op in list(range(153, 169)) + [198, 199]:
    KIND[_op] = K_BRANCH
KIND[200] = KIND[201] = K_BRANCH_W
KIND[170] = K_TABLESWITCH
KIND[171] = K_LOOKUPSWITCH
KIND[185] = K_INVOKEINTERFACE
KIND[186] = K_INVOKEDYNAMIC
KIND[188] = K_NEWARRAY
KIND[197] = K_MULTIANEWARRAY
KIND[196] = K_WIDE
for _op in range(202, 256):
    KIND[_op] = -1  # not a JVM instruction (202 breakpoint and 254/255 are reserved, never in class files)

# Instruction length for fixed-size kinds (including the opcode byte).
FIXED_LENGTH = {K_NONE: 1, K_BYTE: 2, K_SHORT: 3, K_LOCAL: 2, K_CP1: 2, K_CP2: 3, K_IINC: 3, K_BRANCH: 3,
                K_BRANCH_W: 5, K_INVOKEINTERFACE: 5, K_INVOKEDYNAMIC: 5, K_NEWARRAY: 2,
                K_MULTIANEWARRAY: 4}

# Where control may go after an instruction.
UNCONDITIONAL = frozenset((167, 200, 169, 170, 171, 172, 173, 174, 175, 176, 177, 191))  # no fall-through
RETURNS = frozenset(range(172, 178))
CONDITIONAL_BRANCHES = frozenset(list(range(153, 167)) + [198, 199])


def invert_branch(op: int) -> int:
    """The conditional branch taken exactly when ``op`` is not (ifeq <-> ifne, ifnull <-> ifnonnull, ...)."""
    if 153 <= op <= 166:
        return ((op - 153) ^ 1) + 153
    if op in (198, 199):
        return op ^ 1
    raise ValueError(f"{MNEMONICS[op]} is not a conditional branch")


# Stack effect in slots for instructions whose effect does not depend on the constant pool.
# None marks the ones that do (ldc*, field and invoke instructions, multianewarray) and wide.
_DELTAS = """
nop 0 aconst_null 1 iconst_m1 1 iconst_0 1 iconst_1 1 iconst_2 1 iconst_3 1 iconst_4 1 iconst_5 1
lconst_0 2 lconst_1 2 fconst_0 1 fconst_1 1 fconst_2 1 dconst_0 2 dconst_1 2 bipush 1 sipush 1
iload 1 lload 2 fload 1 dload 2 aload 1 iload_0 1 iload_1 1 iload_2 1 iload_3 1 lload_0 2 lload_1 2
lload_2 2 lload_3 2 fload_0 1 fload_1 1 fload_2 1 fload_3 1 dload_0 2 dload_1 2 dload_2 2 dload_3 2
aload_0 1 aload_1 1 aload_2 1 aload_3 1 iaload -1 laload 0 faload -1 daload 0 aaload -1 baload -1
caload -1 saload -1 istore -1 lstore -2 fstore -1 dstore -2 astore -1 istore_0 -1 istore_1 -1
istore_2 -1 istore_3 -1 lstore_0 -2 lstore_1 -2 lstore_2 -2 lstore_3 -2 fstore_0 -1 fstore_1 -1
fstore_2 -1 fstore_3 -1 dstore_0 -2 dstore_1 -2 dstore_2 -2 dstore_3 -2 astore_0 -1 astore_1 -1
astore_2 -1 astore_3 -1 iastore -3 lastore -4 fastore -3 dastore -4 aastore -3 bastore -3 castore -3
sastore -3 pop -1 pop2 -2 dup 1 dup_x1 1 dup_x2 1 dup2 2 dup2_x1 2 dup2_x2 2 swap 0
iadd -1 ladd -2 fadd -1 dadd -2 isub -1 lsub -2 fsub -1 dsub -2 imul -1 lmul -2 fmul -1 dmul -2
idiv -1 ldiv -2 fdiv -1 ddiv -2 irem -1 lrem -2 frem -1 drem -2 ineg 0 lneg 0 fneg 0 dneg 0
ishl -1 lshl -1 ishr -1 lshr -1 iushr -1 lushr -1 iand -1 land -2 ior -1 lor -2 ixor -1 lxor -2
iinc 0 i2l 1 i2f 0 i2d 1 l2i -1 l2f -1 l2d 0 f2i 0 f2l 1 f2d 1 d2i -1 d2l 0 d2f -1 i2b 0 i2c 0 i2s 0
lcmp -3 fcmpl -1 fcmpg -1 dcmpl -3 dcmpg -3 ifeq -1 ifne -1 iflt -1 ifge -1 ifgt -1 ifle -1
if_icmpeq -2 if_icmpne -2 if_icmplt -2 if_icmpge -2 if_icmpgt -2 if_icmple -2 if_acmpeq -2 if_acmpne -2
goto 0 jsr 1 ret 0 tableswitch -1 lookupswitch -1 ireturn -1 lreturn -2 freturn -1 dreturn -2
areturn -1 return 0 new 1 newarray 0 anewarray 0 arraylength 0 athrow -1 checkcast 0 instanceof 0
monitorenter -1 monitorexit -1 ifnull -1 ifnonnull -1 goto_w 0 jsr_w 1
""".split()
STACK_DELTA: list = [None] * 256
for _k in range(0, len(_DELTAS), 2):
    STACK_DELTA[OPCODES[_DELTAS[_k]]] = int(_DELTAS[_k + 1])


# JVMS §4.3: descriptors, as the JVM checks them when it loads a class.
_FIELD_TYPE = r"\[*(?:[BCDFIJSZ]|L[^;]+;)"
FIELD_DESCRIPTOR = re.compile(_FIELD_TYPE)
METHOD_DESCRIPTOR = re.compile(rf"\((?:{_FIELD_TYPE})*\)(?:V|{_FIELD_TYPE})")


def check_method_descriptor(descriptor: str) -> str:
    if METHOD_DESCRIPTOR.fullmatch(descriptor) is None:
        raise ClassFormatError(f"malformed method descriptor '{shown(descriptor)}' (JVMS §4.3.3)")
    return descriptor


def check_field_descriptor(descriptor: str) -> str:
    if FIELD_DESCRIPTOR.fullmatch(descriptor) is None:
        raise ClassFormatError(f"malformed field descriptor '{shown(descriptor)}' (JVMS §4.3.2)")
    return descriptor


@lru_cache(maxsize=8192)
def descriptor_slots(descriptor: str) -> tuple[int, int]:
    """(argument slots, return slots) of a method descriptor such as ``(IJ[Ljava/lang/String;)D``."""
    check_method_descriptor(descriptor)
    args = 0
    i = 1
    n = len(descriptor)
    while i < n:
        c = descriptor[i]
        if c == ")":
            break
        if c in "JD":
            args += 2
            i += 1
        elif c == "L":
            args += 1
            i = descriptor.index(";", i) + 1
        elif c == "[":
            while descriptor[i] == "[":
                i += 1
            if descriptor[i] == "L":
                i = descriptor.index(";", i) + 1
            else:
                i += 1
            args += 1
        else:
            args += 1
            i += 1
    ret = descriptor[i + 1:]
    return args, (0 if ret == "V" else 2 if ret in ("J", "D") else 1)


def field_slots(descriptor: str) -> int:
    return 2 if descriptor in ("J", "D") else 1
