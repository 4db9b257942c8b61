"""The HTML report's complexity checks and budgets: per method, the order fitted and its evidence, the counts against
the sizes on log-log axes with the fitted power law, and a budget at sizes (``bytecount.scaling(..., budget=)``):
each limit, and the fit's projection to it; and a card for each test over a budget, led by its verdict's first line."""

from __future__ import annotations

import math
from html import escape as esc
from typing import Optional

from .verdict_lines import lead_line

NOW_COLOR = "#2b5b84"
ORDER_RANK = {o: i for i, o in enumerate(("1", "log n", "n", "n log n", "n^2", "n^3", "2^n"))}
SCALING_CSS = """
svg .limit { stroke: #c0392b; stroke-width: 3; }
svg .projection { stroke: #2b5b84; stroke-width: 1.2; stroke-dasharray: 2 3; fill: none; }
svg circle.projected { fill: #fff; stroke: #2b5b84; stroke-width: 2; } svg circle.projected.over { stroke: #c0392b; }
svg text.refused { fill: #c0392b; } tr.budget-row[data-status=over] td, tr.budget-row[data-status=refused] td { color: #c0392b; }
"""


def _n(value) -> str:
    return f"{value:,}" if isinstance(value, int) else esc(str(value))


def _decades(lo: float, hi: float, data: list) -> list:
    """Tick values for a log axis: the powers of ten inside [lo, hi], else the smallest and largest data value."""
    ticks = [10.0 ** k for k in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
             if lo <= 10.0 ** k <= hi]
    return ticks if len(ticks) >= 2 else sorted({min(data), max(data)})


def _tick(v: float) -> str:
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if v >= div:
            return f"{v / div:.3g}{unit}"
    return f"{v:.3g}"


def loglog_chart(sizes: list, values: list, exponent: Optional[float], metric: str = "total",
                 width: int = 440, height: int = 280, budget: Optional[list] = None) -> str:
    """Values against sizes on log-log axes, with the power-law line of the fitted exponent (least squares
    intercept). Points with a non-positive size or value cannot be placed and are left out. ``budget``: the
    projections of a budget at sizes (``Projection.to_dict``), each drawn as its limit (a red bar) and, unless
    refused, the projected value (an open circle, on a dotted line from the largest size measured)."""
    pts = [(float(s), float(v)) for s, v in zip(sizes, values)
           if isinstance(s, (int, float)) and isinstance(v, (int, float)) and s > 0 and v > 0]
    if not pts:
        return '<p class="meta">no positive values to plot</p>'
    ml, mr, mt, mb = 64, 16, 12, 36
    xs, ys = [math.log10(s) for s, _ in pts], [math.log10(v) for _, v in pts]
    marks = _budget_marks(budget or [])
    x0, x1 = min(xs + [m[0] for m in marks]), max(xs + [m[0] for m in marks])
    placed = [y for m in marks for y in m[1:3] if y is not None]
    y0, y1 = min(ys + placed), max(ys + placed)
    if exponent is not None and math.isfinite(exponent):
        c = sum(ys) / len(ys) - exponent * sum(xs) / len(xs)
        y0, y1 = min(y0, exponent * x0 + c, exponent * x1 + c), max(y1, exponent * x0 + c, exponent * x1 + c)
    if x1 == x0:
        x0, x1 = x0 - 0.5, x1 + 0.5
    if y1 == y0:
        y0, y1 = y0 - 0.5, y1 + 0.5
    # a margin of 4% in log space, so points at the ends are drawn whole
    x0, x1 = x0 - (x1 - x0) * 0.04, x1 + (x1 - x0) * 0.04
    y0, y1 = y0 - (y1 - y0) * 0.04, y1 + (y1 - y0) * 0.04

    def px(lx: float) -> float:
        return round(ml + (lx - x0) / (x1 - x0) * (width - ml - mr), 1)

    def py(ly: float) -> float:
        return round(height - mb - (ly - y0) / (y1 - y0) * (height - mt - mb), 1)

    parts = [f'<line class="axis" x1="{ml}" y1="{height - mb}" x2="{width - mr}" y2="{height - mb}"/>',
             f'<line class="axis" x1="{ml}" y1="{mt}" x2="{ml}" y2="{height - mb}"/>']
    for t in _decades(10 ** x0, 10 ** x1, [s for s, _ in pts]):
        x = px(math.log10(t))
        parts.append(f'<line class="grid" x1="{x}" y1="{mt}" x2="{x}" y2="{height - mb}"/>'
                     f'<text x="{x}" y="{height - mb + 15}" text-anchor="middle">{_tick(t)}</text>')
    for t in _decades(10 ** y0, 10 ** y1, [v for _, v in pts]):
        y = py(math.log10(t))
        parts.append(f'<line class="grid" x1="{ml}" y1="{y}" x2="{width - mr}" y2="{y}"/>'
                     f'<text x="{ml - 5}" y="{y + 4}" text-anchor="end">{_tick(t)}</text>')
    parts.append(f'<text x="{(ml + width - mr) / 2}" y="{height - 4}" text-anchor="middle">size n (log)</text>')
    parts.append(f'<text x="12" y="{(mt + height - mb) / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 12 {(mt + height - mb) / 2})">{esc(metric)} (log)</text>')
    if exponent is not None and math.isfinite(exponent):
        a, b = min(xs), max(xs)  # the line spans the measured sizes
        parts.append(f'<line class="fit" data-exponent="{exponent:g}" x1="{px(a)}" y1="{py(exponent * a + c)}" '
                     f'x2="{px(b)}" y2="{py(exponent * b + c)}"/>')
    parts += _budget_parts(marks, px, py, (max(xs), ys[xs.index(max(xs))]))
    for (s, v), lx, ly in zip(pts, xs, ys):
        parts.append(f'<circle class="point" data-size="{s:g}" data-value="{v:g}" cx="{px(lx)}" cy="{py(ly)}" r="4" '
                     f'fill="{NOW_COLOR}"><title>n={s:g}: {v:,.0f}</title></circle>')
    return (f'<svg class="chart loglog" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<title>count against size, log-log</title>{"".join(parts)}</svg>')


