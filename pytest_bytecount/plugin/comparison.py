"""One counted test's counts against its baseline: the stored counts read, the verdict decided from values
(:mod:`~pytest_bytecount.regression.counts_verdict`), and applied to the test's result and report."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..counting.pipeline.fingerprints import callees
from ..regression.baseline import BaselineError, BrokenEntry, ConflictedEntry
from ..regression.compare import bound_deep_work, parse_tolerances
from ..regression.counts_verdict import Stored, decide
from ..regression.results import TestResult
from .arguments import update_command
from .baseline_keys import command_id

FAILS = ("regressed", "changed", "new")  # the verdicts that fail their test (Verdict.failed)


def fail(report, result: TestResult, status: str, text: str) -> TestResult:
    """The result fails with ``text`` (and the result's hints), and so does the test, unless it failed
    already."""
    text = "\n".join([text, *result.hints])
    result.status, result.message = status, text
    if report.outcome == "passed":
        report.outcome = "failed"
        report.longrepr = text
    return result


def compare_with_baseline(session, item, marker, result: TestResult, report,
                          deep_by_default: bool = False) -> TestResult:
    """The counts against the baseline's, within the marker's tolerances (``session``: the plugin's
    :class:`~.session.BytecountSession`): the verdict is :func:`~..regression.counts_verdict.decide`'s, applied
    here to the result and the report."""
    path, key = Path(result.baseline), result.key
    accept = result.accept = update_command([command_id(item)], session.options)
    try:
        stored_file = session.baselines.load(path)
        stored = Stored(stored_file.get(key), stored_file.mode(key), stored_file.deep_runtime(key))
    except BaselineError as e:
        conflicted = isinstance(e, ConflictedEntry)
        if not session.update or (session.update == "conflicted" and not conflicted):
            again = f"\nRe-record it with: {accept}" if isinstance(e, BrokenEntry) else ""
            return fail(report, result, "error", f"bytecount: {e}{again}")
        stored = Stored(None, result.mode)  # re-recorded: the unreadable file is copied
    else:
        conflicted = False
    weights = session.weights()
    if stored.counts is not None and weights is not None:  # from the stored counts: a new table never stales baselines
        stored = replace(stored, counts=weights.with_costs(stored.counts))
    tolerances = parse_tolerances(marker.tolerance, session.default_tolerances)
    carried = None
    if deep_by_default:  # not asked for deep counts: a tolerance written for total or inclusive bounds the deep work
        tolerances, carried = bound_deep_work(marker.tolerance, tolerances)
    kept_trees = session.baselines.trees(path, key) if stored.counts is not None else {}
    result.baseline_trees = kept_trees or None
    kept_code = session.baselines.code(path, key) if stored.counts is not None else {}
    code = session.java.callee_code()
    if session.update:  # kept with the trees, should this run be recorded
        result.callee_code = code.of(callees(result.counts)) or None
    verdict = decide(stored, result.counts, result.mode, result.deep_runtime, tolerances,
                     session.strict or marker.strict, key, path, accept, source=session.java.source_lines(),
                     trees=(kept_trees, result.trees) if kept_trees and result.trees else None,
                     code=(kept_code, code.fingerprint) if kept_code else None, calls_of=code.calls_by_line)
    result.callees_changed = verdict.callees_changed
    result.status, result.message = verdict.status, verdict.message
    result.flat_only = verdict.flat_only
    if carried is not None and verdict.message and verdict.flat_only is None and verdict.loose is None:
        result.message += (f"\nthe tolerance on {carried} ({tolerances[carried]}) bounds the deep work too: the test "
                           f"takes deep counts by default (name deep= in the tolerance to bound it otherwise)")
    # for the HTML report: the stored counts, each method's own verdict and the figures that decided it
    result.baseline_counts, result.method_status, result.tripped = \
        verdict.baseline_counts, verdict.method_status, verdict.tripped
    result.loose_deep = verdict.loose.to_dict() if verdict.loose is not None else None
    if session.update == "all" or (session.update == "new" and stored.counts is None) or conflicted:
        return result  # recorded, when it differs, as the result arrives (log_report)
    if result.status in FAILS:
        return fail(report, result, result.status, result.message)
    if verdict.says_why:  # passes, and says why
        report.sections.append(("bytecount", result.message))
    return result
