"""Counts from raw counter values: per method ``{"invocations", "total", "opcodes", "calls"}``, plus
``"abrupt"`` (the same four keys, for invocations that ended by an exception), ``"allocations"``
(``{"arrays", "elements", "objects"}``) and ``"inclusive"`` when those are recorded."""

from __future__ import annotations

from typing import Iterable, Sequence

from .countermap import CounterMap


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


def counts_from_values(maps: Iterable[CounterMap], values: Sequence[int], lines: bool = False) -> dict:
    """Turn the raw counter array of one counted class into per-method counts (zero entries left out).
    ``lines``: each method counted by blocks gets ``"lines"``, {source line: executed instructions}
    (:meth:`CounterMap.derive_lines`; the key ``"none"`` for instructions no line covers)."""
    out = {}
    for cmap in maps:
        entry = _group(cmap, values, lines)
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
