"""Comparing counts with a baseline: tolerances, verdicts, and the failure text a reviewer reads."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Optional

from ..counting.counts import diff, metric
from ..counting.counts.calltree import render_path
from .lines import line_changes, render_line_changes
from .status import worse
from .tolerances import (ALL, DEEP_WORK, WORK, Tolerance, ToleranceError, bound_deep_work,  # noqa: F401 - re-exported
                         named_metrics, parse_tolerances)


def ran(entry: Optional[dict]) -> bool:
    """Whether one method's counts show that it ran: a normal completion, or, when those are tallied
    (``abrupt=True``), one that ended by an exception."""
    return runs(entry) > 0


def that_ran(counts: dict) -> dict:
    """The methods of ``{method id: counts}`` that ran: what a baseline stores (a method absent counts as 0)."""
    return {m: c for m, c in counts.items() if ran(c)}


def runs(entry: Optional[dict]) -> int:
    """Invocations of one method, those that ended by an exception included when tallied."""
    if not entry:
        return 0
    return (metric(entry, "invocations") or 0) + (metric(entry, "abrupt") or 0)


@dataclass(frozen=True)
class Change:
    """One figure that differs from the baseline: a scalar metric (``total``) or one call
    (``calls java/lang/Math.max(II)I``), and the tolerance it was judged by. For a call, ``counted`` names
    the metric that counts the callee's work (``inclusive``), or is None when nothing does."""

    metric: str
    base: int
    now: int
    tolerance: Optional[Tolerance] = None
    counted: Optional[str] = None

    @property
    def call(self) -> Optional[str]:
        """The callee's signature, for a call's change."""
        return self.metric[len("calls "):] if self.metric.startswith("calls ") else None

    def text(self, short: bool = False) -> str:
        """``total 212 -> 20,012 (+19,800, +9339.6%)``; for a call ``new call java/util/List.contains(...)
        0 -> 1,000 (its own work is not counted)``, its descriptor shortened to ``(...)`` when ``short``."""
        d = self.now - self.base
        detail = f"{d:+,}"
        if self.base and " " not in self.metric:  # a scalar metric; keyed counts show the delta only
            detail += f", {_pct(self.base, self.now)}"
        if self.tolerance is not None and (self.tolerance.absolute or self.tolerance.relative):
            detail += f"; tolerance {self.tolerance}"
        if self.call is None:
            return f"{self.metric} {self.base:,} -> {self.now:,} ({detail})"
        callee = _short_signature(self.call) if short else self.call
        if self.now > self.base:
            counted = self.counted
            if short and counted is not None and "#" in counted:
                counted = counted.partition("(")[0]
            detail += "; its own work is not counted" if counted is None else f"; its work is counted in {counted}"
        return f"{'new call' if self.base == 0 else 'call'} {callee} {self.base:,} -> {self.now:,} ({detail})"

    def __str__(self) -> str:
        return self.text()


def _short_signature(signature: str) -> str:
    """``java/util/List.contains(Ljava/lang/Object;)Z`` -> ``java/util/List.contains(...)``."""
    head, paren, _ = signature.partition("(")
    return f"{head}(...)" if paren else signature


JDK_PACKAGES = ("java/", "javax/", "jdk/", "sun/", "com/sun/")


def counted_in(entry: Optional[dict], signature: str) -> Optional[str]:
    """The metric of ``entry`` (one method's counts) that counts the work of calls to ``signature``, or
    None. With inclusive counts, a callee that ran for the method, and completed, is among the inclusive
    counts' ``methods``: the callee itself (``owner#name(desc)``), or for a call through an application
    class or interface, a method of that name and descriptor in another class (the one dispatch chose).
    JDK methods are never counted there, and neither are ``invokedynamic`` call sites."""
    inclusive = (entry or {}).get("inclusive")
    callee = _callee(signature)
    deep = (entry or {}).get("deep")
    if isinstance(deep, dict) and (callee is None or any(m.endswith(callee[1]) for m in deep.get("methods", ()))):
        return "deep"  # it ran in the target's window (an invokedynamic call site: what its target called did)
    if not isinstance(inclusive, dict) or callee is None:
        return None
    owner, member = callee
    methods = [m for m in inclusive.get("methods", ()) if isinstance(m, str)]
    if f"{owner}{member}" in methods:
        return "inclusive"
    if not owner.replace(".", "/").startswith(JDK_PACKAGES) and any(m.endswith(member) for m in methods):
        return "inclusive"
    return None


