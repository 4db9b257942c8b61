"""Deep counts taken on another class library than the baseline's: their exact figures differ between class
libraries, their size does not. Each method's ``deep.total`` and ``deep.copied`` are compared loosely: within
:data:`BAND` of the baseline's (measured, docs/deep.md) the test passes, a rise beyond it is a regression and a
fall beyond it an improvement. Everything but the deep groups is compared exactly, as always (``compare``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..counting.counts import metric
from .compare import Tolerance
from .status import worse

# How far one method's deep figures may move between two class libraries. The largest ratio measured between
# HotSpot 17's and Java 25's class libraries was 2.65 (String.format of doubles, benchmarks/deep_band.py), 4 leaves
# a margin of 1.5 over it; a linear target given 10 times its input moves 10 times.
BAND = 4.0
# Figures are judged as if never smaller than this (instructions, or elements copied): a target that does a
# few hundred instructions of JDK work has no size to compare.
SLACK = 1_000
# ... nor than this share of the method's baseline deep.total: elements copied that stay small next to the
# method's whole work are no change of its size (JDK 18+ copies a few elements per reflective call, 17 none).
SHARE = 0.01
FIGURES = (("deep", "deep.total"), ("copied", "deep.copied"))  # (the metric, as tolerances name it; as shown)


def describe_runtime(runtime: Optional[dict]) -> str:
    """A runtime deep counts were taken on (``jvm.deep.DeepCounting.runtime_identity``), in words."""
    if not runtime:
        return "an unknown runtime"
    return f"Java {runtime.get('version')} ({runtime.get('vendor')}, class library {runtime.get('class_library')})"


def band_text(band: float = BAND) -> str:
    return f"{band:g}x"


@dataclass(frozen=True)
class LooseFigure:
    """One deep figure of one method, compared loosely: ``status`` is ``same`` (within the band),
    ``regressed`` (rose beyond it) or ``improved`` (fell beyond it)."""

    method: str
    name: str  # "deep.total" or "deep.copied"
    base: int
    now: int
    status: str

    @property
    def ratio(self) -> Optional[float]:
        return self.now / self.base if self.base else None

    def text(self, band: float = BAND) -> str:
        """``deep.total 1,712,345 -> 674,001,234 (393.6x; the band is 4x)``."""
        ratio = "from 0" if self.ratio is None else f"{self.ratio:.3g}x"
        where = {"regressed": "beyond", "improved": "below"}.get(self.status, "within")
        return f"{self.name} {self.base:,} -> {self.now:,} ({ratio}, {where} the {band_text(band)} band)"


@dataclass
class LooseVerdict:
    """The deep figures of one test, compared loosely across two class libraries."""

    stored_runtime: Optional[dict]
    runtime: dict
    band: float = BAND
    figures: list = field(default_factory=list)  # LooseFigure, every figure compared

    @property
    def beyond(self) -> list:
        return [f for f in self.figures if f.status != "same"]

    @property
    def status(self) -> str:
        """``passed``, ``improved`` (passes: the baseline is stale) or ``regressed``."""
        out = "passed"
        for f in self.beyond:
            out = worse(out, f.status)
        return out

    def to_dict(self) -> dict:
        """What a result carries (``loose_deep`` in ``--bytecount-json``)."""
        return {"band": self.band, "baseline_runtime": self.stored_runtime}


def across_class_libraries(stored: Optional[dict], stored_runtime: Optional[dict], runtime: Optional[dict]) -> bool:
    """Whether the stored deep counts were taken on another runtime than this run's deep counts."""
    return (stored is not None and runtime is not None and stored_runtime != runtime
            and any("deep" in c for c in stored.values()))


def without_deep(counts: dict) -> dict:
    """``{method: counts}`` without their ``deep`` groups: what is compared exactly across class libraries."""
    return {m: {k: v for k, v in c.items() if k != "deep"} for m, c in counts.items()}


def judge(base: int, now: int, scale: int, band: float = BAND, tolerance: Optional[Tolerance] = None) -> str:
    """One figure: ``regressed`` when ``now`` exceeds ``band`` times the baseline (and the figure's own tolerance
    does not allow it), ``improved`` when the baseline exceeds ``band`` times ``now``, else ``same``. Each side
    is judged as if never smaller than ``scale``."""
    if now > band * max(base, scale) and not (tolerance is not None and tolerance.allows(base, now)):
        return "regressed"
    if base > band * max(now, scale):
        return "improved"
    return "same"


def compare_loosely(stored: dict, now: dict, stored_runtime: Optional[dict], runtime: dict,
                    tolerances: Optional[dict] = None, band: float = BAND) -> LooseVerdict:
    """Each method's deep.total and deep.copied, where both sides have a deep group (a method that started or
    stopped running is the exact comparison's to judge). A marker's tolerance looser than the band wins."""
    verdict = LooseVerdict(stored_runtime, runtime, band)
    for method in sorted(set(stored) & set(now)):
        b, n = stored[method], now[method]
        if not isinstance(b.get("deep"), dict) or not isinstance(n.get("deep"), dict):
            continue
        scale = max(SLACK, int(SHARE * (metric(b, "deep") or 0)))
        for name, shown in FIGURES:
            base, current = metric(b, name) or 0, metric(n, name) or 0
            status = judge(base, current, scale, band, (tolerances or {}).get(name))
            verdict.figures.append(LooseFigure(method, shown, base, current, status))
    return verdict


def loose_line(verdict: LooseVerdict, command: str) -> str:
    """The one line said of every test whose deep counts were compared loosely, ending with ``command``."""
    return (f"bytecount: deep counts compared loosely, within {band_text(verdict.band)}, across two class libraries: "
            f"the baseline's were taken on {describe_runtime(verdict.stored_runtime)}, this run's on "
            f"{describe_runtime(verdict.runtime)}. Re-record them on this runtime with: {command}")


def render_loose(verdict: LooseVerdict, command: str, limit: int = 3) -> str:
    """The verdict's text when a figure moved beyond the band, in the shape of :func:`.compare.render_verdict`:
    the headline with the figures that decided it, then per method every deep figure, then :func:`loose_line`."""
    beyond = [f for f in verdict.beyond if f.status == verdict.status]
    if not beyond:
        return loose_line(verdict, command)
    several = len({f.method for f in beyond}) > 1
    shown = "; ".join((f"{f.method.partition('(')[0]}: " if several else "") + f.text(verdict.band)
                      for f in beyond[:limit])
    more = f"; and {len(beyond) - limit} more" if len(beyond) > limit else ""
    label, why = (("REGRESSED", ", whose figures differ by less than that") if verdict.status == "regressed"
                  else ("improved", "; the baseline is stale"))
    lines = [f"{label}: {shown}{more}; the deep counts were compared loosely, across two class libraries{why}"]
    for method in sorted({f.method for f in verdict.beyond}):
        statuses = {f.status for f in verdict.beyond if f.method == method}
        lines.append(f"{method}: {'REGRESSED' if 'regressed' in statuses else 'improved'}")
        for f in (f for f in verdict.figures if f.method == method):
            ratio = "" if f.ratio is None else f"{f.ratio:.3g}x"
            mark = {"regressed": "  beyond the band", "improved": "  below the band"}.get(f.status, "")
            lines.append(f"    {f.name:12} {f.base:>12,} -> {f.now:<12,} {ratio}{mark}")
    lines.append(loose_line(verdict, command))
    return "\n".join(lines)
