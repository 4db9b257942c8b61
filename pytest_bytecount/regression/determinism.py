"""``--bytecount-check-determinism``: run a marked test a second time in a fresh class loader and compare counts.

Counts are exact, so two runs of the same test on fresh statics must agree. When they do not, the code
under test depends on something outside its inputs: identity hash codes (``HashSet``/``HashMap`` order of
objects without their own ``hashCode``, ``System.identityHashCode``), thread timing, clocks or random
numbers. Such a test would make a flaky baseline; this check names the method and the metric that moved.

The second run calls the test function again with the same fixtures; only ``bytecount`` changes to a new
class loader (fresh statics, zero counts, no complexity check made yet). Classes a fixture fetched from the
first loader would still run the first loader's code, so that is detected and reported instead of being
mistaken for a difference. A complexity check (``bytecount.scaling``) is compared too, size by size; the
first run's result is the one compared with the baseline.

Counted in place (``in_place=True``), the second run is in place too: the classes stay loaded, so it starts
from the static state the first run left. Counts that depend on that state (a cache filled by the first
run, lazy initialization, a static counter) differ, and the check names them as such.

An exception raised inside pytest-bytecount during the second run is a bug of the plugin, not of the test,
and is reported as such (status ``error``), never as nondeterminism.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Union

from ..version import __version__
from ..counting.counts import diff
from ..jvm.classes import is_java_exception
from .scaling import ScalingError, ScalingResult

# the metrics this check names, in its order; "inclusive" shows callees' work that differs even where
# the method's own does not
SCALARS = ("invocations", "total", "cost", "inclusive", "deep", "copied")
CAUSES = ("iteration over hash-based collections of objects without their own hashCode (identity hashes "
          "differ from run to run), System.identityHashCode, thread timing, clocks or random numbers; with deep "
          "counts also work the JDK does once and keeps (a cache filled lazily, reflection's first calls), orders "
          "the JDK takes from identity hashes, and caches the garbage collector clears (docs/deep.md)")
PACKAGE = Path(__file__).resolve().parents[1]  # an exception whose innermost frame is in here is the plugin's


@dataclass(frozen=True)
class CountDifference:
    method: str
    metric: str  # "invocations", "total", "cost", "opcode <mnemonic>", "call <signature>", "scaling ..."
    first: Union[int, str]  # a str only for what is not a count: a fitted order, "not measured"
    second: Union[int, str]


NOT_MEASURED = "not measured"


def scaling_differences(first: Optional[ScalingResult], second: Optional[ScalingResult]) -> list:
    """Every per-size count and fitted order of two runs' complexity checks that differ, per method."""
    if first is None and second is None:
        return []
    out = []
    metric = (first or second).metric
    one, two = (first.methods if first else {}), (second.methods if second else {})
    for method in sorted(set(one) | set(two)):
        a, b = one.get(method), two.get(method)
        at_a = dict(zip(first.sizes, a.values)) if a else {}
        at_b = dict(zip(second.sizes, b.values)) if b else {}
        for n in sorted(set(at_a) | set(at_b)):
            x, y = at_a.get(n, NOT_MEASURED), at_b.get(n, NOT_MEASURED)
            if x != y:
                out.append(CountDifference(method, f"scaling {metric} at n={n}", x, y))
        x, y = (a.order if a else NOT_MEASURED), (b.order if b else NOT_MEASURED)
        if x != y:
            out.append(CountDifference(method, "scaling order", x, y))
    return out


def differences(first: dict, second: dict, scaling: list = ()) -> list:
    """Every count that differs between two runs' ``{method: counts}``, scalars first, then the complexity
    check's (``scaling``, from :func:`scaling_differences`), then the rest by size."""
    out = []
    for method in sorted(set(first) | set(second) | {d.method for d in scaling}):
        changes = diff(first.get(method), second.get(method))
        moved = {m: (a, b) for m, a, b in changes.scalars}
        scalars = [CountDifference(method, m, *moved[m]) for m in SCALARS if m in moved]
        keyed = [CountDifference(method, f"opcode {k}", a, b) for k, a, b in changes.opcodes] + \
            [CountDifference(method, f"call {k}", a, b) for k, a, b in changes.calls] + \
            _deep_method_differences(method, first.get(method), second.get(method))
        out += scalars + [d for d in scaling if d.method == method] + \
            sorted(keyed, key=lambda d: (-abs(d.second - d.first), d.metric))
    return out


