"""Counts in the contract's shape: ``{method id: {"invocations", "total", "opcodes", "calls"}}``."""

from __future__ import annotations

import json
from typing import Iterable, Sequence

from .transform import CounterMap


def counts_from_values(maps: Iterable[CounterMap], values: Sequence[int]) -> dict:
    """Turn the raw counter array of one batch into per-method counts (zero entries left out)."""
    out = {}
    for cmap in maps:
        opcodes, calls = cmap.derive(values)
        opcodes = {k: v for k, v in opcodes.items() if v}
        calls = {k: v for k, v in calls.items() if v}
        out[str(cmap.method)] = {
            "calls": dict(sorted(calls.items())),
            "invocations": cmap.invocations(values),
            "opcodes": dict(sorted(opcodes.items())),
            "total": sum(opcodes.values()),
        }
    return dict(sorted(out.items()))


def render_json(counts: dict) -> str:
    """The JSON text, one method a line, sorted keys; the instrumented classes' own exit hook writes the
    same text (see :func:`pytest_bytecount.runtime_class.layout_program`). A ``cost`` key (from a weight
    table, :mod:`pytest_bytecount.weights`) is kept, in its sorted place."""
    lines = []
    for method_id in sorted(counts):
        c = counts[method_id]
        calls = ", ".join(f"{json.dumps(k)}: {v}" for k, v in sorted(c["calls"].items()) if v)
        opcodes = ", ".join(f"{json.dumps(k)}: {v}" for k, v in sorted(c["opcodes"].items()) if v)
        cost = f"\"cost\": {c['cost']}, " if "cost" in c else ""  # only with a weight table (sorted between keys)
        lines.append(f"  {json.dumps(method_id)}: {{\"calls\": {{{calls}}}, {cost}\"invocations\": {c['invocations']}, "
                     f"\"opcodes\": {{{opcodes}}}, \"total\": {c['total']}}}")
    return "{" + ",".join("\n" + line for line in lines) + "\n}\n"
