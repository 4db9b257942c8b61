"""``pytest_bytecount/Inclusive``: the per-thread state behind inclusive counts, assembled here from
``Inclusive.jasm``.

Version 49 like ``Counters`` (no stack map frames). One instance per thread: the thread that initializes
the class finds its own in static finals (``OWNER``, ``OWNED``), which the JIT folds; any other thread in a
``ThreadLocal``, with the last one's cached in a static field whose ``owner`` is final. It holds:

- the armed call: (receiver or null, selector or exact id; 0 = nothing armed), see :mod:`.inclusive`;
- ``list[0..n)``: the targets active on this thread, a stack; ``segBase``: where the current linked
  segment starts in it. A target is active in the current segment iff ``where[t] >= segBase``;
- the segment stack: per unlinked entry, the previous ``segBase`` and armed call, restored at its exit;
- ``pend[t]``: per target a ``long[S + 2]`` of pending counter values in the batch's flat layout
  (``S`` counters), with the lowest and highest index touched at ``S`` and ``S + 1``. When the outermost
  active invocation of ``t`` completes normally, its non-zero values are added to
  ``Counters`` at ``(t + 1) * S + i``; when it ends by an exception they are zeroed.

Instrumented methods call ``long enter(Object self, int selector, int id, int target)`` at entry (the
token: segment depth << 32 | list length << 2 | unlinked << 1 | pushed), ``add(first, v0..vN)`` instead
of ``Counters.add`` for their normal report (flat counts plus every target active in the segment),
``leave(token)`` after it, ``fail(token)`` from their catch-all handler before rethrowing, and
``arm(receiver or null, selector or id)`` / ``clear()`` around calls that may reach an instrumented
method. Every exception handler of an instrumented method calls ``resync(token)``, and every exit first
drops the list entries and segments above its own, which a frame may have left behind without running
its exit hook (an exception out of a constructor's ``super(...)`` call, which no handler may cover): the
state is repaired at the next instrumented handler or exit below. Nothing allocates per call except a
target entered again through a callback while active below (a fresh pending buffer) and the first
activation of a target on a thread.
"""

from __future__ import annotations

from typing import Iterable

from ..classfile.assemble import assemble
from .inclusive import INCLUSIVE_CLASS
from .runtime import RUNTIME_CLASS, add_descriptor, support_source


def build_inclusive_class(flat_size: int, n_targets: int, arities: Iterable[tuple]) -> bytes:
    """The Inclusive class for a batch of ``flat_size`` flat counters and ``n_targets`` targets, written in
    ``Inclusive.jasm`` beside this module; only its ``add`` overloads are generated (:func:`add_overloads`)."""
    constants = {"FLAT": flat_size, "LOW": flat_size, "HIGH": flat_size + 1, "PENDING": flat_size + 2,
                 "TARGETS": n_targets}
    return assemble(support_source("Inclusive.jasm"), "Inclusive.jasm", constants,
                    {"add": add_overloads(arities)})


def add_overloads(arities: Iterable[tuple]) -> str:
    """``public static void add(int first, int|long v0, ..., vN)`` per (kind, arity), in the text form:
    ``Counters.add`` with the same values, then the values into the pending buffer of every target
    active in the current segment, widening its touched range:

        Counters.add(first, v0, ..., vN);
        Inclusive state = state();
        for (int k = state.segBase; k < state.n; k++) {
            long[] buffer = state.pend[state.list[k]];
            buffer[first + 0] += v0; ... buffer[first + N] += vN;
            if (buffer[LOW] > first) buffer[LOW] = first;
            if (buffer[HIGH] < first + N + 1) buffer[HIGH] = first + N + 1;
        }
    """
    return "\n".join(_add_overload(kind, n) for kind, n in sorted(set(arities)))


def _add_overload(kind: str, n: int) -> str:
    values = [f"v{i}" for i in range(n)]
    load = "lload" if kind == "J" else "iload"
    widen = [] if kind == "J" else ["i2l"]
    end = ["iload first", f"push {n}", "iadd", "i2l"]  # first + n, as a long
    lines = [f".method public static add{add_descriptor(n, kind)}", f".args first {' '.join(values)}",
             f".local state L{INCLUSIVE_CLASS};", ".local k I", ".local buffer [J",
             "iload first", *(f"{load} {value} indexed" for value in values),
             f"invokestatic {RUNTIME_CLASS}.add{add_descriptor(n, kind)}",
             f"invokestatic state()L{INCLUSIVE_CLASS};", "astore state indexed",
             "aload state indexed", "getfield segBase", "istore k indexed",
             "loop:",
             "iload k indexed", "aload state indexed", "getfield n", "if_icmpge done",
             "aload state indexed", "getfield pend", "aload state indexed", "getfield list", "iload k indexed",
             "iaload", "aaload", "astore buffer indexed"]
    for i, value in enumerate(values):
        lines += ["aload buffer indexed", "iload first", f"push {i}", "iadd", "dup2", "laload",
                  f"{load} {value} indexed", *widen, "ladd", "lastore"]
    lines += ["aload buffer indexed", "push $LOW", "laload", "iload first", "i2l", "lcmp", "ifle low_done",
              "aload buffer indexed", "push $LOW", "iload first", "i2l", "lastore",
              "low_done:",
              "aload buffer indexed", "push $HIGH", "laload", *end, "lcmp", "ifge high_done",
              "aload buffer indexed", "push $HIGH", *end, "lastore",
              "high_done:",
              "iinc k 1", "goto loop",
              "done:",
              "return", ".end method"]
    return "\n".join(lines)
