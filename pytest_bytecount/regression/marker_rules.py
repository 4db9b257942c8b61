"""The marker's own rules, apart from any baseline: every target runs in its test (a target that never runs
guards nothing), or runs at most ``max_invocations`` times."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from ..counting.targets import MethodId, TargetError, TargetPattern
from .compare import ran, runs


@dataclass(frozen=True)
class IdleTarget:
    """A target pattern whose matched methods none ran in the test: a baseline of it would guard nothing."""

    pattern: str
    methods: tuple  # the method ids it matched


def matched_by(pattern: str, methods: Iterable[str]) -> list:
    """The method ids among ``methods`` that ``pattern`` matches (the counting contract's target patterns)."""
    pat = TargetPattern.parse(pattern)
    out = []
    for text in methods:
        try:
            m = MethodId.parse(text)
        except TargetError:
            continue
        if pat.matches_class(m.class_name.replace("/", ".")) and pat.matches_method(m.name, m.descriptor):
            out.append(text)
    return out


def idle_targets(patterns: Iterable[str], counts: dict, resolve: Optional[Callable[[str], list]] = None) -> list:
    """The patterns that matched counted methods of which none ran. ``resolve``: every method id a pattern
    matches, for a pattern none of whose methods are in ``counts`` (classes are counted as they load, so
    one the test never loaded has no entry)."""
    out = []
    for pattern in patterns:
        matched = matched_by(pattern, counts)
        if not matched and resolve is not None:
            matched = resolve(pattern)
        if matched and not any(m in counts and ran(counts[m]) for m in matched):
            out.append(IdleTarget(pattern, tuple(sorted(matched))))
    return out


def render_idle(idle: list, abrupt: bool, limit: int = 5, in_place: bool = False) -> str:
    lines = []
    for t in idle:
        shown = ", ".join(t.methods[:limit]) + (f" and {len(t.methods) - limit} more" if len(t.methods) > limit else "")
        which = f"{shown}, which did not run" if len(t.methods) == 1 else \
            f"{len(t.methods)} methods ({shown}), none of which ran"
        lines.append(f"NOT RUN: target {t.pattern!r} matched {which} in this test")
    how = ("Counting in place, the method counts wherever this JVM runs it: call it in this process (not in a "
           "subprocess)" if in_place else "Call the method through a class from bytecount.jclass(...) (classes "
           "loaded elsewhere, e.g. by jpype.JClass, are not counted)")
    lines.append(f"A test whose target never runs guards nothing, so it fails and no baseline is recorded for it. "
                 f"{how}, or, to check that it must not run, mark the test with max_invocations=0.")
    if not abrupt:
        lines.append("Invocations that end by an exception are counted only with abrupt=True.")
    return "\n".join(lines)


def over_limit(counts: dict, limit: int) -> list:
    """[(method id, invocations)] of the methods that ran more than ``limit`` times (``max_invocations``)."""
    return [(m, runs(c)) for m, c in sorted(counts.items()) if runs(c) > limit]


def render_over_limit(over: list, limit: int) -> str:
    first = "; ".join(f"{m} ran {n:,} time{'s' if n != 1 else ''}" for m, n in over[:3])
    more = f"; and {len(over) - 3} more" if len(over) > 3 else ""
    return (f"OVER THE LIMIT: {first}{more}, more than max_invocations={limit} allows\n"
            f"The marker's max_invocations={limit} caps how often each matched method may run in this test. "
            f"Fix the code, or raise the marker's limit: --bytecount-update does not change it.")
