"""The calling-context trees of deep counts, read from the running JVM (see Deep.jasm: ``call``, ``tree``).

The runtime keeps one tree for the JVM's life: node 0 is its root, and each node has a parent and a key (a method's
number, or ``-1-t`` for a window of target ``t``). ``tree(from)`` hands over the nodes made since the last read and
the values (own instructions, invocations, copied) each node gained, setting them to 0. This side keeps the shape and
works out, once per node, where it lies in each window it is in: a target's tree is rooted at its window, a window
nested in another is transparent to the outer one's paths, and every path is folded (a method already on it is its
node again), so the outer target's paths fold across an inner window too.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..counting.counts.calltree import CallTree, fold
from ..counting.instr.deep import LOCAL_BASE

# reflection's generated accessors are numbered in the order the JVM made them: deep.methods and trees name them without
GENERATED_NUMBER = re.compile(r"^((?:jdk\.internal|sun)\.reflect\.Generated\w*?Accessor)\d+(?=#)")


class TreeReader:
    """The tree's shape as read so far, and each target's tree of what ran since the last read."""

    def __init__(self, counting):
        self._counting = counting  # the DeepCounting: its runtime, method numbers and cache
        self._parent: list = [0]
        self._key: list = [0]
        self._places: dict = {0: ()}  # node -> ((target number, folded path), ...)
        self.full = 0  # calls that found no room for a node (their work went to their caller's node)

    def mark(self) -> None:
        """Drop what the tree holds so far: :meth:`trees` gives what ran from here on."""
        self.values()

    def values(self) -> dict:
        """{node: (own, calls, copied)} since the last read (the runtime's values set to 0), the nodes' shape kept."""
        from .session import python_longs

        values = python_longs(self._counting.runtime.tree(len(self._parent)))
        n, at = values[0], 2
        self.full += values[1]
        parent, key = self._parent, self._key
        for _ in range(len(parent), n):
            parent.append(values[at])
            key.append(values[at + 1])
            at += 2
        return {values[k]: (values[k + 1], values[k + 2], values[k + 3]) for k in range(at, len(values), 4)}

    def trees(self, targets: Iterable[str]) -> dict:
        """``{target: its CallTree}``, for those of ``targets`` whose windows ran since the last read."""
        numbers = self._counting.numbers
        values = self.values()
        wanted = {numbers.target(t): t for t in targets}
        out: dict = {}
        for node, (own, calls, copied) in values.items():
            inner = -1 - self._key[node]  # a window's node: its target (the window's openings are no outer node's calls)
            for t, path in self._placed(node):
                if t in wanted:
                    if inner >= 0 and t != inner:
                        calls = 0
                    tree = out.get(t)
                    if tree is None:
                        tree = out[t] = CallTree()
                    tree.add(path, own, calls, copied)
        return {wanted[t]: tree for t, tree in sorted(out.items())}

    def _placed(self, node: int) -> tuple:
        """Where ``node`` is in each window it is in: ((target number, path), ...), the path folded."""
        placed = self._places.get(node)
        if placed is not None:
            return placed
        chain = []
        while node and node not in self._places:
            chain.append(node)
            node = self._parent[node]
        placed = self._places.get(node, ())
        for n in reversed(chain):
            k = self._key[n]
            if k < 0:  # a window: a path of its own begins, and the outer windows' paths go on through it
                placed = placed + ((-1 - k, ()),)
            else:
                name = self._frame(k)
                placed = tuple((t, fold(p, name)) for t, p in placed)
            self._places[n] = placed
        return placed

    def _frame(self, number: int) -> str:
        counting = self._counting
        name = counting.numbers.names.get(number)
        if name is None and number < LOCAL_BASE and counting.cache is not None:
            counting.cache.sync(counting.numbers)  # a class another process counted and kept since this one last read
            name = counting.numbers.names.get(number)
        return GENERATED_NUMBER.sub(r"\1", name) if name else f"(method number {number})"
