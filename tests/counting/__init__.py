"""Tests of the counting transform: exactness against the JVMTI oracle, limits, exits by exception, inclusive
counts, the cache, target patterns, the corpus."""
