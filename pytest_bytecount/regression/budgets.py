"""Budgets: fixed ceilings on a test's work, such as ``"deep<=2_000_000, copied<=10000"`` (a marker's, the settings'
or the command line's). Unlike a tolerance, a budget is not relative to a baseline: it holds on every run, for a
test with no baseline too, and an update never records a run over it.

A budget bounds the test, not one method: a figure is summed over the methods the test counted. The deep figures
count each instruction once: a target that ran only inside another target's deep windows (:func:`.compare.
nested_targets`) is already in that one's deep work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

from ..counting.counts import METRICS, metric
from .compare import nested_targets
from .tolerances import DEEP_WORK

WORK = "work"  # a bare budget (5000) bounds the figure that decides: the deep work, inclusive, or total
FIGURES = METRICS + (WORK,)
FORM = "FIGURE<=N such as 'deep<=2_000_000', several comma-separated, or a number alone for the figure that decides"
_ONE = re.compile(r"^\s*(?:([a-z]+)\s*<=\s*)?([0-9][0-9_]*)\s*$")
_SAID = {WORK: "the work", "deep": "deep.total", "copied": "deep.copied"}  # figures a message names otherwise


class BudgetError(ValueError):
    """A budget spec that cannot be parsed: the message names the spec and the form expected."""


@dataclass(frozen=True)
class Budget:
    """The test's ``figure`` (one of :data:`FIGURES`) may be at most ``limit``."""

    figure: str
    limit: int

    def __str__(self) -> str:
        return f"{self.figure}<={self.limit:,}" if self.figure != WORK else f"{self.limit:,}"


@dataclass(frozen=True)
class BudgetCheck:
    """One budget against the test's counts (``value`` None: the counts do not record its figure)."""

    budget: Budget
    value: Optional[int]
    figure: str = ""  # what the figure was read as: "deep work (deep.total + deep.copied)", "total", ...

    @property
    def status(self) -> str:
        """``within``, ``over`` or ``unchecked`` (no such figure in the counts)."""
        return "unchecked" if self.value is None else "over" if self.value > self.budget.limit else "within"

    @property
    def excess(self) -> int:
        return (self.value or 0) - self.budget.limit

    def to_dict(self) -> dict:
        return {"budget": str(self.budget).replace(",", ""), "figure": self.budget.figure, "limit": self.budget.limit,
                "value": self.value, "read_as": self.figure, "status": self.status}


def parse_budgets(spec, base: Sequence[Budget] = ()) -> tuple:
    """``"deep<=2_000_000, copied<=10000"`` (or a number: ``5000``, the figure that decides) -> the budgets, after
    those of ``base`` (the project's) whose figures the spec does not name."""
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        return tuple(base)
    if isinstance(spec, bool) or not isinstance(spec, (str, int)):
        raise BudgetError(f"bad budget {spec!r}: expected a string {FORM}")
    if isinstance(spec, int):
        if spec < 0:
            raise BudgetError(f"bad budget {spec!r}: a budget is a number >= 0 ({FORM})")
        spec = str(spec)
    named: dict = {}
    for item in spec.split(","):
        m = _ONE.match(item)
        if not m or m.group(2).endswith("_") or "__" in m.group(2):
            where = f"{item.strip()!r} in {spec!r}" if item.strip() != spec.strip() else repr(spec)
            raise BudgetError(f"bad budget {where}: expected {FORM}"
                              + (" (a budget is a number >= 0)" if "-" in item else ""))
        figure = m.group(1) or WORK
        if figure not in FIGURES:
            where = f"{item.strip()!r} in {spec!r}" if item.strip() != spec.strip() else repr(spec)
            raise BudgetError(f"bad budget {where}: unknown figure {figure!r}; expected one of "
                              f"{', '.join(FIGURES)} ({WORK}: the figure that decides)")
        if figure in named:
            raise BudgetError(f"bad budget {spec!r}: {figure} is bounded twice")
        named[figure] = Budget(figure, int(m.group(2).replace("_", "")))
    kept = [b for b in base if b.figure not in named]
    return tuple(kept) + tuple(named.values())


def named_figures(budgets: Sequence[Budget]) -> set:
    return {b.figure for b in budgets}


def figure_of(counts: dict, figure: str) -> tuple:
    """(the test's value of ``figure``, summed over its methods, or None when no method records it; what it was
    read as). ``work``: the deep work where the methods have deep counts, else inclusive, else total."""
    if figure == WORK:
        for name, said in (("deep", "deep work (deep.total + deep.copied)"), ("inclusive", "inclusive"),
                           ("total", "total")):
            if any(isinstance(c.get(name), dict) or (name == "total" and "total" in c) for c in counts.values()):
                parts = DEEP_WORK if name == "deep" else (name,)
                return sum(figure_of(counts, p)[0] or 0 for p in parts), said
        return None, "total"
    inner = nested_targets(counts) if figure in DEEP_WORK else {}
    values = [metric(c, figure) for m, c in counts.items() if m not in inner]
    values = [v for v in values if v is not None]
    return (sum(values) if values else None), _SAID.get(figure, figure)


def check_budgets(budgets: Sequence[Budget], counts: dict, skip_missing: Sequence[str] = ()) -> list:
    """Each budget against ``counts`` (method id -> counts, the whole test's), but those whose figure the counts do
    not record when that figure is among ``skip_missing`` (a project-wide budget bounds only what a test records)."""
    out = []
    for b in budgets:
        value, said = figure_of(counts, b.figure)
        if value is None and b.figure in skip_missing:
            continue
        out.append(BudgetCheck(b, value, said))
    return out


def budget_status(checks: Sequence[BudgetCheck]) -> Optional[str]:
    """``over-budget`` when a figure exceeds its budget, ``unchecked`` when one cannot be checked, else None."""
    statuses = {c.status for c in checks}
    return "over-budget" if "over" in statuses else "unchecked" if "unchecked" in statuses else None


def render_over_budget(checks: Sequence[BudgetCheck], updating: bool) -> str:
    """The failure: each budget exceeded, the figure and by how much it is over (then those that cannot be
    checked), and what to do."""
    lines = []
    failing = [c for c in checks if c.status == "over"] + [c for c in checks if c.status == "unchecked"]
    for o in failing:
        where = f"budget {o.budget}"
        if o.value is None:
            lines.append(f"BUDGET UNCHECKED: {where} cannot be checked: this run's counts do not record {o.figure}")
            continue
        pct = f", {o.excess / o.budget.limit * 100:+.1f}%" if o.budget.limit else ""
        lines.append(f"OVER BUDGET: {o.figure} {o.value:,} is over the {where} by {o.excess:,}{pct}")
    lines.append("A budget is a fixed ceiling: fix the code, or raise the budget where it is set (the marker's "
                 "budget=, [tool.bytecount] budget or --bytecount-budget)."
                 + (" Nothing was recorded for this test: --bytecount-update never accepts a run over its budget."
                    if updating else " --bytecount-update does not accept it."))
    return "\n".join(lines)
