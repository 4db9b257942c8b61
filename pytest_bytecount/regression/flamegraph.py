"""Flame graphs of calling-context trees as static SVG (no script: the HTML report allows none), and differential
ones between a baseline's tree and this run's.

The layout is an icicle: the target's frame on top, each call below its caller, children in name order (so a frame
sits at the same place in the pictures of two runs), a frame as wide as its total. A differential graph lays the
frames out by the sum of both sides' totals, so that every path of either side has room: one that grew, shrank,
appeared or vanished is drawn all the same. Its colour says what happened to the frame's total:

- red for a rise, stronger the larger it is relatively; a path new in this run is red with a solid outline and
  ``new`` in its title;
- blue for a fall; a path that vanished is pale blue with a dashed outline and ``vanished`` in its title;
- grey when the total did not change.

Every frame's hover title carries the exact figures: the path, its total before and now with the change, its own
instructions and its invocations. Counts are exact, so nothing is normalised: a frame's change is the change.
"""

from __future__ import annotations

from html import escape
from typing import Optional

from ..counting.counts.calltree import CallTree, aligned, short_frame

ROW = 17  # px per frame row
MIN_WIDTH = 0.4  # px: narrower frames are left out (their work is still in their caller's width)
RISE, FALL, SAME = (214, 62, 48), (52, 110, 200), (170, 170, 170)


