"""Tests of counts as regression tests: baselines, tolerances and verdicts, weights, scaling, determinism,
the HTML report."""
