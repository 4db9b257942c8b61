"""The support class instrumented code reports to, assembled here (no javac, no jar at run time).

``pytest_bytecount/Counters`` holds the counters of one instrumentation batch; each counted method owns a
contiguous range of indexes (see :mod:`.transform`). Instrumented code calls ``Counters.add(int first,
int v0, ..., int vN)`` before each return. Each thread adds into a ``long[]`` of its own, so threads never
contend and nothing is lost: the thread that initialized the class finds its array in a ``static final``
field (the JIT folds it into a constant), every other thread through a ``ThreadLocal`` (registered once
under the class lock, and remembered for the last such thread);
``Counters.snapshot()`` sums them all. No call allocates; storage is one array per thread that ran counted
code, whatever the number of invocations.

When the JVM runs with ``-Dbytecount.out=FILE`` a shutdown hook writes the contract's JSON to FILE,
following ``Counters.layout``, a resource written next to the class: a small program of one-letter
operations (see :func:`pytest_bytecount.counting.counts.render.layout_program`) that prints the counts in exactly the text
:func:`pytest_bytecount.counting.counts.render_json` produces. The class is version 49, so it needs no stack map
frames and runs on any JVM from Java 5 to 25.

The class is written in ``Counters.jasm`` (the text form of :mod:`pytest_bytecount.classfile.assemble`),
beside this module; only its ``add`` overloads are generated, by :func:`add_overloads`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Iterable, Optional

from ...classfile.assemble import assemble
from ...classfile.constant_pool import mutf8_encode

RUNTIME_CLASS = "pytest_bytecount/Counters"
LAYOUT_RESOURCE = "Counters.layout"
MAX_VALUES_PER_CALL = 250  # a static method has at most 255 argument slots (JVMS 4.3.3)
UNCONDITIONAL_ADDS = 8  # add() skips zero values only when it has more than this many


def add_descriptor(n_values: int, kind: str = "I") -> str:
    """``(I` + ``n_values`` values of ``kind`` (``I`` int, ``J`` long) ``)V``."""
    return "(I" + kind * n_values + ")V"


@lru_cache(maxsize=None)
def support_source(name: str, package: str = __package__) -> str:
    """The assembly text of a support class, kept as package data in ``package`` (by default next to this
    module)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def build_runtime_class(size: int, arities: Iterable[tuple], name: str = RUNTIME_CLASS,
                        more: Optional[dict] = None) -> bytes:
    """The Counters class for ``size`` counters, with an ``add`` overload per (kind, arity) used. ``name``:
    the class's internal name (a class counted on its own gets a Counters class of its own). ``more``:
    text for its ``.insert`` points ``fields``, ``clinit`` (at the start of its static initializer) and
    ``methods`` (:mod:`..links.linkage` adds its links to inclusive counts there).

    Without ``more``, the class is assembled once per size and overloads and renamed for each class: its
    name is one Utf8 constant, so renaming it gives the bytes assembling under that name gives."""
    if more is None:
        return renamed(_template(max(size, 1), frozenset(arities)), name)
    return assembled_runtime_class(size, arities, name, more)


@lru_cache(maxsize=4096)
def _template(size: int, arities: frozenset) -> bytes:
    return assembled_runtime_class(size, arities)


def assembled_runtime_class(size: int, arities: Iterable[tuple], name: str = RUNTIME_CLASS,
                            more: Optional[dict] = None) -> bytes:
    """:func:`build_runtime_class`, always assembled from the text."""
    text = support_source("Counters.jasm")
    if name != RUNTIME_CLASS:
        text = re.sub(rf"(?<=[ \t]){re.escape(RUNTIME_CLASS)}(?=\s)", lambda _: name, text)
    inserts = {"fields": "", "clinit": "", "methods": "", **(more or {})}
    inserts["add"] = add_overloads(arities) + "\n" + inserts.pop("methods")
    return assemble(text, "Counters.jasm", {"SIZE": max(size, 1)}, inserts)


# bytes after the tag of each constant-pool entry of a fixed size (JVMS 4.4); Utf8 (1) has a length
_FIXED = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


def renamed(data: bytes, name: str) -> bytes:
    """``data`` (a class named :data:`RUNTIME_CLASS`) with every Utf8 constant that spells that name
    spelled ``name`` instead; the rest of the file is copied as it is."""
    if name == RUNTIME_CLASS:
        return data
    old, new = mutf8_encode(RUNTIME_CLASS), mutf8_encode(name)
    out = [data[:10]]
    count = int.from_bytes(data[8:10], "big")
    pos, index = 10, 1
    while index < count:
        tag = data[pos]
        if tag == 1:
            length = int.from_bytes(data[pos + 1:pos + 3], "big")
            text = data[pos + 3:pos + 3 + length]
            if text == old:
                out.append(bytes([1]) + len(new).to_bytes(2, "big") + new)
            else:
                out.append(data[pos:pos + 3 + length])
            pos += 3 + length
        else:
            out.append(data[pos:pos + 1 + _FIXED[tag]])
            pos += 1 + _FIXED[tag]
        index += 2 if tag in (5, 6) else 1
    out.append(data[pos:])
    return b"".join(out)


def add_overloads(arities: Iterable[tuple]) -> str:
    """``static void add(int first, int|long v0, ..., vN)``: this thread's ``counters[first + i] += vi``,
    one overload per (kind, arity), in the text form.

    Plain adds on an array only this thread writes: nothing is lost, nothing is contended. The thread
    that initialized the class (OWNER) finds its array in a static final field, which the JIT folds into
    a constant: one thread comparison and the adds. Few values are added unconditionally (no branch to
    mispredict); many are added only when nonzero (most are, in a big method).
    """
    return "\n".join(_add_overload(kind, n) for kind, n in sorted(set(arities)))


def _add_overload(kind: str, n: int) -> str:
    values = [f"v{i}" for i in range(n)]
    load = "lload" if kind == "J" else "iload"
    conditional = n > UNCONDITIONAL_ADDS

    def adds() -> list:
        out = []
        for i, value in enumerate(values):
            if conditional:  # if (vi != 0)
                out += [f"{load} {value} indexed", *(["lconst_0", "lcmp"] if kind == "J" else []), f"ifeq skip{i}"]
            out += ["aload counters indexed", "iload first", f"push {i}", "iadd", "dup2", "laload",
                    f"{load} {value} indexed", *([] if kind == "J" else ["i2l"]), "ladd", "lastore"]
            out += [f"skip{i}:"] if conditional else []
        return out + ["return"]

    lines = [f".method public static add{add_descriptor(n, kind)}", f".args first {' '.join(values)}",
             ".local counters [J",
             "invokestatic java/lang/Thread.currentThread()Ljava/lang/Thread;", "getstatic OWNER",
             "if_acmpne other", "getstatic OWNED", "astore counters indexed"]
    if conditional:  # the adds once (HotSpot compiles no method over 8,000 bytes)
        lines += ["goto have", "other:", "invokestatic other()[J", "astore counters indexed", "have:", *adds()]
    else:  # the adds twice: after the owner's test the array is a constant and the JIT folds its address
        lines += [*adds(), "other:", "invokestatic other()[J", "astore counters indexed", *adds()]
    return "\n".join([*lines, ".end method"])
