"""Empirical complexity: name the order of counts measured at several input sizes (1, log n, n, n log n, n^2,
n^3 or 2^n) and compare it with the one in the baseline. The rule for exact counts is :mod:`.growth`'s: sums of
non-negative terms, the simplest good fit named, and growth itself compared with the baseline's.

Counts are exact, so the same code at the same sizes always gives the same order: the check never flakes, and a
change of order means the code changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from typing import Dict, List, Optional, Sequence

from ..counting.counts import metric as read_metric
from ..wording import counted
from .growth import MIN_SIZES, ORDERS, RANK, ScalingError, check_sizes, explain, judge, name_order, upper
from .status import worse

__all__ = ["MIN_SIZES", "ORDERS", "RANK", "ScalingError", "check_sizes", "upper", "fit", "measure"]

METRICS = ("total", "invocations", "calls", "inclusive", "deep")  # the counts' metrics a check may fit (inclusive:
# with inclusive=True on the marker, and then the default; deep: with deep counts, and then the default)
# "deep" fits the deep work: the instructions run anywhere (deep.total) and the elements the JVM's native bulk
# operations moved (deep.copied), summed into one figure; each part's values are kept beside it
DEEP_PARTS = ("deep", "copied")
WORK = "work"
PART_NAMES = {"deep": "deep.total", "copied": "deep.copied", WORK: "deep work"}
WORK_SUM = "deep.total + deep.copied"
EXACT = 1e-4  # a fit's error shown as "<0.01%"


# --- fitting ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fit:
    """The order of one series of counts."""

    order: str
    exponent: float
    fits: Dict[str, Optional[float]]  # order -> RMS relative error of its best fit (None: no fit grows so)
    growth: Optional[float] = None  # the exponential model's factor per unit of n
    evidence: str = ""  # why this order (growth.explain): each term's share of the work, the local exponents


def fit(sizes: Sequence[int], values: Sequence[int]) -> Fit:
    """The order of ``values`` measured at ``sizes`` (:func:`.growth.name_order`)."""
    sizes = check_sizes(sizes)
    if len(values) != len(sizes):
        raise ScalingError(f"{counted(len(values), 'value')} for {counted(len(sizes), 'size')}")
    g = name_order(sizes, values)
    return Fit(g.order, g.exponent, g.fits, g.growth if g.order == "2^n" else None, explain(g))


# --- results ------------------------------------------------------------------------------------------
@dataclass
class MethodScaling:
    values: List[int]
    order: str
    exponent: float
    fits: Dict[str, Optional[float]]
    growth: Optional[float] = None
    baseline_order: Optional[str] = None
    # deep counts: the figure fitted (WORK), each part's (order alone, None, values), and where the work went:
    # [(method id or the native copies, its deep count at each size)], most growth first
    part: Optional[str] = None
    parts: Optional[Dict[str, tuple]] = None
    where: Optional[List[tuple]] = None
    evidence: str = ""  # why this order: each term's share of the work, the local exponents (growth.explain)
    change: Optional[str] = None  # against the baseline (ScalingChange.status), once compared
    projections: Optional[list] = None  # [projection.Projection] of a budget at sizes, when the check has one

    def to_dict(self) -> dict:
        out = {"values": list(self.values), "order": self.order, "exponent": round(self.exponent, 2) + 0.0,
               "fits": {o: (None if r is None else float(f"{r:.4g}")) for o, r in self.fits.items()},
               "baseline_order": self.baseline_order}
        if self.evidence:
            out["evidence"] = self.evidence
        if self.change is not None:
            out["change"] = self.change
        if self.projections is not None:
            out["budget"] = [p.to_dict() for p in self.projections]
        if self.parts is not None:
            out["decided_by"] = PART_NAMES[self.part]
            out["parts"] = {PART_NAMES[p]: {"order": o, "values": list(v)} for p, (o, _, v) in self.parts.items()}
            out["where"] = [[m, list(v)] for m, v in (self.where or [])]
        return out

    def describe(self) -> str:
        text = f"{self.order}, exponent {self.exponent:.2f}"
        if self.growth is not None:
            text += f" (x{self.growth:.3g} per +1 in n)"
        if self.parts is not None:
            text += f" in {PART_NAMES[self.part]} ({WORK_SUM})"
        return text


def metric_value(counts: Optional[dict], metric: str) -> int:
    """One number of a method's counts: ``total``, ``invocations``, ``calls`` (all calls summed) or
    ``inclusive`` (the inclusive total)."""
    return (read_metric(counts, metric) or 0) if counts else 0


def check_metric(metric: str) -> str:
    if metric not in METRICS:
        raise ScalingError(f"unknown scaling metric {metric!r}; expected one of {', '.join(METRICS)}")
    return metric


@dataclass
class ScalingResult:
    """What ``bytecount.scaling(...)`` returns: per counted method, the counts at each size and their order."""

    metric: str
    sizes: List[int]
    methods: Dict[str, MethodScaling] = field(default_factory=dict)
    # flat counts: per method, the JDK calls whose number grew with n ([(signature, calls at each size)]): work
    # inside them is not in the order (deep counts would see it)
    jdk_calls: Dict[str, list] = field(default_factory=dict)
    named: bool = False  # the test named the figure (scaling(..., metric=...)): its choice, no note suggests another
    # flat counts: per method, the JDK calls that may carry work it made at the largest size ([(signature, calls at
    # each size)]): an order of the flat figure that fell cannot be judged (the work may have moved into them)
    jdk_made: Dict[str, list] = field(default_factory=dict)
    budget: Optional[Dict[int, int]] = None  # scaling(..., budget={size: limit}): each method's projections
    reach: Optional[float] = None  # how far beyond the largest size a projection may go

    def __getitem__(self, pattern: str) -> MethodScaling:
        (method,) = select_methods(self.methods, pattern, one=True)
        return self.methods[method]

    def _only(self) -> MethodScaling:
        if len(self.methods) != 1:
            raise ScalingError(f"{len(self.methods)} methods were measured ({', '.join(self.methods)}); pick one "
                               f"with result['pkg.Cls#method'] or bytecount.scaling(..., method='pkg.Cls#method')")
        return next(iter(self.methods.values()))

    @property
    def order(self) -> str:
        return self._only().order

    @property
    def exponent(self) -> float:
        return self._only().exponent

    @property
    def values(self) -> List[int]:
        return self._only().values

    def to_dict(self) -> dict:
        """The ``"scaling"`` entry of the plugin's per-test result (``--bytecount-json``, the HTML report)."""
        out = {"metric": self.metric, "sizes": list(self.sizes),
               "methods": {m: s.to_dict() for m, s in sorted(self.methods.items())}}
        if self.jdk_calls:
            out["jdk_calls"] = {m: [[sig, list(v)] for sig, v in calls] for m, calls in sorted(self.jdk_calls.items())}
        if self.named:
            out["metric_named"] = True
        if self.jdk_made:
            out["jdk_made"] = {m: [[sig, list(v)] for sig, v in calls] for m, calls in sorted(self.jdk_made.items())}
        if self.budget is not None:
            out["budget"] = {str(n): limit for n, limit in self.budget.items()}
            out["reach"] = self.reach
        return out

    def __str__(self) -> str:
        lines = []
        for method, s in sorted(self.methods.items()):
            lines.append(f"{method}: {s.describe()}{_fitted(self.metric)}")
            lines += _table(self.sizes, [(PART_NAMES.get(s.part, self.metric), s.values)]
                            + [(PART_NAMES[p], v) for p, (_, _, v) in (s.parts or {}).items()])
            lines.append("    fits: " + _fits_text(s.fits))
            if s.evidence:
                lines.append("    why: " + s.evidence)
        return "\n".join(lines)


