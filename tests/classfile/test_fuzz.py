"""Fuzzing the class-file reader and editor with damaged real class files.

The story: a user points the plugin at a classpath holding a truncated jar entry, a class mangled by some
other tool, or plain garbage named ``.class``. Whatever the bytes, the engine answers with success or with
one of its own errors (``ClassFormatError``, ``CodeFormatError``, ``CodeTooLargeError``) naming what is
wrong and where; never an ``IndexError`` from deep inside, never a hang, never gigabytes allocated because
a length field said so. And what it writes, it reads back.

Inputs: the compiled fixtures and a fixed sample of guava and commons-lang3 classes (when installed),
damaged by the structure-aware mutations of ``support/fuzz.py``. The hypothesis runs are derandomized and
keep no example database, so CI sees the same inputs every time; ``benchmarks/fuzz.py`` runs the same
mutations for much longer.
"""

from __future__ import annotations

import itertools
import random
import re
import struct
import sys
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_bytecount.classfile import ClassFile, ClassFormatError, CodeFormatError, CodeTooLargeError
from pytest_bytecount.classfile import opcodes as op
from pytest_bytecount.classfile.instructions import TypeAnnotations
from pytest_bytecount.classfile.model import Attribute
from pytest_bytecount.counting.pipeline.transform import CounterIndexes, instrument_class

from tests.support.engine import read_class_dir
from tests.support import fuzz

GUAVA = fuzz.JARS / "guava.jar"
COMMONS_LANG3 = fuzz.JARS / "commons-lang3.jar"


@pytest.fixture(scope="module")
def seeds(engine_classes, counting_classes, legacy_classes):
    """(ordinary, long) seed classes: the fixtures of every build, plus 30 guava and 15 commons-lang3
    classes, cut into pieces of a few methods (``long``: pieces with one method over 8 KB)."""
    classes = fuzz.class_files(engine_classes)
    for root in [*counting_classes.values(), *legacy_classes.values()]:
        classes += fuzz.class_files(root)
    classes += fuzz.jar_sample(GUAVA, 30) + fuzz.jar_sample(COMMONS_LANG3, 15)
    ordinary, long = fuzz.seed_pieces(classes)
    return [(s, fuzz.layout(s)) for s in ordinary], [(s, fuzz.layout(s)) for s in long]


@pytest.fixture(scope="module")
def engine(engine_classes) -> dict:
    return read_class_dir(engine_classes)


