"""The pieces a decoded Code attribute is made of: instructions, labels, switches, exception handlers, and
the Code's own attributes with labels where the class file has offsets (JVMS §4.7.3).

Inside the model no byte offset survives: branch and switch targets, exception ranges and handlers,
line numbers, local variable ranges, stack map frames (on their labels) and type annotation targets
all hold :class:`Label` objects (or, for ``Uninitialized`` types, the ``new`` instruction itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import opcodes as op


class Label:
    """A position in the code: it stands right before the next instruction after it in the list."""

    __slots__ = ("offset", "frame")

    def __init__(self):
        self.offset = -1
        # the stack map frame at this position, if any: a Frame, or until encoding a mark of inserted_frames
        self.frame: Optional[object] = None

    def __repr__(self):
        return f"L@{self.offset}"


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
