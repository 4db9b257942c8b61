"""Frames of inserted code, worked out when the code is encoded (as ASM's COMPUTE_INSERTED_FRAMES does): an
instrumenter only marks a label, with :data:`COMPUTE_FRAME` or an :class:`AddedLocalsFrame`, and never
builds a stack map frame by hand (JVMS §4.7.4)."""

from __future__ import annotations

from typing import Optional

from . import opcodes as op
from .access import ACC_STATIC
from .errors import CodeFormatError
from .frames import UNINITIALIZED_THIS, Frame, TypeState, entries_to_slots, initial_locals, slots_to_entries, with_local
from .instructions import Label


class _ComputeFrame:
    __slots__ = ()

    def __repr__(self):
        return "COMPUTE_FRAME"


# A label's frame to be worked out when encoding: the type state there, simulated from the frame before it,
# or, right after an unconditional jump, the state the first branch to the label carries (operands popped).
COMPUTE_FRAME = _ComputeFrame()


class AddedLocalsFrame:
    """A label's frame to be worked out when encoding: ``head`` (the first locals' entries), top up to the
    locals added with ``Code.add_locals``, those, and ``stack``. The frame of a place reached with different
    locals of the method's own, where only the added ones (assigned at entry, never retyped) are sure: a
    handler over the whole body, an exit every return jumps to."""

    __slots__ = ("stack", "head")

    def __init__(self, stack: tuple, head: tuple = ()):
        self.stack = stack
        self.head = head


class StateFrame:
    """A label's frame known when it is marked: :data:`COMPUTE_FRAME`'s, given as the type state there (``locals`` in
    slot form, ``stack``) before any local was added, for a label that code is inserted before only where that code
    leaves the method's own locals and the stack as they were (a report before a return). Encoding declares the
    locals added with ``Code.add_locals`` in it, as the code stores them at entry: the frame the walk of
    :data:`COMPUTE_FRAME` would find, without the walk."""

    __slots__ = ("locals", "stack")

    def __init__(self, state: TypeState):
        self.locals = tuple(state.locals)
        self.stack = tuple(state.stack)


def _computed(frame) -> bool:
    """Whether a label's frame is one the code's own type state gives (:data:`COMPUTE_FRAME` or a
    :class:`StateFrame`), not one given whole."""
    return frame is COMPUTE_FRAME or type(frame) is StateFrame


def resolve_marked_frames(code) -> None:
    """Replace every frame of ``code`` marked :data:`COMPUTE_FRAME`, :class:`StateFrame` or
    :class:`AddedLocalsFrame` by the frame it stands for."""
    marked = [i for i in code.items if type(i) is Label and i.frame is not None and type(i.frame) is not Frame]
    for label in marked:
        if type(label.frame) is AddedLocalsFrame:
            locals_ = label.frame.head
            for slot, vtype in code.added:
                locals_ = with_local(locals_, slot, vtype)
            label.frame = Frame(locals_, tuple(label.frame.stack))
        elif type(label.frame) is StateFrame:
            state = TypeState(list(label.frame.locals), [])
            for slot, vtype in code.added:
                state.set_local(slot, vtype)
            label.frame = Frame(slots_to_entries(state.locals), label.frame.stack)
    computed = sum(1 for label in marked if label.frame is COMPUTE_FRAME)
    if computed:
        _compute_frames(code, computed)


def _compute_frames(code, todo: int) -> None:
    """Resolve the ``todo`` labels marked :data:`COMPUTE_FRAME`, in one walk like ``Code.type_states``."""
    cf = code.method.owner
    cp = cf.constant_pool
    state = TypeState(entries_to_slots(initial_locals(cf.name, code.method.name, code.method.descriptor,
                                                      bool(code.method.access_flags & ACC_STATIC))), [])
    at_branch: dict = {}  # id(label) -> the state the first branch to it carries
    for item in code.items:
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
        if op.KIND[item.opcode] in (op.K_BRANCH, op.K_BRANCH_W) and item.arg.frame is COMPUTE_FRAME \
                and item.opcode not in (op.JSR, op.JSR_W):
            at_branch.setdefault(id(item.arg), TypeState(list(state.locals), list(state.stack)))
        if unconditional:
            state = None


def this_uninitialized(code) -> Optional[list]:
    """In a constructor: per instruction of ``code`` as it is now (code inserted by any pass included, its labels'
    frames marked or not), whether ``this`` is still uninitialized there (before the super(...) or this(...)
    call). Found by simulating types from each frame, a marked one taken as :func:`resolve_marked_frames` will
    resolve it; where no frame follows an unconditional jump (class files without stack map frames), the walk
    goes on with the types it had, whose locals still say where ``this`` is. None when some instruction holds an
    uninitialized ``this`` elsewhere than in local 0, or the code cannot be followed: no catch-all handler then."""
    m = code.method
    cf = m.owner
    cp = cf.constant_pool
    state = TypeState(entries_to_slots(initial_locals(cf.name, m.name, m.descriptor, False)), [])
    at_branch: dict = {}  # id(label) -> the state the first branch to a label marked COMPUTE_FRAME carries
    flags, after_jump = [], False
    for item in code.items:
        if type(item) is Label:
            frame = item.frame
            if _computed(frame):  # the same state, whichever mark
                state = at_branch.get(id(item), state) if after_jump else state
            elif type(frame) is AddedLocalsFrame:
                locals_ = frame.head
                for slot, vtype in code.added:
                    locals_ = with_local(locals_, slot, vtype)
                state = TypeState(entries_to_slots(locals_), list(frame.stack))
            elif frame is not None:
                state = TypeState(entries_to_slots(frame.locals), list(frame.stack))
            continue
        uninit = UNINITIALIZED_THIS in state.locals
        if uninit and state.locals[0] != UNINITIALIZED_THIS:
            return None
        flags.append(uninit)
        try:
            state.step(item, cp, cf.name)
        except Exception:  # noqa: BLE001 - a state we cannot follow: no handler rather than a bad one
            return None
        if op.KIND[item.opcode] in (op.K_BRANCH, op.K_BRANCH_W) \
                and _computed(item.arg.frame):
            at_branch.setdefault(id(item.arg), TypeState(list(state.locals), list(state.stack)))
        after_jump = item.opcode in op.UNCONDITIONAL
    return flags
