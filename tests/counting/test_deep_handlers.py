"""The handlers deep code adds to the JDK's methods take the shape javac gives handlers: none covers a return
(nor the report right before it), and a method whose code cannot throw gets none at all.

HotSpot's C2 compiler died (SIGSEGV in ``ciExceptionHandler::catch_klass``, HotSpot 17 and 25) compiling
``java.lang.Object.<init>`` with a catch-all handler: its lone ``return`` registers finalizers, which C2 compiles
as a call that may throw. The class files are read back with the JDK's ``javap``, not with the plugin's reader.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pytest_bytecount.counting.instr.deep import MethodNumbers, deep_class

from tests.support.corpus import CorpusUnavailable, java_base_dir
from tests.support.jdk import find_jdk_tool

_INSN = re.compile(r"^\s+(\d+): (\w+)")
_HANDLER = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(any|Class .+)$")
_METHOD = re.compile(r"^  \S.*\);$|^  \S.*\)( throws .*)?;$")

CLASSES = ["java/lang/Object", "java/lang/String", "java/util/ArrayList", "java/util/HashMap",
           "java/util/WeakHashMap", "java/lang/ref/ReferenceQueue", "java/lang/ThreadLocal$ThreadLocalMap"]


def _methods(class_file: Path) -> dict:
    """{method header: (return offsets, [(start, end, handler, type)])} as javap prints them."""
    text = subprocess.run([str(find_jdk_tool("javap")), "-c", "-p", str(class_file)], check=True,
                          stdout=subprocess.PIPE, text=True, timeout=120).stdout.splitlines()
    out, current, in_table = {}, None, False
    for line in text:
        if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(";"):
            current = out.setdefault(line.strip(), ([], []))
            in_table = False
        elif current is not None and line.strip() == "Exception table:":
            in_table = True
        elif current is not None and in_table and _HANDLER.match(line):
            s, e, h, t = _HANDLER.match(line).groups()
            current[1].append((int(s), int(e), int(h), t))
        elif current is not None and _INSN.match(line):
            offset, mnemonic = _INSN.match(line).groups()
            if mnemonic in ("return", "ireturn", "lreturn", "freturn", "dreturn", "areturn"):
                current[0].append(int(offset))
    return out


@pytest.fixture(scope="module")
def counted_jdk_classes(tmp_path_factory) -> Path:
    try:
        base = java_base_dir()
    except CorpusUnavailable as e:
        pytest.fail(str(e))
    out = tmp_path_factory.mktemp("deep-jdk")
    numbers = MethodNumbers()
    for name in CLASSES:
        counted = deep_class((base / f"{name}.class").read_bytes(), numbers)
        assert not counted.refused, counted.refused
        path = out / f"{name}.class"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(counted.data)
    return out


def test_object_init_counted_deep_has_no_handler(counted_jdk_classes):
    methods = _methods(counted_jdk_classes / "java/lang/Object.class")
    (init,) = [m for m in methods if m.startswith("public java.lang.Object()")]
    returns, handlers = methods[init]
    assert len(returns) == 1 and handlers == []
    # the methods of Object that can throw still have their catch-all handler
    (wait,) = [m for m in methods if m.startswith("public final void wait()")]
    assert any(t == "any" for *_, t in methods[wait][1])


@pytest.mark.parametrize("name", CLASSES)
def test_no_handler_of_deep_code_covers_a_return(counted_jdk_classes, name):
    methods = _methods(counted_jdk_classes / f"{name}.class")
    covered = [(m, r) for m, (returns, handlers) in methods.items() for r in returns
               for s, e, _, t in handlers if t == "any" and s <= r < e]
    assert methods and covered == []
    # the methods whose code can throw keep a handler, through which they end abruptly
    with_code = [handlers for returns, handlers in methods.values() if returns]
    assert sum(1 for handlers in with_code if handlers) > len(with_code) // 3


def test_a_method_too_large_for_deep_code_is_named_without_advice_about_targets(tmp_path):
    """A method of 5,000 branches (about 60 KB of code) has no room for deep code. Deep counts touch every method
    of every class (a library's huge ``<clinit>``, say), none of them chosen by the user: the message says what
    is left out, not to change the targets."""
    from tests.support.javac import compile_java

    body = "".join(f"        if (x > {k}) x -= {k % 7 + 1};\n" for k in range(5000))
    src = tmp_path / "src" / "big"
    src.mkdir(parents=True)
    (src / "Huge.java").write_text(f"package big;\n\npublic class Huge {{\n    static int run(int x) {{\n{body}"
                                   f"        return x;\n    }}\n}}\n")
    data = (compile_java(tmp_path / "src") / "big" / "Huge.class").read_bytes()
    refused = deep_class(data, MethodNumbers()).refused
    assert len(refused) == 1 and "big.Huge#run(I)I" in refused[0] and "65,535" in refused[0], refused
    assert "targets" not in refused[0] and "leave out its own instructions" in refused[0]