def counted_method(signature: str, counted: Iterable[str]) -> Optional[str]:
    """The method id among ``counted`` (the methods the test counted) that a call to ``signature`` runs,
    when the call names it exactly (``cat/memo/Routes.walk(I)J`` -> ``cat.memo.Routes#walk(I)J``): the
    callee's work is then counted in its own entry (recursion, or another marked method)."""
    callee = _callee(signature)
    method = None if callee is None else "".join(callee)
    return method if method in counted else None


def _callee(signature: str) -> Optional[tuple]:
    """``owner/Cls.name(desc)ret`` -> (``owner.Cls``, ``#name(desc)ret``), the parts of a method id; None for
    an ``invokedynamic`` call site, which names no method."""
    head, paren, rest = signature.partition("(")
    owner, _, name = head.rpartition(".")
    if signature.startswith("indy ") or not paren or not owner:
        return None
    return owner.replace("/", "."), f"#{name}({rest}"


def work_metric(entry: Optional[dict]) -> str:
    """The widest figure of a method's work its counts record: ``deep`` (the work done anywhere, the JDK's
    included) with deep counts, ``inclusive`` (its own and its application callees') with inclusive counts,
    else ``total`` (its own instructions)."""
    for name in ("deep", "inclusive"):
        if isinstance((entry or {}).get(name), dict):
            return name
    return "total"


def widest_work(b: Optional[dict], n: Optional[dict]) -> str:
    """The widest work figure both sides record (the side that ran, when one did not): the one that decides."""
    sides = [e for e in (b, n) if e is not None]
    ranks = [("total", "inclusive", "deep").index(work_metric(e)) for e in sides]
    return ("total", "inclusive", "deep")[min(ranks)] if ranks else "total"


# Figures the counts have only because the marker asked for them (a weight table, allocation recording,
# exits by exception tallied): each decides on its own, as asked.
ASKED_FOR = ("cost", "allocated", "elements", "abrupt")


@dataclass(frozen=True)
class Judged:
    """One method's verdict: its status, the figures that decided it, its work figure (metric, base, now), and the
    figures that rose within a tolerance the user gave."""

    status: str
    tripped: list
    work: tuple
    within: list


