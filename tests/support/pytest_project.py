"""Shared by the end-to-end tests: the JDK they configure and one way to run pytest on a pytester project
(a subprocess each, since a process gets one JVM)."""

from __future__ import annotations

JDK17 = "/usr/lib/jvm/java-17-openjdk-amd64"


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:faulthandler", "-p", "no:cacheprovider", *args, timeout=600)
