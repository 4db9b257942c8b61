"""History from git (``python -m pytest_bytecount history``): the baselines are committed, exact and deterministic, so
``git log`` of a baseline file is the history of every test's cost. Per test and method: the deciding figure (the
widest work figure its entry records: deep work, inclusive or total) and the stored order at each commit that changed
the test's entry, with that commit's short hash, date and subject; a page draws each as a static SVG step chart."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..counting.counts import metric
from .compare import work_metric
from .baseline import BaselineError, BaselineFile
from .git import Commit, _git, changes, relative, show_at, toplevel
from .tree_store import SUFFIX


class HistoryError(Exception):
    """The files asked for cannot be walked: the message says which and why."""


@dataclass
class Step:
    commit: Commit
    figure: Optional[str]  # None: the entry was removed at this commit (or does not record the method)
    value: Optional[int]
    order: Optional[str]  # the stored complexity order, when the entry has a scaling check of the method


@dataclass
class Series:
    file: str  # the baseline file, as git names it now
    key: str  # the test's key
    method: str
    steps: list = field(default_factory=list)


def baseline_files(paths: list) -> list:
    """``[(repo, path)]``: each path named, or each baseline file git tracks under a folder named (a ``.json`` file
    in a folder called ``bytecount``, where the plugin keeps them, or any ``.json`` directly named)."""
    out = []
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise HistoryError(f"{p}: no such file or folder")
        repo = toplevel(path)
        if path.is_file():
            out.append((repo, path.resolve()))
            continue
        done = _git(repo, "ls-files", "-z", "--", relative(repo, path))
        tracked = [repo / name for name in done.stdout.decode("utf-8", "replace").split("\x00") if name]
        out += [(repo, f) for f in tracked if f.suffix == ".json" and not f.name.endswith(SUFFIX)
                and f.parent.name == "bytecount"]
    if not out:
        raise HistoryError(f"no baseline files tracked by git under {', '.join(paths)} (bytecount/*.json); name "
                           f"the files, or commit them first")
    return sorted(set(out))


def _figure(counts: Optional[dict]) -> tuple:
    if not isinstance(counts, dict):
        return None, None
    work = work_metric(counts)
    return work, metric(counts, work)


def _order(entry: dict, method: str) -> Optional[str]:
    scaling = entry.get("scaling")
    stored = scaling.get(method) if isinstance(scaling, dict) else None
    return stored.get("order") if isinstance(stored, dict) else None


def _matches(key: str, test: Optional[str]) -> bool:
    return test is None or key == test or test.endswith("::" + key) or test.split("::")[-1] == key


def history(files: list, test: Optional[str] = None) -> list:
    """The :class:`Series` of every test (``test``: one, by key or node id) in ``files`` (:func:`baseline_files`)."""
    found: dict = {}
    for repo, path in files:
        name = relative(repo, path)
        previous: dict = {}  # key -> its entry at the last commit that had the file
        for commit, rel in changes(repo, path):
            raw = show_at(repo, commit.sha, rel)
            try:
                tests = BaselineFile.parse(Path(rel), raw).tests if raw else {}
            except BaselineError:
                continue  # a commit whose file could not be read (a merge's markers, say) changes nothing shown
            for key in sorted(set(tests) | set(previous)):
                entry, before = tests.get(key), previous.get(key)
                if entry == before or not _matches(key, test):
                    continue
                methods = (entry or {}).get("methods") or {}
                for method in sorted(set(methods) | set(((before or {}).get("methods") or {}))):
                    figure, value = _figure(methods.get(method))
                    series = found.setdefault((name, key, method), Series(name, key, method))
                    step = Step(commit, figure, value, _order(entry or {}, method))
                    last = series.steps[-1] if series.steps else None
                    if last is None or (last.figure, last.value, last.order) != (figure, value, step.order) \
                            or entry is None:
                        series.steps.append(step)
            previous = tests
    if test is not None and not found:
        raise HistoryError(f"no test {test!r} in the history of {counted_files(files)}")
    return [found[k] for k in sorted(found)]


def counted_files(files: list) -> str:
    return f"{len(files)} baseline file{'s' if len(files) != 1 else ''}"


def _change(before: Optional[Step], step: Step) -> str:
    if before is None or before.value is None or step.value is None or before.figure != step.figure:
        return ""
    d = step.value - before.value
    if d == 0:
        return "same"
    pct = f", {d / before.value * 100:+.1f}%" if before.value else ""
    return f"{d:+,}{pct}"


def render_history(found: list) -> str:
    if not found:
        return "no baseline entries in the history of these files\n"
    out = []
    file = None
    for s in found:
        if s.file != file:
            file = s.file
            out.append(file)
        out.append(f"  {s.key}  {s.method}")
        before = None
        for step in s.steps:
            c = step.commit
            if step.value is None:
                figure = "removed"
            else:
                figure = f"{step.figure} {step.value:,}"
            change = _change(before, step)
            order = f"  order {step.order}" if step.order else ""
            out.append(f"    {c.short}  {c.date}  {figure:>22}  {change:>22}{order}  {c.subject}")
            before = step
    return "\n".join(out) + "\n"


def _chart(s: Series) -> str:
    points = [st for st in s.steps if st.value is not None]
    w, h, left, top, bottom = 640, 170, 90, 16, 40
    top_value = max([p.value for p in points] + [1])
    n = max(len(s.steps), 2)
    xs = [left + i * (w - left - 20) / (n - 1) for i in range(len(s.steps))]

    def y(v):
        return top + (h - top - bottom) * (1 - v / top_value)

    parts = [f'<svg class="trend" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
             f'aria-label="{html.escape(s.key)}: {html.escape(s.method)}">',
             f'<line x1="{left}" y1="{y(0):.1f}" x2="{w - 10}" y2="{y(0):.1f}" stroke="#999"/>',
             f'<text x="{left - 6}" y="{y(top_value) + 4:.1f}" text-anchor="end" font-size="11">{top_value:,}</text>',
             f'<text x="{left - 6}" y="{y(0) + 4:.1f}" text-anchor="end" font-size="11">0</text>']
    path = []  # a step line: each figure holds until the commit that changed it
    for x, st in zip(xs, s.steps):
        if st.value is not None:
            path.append(f"H{x:.1f} V{y(st.value):.1f}" if path else f"M{x:.1f} {y(st.value):.1f}")
    if path:
        parts.append(f'<path d="{" ".join(path)}" fill="none" stroke="#2b6cb0" stroke-width="2"/>')
    for x, st in zip(xs, s.steps):
        label = html.escape(f"{st.commit.short} {st.commit.date} {st.commit.subject}")
        if st.value is not None:
            parts.append(f'<circle class="step" cx="{x:.1f}" cy="{y(st.value):.1f}" r="4" fill="#2b6cb0" '
                         f'data-commit="{st.commit.short}" data-value="{st.value}"><title>{label}: {st.figure} '
                         f'{st.value:,}</title></circle>')
        parts.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle" font-size="11" '
                     f'font-family="monospace">{html.escape(st.commit.short)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def trend_page(found: list) -> str:
    """A page with one static SVG chart per test and method (no script, nothing from the network)."""
    body = []
    for s in found:
        rows = "".join(f"<tr><td class=\"mono\">{html.escape(st.commit.short)}</td><td>{st.commit.date}</td>"
                       f"<td class=\"num\">{'' if st.value is None else f'{st.figure} {st.value:,}'}</td>"
                       f"<td>{html.escape(st.order or '')}</td><td>{html.escape(st.commit.subject)}</td></tr>"
                       for st in s.steps)
        body.append(f'<section class="series" data-test="{html.escape(s.key)}" data-method="{html.escape(s.method)}">'
                    f"<h2>{html.escape(s.key)} <small class=\"mono\">{html.escape(s.method)}</small></h2>"
                    f"<p class=\"mono\">{html.escape(s.file)}</p>{_chart(s)}"
                    f"<table><tr><th>commit</th><th>date</th><th>figure</th><th>order</th><th>subject</th></tr>"
                    f"{rows}</table></section>")
    style = ("body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em} .mono{font-family:monospace}"
             " td.num{text-align:right} table{border-collapse:collapse} td,th{padding:2px 8px;border-bottom:1px "
             "solid #ddd} svg.trend{max-width:100%;height:auto}")
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>pytest-bytecount history</title>"
            f"<style>{style}</style></head><body><h1>pytest-bytecount: history from git</h1>{''.join(body)}"
            f"</body></html>\n")

