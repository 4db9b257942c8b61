"""One counted test's counts against its baseline: the stored counts read and compared within the marker's
tolerances, exactly; the deep groups loosely, within a band, when they were taken on another class library
(:mod:`~pytest_bytecount.regression.deep_band`). The result and the test's report take the verdict."""

from __future__ import annotations

from pathlib import Path

from ..regression.baseline import BaselineError, mode_changed
from ..regression.compare import compare, parse_tolerances, render_verdict
from ..regression.deep_band import LooseVerdict, across_class_libraries, compare_loosely, loose_line, render_loose, \
    without_deep
from ..regression.results import TestResult
from ..regression.status import worse
from .arguments import update_command

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


def compare_with_baseline(session, item, marker, result: TestResult, report) -> TestResult:
    """The counts against the baseline's, within the marker's tolerances (``session``: the plugin's
    :class:`~.session.BytecountSession`)."""
    path, key = Path(result.baseline), result.key
    try:
        stored_file = session.baselines.load(path)
        stored, stored_mode, stored_runtime = stored_file.get(key), stored_file.mode(key), stored_file.deep_runtime(key)
    except BaselineError as e:
        if not session.update:
            return fail(report, result, "error", f"bytecount: {e}")
        stored, stored_mode, stored_runtime = None, result.mode, None  # re-recorded: the unreadable file is copied
    weights = session.weights()
    if stored is not None and weights is not None:
        stored = weights.with_costs(stored)  # from the stored counts: a new table never stales baselines
    tolerances = parse_tolerances(marker.tolerance, session.default_tolerances)
    accept = result.accept = update_command([item.nodeid], session.options)
    now, loose = result.counts, None
    if across_class_libraries(stored, stored_runtime, result.deep_runtime):
        loose = compare_loosely(stored, now, stored_runtime, result.deep_runtime, tolerances)
        stored, now = without_deep(stored), without_deep(now)
        result.loose_deep = loose.to_dict()
    verdict = compare(stored, now, tolerances, session.strict or marker.strict)
    # for the HTML report: the stored counts, each method's own verdict and the figures that decided it
    result.baseline_counts = stored
    result.method_status = {d.method: d.status for d in verdict.diffs}
    result.tripped = {d.method: [str(c) for c in d.tripped] for d in verdict.diffs if d.tripped}
    result.status = verdict.status
    if verdict.status == "new":
        result.message = f"bytecount: no baseline for {key} in {path}.\nRecord it with: {accept}"
    elif verdict.status != "passed":
        result.message = render_verdict(verdict, accept, source=session.java.source_lines())
        if stored_mode != result.mode:  # the counts moved with the mode: a setting changed, not the code
            result.status = "changed"
            result.message = mode_changed(stored_mode, result.mode, key, path) + "\n" + result.message
        elif result.mode == "in-place":
            result.message += "".join(_initializer_note(d.method) for d in verdict.diffs
                                      if "#<clinit>(" in d.method and d.status != "same")
    if loose is not None:
        _add_loose(result, loose, accept)
    if session.update == "all" or (session.update == "new" and stored is None):
        return result  # recorded, when it differs, as the result arrives (log_report)
    if result.status in FAILS:
        return fail(report, result, result.status, result.message)
    if result.status in ("improved", "reshaped") or loose is not None:  # passes, and says why
        report.sections.append(("bytecount", result.message))
    return result


def _initializer_note(method: str) -> str:
    """Why a class initializer counted in place moves with the tests that ran before, and how to leave it out."""
    cls = method.split("#")[0]
    return (f"\n{method} is {cls}'s class initializer: in place it runs once per JVM process, in the first test "
            f"that loads {cls}, so its counts depend on which tests ran before this one in the process (-k, -n, --lf "
            f"and test order change them). To leave it out, name the methods to count (\"{cls}#method\") instead of "
            f"the class.")


def _add_loose(result: TestResult, loose: LooseVerdict, accept: str) -> None:
    """The loose verdict on the deep figures joins the exact one: the worse status, the figures beyond the band
    among each method's, and in the message, the worse verdict's text first, and always the line that says the
    deep counts were compared loosely, and between which runtimes."""
    for f in loose.beyond:
        current = result.method_status.get(f.method, "same")
        result.method_status[f.method] = f.status if current == "same" else worse(current, f.status)
        result.tripped.setdefault(f.method, []).append(f.text(loose.band))
    if loose.status == "passed":
        result.message = "\n".join(t for t in (result.message, loose_line(loose, accept)) if t)
        return
    text = render_loose(loose, accept)
    first = worse(result.status, loose.status) == loose.status  # the worse verdict's headline first
    result.message = "\n".join(t for t in ((text, result.message) if first else (result.message, text)) if t)
    result.status = worse(result.status, loose.status)
