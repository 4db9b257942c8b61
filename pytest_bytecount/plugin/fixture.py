"""What a test sees as the ``bytecount`` fixture: its classes loaded with the marked methods counted, the
counts so far, and the complexity check."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Callable, Optional

import pytest

from ..counting.targets import MethodId, missing_class_message
from ..jvm.classes import ClassLoadError, ClassMissing, load_class
from ..jvm.deep import DeepUnavailable, deep_difference
from ..regression.compare import JDK_PACKAGES
from ..jvm.in_place import loaded_elsewhere
from ..regression.scaling import ScalingError, ScalingResult, check_metric, check_sizes, measure, metric_value
from ..regression.projection import REACH, check_budget, with_budget
from ..regression.scaling_deep import growing_calls, made_calls, measure_deep
from ..regression.weights import WeightTable
from .java import JavaContext
from ..counting.options import CountingOptions


class BytecountFixture:
    """What a test sees as ``bytecount``: classes loaded with its targets counted, and the counts so far."""

    def __init__(self, java: JavaContext, options: CountingOptions, weights: Callable[[], Optional[WeightTable]],
                 shared: Optional[str] = None, deep_asked: bool = False):
        self._java = java
        self.in_place = options.in_place  # counted where the application loads the classes (jvm.in_place)
        self._weights = weights  # known once the settings are: instrumenting reads them first
        self.targets = options.targets
        self._earlier: list = []  # the loaders reload() replaced
        self._inclusive = options.inclusive
        if java.unusable:
            pytest.fail(java.unusable, pytrace=False)
        # deep counts (jvm.deep) run on for the JVM's life: a loader's are what its targets' windows added from when
        # it began to when reload() replaced it (id of the handle -> [snapshot at its start, at its end or None])
        self._deep, start = self._open_deep(options.deep, deep_asked)
        self.deep = self._deep is not None
        self.deep_asked = deep_asked  # deep counts asked for (deep=True), not taken by default
        self.fell_back = options.deep and not self.deep  # taken by default, and this JVM cannot: counted flat
        if self.fell_back:
            options = replace(options, deep=False)
        self._loaders = java.loaders_for(options)
        self._abrupt = options.abrupt
        # shared: the module or session whose tests share one loader (loader_scope); None: the test's own
        self.shared = shared
        self._handle = java.new_loader(self._loaders, shared)
        self._deep_marks: dict = {id(self._handle): [start, None]} if self.deep else {}
        self.scaling_result: Optional[ScalingResult] = None  # set by scaling(), checked after the test

    def _open_deep(self, deep: bool, asked: bool) -> tuple:
        """(the JVM's deep counting and its snapshot now) for a test that takes deep counts, (None, None) for one that
        does not, or takes them by default where the JVM cannot (the session says once why, :meth:`JavaContext.
        ran_flat`); a test that asked for them fails there."""
        if not deep:
            return None, None
        try:
            counting = self._java.deep_counting()
        except DeepUnavailable as e:
            if asked:
                pytest.fail(f"bytecount: {e}", pytrace=False)
            self._java.ran_flat(str(e))
            return None, None
        try:
            if counting.close_stale_windows():  # no target runs between tests: an earlier one's never closed
                warnings.warn("bytecount: a deep-count window an earlier test opened was never closed (its target's "
                              "exit did not run, e.g. after a StackOverflowError inside its own exception handler); it "
                              "was closed uncounted", pytest.PytestWarning)
            start = counting.snapshot()
            counting.tree.mark()
            return counting, start
        except DeepUnavailable as e:  # classes that could not be counted deep: their work would be missing
            failure = f"bytecount: {e}"
        pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" chain

    def jclass(self, name: str):
        """The class ``name`` (``pkg.Cls`` or ``pkg.Outer$Inner``) from this test's own class loader (in place:
        from the system class loader, as ``jpype.JClass`` gives it)."""
        try:  # a static initializer that throws raises as it is: the test may expect that
            return load_class(name, self._handle.loader)
        except ClassLoadError as e:  # VerifyError, ClassFormatError, ...
            failure = self._java.load_failure(name, e)
        except ClassMissing:  # a name the test got wrong: no Java dump
            failure = f"bytecount: {missing_class_message(name, self._java.classpath())}"
        pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" chain

    def counts(self) -> dict:
        """Counts of the targets so far, in the contract's shape (plus ``cost`` when weights are active)."""
        return self.counts_in(self._handle)

    def counts_in(self, handle) -> dict:
        """The counts of one of this test's loaders (the current one, or one :meth:`reload` replaced)."""
        counts = handle.counts()
        if self._deep is not None:
            counts = self._with_deep(counts, handle)
        weights = self._weights()
        return counts if weights is None else weights.with_costs(counts)

    def _with_deep(self, counts: dict, handle) -> dict:
        """Each target's counts with its ``deep`` group: what its windows counted while ``handle`` was the test's."""
        start, end = self._deep_marks.get(id(handle), [{}, None])
        now = end if end is not None else self._deep.snapshot()
        out = {}
        for m, c in counts.items():
            if m in now:
                group = deep_difference(now[m], start.get(m))
                if not self._abrupt:
                    group.pop("abrupt", None)
                c = {**c, "deep": group}
            out[m] = c
        return out

    def trees(self) -> dict:
        """``{target: its calling-context tree (regression.calltree), bounded}`` of what the targets' windows ran
        since the test's (last) loader began; read once, at the end of the test (empty without deep counts)."""
        if self._deep is None:
            return {}
        return {m: tree.bounded() for m, tree in self._deep.tree.trees(self._deep.numbers.target_names).items()}

    def reload_note(self, methods: list) -> list:
        """For a verdict that a target did not run: the reloads, which leave the earlier loaders' counts out
        of the verdict, and which of ``methods`` ran in one of them."""
        if not self._earlier:
            return []
        ran = sorted({m for h in self._earlier for m, c in self.counts_in(h).items()
                      if m in methods and (c.get("invocations") or c.get("abrupt"))})
        return [f"bytecount.reload() was called {len(self._earlier)} time(s) in this test: the verdict judges the "
                f"counts of the last class loader only"
                + (f", and {', '.join(ran)} ran before the last reload (bytecount.counts_in(loader) reads an "
                   f"earlier loader's counts)" if ran else "")]

    def hints(self) -> list:
        """Lines that may explain the counts: nested classes a target's class pattern leaves out that ran."""
        return self._loaders.hints(self._handle)

    def loaded_elsewhere(self, methods) -> list:
        """Lines for the classes of ``methods`` (ids) that another class loader loaded: code the test reaches
        that way runs uncounted (the agent lists them; without it, none are found)."""
        names = {MethodId.parse(m).class_name for m in methods}
        found = loaded_elsewhere(names)
        if self.in_place:  # counted wherever it loads: say which class never loaded where it counts
            tests_own = loaded_elsewhere(names - set(found), tests_own=True)
            return [f"{name.replace('/', '.')} was loaded only by an earlier test's own class loader (a test without "
                    f"in_place=True), never where this test counts it: the code this test ran did not reach it"
                    if name in tests_own else
                    f"no class {name.replace('/', '.')} was ever loaded in this JVM: the code ran elsewhere (a "
                    f"subprocess, say, as an application that cannot start the JVM falls back to) or not at all"
                    for name in sorted(names - set(found))]
        return [f"{name.replace('/', '.')} was loaded by {', '.join(loaders)}, where it runs uncounted"
                for name, loaders in sorted(found.items())]

    def matched_methods(self, pattern: str) -> list:
        """Every method ``pattern`` matches, loaded or not (:class:`TargetError` when none)."""
        return self._loaders.matched_methods(pattern)

    def reload(self):
        """Switch to a fresh class loader (fresh statics, zero counts, no complexity check made yet); returns
        the previous loader. In place: counting starts again from zero where the classes live (their statics
        carry over)."""
        old = self._handle
        if self.in_place:  # one test counts in place at a time: the first run's classes are restored first
            old.close()
        self._earlier.append(old)
        self._handle = self._java.new_loader(self._loaders)
        if self._deep is not None:
            now = self._deep.snapshot()
            self._deep.tree.mark()  # the trees, like the verdict, are the last loader's
            self._deep_marks[id(old)][1] = now
            self._deep_marks[id(self._handle)] = [now, None]
        self.scaling_result = None
        return old

    def scaling(self, sizes, run, metric: Optional[str] = None, method: Optional[str] = None, budget=None,
                reach: float = REACH) -> ScalingResult:
        """Call ``run(n)`` for each n in ``sizes`` and fit each counted method's counts per run against
        1, log n, n, n log n, n^2, n^3 and 2^n (see :mod:`pytest_bytecount.regression.scaling`).

        ``metric`` is ``deep``, ``total``, ``invocations``, ``calls`` or ``inclusive``; by default the counted
        work: ``deep`` (the work anywhere, the JDK included: a test that calls ``scaling()`` takes deep counts
        unless its marker says ``deep=False``), ``inclusive`` when the marker has ``inclusive=True``, else
        ``total``. ``method`` (a method id or
        pattern) limits the check to some of the marked methods. After the test the orders are compared
        with the baseline's: a worse one fails the test. One check per test.

        ``budget`` (``{size: limit}``) projects the fitted cost of one ``run(n)`` to each size and fails the test
        when a projection exceeds its limit, or cannot be trusted (:mod:`pytest_bytecount.regression.projection`:
        an inexact fit, a growth still rising at the largest sizes, a size more than ``reach`` times the largest
        measured). An update never accepts such a run.
        """
        __tracebackhide__ = True  # a misuse is the test's line and the message, as pytest shows its own
        try:
            checked = None if budget is None else check_budget(budget, reach)
            result = self._scaling(sizes, run, metric, method)
            if checked is not None:
                with_budget(result, checked, reach)
            return result
        except ScalingError as e:
            raise ScalingError(str(e)) from None

    def _scaling(self, sizes, run, metric: Optional[str], method: Optional[str]) -> ScalingResult:
        if self.scaling_result is not None:
            raise ScalingError("bytecount.scaling() was already called in this test; make one complexity check "
                               "per test (parametrize the test for more)")
        sizes = check_sizes(sizes)
        named = metric is not None
        metric = check_metric(metric if metric is not None else "deep" if self.deep else
                              "inclusive" if self._inclusive else "total")
        if metric == "inclusive" and not self._inclusive:
            raise ScalingError("scaling(metric='inclusive') fits the inclusive counts, which this test does not "
                               "take: mark it with inclusive=True")
        if metric == "deep":
            if not self.deep:
                raise ScalingError("scaling(metric='deep') fits the deep counts, which this test does not take: mark "
                                   "it with deep=True")
            self.scaling_result = self._scaling_deep(sizes, run, method)
            return self.scaling_result
        values: dict = {}
        jdk_calls: dict = {}  # method -> JDK call signature -> its calls at each size: work the flat counts miss
        before = self.counts()
        for i, n in enumerate(sizes):
            run(n)
            after = self.counts()
            for m, c in after.items():
                values.setdefault(m, []).append(metric_value(c, metric) - metric_value(before.get(m), metric))
                was = _calls(before.get(m) or {}, metric)  # inclusive: the calls its callees made too
                for sig, k in _calls(c, metric).items():
                    if sig.replace(".", "/").startswith(JDK_PACKAGES) and k > was.get(sig, 0):
                        jdk_calls.setdefault(m, {}).setdefault(sig, [0] * len(sizes))[i] = k - was.get(sig, 0)
            before = after
        self.scaling_result = measure(sizes, values, metric, method)
        self.scaling_result.jdk_calls = growing_calls(jdk_calls, len(sizes))
        self.scaling_result.jdk_made = made_calls(jdk_calls)
        self.scaling_result.named = named
        return self.scaling_result

    def _scaling_deep(self, sizes, run, method) -> ScalingResult:
        parts: dict = {"deep": {}, "copied": {}}
        where: dict = {}
        before = self.counts()
        for n in sizes:
            run(n)
            after = self.counts()
            for m, c in after.items():
                b = (before.get(m) or {}).get("deep") or {}
                d = c.get("deep") or {}
                parts["deep"].setdefault(m, []).append(d.get("total", 0) - b.get("total", 0))
                parts["copied"].setdefault(m, []).append(d.get("copied", 0) - b.get("copied", 0))
                bm = b.get("methods", {})
                where.setdefault(m, []).append({k: v - bm.get(k, 0) for k, v in d.get("methods", {}).items()})
            before = after
        return measure_deep(sizes, parts, where, method)

    def close(self) -> None:
        self._handle.close()


def _calls(counts: dict, metric: str) -> dict:
    """The calls a method's counts hold for ``metric``: with ``inclusive``, those of the application methods it
    called as well (a JDK call a helper makes carries the work too)."""
    return ((counts.get("inclusive") or {}).get("calls") or {}) if metric == "inclusive" else counts.get("calls", {})
