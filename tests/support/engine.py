"""Shared steps of the class-file engine's tests: read a class directory, edit it, run it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Iterable, Mapping

from pytest_bytecount.classfile import ClassFile

from .corpus import dependency_jars
from .javac import compile_java
from .jdk import find_jdk_tool
from .stress import stress_class

EXERCISE_SRC = Path(__file__).resolve().parent / "exercise"


def read_class_dir(root: Path) -> dict[str, bytes]:
    """{internal name: bytes} for every class file under ``root``."""
    return {str(p.relative_to(root).with_suffix("")).replace("\\", "/"): p.read_bytes()
            for p in sorted(root.rglob("*.class"))}


def write_class_dir(classes: Mapping[str, bytes], root: Path) -> Path:
    for name, data in classes.items():
        path = root / f"{name}.class"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def stress_all(classes: Mapping[str, bytes], wide: bool = False, may_outgrow: Iterable[str] = ()) -> dict[str, bytes]:
    """Stress-edit every class. A method may stay unedited for being too large only if named in
    ``may_outgrow`` (as ``pkg.Cls#name``)."""
    out = {}
    may_outgrow = tuple(may_outgrow)
    for name, data in classes.items():
        edited, too_large = stress_class(data, wide)
        unexpected = [msg for msg in too_large if not msg.startswith(tuple(m + "(" for m in may_outgrow))]
        assert not unexpected, unexpected
        out[name] = edited
    return out


def exercise(classes_dir: Path, class_names: Iterable[str], skip: Iterable[str] = (),
             java: str | None = None) -> str:
    """Output of support/exercise/Exercise.java calling every public static method of the classes."""
    harness = compile_java(EXERCISE_SRC, release="11")
    java = java or str(find_jdk_tool("java"))
    args = [java, "-Xss4m", "-cp", f"{classes_dir}:{harness}", "Exercise"]
    skip = list(skip)
    if skip:
        args += ["-skip", ",".join(skip)]
    args += [n.replace("/", ".") for n in class_names]
    result = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    return result.stdout


_JAVAP_INSN = re.compile(r"^\s+(\d+): ([a-z][a-z0-9_]*)", re.M)


def javap_listing(javap_output: str) -> list[list[tuple[int, str]]]:
    """Per method with code, in class-file order: [(offset, mnemonic)] as javap -c prints them."""
    methods = []
    for section in re.split(r"^\s+Code:$", javap_output, flags=re.M)[1:]:
        methods.append([(int(m.group(1)), m.group(2)) for m in _JAVAP_INSN.finditer(section)])
    return methods


def engine_listing(data: bytes) -> list[list[tuple[int, str]]]:
    """The same listing from our decoder; javap spells wide-prefixed instructions ``iinc_w``."""
    cf = ClassFile.parse(data)
    return [[(i.offset, i.mnemonic + ("_w" if i.wide else "")) for i in m.code.instructions]
            for m in cf.methods if m.has_code()]


_JAVAP_LINE = re.compile(r"^\s+line (\d+): (\d+)$", re.M)
_JAVAP_LOCAL = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)$", re.M)


def javap_debug_tables(javap_output: str) -> list[dict]:
    """Per method with code: its listing, LineNumberTable [(line, pc)] and LocalVariableTable
    [(start, length, slot, name)], all as ``javap -c -l -p`` prints them."""
    methods = []
    for section in re.split(r"^\s+Code:$", javap_output, flags=re.M)[1:]:
        lvt = section.split("LocalVariableTable:")[1] if "LocalVariableTable:" in section else ""
        methods.append({
            "listing": [(int(m.group(1)), m.group(2)) for m in _JAVAP_INSN.finditer(section.split("LineNumberTable:")[0])],
            "lines": [(int(m.group(1)), int(m.group(2))) for m in _JAVAP_LINE.finditer(section)],
            "locals": [(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)) for m in _JAVAP_LOCAL.finditer(lvt)],
        })
    return methods


def corpus_classpath(source) -> list[Path]:
    """The unedited source, then the jars it links against (``corpus.CORPUS_DEPENDENCIES``): together
    they resolve every class the verifiers need to look at."""
    return [Path(source.path), *dependency_jars(source.name)]


# CodeTooLargeError's message, the one reason a corpus method may be left unedited or uncounted:
# group 1 the method (``pkg.Cls#name(desc)``), group 2 its size after the edit.
CODE_TOO_LARGE = re.compile(r"^([\w.$]+#\S+): code would be ([\d,]+) bytes after editing, over the JVM's "
                            r"limit of 65,535 bytes; the method was not written")


def new_failures(original, edited) -> list[str]:
    """Verifier failures of edited classes that the originals do not have (a class may fail in both, with
    no more messages than before, e.g. for a missing dependency)."""
    new = []
    for name, messages in edited.items():
        before = original.get(name)
        if before is None or len(messages) > len(before):
            new.append(f"{name}: {messages[:3]}")
    return new