def _deep_method_differences(method: str, a: Optional[dict], b: Optional[dict]) -> list:
    """With deep counts on both sides: the methods whose instructions in the target's windows differ."""
    da, db = (a or {}).get("deep"), (b or {}).get("deep")
    if not (isinstance(da, dict) and isinstance(db, dict)):
        return []
    ma, mb = da.get("methods", {}), db.get("methods", {})
    return [CountDifference(method, f"deep {m}", ma.get(m, 0), mb.get(m, 0))
            for m in sorted(set(ma) | set(mb)) if ma.get(m, 0) != mb.get(m, 0)]


def _cell(value: Union[int, str]) -> str:
    return f"{value:,}" if isinstance(value, int) else value


@dataclass
class DeterminismCheck:
    """What the second run found; ``ok`` when the counts agree and nothing else went wrong."""

    differences: list = field(default_factory=list)
    second_run_error: Optional[str] = None  # the test passed once and failed in the fresh loader
    stale_loader_methods: list = field(default_factory=list)  # first loader's code ran during the second run
    internal_error: Optional[str] = None  # pytest-bytecount itself failed during the second run
    in_place: bool = False  # both runs counted in place: the second started from the first's static state
    shared: bool = False  # the first run was in a loader its module's (or session's) tests share (loader_scope)

    @property
    def ok(self) -> bool:
        return not (self.differences or self.second_run_error or self.stale_loader_methods or self.internal_error)

    @property
    def status(self) -> Optional[str]:
        """The test's status when the check failed (regression.status): nondeterministic, unchecked (stale
        loader in use) or error (pytest-bytecount failed, so the check could not be made); None when ``ok``."""
        if self.internal_error:
            return "error"
        if self.stale_loader_methods:
            return "unchecked"
        return None if self.ok else "nondeterministic"

    def message(self, top: int = 8) -> str:
        if self.internal_error:
            return ("bytecount: cannot check determinism: the second run of this test stopped on an error inside "
                    f"pytest-bytecount {__version__}, not in the test or its Java code:\n"
                    f"{self.internal_error.rstrip()}\n"
                    "This is a bug in pytest-bytecount: please report it with this message. Until it is fixed, "
                    "run this test without --bytecount-check-determinism.")
        if self.second_run_error:
            where = "in place, after the first run" if self.in_place else "in a fresh class loader"
            return (f"bytecount: not deterministic: the test passed, then failed when run again {where} "
                    f"(--bytecount-check-determinism):\n{self.second_run_error.rstrip()}\n"
                    "Likely causes: state kept outside the JVM classes (Python globals, files), or " + CAUSES + ".")
        if self.stale_loader_methods:
            return ("bytecount: cannot check determinism: during the second run, code loaded for the first run "
                    f"kept counting ({', '.join(self.stale_loader_methods)}). A fixture probably holds a class "
                    "from bytecount.jclass(...), or the test left a thread running. Call bytecount.jclass(...) "
                    "inside the test (or in a fixture that returns bytecount itself), and join the test's threads.")
        if self.in_place:
            lines = ["bytecount: not deterministic: counts differ between two runs of this test in place, the second "
                     "starting from the static state the first left (--bytecount-check-determinism):"]
        elif self.shared:
            lines = ["bytecount: not deterministic: counts differ between this test's run in the class loader it "
                     "shares with other tests (loader_scope) and a second run in a fresh class loader "
                     "(--bytecount-check-determinism):"]
        else:
            lines = ["bytecount: not deterministic: counts differ between two runs of this test, each in a fresh "
                     "class loader (--bytecount-check-determinism):"]
        lines += difference_table(self.differences, top)
        if self.shared:
            lines.append(SHARED_LOADER)
        elif self.in_place:
            lines.append("In place, the classes keep their static fields from test to test, so these counts "
                         "depend on what ran before (test order, -k, how xdist spreads the tests). Likely causes: "
                         "static caches, lazy initialization or static counters; or an object from a fixture that "
                         "both runs share (the second run reuses it: a connection's statement or query cache, a "
                         f"warmed-up parser), where a fresh one per run would start cold; else {CAUSES}. Count this "
                         "test in its own class loader (without in_place=True), where statics start fresh, and "
                         "make what the fixture returns the same for both runs (or build it inside the test).")
        else:
            lines.append(f"A baseline of this test would be flaky. Likely causes: {CAUSES}, or Python state kept "
                         "between runs (module globals, caches, an object from a fixture that both runs share) "
                         "that changes what the test does.")
        return "\n".join(lines)


SHARED_LOADER = ("A loader that tests share (loader_scope='module' or 'session') keeps the classes' static fields from "
                 "test to test, so what a test counts depends on which tests ran before it in that loader: their "
                 "order (pytest-randomly, -k, --lf, how xdist spreads them). Give the test its own loader "
                 "(loader_scope='test', the default), or make each test of the scope start from the same state.")


