"""The verdicts of one test, decided from values alone. The counts verdict (:func:`decide`): the counts now, the
baseline's (with its mode and the runtime its deep figures came from), the tolerances and strictness, and the
command that re-records the test. The complexity verdict (:func:`decide_scaling`): the stored complexity check,
this run's, and the counts verdict's status. No pytest, no JVM: the plugin reads the baseline and the marker, calls
them, and applies the frozen verdicts to the test's report and result.

Every figure is compared exactly on one class library; deep figures taken on another are compared loosely, within a
band (:mod:`.deep_band`), and the worse of the two verdicts is the test's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from .baseline import mode_changed
from ..counting.counts.calltree import OTHER, CallTree, aligned, changed_paths
from ..counting.pipeline.fingerprints import callees
from .lines import with_call_work
from .compare import compare, percent_change, render_verdict, that_ran, work_metric
from .deep_band import LooseVerdict, across_class_libraries, compare_loosely, loose_line, render_loose, without_deep
from .scaling import ScalingError, ScalingResult, check_stored, compare_scaling, render_scaling
from .status import FAILING, VERDICTS, worse
from .suggest import smallest_tolerance, tolerance_line


# a method whose code is the baseline's, counted in a loader tests share: the likely cause is the order the tests ran in
SHARED_LOADER_VERDICT = ("    the test shares one class loader with other tests (loader_scope): statics that the tests "
                         "before it filled carry over, so a change of the tests' order (pytest-randomly, -k, --lf, "
                         "xdist) changes what it counts. Before accepting, run it in the usual order (or alone) and "
                         "check the counts come back; loader_scope='test' (the default) counts it from fresh statics")


@dataclass(frozen=True)
class Stored:
    """What the baseline holds for one test: its counts (None: no entry), how they were counted, and the runtime
    that took their deep figures."""

    counts: Optional[dict]
    mode: Optional[str] = None
    deep_runtime: Optional[dict] = None


@dataclass(frozen=True)
class CountsVerdict:
    """A test's counts verdict: its status, the text that explains it, and what the HTML report shows."""

    status: str
    message: str = ""
    baseline_counts: Optional[dict] = None  # the stored counts compared (without deep figures when loose)
    method_status: dict = field(default_factory=dict)  # method id -> its own status
    tripped: dict = field(default_factory=dict)  # method id -> the figures that decided it, as text
    loose: Optional[LooseVerdict] = None  # the deep figures, when compared across class libraries
    flat_only: Optional[str] = None  # the side without deep counts ("baseline" or "run"), when one side has them
    callees_changed: Optional[dict] = None  # method id -> its application callees whose code changed (with_callees)

    @property
    def says_why(self) -> bool:
        """A passing verdict whose text the test's report shows: improved, reshaped, compared loosely, or a rise
        within tolerance."""
        return self.status in ("improved", "reshaped") or self.loose is not None or self.flat_only is not None or \
            (self.status == "passed" and bool(self.message))


