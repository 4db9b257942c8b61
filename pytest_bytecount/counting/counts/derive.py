"""Counts from raw counter values: per method ``{"invocations", "total", "opcodes", "calls"}``, plus
``"abrupt"`` (the same four keys, for invocations that ended by an exception), ``"allocations"``
(``{"arrays", "elements", "objects"}``) and ``"inclusive"`` when those are recorded."""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from ..countermap import CounterMap
from ..inclusive import InclusiveTarget


def _group(cmap: CounterMap, values: Sequence[int], lines: bool = False) -> dict:
    opcodes, calls = cmap.derive(values)
    opcodes = {k: v for k, v in opcodes.items() if v}
    calls = {k: v for k, v in calls.items() if v}
    out = {
        "calls": dict(sorted(calls.items())),
        "invocations": cmap.invocations(values),
        "opcodes": dict(sorted(opcodes.items())),
        "total": sum(opcodes.values()),
    }
    by_line = cmap.derive_lines(values) if lines else None
    if by_line is not None:
        out = dict(sorted({**out, "lines": by_line}.items()))
    return out


def counts_from_values(maps: Iterable[CounterMap], values: Sequence[int], inclusive: Optional[dict] = None,
                       lines: bool = False) -> dict:
    """Turn the raw counter array of one batch into per-method counts (zero entries left out).
    ``inclusive``: {target id: (InclusiveTarget, [closure CounterMaps])} adds ``"inclusive"`` to those.
    ``lines``: each method counted by blocks gets ``"lines"``, {source line: executed instructions}
    (:meth:`CounterMap.derive_lines`; the key ``"none"`` for instructions no line covers)."""
    out = {}
    for cmap in maps:
        entry = _group(cmap, values, lines)
        if inclusive is not None and str(cmap.method) in inclusive:
            target, closure = inclusive[str(cmap.method)]
            entry["inclusive"] = inclusive_counts({m.method: m for m in closure}, target, values)
        if cmap.allocs is not None:
            entry["allocations"] = {k: dict(sorted(v.items())) for k, v in cmap.derive_allocations(values).items()}
        if cmap.abrupt is not None:
            entry["abrupt"] = _group(cmap.abrupt, values, lines)
        out[str(cmap.method)] = dict(sorted(entry.items()))
    return dict(sorted(out.items()))


def add_code_fingerprint(counts: dict, maps: Iterable[CounterMap]) -> dict:
    """``counts`` with each of ``maps``' methods given its ``code_fingerprint`` (the SHA-256 of its code
    as javap shows it, :func:`~..keys.code_fingerprint`): a baseline keeps it to tell a changed method from
    a changed path. A method
    with ``lines`` gets ``line_digests`` too, ``{line: digest}`` for every line of its code
    (:func:`~..keys.line_digests`): a baseline keeps them to pair lines by their code when the method changed."""
    for cmap in maps:
        entry = counts[str(cmap.method)]
        entry["code_fingerprint"] = cmap.code_fingerprint
        if "lines" in entry and cmap.line_digests is not None:
            entry["line_digests"] = dict(sorted(cmap.line_digests.items()))
            counts[str(cmap.method)] = dict(sorted(entry.items()))
    return counts


def inclusive_counts(maps_by_method: dict, target: InclusiveTarget, values) -> dict:
    """{"calls", "methods", "opcodes", "total"} of one target from the raw counter values."""
    opcodes: dict = {}
    calls: dict = {}
    for mid in target.methods:
        cmap = maps_by_method[mid]
        shifted = _Shifted(values, target.base)
        o, c = cmap.derive(shifted)
        for k, v in o.items():
            opcodes[k] = opcodes.get(k, 0) + v
        for k, v in c.items():
            calls[k] = calls.get(k, 0) + v
    opcodes = {k: v for k, v in sorted(opcodes.items()) if v}
    return {"calls": {k: v for k, v in sorted(calls.items()) if v}, "methods": [str(m) for m in target.methods],
            "opcodes": opcodes, "total": sum(opcodes.values())}


class _Shifted:
    """``values`` seen from ``shift`` on: a target's inclusive counters repeat the batch's layout there."""

    def __init__(self, values, shift: int):
        self.values, self.shift = values, shift

    def __getitem__(self, i: int) -> int:
        return self.values[i + self.shift]