# --- page parts ----------------------------------------------------------------------------------------



def _budget_marks(budget: list) -> list:
    """[(log size, log limit or None, log projected value or None, the projection)] of the projections that can be
    placed (a limit of 0, or an infinite projection, has no place on a log axis)."""
    marks = []
    for p in budget:
        size, limit, value = p.get("size"), p.get("limit"), p.get("projected")
        if not isinstance(size, int) or size <= 0:
            continue
        llimit = math.log10(limit) if isinstance(limit, int) and limit > 0 else None
        lvalue = math.log10(value) if isinstance(value, int) and value > 0 else None
        marks.append((math.log10(size), llimit, lvalue, p))
    return marks


def _budget_parts(marks: list, px, py, last: tuple) -> list:
    """The SVG of each limit (a bar at its size) and projection (an open circle on a dotted line from ``last``, the
    largest size measured, in log space), or ``cannot project`` beside a limit that was refused."""
    parts = []
    for lx, llimit, lvalue, p in marks:
        x, status = px(lx), p.get("status", "")
        title = esc(f"n={p['size']:,}: limit {p['limit']:,}" + (
            f", projected {p['projected']:,}" if isinstance(p.get("projected"), int) else
            ", cannot project" if status == "refused" else ""))
        if llimit is not None:
            parts.append(f'<line class="limit" data-size="{p["size"]}" data-limit="{p["limit"]}" x1="{x - 9}" '
                         f'y1="{py(llimit)}" x2="{x + 9}" y2="{py(llimit)}"><title>{title}</title></line>')
        if lvalue is not None:
            parts.append(f'<line class="projection" x1="{px(last[0])}" y1="{py(last[1])}" x2="{x}" y2="{py(lvalue)}"/>'
                         f'<circle class="projected {esc(status)}" data-size="{p["size"]}" data-value="{p["projected"]}"'
                         f' cx="{x}" cy="{py(lvalue)}" r="5"><title>{title}</title></circle>')
        elif llimit is not None:
            parts.append(f'<text class="refused" x="{x}" y="{py(llimit) - 8}" text-anchor="end">cannot project</text>')
    return parts


def order_change(order: Optional[str], baseline_order: Optional[str]) -> str:
    """worse | better | same | unknown (no baseline order, or an order we cannot rank)."""
    if not baseline_order or order not in ORDER_RANK or baseline_order not in ORDER_RANK:
        return "same" if order and order == baseline_order else "unknown"
    a, b = ORDER_RANK[order], ORDER_RANK[baseline_order]
    return "worse" if a > b else "better" if a < b else "same"


def _sort_residual(v) -> float:
    return float(v) if isinstance(v, (int, float)) and math.isfinite(v) else math.inf


def _residual(v) -> str:
    return f"{v:.3g}" if isinstance(v, (int, float)) else "&ndash;"


