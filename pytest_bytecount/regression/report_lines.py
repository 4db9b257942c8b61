"""The HTML report's annotated source: a changed method's source lines with the baseline's and the current
executed instructions per line, each row's background a heat colour by its delta (red for more, green for
fewer; the strongest for the method's largest change), as coverage reports colour line hits.

Rows are the current source's lines from the first line that ran to the last (either side), with a little
context, and the lines farther than that from any line that ran shortened to a gap row. A baseline line is shown on the
current line :func:`~.lines.line_pairs` pairs it with; a baseline line with no counterpart now, or whose
code today's line of that number no longer holds, is listed under the table. Without the source file, the line numbers alone are shown.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..counting.counts.keys import NO_LINE
from .lines import line_pairs

CONTEXT = 2  # lines shown around the lines that ran
UP_RGB = (231, 76, 60)
DOWN_RGB = (46, 160, 90)
HEAT_CSS = """
div.source { overflow-x: auto; }
table.source { font: 12.5px/1.35 ui-monospace, monospace; }
table.source td { border: 0; padding: 0 .5em; white-space: pre; }
table.source td.code { width: 100%; }
table.source tr.gap td { color: #7b8794; }
table.source tr.src td.line { color: #5b6670; text-align: right; }
"""


def heat(delta: int, biggest: int) -> Optional[str]:
    """The row colour for ``delta`` on a scale where ``biggest`` is the largest |delta| of the method:
    white mixed with red (more) or green (fewer) from 20% up to 80%; None for no change."""
    if not delta or not biggest:
        return None
    share = 0.2 + 0.6 * min(abs(delta) / biggest, 1.0)
    r, g, b = UP_RGB if delta > 0 else DOWN_RGB
    return "#%02x%02x%02x" % tuple(round(255 + (c - 255) * share) for c in (r, g, b))


def annotated_source(method: str, base: dict, now: dict, same_code: Optional[bool],
                     file_lines: Optional[Callable[[str], Optional[list]]], esc, anchor: str = "") -> str:
    """The section's annotated source (HTML, its heading's id ``anchor``), or a note when either side has
    no per-line counts."""
    pairs = line_pairs(base, now, same_code)
    if pairs is None or not pairs:
        return '<p class="meta no-lines">no per-line counts for this method on one side (recorded without "lines")</p>'
    # a line that ran only before is shown on today's line of that number when today's code there is the
    # code it ran (lines.LineChange.text_is_current); otherwise it has no place in the current source
    by_now = {c.shown_line: c for c in pairs if c.text_is_current}
    gone = [c for c in pairs if not c.text_is_current]
    biggest = max(abs(c.now - c.base) for c in pairs)
    text = file_lines(method) if file_lines is not None else None
    numbered = sorted(int(k) for k in by_now if k != NO_LINE)
    shown: list = []
    if numbered:
        last = numbered[-1] + CONTEXT if text is None else min(numbered[-1] + CONTEXT, len(text))
        shown = list(range(max(1, numbered[0] - CONTEXT), last + 1))
        if text is None:  # no source: the lines that ran, nothing between
            shown = numbered
    rows = []
    near = {i for r in numbered for i in range(r - CONTEXT, r + CONTEXT + 1)}
    skip_from = None
    for i in shown:
        if i not in near:
            skip_from = i if skip_from is None else skip_from
            continue
        if skip_from is not None:
            rows.append(_gap(i - skip_from))
            skip_from = None
        source = text[i - 1] if text is not None and i <= len(text) else ""
        rows.append(_row(str(i), by_now.get(str(i)), source, biggest, esc))
    if NO_LINE in by_now:
        rows.append(_row(NO_LINE, by_now[NO_LINE], "(instructions no line covers)", biggest, esc))
    head = ('<tr><th class="num">line</th><th class="num">baseline</th><th class="num">now</th>'
            '<th class="num">&Delta;</th><th>source</th></tr>')
    where = "" if text is not None else ('<p class="meta source-missing">source file not found: set '
                                          '<code>source-path</code> (folders or -sources.jar files)</p>')
    by_code = isinstance(base.get("line_digests"), dict) and isinstance(now.get("line_digests"), dict)
    matched = ('<p class="meta">the bytecode changed: baseline lines are paired with current ones '
               + ('by their code (lines between runs of equal code by their counts)' if by_code else
                  'by aligning their counts in order (the baseline has no line digests)')
               + '; a paired line whose number moved shows its baseline number</p>' if same_code is False else "")
    out = [f'<h4 id="{esc(anchor)}">source lines</h4>{where}{matched}<div class="source"><table class="source" data-method="{esc(method)}">{head}{"".join(rows)}</table></div>']
    if gone:
        items = "".join(f'<li class="gone-line" data-line="{esc(c.base_line)}">line {esc(c.base_line)}'
                        f'{" (before the change)" if c.before_the_change else ""}: {c.base:,} &rarr; 0</li>'
                        for c in gone)
        out.append(f'<p class="meta">baseline lines that have no counterpart now:</p><ul class="gone">{items}</ul>')
    return "".join(out)


def _gap(n: int) -> str:
    return f'<tr class="gap"><td class="line">&#8942;</td><td colspan="4">{n} line{"s" if n != 1 else ""}</td></tr>'


def _row(line: str, change, source: str, biggest: int, esc) -> str:
    base, now = (change.base, change.now) if change is not None else (0, 0)
    delta = now - base
    colour = heat(delta, biggest)
    style = f' style="background:{colour}"' if colour else ""
    moved = ""
    if change is not None and change.base_line and change.base_line != change.now_line:
        moved = f' <span class="meta">(line {esc(change.base_line)})</span>'
    return (f'<tr class="src" data-line="{esc(line)}" data-base="{base}" data-now="{now}" data-delta="{delta}"{style}>'
            f'<td class="line num">{esc(line)}</td><td class="num">{f"{base:,}" if base else ""}{moved}</td>'
            f'<td class="num">{f"{now:,}" if now else ""}</td><td class="num">{f"{delta:+,}" if delta else ""}</td>'
            f'<td class="code">{esc(source.rstrip())}</td></tr>')
