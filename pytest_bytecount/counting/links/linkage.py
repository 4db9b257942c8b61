"""Inclusive counts of classes counted as they load: every method of every application class that loads is
instrumented, and the invocations are linked by names.

Nothing is known in advance: a class is instrumented when a loader first asks for it, so its bytes must not
depend on which other classes load, or in which order (its cache entry is shared). Hence:

- every method with code of every application class that loads is instrumented, with the hooks of
  :mod:`.hooks`; an invocation is linked only through an ``invoke*`` of an instrumented caller that ran it,
  so instrumenting methods that no target can reach changes no target's counts, only the cost of running
  them;
- a selector is the string ``name(desc)ret`` and an exact method ``owner.name(desc)ret`` (internal owner
  name), pushed by ``ldc``: the JVM interns string constants, so caller and callee hold the same object and
  the support class compares references;
- an ``invokestatic``/``invokespecial`` is armed with the exact method it resolves to when that is an
  application method with code (JVMS 5.4.3.3/5.4.3.4, reading only the named class and its supertypes);
  an ``invokevirtual``/``invokeinterface`` is always armed with its selector, except on a few final JDK
  classes: arming a call that reaches no application method changes nothing (a JDK method called back
  with the same receiver and selector would dispatch to itself), it only costs the arming;
- each class's Counters class (:mod:`..pipeline.per_class`) gets a slot from ``InclusiveByClass.slot(name)``
  and its targets' indexes from ``InclusiveByClass.target(id)`` in its static initializer, and ``addIn``
  overloads: its own flat add, then the class's pending buffer of every target active in the segment;
- a target's inclusive ``methods`` are the methods that contributed to it (ran for it and completed
  normally).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Iterable, Sequence

from ...classfile.assemble import assemble
from .hooks import INCLUSIVE_BY_CLASS, Hierarchy, MethodHooks, exact_name
from ..instr.runtime import add_descriptor, support_source
from ..targets import MethodId

@lru_cache(maxsize=None)
def inclusive_by_class_bytes() -> bytes:
    """The support class (one per test loader, so every test starts with fresh state)."""
    return assemble(support_source("InclusiveByClass.jasm", __package__), "InclusiveByClass.jasm", {})


class ClassLinks:
    """What the transform needs to link the invocations of one class's methods (``CounterIndexes.inclusive``)."""

    def __init__(self, hierarchy: Hierarchy, counters_name: str, targets: Sequence[tuple]):
        self.hierarchy = hierarchy
        self.counters_name = counters_name
        self.targets = sorted(targets)  # (name, descriptor) of the class's targets: fields T0, T1, ...

    def hooks(self, cf, method) -> MethodHooks:
        return MethodHooks(self, cf, method)

    def counters_inserts(self, class_name: str, size: int, arities: Iterable[tuple]) -> dict:
        """The ``.insert`` texts that make the class's Counters class take part in inclusive counts."""
        fields = [".field private static final SLOT I"]
        clinit = [f"ldc_w {_quoted(class_name)}", f"invokestatic {INCLUSIVE_BY_CLASS}.slot(Ljava/lang/String;)I",
                  "putstatic SLOT"]
        for k, (name, desc) in enumerate(self.targets):
            fields.append(f".field public static final T{k} I")
            clinit += [f"ldc_w {_quoted(exact_name(MethodId(class_name, name, desc)))}",
                       f"invokestatic {INCLUSIVE_BY_CLASS}.target(Ljava/lang/String;)I", f"putstatic T{k}"]
        methods = "\n".join(_add_in(kind, n, size) for kind, n in sorted(set(arities)))
        return {"fields": "\n".join(fields), "clinit": "\n".join(clinit), "methods": methods}


def _quoted(text: str) -> str:
    return json.dumps(text)  # a string constant of the assembly text


