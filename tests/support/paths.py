"""Folders of the checkout the tests read, written once so a test file can move without its paths."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
PACKAGE = ROOT / "pytest_bytecount"
FIXTURES_JAVA = ROOT / "fixtures-java"
DEMO_SRC = ROOT / "examples" / "demo" / "src"
EXAMPLES = ROOT / "examples"
BY_HAND = TESTS / "java-by-hand"  # Java written by hand, counts derived by hand
