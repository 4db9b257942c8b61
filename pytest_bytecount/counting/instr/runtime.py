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
from dataclasses import dataclass, replace
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

    Without ``more``, the class is put together from parts assembled once (:func:`_composed`) and renamed:
    its name is one Utf8 constant, so renaming it gives the bytes assembling under that name gives."""
    if more is None:
        size, arities = max(size, 1), sorted(set(arities))
        composed = _composed(size, arities, name) if arities and size <= _MAX_INT else None
        return composed if composed is not None else renamed(_template(size, frozenset(arities)), name)
    return assembled_runtime_class(size, arities, name, more)


@lru_cache(maxsize=256)
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
    pool, rest = _pool(data)
    new = _utf8(name)
    return b"".join([data[:10], *(new if entry == _NAMED else entry for entry in pool), rest])


def _pool(data: bytes) -> tuple:
    """([each constant-pool entry's bytes], the bytes after the pool) of a class file."""
    pool, pos, index = [], 10, 1
    count = int.from_bytes(data[8:10], "big")
    while index < count:
        tag = data[pos]
        end = pos + 3 + int.from_bytes(data[pos + 1:pos + 3], "big") if tag == 1 else pos + 1 + _FIXED[tag]
        pool.append(data[pos:end])
        pos, index = end, index + (2 if tag in (5, 6) else 1)
    return pool, data[pos:]


def _utf8(text: str) -> bytes:
    """A Utf8 constant-pool entry."""
    encoded = mutf8_encode(text)
    return b"\x01" + len(encoded).to_bytes(2, "big") + encoded


_NAMED = _utf8(RUNTIME_CLASS)

# --- Put together from parts -------------------------------------------------------------------------------
# Assembling the text takes milliseconds, and each class counted on its own gets a Counters class of its own
# size and overloads. From one size to another the class differs only in the operand of its ``push $SIZE``
# instructions (the instruction is the shortest push: iconst, bipush, sipush or ldc, the size's push width);
# from one set of overloads to another only in its last methods, the ``add`` overloads, and in the last
# constants of its pool, their descriptors (the constants their code uses come before, with the first
# overload). So per push width the class with one overload is assembled at two sizes, and the bytes where
# they differ are the size's; and per overload its method is taken from the class with it alone, to be given
# its descriptor's index. The bytes assembled are checked against each of these assumptions; when one
# fails, the class is assembled whole.

_MAX_INT = 2 ** 31 - 1
# per push width: its largest size, two sizes of that width whose operand bytes all differ, and the bytes
# of the operand (for iconst: the opcode) of a size, as assemble.push_int writes them
_WIDTHS = ((5, (1, 5), lambda s: bytes((3 + s,))),
           (127, (6, 127), lambda s: bytes((s,))),
           (32767, (128, 32767), lambda s: s.to_bytes(2, "big")),
           (_MAX_INT, (32768, _MAX_INT), lambda s: s.to_bytes(4, "big")))
_FIRST = ("I", 1)  # the overload of the classes each width's parts are taken from


class _Unexpected(Exception):
    """The assembled bytes are not as the parts assume."""


@dataclass(frozen=True)
class _Parts:
    """A class of one push width with one overload, split: ``pool`` the constant pool without the overload's
    descriptor (``n_pool`` entries), ``mid`` the bytes from there to the methods' count, ``methods`` the
    methods without the overload (``n_methods``), ``rest`` what follows the methods; ``places`` where
    in those three segments the size's operand is."""
    head: bytes
    pool: bytes
    n_pool: int
    mid: bytes
    methods: bytes
    n_methods: int
    rest: bytes
    places: tuple = ((), (), ())


def _split(size: int, overload: tuple) -> tuple:
    """(``_Parts`` without places, the overload's method) of the class with ``overload`` alone, checked: its
    last constant is the overload's descriptor, and its last method the overload."""
    data = assembled_runtime_class(size, [overload])
    pool, after = _pool(data)
    end = 6 + 2 * int.from_bytes(after[6:8], "big") + 2  # access, this, super, interfaces
    end, _ = _members(after, end)  # fields
    methods_end, methods = _members(after, end)
    rest = after[methods_end:]
    if pool[-1] != _utf8(add_descriptor(overload[1], overload[0])) or rest != b"\0\0":
        raise _Unexpected("the descriptor is not the last constant, or the class has attributes")
    if methods[-1][4:6] != len(pool).to_bytes(2, "big") or pool.count(pool[-1]) != 1:
        raise _Unexpected("the last method is not the overload")
    return _Parts(data[:8], b"".join(pool[:-1]), len(pool) - 1, after[:end], b"".join(methods[:-1]), len(methods) - 1,
                  rest), methods[-1]


def _members(data: bytes, pos: int) -> tuple:
    """(the end, [each member's bytes]) of the fields or methods whose count is at ``pos``."""
    members = []
    count, pos = int.from_bytes(data[pos:pos + 2], "big"), pos + 2
    for _ in range(count):
        start = pos
        pos += 8
        for _ in range(int.from_bytes(data[pos - 2:pos], "big")):  # its attributes
            pos += 6 + int.from_bytes(data[pos + 2:pos + 6], "big")
        members.append(data[start:pos])
    if len(data) < pos:
        raise _Unexpected("a member past the end")
    return pos, members


@lru_cache(maxsize=None)
def _width_parts(width: int) -> Optional[_Parts]:
    """The parts of the classes of push width ``width`` (an index of :data:`_WIDTHS`), the size's places
    found; None when the bytes are not as assumed."""
    _, (a, b), operand = _WIDTHS[width]
    try:
        (x, _), (y, _) = _split(a, _FIRST), _split(b, _FIRST)
        if (x.head, x.n_pool, x.n_methods, x.rest) != (y.head, y.n_pool, y.n_methods, y.rest):
            raise _Unexpected("the size changes the class's shape")
        if x.pool.count(_NAMED) != _pool(assembled_runtime_class(a, [_FIRST]))[0].count(_NAMED):
            raise _Unexpected("the class's name is not to be replaced in the pool's bytes")
        places = tuple(_operand_places(getattr(x, s), getattr(y, s), operand(a), operand(b))
                       for s in ("pool", "mid", "methods"))
    except (_Unexpected, IndexError, KeyError):
        return None
    return replace(x, places=places)


def _operand_places(x: bytes, y: bytes, at_a: bytes, at_b: bytes) -> tuple:
    """Where segments ``x`` and ``y`` (assembled at sizes a and b) differ: each a run that spells the operand
    of a in ``x`` and of b in ``y``."""
    if len(x) != len(y):
        raise _Unexpected("the size changes a segment's length")
    places, n, pos = [], len(at_a), 0
    for i in (i for i in range(len(x)) if x[i] != y[i]):
        if i < pos:
            continue
        if x[i:i + n] != at_a or y[i:i + n] != at_b:
            raise _Unexpected("a difference that is not the size's operand")
        places.append(i)
        pos = i + n
    return tuple(places)


@lru_cache(maxsize=None)
def _overload_method(width: int, overload: tuple) -> Optional[bytes]:
    """The method of ``overload`` in the classes of push width ``width``, or None when the class with it alone
    is not the width's parts and it."""
    _, (size, _), _ = _WIDTHS[width]
    try:
        parts, method = _split(size, overload)
    except (_Unexpected, IndexError, KeyError):
        return None
    expected = _width_parts(width)
    return method if expected is not None and parts == replace(expected, places=((), (), ())) else None


def _composed(size: int, arities: list, name: str) -> Optional[bytes]:
    """The class :func:`assembled_runtime_class` gives for ``size`` (at least 1), the sorted ``arities`` and
    ``name``, from parts; None when the parts are not to be had."""
    width = next(i for i, (top, _, _) in enumerate(_WIDTHS) if size <= top)
    parts = _width_parts(width)
    if parts is None:
        return None
    overloads = [_overload_method(width, overload) for overload in arities]
    if None in overloads:
        return None
    operand = _WIDTHS[width][2](size)
    pool, mid, methods = (_patched(segment, places, operand) for segment, places in
                          zip((parts.pool, parts.mid, parts.methods), parts.places))
    if name != RUNTIME_CLASS:
        pool = pool.replace(_NAMED, _utf8(name))
    first = parts.n_pool + 1  # the first descriptor's index
    return b"".join([parts.head, (first + len(arities)).to_bytes(2, "big"), pool,
                     *(_utf8(add_descriptor(n, kind)) for kind, n in arities), mid,
                     (parts.n_methods + len(arities)).to_bytes(2, "big"), methods,
                     *(m[:4] + (first + i).to_bytes(2, "big") + m[6:] for i, m in enumerate(overloads)), parts.rest])


def _patched(segment: bytes, places: tuple, operand: bytes) -> bytes:
    if not places:
        return segment
    out = bytearray(segment)
    for i in places:
        out[i:i + len(operand)] = operand
    return bytes(out)


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