def select_methods(methods, pattern: Optional[str], one: bool = False) -> List[str]:
    """The method ids among ``methods`` matched by a method id or target pattern (``pkg.Cls#name``)."""
    if pattern is None:
        return sorted(methods)
    if pattern in methods:
        return [pattern]
    from ..counting.targets import TargetError, TargetPattern

    try:
        pat = TargetPattern.parse(pattern)
    except TargetError as e:
        raise ScalingError(str(e)) from None
    hits = []
    for method in sorted(methods):
        cls, _, rest = method.partition("#")
        name, paren, desc = rest.partition("(")
        if pat.matches_class(cls) and pat.matches_method(name, paren + desc):
            hits.append(method)
    if not hits or (one and len(hits) > 1):
        what = "matches none" if not hits else f"matches {len(hits)}"
        raise ScalingError(f"method {pattern!r} {what} of the measured methods: {', '.join(sorted(methods)) or 'none'}")
    return hits


def measure(sizes: Sequence[int], values: Dict[str, List[int]], metric: str = "total",
            method: Optional[str] = None) -> ScalingResult:
    """Fit every method (or those ``method`` selects) whose counts are not all zero."""
    sizes = check_sizes(sizes)
    ran = {m: v for m, v in values.items() if any(v)}
    if not ran:
        raise ScalingError(f"no counted method ran during the complexity check (counted: "
                           f"{', '.join(sorted(values)) or 'none'}); does run(n) call the marked methods?")
    result = ScalingResult(metric, sizes)
    for m in select_methods(ran, method):
        f = fit(sizes, ran[m])
        result.methods[m] = MethodScaling(list(ran[m]), f.order, f.exponent, f.fits, f.growth, evidence=f.evidence)
    return result


