"""Which stored baseline keys still have a test: an update never deletes the entry of a test that still exists,
and a key that differs from a collected one only by an added parameter is never "no such test"."""

from __future__ import annotations

from pytest_bytecount.regression.stale import still_collected


def test_a_key_collected_as_it_is_still_has_its_test():
    assert still_collected("test_a[10]", {"test_a[10]", "test_b"})


def test_a_key_whose_test_gained_a_parameter_still_has_its_test():
    # a plugin's repetition appended (pytest-repeat, last) or put first (pytest-flakefinder), or a new parametrize
    assert still_collected("test_a", {"test_a[1-3]", "test_a[2-3]"})
    assert still_collected("test_a[10]", {"test_a[10-1-3]"})
    assert still_collected("test_a[10]", {"test_a[0-10]"})
    assert still_collected("test_a[10-x]", {"test_a[10-x-2]"})
    assert still_collected("TestA::test_a[10]", {"TestA::test_a[10-2-2]"})


def test_a_key_whose_test_is_gone_or_renamed_is_stale():
    assert not still_collected("test_a", {"test_ab", "test_b[1]"})
    assert not still_collected("test_a[10]", {"test_a[100]", "test_a[1-3]", "test_a"})
    assert not still_collected("test_a[10]", {"test_a[110-3]", "test_a[3-101]"})  # 10 is not a whole id
    assert not still_collected("test_a[1]", {"test_a[10-1-3]"})  # not a parameter added before or after
    assert not still_collected("TestA::test_a", {"TestB::test_a[1-3]"})
