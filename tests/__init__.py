"""The tests, laid out as the package: one folder per layer, plus harness/ (the tests' own oracles and
fixtures) and support/ (helpers shared with the benchmarks)."""