def decide(stored: Stored, counts: dict, mode: Optional[str], deep_runtime: Optional[dict], tolerances: dict,
           strict: bool, key: str, path: Path, accept: str, source=None, trees: Optional[tuple] = None,
           code: Optional[tuple] = None, calls_of: Optional[Callable[[str], Optional[dict]]] = None) -> CountsVerdict:
    """The verdict on ``counts`` (method id -> counts, counted in ``mode``, deep figures by ``deep_runtime``) against
    ``stored``; ``accept`` is the command that re-records the test, ``source`` gives source lines to the text,
    ``trees`` the calling-context trees (kept with the baseline, of this run: ``{method id: tree dict}`` each) whose
    paths show where the deep work moved, ``code`` the application callees' fingerprints kept with the baseline and a
    function that gives a method's fingerprint now (None when it is gone), to name the callee whose code changed;
    ``calls_of(method)`` the calls on each line of its code today, so that a line's change counts the work under its
    calls (with trees on both sides)."""
    stored_counts, now, loose = stored.counts, counts, None
    if across_class_libraries(stored_counts, stored.deep_runtime, deep_runtime):
        loose = compare_loosely(stored_counts, now, stored.deep_runtime, deep_runtime, tolerances)
        stored_counts, now = without_deep(stored_counts), without_deep(now)
    flat_only = flat_side(stored_counts, now)
    if flat_only is not None:  # deep counts on one side only: the flat figures both hold decide
        stored_counts, now = without_deep(stored_counts), without_deep(now)
    verdict = compare(stored_counts, now, tolerances, strict)
    if trees is not None and loose is None and flat_only is None:
        with_paths(verdict, *trees)
        if calls_of is not None:
            with_call_lines(verdict, stored_counts or {}, now, *trees, calls_of)
    if code is not None:
        with_callees(verdict, stored_counts or {}, *code)
    status, message = verdict.status, ""
    method_status = {d.method: d.status for d in verdict.diffs}
    tripped = {d.method: [str(c) for c in d.tripped] for d in verdict.diffs if d.tripped}
    if status == "new":
        message = f"bytecount: no baseline for {key} in {path}.\nRecord it with: {accept}"
    elif status == "passed":
        message = within_tolerance(verdict)
    elif status != "passed":
        message = render_verdict(verdict, accept, source=source)
        found = smallest_tolerance(verdict, stored_counts, now, tolerances, strict)
        if found is not None:
            message += "\n" + tolerance_line(found)
        if stored.mode != mode:  # the counts moved with the mode: a setting changed, not the code
            status = "changed"
            message = mode_changed(stored.mode, mode, key, path) + "\n" + message
        elif mode == "in-place":
            message += "".join(initializer_note(d.method) for d in verdict.diffs
                               if "#<clinit>(" in d.method and d.status != "same")
        elif mode in ("module-loader", "session-loader") and any(
                d.bytecode_changed is False and not d.callees_changed for d in verdict.diffs if d.status != "same"):
            message = before_accept(message, SHARED_LOADER_VERDICT)
    other = other_figures(stored_counts, now)
    if other is not None and status != "new":  # the deciding figure is not in the baseline: never "same"
        status = "changed"
        message = figures_changed(*other, key, path, accept) + ("\n" + message if message else "")
    if flat_only is not None and status != "new":
        message = "\n".join(t for t in (message, flat_only_line(flat_only, key, accept)) if t)
    if loose is not None:
        for f in loose.beyond:
            current = method_status.get(f.method, "same")
            method_status[f.method] = f.status if current == "same" else worse(current, f.status)
            tripped.setdefault(f.method, []).append(f.text(loose.band))
        status, message = _with_loose(status, message, loose, accept)
    changed = {d.method: d.callees_changed for d in verdict.diffs if d.callees_changed} or None
    return CountsVerdict(status, message, stored_counts, method_status, tripped, loose, flat_only, changed)


def before_accept(message: str, text: str) -> str:
    """``text`` added to a verdict's ``message``, above its "to accept:" line when it has one: a line that says what
    to check before accepting is read before the command that accepts."""
    lines = message.split("\n")
    at = max((i for i, line in enumerate(lines) if line.startswith("to accept: ")), default=len(lines))
    return "\n".join(lines[:at] + [text] + lines[at:])


def with_paths(verdict, before: dict, now: dict) -> None:
    """Each diff that lists where the deep work went gets the call paths whose work changed most, when both sides
    kept a tree for its method."""
    for d in verdict.diffs:
        if d.deep_moves and d.method in before and d.method in now:
            try:
                old = CallTree.from_dict(before[d.method])
            except (KeyError, IndexError, TypeError, ValueError):
                continue  # a kept tree that cannot be read: the verdict shows the methods instead
            d.path_moves = changed_paths(CallTree.from_dict(now[d.method]), old,
                                         rises_first=d.status != "improved")


def with_call_lines(verdict, stored: dict, now: dict, before: dict, after: dict,
                    calls_of: Callable[[str], Optional[dict]]) -> None:
    """Each diff with trees on both sides gets its lines that changed most counting the deep work under each line's
    calls (:func:`~.lines.with_call_work`): the line whose call changed is then the one that changed most."""
    for d in verdict.diffs:
        if not d.path_moves or d.method not in stored or d.method not in now:
            continue
        calls = calls_of(d.method)
        if not calls:
            continue
        try:
            old, new = CallTree.from_dict(before[d.method]), CallTree.from_dict(after[d.method])
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        new, old = aligned(new, old)
        children = [{p[1]: t for p, t in tree.totals().items() if len(p) == 2 and p[0] == d.method and p[1] != OTHER}
                    for tree in (old, new)]
        same = None if d.bytecode_changed is None else not d.bytecode_changed
        d.line_changes = with_call_work(stored[d.method], now[d.method], same, calls, *children)


def with_callees(verdict, stored: dict, kept: dict, fingerprint: Callable[[str], Optional[str]]) -> None:
    """Each diff of a method whose bytecode is the baseline's gets the application callees whose code changed since
    (their fingerprint now differs from the one kept, or they are gone): of the callees its baseline's work ran through
    whose fingerprints were kept. None when none was kept (nothing is known of them)."""
    for d in verdict.diffs:
        if d.bytecode_changed is not False or d.status == "same" or d.method not in stored:
            continue
        known = sorted(m for m in callees({d.method: stored[d.method]}) if m in kept)
        if known:
            d.callees_changed = [m for m in known if fingerprint(m) != kept[m]]


