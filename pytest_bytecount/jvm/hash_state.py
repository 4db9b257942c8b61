"""The identity-hash state of the thread that runs a test: the same start for every test under deep counts.

HotSpot gives an object its identity hash (``System.identityHashCode``, the ``hashCode`` of every class that keeps
Object's: enums, ``Class`` objects, lambdas) the first time one is asked for, drawn from a xor-shift generator whose
four ints each thread keeps (``-XX:hashCode=5``, the default). A thread's values therefore follow how many hashes it
drew before, and the work of a ``HashMap`` keyed by such objects (its buckets, resizes and tree bins) follows them
too: a test's deep counts moved when a test before it drew one more hash (a first use of some JDK or JPype table
by identity), and from run to run when a timing-dependent path did.

Under deep counts the plugin sets the four ints of the thread that runs a test to a start made from the test's own
id right before the test function runs (and before a determinism check's second run), and the deep runtime sets
them again each time an outermost window opens, to the test's start mixed with the window's ordinal in the test.
The hashes drawn inside a window then follow only the target's own work and the test's order of calls, whatever
ran before.

Where the four ints sit in the thread's VM structure differs between builds (HotSpot 17 server, Zero and 25 all keep
them together, in the order W, X, Y, Z, at different offsets); :func:`find` looks for them once, by reading four ints
at each candidate offset and checking that they predict the identity hash the JVM draws next (twice, so a chance
match is about one in 2**62). A JVM where no offset predicts it (another hash mode, another layout) keeps its own
hashes: :attr:`HashState.missing` says why.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Optional, Sequence

MASK32 = 0xFFFFFFFF
# HotSpot's hash field: 31 bits on a 64-bit JVM (an all-zero draw becomes 0xBAD)
HASH_BITS = 0x7FFFFFFF
# HotSpot's start for a new thread's Y, Z and W (X is a random number)
START_Y, START_Z, START_W = 842502087, 0x8767, 273326509
# where to look: every 4-byte offset of the thread's VM structure up to this many bytes (HotSpot 17 server keeps the
# state at 624, Zero 17 at 480, HotSpot 25 at 1080; a JavaThread is larger than this)
SEARCH_BYTES = 2048
# the orders the four ints may sit in (HotSpot's declaration order, and what builds since 17 lay out)
LAYOUTS = ("WXYZ", "XYZW")


def next_hash(x: int, w: int) -> int:
    """The identity hash HotSpot's generator draws next from state (x, ., ., w) (Marsaglia's xor-shift)."""
    x &= MASK32
    w &= MASK32
    t = (x ^ (x << 11)) & MASK32
    v = ((w ^ (w >> 19)) ^ (t ^ (t >> 8))) & MASK32 & HASH_BITS
    return v or 0xBAD


def start_for(key: str) -> dict:
    """The generator state a test starts with: X from the test's id (never zero), Y, Z, W as HotSpot starts a
    thread."""
    x = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:4], "big") or 1
    return {"X": x, "Y": START_Y, "Z": START_Z, "W": START_W}


def _signed(v: int) -> int:
    v &= MASK32
    return v - (1 << 32) if v >= 1 << 31 else v


class HashState:
    """Where the running thread's identity-hash state sits, and how to set it (:func:`find`)."""

    def __init__(self, probe: Callable[[int], Sequence[int]], seed: Callable[[int, list, int], None],
                 offset: Optional[int], layout: str = "WXYZ", missing: str = ""):
        self._probe = probe
        self._seed = seed
        self.offset = offset
        self.layout = layout
        self.missing = missing

    def reseed(self, key: str) -> bool:
        """Set the current thread's state to the start for ``key``; whether it could be."""
        if self.offset is None:
            return False
        start = start_for(key)
        self._seed(self.offset, [_signed(start[letter]) for letter in self.layout], self.layout.index("X"))
        return True


def find(probe: Callable[[int], Sequence[int]], seed: Callable[[int, list, int], None],
         limit: int = SEARCH_BYTES, hint: Optional[tuple] = None) -> HashState:
    """Look for the state: ``probe(offset)`` returns the four ints at that offset of the current thread's VM
    structure and then the identity hash of a new object; ``seed(offset, ints, xi)`` makes ``ints`` (in memory
    order, X at index ``xi``) the test's start (the deep runtime's ``hashStart``). ``hint``, an ``(offset,
    layout)`` where an earlier run of the same JVM found it, is checked first, as every candidate is."""
    candidates = [(offset, layout) for offset in range(0, limit - 12, 4) for layout in LAYOUTS]
    if hint in candidates:
        candidates.insert(0, hint)
    for offset, layout in candidates:
        if all(_predicts(probe(offset), layout) for _ in range(2)):
            return HashState(probe, seed, offset, layout)
    return HashState(probe, seed, None, missing="no identity-hash state found in the thread (a JVM not started with "
                                                  "HotSpot's default -XX:hashCode=5?)")


def _predicts(values: Sequence[int], layout: str) -> bool:
    state = dict(zip(layout, (int(v) for v in values[:4])))
    return next_hash(state["X"], state["W"]) == int(values[4]) & MASK32
