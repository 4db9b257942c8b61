"""Comparing counts with a baseline: tolerances, verdicts, and the failure text a reviewer reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

METRICS = ("total", "invocations", "cost", "allocated", "elements", "abrupt", "inclusive", "calls")
# per-method figures compared as one number each; "cost" exists only when a weight table is active,
# "allocated" (objects and arrays created) and "elements" (their lengths) with allocation recording,
# "abrupt" (invocations that ended by an exception) when those are tallied, "inclusive" (the inclusive
# total: own plus linked callees', see pytest_bytecount.inclusive) with inclusive counts
SCALAR_METRICS = ("total", "invocations", "cost", "allocated", "elements", "abrupt", "inclusive")


def scalars(entry: dict) -> dict:
    """The scalar metrics one method's counts have."""
    out = {m: entry[m] for m in ("total", "invocations", "cost") if m in entry}
    a = entry.get("allocations")
    if isinstance(a, dict):
        out["allocated"] = sum(a.get("objects", {}).values()) + sum(a.get("arrays", {}).values())
        out["elements"] = sum(a.get("elements", {}).values())
    if isinstance(entry.get("abrupt"), dict):
        out["abrupt"] = entry["abrupt"].get("invocations", 0)
    if isinstance(entry.get("inclusive"), dict):
        out["inclusive"] = entry["inclusive"].get("total", 0)
    return out


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


def parse_tolerances(spec: str, base: Optional[dict] = None) -> dict:
    """``"total=5%|100, calls=2"`` -> {metric: Tolerance}; metrics: total, invocations, cost, calls."""
    out = dict(base or {})
    if not spec or not spec.strip():
        return out
    for item in spec.split(","):
        if "=" not in item:
            raise ToleranceError(f"bad tolerance {item.strip()!r}: expected METRIC=VALUE such as total=5%|100")
        metric, value = (x.strip() for x in item.split("=", 1))
        if metric not in METRICS:
            raise ToleranceError(f"bad tolerance metric {metric!r}: expected one of {', '.join(METRICS)}")
        absolute, relative = 0, 0.0
        for part in value.split("|"):
            m = _ONE.match(part)
            if not m:
                raise ToleranceError(f"bad tolerance value {value!r} for {metric}: expected N, N% or N%|M")
            if part.strip().endswith("%"):
                relative = float(part.strip()[:-1]) / 100
            else:
                absolute = int(part)
        out[metric] = Tolerance(absolute, relative)
    return out


@dataclass
class MethodDiff:
    method: str
    status: str  # same | regressed | improved | changed | new | gone
    metrics: list = field(default_factory=list)  # [(name, base, now)] that differ
    opcode_changes: list = field(default_factory=list)  # [(key, base, now)] largest first
    call_changes: list = field(default_factory=list)
    bytecode_changed: Optional[bool] = None
    inclusive_changes: list = field(default_factory=list)  # [(title, [(key, base, now)])] of inclusive counts


@dataclass
class Verdict:
    status: str  # passed | regressed | improved | changed | new
    diffs: list = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.status in ("regressed", "changed", "new")


def _changes(base: dict, now: dict) -> list:
    keys = set(base) | set(now)
    out = [(k, base.get(k, 0), now.get(k, 0)) for k in keys if base.get(k, 0) != now.get(k, 0)]
    return sorted(out, key=lambda c: (-abs(c[2] - c[1]), c[0]))


def compare(baseline: Optional[dict], now: dict, tolerances: dict, strict: bool = False) -> Verdict:
    """Verdict for one test: ``baseline`` and ``now`` map method ids to counts (baseline entries may
    carry ``bytecode_sha256``, and so may ``now``)."""
    if baseline is None:
        return Verdict("new")
    diffs = []
    worst = "passed"
    for method in sorted(set(baseline) | set(now)):
        b, n = baseline.get(method), now.get(method)
        if b is None or n is None:
            status = "new" if b is None else "gone"
            diffs.append(MethodDiff(method, status))
            worst = "changed" if worst != "regressed" else worst
            continue
        sb, sn = scalars(b), scalars(n)
        metrics = [(m, sb[m], sn[m]) for m in SCALAR_METRICS if m in sb and m in sn and sb[m] != sn[m]]
        calls = _changes(b.get("calls", {}), n.get("calls", {}))
        opcodes = _changes(b.get("opcodes", {}), n.get("opcodes", {}))
        inclusive = _inclusive_changes(b, n)
        regressed = any(not tolerances.get(m, Tolerance()).allows(bv, nv) for m, bv, nv in metrics) or any(
            not tolerances.get("calls", Tolerance()).allows(bv, nv) for _, bv, nv in calls)
        if regressed:
            status = "regressed"
        elif not (metrics or calls or opcodes or inclusive):
            status = "same"
        elif strict:
            status = "changed"
        elif any(nv < bv for _, bv, nv in metrics + calls) and all(nv <= bv for _, bv, nv in metrics + calls):
            status = "improved"  # something fell and nothing rose
        else:
            status = "same"  # increases within tolerance (maybe beside decreases), or only the opcode mix shifted
        code_changed = None
        if "bytecode_sha256" in b and "bytecode_sha256" in n:
            code_changed = b["bytecode_sha256"] != n["bytecode_sha256"]
        diffs.append(MethodDiff(method, status, metrics, opcodes, calls, code_changed, inclusive))
        rank = {"passed": 0, "same": 0, "improved": 1, "changed": 2, "regressed": 3}
        if rank[status] > rank[worst]:
            worst = status
    return Verdict(worst if worst != "same" else "passed", diffs)


def _inclusive_changes(b: dict, n: dict) -> list:
    """What changed in the inclusive counts (own plus linked callees'), when both sides have them."""
    bi, ni = b.get("inclusive"), n.get("inclusive")
    if not (isinstance(bi, dict) and isinstance(ni, dict)):
        return []
    out = [(f"inclusive {t}", _changes(bi.get(t, {}), ni.get(t, {}))) for t in ("calls", "opcodes")]
    return [(t, c) for t, c in out if c]


def _pct(base: int, now: int) -> str:
    if base == 0:
        return "new" if now else "0%"
    return f"{(now - base) / base * 100:+.1f}%"


def render_verdict(verdict: Verdict, accept_command: str, top: int = 5) -> str:
    """What a reviewer reads when a test fails (or improves)."""
    lines = []
    for d in verdict.diffs:
        if d.status == "same":
            continue
        if d.status in ("new", "gone"):
            what = "is counted now but not in the baseline" if d.status == "new" else "is in the baseline but not counted now"
            lines.append(f"{d.method} {what}")
            continue
        label = {"regressed": "REGRESSED", "improved": "improved; baseline is stale", "changed": "changed"}[d.status]
        lines.append(f"{d.method}: {label}")
        for name, b, n in d.metrics:
            lines.append(f"    {name:12} {b:>12,} -> {n:<12,} {n - b:+,} ({_pct(b, n)})")
        for title, changes in (("calls", d.call_changes), ("opcodes", d.opcode_changes), *d.inclusive_changes):
            if changes:
                shown = ", ".join(f"{k} {b:,} -> {n:,} ({n - b:+,})" for k, b, n in changes[:top])
                more = f" and {len(changes) - top} more" if len(changes) > top else ""
                lines.append(f"    {title}: {shown}{more}")
        if d.bytecode_changed is True:
            lines.append("    the method's bytecode changed since the baseline")
        elif d.bytecode_changed is False:
            lines.append("    same bytecode as the baseline: the code took another path (inputs or callees changed)")
    lines.append(f"to accept: {accept_command}")
    return "\n".join(lines)
