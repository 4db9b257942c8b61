"""Tests of the JVM layer: class folders and their cleanup."""
