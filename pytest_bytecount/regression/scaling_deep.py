"""Complexity checks that look inside the JDK: with deep counts, :func:`measure_deep` fits the deep work (deep.total
and deep.copied summed) and names where it grew; with flat counts, :func:`jdk_work_note` says once per run
which JDK calls grew with n (their work is not in the order). See docs/deep.md."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from .scaling import (DEEP_PARTS, RANK, WORK, MethodScaling, ScalingError, ScalingResult, check_sizes, fit, made_text,
                      select_methods)


def measure_deep(sizes: Sequence[int], parts: Dict[str, Dict[str, List[int]]], where: Dict[str, List[dict]],
                 method: Optional[str] = None) -> ScalingResult:
    """With deep counts: per method, the order of its deep work, one figure (``parts``: {"deep": {method: deep.total
    at each size}, "copied": {method: deep.copied ...}}): the instructions run anywhere and the elements the JVM's
    native bulk operations moved, each element moved counted as one instruction's work. A figure that is a small
    share of the work cannot decide the order alone: ArrayList's growth copies are a step function of n, while the
    shifts of remove(0) are the n^2 of the work. ``where``: per method, its deep.methods at each size."""
    sizes = check_sizes(sizes)
    totals = parts["deep"]
    ran = {m: v for m, v in totals.items() if any(v)}
    if not ran:
        raise ScalingError(f"no counted method ran during the complexity check (counted: "
                           f"{', '.join(sorted(totals)) or 'none'}); does run(n) call the marked methods?")
    result = ScalingResult("deep", sizes)
    for m in select_methods(ran, method):
        each = {part: parts[part].get(m, [0] * len(sizes)) for part in DEEP_PARTS}
        work = [sum(v) for v in zip(*each.values())]
        f = fit(sizes, work)
        shown = {p: (fit(sizes, v).order if any(v) else "1", v) for p, v in each.items()}
        result.methods[m] = MethodScaling(work, f.order, f.exponent, f.fits, f.growth, part=WORK, evidence=f.evidence,
                                          parts={p: (o, None, v) for p, (o, v) in shown.items()},
                                          where=_where_the_work_went(where.get(m, []), each["copied"]))
    return result


# Calls whose work the language fixes as small and constant, which the compiler inserts beside the work: boxing
# and unboxing (JLS 5.1.7, 5.1.8) and a constructor's call of Object's; and java.lang.Math's and StrictMath's
# arithmetic on numbers (min, max, abs, floorMod, ...: no method of theirs takes an array or a collection). They
# grow with n in any loop, so they are named last: the calls that may carry the work come first.
_WRAPPERS = ("Boolean", "Byte", "Character", "Short", "Integer", "Long", "Float", "Double")


def incidental(signature: str) -> bool:
    """Whether a JDK call is boxing, unboxing, ``Object.<init>`` or Math's arithmetic: its work does not grow with
    anything."""
    head = signature.partition("(")[0]
    owner, _, name = head.rpartition(".")
    if (owner == "java/lang/Object" and name == "<init>") or owner in ("java/lang/Math", "java/lang/StrictMath"):
        return True
    return owner.startswith("java/lang/") and owner[len("java/lang/"):] in _WRAPPERS and \
        (name == "valueOf" or name.endswith("Value"))


def growing_calls(calls: Dict[str, Dict[str, List[int]]], sizes: int, top: int = 3) -> Dict[str, list]:
    """Per method, the calls (of ``{method: {signature: calls at each size}}``) made more often at the largest
    size than at the smallest: those that may carry work first (:func:`incidental` ones last), most grown first."""
    out = {}
    for m, by_sig in calls.items():
        grown = sorted(((v[-1] - v[0], sig, v) for sig, v in by_sig.items() if len(v) == sizes and v[-1] > v[0] > 0),
                       key=lambda g: (incidental(g[1]), -g[0], g[1]))
        if grown:
            out[m] = [(sig, v) for _, sig, v in grown[:top]]
    return out


def made_calls(calls: Dict[str, Dict[str, List[int]]], top: int = 3) -> Dict[str, list]:
    """Per method, the JDK calls (of ``{method: {signature: calls at each size}}``) it made at the largest size that
    may carry work (not :func:`incidental`), most made first: a flat figure does not see their work, so an order
    fitted on it that fell cannot be judged."""
    out = {}
    for m, by_sig in calls.items():
        made = sorted(((-v[-1], sig, v) for sig, v in by_sig.items() if v and v[-1] > 0 and not incidental(sig)))
        if made:
            out[m] = [(sig, v) for _, sig, v in made[:top]]
    return out


def jdk_work_note(scalings: Dict[str, dict]) -> Optional[str]:
    """One line for the run: complexity checks on flat counts whose JDK calls grew with n (``scalings``: test id
    -> its result's ``"scaling"`` dict), or None. A check that named its figure (``metric=...``) chose it: no line
    for it."""
    flat = [(test, s) for test, s in sorted(scalings.items()) if s.get("metric") != "deep"]
    fell = [(test, m, ms, s.get("jdk_made", {}).get(m)) for test, s in flat
            for m, ms in sorted(s.get("methods", {}).items()) if _unjudged(ms, s.get("jdk_made", {}).get(m))]
    hits = [(test, m, calls[0]) for test, s in flat if not s.get("metric_named")
            for m, calls in sorted((s.get("jdk_calls") or {}).items()) if not incidental(calls[0][0])]
    how = ("A test that calls scaling() fits the work done anywhere, the JDK included, unless its marker says "
           "deep=False (docs/deep.md)")
    if fell:
        test, method, s, calls = fell[0]
        more = f" (and {len(fell) - 1} more)" if len(fell) > 1 else ""
        went = "fell" if RANK[s["order"]] < RANK[s["baseline_order"]] else "rose"
        moved = f"it calls {made_text(calls)} at the largest size" if went == "fell" and calls else \
            "its baseline's method called JDK methods (the test's message names them)"
        return (f"complexity checks that cannot be judged on flat counts: the order of {test} {went} from "
                f"{s['baseline_order']} to {s['order']} while {moved}, whose work flat counts do not see{more}. {how}")
    if not hits:
        return None
    test, method, (sig, values) = hits[0]
    more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
    return (f"complexity checks fit flat counts, which stop at the JDK: {test} calls {sig} {values[0]:,} -> "
            f"{values[-1]:,} times across its sizes{more}, and the work inside such calls is not in the order. "
            f"{how}; or name the figure, scaling(..., metric=\"total\"), to keep the flat fit without this note")


def _unjudged(method: dict, calls) -> bool:
    """A method whose flat order the check could not judge (its verdict, or, for results without one, an order that
    fell while it made JDK calls that may carry work)."""
    base = method.get("baseline_order")
    if base not in RANK:
        return False
    if "change" in method:
        return method["change"] == "unjudged"
    return bool(calls) and RANK[method["order"]] < RANK[base]


COPIES = "native copies (deep.copied)"  # "where the work went": the elements the JVM's bulk operations moved


def _where_the_work_went(per_size: List[dict], copied: List[int], top: int = 3) -> List[tuple]:
    """The methods whose deep counts grew the most between the two largest sizes, with their count at each size;
    the native copies among them when they grew as much."""
    if len(per_size) < 2:
        return []
    last, before = per_size[-1], per_size[-2]
    growth = [(v - before.get(m, 0), m, [s.get(m, 0) for s in per_size]) for m, v in last.items()]
    if len(copied) >= 2:
        growth.append((copied[-1] - copied[-2], COPIES, list(copied)))
    return [(m, v) for g, m, v in sorted(growth, key=lambda g: (-g[0], g[1]))[:top] if g > 0]
