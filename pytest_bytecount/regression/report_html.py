"""The ``--bytecount-html=DIR`` report: one self-contained ``DIR/index.html`` for a reviewer or a CI artifact.

Inline CSS and inline SVG drawn here, no script, no font, no URL: the file opens offline and shows the
same thing everywhere. Input is the plugin's per-test result dicts (what ``--bytecount-json`` writes);
the keys read are ``status``, ``counts``, ``baseline_counts``, ``method_status``, ``tripped``, ``message``
and the optional ``scaling``. Every string from a test or a class file (test ids, ``<init>``, ``$``, unicode) goes
through :func:`esc`.
"""

from __future__ import annotations

import hashlib
import html
import re
import shlex
from pathlib import Path
from typing import Callable, Iterable, Optional

from ..counting.counts import diff, metric as metric_of
from .flamegraph import flame_section, flames_of_the_rest
from .report_cards import _tripped
from .verdict_lines import lead_line
from .compare import deep_moves, percent_change, same_bytecode, widest_work
from ..wording import counted
from .report_lines import HEAT_CSS, annotated_source
from .report_scaling import NOW_COLOR, SCALING_CSS, budget_cards, loglog_chart, order_change, scaling_section  # noqa: F401 (re-exported)
from .status import MEANING, STATUSES

# per-method statuses that get a section with charts, worst first
SECTION_STATUSES = ("regressed", "changed", "reshaped", "improved")
TOP = 10  # changed opcodes / calls shown per method
SHOWN_METRICS = ("total", "invocations", "inclusive", "deep", "copied")  # the scalar metrics the report shows
# complexity orders from cheapest to dearest, to tell whether a fitted order got worse

BASELINE_COLOR = "#9aa7b4"
UP_COLOR = "#c0392b"
DOWN_COLOR = "#27864a"

CSS = """
.flame-box { overflow-x: auto; margin: .3em 0 1em; } svg.flame text { pointer-events: none; fill: #1d232a; }
svg.flame g.frame:hover rect { stroke: #000; stroke-width: 1.5; }
.flame-legend .sw { display: inline-block; width: 1.6em; height: .9em; margin: 0 .3em 0 .8em; vertical-align: middle; }
.sw.grew { background: rgb(226,131,123); } .sw.new { background: rgb(214,62,48); border: 1px solid #7a1010; }
.sw.shrank { background: rgb(131,169,222); } .sw.vanished { background: rgb(163,189,230); border: 1px dashed #1d3f80; }
.sw.same { background: rgb(170,170,170); } details.flame-of { margin: .4em 0; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #1d232a; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #d5dbe1; }
h3 { font-size: 1.05em; margin: 0 0 .4em; word-break: break-all; }
code, .mono { font-family: ui-monospace, monospace; font-size: 12.5px; }
.meta { color: #5b6670; }
.summary { display: flex; gap: .6em; list-style: none; padding: 0; flex-wrap: wrap; }
.summary li { border: 1px solid #d5dbe1; border-radius: 6px; padding: .35em .8em; }
.summary .n { font-size: 1.4em; font-weight: 600; margin-right: .25em; }
.summary .nonzero[data-status=regressed] .n, .summary .nonzero[data-status=changed] .n,
.summary .nonzero[data-status=not-run] .n, .summary .nonzero[data-status=over-limit] .n, .summary .nonzero[data-status=over-budget] .n, .summary .nonzero[data-status=nondeterministic] .n,
.summary .nonzero[data-status=failed] .n, .summary .nonzero[data-status=error] .n { color: #c0392b; }
.summary .nonzero[data-status=new] .n { color: #c77c02; }
.status { display: inline-block; border-radius: 4px; padding: 0 .4em; font-size: 12px; font-weight: 600; color: #fff; background: #7b8794; }
.status-passed, .status-same, .status-recorded { background: #27864a; } .status-regressed { background: #c0392b; }
.status-not-run, .status-over-limit, .status-over-budget, .status-unchecked, .status-nondeterministic, .status-failed, .status-error, .status-unwritten { background: #c0392b; }
.status-improved, .status-reshaped { background: #2b6cb0; } .status-changed, .status-new { background: #c77c02; }
p.lead { font-weight: 700; font-size: 1.05em; overflow-wrap: anywhere; } p.lead.regressed, p.lead.changed { color: #c0392b; }
p.lead.improved, p.lead.reshaped { color: #2b6cb0; }
p.tripped { font-weight: 600; } p.tripped.regressed { color: #c0392b; } p.tripped.improved, p.tripped.reshaped { color: #2b6cb0; }
table { border-collapse: collapse; width: 100%; margin: .5em 0; }
th, td { border-bottom: 1px solid #e4e8ec; padding: .25em .5em; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; } td.num { white-space: nowrap; }
td.id { min-width: 20ch; overflow-wrap: anywhere; } span.figure { color: #666; font-size: .85em; white-space: nowrap; }
.wide { overflow-x: auto; } svg.chart { max-width: 100%; height: auto; }
p.tripped, .meta code, code.accept, h3 { overflow-wrap: anywhere; }
.up { color: #c0392b; } .down { color: #27864a; }
section.method, section.scaling { border: 1px solid #d5dbe1; border-radius: 8px; padding: 1em; margin: 1em 0; }
svg text { font: 12px ui-monospace, monospace; fill: #1d232a; }
svg text.up { fill: #c0392b; } svg text.down { fill: #27864a; } svg text.same { fill: #5b6670; }
svg .axis { stroke: #7b8794; stroke-width: 1; } svg .grid { stroke: #e4e8ec; stroke-width: 1; }
svg .fit { stroke: #c77c02; stroke-width: 1.5; stroke-dasharray: 5 4; fill: none; }
.legend span { display: inline-block; width: .9em; height: .9em; vertical-align: -.1em; margin: 0 .3em 0 .8em; }
pre { background: #f4f6f8; padding: .6em; overflow-x: auto; font-size: 12.5px; }
tr.chosen td { font-weight: 600; }
.worse { color: #c0392b; font-weight: 600; } .better { color: #27864a; font-weight: 600; }
""" + HEAT_CSS + SCALING_CSS


