"""Source annotated with per-line counts, as ``callgrind_annotate`` or ``coverage annotate`` print it
(``python -m pytest_bytecount annotate`` and ``count --lines``).

Per source file: the lines of its counted methods that ran, with a few lines of context around them, each
with its executed instructions (summed over the file's methods), and with a baseline: the baseline's
count, the current one and the difference. A file that is not found is shown as its line numbers alone.
"""

from __future__ import annotations

from typing import Optional

from ..counting.counts.keys import NO_LINE
from .lines import line_pairs
from .sources import SourceLines, source_path_of

CONTEXT = 2  # lines shown around the lines that ran


def _per_file(counts: dict) -> dict:
    """{source path: ({line: count}, first method id, [method ids])} over every method's ``lines``."""
    out: dict = {}
    for method in sorted(counts):
        lines = (counts[method] or {}).get("lines")
        if lines is None:
            continue
        path = source_path_of(method)
        by_line, _, methods = out.setdefault(path, ({}, method, []))
        methods.append(method)
        for line, n in lines.items():
            by_line[line] = by_line.get(line, 0) + n
    return out


def _paired(counts: dict, baseline: dict) -> tuple:
    """``baseline`` with each method's lines moved onto the current lines they pair with (:func:`~.lines.line_pairs`,
    as the HTML report pairs them: by the lines' code where the method changed), and ``{source path: [(baseline
    line, count)]}`` of the lines whose code the current source no longer holds."""
    out, gone = {}, {}
    for method, entry in baseline.items():
        now = counts.get(method)
        if not isinstance(entry, dict) or not isinstance(now, dict) or entry.get("lines") is None:
            out[method] = entry
            continue
        fb, fn = entry.get("code_fingerprint"), now.get("code_fingerprint")
        pairs = line_pairs(entry, now, fb == fn if fb and fn else None)
        if pairs is None:
            out[method] = entry
            continue
        lines: dict = {}
        for c in pairs:
            if not c.base:
                continue
            if c.text_is_current:
                lines[c.shown_line] = lines.get(c.shown_line, 0) + c.base
            else:
                gone.setdefault(source_path_of(method), []).append((c.base_line, c.base))
        out[method] = {**entry, "lines": lines}
    return out, gone


def annotate(counts: dict, source: SourceLines, baseline: Optional[dict] = None, context: int = CONTEXT) -> str:
    """The annotated text of every source file ``counts`` (the contract's JSON) has lines of; with ``baseline``,
    its lines paired with the current ones."""
    paired, gone = _paired(counts, baseline or {})
    now, base = _per_file(counts), _per_file(paired)
    if not now and not base:
        return "no per-line counts in these counts: they were written without \"lines\"\n"
    out = []
    for path in sorted(set(now) | set(base)):
        lines_now, method, methods = now.get(path, ({}, None, []))
        lines_base, base_method, base_methods = base.get(path, ({}, None, []))
        method = method or base_method
        text = source.file_lines(method)
        names = sorted(set(methods) | set(base_methods))
        out.append(f"-- {path}  ({', '.join(m.split('#', 1)[1] for m in names)})"
                   + ("" if text is not None else "  [source not found: give --source-path]"))
        numbered = sorted(int(k) for k in set(lines_now) | set(lines_base) if k.isdigit())
        shown = sorted({i for n in numbered for i in range(max(1, n - context), n + context + 1)
                        if text is None and i == n or text is not None and i <= len(text)})
        head = f"{'baseline':>12} {'now':>12} {'delta':>10}" if baseline is not None else f"{'count':>12}"
        out.append(f"{'line':>6} {head}")
        previous = None
        for i in shown:
            if previous is not None and i > previous + 1:
                out.append(f"{'...':>6}")
            previous = i
            key = str(i)
            out.append(_row(key, lines_base.get(key), lines_now.get(key), baseline is not None,
                            text[i - 1] if text is not None else None))
        if NO_LINE in lines_now or NO_LINE in lines_base:
            out.append(_row(NO_LINE, lines_base.get(NO_LINE), lines_now.get(NO_LINE), baseline is not None,
                            "(instructions no line covers)"))
        for line, n in sorted(gone.get(path, ()), key=lambda g: (len(g[0]), g[0])):
            out.append(f"  before the change: line {line} ran {n:,} in the baseline; its code is not in this source")
        codeless = _without_code(lines_now, text)
        if codeless:
            out.append(f"warning: counts on {len(codeless)} line{'s' if len(codeless) > 1 else ''} with no code in "
                       f"this source ({', '.join(map(str, codeless))}): the source has changed since the counts were "
                       f"taken, so the counts above may sit on the wrong lines")
        out.append("")
    return "\n".join(out)


def _without_code(lines: dict, text: Optional[list]) -> list:
    """The numbers of the lines that ran by ``lines`` where ``text`` (the source as it is now) has no code: past
    its end, blank, or a comment alone (javac puts no instruction there)."""
    if text is None:
        return []
    out = []
    for key, n in lines.items():
        if not key.isdigit() or not n:
            continue
        i = int(key)
        line = text[i - 1].strip() if i <= len(text) else None
        if line is None or not line or line.startswith(("//", "/*", "*")):
            out.append(i)
    return sorted(out)


def _row(line: str, base: Optional[int], now: Optional[int], with_base: bool, text: Optional[str]) -> str:
    def cell(v: Optional[int], width: int) -> str:
        return f"{v:>{width},}" if v else " " * width

    if with_base:
        delta = (now or 0) - (base or 0)
        figures = f"{cell(base, 12)} {cell(now, 12)} {f'{delta:+,}' if delta else '':>10}"
    else:
        figures = cell(now, 12)
    return f"{line:>6} {figures}  | {text.rstrip() if text is not None else ''}".rstrip()
