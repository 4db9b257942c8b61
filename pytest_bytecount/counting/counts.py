"""Counts in the contract's shape: ``{method id: {"invocations", "total", "opcodes", "calls"}}``, plus
``"abrupt"`` (the same four keys, for invocations that ended by an exception) and ``"allocations"``
(``{"arrays", "elements", "objects"}``) when those are recorded."""

from __future__ import annotations

import json
from typing import Iterable, Optional, Sequence

from .inclusive import inclusive_counts
from .countermap import CounterMap


def _group(cmap: CounterMap, values: Sequence[int]) -> dict:
    opcodes, calls = cmap.derive(values)
    opcodes = {k: v for k, v in opcodes.items() if v}
    calls = {k: v for k, v in calls.items() if v}
    return {
        "calls": dict(sorted(calls.items())),
        "invocations": cmap.invocations(values),
        "opcodes": dict(sorted(opcodes.items())),
        "total": sum(opcodes.values()),
    }


def counts_from_values(maps: Iterable[CounterMap], values: Sequence[int], inclusive: Optional[dict] = None) -> dict:
    """Turn the raw counter array of one batch into per-method counts (zero entries left out).
    ``inclusive``: {target id: (InclusiveTarget, [closure CounterMaps])} adds ``"inclusive"`` to those."""
    out = {}
    for cmap in maps:
        entry = _group(cmap, values)
        if inclusive is not None and str(cmap.method) in inclusive:
            target, closure = inclusive[str(cmap.method)]
            entry["inclusive"] = inclusive_counts({m.method: m for m in closure}, target, values)
        if cmap.allocs is not None:
            entry["allocations"] = {k: dict(sorted(v.items())) for k, v in cmap.derive_allocations(values).items()}
        if cmap.abrupt is not None:
            entry["abrupt"] = _group(cmap.abrupt, values)
        out[str(cmap.method)] = dict(sorted(entry.items()))
    return dict(sorted(out.items()))


def _map(d: dict) -> str:
    return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in sorted(d.items()) if v) + "}"


def _render_group(c: dict) -> str:
    cost = f"\"cost\": {c['cost']}, " if "cost" in c else ""  # only with a weight table (sorted between keys)
    if "inclusive" in c:  # inclusive counts (sorted between keys too)
        i = c["inclusive"]
        cost += (f"\"inclusive\": {{\"calls\": {_map(i['calls'])}, \"methods\": {json.dumps(i['methods'])}, "
                 f"\"opcodes\": {_map(i['opcodes'])}, \"total\": {i['total']}}}, ")
    return (f"\"calls\": {_map(c['calls'])}, {cost}\"invocations\": {c['invocations']}, "
            f"\"opcodes\": {_map(c['opcodes'])}, \"total\": {c['total']}")


def render_json(counts: dict) -> str:
    """The JSON text, one method a line, sorted keys; the instrumented classes' own exit hook writes the
    same text (see :func:`pytest_bytecount.counting.runtime.layout_program`). A ``cost`` key (from a weight
    table, :mod:`pytest_bytecount.regression.weights`) is kept, in its sorted place."""
    lines = []
    for method_id in sorted(counts):
        c = counts[method_id]
        head = ""
        if "abrupt" in c:
            head += f"\"abrupt\": {{{_render_group(c['abrupt'])}}}, "
        if "allocations" in c:
            a = c["allocations"]
            head += (f"\"allocations\": {{\"arrays\": {_map(a['arrays'])}, \"elements\": {_map(a['elements'])}, "
                     f"\"objects\": {_map(a['objects'])}}}, ")
        lines.append(f"  {json.dumps(method_id)}: {{{head}{_render_group(c)}}}")
    return "{" + ",".join("\n" + line for line in lines) + "\n}\n"
