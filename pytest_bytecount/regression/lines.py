"""Which source lines' counts moved between a baseline and now (each method's ``"lines"``), for the failure
text: ``Work.java:42  1,000 -> 100,000 (+99,000)``, largest change first.

How lines are matched:

- Same bytecode as the baseline (``code_fingerprint`` equal, or unknown): line numbers mean the same code,
  so a line is compared with the same line.
- Changed bytecode, both sides with ``line_digests`` (a digest of each line's instructions, see
  :func:`pytest_bytecount.counting.counts.keys.line_digests`): every line of the method's code on both sides, in
  line order, is aligned by its digest (``difflib.SequenceMatcher``, longest runs of equal code first).
  Lines with the same code are paired even where their numbers moved, so a line inserted above them does
  not mark everything below as changed, and a line whose code changed is not paired with another line
  that merely ran as often. The lines between two such runs are paired by their counts, as below.
- Changed bytecode without digests (a baseline recorded before they were kept): the lines that ran are
  aligned by their counts in order, so lines whose counts agree in order are paired. Two lines that ran
  equally often can then be paired wrongly; the figures of a line that changed are still exact.

Between two aligned runs, lines pair up in order, and the rest are new (from 0) or gone (to 0).

A line's text is read from today's source, so it is shown only beside figures of the code it holds now
(:attr:`LineChange.base_code_here`): a line that ran only in the baseline, where the code has changed
since (its digest differs from today's line of that number, or the line has gone), is shown as
``Work.java:11 (before the change)  4 -> 0``, without text; a paired line whose code changed says so.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable, Optional

from ..counting.counts.keys import NO_LINE, line_order


@dataclass(frozen=True)
class LineChange:
    base_line: Optional[str]  # None: a line that did not run in the baseline (or is new)
    now_line: Optional[str]  # None: a line that did not run now (or is gone)
    base: int
    now: int
    # whether the code the baseline counted on base_line is the code today's source holds on the line shown
    # (now_line, else base_line): True, False (it changed, or the line has gone), None (unknown). True for a
    # line that did not run in the baseline, for there is no baseline code to show.
    base_code_here: Optional[bool] = True
    # the deep work under the line's calls (from the calling-context trees), baseline and now; None: not known
    calls_base: Optional[int] = None
    calls_now: Optional[int] = None

    @property
    def change(self) -> int:
        """The line's own change and that of the work under its calls."""
        return self.now - self.base + (self.calls_now or 0) - (self.calls_base or 0)

    @property
    def shown_line(self) -> Optional[str]:
        return self.now_line or self.base_line

    @property
    def before_the_change(self) -> bool:
        """A baseline line with no counterpart now, in code that changed: today's text is not its code."""
        return self.now_line is None and self.base_code_here is False

    @property
    def text_is_current(self) -> bool:
        """Whether today's text of the line shown is the code its figures were counted on."""
        return self.now_line is not None or self.base_code_here is True


def _ordered(lines: dict) -> list:
    return sorted(lines, key=line_order)


def line_pairs(base: Optional[dict], now: Optional[dict], same_code: Optional[bool]) -> Optional[list]:
    """Every line of either side as a :class:`LineChange` (equal counts included), the baseline's line paired
    with the current one as the module explains; None when either side has no ``lines``."""
    b, n = (base or {}).get("lines"), (now or {}).get("lines")
    if base is not None and now is not None and (b is None or n is None):
        return None  # a baseline recorded without lines (or a method too large for its line counters)
    b, n = b or {}, n or {}
    db, dn = (base or {}).get("line_digests"), (now or {}).get("line_digests")
    if same_code is not False:
        pairs = [(k if k in b else None, k if k in n else None) for k in _ordered({**b, **n})]
    elif isinstance(db, dict) and isinstance(dn, dict) and set(b) <= set(db) and set(n) <= set(dn):
        pairs = _by_code(_ordered(db), _ordered(dn), db, dn, b, n)
    else:
        pairs = _aligned(_ordered(b), _ordered(n), b, n)
    return [LineChange(kb, kn, b.get(kb, 0) if kb else 0, n.get(kn, 0) if kn else 0,
                       _base_code_here(kb, kn, same_code, db, dn)) for kb, kn in pairs]


def _base_code_here(kb: Optional[str], kn: Optional[str], same_code: Optional[bool], db, dn) -> Optional[bool]:
    """:attr:`LineChange.base_code_here` of one pair, from the method's fingerprints and the lines' digests."""
    if kb is None or same_code is True:
        return True
    shown = kn or kb
    if isinstance(db, dict) and isinstance(dn, dict) and kb in db:
        return shown in dn and db[kb] == dn[shown]
    return False if same_code is False and kn is None else None


def line_changes(base: Optional[dict], now: Optional[dict], same_code: Optional[bool]) -> list:
    """The lines whose counts differ, largest change first (empty when either side has no ``lines``)."""
    out = [c for c in line_pairs(base, now, same_code) or () if c.base != c.now]
    return sorted(out, key=lambda c: (-abs(c.now - c.base), line_order(c.now_line or c.base_line)))


def _member(frame_or_key: str) -> tuple:
    """(owner, member) of a tree frame (``pkg.Cls#name(desc)``) or a call key (``pkg/Cls.name(desc)``)."""
    if "#" in frame_or_key:
        owner, _, member = frame_or_key.partition("#")
        return owner, member
    owner, _, member = frame_or_key.partition(".")
    return owner.replace("/", "."), member


