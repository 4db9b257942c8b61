"""Look-ups of the constant pool are kept once resolved: the same answer every time, a broken entry refused every
time, and what is appended later found too (the pool is only appended to)."""

import pytest

from pytest_bytecount.classfile import ClassFormatError
from pytest_bytecount.classfile.constant_pool import CLASS, UTF8, ConstantPool


def test_a_resolved_reference_is_the_same_every_time_and_a_broken_one_fails_every_time():
    cp = ConstantPool()
    ref = cp.add_methodref("demo/Sorting", "sort", "([I)V")
    assert cp.member_ref(ref) == ("demo/Sorting", "sort", "([I)V")
    assert cp.member_ref(ref) is cp.member_ref(ref)
    broken = len(cp.entries)
    cp.entries.append((CLASS, ref))  # a Class whose name is a Methodref, not a Utf8
    for _ in range(2):
        with pytest.raises(ClassFormatError, match="not Utf8"):
            cp.class_name(broken)
        with pytest.raises(ClassFormatError, match="not a Fieldref"):
            cp.member_ref(broken)


def test_text_added_twice_is_one_entry_and_text_already_there_is_found():
    cp = ConstantPool([None, (UTF8, b"java/lang/Object")])
    assert cp.add_utf8("java/lang/Object") == 1
    first = cp.add_utf8("demo/Sorting")
    assert cp.add_utf8("demo/Sorting") == first == len(cp.entries) - 1
    assert cp.add_class("demo/Sorting") == cp.add_class("demo/Sorting")
    assert cp.class_name(cp.add_class("demo/Sorting")) == "demo/Sorting"