def _add_in(kind: str, n: int, size: int) -> str:
    """``public static void addIn(int first, int|long v0, ..., vN)`` of a class's Counters class:

        add(first, v0, ..., vN);                                  // this class's flat counters
        InclusiveByClass state = InclusiveByClass.state();
        for (int k = state.segBase; k < state.n; k++) {
            long[] buffer = InclusiveByClass.buffer(state, state.list[k], SLOT, SIZE);
            buffer[first + 0] += v0; ... buffer[first + N] += vN;
            if (buffer[SIZE] > first) buffer[SIZE] = first;
            if (buffer[SIZE + 1] < first + N + 1) buffer[SIZE + 1] = first + N + 1;
        }
    """
    values = [f"v{i}" for i in range(n)]
    load = "lload" if kind == "J" else "iload"
    widen = [] if kind == "J" else ["i2l"]
    state = f"L{INCLUSIVE_BY_CLASS};"
    end = ["iload first", f"push {n}", "iadd", "i2l"]  # first + n, as a long
    low, high = size, size + 1
    lines = [f".method public static addIn{add_descriptor(n, kind)}", f".args first {' '.join(values)}",
             f".local state {state}", ".local k I", ".local buffer [J",
             "iload first", *(f"{load} {value} indexed" for value in values),
             f"invokestatic add{add_descriptor(n, kind)}",
             f"invokestatic {INCLUSIVE_BY_CLASS}.state(){state}", "astore state indexed",
             "aload state indexed", f"getfield {INCLUSIVE_BY_CLASS}.segBase I", "istore k indexed",
             "loop:",
             "iload k indexed", "aload state indexed", f"getfield {INCLUSIVE_BY_CLASS}.n I", "if_icmpge done",
             "aload state indexed", "aload state indexed", f"getfield {INCLUSIVE_BY_CLASS}.list [I",
             "iload k indexed", "iaload", "getstatic SLOT", f"push {size}",
             f"invokestatic {INCLUSIVE_BY_CLASS}.buffer({state}III)[J", "astore buffer indexed"]
    for i, value in enumerate(values):
        lines += ["aload buffer indexed", "iload first", f"push {i}", "iadd", "dup2", "laload",
                  f"{load} {value} indexed", *widen, "ladd", "lastore"]
    lines += ["aload buffer indexed", f"push {low}", "laload", "iload first", "i2l", "lcmp", "ifle low_done",
              "aload buffer indexed", f"push {low}", "iload first", "i2l", "lastore",
              "low_done:",
              "aload buffer indexed", f"push {high}", "laload", *end, "lcmp", "ifge high_done",
              "aload buffer indexed", f"push {high}", *end, "lastore",
              "high_done:",
              "iinc k 1", "goto loop",
              "done:",
              "return", ".end method"]
    return "\n".join(lines)


def read_committed(snapshot: Sequence[int]) -> dict:
    """{(target index, slot): summed values} from ``InclusiveByClass.snapshot()``'s runs."""
    out: dict = {}
    at = 0
    while at < len(snapshot):
        t, slot, size = snapshot[at], snapshot[at + 1], snapshot[at + 2]
        values = snapshot[at + 3:at + 3 + size]
        have = out.get((t, slot))
        out[(t, slot)] = list(values) if have is None else [a + b for a, b in zip(have, values)]
        at += 3 + size
    return out


def inclusive_of(maps_and_values: Iterable[tuple]) -> dict:
    """{"calls", "methods", "opcodes", "total"} of one target from (CounterMaps of a class, its committed
    values) pairs: the sum over the methods that contributed."""
    opcodes: dict = {}
    calls: dict = {}
    methods = []
    for maps, values in maps_and_values:
        for cmap in maps:
            o, c = cmap.derive(values)
            if not any(o.values()):
                continue
            methods.append(cmap.method)
            for k, v in o.items():
                opcodes[k] = opcodes.get(k, 0) + v
            for k, v in c.items():
                calls[k] = calls.get(k, 0) + v
    methods.sort(key=lambda m: (m.class_name, m.name, m.descriptor))
    opcodes = {k: v for k, v in sorted(opcodes.items()) if v}
    return {"calls": {k: v for k, v in sorted(calls.items()) if v}, "methods": [str(m) for m in methods],
            "opcodes": opcodes, "total": sum(opcodes.values())}