# --- baselines and verdicts ---------------------------------------------------------------------------
def baseline_entry(scaling: dict) -> dict:
    """What a baseline stores of a result's ``"scaling"`` dict: per method, the order and its evidence (with deep
    counts: which figures were fitted, each one's order, and the one that decided)."""
    out = {}
    for m, s in sorted(scaling["methods"].items()):
        out[m] = {"metric": scaling["metric"], "order": s["order"], "exponent": s["exponent"],
                  "sizes": list(scaling["sizes"]), "values": list(s["values"])}
        if "parts" in s:
            out[m]["decided_by"] = s["decided_by"]
            out[m]["fitted"] = {p: v["order"] for p, v in s["parts"].items()}
        made = (scaling.get("jdk_made") or {}).get(m)
        if made:  # a flat check: the JDK calls that may carry work, so that a later order that rose can be judged
            out[m]["jdk_made"] = [[sig, list(v)] for sig, v in made]
    return out


def check_stored(stored, where: str) -> dict:
    ok = isinstance(stored, dict) and all(
        isinstance(s, dict) and s.get("order") in RANK and isinstance(s.get("values"), list)
        and isinstance(s.get("sizes"), list) for s in stored.values())
    if not ok:
        raise ScalingError(f"{where}: the 'scaling' entry is malformed (each method needs 'order' (one of "
                           f"{', '.join(ORDERS)}), 'sizes' and 'values'); fix it or re-record with --bytecount-update")
    return stored


# a method's change of order as a verdict on the test (regression.status.VERDICTS)
AS_VERDICT = {"same": "passed", "better": "improved", "new": "new", "gone": "changed", "metric": "changed",
              "worse": "regressed", "unjudged": "passed"}


@dataclass
class ScalingChange:
    method: str
    status: str  # same | worse | better | new | gone | metric | unjudged (fell, on a figure blind to its JDK calls)
    stored: Optional[dict] = None
    now: Optional[MethodScaling] = None