def flat_side(stored: Optional[dict], now: dict) -> Optional[str]:
    """Which side holds no deep counts where the other does, over the methods that ran on both: ``"baseline"``
    (recorded flat, before deep counts were taken by default), ``"run"`` (``deep=False`` since, or a JVM that could not
    take them), or None."""
    before, after = that_ran(stored or {}), that_ran(now)
    both = set(before) & set(after)
    had, has = (any("deep" in side[m] for m in both) for side in (before, after))
    if had == has or not both:
        return None
    return "run" if had else "baseline"


def flat_only_line(side: str, key: str, accept: str) -> str:
    """The line a verdict made on the flat figures alone carries: why, and how to compare all the work again."""
    if side == "baseline":
        return (f"compared on flat counts only: the baseline of {key} was recorded without deep counts, which this run "
                f"takes; re-record it to judge all the work, the JDK's included: {accept}")
    return (f"compared on flat counts only: this run took no deep counts (deep=False, or a JVM that cannot take them) "
            f"and the baseline of {key} holds them; if the test is meant to run flat, re-record it: {accept}")


def other_figures(stored: Optional[dict], now: dict) -> Optional[tuple]:
    """(the baseline's widest work figure, this run's) for the first method that ran on both sides and whose
    counts record another widest figure now (deep or inclusive counts switched on or off since recording)."""
    before, after = that_ran(stored or {}), that_ran(now)
    for method in sorted(set(before) & set(after)):
        if work_metric(before[method]) != work_metric(after[method]):
            return work_metric(before[method]), work_metric(after[method])
    return None


def figures_changed(stored: str, now: str, key: str, path: Path, accept: str) -> str:
    return (f"CHANGED: the baseline of {key} in {path} holds {stored} as its widest work figure, and this run decides "
            f"by {now} (a marker option or setting changed since it was recorded): that figure was never compared. "
            f"Re-record it with: {accept}")


def within_tolerance(verdict) -> str:
    """What rose within a tolerance the user gave, in a passing verdict: ``within tolerance: deep +0.7%
    (tolerance 1%)``, each method named when more than one moved; "" when nothing did."""
    moved = [(d.method, c) for d in verdict.diffs for c in d.within]
    if not moved:
        return ""
    several = len({m for m, _ in moved}) > 1
    parts = [f"{m.partition('(')[0] + ': ' if several else ''}{c.metric} {_rise(c.base, c.now)} (tolerance {c.tolerance})"
             for m, c in moved]
    return "within tolerance: " + "; ".join(parts)


def _rise(base: int, now: int) -> str:
    return f"{now - base:+,}" if not base else percent_change(base, now)


def _with_loose(status: str, message: str, loose: LooseVerdict, accept: str) -> tuple:
    """The loose verdict on the deep figures joined to the exact one: the worse status; in the text, the worse
    verdict's first, and always the line that says the deep counts were compared loosely, between which runtimes."""
    if loose.status == "passed":
        return status, "\n".join(t for t in (message, loose_line(loose, accept)) if t)
    text = render_loose(loose, accept)
    first = worse(status, loose.status) == loose.status  # the worse verdict's headline first
    return worse(status, loose.status), "\n".join(t for t in ((text, message) if first else (message, text)) if t)


def initializer_note(method: str) -> str:
    """Why a class initializer counted in place moves with the tests that ran before, and how to leave it out."""
    cls = method.split("#")[0]
    return (f"\n{method} is {cls}'s class initializer: in place it runs once per JVM process, in the first test "
            f"that loads {cls}, so its counts depend on which tests ran before this one in the process (-k, -n, --lf "
            f"and test order change them). To leave it out, name the methods to count (\"{cls}#method\") instead of "
            f"the class.")


@dataclass(frozen=True)
class ScalingDecision:
    """A test's complexity verdict: the status and text to join to the counts verdict (none: nothing to say), and
    the complexity check to keep with the result (this run's, as stored)."""

    status: Optional[str] = None
    text: str = ""
    scaling: Optional[dict] = None


def decide_scaling(entry: dict, now: Optional[ScalingResult], counts_status: str, where: str,
                   rerecord: str) -> ScalingDecision:
    """The complexity verdict of this run's check ``now`` against the one stored in the baseline's ``entry`` for
    the test (``{}``: none), after a counts verdict of ``counts_status``; ``where`` names the entry in messages,
    ``rerecord`` is the command that re-records the test. A test with no baseline, or not judged on its counts,
    gets none."""
    if now is None and not entry.get("scaling"):
        return ScalingDecision()
    try:
        checked = check_stored(entry["scaling"], where) if "scaling" in entry else None
    except ScalingError as e:
        return ScalingDecision("changed", f"bytecount: {e}")
    verdict = compare_scaling(checked, now)
    scaling = now.to_dict() if now is not None else None
    if counts_status not in VERDICTS or counts_status == "new":
        return ScalingDecision(scaling=scaling)  # the counts verdict already says why
    text = render_scaling(verdict, None if counts_status in FAILING else rerecord, rerecord)
    return ScalingDecision(verdict.status if text else None, text, scaling)