def judge(b: Optional[dict], n: Optional[dict], now: dict, changes, tolerances: dict, strict: bool) -> Judged:
    """The verdict on one method (``b`` and ``n`` its counts, None where it did not run; ``now``: every method
    counted now). The widest work figure both sides record decides (:func:`widest_work`): with deep counts
    the deep work (``deep`` + ``copied``), with inclusive counts ``inclusive``, else ``total``. A narrower
    figure (the method's own instructions, its invocations, its opcodes and lines, calls whose work the
    deciding figure counts) explains the verdict and decides only when the tolerances name it. A call decides
    where its work is counted nowhere: flat, a call into code no counted method covers; with inclusive counts,
    every call into uncounted code made by the target or by the callees counted with it. With deep counts every
    call's work is in the deep work.

    ``regressed``: a deciding figure rose beyond its tolerance. ``changed``: strict, and anything moved.
    ``improved``: the work fell (narrower figures may have risen: work moved into the method), or everything
    that moved fell. ``reshaped``: the work stayed within tolerance while narrower figures rose (work moved
    between the method, its callees and the JDK). Else ``same``, with the figures that rose within tolerance."""
    widest = widest_work(b, n)
    deciding = DEEP_WORK if widest == "deep" else (widest,)

    def tol(m: str) -> Tolerance:  # a bare tolerance ("5%") is the deciding figure's, unless that one is named
        return tolerances.get(m) or (tolerances.get(WORK) if m == deciding[0] else None) or Tolerance()
    rises = [Change(m, bv, nv, tol(m)) for m, bv, nv in changes.scalars]
    calls = [Change(f"calls {k}", bv, nv, tol("calls"), counted_in(n, k) or counted_method(k, now))
             for k, bv, nv in changes.calls]
    if widest == "inclusive":  # the calls of the target and of its counted callees, where those record more
        by_key = {c.metric: c for c in calls}
        for k, bv, nv in dict(changes.inclusive).get("inclusive calls", []):
            if not (counted_in(n, k) or counted_method(k, now)):
                by_key[f"calls {k}"] = Change(f"calls {k}", bv, nv, tol("calls"))
        calls = list(by_key.values())
    figures = {c.metric: c for c in rises}
    base_work, now_work = _work(b, widest), _work(n, widest)
    work = (widest, base_work, now_work)
    explicit = [c for c in rises + calls if c.metric.split(" ")[0] in tolerances and c.metric not in deciding]
    decides = [c for c in rises if c.metric in ASKED_FOR] + \
        [c for c in calls if c.counted is None and widest != "deep"] + explicit
    over = [c for c in decides if not c.tolerance.allows(c.base, c.now)]
    if not tol(deciding[0]).allows(base_work, now_work):  # the work rose beyond its tolerance
        over = [figures[m] for m in deciding if m in figures and figures[m].now > figures[m].base] + over
    over = list(dict.fromkeys(over))  # a figure once, where a tolerance named it too
    rose = [c for c in rises + calls if c.now > c.base]
    if over:
        return Judged("regressed", over, work, [])
    if not changes:
        return Judged("same", [], work, [])
    if strict:
        return Judged("changed", [replace(c, tolerance=None) for c in rises + calls], work, [])
    moved = [replace(c, tolerance=None) for c in rises + calls]
    # calls that rose to methods counted in an entry of their own: the work moved there, where it is judged
    elsewhere = [c for c in rose if c.call is not None and c.counted not in (None, widest)]
    if not moved:
        return Judged("same", [], work, [])  # only the opcode mix shifted
    if not rose or (now_work < base_work and not elsewhere):
        first = [c for c in moved if c.metric in deciding] + [c for c in moved if c.metric not in deciding]
        return Judged("improved", first, work, [])  # the work fell, or nothing rose
    narrower = [replace(c, tolerance=None) for c in rose if c.metric not in deciding and c not in explicit]
    if elsewhere or narrower:
        return Judged("reshaped", [c for c in narrower if c.call] + [c for c in narrower if not c.call], work, [])
    return Judged("same", [], work, [c for c in rose if c.tolerance.absolute or c.tolerance.relative])


def deep_moves(b: Optional[dict], n: Optional[dict], top: int = 5) -> list:
    """[(method, base, now)] of the deep counts' ``methods`` (where the work was done, the JDK included) that
    moved most: growth first, largest first; then the largest falls."""
    before = ((b or {}).get("deep") or {}).get("methods") or {}
    after = ((n or {}).get("deep") or {}).get("methods") or {}
    moved = [(m, before.get(m, 0), after.get(m, 0)) for m in set(before) | set(after) if before.get(m, 0) != after.get(m, 0)]
    moved.sort(key=lambda x: (x[2] <= x[1], -abs(x[2] - x[1]), x[0]))
    return moved[:top]


def _work(entry: Optional[dict], widest: str) -> int:
    """The method's work by the figure ``widest`` (0 where it did not run)."""
    if entry is None:
        return 0
    return sum(metric(entry, m) or 0 for m in DEEP_WORK) if widest == "deep" else metric(entry, widest) or 0


@dataclass
class MethodDiff:
    method: str
    status: str  # same | regressed | reshaped | improved | changed
    metrics: list = field(default_factory=list)  # [(name, base, now)] that differ
    opcode_changes: list = field(default_factory=list)  # [(key, base, now)] largest first
    call_changes: list = field(default_factory=list)
    bytecode_changed: Optional[bool] = None
    inclusive_changes: list = field(default_factory=list)  # [(title, [(key, base, now)])] of inclusive counts
    tripped: list = field(default_factory=list)  # [Change] outside tolerance (regressed) or that decided the status
    presence: Optional[str] = None  # "started": did not run in the baseline; "stopped": did not run now
    line_changes: list = field(default_factory=list)  # [LineChange] largest first (regression.lines)
    work: tuple = ("total", 0, 0)  # (metric, base, now): the method's work, as work_metric names it
    renamed: Optional[str] = None  # the method of the other side with the same code (a rename, it seems)
    within: list = field(default_factory=list)  # [Change] that rose, within a tolerance the user gave
    deep_moves: list = field(default_factory=list)  # [(method, base, now)] of deep.methods, most growth first
    inside: Optional[str] = None  # the target whose deep work holds all of this one's: it is judged as part of it
    path_moves: list = field(default_factory=list)  # [(call path, base, now)] whose work changed most (calltree)
    callees_changed: Optional[list] = None  # application callees whose code changed (None: their code is not known)


