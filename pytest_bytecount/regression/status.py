"""One status per counted test: the words the terminal, ``--bytecount-json`` and the HTML report share.

A status agrees with pytest's outcome of the test: the passing ones are the outcomes of a passed test,
the failing ones of a failed (or errored) test.
"""

# the test passed
PASSING = ("passed", "improved", "recorded")
# the test failed because of its counts, or was not judged
FAILING = ("regressed", "changed", "new", "not-run", "nondeterministic", "unchecked", "failed", "error")
STATUSES = PASSING + FAILING + ("skipped",)

MEANING = {
    "passed": "counts within tolerance of the baseline",
    "improved": "counts fell below the baseline, which is now stale",
    "recorded": "baseline written by --bytecount-update",
    "regressed": "a count rose beyond its tolerance",
    "changed": "a count changed under strict checking",
    "new": "no baseline yet",
    "not-run": "a target pattern matched methods none of which ran",
    "nondeterministic": "counts differ between two runs of the test",
    "unchecked": "the determinism check could not run",
    "failed": "the test itself failed, so its counts were not judged",
    "error": "the counts could not be read or judged",
    "skipped": "the test was skipped",
}
