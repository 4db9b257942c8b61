"""What each counter of a method stands for, and how the raw counter values decode into the contract's
opcode and call counts (:class:`CounterMap`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .keys import line_order
from ..targets import MethodId

_BLOCK_PART = {"opcode": 0, "call": 1, "alloc": 2}  # a block's contents: (opcodes, calls, allocations)


@dataclass
class CounterMap:
    """One method's counters, from index ``base`` on, per strategy:

    - ``instruction``: counter ``base`` counts invocations, then one counter per opcode (``opcodes``), one
      per call signature (``calls``), when allocations are recorded one per allocation key (``allocs``),
      and one per source line (``lines``, each block adding its instructions on that line);
    - ``block``: ``counters`` raw counters. ``blocks[i]`` holds basic block i's static opcode, call and
      allocation counts; ``block_exprs[i]`` says how often block i ran, as a sum of raw counters times
      coefficients ``((offset from base, coefficient), ...)`` (flow conservation, see
      :func:`plan_block_counters`); ``invocation_expr`` likewise gives the number of completions.

    Either way the last ``len(elements)`` counters hold the total length of the arrays created per array
    type (allocation recording), and ``abrupt`` (when exits by exception are tallied) is a map of the
    same shape over a range of its own, for the invocations that ended by an exception.
    """

    method: MethodId
    base: int
    opcodes: list  # mnemonics present, sorted
    calls: list  # call signatures present, sorted
    code_fingerprint: str = ""
    blocks: Optional[list] = None  # [(opcodes, calls, allocations) Counters] for the block strategy
    block_exprs: Optional[list] = None
    invocation_expr: tuple = ((0, 1),)
    counters: int = 0
    allocs: Optional[list] = None  # allocation keys present ("o:" + class, "a:" + array type), or None
    elements: list = field(default_factory=list)  # array types whose element totals are counted
    abrupt: Optional["CounterMap"] = None
    block_lines: Optional[list] = None  # block strategy: per block, {source line: instructions} (keys.block_lines)
    lines: Optional[list] = None  # per instruction kind: the source lines (and "none") counted, sorted
    line_digests: Optional[dict] = None  # {line: digest of its bytecode} (keys.line_digests), when lines are counted

    @property
    def size(self) -> int:
        if self.blocks is not None:
            return self.counters
        return 1 + len(self.opcodes) + len(self.calls) + len(self.allocs or ()) + len(self.lines or ()) \
            + len(self.elements)

    def opcode_indexes(self) -> dict:
        return {k: self.base + 1 + i for i, k in enumerate(self.opcodes)}

    def call_indexes(self) -> dict:
        first = self.base + 1 + len(self.opcodes)
        return {k: first + i for i, k in enumerate(self.calls)}

    def alloc_indexes(self) -> dict:
        first = self.base + 1 + len(self.opcodes) + len(self.calls)
        return {k: first + i for i, k in enumerate(self.allocs or ())}

    def line_indexes(self) -> dict:
        first = self.base + 1 + len(self.opcodes) + len(self.calls) + len(self.allocs or ())
        return {k: first + i for i, k in enumerate(self.lines or ())}

    def element_indexes(self) -> dict:
        first = self.base + self.size - len(self.elements)
        return {k: first + i for i, k in enumerate(self.elements)}

    def opcode_range(self) -> tuple[int, int]:
        return self.base + 1, self.base + 1 + len(self.opcodes)

    def _combine(self, per_block) -> list:
        """[(counter index, weight)] for sum over blocks of per_block(i) times block i's count."""
        acc: dict = {}
        for i, expr in enumerate(self.block_exprs):
            w = per_block(i)
            if w:
                for off, coef in expr:
                    acc[off] = acc.get(off, 0) + w * coef
        return [(self.base + off, w) for off, w in sorted(acc.items()) if w]

    def weights(self, key: str, kind: str) -> list:
        """[(counter index, weight)] whose weighted sum is the count of ``key``; ``kind``: opcode, call, alloc
        or line."""
        if self.blocks is None:
            return [(self._index(kind)[key], 1)]
        if kind == "line":
            return self._combine(lambda i: self.block_lines[i].get(key, 0))
        which = _BLOCK_PART[kind]
        return self._combine(lambda i: self.blocks[i][which].get(key, 0))

    def _index(self, kind: str) -> dict:
        """Without blocks: {key: counter index} of ``kind``, built once per kind (layouts ask key by key)."""
        index = self.__dict__.get("_index_" + kind)
        if index is None:
            index = self.__dict__["_index_" + kind] = {
                "opcode": self.opcode_indexes, "call": self.call_indexes, "alloc": self.alloc_indexes,
                "line": self.line_indexes}[kind]()
        return index

    def weights_by_key(self, kind: str) -> dict:
        """{key: :meth:`weights` (key, kind)} for every key of ``kind`` the method has (a layout asks for each):
        with blocks, in one pass over them."""
        if self.blocks is None:
            return {k: [(i, 1)] for k, i in self._index(kind).items()}
        parts = self.block_lines if kind == "line" else [b[_BLOCK_PART[kind]] for b in self.blocks]
        sums: dict = {}  # key: {offset: weight}
        for part, expr in zip(parts, self.block_exprs):
            for key, w in part.items():
                if w:
                    acc = sums.get(key)
                    if acc is None:
                        acc = sums[key] = {}
                    for off, coef in expr:
                        acc[off] = acc.get(off, 0) + w * coef
        base = self.base
        return {key: [(base + off, w) for off, w in sorted(acc.items()) if w] for key, acc in sums.items()}

    def line_keys(self) -> list:
        """The source lines (and ``"none"``) of the method's instructions, in the JSON's key order."""
        if self.blocks is None:
            return list(self.lines or ())
        return sorted({k for lines in self.block_lines or () for k in lines})

    @property
    def has_lines(self) -> bool:
        return self.block_lines is not None or self.lines is not None

    def block_sizes(self) -> list:
        """Block strategy: [(counter index, weight)] whose weighted sum is the total."""
        return self._combine(lambda i: sum(self.blocks[i][0].values()))

    def invocation_weights(self) -> list:
        return [(self.base + off, coef) for off, coef in self.invocation_expr]

    def invocations(self, values) -> int:
        return sum(values[i] * w for i, w in self.invocation_weights())

    def derive(self, values) -> tuple[dict, dict]:
        """(opcode counts, call counts) from this method's raw counter values."""
        if self.blocks is None:
            return ({k: values[i] for k, i in self.opcode_indexes().items()},
                    {k: values[i] for k, i in self.call_indexes().items()})
        opcodes: dict = {}
        calls: dict = {}
        for (ops, cs, _), expr in zip(self.blocks, self.block_exprs):
            n = sum(values[self.base + off] * coef for off, coef in expr)
            if n:
                for k, w in ops.items():
                    opcodes[k] = opcodes.get(k, 0) + n * w
                for k, w in cs.items():
                    calls[k] = calls.get(k, 0) + n * w
        return opcodes, calls

    def derive_lines(self, values) -> Optional[dict]:
        """{source line: executed instructions} from the raw values (None when the map counts no lines): every
        block's count times its instructions on each line, or per instruction kind the lines' own counters.
        Lines that did not run are left out."""
        if self.lines is not None:
            out = {k: values[i] for k, i in self.line_indexes().items()}
            return {k: v for k, v in sorted(out.items(), key=lambda item: line_order(item[0])) if v}
        if self.block_lines is None:
            return None
        out: dict = {}
        for lines, expr in zip(self.block_lines, self.block_exprs):
            n = sum(values[self.base + off] * coef for off, coef in expr)
            if n:
                for line, w in lines.items():
                    out[line] = out.get(line, 0) + n * w
        return {k: v for k, v in sorted(out.items(), key=lambda item: line_order(item[0])) if v}

    def derive_allocations(self, values) -> dict:
        """{"arrays", "elements", "objects"} from the raw values (allocation recording only)."""
        out: dict = {"arrays": {}, "elements": {}, "objects": {}}
        for key in self.allocs or ():
            n = sum(values[i] * w for i, w in self.weights(key, "alloc"))
            if n:
                out["objects" if key.startswith("o:") else "arrays"][key[2:]] = n
        for key, i in self.element_indexes().items():
            if values[i]:
                out["elements"][key] = values[i]
        return out
