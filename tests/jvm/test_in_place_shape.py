"""Counting in place replaces loaded classes, which the JVM allows only for method bodies: counting must add no
member, and the check that guards it (shape_changes) must refuse a copy that would."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import IN_PLACE_PACKAGE, ClassCounter
from pytest_bytecount.jvm.in_place import shape_changes
from tests.support.corpus import DEBIAN_JARS
from tests.support.jdk import jdk17_home

ONE = "package p; public class C { int f; public int m(int x) { return x + f; } }"
TWO = "package p; public class C { int f; long g; public int m(int x) { return x + f; } void n() {} }"
THREE = "package p; public final class C extends Thread { int f; public int m(long x) { return (int) x + f; } }"


def _compile(tmp_path: Path, name: str, text: str) -> bytes:
    src = tmp_path / name / "p" / "C.java"
    src.parent.mkdir(parents=True)
    src.write_text(text)
    subprocess.run([str(jdk17_home() / "bin" / "javac"), "-d", str(tmp_path / name / "out"), str(src)], check=True)
    return (tmp_path / name / "out" / "p" / "C.class").read_bytes()


def test_a_copy_that_adds_or_changes_members_is_refused_by_name(tmp_path):
    one, two, three = (_compile(tmp_path, n, t) for n, t in (("one", ONE), ("two", TWO), ("three", THREE)))
    assert shape_changes(one, one) == []
    assert shape_changes(one, two) == ["adds field gJ", "adds method n()V"]
    assert shape_changes(two, one) == ["removes field gJ", "removes method n()V"]
    assert shape_changes(one, three) == ["its name, modifiers, super class or interfaces", "adds method m(J)I",
                                         "removes method m(I)I"]


@pytest.mark.parametrize("build", ["javac17", "javac8", "ecj45", "ecj48"])
def test_counting_changes_no_member_of_any_counting_fixture(counting_classes, build):
    classpath = Classpath([counting_classes[build]])
    names = [n for n in classpath.class_names() if not n.startswith("java/")]
    for options in ({}, {"abrupt": True, "allocations": True}, {"strategy": "instruction"}):
        counter = ClassCounter(classpath, CountingOptions(tuple(n.replace("/", ".") for n in names), in_place=True,
                                                          **options))
        counted = [c for c in (counter.count(n, classpath.read(n)) for n in names) if c is not None]
        assert len(counted) >= 5
        for c in counted:
            assert shape_changes(classpath.read(c.name), c.data) == [], (c.name, options)
            assert c.counters_name.startswith(IN_PLACE_PACKAGE) and c.counters_name.endswith("/" + c.name)


def test_counting_changes_no_member_of_a_real_library():
    jar = DEBIAN_JARS / "commons-lang3.jar"
    if not jar.exists():
        pytest.skip("apt-get install libcommons-lang3-java (.ci/run does)")
    classpath = Classpath([jar])
    names = [n for n in classpath.class_names() if n.startswith("org/apache/commons/lang3/") and
             "/" not in n[len("org/apache/commons/lang3/"):]]
    counter = ClassCounter(classpath, CountingOptions(("org.apache.commons.lang3.*",), in_place=True))
    checked = 0
    for n in names:
        c = counter.count(n, classpath.read(n))
        if c is not None:
            assert shape_changes(classpath.read(n), c.data) == [], n
            checked += 1
    assert checked > 50