@dataclass
class ScalingVerdict:
    metric: str
    sizes: List[int]
    changes: List[ScalingChange]
    jdk_made: Dict[str, list] = field(default_factory=dict)  # the result's (ScalingResult.jdk_made)

    @property
    def status(self) -> str:
        """The worst of the methods' verdicts, in the words and the ranking of counts' verdicts."""
        return reduce(worse, (AS_VERDICT[c.status] for c in self.changes), "passed")


def compare_scaling(stored: Optional[dict], result: Optional[ScalingResult]) -> ScalingVerdict:
    """Orders now against the stored ones; sets ``baseline_order`` on the result's methods."""
    stored = stored or {}
    methods = result.methods if result is not None else {}
    changes = []
    for m in sorted(set(stored) | set(methods)):
        base, now = stored.get(m), methods.get(m)
        if now is not None and base is not None:
            now.baseline_order = base["order"]
        if base is None:
            status = "new"
        elif now is None:
            status = "gone"
        elif stored_figure(base) != now_figure(result.metric, now):
            status = "metric"
        else:
            status, base = _growth_change(base, now, result.sizes)
            now.baseline_order = base["order"]
            # on a flat figure, work that moved into the JDK calls it does not count reads as a fall, and work that
            # moved out of them as a rise: neither can be judged
            if result.metric != "deep" and ((status == "better" and result.jdk_made.get(m)) or
                                            (status == "worse" and base.get("jdk_made"))):
                status = "unjudged"
        if now is not None:
            now.change = status
        changes.append(ScalingChange(m, status, base, now))
    return ScalingVerdict(result.metric if result else "", list(result.sizes) if result else [], changes,
                         dict(result.jdk_made) if result else {})


def stored_figure(base: dict) -> str:
    """The figure a stored order was fitted on: its metric, or with deep counts the figure that decided it."""
    return base.get("decided_by") or base.get("metric", "total")


def now_figure(metric: str, now: MethodScaling) -> str:
    return PART_NAMES[now.part] if now.part is not None else metric


def _growth_change(base: dict, now: MethodScaling, sizes: List[int]):
    """(worse | better | same, the stored entry): growth now against the baseline's values (:func:`.growth.judge`),
    the stored order named again by the same rule (a baseline recorded by another rule may name
    it otherwise); by the orders' names alone when the stored values cannot be fitted."""
    try:
        named = name_order(base["sizes"], base["values"])
        status = judge(named, name_order(sizes, now.values), list(base["sizes"]) == list(sizes))
        order = named.order
    except (ScalingError, TypeError, ValueError):
        rank, was = RANK[now.order], RANK[base["order"]]
        return ("worse" if rank > was else "better" if rank < was else "same"), base
    return status, ({**base, "order": order} if order != base["order"] else base)


def made_text(calls: list) -> str:
    """``java/util/List.add(Ljava/lang/Object;)Z 8,192 times, ...``: JDK calls with how often each was made at the
    largest size (:func:`.scaling_deep.made_calls`)."""
    return ", ".join(f"{sig} {values[-1]:,} time{'s' if values[-1] != 1 else ''}" for sig, values in calls)


def _fitted(metric: str) -> str:
    """Which metric an order was fitted on, said when it is not the usual ``total``."""
    return "" if metric in ("total", "deep", "") else f" (fitted on {metric})"


