"""Reading the counts: the metrics of one method's counts (:func:`metric`) and what differs between two
counts of the same method (:func:`diff`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional

# Per-method figures, each one number. "cost" exists only with a weight table, "allocated" (objects and
# arrays created) and "elements" (their lengths) with allocation recording, "abrupt" (invocations that
# ended by an exception) when those are tallied, "inclusive" (the inclusive total: own plus linked
# callees', see pytest_bytecount.counting.links) with inclusive counts, "deep" and "copied" (the deep group's
# total and copied elements: the work done anywhere, the JDK included, see pytest_bytecount.counting.instr.deep)
# with deep counts; "calls" is all calls summed.
METRICS = ("total", "invocations", "cost", "allocated", "elements", "abrupt", "inclusive", "deep", "copied", "calls")
SCALAR_METRICS = METRICS[:-1]  # compared as one number each; calls are compared call by call
REQUIRED_SCALARS = ("total", "invocations")
TABLES = ("opcodes", "calls")  # keyed counts: mnemonic -> count, callee signature -> count
KEYS = tuple(sorted(REQUIRED_SCALARS + TABLES))  # what every method's counts have


def table(entry: Mapping, name: str) -> Mapping:
    """One keyed table (``opcodes`` or ``calls``) of a method's counts; empty when absent."""
    return entry.get(name, {})


def _allocations(entry: Mapping, parts: tuple) -> Optional[int]:
    a = entry.get("allocations")
    return sum(sum(a.get(p, {}).values()) for p in parts) if isinstance(a, dict) else None


def _group(entry: Mapping, key: str, inner: str) -> Optional[int]:
    g = entry.get(key)
    return g.get(inner, 0) if isinstance(g, dict) else None


_READERS: dict[str, Callable[[Mapping], Optional[int]]] = {  # dispatch table: one reader per metric
    "total": lambda e: e.get("total"),
    "invocations": lambda e: e.get("invocations"),
    "cost": lambda e: e.get("cost"),
    "allocated": lambda e: _allocations(e, ("objects", "arrays")),
    "elements": lambda e: _allocations(e, ("elements",)),
    "abrupt": lambda e: _group(e, "abrupt", "invocations"),
    "inclusive": lambda e: _group(e, "inclusive", "total"),
    "deep": lambda e: _group(e, "deep", "total"),
    "copied": lambda e: _group(e, "deep", "copied"),
    "calls": lambda e: sum(table(e, "calls").values()),
}


def metric(entry: Mapping, name: str) -> Optional[int]:
    """The metric ``name`` (one of :data:`METRICS`) of one method's counts, or None when these counts do not
    record it (``cost`` without a weight table, ``abrupt`` when exits by exception are not tallied, ...)."""
    return _READERS[name](entry)


def scalars(entry: Mapping) -> dict:
    """{metric: value} of the scalar metrics one method's counts record, in :data:`SCALAR_METRICS` order."""
    values = {m: metric(entry, m) for m in SCALAR_METRICS}
    return {m: v for m, v in values.items() if v is not None}


def key_changes(base: Mapping, now: Mapping) -> list:
    """[(key, base, now)] of a keyed table (opcodes, calls) that differ, largest |delta| first, then by key:
    the order of the failure text and of the HTML report's charts."""
    keys = set(base) | set(now)
    out = [(k, base.get(k, 0), now.get(k, 0)) for k in keys if base.get(k, 0) != now.get(k, 0)]
    return sorted(out, key=lambda c: (-abs(c[2] - c[1]), c[0]))


@dataclass
class CountsDiff:
    """What differs between two counts of one method."""

    scalars: list = field(default_factory=list)  # [(metric, base, now)], SCALAR_METRICS order
    calls: list = field(default_factory=list)  # [(signature, base, now)], as key_changes orders them
    opcodes: list = field(default_factory=list)  # [(mnemonic, base, now)]
    inclusive: list = field(default_factory=list)  # [("inclusive calls" | "inclusive opcodes", [(key, base, now)])]

    def __bool__(self) -> bool:
        return bool(self.scalars or self.calls or self.opcodes or self.inclusive)


def diff(base: Optional[Mapping], now: Optional[Mapping]) -> CountsDiff:
    """What differs from ``base`` to ``now``. None stands for a method that did not run on that side: its
    metrics count 0 against the other side's. A scalar metric is compared when both sides record it, the
    inclusive tables when both sides have inclusive counts."""
    sb, sn = scalars(base or {}), scalars(now or {})
    if base is None:
        sb = dict.fromkeys(sn, 0)
    if now is None:
        sn = dict.fromkeys(sb, 0)
    b, n = base or {}, now or {}
    return CountsDiff([(m, sb[m], sn[m]) for m in SCALAR_METRICS if m in sb and m in sn and sb[m] != sn[m]],
                      key_changes(table(b, "calls"), table(n, "calls")),
                      key_changes(table(b, "opcodes"), table(n, "opcodes")),
                      _inclusive_changes(b, n))


def _inclusive_changes(b: Mapping, n: Mapping) -> list:
    """What changed in the inclusive counts (own plus linked callees'), when both sides have them."""
    bi, ni = b.get("inclusive"), n.get("inclusive")
    if not (isinstance(bi, dict) and isinstance(ni, dict)):
        return []
    out = [(f"inclusive {t}", key_changes(table(bi, t), table(ni, t))) for t in ("calls", "opcodes")]
    return [(t, c) for t, c in out if c]