def scaling_section(nodeid: str, scaling: dict) -> str:
    metric, sizes = scaling.get("metric", "total"), scaling.get("sizes") or []
    out = []
    for method, m in sorted((scaling.get("methods") or {}).items()):
        order, exponent, base_order = m.get("order"), m.get("exponent"), m.get("baseline_order")
        # the complexity verdict's own word where the run compared the orders; else the orders' ranks
        change = {"new": "unknown", "gone": "unknown"}.get(m.get("change"), m.get("change")) or \
            order_change(order, base_order)
        verdict = {"worse": "worse than the baseline", "better": "better than the baseline",
                   "same": "same as the baseline", "unknown": "no baseline order to compare with",
                   "unjudged": "cannot be judged on this figure: the method calls JDK methods whose work it does "
                               "not count",
                   "metric": "the baseline's order was fitted on another figure"}[change]
        exp_text = f"{exponent:.2f}" if isinstance(exponent, (int, float)) else "?"
        fits = sorted((m.get("fits") or {}).items(), key=lambda kv: (_sort_residual(kv[1]), kv[0]))
        fit_rows = "".join(f'<tr class="{"chosen" if k == order else ""}"><td class="mono">{esc(k)}</td>'
                           f'<td class="num">{_residual(v)}</td></tr>' for k, v in fits)
        points = "".join(f'<tr><td class="num">{_n(s)}</td><td class="num">{_n(v)}</td></tr>'
                         for s, v in zip(sizes, m.get("values") or []))
        figure = "deep work (deep.total + deep.copied)" if metric == "deep" else metric
        why = f'<p class="evidence">why: <span class="mono">{esc(m["evidence"])}</span></p>' if m.get("evidence") else ""
        fitted = exponent if isinstance(exponent, (int, float)) else None
        out.append(
            f'<section class="scaling" data-test="{esc(nodeid)}" data-method="{esc(method)}" data-order="{esc(order)}" '
            f'data-change="{change}"><h3><span class="mono method-id">{esc(method)}</span></h3>'
            f'<p class="meta">in <code>{esc(nodeid)}</code>; fitted on {esc(figure)}</p>'
            f'<p>fitted order <b class="order">{esc(order)}</b>, exponent <b class="exponent">{exp_text}</b>; '
            f'baseline order <b class="baseline-order">{esc(base_order) if base_order else "none"}</b>: '
            f'<span class="{change}">{verdict}</span></p>{why}'
            f'{loglog_chart(sizes, m.get("values") or [], fitted, metric, budget=m.get("budget"))}{_budget_table(m)}'
            f'<div style="display:flex;gap:2em"><table class="fits" style="width:auto"><tr><th>order</th>'
            f'<th class="num">relative residual</th></tr>{fit_rows}</table>'
            f'<table class="points" style="width:auto"><tr><th class="num">n</th><th class="num">{esc(metric)}</th></tr>'
            f'{points}</table></div></section>')
    return "".join(out)




def _budget_table(m: dict) -> str:
    """A budget at sizes: each size's limit, the projection (or why it cannot be made) and its status."""
    rows = []
    for p in m.get("budget") or []:
        projected = p.get("projected")
        shown = (f"{projected:,}" if isinstance(projected, int) else esc(str(projected))) if projected is not None \
            else "cannot project: " + esc("; ".join(p.get("refused") or []))
        rows.append(f'<tr class="budget-row" data-status="{esc(str(p.get("status")))}"><td class="num">'
                    f'{_n(p.get("size"))}</td><td class="num">{_n(p.get("limit"))}</td><td>{shown}</td>'
                    f'<td>{esc(str(p.get("status")))}</td></tr>')
    if not rows:
        return ""
    return ('<table class="budget" style="width:auto"><tr><th class="num">budget at n</th><th class="num">limit</th>'
            f'<th>projected</th><th>status</th></tr>{"".join(rows)}</table>')


def _failing_budget(result: dict) -> bool:
    projections = [p for m in ((result.get("scaling") or {}).get("methods") or {}).values() for p in m.get("budget") or []]
    return result.get("status") in ("over-budget", "unchecked") and (
        any(c.get("status") != "within" for c in result.get("budgets") or [])
        or any(p.get("status") != "within" for p in projections))


def budget_cards(results: dict) -> str:
    """One card per test over a budget (or whose budget could not be checked): the verdict's first line, each of the
    test's budgets against its figure, and the whole text."""
    cards = []
    for nodeid, r in sorted(results.items()):
        if not _failing_budget(r):
            continue
        rows = "".join(f'<tr class="budget-row" data-status="{esc(str(c.get("status")))}"><td class="mono">'
                       f'{esc(str(c.get("budget")))}</td><td>{esc(str(c.get("read_as")))}</td><td class="num">'
                       f'{_n(c.get("value")) if c.get("value") is not None else "&ndash;"}</td><td class="num">'
                       f'{_n(c.get("limit"))}</td><td>{esc(str(c.get("status")))}</td></tr>' for c in r.get("budgets") or [])
        table = (f'<table class="budgets" style="width:auto"><tr><th>budget</th><th>figure</th><th class="num">now</th>'
                 f'<th class="num">limit</th><th>status</th></tr>{rows}</table>') if rows else ""
        status = esc(str(r.get("status")))
        cards.append(f'<section class="method budget-card" data-test="{esc(nodeid)}" data-status="{status}">'
                     f'<h3><span class="mono">{esc(nodeid)}</span> <span class="status status-{status}">{status}</span>'
                     f'</h3><p class="lead regressed">{esc(lead_line(r.get("message", "")))}</p>{table}'
                     f'<pre>{esc(r.get("message", ""))}</pre></section>')
    return f"<h2>Over budget ({len(cards)})</h2>" + "".join(cards) if cards else ""
