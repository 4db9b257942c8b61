"""The Java fixtures compile, the compile cache behaves, and each fixture holds the shape it is named for.

Everything here is read from the compilers' output with javap and the class-file header, never with
pytest_bytecount, so a broken engine cannot hide a broken fixture.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from tests.support import javac, jdk
from tests.support.javac import COMPLETE_MARKER, JavaCompileError, compile_java
from tests.support.jdk import find_jdk_home

U2_MAX = 65_535  # longest Code array (JVMS 4.7.3)
S2_MAX = 32_767  # farthest goto/if* offset (JVMS 6.5 goto)

# The methods of engine.BigBranches sized so that 3 bytes inserted before every instruction push a
# branch past S2_MAX, and 6 bytes still keep the method under U2_MAX.
BULK_METHODS = [
    "ifAroundBigBlock",
    "loopAroundBigBody",
    "doWhileBigBody",
    "ternaryBigTrueBranch",
    "ternaryBigFalseBranch",
    "tableSwitchAroundBigBlock",
    "lookupSwitchAroundBigBlock",
    "tryCatchAroundBigBlock",
]


# --- a small reader of `javap -c -p` output -------------------------------------------------------


@dataclass(frozen=True)
class Insn:
    pc: int
    mnemonic: str
    operands: str
    targets: Tuple[int, ...]  # branch and switch targets


@lru_cache(maxsize=None)
def disassemble(class_file: Path, java_home: Optional[Path] = None) -> Dict[str, List[Insn]]:
    """``name(argument types)`` -> instructions, with ``<init>`` and ``<clinit>`` for initializers."""
    return parse_code(javac.javap(class_file, "-c", "-p", java_home=java_home))


def parse_code(javap_text: str) -> Dict[str, List[Insn]]:
    """What disassemble returns, from the ``javap -c -p`` output of one class."""
    methods: Dict[str, List[Insn]] = {}
    current = None
    in_switch = False
    for line in javap_text.splitlines():
        if line.startswith("  ") and not line.startswith("   ") and line.endswith(";"):
            header = line.strip()
            current = _method_name(header) if "(" in header or header == "static {};" else None  # or a field
            if current is not None:
                methods[current] = []
        elif in_switch:
            case = re.match(r"\s+(?:-?\d+|default): (\d+)$", line)
            if case:
                last = methods[current][-1]
                methods[current][-1] = Insn(last.pc, last.mnemonic, last.operands, last.targets + (int(case[1]),))
            elif line.strip() == "}":
                in_switch = False
        else:
            insn = re.match(r"\s+(\d+): (\w+)\s*(.*)$", line)
            if insn and current is not None:
                pc, mnemonic, operands = int(insn[1]), insn[2], insn[3]
                targets = ()
                if mnemonic.startswith(("if", "goto", "jsr")):
                    targets = (int(operands.split()[0]),)
                in_switch = mnemonic in ("tableswitch", "lookupswitch")
                methods[current].append(Insn(pc, mnemonic, operands, targets))
    return methods


def _method_name(header: str) -> str:
    if header == "static {};":
        return "<clinit>()"
    name = header[: header.index("(")].split()[-1]
    name = "<init>" if "." in name else name  # constructors print as pkg.Cls(...)
    return name + header[header.index("(") : header.rindex(")") + 1]


def code_of(methods: Dict[str, List[Insn]], name: str) -> List[Insn]:
    """The code of the one method called ``name`` (no overloads)."""
    (code,) = [code for signature, code in methods.items() if signature.startswith(name + "(")]
    return code


@lru_cache(maxsize=None)
def verbose(class_file: Path, java_home: Optional[Path] = None) -> str:
    return javac.javap(class_file, "-c", "-v", "-p", java_home=java_home)


def class_version(class_file: Path) -> Tuple[int, int]:
    magic, minor, major = struct.unpack(">IHH", class_file.read_bytes()[:8])
    assert magic == 0xCAFEBABE, class_file
    return major, minor


def longest_branch_after_insertion(code: List[Insn], inserted: int) -> int:
    """Farthest branch once ``inserted`` bytes precede every instruction (a branch then lands on the
    code inserted before its target). Switch padding changes are ignored: at most 3 bytes."""
    index = {insn.pc: i for i, insn in enumerate(code)}
    longest = 0
    for i, insn in enumerate(code):
        for target in insn.targets:
            j = index[target]
            longest = max(longest, abs((target - insn.pc) + inserted * (j - i - 1)))
    return longest


def code_length(code: List[Insn]) -> int:
    assert code[-1].mnemonic.endswith("return"), code[-1]
    return code[-1].pc + 1


# --- the compile cache ----------------------------------------------------------------------------


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def compiler_runs(monkeypatch):
    """Counts real compilations (cache hits do not run the compiler)."""
    runs = []
    real = javac._run_compiler

    def counting(command):
        runs.append(command)
        return real(command)

    monkeypatch.setattr(javac, "_run_compiler", counting)
    return runs


def write_source(src: Path, body: str = "static int one() { return 1; }") -> None:
    (src / "tiny").mkdir(parents=True, exist_ok=True)
    (src / "tiny" / "Tiny.java").write_text(f"package tiny;\npublic class Tiny {{ {body} }}\n")


def test_a_build_lands_in_the_cache_dir_with_its_marker(tmp_path, cache_dir, compiler_runs):
    write_source(tmp_path / "src")
    classes = compile_java(tmp_path / "src", release="17")
    assert classes.parent == cache_dir / "classes"
    assert (classes / "tiny" / "Tiny.class").is_file()
    assert (classes / COMPLETE_MARKER).is_file()
    assert class_version(classes / "tiny" / "Tiny.class") == (61, 0)
    assert [p.name for p in classes.parent.iterdir()] == [classes.name]  # no staging dir left behind


def test_an_unchanged_tree_is_compiled_once(tmp_path, cache_dir, compiler_runs):
    write_source(tmp_path / "src")
    first = compile_java(tmp_path / "src", release="17")
    marker_mtime = (first / COMPLETE_MARKER).stat().st_mtime_ns
    second = compile_java(tmp_path / "src", release="17")
    assert second == first
    assert len(compiler_runs) == 1
    assert (first / COMPLETE_MARKER).stat().st_mtime_ns == marker_mtime


def test_a_changed_source_or_option_gives_a_new_build(tmp_path, cache_dir, compiler_runs):
    write_source(tmp_path / "src")
    original = compile_java(tmp_path / "src", release="17")
    write_source(tmp_path / "src", "static int two() { return 2; }")
    edited = compile_java(tmp_path / "src", release="17")
    with_debug_info = compile_java(tmp_path / "src", release="17", options=["-g"])
    assert len({original, edited, with_debug_info}) == 3
    assert len(compiler_runs) == 3
    assert (original / COMPLETE_MARKER).is_file()  # the old build stays usable


def test_a_build_without_its_marker_is_never_reused(tmp_path, cache_dir, compiler_runs):
    write_source(tmp_path / "src")
    classes = compile_java(tmp_path / "src", release="17")
    (classes / COMPLETE_MARKER).unlink()  # as if a compile had died before publishing
    assert compile_java(tmp_path / "src", release="17") == classes
    assert len(compiler_runs) == 2
    assert (classes / COMPLETE_MARKER).is_file()


def test_a_compile_error_raises_with_the_compiler_output(tmp_path, cache_dir):
    write_source(tmp_path / "src", "static int broken() { return undefinedName; }")
    with pytest.raises(JavaCompileError, match="undefinedName") as failure:
        compile_java(tmp_path / "src", release="17")
    assert "Tiny.java" in str(failure.value)
    assert "cannot find symbol" in failure.value.output
    assert not any((cache_dir / "classes").iterdir())  # nothing cached, no staging dir left


def test_a_compile_error_from_ecj_raises_too(tmp_path, cache_dir):
    write_source(tmp_path / "src", "static int broken() { return undefinedName; }")
    with pytest.raises(JavaCompileError, match="undefinedName"):
        compile_java(tmp_path / "src", compiler="ecj", options=["-source", "1.3", "-target", "1.1"])


def test_a_build_published_first_by_another_session_wins(tmp_path):
    target, ours = tmp_path / "build", tmp_path / "staging"
    for directory, origin in ((target, "theirs"), (ours, "ours")):
        directory.mkdir()
        (directory / COMPLETE_MARKER).write_text(origin)
    javac._publish(ours, target)
    assert (target / COMPLETE_MARKER).read_text() == "theirs"


def test_a_leftover_directory_without_marker_is_replaced(tmp_path):
    target, ours = tmp_path / "build", tmp_path / "staging"
    (target / "half").mkdir(parents=True)
    ours.mkdir()
    (ours / COMPLETE_MARKER).write_text("ours")
    javac._publish(ours, target)
    assert sorted(p.name for p in target.iterdir()) == [COMPLETE_MARKER]


def test_a_missing_jdk_is_reported_with_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-jdk"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(jdk, "JDK17_HOME", tmp_path / "no-debian-jdk")
    with pytest.raises(javac.JavaToolNotFound, match="javac not found .* set JAVA_HOME"):
        javac.find_compiler("javac")
    with pytest.raises(javac.JavaToolNotFound, match="apt-get install ecj"):
        javac.find_compiler("ecj")


def test_a_missing_source_tree_is_reported(tmp_path, cache_dir):
    with pytest.raises(FileNotFoundError, match="no .java files"):
        compile_java(tmp_path / "empty")


# --- the compiled fixtures ------------------------------------------------------------------------

ENGINE_CLASSES = [
    "BigBranches",
    "CodeTypeAnnotations",
    "CtorBase",
    "CtorBranches",
    "LoopAtStart",
    "ManyConstants",
    "Misc",
    "Misc$Circle",
    "Misc$Counter",
    "Misc$Point",
    "Misc$Shape",
    "NewBranches",
    "Switches",
    "Switches$1",
]


def test_engine_fixtures_are_java_17_class_files(engine_classes):
    for name in ENGINE_CLASSES:
        assert class_version(engine_classes / "engine" / f"{name}.class") == (61, 0), name


@pytest.mark.parametrize(("major", "minor"), [(45, 3), (48, 0)])
def test_legacy_fixtures_have_old_class_versions(legacy_classes, major, minor):
    for name in ("TryFinally", "SyncBlock", "SwitchAndLoop"):
        class_file = legacy_classes[str(major)] / "legacy" / f"{name}.class"
        assert class_version(class_file) == (major, minor)
        assert "StackMapTable" not in verbose(class_file)  # type-inferencing verifier only


@pytest.mark.parametrize("major", ["45", "48"])
def test_legacy_finally_blocks_are_jsr_subroutines(legacy_classes, major):
    methods = disassemble(legacy_classes[major] / "legacy" / "TryFinally.class")
    for name in ("plain", "returnInsideTry", "catchAndFinally", "nested", "inLoop"):
        mnemonics = {insn.mnemonic for insn in code_of(methods, name)}
        assert {"jsr", "ret"} <= mnemonics, name


def test_legacy_do_while_branches_back_to_pc_0(legacy_classes):
    code = code_of(disassemble(legacy_classes["45"] / "legacy" / "SwitchAndLoop.class"), "doWhileAtStart")
    assert any(0 in insn.targets for insn in code)


def test_javac_emits_goto_w_only_in_the_methods_already_over_32k(engine_classes):
    methods = disassemble(engine_classes / "engine" / "BigBranches.class")
    for name in ("alreadyWideLoop", "alreadyWideSwitch"):
        code = code_of(methods, name)
        assert code_length(code) > S2_MAX
        assert "goto_w" in {insn.mnemonic for insn in code}, name
    for name in BULK_METHODS:
        assert "goto_w" not in {insn.mnemonic for insn in code_of(methods, name)}, name


@pytest.mark.parametrize("name", BULK_METHODS)
def test_big_methods_overflow_branches_only_after_insertion(engine_classes, name):
    code = code_of(disassemble(engine_classes / "engine" / "BigBranches.class"), name)
    assert longest_branch_after_insertion(code, 0) <= S2_MAX  # javac's own code has short branches
    assert longest_branch_after_insertion(code, 3) > S2_MAX  # an iinc before each instruction
    assert code_length(code) + 6 * len(code) < U2_MAX  # a wide iinc before each still fits


def test_the_already_wide_switch_still_fits_after_insertion(engine_classes):
    code = code_of(disassemble(engine_classes / "engine" / "BigBranches.class"), "alreadyWideSwitch")
    assert code_length(code) + 6 * len(code) < U2_MAX


def test_big_branches_with_a_non_empty_stack(engine_classes):
    methods = disassemble(engine_classes / "engine" / "BigBranches.class")
    # mix(a, taken ? new byte[] {...} : NONE): the long ifeq runs with [int] on the stack.
    load_a, load_taken, ifeq = code_of(methods, "ternaryBigTrueBranch")[:3]
    assert (load_a.mnemonic, load_taken.mnemonic, ifeq.mnemonic) == ("iload_0", "iload_1", "ifeq")
    assert ifeq.targets[0] - ifeq.pc > 10_000
    # mix(a, taken ? NONE : new byte[] {...}): the long goto runs with [int, byte[]] on the stack.
    code = code_of(methods, "ternaryBigFalseBranch")
    (goto,) = [insn for insn in code if insn.mnemonic == "goto"]
    assert code[code.index(goto) - 1].operands.endswith("// Field NONE:[B")
    assert goto.targets[0] - goto.pc > 10_000


@pytest.mark.parametrize("kind", ["tableswitch", "lookupswitch"])
def test_switches_sit_at_every_padding(engine_classes, kind):
    methods = disassemble(engine_classes / "engine" / "Switches.class")
    for pad in range(4):
        prefix = "tableSwitch" if kind == "tableswitch" else "lookupSwitch"
        (switch,) = [insn for insn in code_of(methods, f"{prefix}Pad{pad}") if insn.mnemonic == kind]
        assert (3 - switch.pc) % 4 == pad  # operands start at the next multiple of 4


def test_switch_edge_cases(engine_classes):
    methods = disassemble(engine_classes / "engine" / "Switches.class")
    (no_pairs,) = [i for i in code_of(methods, "lookupSwitchNoPairs") if i.mnemonic == "lookupswitch"]
    assert len(no_pairs.targets) == 1  # default only
    assert {"lookupswitch", "tableswitch"} <= {i.mnemonic for i in code_of(methods, "stringSwitch")}
    assert "$SwitchMap$engine$Switches$Color" in verbose(engine_classes / "engine" / "Switches.class")


def test_loops_branch_back_to_pc_0(engine_classes):
    methods = disassemble(engine_classes / "engine" / "LoopAtStart.class")
    for name in ("whileAtStart", "doWhileAtStart", "spinForever", "foreverWithBreak"):
        assert any(0 in insn.targets for insn in code_of(methods, name)), name
    assert code_of(methods, "spinForever") == [Insn(0, "goto", "0", (0,))]


def test_frames_hold_uninitialized_news(engine_classes):
    text = verbose(engine_classes / "engine" / "NewBranches.class")
    offsets = {int(n) for n in re.findall(r"uninitialized (\d+)", text)}
    assert 0 in offsets and any(n > 0 for n in offsets)  # nestedNews, newInLoop: the offset must move


def test_constructor_frames_hold_uninitialized_this(engine_classes):
    text = verbose(engine_classes / "engine" / "CtorBranches.class")
    # javap prints uninitializedThis as a bare `this` (an initialized one as `class engine/...`).
    assert re.search(r"stack = \[ this, int \]", text)
    assert re.search(r"locals = \[ this, long, int, int \]", text)  # the loop before super(...)


def test_misc_has_wide_instructions_and_the_usual_shapes(engine_classes):
    methods = disassemble(engine_classes / "engine" / "Misc.class")
    wide = {insn.mnemonic for insn in code_of(methods, "manyLocals")}
    # javap spells a wide-prefixed instruction with a _w suffix.
    assert {"iinc_w", "iload_w", "istore_w", "lstore_w", "lload_w", "dstore_w", "astore_w"} <= wide
    everything = {insn.mnemonic for code in methods.values() for insn in code}
    assert {
        "invokedynamic",
        "monitorenter",
        "monitorexit",
        "multianewarray",
        "athrow",
        "lcmp",
        "ldc2_w",
        "instanceof",
        "checkcast",
        "invokeinterface",
    } <= everything
    assert "<clinit>()" in methods
    for nested in ("Misc$Circle", "Misc$Counter", "Misc$Point", "Misc$Shape", "Misc$1", "Misc$1Doubler"):
        assert (engine_classes / "engine" / f"{nested}.class").is_file(), nested
    shape = disassemble(engine_classes / "engine" / "Misc$Shape.class")
    assert {"describe()", "square(double)", "name()"} <= set(shape)  # default, static and private methods with code


def test_many_constants_need_ldc_w(engine_classes):
    methods = disassemble(engine_classes / "engine" / "ManyConstants.class")
    for name in ("lateString", "lateInt", "lateFloat", "lateClass"):
        assert code_of(methods, name)[0].mnemonic == "ldc_w", name


def test_type_annotations_point_into_the_code(engine_classes):
    text = verbose(engine_classes / "engine" / "CodeTypeAnnotations.class")
    for target in ("NEW, offset=", "INSTANCEOF, offset=", "CAST, offset=", "LOCAL_VARIABLE, {start_pc="):
        assert target in text, target


def test_java25_constructor_loops_back_to_pc_0(java25_classes):
    class_file = java25_classes / "java25" / "CtorPrologue.class"
    assert class_version(class_file) == (69, 0)
    code = disassemble(class_file, find_jdk_home(25))["<init>(int)"]
    assert code[0].pc == 0 and any(insn.targets == (0,) for insn in code)
