"""Tests of the tests' own tools: the Java fixtures and their compile cache, the JVMTI oracle, the verifier
oracles and the corpus."""
