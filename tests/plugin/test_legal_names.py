"""Every name the JVM allows parses, counts and round-trips, and a target pattern can name it: a class whose name
holds parentheses (ASM's test corpus has ``jdk8/Artificial$()$Structures``) and a method whose name holds a hyphen
(Kotlin's value classes have ``box-impl``, ``constructor-impl``, ``use-YhWfFtM``). Such names crashed the
instrumenter's method ids (``instrument --inclusive``), ``count`` after the program ran, and showed as NOT RUN in
pytest. The class is compiled by javac under Java names of the same lengths, then renamed in its constant pool
(a Utf8 entry of the same length keeps the class file's layout): no class file is committed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_bytecount.counting.targets import MethodId, TargetPattern
from tests.support.javac import compile_java
from tests.support.jdk import JDK17, find_jdk_tool
from tests.support.pytest_project import run

SOURCE = """package odd;

public class Box$QQ$Names {
    static int boxXimpl(int v) {
        return v + 1;
    }

    public static int run() {
        int s = 0;
        for (int i = 0; i < 3; i++) s += boxXimpl(i);
        return s;
    }

    public static void main(String[] args) {
        System.out.println(run());
    }
}
"""
CLASS, METHOD = "odd.Box$()$Names", "box-impl"
ID = f"{CLASS}#{METHOD}(I)I"
# javac 17: box-impl is iload_0 iconst_1 iadd ireturn; run calls it 3 times
BY_HAND = {"invocations": 3, "total": 12, "opcodes": {"iload_0": 3, "iconst_1": 3, "iadd": 3, "ireturn": 3}}


@pytest.fixture(scope="module")
def renamed(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("odd-src")
    (src / "odd").mkdir()
    (src / "odd" / "Box$QQ$Names.java").write_text(SOURCE)
    classes = compile_java(src, release="17")
    data = (classes / "odd" / "Box$QQ$Names.class").read_bytes()
    data = data.replace(b"Box$QQ$Names", b"Box$()$Names").replace(b"boxXimpl", b"box-impl")
    out = tmp_path_factory.mktemp("odd-classes")
    (out / "odd").mkdir()
    (out / "odd" / "Box$()$Names.class").write_bytes(data)
    return out


def _picked(counts: dict) -> dict:
    return {k: counts[k] for k in BY_HAND}


def test_method_ids_and_patterns_take_every_legal_name():
    for text in [ID, "kt.Money#constructor-impl(I)I", "kt.Money#use-YhWfFtM(Lkt/Money;)V",
                 "jdk8.Artificial$()$Structures#<init>()V"]:
        assert str(MethodId.parse(text)) == text
    pattern = TargetPattern.parse(f"{CLASS}#{METHOD}")
    assert pattern.matches_class(CLASS) and pattern.matches_method(METHOD, "(I)I")
    assert TargetPattern.parse("odd.Box$()$Names").matches_class(CLASS)
    assert TargetPattern.parse("kt.Money#*-impl").matches_method("box-impl", "(I)I")


def test_count_and_instrument_inclusive_count_them(renamed, tmp_path):
    cli = [sys.executable, "-m", "pytest_bytecount"]
    counted = subprocess.run([*cli, "count", "--java-home", JDK17, "--classpath", str(renamed), "--target",
                              f"{CLASS}#{METHOD}", CLASS], capture_output=True, text=True, timeout=300)
    assert counted.returncode == 0, counted.stderr
    assert _picked(json.loads(counted.stdout)[ID]) == BY_HAND
    made = subprocess.run([*cli, "instrument", "--classpath", str(renamed), "--target", "odd.**", "--inclusive",
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    ran = subprocess.run([str(find_jdk_tool("java")), "-cp", f"{tmp_path / 'out'}:{renamed}",
                          f"-Dbytecount.out={tmp_path / 'c.json'}", CLASS], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0 and ran.stdout.strip() == "6", ran.stderr
    counts = json.loads((tmp_path / "c.json").read_text())
    assert _picked(counts[ID]) == BY_HAND
    assert counts[f"{CLASS}#run()I"]["inclusive"]["methods"] == sorted([f"{CLASS}#run()I", ID])


def test_a_marker_names_them(pytester, renamed, tmp_path):
    pytester.makepyprojecttoml(f'[tool.bytecount]\nclasspath = ["{renamed}"]\njava-home = "{JDK17}"\n')
    pytester.makepyfile(test_odd=f'''
import pytest

@pytest.mark.bytecount("{CLASS}#{METHOD}")
def test_box(bytecount):
    assert bytecount.jclass("{CLASS}").run() == 6
''')
    result = run(pytester, "--bytecount-update", f"--bytecount-json={tmp_path / 'r.json'}")
    assert result.ret == 0, result.stdout.str()
    (got,) = json.loads((tmp_path / "r.json").read_text()).values()
    assert _picked(got["counts"][ID]) == BY_HAND