@dataclass
class Verdict:
    status: str  # passed | improved | reshaped | new | changed | regressed
    diffs: list = field(default_factory=list)
    strict: bool = False

    @property
    def failed(self) -> bool:
        return self.status in ("regressed", "changed", "new")

    def headline(self, limit: int = 3) -> str:
        """The first line of the verdict: the status, the figures that decided it (baseline -> now), and
        each deciding method's work figure (its ``total``, or ``inclusive``) when that is not among them."""
        decisive = [d for d in self.diffs if d.status == self.status and d.inside is None]
        renamed = [f"renamed? {d.renamed.partition('(')[0]} -> {d.method.partition('(')[0]} (the same code and counts)"
                   for d in decisive if d.renamed and not d.tripped and d.presence == "started"]
        decisive = [d for d in decisive if not (d.renamed and not d.tripped)]
        if renamed and not decisive:
            return f"{'CHANGED' if self.status == 'changed' else 'reshaped'}: {'; '.join(renamed)}" + \
                (" (strict: any change fails)" if self.status == "changed" else "")
        items = [(d, c) for d in decisive for c in d.tripped]
        if not items:  # strict, and only the opcode mix (or the callees' inclusive counts) shifted
            items = [(d, Change(f"opcodes {k}", b, n)) for d in decisive for k, b, n in d.opcode_changes[:1]]
            items = items or [(d, Change(f"{title} {k}", b, n)) for d in decisive
                              for title, changes in d.inclusive_changes[:1] for k, b, n in changes[:1]]
        shown_items = items[:limit]
        by_method: dict = {}  # method -> the texts of its figures, in the order they decided
        for d, c in shown_items:
            by_method.setdefault(d.method, (d, []))[1].append(c.text(short=True))
        more = [f"and {len(items) - limit} more"] if len(items) > limit else []
        work: dict = {}  # method -> its work figure, unless that figure tripped (then it is shown already)
        for d, _ in by_method.values():
            metric, base, now = d.work
            if not any(c.metric == metric for e, c in items if e.method == d.method):
                figure = "unchanged" if base == now else f"{base:,} -> {now:,}" if not base else _pct(base, now)
                work[d.method] = [f"{metric} {figure}"]
        if len(by_method) == 1:  # the figures, then how many more, then the work figure
            method, (_, texts) = next(iter(by_method.items()))
            parts = texts + more + work.get(method, [])
        else:  # one group per method, named once, its descriptor only where two shown share a name
            names = [m.partition("(")[0] for m in by_method]
            parts = [f"{m if names.count(m.partition('(')[0]) > 1 else m.partition('(')[0]}: "
                     f"{', '.join(texts + work.get(m, []))}" for m, (_, texts) in by_method.items()] + more
        shown = "; ".join(renamed + parts)
        label = {"regressed": "REGRESSED", "changed": "CHANGED", "improved": "improved", "reshaped": "reshaped"}[
            self.status]
        if self.status == "changed":
            shown += " (strict: any change fails)"
        elif self.status == "improved":
            shown += "; the baseline is stale"
        elif self.status == "reshaped":
            shown += "; the work stayed within tolerance, only where it is done moved"
        return f"{label}: {shown}"


