"""Calling-context trees as a pprof profile (github.com/google/pprof, ``proto/profile.proto``): exact counts in
the format ``go tool pprof``, speedscope and most profile viewers read.

A profile here is not sampled: each :class:`~.calltree.CallTree` node becomes one ``Sample`` whose values are
that node's exact counts, and whose stack is the node's path. The three values of a sample, in this order:

- ``instructions`` (unit ``count``): the node's own instructions, the profile's default sample type;
- ``invocations`` (unit ``count``): its invocations along that path;
- ``copied`` (unit ``elements``): the elements native copies moved from it.

Every target goes into one profile, its paths as stacks that start with the target's frame (a path already
does: it runs from the target down). A tree's empty path, the window's own work before the target's node began
(a target constructor's part before its ``super(...)`` call), is work in the target's frame, so its sample has
the target's frame alone for a stack, told apart from the target's own node by the label ``node=window``.

Each distinct frame (method id) has one ``Function`` and one ``Location``: the function's ``name`` is the method
as people read it (``java.util.ArrayList.indexOf``), its ``system_name`` the method id itself, its
``filename`` the source path the Java convention gives its class (``java/util/ArrayList.java``; a nested
class's is its outer class's). Line numbers are the methods' first lines when the caller knows them, else 0.

The message is encoded by hand (a few lines of protobuf wire format: varints, length-delimited fields, packed
repeated numbers) so the plugin needs no protobuf package; the output is gzip-compressed, as pprof files are.
Equal input gives equal bytes: targets and paths are taken in sorted order, ids are handed out in that order,
and the gzip header carries no time.
"""

from __future__ import annotations

import gzip
from typing import Iterable, Optional

from ..counting.counts.calltree import OTHER

SAMPLE_TYPES = (("instructions", "count"), ("invocations", "count"), ("copied", "elements"))
WINDOW_LABEL = ("node", "window")  # the label of a sample that holds a tree's empty path


# --- protobuf wire format ------------------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    """``n`` as a base-128 varint; a negative int64 as its 64-bit two's complement (ten bytes), as protobuf does."""
    n &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return _varint(field << 3 | wire_type)


def _int(field: int, n: int) -> bytes:
    """A varint field (wire type 0); 0 is the default, so it is left out, as proto3 encoders do."""
    return _key(field, 0) + _varint(n) if n else b""


def _bytes(field: int, data: bytes) -> bytes:
    """A length-delimited field (wire type 2): a string, an embedded message or a packed run of numbers."""
    return _key(field, 2) + _varint(len(data)) + data


def _packed(field: int, numbers: Iterable[int]) -> bytes:
    data = b"".join(_varint(n) for n in numbers)
    return _bytes(field, data) if data else b""


# --- the profile's parts -------------------------------------------------------------------------------------
class _Strings:
    """The string table: index 0 is the empty string, every other string gets the next index at its first use."""

    def __init__(self):
        self.index = {"": 0}

    def __call__(self, s: str) -> int:
        return self.index.setdefault(s, len(self.index))


def readable_name(method: str) -> str:
    """``java.util.ArrayList#indexOf(Ljava/lang/Object;)I`` -> ``java.util.ArrayList.indexOf``."""
    cls, sep, rest = method.partition("#")
    return f"{cls}.{rest.split('(', 1)[0]}" if sep else method


def source_path(method: str) -> str:
    """The source file the Java convention gives a method's class: ``pkg.Outer$Inner#m()V`` ->
    ``pkg/Outer.java``; "" for a frame that is no method (``(other)``)."""
    cls, sep, _ = method.partition("#")
    if not sep or method == OTHER:
        return ""
    outer = cls.split("$", 1)[0] or cls
    return outer.replace(".", "/") + ".java"


def _value_type(strings: _Strings, kind: str, unit: str) -> bytes:
    return _int(1, strings(kind)) + _int(2, strings(unit))


def _stacks(trees: dict) -> list:
    """``(stack root first, [own, calls, copied], is_window)`` for every node with a value, targets and paths in
    sorted order."""
    out = []
    for target in sorted(trees):
        nodes = trees[target].nodes
        for path in sorted(nodes):
            values = nodes[path]
            if any(values):
                out.append((path or (target,), values, not path))
    return out


def profile_message(trees: dict, comment: str = "", lines: Optional[dict] = None) -> bytes:
    """The serialized ``perftools.profiles.Profile`` of ``trees`` (``{target method id: CallTree}``), not
    compressed. ``lines`` maps method ids to their first source lines, where known."""
    lines = lines or {}
    strings = _Strings()
    sample_types = [_bytes(1, _value_type(strings, kind, unit)) for kind, unit in SAMPLE_TYPES]
    frame_ids: dict = {}  # method id -> its function's and its location's id (the same number)
    samples = []
    for stack, values, window in _stacks(trees):
        ids = [frame_ids.setdefault(m, len(frame_ids) + 1) for m in stack]
        label = _bytes(3, _int(1, strings(WINDOW_LABEL[0])) + _int(2, strings(WINDOW_LABEL[1]))) if window else b""
        # pprof lists a sample's locations leaf first
        samples.append(_bytes(2, _packed(1, reversed(ids)) + _packed(2, values) + label))
    functions, locations = [], []
    for method, fid in frame_ids.items():
        line = lines.get(method, 0)
        functions.append(_bytes(5, _int(1, fid) + _int(2, strings(readable_name(method)))
                                + _int(3, strings(method)) + _int(4, strings(source_path(method)))
                                + _int(5, line)))
        locations.append(_bytes(4, _int(1, fid) + _bytes(4, _int(1, fid) + _int(2, line))))
    notes = [strings(comment)] if comment else []
    default_type = strings(SAMPLE_TYPES[0][0])
    table = b"".join(_bytes(6, s.encode("utf-8")) for s in strings.index)  # insertion order: index order
    return (b"".join(sample_types) + b"".join(samples) + b"".join(locations) + b"".join(functions) + table
            + _packed(13, notes) + _int(14, default_type))


def pprof_bytes(trees: dict, comment: str = "", lines: Optional[dict] = None) -> bytes:
    """``trees`` (``{target method id: CallTree}``) as one gzip-compressed pprof profile; ``comment`` is kept
    as the profile's comment, ``lines`` (method id -> first line) fills in line numbers."""
    return gzip.compress(profile_message(trees, comment, lines), mtime=0)
