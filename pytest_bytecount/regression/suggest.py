"""The smallest tolerance that would pass a failing test, when a small one would: a regression of a few instructions
in millions (work that moved into a helper, a table that grew one step later) reads the same as a real one until the
output says how little it takes. Found by judging the counts again under each candidate, from 0.001% up to 1%, so
what it says is what the comparison would decide; nothing is suggested for a new call the deciding figure cannot
hold, a figure that rose from 0, or a rise beyond 1% (a change a tolerance should not hide)."""

from __future__ import annotations

from typing import Optional

from .compare import Verdict, compare
from .tolerances import parse_tolerances

CANDIDATES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)  # percent


def smallest_tolerance(verdict: Verdict, stored: dict, now: dict, tolerances: dict, strict: bool) -> Optional[tuple]:
    """``(tolerance text, the status it would give)`` for the smallest candidate on the figures that tripped under
    which ``compare`` would pass the test, or None."""
    tripped = [c for d in verdict.diffs for c in d.tripped]
    if strict or verdict.status != "regressed" or not tripped or any(c.call or c.base <= 0 for c in tripped):
        return None
    metrics = sorted({c.metric for c in tripped})
    needed = max((c.now - c.base) * 100 / c.base for c in tripped)
    for percent in CANDIDATES:
        if percent < needed:
            continue
        text = ",".join(f"{m}={percent:g}%" for m in metrics)
        trial = compare(stored, now, {**tolerances, **parse_tolerances(text)}, strict)
        if not trial.failed:
            return text, trial.status
    return None


def tolerance_line(found: tuple) -> str:
    text, status = found
    as_what = "" if status in ("same", "passed") else f" as {status}"
    return (f"a tolerance would pass it{as_what}: tolerance=\"{text}\" on the marker, or as the project's in "
            f"[tool.bytecount] (the smallest of 0.001% to 1% that does)")
