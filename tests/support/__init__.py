"""Helpers shared by the tests and the benchmarks: JDKs, corpus sources, the javac cache, oracles, the stress
edit, fuzzing, projects for pytester."""
