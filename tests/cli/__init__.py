"""Tests of ``python -m pytest_bytecount``, the command line."""