def esc(value) -> str:
    """Text or attribute value, escaped for HTML (quotes included)."""
    return html.escape(str(value), quote=True)


def _n(value) -> str:
    return f"{value:,}" if isinstance(value, int) else esc(value)


def _delta(base: int, now: int) -> str:
    d = now - base
    pct = "" if base == 0 else f" ({percent_change(base, base + d)})"
    return f"{d:+,}{pct}"


def _anchor(nodeid: str, method: str) -> str:
    return "m-" + hashlib.sha1(f"{nodeid}\0{method}".encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _breakable(text: str) -> str:
    """``text`` escaped, with a line-break opportunity after each separator of an id (``.``, ``/``, ``#``,
    ``::``, ``(``, ``;``, ``[``), so that a narrow column breaks ids where they read well."""
    return "".join(esc(part) + ("<wbr>" if i % 2 else "") for i, part in enumerate(re.split(r"(::|[./#(;\[])", text)))


def _short(text: str, limit: int = 46) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def method_statuses(result: dict) -> dict:
    """method id -> same | regressed | reshaped | improved | changed | new | gone, from the plugin's verdict when
    the result carries it, else "changed" for any difference (no tolerances known here)."""
    given = result.get("method_status")
    if given:
        return dict(given)
    now, base = result.get("counts") or {}, result.get("baseline_counts")
    if base is None:
        return {m: "new" for m in now}
    out = {}
    for m in sorted(set(now) | set(base)):
        if m not in base or m not in now:
            out[m] = "new" if m not in base else "gone"
        else:
            changes = diff(base[m], now[m])
            same = not (changes.opcodes or changes.calls or any(s in SHOWN_METRICS for s, _, _ in changes.scalars))
            out[m] = "same" if same else "changed"
    return out


# --- SVG charts ----------------------------------------------------------------------------------------

# Each work figure's metrics as the report labels them (the deciding figure first), by the widest figure in force
CHARTED = {"deep": (("deep", "deep.total"), ("copied", "deep.copied"), ("total", "total"), ("invocations", "invocations")),
           "inclusive": (("inclusive", "inclusive"), ("total", "total"), ("invocations", "invocations")),
           "total": (("total", "total"), ("invocations", "invocations"))}


def charted(base: dict, now: dict) -> tuple:
    """(metric, label) pairs a method's card charts: the figure that decides its verdict first."""
    return CHARTED[widest_work(base or None, now or None)]


def baseline_vs_now_chart(base: dict, now: dict, width: int = 840) -> str:
    """Horizontal bars baseline vs now for each charted figure (:func:`charted`: the deciding one first, then the
    method's own ``total`` and ``invocations``), each metric on its own scale."""
    label_w, series_w, bar_max, row_h = 100, 70, 330, 22
    rows = []
    y = 6
    figures = charted(base, now)
    for name, metric in figures:
        b, n = int(metric_of(base, name) or 0), int(metric_of(now, name) or 0)
        top = max(b, n, 1)
        rows.append(f'<text x="0" y="{y + 15}" font-weight="bold">{esc(metric)}</text>')
        for series, value, color in (("baseline", b, BASELINE_COLOR), ("now", n, NOW_COLOR)):
            w = round(bar_max * value / top, 1)
            x0 = label_w + series_w
            rows.append(f'<text x="{label_w}" y="{y + 15}">{series}</text>'
                        f'<rect class="bar {series}" data-metric="{metric}" data-value="{value}" x="{x0}" y="{y + 3}" '
                        f'width="{w}" height="{row_h - 6}" fill="{color}"><title>{metric} {series}: {value:,}</title></rect>'
                        f'<text class="value" x="{x0 + w + 6}" y="{y + 15}">{value:,}</text>')
            y += row_h
        cls = "up" if n > b else "down" if n < b else "same"
        rows.append(f'<text class="delta {cls}" x="{label_w + series_w + bar_max + 100}" y="{y - row_h + 3}">'
                    f'{esc(_delta(b, n)) if n != b else "no change"}</text>')
        y += 8
    return (f'<svg class="chart baseline-vs-now" role="img" width="{width}" height="{y}" viewBox="0 0 {width} {y}">'
            f'<title>baseline vs now: {esc(", ".join(label for _, label in figures))}</title>{"".join(rows)}</svg>')


def changes_chart(title: str, changes: list, top: int = TOP, width: int = 760) -> str:
    """Bars of |delta| for the ``top`` most changed keys (red up, green down), labelled base -> now."""
    if not changes:
        return f'<p class="no-changes">no {esc(title)} changed</p>'
    shown = changes[:top]
    label_w, bar_max, row_h = 350, 220, 20  # 46 characters of 12 px monospace, and a gap
    values = [f"{n - b:+,}  ({b:,} \u2192 {n:,})" for _, b, n in shown]
    width = max(width, label_w + bar_max + 6 + round(7.4 * max(len(v) for v in values)) + 4)
    biggest = max(abs(n - b) for _, b, n in shown) or 1
    rows = []
    for i, (key, b, n) in enumerate(shown):
        y = i * row_h
        d = n - b
        w = round(bar_max * abs(d) / biggest, 1)
        color = UP_COLOR if d > 0 else DOWN_COLOR
        rows.append(f'<text x="0" y="{y + 14}"><title>{esc(key)}</title>{esc(_short(key))}</text>'
                    f'<rect class="bar delta" data-key="{esc(key)}" data-delta="{d}" x="{label_w}" y="{y + 3}" '
                    f'width="{w}" height="{row_h - 6}" fill="{color}"><title>{esc(key)}: {b:,} -&gt; {n:,}</title></rect>'
                    f'<text x="{label_w + w + 6}" y="{y + 14}">{esc(values[i])}</text>')
    height = len(shown) * row_h + 4
    more = f'<p class="meta">and {len(changes) - top} more</p>' if len(changes) > top else ""
    return (f'<svg class="chart changes {esc(title)}" role="img" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><title>top changed {esc(title)}</title>{"".join(rows)}</svg>{more}')


def _status(s: str) -> str:
    return f'<span class="status status-{esc(s)}">{esc(s)}</span>'


ALWAYS_SHOWN = ("passed", "regressed", "improved", "changed", "new")


def tally(results: dict) -> dict:
    """Tests by status: the usual five always, every other status (recorded, not-run, failed, ...) when
    some test has it. The words are the terminal summary's (:mod:`pytest_bytecount.plugin.summary`)."""
    out = {s: 0 for s in STATUSES}
    for r in results.values():
        out[r.get("status", "new")] = out.get(r.get("status", "new"), 0) + 1
    return {s: n for s, n in out.items() if n or s in ALWAYS_SHOWN}


def _summary(results: dict) -> str:
    items = "".join(f'<li class="count status-count{" nonzero" if n else ""}" data-status="{esc(s)}" data-count="{n}" '
                    f'title="{esc(MEANING.get(s, ""))}">'
                    f'<span class="n">{n}</span>{esc(s)}</li>' for s, n in tally(results).items())
    return f'<ul class="summary">{items}</ul>'


def _invocations(base: Optional[int], now: Optional[int]) -> str:
    """One cell for both sides: the count when it is the same, else baseline &rarr; now."""
    shown = [_n(v) if v is not None else "&ndash;" for v in (base, now)]
    return shown[1] if base == now else f"{shown[0]} &rarr; {shown[1]}"


WORK_LABEL = {"deep": "deep work", "inclusive": "inclusive", "total": "total"}  # deep work: deep.total + deep.copied


def _table(results: dict, sections: set) -> str:
    head = ('<tr><th>test</th><th>test status</th><th>method</th><th>method status, work figure</th>'
            '<th class="num">baseline</th><th class="num">now</th><th class="num">&Delta;</th>'
            '<th class="num">invocations</th></tr>')
    rows = []
    for nodeid, r in sorted(results.items()):
        now, base = r.get("counts") or {}, r.get("baseline_counts") or {}
        statuses = method_statuses(r)
        for method in sorted(set(now) | set(base)):
            b, n = base.get(method), now.get(method)
            work = widest_work(b, n)
            bt, nt = metric_of(b, work) if b else None, metric_of(n, work) if n else None
            if work == "deep":  # the deep work: instructions run anywhere and elements copied
                bt, nt = (None if v is None else v + (metric_of(e, "copied") or 0) for v, e in ((bt, b), (nt, n)))
            bi, ni = (b or {}).get("invocations"), (n or {}).get("invocations")
            delta = ""
            if isinstance(bt, int) and isinstance(nt, int):
                cls = "up" if nt > bt else "down" if nt < bt else ""
                delta = f'<span class="{cls}">{esc(_delta(bt, nt))}</span>' if nt != bt else "0"
            anchor = _anchor(nodeid, method)
            name = f'<a href="#{anchor}">{_breakable(method)}</a>' if anchor in sections else _breakable(method)
            rows.append(f'<tr data-test="{esc(nodeid)}" data-method="{esc(method)}"><td class="id mono">{_breakable(nodeid)}</td>'
                        f'<td>{_status(r.get("status", ""))}</td><td class="id mono">{name}</td>'
                        f'<td>{_status(statuses.get(method, ""))} <span class="figure">{WORK_LABEL[work]}</span></td>'
                        f'<td class="num baseline-total">{_n(bt) if bt is not None else "&ndash;"}</td>'
                        f'<td class="num now-total">{_n(nt) if nt is not None else "&ndash;"}</td>'
                        f'<td class="num">{delta}</td>'
                        f'<td class="num">{_invocations(bi, ni)}</td></tr>')
    return f'<div class="wide"><table class="all">{head}{"".join(rows)}</table></div>'


def _method_section(nodeid: str, result: dict, method: str, status: str,
                    file_lines: Optional[Callable[[str], Optional[list]]] = None) -> str:
    b, n = result["baseline_counts"].get(method) or {}, result["counts"].get(method) or {}
    changes = diff(b, n)
    hb, hn = b.get("code_fingerprint"), n.get("code_fingerprint")
    if hb and hn:
        code = ("the method's bytecode changed since the baseline" if hb != hn else
                same_bytecode((result.get("callees_changed") or {}).get(method)
                              if result.get("callees_changed") is not None else None))
    else:
        code = "unknown whether the bytecode changed (the baseline holds no code fingerprint: re-record it to keep one)"
    accept = result.get("accept") or f"pytest {shlex.quote(nodeid)} --bytecount-update"
    parts = [f'<section class="method" id="{_anchor(nodeid, method)}" data-test="{esc(nodeid)}" '
             f'data-method="{esc(method)}" data-status="{esc(status)}">',
             f'<h3>{_status(status)} <span class="mono method-id">{esc(method)}</span></h3>',
             f'<p class="meta">in <code>{esc(nodeid)}</code></p>',
             _lead(result, status),
             _tripped(status, (result.get("tripped") or {}).get(method) or []),
             '<p class="legend">baseline vs now<span style="background:%s"></span>baseline<span style="background:%s">'
             '</span>now</p>' % (BASELINE_COLOR, NOW_COLOR),
             baseline_vs_now_chart(b, n),
             _where_the_work_went(b, n),
             flame_section(result, method, _anchor(nodeid, method) + "-flame"),
             annotated_source(method, b, n, (hb == hn) if hb and hn else None, file_lines, esc,
                              _anchor(nodeid, method) + "-lines"),
             '<h4>top changed opcodes</h4>', changes_chart("opcodes", changes.opcodes),
             '<h4>top changed calls</h4>', changes_chart("calls", changes.calls),
             f'<p class="bytecode">{esc(code)}</p>',
             f'<p>to accept: <code class="accept">{esc(accept)}</code></p>']
    if result.get("message"):
        parts.append(f'<details><summary>failure text</summary><pre>{esc(result["message"])}</pre></details>')
    parts.append("</section>")
    return "".join(parts)


def _lead(result: dict, status: str) -> str:
    """The card's first line: the verdict's (:func:`~.compare.lead_line`), as every surface leads with it."""
    line = lead_line(result.get("message", ""))
    return f'<p class="lead {esc(status)}">{esc(line)}</p>' if line else ""


def _where_the_work_went(b: dict, n: dict) -> str:
    """With deep counts: the methods (the JDK's included) whose deep counts moved most, growth first."""
    moves = deep_moves(b or None, n or None, top=TOP)
    if not moves:
        return ""
    rows = "".join(f'<tr><td class="mono">{_breakable(m)}</td><td class="num">{_n(x)}</td><td class="num">{_n(y)}</td>'
                   f'<td class="num"><span class="{"up" if y > x else "down"}">{esc(_delta(x, y))}</span></td></tr>'
                   for m, x, y in moves)
    return ('<h4>where the work went (deep.methods)</h4><table class="deep-moves"><tr><th>method</th>'
            f'<th class="num">baseline</th><th class="num">now</th><th class="num">&Delta;</th></tr>{rows}</table>')


def _ordered_sections(results: dict) -> Iterable:
    found = []
    for nodeid, r in results.items():
        if not r.get("baseline_counts"):
            continue
        for method, status in method_statuses(r).items():
            if status in SECTION_STATUSES:  # a method that did not run on one side counts 0 there
                be, ne = r["baseline_counts"].get(method), (r.get("counts") or {}).get(method)
                work = widest_work(be, ne)
                b, n = (metric_of(e, work) or 0 if e else 0 for e in (be, ne))
                # worst status first, then the largest relative change of the work figure
                found.append((SECTION_STATUSES.index(status), -abs(n - b) / max(b, 1), nodeid, method, status))
    return [(nodeid, method, status) for _, _, nodeid, method, status in sorted(found)]


def render(results: dict, title: str = "pytest-bytecount report",
           file_lines: Optional[Callable[[str], Optional[list]]] = None) -> str:
    """The whole page for ``{nodeid: result}``. ``file_lines(method id)``: the lines of the method's source
    file, or None (see :class:`~.sources.SourceLines`), for the annotated source."""
    sections = list(_ordered_sections(results))
    anchors = {_anchor(nodeid, method) for nodeid, method, _ in sections}
    jvms = sorted({str(r["jvm"]) for r in results.values() if r.get("jvm")})
    plugins = sorted({str(r["plugin"]) for r in results.values() if r.get("plugin")})
    meta = counted(len(results), "counted test")
    if jvms:
        meta += f"; JVM {', '.join(jvms)}"
    if plugins:
        meta += f"; pytest-bytecount {', '.join(plugins)}"
    shards = sorted({str(r["shard"]) for r in results.values() if r.get("shard")})
    if shards:
        meta += f"; {'shards' if len(shards) > 1 else 'shard'} {', '.join(shards)}"
    body = [f"<h1>{esc(title)}</h1>", f'<p class="meta">{esc(meta)}</p>', _summary(results)]
    if not results:
        body.append('<p class="empty">No counted tests in this run.</p>')
    body.append(budget_cards(results))
    if sections:
        body.append(f"<h2>Changed methods ({len(sections)})</h2>")
        body.extend(_method_section(nodeid, results[nodeid], method, status, file_lines)
                    for nodeid, method, status in sections)
    body.append(flames_of_the_rest(results, {(nodeid, m) for nodeid, m, _ in sections}))
    scaled = [(nodeid, r["scaling"]) for nodeid, r in sorted(results.items()) if r.get("scaling")]
    if scaled:
        body.append("<h2>Scaling</h2>")
        body.extend(scaling_section(nodeid, s) for nodeid, s in scaled)
    if results:
        body.append("<h2>All counted tests</h2>")
        body.append(_table(results, anchors))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n")


def write_report(results: dict, directory: Path, file_lines: Optional[Callable[[str], Optional[list]]] = None) -> Path:
    """Write ``directory/index.html`` (the folder is created) and return its path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "index.html"
    with open(path, "w", encoding="utf-8", errors="replace", newline="\n") as f:
        f.write(render(results, file_lines=file_lines))
    return path
