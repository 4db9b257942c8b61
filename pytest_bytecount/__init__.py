"""pytest-bytecount: executed JVM bytecode counts as exact regression tests."""

__version__ = "0.1.0.dev0"