def call_sites(calls: dict, children: set) -> dict:
    """``{child frame: line}``: the line whose call reached each of the target's children in the tree. A call
    names its static owner (an interface, a superclass) and the tree the method that ran, so a child is matched
    by its owner and member first, then by its member alone; a child whose member is called on several lines is
    left out (the tree does not tell the calls apart)."""
    exact, by_member = {}, {}
    for line, keys in calls.items():
        for key in keys:
            if key.startswith("indy "):
                continue
            owner, member = _member(key)
            exact.setdefault((owner, member), set()).add(line)
            by_member.setdefault(member, set()).add(line)
    out = {}
    for frame in children:
        owner, member = _member(frame)
        lines = exact.get((owner, member)) or by_member.get(member) or set()
        if len(lines) == 1:
            out[frame] = next(iter(lines))
    return out


def with_call_work(base: Optional[dict], now: Optional[dict], same_code: Optional[bool], calls: dict,
                   before: dict, after: dict) -> list:
    """:func:`line_changes` with each line that makes calls carrying the deep work under them, baseline and now:
    ``calls`` is ``{line: [call key]}`` of today's code, ``before`` and ``after`` the totals of the target's children
    in the two trees (``{frame: total}``). A line whose own counts did not change but whose calls' work did is
    listed too. Largest change of the two together first."""
    sites = call_sites(calls, set(before) | set(after))
    under_now: dict = {}
    under_base: dict = {}
    for frame, line in sites.items():
        under_now[line] = under_now.get(line, 0) + after.get(frame, 0)
        under_base[line] = under_base.get(line, 0) + before.get(frame, 0)
    out = []
    for c in line_pairs(base, now, same_code) or ():
        line = c.now_line
        if line in under_now and (c.base_line == line or c.base_line is None):
            c = LineChange(c.base_line, c.now_line, c.base, c.now, c.base_code_here, under_base[line], under_now[line])
        if c.change or c.base != c.now:
            out.append(c)
    return sorted(out, key=lambda c: (-abs(c.change), line_order(c.now_line or c.base_line)))


def _by_code(lines_b: list, lines_n: list, db: dict, dn: dict, b: dict, n: dict) -> list:
    """Pairs of the lines that ran on either side: every line of the code aligned by digest (a pair keeps
    both numbers even when one side did not run), the lines between runs of equal code aligned by their
    counts."""
    pairs = []
    matcher = difflib.SequenceMatcher(None, [db[k] for k in lines_b], [dn[k] for k in lines_n], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs += [(kb, kn) for kb, kn in zip(lines_b[i1:i2], lines_n[j1:j2]) if kb in b or kn in n]
        else:
            ran_b = [k for k in lines_b[i1:i2] if k in b]
            ran_n = [k for k in lines_n[j1:j2] if k in n]
            pairs += _aligned(ran_b, ran_n, b, n)
    return pairs


def _aligned(keys_b: list, keys_n: list, b: dict, n: dict) -> list:
    pairs = []
    matcher = difflib.SequenceMatcher(None, [b[k] for k in keys_b], [n[k] for k in keys_n], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or tag == "replace":
            common = min(i2 - i1, j2 - j1)
            pairs += list(zip(keys_b[i1:i1 + common], keys_n[j1:j1 + common]))
            pairs += [(k, None) for k in keys_b[i1 + common:i2]] + [(None, k) for k in keys_n[j1 + common:j2]]
        else:
            pairs += [(k, None) for k in keys_b[i1:i2]] + [(None, k) for k in keys_n[j1:j2]]
    return pairs


def source_file_of(method_id: str) -> str:
    """The source file a method's class comes from, by the Java convention: ``pkg.Outer$Inner#m()V`` ->
    ``Outer.java``."""
    cls = method_id.split("#", 1)[0]
    return cls.rsplit(".", 1)[-1].split("$", 1)[0] + ".java"


def render_line_changes(method_id: str, changes: list, text: Optional[Callable[[str, str], Optional[str]]] = None,
                        top: int = 5) -> list:
    """Failure lines for one method: ``File.java:42  1,000 -> 100,000 (+99,000)``, the line's source text
    after it when ``text(method_id, line)`` finds it and it is the code the figures were counted on."""
    if not changes:
        return []
    name = source_file_of(method_id)
    out = ["    lines that changed most:"]
    rows = []
    for c in changes[:top]:
        line = c.shown_line
        where = f"{name}:{line}" if line != NO_LINE else f"{name} (no line)"
        if c.base_line and c.now_line and c.base_line != c.now_line:
            where += f" (was {c.base_line})"
        if c.before_the_change:
            where += " (before the change)"
        elif c.base_line and c.now_line and c.base_code_here is False:
            where += " (its code changed)"
        source = text(method_id, line) if text is not None and line != NO_LINE and c.text_is_current else None
        figure = f"{c.base:,} -> {c.now:,} ({c.now - c.base:+,})"
        if c.calls_now is not None and c.calls_now != c.calls_base:
            figure += f"; under its calls {c.calls_base:,} -> {c.calls_now:,} ({c.calls_now - c.calls_base:+,})"
        rows.append((where, figure, source))
    width = max(len(w) for w, _, _ in rows)
    figures = max(len(f) for _, f, _ in rows)
    for where, figure, source in rows:
        tail = f"  | {source.strip()}" if source else ""
        out.append(f"      {where:{width}}  {figure:{figures}}{tail}".rstrip())
    if len(changes) > top:
        out.append(f"      and {len(changes) - top} more line{'s' if len(changes) - top > 1 else ''}")
    return out
