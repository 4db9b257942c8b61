"""The Counters class put together from parts assembled once (size patched in, overloads appended) is the
class assembling its whole text gives, for every push width of the size and any set of overloads."""

from __future__ import annotations

import random

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.counting.instr import runtime
from pytest_bytecount.counting.instr.runtime import (
    MAX_VALUES_PER_CALL, RUNTIME_CLASS, assembled_runtime_class, build_runtime_class,
)

# every boundary of the shortest int push (iconst, bipush, sipush, ldc) and a few sizes between
SIZES = (0, 1, 2, 3, 4, 5, 6, 7, 100, 127, 128, 129, 1000, 32767, 32768, 32769, 70_000, 1 << 20, 2 ** 31 - 1)
NAMES = (RUNTIME_CLASS, "pytest_bytecount/of/demo/Sorting", "pytest_bytecount/of/caf\u00e9/\u00dcber\U0001f600")


def _arities() -> list:
    rng = random.Random(7)
    fixed = [{("I", 1)}, {("J", 1)}, {("I", 1), ("J", 1)}, {("I", 8), ("I", 9)}, {("J", 8), ("J", 9), ("I", 2)},
             {("I", MAX_VALUES_PER_CALL)}, {("I", 1), ("I", 3), ("J", 2)}, {("I", n) for n in (1, 9, 250)}]
    drawn = [{(rng.choice("IJ"), rng.randint(1, 40)) for _ in range(rng.randint(1, 6))} for _ in range(6)]
    return fixed + drawn


@pytest.mark.parametrize("size", SIZES)
def test_the_class_from_parts_is_the_class_assembled_whole(size):
    for i, arities in enumerate(_arities()):
        name = NAMES[i % len(NAMES)]
        fast = build_runtime_class(size, arities, name)
        assert fast == assembled_runtime_class(size, arities, name), (size, sorted(arities), name)
    assert ClassFile.parse(fast).name == name


def test_a_set_of_overloads_given_in_any_order_or_repeated_gives_the_same_class():
    arities = [("J", 3), ("I", 2), ("I", 1), ("J", 3)]
    assert build_runtime_class(300, arities) == assembled_runtime_class(300, sorted(set(arities)))
    assert build_runtime_class(300, iter(arities)) == build_runtime_class(300, reversed(arities))


def test_without_parts_the_class_is_assembled_whole(monkeypatch):
    """When the assembled bytes are not as the parts assume (here: as if no width had parts), the class is
    assembled whole: the same bytes, only slower."""
    monkeypatch.setattr(runtime, "_width_parts", lambda width: None)
    for size in (3, 300):
        assert build_runtime_class(size, {("I", 2)}, NAMES[1]) == assembled_runtime_class(size, {("I", 2)}, NAMES[1])
    assert build_runtime_class(3, set(), NAMES[1]) == assembled_runtime_class(3, set(), NAMES[1])