def compare(baseline: Optional[dict], now: dict, tolerances: dict, strict: bool = False) -> Verdict:
    """Verdict for one test: ``baseline`` and ``now`` map method ids to counts (baseline entries may
    carry ``code_fingerprint``, and so may ``now``).

    A method that did not run (absent, or all zero) counts as 0 on that side: one that starts running is
    a rise from 0 and one that stops is a fall to 0, judged like any other.

    A method whose only figures beyond tolerance are calls whose callees' work is counted (another of its
    metrics counts it, :func:`counted_in`: an application method under ``inclusive``; or the callee is a
    method the test counts, :func:`counted_method`, judged in its own entry), while every metric stays
    within tolerance, is ``reshaped``: the work moved between methods, and what it costs is judged by
    that metric. Unless strict, it passes."""
    if baseline is None:
        return Verdict("new", strict=strict)
    baseline, now = that_ran(baseline), that_ran(now)
    diffs = []
    worst = "passed"
    renamed = renames(baseline, now)
    inner, inner_before = nested_targets(now), nested_targets(baseline)
    for method in sorted(set(baseline) | set(now)):
        b, n = baseline.get(method), now.get(method)
        other = renamed.get(method)
        if other is not None and not diff(b or baseline[other], n or now[other]):
            # a rename: the same code, and the same counts under the other name
            diffs.append(MethodDiff(method, "changed" if strict else "reshaped", presence="started" if b is None
                                    else "stopped", renamed=other))
            worst = worse(worst, diffs[-1].status)
            continue
        changes = diff(b, n)
        metrics, calls, opcodes, inclusive = changes.scalars, changes.calls, changes.opcodes, changes.inclusive
        judged = judge(b, n, now, changes, tolerances, strict)
        status, tripped = judged.status, judged.tripped
        code_changed = None
        if b is not None and n is not None and "code_fingerprint" in b and "code_fingerprint" in n:
            code_changed = b["code_fingerprint"] != n["code_fingerprint"]
        presence = "started" if b is None else "stopped" if n is None else None
        diffs.append(MethodDiff(method, status, metrics, opcodes, calls, code_changed, inclusive, tripped, presence,
                                line_changes(b, n, None if code_changed is None else not code_changed)
                                if status != "same" else [], judged.work, other, judged.within,
                                deep_moves(b, n) if status in ("regressed", "improved") and judged.work[0] == "deep"
                                else []))
        # a figure the outer's deep work does not hold (cost, abrupt, a metric a tolerance names; strict) is its own
        own_figure = status == "changed" or (status == "regressed" and any(c.metric not in DEEP_WORK for c in tripped))
        if method in inner and (b is None or method in inner_before) and not own_figure:  # counted in the outer's
            diffs[-1].inside = inner[method]
        elif status != "same":  # a method's "same" is the test's "passed"
            worst = worse(worst, status)
    return Verdict(worst, diffs, strict)


def nested_targets(counts: dict) -> dict:
    """{target: the target whose deep windows ran every instruction of its own} among a test's counted methods:
    an overload the other calls, a helper two patterns match. Its work is already in that target's deep work,
    where the test's verdict counts it once. The largest deep work is looked at first, and an outer target is
    never itself nested."""
    deep = {m: c["deep"] for m, c in counts.items() if isinstance(c.get("deep"), dict)}
    out: dict = {}
    for outer in sorted(deep, key=lambda m: (-deep[m].get("total", 0), m)):
        if outer in out:
            continue
        ran_inside = deep[outer].get("methods", {})
        for inner, c in sorted(counts.items()):
            if inner == outer or inner in out or inner in out.values():
                continue
            own = c.get("total", 0)
            if own and ran_inside.get(inner, 0) >= own:
                out[inner] = outer
    return out


def renames(baseline: dict, now: dict) -> dict:
    """{method: the method of the other side} for each method that stopped running whose code fingerprint
    equals that of one that started: a rename, most likely. Both directions are keyed."""
    gone: dict = {}
    for method, counts in baseline.items():
        if method not in now and counts.get("code_fingerprint"):
            gone.setdefault(counts["code_fingerprint"], []).append(method)
    out: dict = {}
    for method, counts in sorted(now.items()):
        candidates = gone.get(counts.get("code_fingerprint") or "", [])
        if method not in baseline and len(candidates) == 1:  # one candidate only: never guess between several
            out[method], out[candidates[0]] = candidates[0], method
    return out


def _listed(items: list, limit: int = 3) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _pct(base: int, now: int) -> str:
    if base == 0:
        return "new" if now else "0%"
    return percent_change(base, now)


def percent_change(base: int, now: int) -> str:
    """``+7.2%``; a change too small for one decimal gets the digits that show it (``+0.00065%``), never ``+0.0%``."""
    pct = (now - base) / base * 100
    if now == base or abs(pct) >= 0.05:
        return f"{pct:+.1f}%"
    digits = 1 - math.floor(math.log10(abs(pct)))
    return f"{pct:+.{digits}f}%"


