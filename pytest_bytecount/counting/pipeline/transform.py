"""The counting transform: ByCounter-style counters in the target methods (the counting contract).

Per target method, :func:`instrument_method` plans where the counters go (:mod:`..flow.method_plan`), then
emits the code that counts and reports them (:mod:`..instr.emit`). Two strategies:

- ``block`` (the default): the method's basic blocks (:mod:`..flow.graph`) get counters only where flow
  conservation cannot derive them (:mod:`..flow.plan`, Knuth's spanning tree), or, in a small loop-free method,
  one counter per Ball-Larus path; the counts per opcode and call follow from each block's contents.
  Past :data:`MAX_BLOCKS` counted blocks, or where the block code would pass 64 KB, a method is counted
  per instruction kind instead;
- ``instruction`` (ByCounter's reference): one ``int`` local per opcode, call signature and allocation
  key, an ``iinc`` before every instruction.

Either way, before every ``*return`` the invocation's counters are added to the totals of the class's own
support class (:mod:`..instr.runtime`). An invocation that ends by an exception reports nothing, unless abrupt
exits are tallied (a handler around the body reports them under separate counters). A
:class:`~..counts.countermap.CounterMap` tells, for each method, what its counters stand for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from ...classfile import ClassFile, ClassFormatError, CodeFormatError, CodeTooLargeError
from ..counts.countermap import CounterMap
from ..instr.deep import emit_deep, plan_deep, deep_method
from ..instr.emit import emit
from ..flow.method_plan import plan_method
from ..instr.runtime import RUNTIME_CLASS
from ..targets import MethodId

STRATEGIES = ("instruction", "block")
# Past this many basic blocks a method is counted per instruction kind instead: its counters stay few,
# so the stack map frames that must declare them all stay small.
MAX_BLOCKS = 256


@dataclass
class Counted:
    """One method counted, its counters not yet kept by its class: its map, and the (kind, arity) pairs
    of the ``add`` methods its reports call."""

    cmap: CounterMap
    arities: set


@dataclass
class CounterIndexes:
    """Counter indexes handed out to the counted methods of one class (its own Counters class), from 0.

    ``abrupt``: also tally the invocations that end by an exception (a catch-all handler over each
    method). ``allocations``: also record objects and arrays created and the arrays' lengths."""

    strategy: str = "block"
    maps: list = field(default_factory=list)
    size: int = 0
    arities: set = field(default_factory=set)
    abrupt: bool = False
    allocations: bool = False
    inclusive: Optional[object] = None  # a links.linkage.ClassLinks: link the invocations of its methods
    runtime: str = RUNTIME_CLASS  # the support class the reports add to
    # deep counts (..instr.deep): (the JVM's MethodNumbers, the method ids that open windows); every method of
    # the class is counted deep, the counted ones too
    deep: Optional[tuple] = None

    def place(self, cmap: CounterMap) -> None:
        """Give ``cmap`` (and its abrupt part) the next free indexes, for its report code to push; they
        are taken only by :meth:`keep` (a method that turns out too large is placed again, or dropped)."""
        cmap.base = self.size
        if cmap.abrupt is not None:
            cmap.abrupt.base = self.size + cmap.size

    def keep(self, counted: Counted) -> None:
        """Take the indexes of the map placed last, and the ``add`` methods its code calls."""
        cmap = counted.cmap
        self.size += cmap.size + (cmap.abrupt.size if cmap.abrupt is not None else 0)
        self.maps.append(cmap)
        self.arities |= counted.arities


def instrument_method(method, batch: CounterIndexes, strategy: Optional[str] = None, call_keys: Optional[dict] = None,
                      max_blocks: Optional[int] = MAX_BLOCKS, lines: bool = True) -> Counted:
    """Count ``method`` (``strategy``: the batch's when None) in place: plan, then emit. ``call_keys``:
    a cache of call signatures per constant pool; ``max_blocks``: past this many counted blocks, count
    per instruction kind; ``lines``: per instruction kind, count per source line too."""
    plan = plan_method(method, strategy or batch.strategy, batch.abrupt, batch.allocations, batch.inclusive,
                       call_keys, max_blocks, lines)
    batch.place(plan.cmap)
    return Counted(plan.cmap, emit(plan, batch.runtime))


@dataclass
class InstrumentedClass:
    name: str
    data: bytes
    maps: list
    refused: list  # messages for methods left uninstrumented (over 64 KB)


def instrument_class(data: bytes, methods: Optional[Iterable[MethodId]], batch: CounterIndexes) -> InstrumentedClass:
    """Count ``methods`` of the class in ``data`` (all methods with code when None)."""
    cf = ClassFile.parse(data)
    wanted = None if methods is None else {(m.name, m.descriptor) for m in methods}
    maps, refused = [], []
    call_keys: dict = {}
    for m in cf.methods:
        if not m.has_code():
            continue
        if wanted is not None and (m.name, m.descriptor) not in wanted:
            if batch.deep is not None:
                refused += deep_method(m, *batch.deep)
            continue
        try:
            counted = _count_within_limit(m, batch, call_keys)
        except CodeTooLargeError as e:  # a target: the user chose it, and may choose otherwise
            refused.append(f"{e}. Exclude it from the targets or split it.")
            if batch.deep is not None:  # too large with its flat counters: its deep code alone may still fit
                refused += deep_method(m, *batch.deep)
            continue
        batch.keep(counted)
        maps.append(counted.cmap)
    return InstrumentedClass(cf.name, cf.to_bytes(), maps, refused)


def _count_within_limit(method, batch: CounterIndexes, call_keys: dict) -> Counted:
    """Count ``method`` and encode its code; when no attempt fits in 64 KB, the :class:`CodeTooLargeError` of the
    attempt that came nearest (the size a user can act on, not the last fallback's). Per instruction kind needs
    fewer counters than many blocks; past that, all
    blocks may still fit where an increment per instruction does not. Per instruction kind, the counters
    per source line come last: a method too large with them is counted without (its counts have no
    ``"lines"``)."""
    index, original = method.find_attribute("Code")
    attempts = [("block", MAX_BLOCKS, True), ("instruction", None, True), ("block", None, True),
                ("instruction", None, False)] \
        if batch.strategy == "block" else [("instruction", None, True), ("instruction", None, False)]
    nearest = None
    for n, (strategy, limit, lines) in enumerate(attempts, 1):
        try:
            deep = plan_deep(method) if batch.deep is not None else None
            counted = instrument_method(method, batch, strategy, call_keys, limit, lines)
            if deep is not None:
                numbers, targets = batch.deep
                mid = str(MethodId(method.owner.name, method.name, method.descriptor))
                emit_deep(method, deep, numbers.number(mid), numbers.target(mid) if mid in targets else None)
            method.attributes[index] = method.code.encode()
            return counted
        except CodeTooLargeError as e:
            method.attributes[index] = original  # undone: decoded afresh by the next attempt
            nearest = e if nearest is None or e.size < nearest.size else nearest
            if n == len(attempts):
                raise nearest from None
        except CodeFormatError:
            raise  # names the method already
        except ClassFormatError as e:  # a name, descriptor or constant the counters need is broken
            raise CodeFormatError(f"{method.where()}: {e}") from None