def render_scaling(verdict: ScalingVerdict, accept_command: Optional[str], rerecord: Optional[str] = None) -> str:
    """What a reviewer reads when a complexity check fails or improves (empty when nothing to say).
    ``rerecord``: the command that re-records the test's baseline, for a check whose metric changed."""
    lines = []
    fitted = _fitted(verdict.metric)
    for c in verdict.changes:
        base, now = c.stored, c.now
        if c.status == "same":
            continue
        if c.status == "new":
            lines.append(f"{c.method}: no complexity baseline (now {now.describe()}{fitted})")
            continue
        if c.status == "gone":
            lines.append(f"{c.method}: the baseline holds a complexity check ({base['order']}) that this test no "
                         f"longer makes")
            continue
        if c.status == "metric":
            lines.append(f"{c.method}: the baseline's order ({base['order']}) was fitted on {stored_figure(base)}, "
                         f"and this check fits {now_figure(verdict.metric, now)} (now {now.describe()}): orders of "
                         f"two figures are not compared. Re-record the baseline"
                         + (f": {rerecord}" if rerecord else " with --bytecount-update"))
            continue
        if c.status == "unjudged":
            rose = RANK[now.order] > RANK[base["order"]]
            how = (f"it rose from {base['order']} to {now.order}, but the baseline's method called "
                   f"{made_text(base['jdk_made'])}" if rose else
                   f"it fell from {base['order']} to {now.order}, but the method calls "
                   f"{made_text(verdict.jdk_made[c.method])}")
            lines.append(f"{c.method}: the order cannot be judged on {verdict.metric}: {how} at the largest size, "
                         f"whose work {verdict.metric} does not count; the complexity check judges the work done "
                         f"anywhere with deep counts (drop deep=False from the marker)")
            continue
        label = "COMPLEXITY GOT WORSE" if c.status == "worse" else "complexity improved; baseline is stale"
        exponent = base.get("exponent")
        was = f"{base['order']}" + (f" (exponent {exponent:.2f})" if isinstance(exponent, (int, float)) else "")
        lines.append(f"{c.method}: {label}: {was} -> {now.describe()}{fitted if now.parts is None else ''}")
        rows = [("baseline", base["values"])] if base["sizes"] == verdict.sizes else []
        rows.append(("now" if now.part is None else PART_NAMES[now.part], now.values))
        rows += [(PART_NAMES[p], v) for p, (_, _, v) in (now.parts or {}).items()]
        lines += _table(verdict.sizes, rows)
        if now.where:
            lines.append("    where the work went (deep.methods, most growth first):")
            lines += _table(verdict.sizes, [(m, v) for m, v in now.where], indent=6)
        if base["sizes"] != verdict.sizes:
            lines.append(f"    (the baseline was measured at other sizes: {base['sizes']})")
        lines.append("    fits now: " + _fits_text(now.fits))
        if now.evidence:
            lines.append("    why: " + now.evidence)
    if lines and accept_command:
        lines.append(f"to accept: {accept_command}")
    return "\n".join(lines)


def _table(sizes, rows, indent: int = 4) -> List[str]:
    if indent != 4:  # long names: one row a line, the name above its values
        out = []
        for name, values in rows:
            out.append(" " * indent + name)
            out.append(" " * (indent + 2) + "  ".join(f"{v:,}" for v in values))
        return out
    head = max(len(name) for name, _ in rows + [("n", [])])
    cells = [[f"{v:,}" for v in sizes]] + [[f"{v:,}" for v in values] for _, values in rows]
    width = [max(len(col[i]) for col in cells) for i in range(len(sizes))]
    out = []
    for name, col in zip(["n"] + [name for name, _ in rows], cells):
        out.append(f"    {name:<{head}}  " + "  ".join(c.rjust(w) for c, w in zip(col, width)))
    return out


def _percent(r: float) -> str:
    return "<0.01%" if r < EXACT else f"{r * 100:.2g}%"


def _fits_text(fits: Dict[str, Optional[float]]) -> str:
    """Each order's best fit (a higher order's includes the lower terms, so it fits as well or better), in the
    orders' own order: the one named is the lowest whose fit is good enough."""
    word = {"1": "const"}  # the order 1 beside its error, "1 74%", would read as two numbers
    shown = [f"{word.get(o, o)} {_percent(fits[o])}" for o in ORDERS if fits.get(o) is not None]
    none = [word.get(o, o) for o in ORDERS if fits.get(o) is None]
    return ", ".join(shown) + (f" (no fit: {', '.join(none)})" if none else "")