def render_verdict(verdict: Verdict, accept_command: str, top: int = 5,
                   source: Optional[Callable[[str, str], Optional[str]]] = None) -> str:
    """What a reviewer reads when a test fails (or improves): first the figures that decided the verdict,
    then, per method, every figure that moved and the source lines whose counts moved most (with their
    text, when ``source(method id, line)`` finds it)."""
    lines = [verdict.headline()]
    for d in verdict.diffs:
        if d.status == "same" or (d.renamed and not d.tripped and d.presence == "stopped"):
            continue
        if d.renamed and not d.tripped:
            lines.append(f"{d.method}: renamed? it ran as {d.renamed} in the baseline: the same code, and the same "
                         f"counts")
            continue
        label = {"regressed": "REGRESSED", "improved": "improved", "changed": "changed", "reshaped": "reshaped"}[d.status]
        lines.append(f"{d.method}: {label}")
        if d.inside is not None:
            lines.append(f"    runs only inside {d.inside}, whose deep work counts all of its own: judged as part "
                         f"of it, not again on its own")
        if d.status == "reshaped":
            lines.append(f"    its work ({d.work[0]}) stayed within tolerance; what rose moved the work between the "
                         f"method, the methods it calls and the JDK: the test passes (strict checking fails it)")
        if d.presence == "started":
            lines.append("    did not run when the baseline was recorded, runs now"
                         + (f"; renamed? the same code as {d.renamed}, which stopped" if d.renamed else ""))
        elif d.presence == "stopped":
            lines.append("    ran when the baseline was recorded, did not run in this test"
                         + (f"; renamed? the same code as {d.renamed}, which started" if d.renamed else ""))
        outside = {c.metric for c in d.tripped} if d.status == "regressed" else set()
        for name, b, n in d.metrics:
            mark = "  outside tolerance" if name in outside else ""
            lines.append(f"    {name:12} {b:>12,} -> {n:<12,} {n - b:+,} ({_pct(b, n)}){mark}")
        for title, changes in (("calls", d.call_changes), ("opcodes", d.opcode_changes), *d.inclusive_changes):
            if changes:
                shown = ", ".join(f"{k} {b:,} -> {n:,} ({n - b:+,})" for k, b, n in changes[:top])
                more = f" and {len(changes) - top} more" if len(changes) > top else ""
                lines.append(f"    {title}: {shown}{more}")
        uncounted = [c.call for c in d.tripped if c.call is not None and c.counted is None and c.now > c.base]
        if d.status == "regressed" and uncounted:
            lines.append(f"    the work done inside {_listed([_short_signature(k) for k in uncounted])} is not "
                         f"counted, so a call that rises fails the test by itself")
        if d.path_moves:
            lines.append("    where the work went (call paths, most growth first):" if d.status == "regressed" else
                         "    where the work changed (call paths):")
            shown = [(render_path(p), b, n) for p, b, n in d.path_moves]
            width = max(len(p) for p, _, _ in shown)
            lines += [f"      {p:{width}} {b:>12,} -> {n:<12,} {n - b:+,}" for p, b, n in shown]
        elif d.deep_moves:
            lines.append("    where the work went (deep.methods, most growth first):" if d.status == "regressed" else
                         "    where the work changed (deep.methods):")
            width = max(len(m) for m, _, _ in d.deep_moves)
            lines += [f"      {m:{width}} {b:>12,} -> {n:<12,} {n - b:+,}" for m, b, n in d.deep_moves]
        lines += render_line_changes(d.method, d.line_changes, source, top)
        if d.bytecode_changed is True:
            lines.append("    the method's bytecode changed since the baseline")
        elif d.bytecode_changed is False:
            lines.append("    " + same_bytecode(d.callees_changed))
    lines.append(f"to accept: {accept_command}")
    return "\n".join(lines)


def same_bytecode(callees_changed: Optional[list]) -> str:
    """What a method whose bytecode is the baseline's did: which application callees' code changed, when that is
    known (the baseline's trees keep their fingerprints)."""
    if callees_changed:
        one = len(callees_changed) == 1
        return (f"same bytecode as the baseline, but the code of {'its callee' if one else 'its callees'} "
                f"{_listed(callees_changed)} changed since the baseline")
    if callees_changed is not None:
        return ("same bytecode as the baseline, and so has every application method its work ran through: the code "
                "took another path (its inputs, the class library or what ran before it changed)")
    return "same bytecode as the baseline: the code took another path (inputs or callees changed)"

