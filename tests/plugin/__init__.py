"""Tests of the pytest glue, run the way a user runs it: real pytest processes on real Java projects."""
