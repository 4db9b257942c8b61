"""Tolerances: how far a figure may rise before its test fails, parsed from a spec such as ``"total=5%|100, calls=2"``
(a marker's, the settings' or the command line's)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ..counting.counts import METRICS

# The figures that make up the deep work: the instructions run anywhere, and the elements native copies moved,
# one unit each.
DEEP_WORK = ("deep", "copied")


class ToleranceError(ValueError):
    """A tolerance spec such as ``total=5%|100`` that cannot be parsed."""


@dataclass(frozen=True)
class Tolerance:
    """An increase is allowed up to ``max(absolute, relative * baseline)``."""

    absolute: int = 0
    relative: float = 0.0

    def allows(self, base: int, now: int) -> bool:
        return now - base <= max(self.absolute, self.relative * base)

    def __str__(self) -> str:
        parts = []
        if self.relative:
            parts.append(f"{self.relative * 100:g}%")
        if self.absolute or not parts:
            parts.append(str(self.absolute))
        return "|".join(parts)


_ONE = re.compile(r"^\s*(\d+(?:\.\d+)?%|\d+)\s*$")


ALL = "all"  # a tolerance for every metric at once; one named beside it wins
WORK = "work"  # the key of a bare tolerance ("5%"): it bounds the figure that decides, whichever that is


def parse_tolerances(spec: str, base: Optional[dict] = None) -> dict:
    """``"total=5%|100, calls=2"`` -> {metric: Tolerance}, for any of the metrics in ``METRICS``; ``all=5%``
    sets every metric, except those the same spec names."""
    out = dict(base or {})
    if not spec or not spec.strip():
        return out
    named, every = {}, None
    for item in spec.split(","):
        if "=" not in item and _ONE.match(item.split("|")[0]):
            item = f"{WORK}={item}"  # a bare value bounds the figure that decides
        if "=" not in item:
            raise ToleranceError(f"bad tolerance {item.strip()!r}: expected METRIC=VALUE such as total=5%|100, or a "
                                 f"value alone (5%) for the figure that decides")
        metric, value = (x.strip() for x in item.split("=", 1))
        if metric == WORK:
            named[WORK] = _tolerance(value, "the figure that decides")
            continue
        if metric != ALL and metric not in METRICS:
            raise ToleranceError(f"bad tolerance metric {metric!r}: expected one of {', '.join(METRICS)}, or {ALL} "
                                 f"for every metric")
        if metric == ALL:
            every = _tolerance(value, metric)
        else:
            named[metric] = _tolerance(value, metric)
    if every is not None:
        out.update(dict.fromkeys(METRICS, every))
    out.update(named)
    return out


def _tolerance(value: str, metric: str) -> Tolerance:
    absolute, relative = 0, 0.0
    for part in value.split("|"):
        if not _ONE.match(part):
            raise ToleranceError(f"bad tolerance value {value!r} for {metric}: expected N, N% or N%|M")
        if part.strip().endswith("%"):
            relative = float(part.strip()[:-1]) / 100
        else:
            absolute = int(part)
    return Tolerance(absolute, relative)


def bound_deep_work(spec: str, tolerances: dict) -> tuple:
    """For a test that takes deep counts by default, not by asking: a tolerance its marker wrote on ``total`` or
    ``inclusive`` (the figure that decided before deep counts) bounds the deep work too, unless the spec names
    ``deep`` itself. (tolerances, the metric whose tolerance was carried over or None)."""
    named = named_metrics(spec)
    if DEEP_WORK[0] in named or WORK in tolerances:
        return tolerances, None
    for metric in ("inclusive", "total"):
        if metric in named:
            return {**tolerances, DEEP_WORK[0]: tolerances[metric]}, metric
    return tolerances, None


def named_metrics(spec: str) -> set:
    """The metrics a tolerance spec names itself (``all`` names none): a ``cost`` tolerance needs weights."""
    return {item.split("=", 1)[0].strip() for item in (spec or "").split(",") if "=" in item} - {ALL}


