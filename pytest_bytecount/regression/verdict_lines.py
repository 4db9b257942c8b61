"""The line every surface leads with, and the figure that decided a result."""

from __future__ import annotations

from typing import Optional

from ..counting.counts import metric
from .compare import widest_work


def lead_line(message: str) -> str:
    """The line every surface leads with: the verdict's first line, ``COMPLEXITY GOT WORSE: ...`` (with its method
    after the orders) when a complexity check's worse order heads it."""
    for line in (message or "").splitlines():
        if not line.strip():
            continue
        if ": COMPLEXITY GOT WORSE: " in line:
            method, _, rest = line.partition(": COMPLEXITY GOT WORSE: ")
            return f"COMPLEXITY GOT WORSE: {rest} ({method})"
        return line
    return ""


def deciding_figures(result: dict) -> Optional[tuple]:
    """``(figure, baseline, now)`` of a result (its JSON shape) that was compared with a baseline: the work figure of
    its method whose verdict decided, the worst first (None when nothing was compared)."""
    base, now = result.get("baseline_counts"), result.get("counts") or {}
    if not base:
        return None
    order = ("regressed", "changed", "improved", "reshaped", "same")
    statuses = result.get("method_status") or {}
    ranked = sorted((m for m in set(base) | set(now)),
                    key=lambda m: (order.index(statuses[m]) if statuses.get(m) in order else len(order), m))
    if not ranked:
        return None
    method = ranked[0]
    be, ne = base.get(method), now.get(method)
    work = widest_work(be, ne)
    b, n = (metric(e, work) or 0 if e else 0 for e in (be, ne))
    return work, b, n