MUTATION = st.tuples(st.sampled_from(fuzz.MUTATIONS), st.integers(0, 2 ** 30), st.integers(0, 2 ** 30))
# no deadline: a timing is not a verdict (a busy machine made one fail); the example budgets bound the run
FUZZ = dict(derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_mutated(seed_list, index: int, mutations) -> str:
    data, lay = seed_list[index % len(seed_list)]
    return fuzz.exercise(fuzz.mutate(data, lay, mutations))


def test_every_seed_passes_every_stage_unmutated(seeds):
    """The baseline: undamaged classes go through parse, decode, re-encode and both counting strategies,
    so a fuzz failure is the damage's doing. Real jars are among them when installed."""
    ordinary, long = seeds
    assert len(ordinary) > 100 and len(long) >= 5
    for data, _ in ordinary + long:
        assert fuzz.exercise(data) == "ok"


def test_real_jar_classes_are_among_the_seeds():
    if not GUAVA.exists() or not COMMONS_LANG3.exists():
        pytest.skip(f"{GUAVA} or {COMMONS_LANG3} is not installed (Debian: libguava-java libcommons-lang3-java)")
    sample = fuzz.jar_sample(GUAVA, 30)
    assert len(sample) == 31 and all(ClassFile.parse(d).name.startswith("com/google/") for d in sample)


# 2,500 inputs from small seeds (about 35 s here), 60 from methods over 8 KB (about 11 s).
@settings(max_examples=2500, **FUZZ)
@given(index=st.integers(0, 10 ** 6), mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_damaged_class_files_end_in_success_or_a_clear_error(seeds, index, mutations):
    outcome = run_mutated(seeds[0], index, mutations)
    assert outcome in ("ok", "ClassFormatError", "CodeFormatError", "CodeTooLargeError")


# One such method alone takes up to 0.9 s through every stage, so there are fewer of them. They are the
# ones whose counted code needs long branches, and with them the frames computed by simulation.
@settings(max_examples=60, **FUZZ)
@given(index=st.integers(0, 10 ** 6), mutations=st.lists(MUTATION, min_size=1, max_size=2))
def test_damaged_long_methods_end_in_success_or_a_clear_error(seeds, index, mutations):
    outcome = run_mutated(seeds[1], index, mutations)
    assert outcome in ("ok", "ClassFormatError", "CodeFormatError", "CodeTooLargeError")


def test_outcomes_are_not_all_the_same(seeds):
    """The mutations must leave some inputs readable and break others in several ways; a fuzzer whose
    inputs all die at the magic number tests nothing."""
    data, layouts = zip(*seeds[0])
    inputs = fuzz.iter_inputs(data, layouts, random.Random(7))
    seen = Counter(fuzz.exercise(mutated) for _, _, mutated in itertools.islice(inputs, 400))
    assert seen.get("ok", 0) >= 20 and seen.get("ClassFormatError", 0) >= 50 and seen.get("CodeFormatError", 0) >= 20


@pytest.mark.parametrize("which", ["engine/Misc", "engine/Switches", "engine/CodeTypeAnnotations"])
def test_truncation_at_every_structure_boundary_is_a_class_format_error(engine, which):
    data = engine[which]
    cuts = [b for b in fuzz.layout(data).boundaries if b < len(data)]
    assert len(cuts) > 150
    for cut in cuts:
        with pytest.raises(ClassFormatError):
            ClassFile.parse(data[:cut])


def _forged_inputs(data: bytes, lay: fuzz.Layout):
    for off, width, role in lay.fields:
        if role in ("count", "length"):
            for value in ((1 << (8 * width)) - 1, (1 << (8 * width - 1))):
                yield data[:off] + value.to_bytes(width, "big") + data[off + width:]


def _parse_and_decode(data: bytes) -> None:
    try:
        cf = ClassFile.parse(data)
        for m in cf.methods:
            m.code
    except ClassFormatError:
        pass


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _calls(fn) -> int:
    """The Python and C function calls ``fn()`` makes: its work, where a timing would vary with the machine."""
    calls = [0]

    def count(frame, event, arg):
        if event in ("call", "c_call"):
            calls[0] += 1

    sys.setprofile(count)
    try:
        try:
            fn()
        except (ClassFormatError, CodeFormatError, CodeTooLargeError):
            pass
    finally:
        sys.setprofile(None)
    return calls[0]


@pytest.mark.parametrize("which", ["engine/Misc$1Doubler", "engine/Switches"])
def test_a_forged_length_or_count_is_checked_before_anything_is_allocated_for_it(engine, which):
    """Every count and length field set to 0xFFFF (0xFFFFFFFF) or half of it: reading and decoding never
    takes much more memory than the honest class does, nor many more calls."""
    data = engine[which]
    honest = _peak(lambda: _parse_and_decode(data))
    honest_calls = _calls(lambda: _parse_and_decode(data))
    inputs = list(_forged_inputs(data, fuzz.layout(data)))
    assert len(inputs) > 20
    for forged in inputs:
        peak = _peak(lambda: _parse_and_decode(forged))
        assert peak <= 2 * honest + 128 * 1024, (peak, honest)
        calls = _calls(lambda: _parse_and_decode(forged))  # work, counted: the same on any machine
        assert calls <= 2 * honest_calls + 1000, (calls, honest_calls)
        assert fuzz.exercise(forged) in ("ok", "ClassFormatError", "CodeFormatError", "CodeTooLargeError")


# --- regressions: one minimized input per bug the fuzzing found, each built from a real class -------------
def code_array(data: bytes, method: str) -> int:
    """The offset, in the class file, of ``method``'s code[0]."""
    cf = ClassFile.parse(data)
    k = [m.name for m in cf.methods if m.has_code()].index(method)
    return fuzz.layout(data).code[k][0] + 8


def patched(data: bytes, offset: int, new: bytes) -> bytes:
    return data[:offset] + new + data[offset + len(new):]


def test_a_name_that_is_not_modified_utf8_is_a_class_format_error(engine):
    cf = ClassFile.parse(engine["engine/Misc$1Doubler"])
    m = cf.find_method("apply", "(I)I")
    cf.constant_pool.entries[m.name_index] = (1, b"\xff\xfe")
    with pytest.raises(ClassFormatError, match=r"engine/Misc\$1Doubler#<method 1, broken name or descriptor>: "
                                                r"constant pool entry \d+ is not valid modified UTF-8"):
        instrument_class(cf.to_bytes(), None, CounterIndexes("block"))


def test_an_invoke_of_a_utf8_constant_names_the_method_and_the_entry(engine):
    data = engine["engine/Misc"]
    cf = ClassFile.parse(data)
    init = cf.find_method("<init>", "()V")
    at = code_array(data, "<init>")
    assert data[at + 1] == op.INVOKESPECIAL
    broken = patched(data, at + 2, struct.pack(">H", init.name_index))  # now invokes a Utf8 entry
    message = r"engine/Misc#<init>\(\)V: constant pool entry \d+ is Utf8, not a Fieldref, Methodref or"
    for strategy in ("block", "instruction"):
        with pytest.raises(CodeFormatError, match=message):
            instrument_class(broken, None, CounterIndexes(strategy))
    assert fuzz.exercise(broken) == "CodeFormatError"


def test_a_methodref_whose_name_and_type_is_a_utf8_is_a_clear_error(engine):
    cf = ClassFile.parse(engine["engine/Misc"])
    cp = cf.constant_pool
    index = next(i for i, e in enumerate(cp.entries) if e and e[0] == 10)
    cp.entries[index] = (10, cp.entries[index][1], cf.find_method("<init>", "()V").name_index)
    with pytest.raises(CodeFormatError, match=r"constant pool entry \d+ is Utf8, not NameAndType"):
        instrument_class(cf.to_bytes(), None, CounterIndexes("block"))


@pytest.mark.timeout(60)
def test_a_loop_that_keeps_pushing_is_refused_instead_of_walked_forever(engine):
    """``iconst_0; goto -1``: the stack grows on every turn, which no verifier accepts. Computing max_stack
    used to follow it forever."""
    data = engine["engine/Misc$1Doubler"]
    at = code_array(data, "apply")
    broken = patched(data, at, bytes([op.ICONST_0, op.GOTO, 0xFF, 0xFF]))
    message = r"apply\(I\)I: operand stack depth 0 or 1 at offset \d+, depending on the path"
    with pytest.raises(CodeFormatError, match=message):
        instrument_class(broken, None, CounterIndexes("block"))
    assert fuzz.exercise(broken) == "CodeFormatError"


def test_a_method_that_would_need_more_than_65535_locals_is_left_uncounted(engine):
    data = engine["engine/Misc$1Doubler"]
    broken = patched(data, code_array(data, "apply") - 6, b"\xff\xff")  # max_locals
    result = instrument_class(broken, None, CounterIndexes("instruction"))
    assert [m.method.name for m in result.maps] == ["<init>"]
    assert len(result.refused) == 1
    assert re.match(r"engine\.Misc\$1Doubler#apply\(I\)I: would need 65,5\d\d local variable slots after editing, "
                    r"over the JVM's limit of 65,535 slots", result.refused[0])
    ClassFile.parse(result.data)


def test_a_method_whose_stack_would_pass_65535_slots_is_a_code_too_large_error(engine):
    cf = ClassFile.parse(engine["engine/Misc$1Doubler"])
    m = cf.find_method("apply", "(I)I")
    i, code = m.find_attribute("Code")
    body = bytes([op.LCONST_0]) * 33000 + bytes([op.RETURN])
    m.attributes[i] = Attribute(code.name_index, struct.pack(">HHI", 2, 2, len(body)) + body + bytes(4))
    decoded = ClassFile.parse(cf.to_bytes())
    for method in decoded.methods:
        method.code
    with pytest.raises(CodeTooLargeError, match="would need 66,000 operand stack slots"):
        decoded.to_bytes()


def test_an_empty_code_array_is_a_code_format_error(engine):
    cf = ClassFile.parse(engine["engine/Misc$1Doubler"])
    m = cf.find_method("apply", "(I)I")
    i, code = m.find_attribute("Code")
    m.attributes[i] = Attribute(code.name_index, struct.pack(">HHI", 2, 2, 0) + bytes(4))
    with pytest.raises(CodeFormatError, match=r"apply\(I\)I: code_length is 0"):
        instrument_class(cf.to_bytes(), None, CounterIndexes("block"))


def test_a_malformed_method_descriptor_is_a_class_format_error(engine):
    cf = ClassFile.parse(engine["engine/Misc$1Doubler"])
    m = cf.find_method("apply", "(I)I")
    cf.constant_pool.entries[m.descriptor_index] = (1, b"(Ljava/lang/Object")
    with pytest.raises(CodeFormatError, match=r"malformed method descriptor '\(Ljava/lang/Object'"):
        instrument_class(cf.to_bytes(), None, CounterIndexes("block"))


def test_a_newarray_of_an_unknown_element_type_is_a_code_format_error(engine):
    data = engine["engine/Misc"]
    at = next(p for p in fuzz.layout(data).opcodes if data[p] == op.NEWARRAY)
    with pytest.raises(CodeFormatError, match=r"engine/Misc#\w+\(I\)I: newarray with array type 99 at offset \d+"):
        instrument_class(patched(data, at + 1, b"\x63"), None, CounterIndexes("block"))


def test_deeply_nested_annotation_values_decode_without_recursion(engine):
    """A type annotation on code whose value is an array in an array in an array... 5,000 deep: legal,
    and used to raise RecursionError."""
    cf = ClassFile.parse(engine["engine/CodeTypeAnnotations"])
    m = cf.find_method("annotatedBody", "(Ljava/lang/Object;I)I")
    table = next(a for a in m.code.attributes if type(a) is TypeAnnotations)
    tt, target, _ = table.entries[0]
    name = struct.pack(">H", m.name_index)
    value = b"[\x00\x01" * 5000 + b"I" + name
    table.entries[0] = (tt, target, b"\x00" + name + b"\x00\x01" + name + value)
    data = cf.to_bytes()
    again = ClassFile.parse(data)
    assert again.find_method("annotatedBody", "(Ljava/lang/Object;I)I").code is not None
    assert again.to_bytes() == data
    assert fuzz.exercise(data) == "ok"


def test_an_error_quotes_a_huge_broken_name_briefly(engine):
    cf = ClassFile.parse(engine["engine/Misc$1Doubler"])
    m = cf.find_method("apply", "(I)I")
    cf.constant_pool.entries[m.name_index] = (1, b"\x07" * 10000)
    data = cf.to_bytes()
    broken = patched(data, code_array(data, "\x07" * 10000), b"\xff")  # not an opcode
    with pytest.raises(CodeFormatError) as info:
        instrument_class(broken, None, CounterIndexes("block"))
    message = str(info.value)
    assert "(10,000 characters)" in message and "invalid opcode 255 at offset 0" in message
    assert len(message) < 400 and message.isprintable()


def _huge_method_class(tmp_path) -> bytes:
    """A real javac method of about 62 KB of code with a branch every few instructions: too large to count in every
    way the pipeline tries."""
    from tests.support.javac import compile_java

    body = "\n".join(f"        s += a[{i % 8}] * {i % 5 + 2}; if (s > {1000 + i}) s -= {999 + i % 7};"
                     for i in range(2350))
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "Huge.java").write_text(
        f"package big;\n\npublic class Huge {{\n    public static int run(int[] a) {{\n        int s = 0;\n{body}\n"
        f"        return s;\n    }}\n}}\n")
    return (compile_java(tmp_path, release="17") / "big" / "Huge.class").read_bytes()


def test_the_too_large_warning_names_the_size_of_the_attempt_that_came_nearest(tmp_path):
    """The pipeline tries counters per block, then increments per instruction, each with and without lines; the
    warning gives the smallest size it reached, not the last fallback's, which is the same whatever the strategy.
    Per-instruction increments add code before every instruction, so the block strategy's nearest attempt is smaller
    than the instruction strategy's."""
    data = _huge_method_class(tmp_path)
    sizes = {}
    for strategy in ("block", "instruction"):
        (message,) = instrument_class(data, None, CounterIndexes(strategy)).refused
        m = re.match(r"big\.Huge#run\(\[I\)I: code would be ([\d,]+) bytes after editing, over the JVM's limit", message)
        assert m, message
        sizes[strategy] = int(m.group(1).replace(",", ""))
    assert 65_535 < sizes["block"] < 0.8 * sizes["instruction"], sizes


def _with_type_annotation(data: bytes, method: str, offset_past_end: int) -> bytes:
    """``data`` with one RuntimeVisibleTypeAnnotations entry on ``method``'s code: a ``new`` target (0x44) at the
    code's length plus ``offset_past_end`` (0: the first offset past the code), of type @java.lang.Deprecated."""
    cf = ClassFile.parse(data)
    m = next(x for x in cf.methods if x.name == method)
    i, code = m.find_attribute("Code")
    raw = code.data
    code_length = struct.unpack_from(">I", raw, 4)[0]
    at = 8 + code_length
    handlers = struct.unpack_from(">H", raw, at)[0]
    at += 2 + 8 * handlers
    count = struct.unpack_from(">H", raw, at)[0]
    body = struct.pack(">HBHBHH", 1, 0x44, code_length + offset_past_end, 0,
                       cf.constant_pool.add_utf8("Ljava/lang/Deprecated;"), 0)
    added = struct.pack(">HI", cf.constant_pool.add_utf8("RuntimeVisibleTypeAnnotations"), len(body)) + body
    m.attributes[i] = Attribute(code.name_index, raw[:at] + struct.pack(">H", count + 1) + raw[at + 2:] + added)
    return cf.to_bytes()


def test_a_type_annotation_on_an_offset_past_the_code_is_dropped_and_the_class_counted(engine):
    """ASM's Issue317789.class annotates an offset past its code's end; HotSpot loads it, so the instrumenter must
    count it too (the annotation annotates nothing: dropped, as ASM drops it)."""
    data = _with_type_annotation(engine["engine/Misc$1Doubler"], "apply", 0)
    result = instrument_class(data, None, CounterIndexes("block"))
    assert sorted(m.method.name for m in result.maps) == ["<init>", "apply"] and not result.refused
    out = ClassFile.parse(result.data)
    code = out.find_method("apply", "(I)I").code
    kept = [a for a in code.attributes if isinstance(a, TypeAnnotations)]
    assert all(a.entries == [] for a in kept)
