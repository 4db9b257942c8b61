"""Tests of the class-file engine: targeted fixtures, the real-world corpus, fuzzing."""
