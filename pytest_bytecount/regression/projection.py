"""A budget at a size: the fitted cost of a complexity check (:mod:`.growth`'s sum of terms) projected to a size
the test does not run, such as production's, against a limit: ``bytecount.scaling(sizes, run,
budget={100_000: 10**9})``.

Extrapolation is honest only when the fit describes the growth, so a projection is refused (the test fails with
"cannot project", naming the sizes to add) when:

- the size is more than ``REACH`` times the largest size measured: beyond that, a term too small to see at the
  measured sizes, or a threshold in the code (a hash table's resize, an algorithm switch above a size), may
  decide;
- the fit is not exact enough: its RMS relative error is above ``MAX_ERROR`` (exact counts of code whose cost is a
  sum of the modelled terms fit to within rounding; a staircase of resizes fits within a few percent);
- the growth is still rising at the largest sizes: the local exponent between the two largest sizes is more than
  ``RISE`` above every one before it, and more than ``RISE`` above what the fit gives there (a quadratic path that
  starts between the two largest sizes; a sum of terms whose larger term is taking over, which the fit follows,
  passes, and so do the ups and downs of a staircase of resizes), or the fit is exponential (its local exponents
  rise at every step, by definition).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from .growth import Growth, ScalingError, explain, name_order

REACH = 100  # a projection goes at most this many times beyond the largest size measured
MAX_ERROR = 0.02  # the largest RMS relative error of a fit that is projected (2%)
RISE = 0.01  # a rise of the top local exponent, beyond the fit's, that says the growth has not settled


@dataclass(frozen=True)
class Projection:
    """One size of a budget: the fitted cost there, or why it cannot be trusted, and the sizes to add."""

    size: int
    limit: int
    value: Optional[float]  # the projected cost (None: refused)
    order: str
    fit: str  # the fit's evidence (growth.explain)
    refused: tuple = ()  # why it cannot be projected, one reason each
    add: tuple = ()  # sizes to add to the check, for a refused projection

    @property
    def status(self) -> str:
        """``refused``, ``over`` (the projection exceeds the limit) or ``within``."""
        if self.refused:
            return "refused"
        return "over" if self.value > self.limit else "within"

    def to_dict(self) -> dict:
        out = {"size": self.size, "limit": self.limit, "status": self.status, "order": self.order, "fit": self.fit,
               "projected": None if self.value is None else (round(self.value) if math.isfinite(self.value)
                                                              else "inf")}
        if self.refused:
            out["refused"] = list(self.refused)
            out["add"] = list(self.add)
        return out


def check_budget(budget, reach) -> Dict[int, int]:
    """``{size: limit}`` as ``bytecount.scaling(..., budget=)`` takes it (sizes >= 1, limits >= 0, integers; a
    float limit such as ``1e9`` when whole), and ``reach``; a ScalingError names what is wrong."""
    if isinstance(reach, bool) or not isinstance(reach, (int, float)) or not reach >= 1:
        raise ScalingError(f"reach must be a number >= 1 (how many times the largest size a projection may go), "
                           f"got {reach!r}")
    if not isinstance(budget, dict) or not budget:
        raise ScalingError(f"budget must be a dict {{size: limit}} such as {{100_000: 10**9}}, got {budget!r}")
    out = {}
    for size, limit in budget.items():
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ScalingError(f"budget: a size is an integer n >= 1, got {size!r}")
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ScalingError(f"budget: the limit at n={size:,} must be a whole number >= 0, got {limit!r}")
        out[size] = limit
    return dict(sorted(out.items()))


def _doublings(start: int, until: float, most: int = 4) -> List[int]:
    """``start`` x2, x4, ... up to the first size at or above ``until`` (at least one, at most ``most``)."""
    out, n = [], start
    while len(out) < most and (not out or out[-1] < until):
        n *= 2
        out.append(n)
    return out


def _local(g: Growth, a: int, b: int) -> float:
    va, vb = g.at(a), g.at(b)
    if not (va > 0 and vb > 0 and math.isfinite(vb)):
        return math.inf
    return math.log(vb / va) / math.log(b / a)


def refusals(g: Growth, size: int, measured: Sequence[int], reach: float = REACH) -> tuple:
    """(reasons, sizes to add) for a projection of ``g`` (fitted on ``measured``) to ``size``: empty when it can be
    trusted (the module docstring)."""
    largest = measured[-1]
    reasons, add = [], []
    if size > reach * largest:
        need = math.ceil(size / reach)
        reasons.append(f"n={size:,} is {size / largest:,.0f} times the largest size measured (n={largest:,}), beyond "
                       f"the {reach:g}x a projection may reach")
        add += _doublings(largest, need, most=12)
    if g.error > MAX_ERROR:
        reasons.append(f"the fit is not exact enough (error {g.error * 100:.2g}%, a projection needs {MAX_ERROR:.0%} "
                       f"at most)")
        add += _doublings(largest, 4 * largest)[:2]
    local = g.local
    if g.order == "2^n":
        reasons.append(f"the growth is exponential: its local exponents rise at every step "
                       f"({', '.join(f'{e:.2f}' for e in local[-3:])})")
    elif len(local) >= 2 and local[-1] - max(local[:-1]) > RISE and local[-1] - _local(g, *g.sizes[-2:]) > RISE:
        reasons.append(f"the top local exponent is still rising ({', '.join(f'{e:.2f}' for e in local[-3:])}), "
                       f"faster than the fit ({g.order}) follows")
        add += _doublings(largest, 4 * largest)[:2]
    return tuple(reasons), tuple(sorted(set(add)))


def project(sizes: Sequence[int], values: Sequence[int], budget: Dict[int, int], reach: float = REACH) -> list:
    """One :class:`Projection` per size of ``budget`` ({size: limit}), from the counts ``values`` measured at
    ``sizes``, fitted as the complexity check fits them."""
    g = name_order(sizes, values)
    out = []
    for size, limit in sorted(budget.items()):
        reasons, add = refusals(g, size, list(sizes), reach)
        out.append(Projection(size, limit, None if reasons else g.at(size), g.order, explain(g), reasons, add))
    return out


def _figure(value: float) -> str:
    return f"{value:,.0f}" if math.isfinite(value) else "infinite"


def render_projections(method: str, figure: str, projections: Sequence[Projection], measured: Sequence[int],
                       updating: bool) -> str:
    """What a reviewer reads when a budget at a size fails (empty when every projection is within its limit)."""
    failing = [p for p in projections if p.status != "within"]
    if not failing:
        return ""
    lines = []
    for p in failing:
        if p.status == "over":
            over = p.value - p.limit
            pct = f", {over / p.limit * 100:+.1f}%" if p.limit else ""
            lines.append(f"OVER BUDGET at n={p.size:,}: {figure} of {method} projected to {_figure(p.value)}, over "
                         f"the limit {p.limit:,} by {_figure(over)}{pct} (order {p.order}, measured up to "
                         f"n={measured[-1]:,})")
        else:
            lines.append(f"BUDGET UNCHECKED: cannot project {figure} of {method} to n={p.size:,} (limit "
                         f"{p.limit:,}): {'; '.join(p.refused)}")
            lines.append(f"    add sizes {', '.join(f'{n:,}' for n in p.add)} to the check" if p.add else
                         "    the growth cannot be projected: bound the work at a measured size with the marker's "
                         "budget= instead")
    lines.append(f"    fit: {failing[0].fit}")
    lines.append("    A budget at a size is a fixed ceiling on the projected cost: fix the code, or change the budget "
                 "in the test." + (" Nothing was recorded for this test: --bytecount-update never accepts a run "
                                   "over its budget." if updating else ""))
    return "\n".join(lines)


def with_budget(result, budget: Dict[int, int], reach: float = REACH) -> None:
    """Each measured method of ``result`` (a :class:`~.scaling.ScalingResult`) gets its projections to the sizes of
    ``budget``: the figure the check fitted (the deep work by default), one run of ``run(n)``."""
    result.budget, result.reach = dict(budget), reach
    for method in result.methods.values():
        method.projections = project(result.sizes, method.values, budget, reach)


def budget_verdict(result, updating: bool) -> tuple:
    """(status, text) of the budgets at sizes of ``result``: ``over-budget`` when a projection exceeds its limit,
    ``unchecked`` when one was refused, (None, "") when every projection is within its limit."""
    texts, statuses = [], set()
    for name, method in sorted(result.methods.items()):
        projections = method.projections or []
        statuses |= {p.status for p in projections}
        figure = "the deep work" if method.part is not None else result.metric
        text = render_projections(name, figure, projections, result.sizes, updating)
        if text:
            texts.append(text)
    status = "over-budget" if "over" in statuses else "unchecked" if "refused" in statuses else None
    return status, "\n".join(texts)
