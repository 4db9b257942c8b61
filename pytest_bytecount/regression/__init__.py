"""Counts as regression tests: tolerances and verdicts (``compare``), one status per test (``status``),
baseline files, complexity checks, the determinism check, cost weights, the results file and the HTML
report. Pure data in, verdicts out: no JVM, no pytest hooks."""
