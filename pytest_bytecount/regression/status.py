"""One status per counted test: the words the terminal, ``--bytecount-json`` and the HTML report share,
and the one ranking of the verdicts among them.

A status agrees with pytest's outcome of the test: the passing ones are the outcomes of a passed test,
the failing ones of a failed (or errored) test.
"""

from __future__ import annotations

# the test passed
PASSING = ("passed", "improved", "reshaped", "recorded")
# the test failed because of its counts, or was not judged
FAILING = ("regressed", "changed", "new", "not-run", "over-limit", "over-budget", "nondeterministic", "unchecked", "failed",
           "error", "unwritten")
STATUSES = PASSING + FAILING + ("skipped", "xfailed")

# the verdicts of a comparison with the baseline (counts, or a complexity check), mildest first: a test
# shows the worst of its verdicts; every other status is not a verdict on counts and outranks them all
VERDICTS = ("passed", "improved", "reshaped", "new", "changed", "regressed")

MEANING = {
    "passed": "counts within tolerance of the baseline",
    "improved": "counts fell below the baseline, which is now stale",
    "reshaped": "the work stayed within tolerance; narrower figures rose (calls whose work is counted, the "
                "method's own instructions): the work moved, it did not grow",
    "recorded": "baseline written by --bytecount-update",
    "regressed": "a count rose beyond its tolerance",
    "changed": "a count changed under strict checking",
    "new": "no baseline yet",
    "not-run": "a target pattern matched methods none of which ran",
    "over-limit": "a matched method ran more often than the marker's max_invocations allows",
    "over-budget": "a figure of the test, or its projection to a size, is over a budget (a fixed ceiling)",
    "nondeterministic": "counts differ between two runs of the test",
    "unchecked": "a check could not be made: the determinism check could not run, a budget's figure is not in the "
                 "counts, or its projection to a size cannot be trusted",
    "failed": "the test itself failed, so its counts were not judged",
    "error": "the counts could not be read or judged",
    "unwritten": "its baseline could not be written (--bytecount-update), so the test fails",
    "skipped": "the test was skipped",
    "xfailed": "the test failed as its xfail marker expects, so its counts were not judged",
}


def worse(verdict: str, other: str) -> str:
    """The worse of two verdicts (see :data:`VERDICTS`); ``verdict`` when they rank the same."""
    return other if VERDICTS.index(other) > VERDICTS.index(verdict) else verdict