def _colour(before: int, now: int) -> tuple:
    """(fill, outline style) of a frame whose total went from ``before`` to ``now``."""
    if before == now:
        return "rgb(%d,%d,%d)" % SAME, ""
    if before == 0:
        return "rgb(%d,%d,%d)" % RISE, ' stroke="#7a1010" stroke-width="1.2"'
    if now == 0:
        return "rgb(%d,%d,%d)" % tuple(255 - (255 - c) * 45 // 100 for c in FALL), \
            ' stroke="#1d3f80" stroke-width="1.2" stroke-dasharray="3,2"'
    change = min(abs(now - before) / max(before, now), 1.0)
    strength = 0.25 + 0.75 * change
    base = RISE if now > before else FALL
    return "rgb(%d,%d,%d)" % tuple(round(255 - (255 - c) * strength) for c in base), ""


def _plain(path: tuple) -> str:
    """A warm colour of a plain (one-run) flame graph, the same for the same method in every picture."""
    h = sum(map(ord, path[-1])) if path else 0
    return "rgb(%d,%d,%d)" % (225 + h % 30, 90 + h * 7 % 120, 40 + h * 3 % 50)


def _label(text: str, width: float) -> str:
    room = int((width - 6) / 6.3)
    if room < 3:
        return ""
    return text if len(text) <= room else text[:room - 1] + "\u2026"


def flame_svg(now: CallTree, before: Optional[CallTree] = None, width: int = 960, title: str = "") -> str:
    """The flame graph of ``now`` (``before`` None), or the differential one of ``before`` -> ``now`` (the two
    :func:`aligned`, so that a path below the kept share on one side is not drawn as vanished or new)."""
    if before is not None:
        now, before = aligned(now, before)
    tn = now.totals()
    tb = before.totals() if before is not None else {}
    paths = set(tn) | set(tb)
    size = {p: tn.get(p, 0) + tb.get(p, 0) for p in paths}
    kids: dict = {}
    for p in paths:
        if p:
            kids.setdefault(p[:-1], []).append(p)
    whole = size.get((), 0)
    frames = []  # (x, depth, width, path)
    depth_max = 0
    stack = [((), 0.0, 0)]
    while stack:
        path, x, depth = stack.pop()
        w = size[path] / whole * width if whole else 0
        if w < MIN_WIDTH:
            continue
        if path:
            frames.append((x, depth, w, path))
            depth_max = max(depth_max, depth)
        at = x
        for k in sorted(kids.get(path, [])):
            stack.append((k, at, depth + 1 if path else 1))
            at += size[k] / whole * width if whole else 0
    height = (depth_max + 1) * ROW + 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="flame" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for x, depth, w, path in sorted(frames, key=lambda f: (f[1], f[0])):
        y = (depth - 1) * ROW + 2
        b, n = tb.get(path, 0), tn.get(path, 0)
        own_b, own_n = (before.nodes.get(path, [0, 0, 0]) if before is not None else [0, 0, 0]), \
            now.nodes.get(path, [0, 0, 0])
        name = short_frame(path[-1])
        if before is None:
            fill, outline = _plain(path), ""
            tip = f"{' -> '.join(path)}\ntotal {n:,}, own {own_n[0]:,}, invocations {own_n[1]:,}"
        else:
            fill, outline = _colour(b, n)
            what = " (new)" if b == 0 else " (vanished)" if n == 0 else ""
            pct = f", {(n - b) / b * 100:+.1f}%" if b else ""
            tip = (f"{' -> '.join(path)}{what}\ntotal {b:,} -> {n:,} ({n - b:+,}{pct})\n"
                   f"own {own_b[0]:,} -> {own_n[0]:,}, invocations {own_b[1]:,} -> {own_n[1]:,}")
            if what:
                name = f"{name}{what}"
        kind = "new" if before is not None and b == 0 else "vanished" if before is not None and n == 0 else \
            "grew" if n > b and before is not None else "shrank" if n < b and before is not None else "same"
        out.append(f'<g class="frame {kind}"><title>{escape(tip)}</title>'
                   f'<rect x="{x:.1f}" y="{y}" width="{max(w - 0.6, 0.3):.1f}" height="{ROW - 1}" fill="{fill}"'
                   f'{outline} rx="1.5"/>')
        label = _label(name, w)
        if label:
            out.append(f'<text x="{x + 3:.1f}" y="{y + 12}">{escape(label)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def flame_section(result: dict, method: str, anchor: str) -> str:
    """The differential flame graph of the method's tree, baseline -> now (or this run's alone, when the baseline
    kept none)."""
    now, before = ((result.get(k) or {}).get(method) for k in ("trees", "baseline_trees"))
    if not now:
        return ""
    if not before:
        return (f'<h4 id="{anchor}">where the work is (flame graph; the baseline kept no tree)</h4><div class="flame-box">'
                + flame_svg(CallTree.from_dict(now)) + "</div>")
    return (f'<h4 id="{anchor}">where the work went (differential flame graph)</h4><p class="legend flame-legend">'
            'frames as wide as '
            'both runs\' work, hover for the exact figures: <span class="sw grew"></span>grew <span class="sw new">'
            '</span>new <span class="sw shrank"></span>shrank <span class="sw vanished"></span>vanished '
            '<span class="sw same"></span>the same</p><div class="flame-box">'
            + flame_svg(CallTree.from_dict(now), CallTree.from_dict(before)) + "</div>")


def flames_of_the_rest(results: dict, shown: set) -> str:
    """A flame graph of each method with a tree that has no section of its own (its test passed), folded away."""
    parts = []
    for nodeid, r in sorted(results.items()):
        for method, tree in sorted((r.get("trees") or {}).items()):
            if (nodeid, method) in shown:
                continue
            t = CallTree.from_dict(tree)
            parts.append(f'<details class="flame-of"><summary><code>{escape(nodeid)}</code> '
                         f'<span class="mono">{escape(method)}</span>: {t.total():,} instructions</summary>'
                         f'<div class="flame-box">{flame_svg(t)}</div></details>')
    return ("<h2>Where the work is (flame graphs)</h2>" + "".join(parts)) if parts else ""


def flame_page(tests: dict, title: str, css: str) -> str:
    """The ``flamegraph`` command's page: for each test (``{label: {"trees", "baseline_trees"}}``) and target, the
    differential flame graph baseline -> now, or this run's alone, headed by the totals. Static, like the report."""
    body = [f"<h1>{escape(title)}</h1>"]
    differential = sum(1 for t in tests.values() for m in t["trees"] if (t.get("baseline_trees") or {}).get(m))
    plain = sum(len(t["trees"]) for t in tests.values()) - differential
    body.append(f'<p class="meta">{len(tests):,} test{"s" if len(tests) != 1 else ""}: {differential:,} differential '
                f'flame graph{"s" if differential != 1 else ""}, {plain:,} of one run</p>')
    for i, (label, t) in enumerate(tests.items()):
        body.append(f"<h2><code>{escape(label)}</code></h2>")
        for j, method in enumerate(sorted(t["trees"])):
            now = CallTree.from_dict(t["trees"][method])
            old = (t.get("baseline_trees") or {}).get(method)
            figures = f"{now.total():,} instructions"
            if old:
                b = CallTree.from_dict(old).total()
                figures = f"{b:,} -> {now.total():,} instructions ({now.total() - b:+,}" + (
                    f", {(now.total() - b) / b * 100:+.1f}%)" if b else ")")
            body.append(f'<h3 class="mono">{escape(method)}</h3><p class="meta">{escape(figures)}</p>')
            body.append(flame_section(t, method, f"t{i}-m{j}"))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{css}</style></head>\n<body>\n" + "\n".join(body)
            + "\n</body></html>\n")
