"""The Code attribute (JVMS §4.7.3) as a list of instructions and labels, and the edits made to it.

The pieces (:class:`Insn`, :class:`Label`, :class:`Switch`, :class:`Handler`) are defined in
:mod:`.instructions`, below the decoder and encoder, and importable from here too. Offsets are computed
once, when :meth:`Code.encode` lays the method out again (:mod:`.encode`); that is also where switch
padding, long branches, ``max_stack`` and ``max_locals`` are worked out, and the frames of labels an
instrumenter marked (:mod:`.inserted_frames`). Decoding is :mod:`.decode`.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from . import opcodes as op
from .access import ACC_STATIC
from .encode import encode_code
from .errors import ClassFormatError, CodeFormatError
from .frames import Frame, TypeState, entries_to_slots, initial_locals, is_wide, with_local, with_locals
from .inserted_frames import COMPUTE_FRAME, AddedLocalsFrame, resolve_marked_frames
from .instructions import Handler, Insn, Label, Switch
from .model import Attribute

# Handler, Switch and the frame marks are not used here: callers import the label model from this module.
__all__ = ["COMPUTE_FRAME", "AddedLocalsFrame", "Code", "Handler", "Insn", "Label", "Switch"]


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
        # an editor that knows a bound of the edited code's stack depth sets max_stack to it and this flag: the
        # encoder then takes it as it is instead of working it out again
        self.stack_bounded = False

    instructions = property(lambda self: [i for i in self.items if type(i) is Insn])

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
            if pending:
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
            resolve_marked_frames(self)  # frames of inserted code, marked on their labels
            return encode_code(self)
        except ClassFormatError as e:  # the code, or a constant it refers to
            raise CodeFormatError(f"{self.method.where()}: {e}") from None

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
