"""The counting transform changes what a class does by nothing: same members, same flags, same results."""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classpath import Classpath
from pytest_bytecount.instrument import instrument
from pytest_bytecount.runtime_class import RUNTIME_CLASS

from engine_helpers import exercise, read_class_dir, write_class_dir
from support.verifier import verify_hotspot

NEVER_RETURNS = ["spinForever"]


def _shape(data: bytes) -> dict:
    cf = ClassFile.parse(data)
    cp = cf.constant_pool
    return {
        "class": (cf.access_flags, cf.name, cf.super_name, [cp.class_name(i) for i in cf.interfaces]),
        "fields": [(f.access_flags, f.name, f.descriptor, [(cp.utf8(a.name_index), a.data) for a in f.attributes])
                   for f in cf.fields],
        "methods": [(m.access_flags, m.name, m.descriptor,
                     [(cp.utf8(a.name_index), a.data) for a in m.attributes if cp.utf8(a.name_index) != "Code"])
                    for m in cf.methods],
        "attributes": [(cp.utf8(a.name_index), a.data) for a in cf.attributes],
    }


def test_counted_classes_keep_every_member_flag_and_attribute(engine_classes):
    counted = instrument(Classpath([engine_classes]), ["engine.**"])
    originals = read_class_dir(engine_classes)
    assert set(counted.classes) - set(originals) == {RUNTIME_CLASS}
    for name, data in counted.classes.items():
        if name != RUNTIME_CLASS:
            assert data != originals[name]
            assert _shape(data) == _shape(originals[name]), name


@pytest.mark.parametrize("strategy", ["block", "instruction"])
def test_counted_classes_verify_and_compute_the_same_results(engine_classes, tmp_path, strategy):
    counted = instrument(Classpath([engine_classes]), ["engine.**"], strategy=strategy)
    # 33.5 KB with 22,418 instructions: an increment per instruction cannot fit in 64 KB, one per block can
    expected = ["engine.BigBranches#alreadyWideLoop(I)I"] if strategy == "instruction" else []
    assert [r.split(":")[0] for r in counted.refused] == expected
    assert dict(verify_hotspot(counted.classes, [engine_classes])) == {}
    out = tmp_path / "counted"
    counted.write(out)
    write_class_dir({k: v for k, v in read_class_dir(engine_classes).items() if k not in counted.classes}, out)
    names = sorted(n for n in read_class_dir(engine_classes) if "$" not in n)
    before = exercise(engine_classes, names, NEVER_RETURNS)
    assert before.count("\n") > 100
    assert exercise(out, names, NEVER_RETURNS) == before


def test_counting_a_big_method_forces_long_branches(counting_classes):
    """counting.BigMethod is exact on every JVM (test_counting_exact); here: its counted code really needed
    goto_w, which javac did not use."""
    root = counting_classes["javac17"]
    original = ClassFile.parse((root / "counting" / "BigMethod.class").read_bytes())
    assert not any(i.opcode == 200 for m in original.methods if m.has_code() for i in m.code.instructions)
    counted = ClassFile.parse(instrument(Classpath([root]), ["counting.BigMethod"], strategy="instruction")
                              .classes["counting/BigMethod"])
    assert any(i.mnemonic == "goto_w" for m in counted.methods if m.has_code() for i in m.code.instructions)