def difference_table(found: list, top: int = 8, columns: tuple = ("first run", "second run")) -> list:
    """The lines of a table of :class:`CountDifference`, per method, the ``top`` largest of each."""
    lines = []
    by_method: dict = {}
    for d in found:
        by_method.setdefault(d.method, []).append(d)
    for method, diffs in by_method.items():
        width = max(len(d.metric) for d in diffs[:top])
        lines.append(f"{method}:")
        lines.append(f"    {'':{width}}  {columns[0]:>12}  {columns[1]:>12}  {'difference':>12}")
        for d in diffs[:top]:
            change = f"{d.second - d.first:>+12,}" if isinstance(d.first, int) and isinstance(d.second, int) else ""
            lines.append(f"    {d.metric:{width}}  {_cell(d.first):>12}  {_cell(d.second):>12}  {change:>12}".rstrip())
        if len(diffs) > top:
            lines.append(f"    and {len(diffs) - top} more")
    return lines


def repetitions_differ(key: str, first: tuple, second: tuple) -> Optional[str]:
    """The failure text when two runs of one test, repeated by a plugin (pytest-repeat's ``--count``), and so
    compared with one baseline entry ``key``, counted differently; None when they agree. ``first`` and
    ``second``: ``(node id, {method: counts that ran})``."""
    found = differences(first[1], second[1])
    if not found:
        return None
    return "\n".join([
        f"bytecount: not deterministic: {second[0]} counted otherwise than {first[0]}, an earlier repetition of "
        f"the same test (both are compared with the one baseline entry {key}):",
        *difference_table(found, columns=("earlier", "this run")),
        f"Repetitions of a test must count the same. Likely causes: {CAUSES}, or state the repetitions share (a "
        "shared or in-place class loader, a fixture of a wider scope, Python globals). Nothing of this run is "
        "recorded."])


def raised_inside_plugin(error: BaseException) -> Optional[traceback.FrameSummary]:
    """Where pytest-bytecount's own code raised ``error`` (its innermost frame, in this package), or None
    when the error belongs to the test.

    Two kinds pass through the plugin's frames and still belong to the test: Java exceptions (a class's
    static initializer throws inside ``bytecount.jclass``) and ScalingErrors, which describe what the
    test's run measured (``run(n)`` called no counted method, say)."""
    if isinstance(error, ScalingError) or is_java_exception(error):
        return None
    frames = traceback.extract_tb(error.__traceback__)
    if not frames or not Path(frames[-1].filename).resolve().is_relative_to(PACKAGE):
        return None
    return frames[-1]


def describe_internal_error(error: BaseException, frame: traceback.FrameSummary) -> str:
    """The exception and the place in the package that raised it (relative: enough for a report)."""
    where = Path(frame.filename).resolve().relative_to(PACKAGE.parent).as_posix()
    return (f"{''.join(traceback.format_exception_only(type(error), error)).rstrip()}\n"
            f"raised in {where}, line {frame.lineno}, in {frame.name}")


def check_in_fresh_loader(fixture, rerun: Callable[[], None], failures: tuple = (Exception,)) -> DeterminismCheck:
    """Run ``rerun`` (the test function) again with ``fixture`` switched to a fresh loader; compare counts
    and the complexity checks of both runs. The fixture keeps the first run's complexity check. ``failures``: the
    exceptions that mean the second run failed (the test runner adds its own, such as pytest's ``fail``).

    ``fixture`` is the test's :class:`~pytest_bytecount.plugin.fixture.BytecountFixture` after a passing first run.
    """
    first = fixture.counts()
    first_scaling = fixture.scaling_result
    old_loader = fixture.reload()
    try:
        try:
            rerun()
        except failures as e:  # noqa: BLE001 - a failing second run is the finding
            frame = raised_inside_plugin(e)
            if frame is not None:
                return DeterminismCheck(internal_error=describe_internal_error(e, frame))
            return DeterminismCheck(second_run_error="".join(traceback.format_exception_only(type(e), e)),
                                    in_place=bool(getattr(fixture, "in_place", False)))
        second = fixture.counts()
        second_scaling = fixture.scaling_result
        after = fixture.counts_in(old_loader)
    finally:
        fixture.scaling_result = first_scaling  # what the baseline is compared with: the first run's
        try:
            old_loader.close()
        except Exception:  # noqa: BLE001 - best effort
            pass
    in_place = bool(getattr(fixture, "in_place", False))
    shared = bool(getattr(fixture, "shared", None))
    stale = sorted(m for m in after if after[m] != first.get(m))
    if stale:
        return DeterminismCheck(stale_loader_methods=stale, in_place=in_place, shared=shared)
    scaling = scaling_differences(first_scaling, second_scaling)
    return DeterminismCheck(differences=differences(first, second, scaling), in_place=in_place, shared=shared)
