"""Fuzzing the class-file engine: structure-aware mutations of real class files, and the contract check.

Inputs are real class files (compiled fixtures, classes from Debian's jars) changed by a few mutations
that know the class-file layout (JVMS §4): byte and bit flips, truncation at a structure boundary, length
and count fields forged to huge or off-by-one values, bytes inserted or deleted (optionally with every
enclosing length fixed up, so the damage reaches the inner decoders), constant-pool tags swapped,
constant-pool indexes pointed elsewhere, and opcodes replaced.

:func:`exercise` runs every operation of the engine on one input and reports how it ended: ``"ok"``, or
the name of one of the engine's own error types (``ClassFormatError``, ``CodeFormatError``,
``CodeTooLargeError``). Anything else escaping is a bug, raised as :class:`ContractViolation`.

The layout walker only ever runs on the unmutated, valid class files, so it can stay simple.
"""

from __future__ import annotations

import itertools
import random
import struct
import traceback
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence

from pytest_bytecount.classfile import ClassFile, ClassFormatError, CodeTooLargeError
from pytest_bytecount.classfile import opcodes as op
from pytest_bytecount.counting.pipeline.transform import CounterIndexes, instrument_class

# The engine's own error types: the only exceptions an input may end with.
PROJECT_ERRORS = (ClassFormatError, CodeTooLargeError)

_u2 = struct.Struct(">H")
_u4 = struct.Struct(">I")
_s4 = struct.Struct(">i")

# constant-pool payload sizes after the tag byte (JVMS §4.4); Utf8 (1) is variable
_CP_SIZE = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
_CP_INDEX_FIELDS = {7: (0,), 8: (0,), 16: (0,), 19: (0,), 20: (0,), 9: (0, 2), 10: (0, 2), 11: (0, 2), 12: (0, 2),
                    15: (1,), 17: (2,), 18: (2,)}
VALID_TAGS = (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 20)
INVALID_TAGS = (0, 2, 13, 14, 21, 255)


@dataclass
class Layout:
    """Where things are in one valid class file.

    - ``boundaries``: offsets where a structure starts or ends (entries, members, attributes, instructions,
      table rows, frames);
    - ``fields``: ``(offset, width, role)`` of integer fields worth forging: ``count`` and ``length``
      fields, constant-pool ``index`` fields, code positions (``pc``), branch offsets (``branch``);
    - ``containers``: ``(length field offset, width, start, end)``: a length field and the bytes it covers;
    - ``tags``: offsets of constant-pool tag bytes; ``opcodes``: offsets of opcode bytes;
    - ``code``: ``(start, end)`` of every Code attribute's body.
    """

    size: int
    boundaries: list = field(default_factory=list)
    fields: list = field(default_factory=list)
    containers: list = field(default_factory=list)
    tags: list = field(default_factory=list)
    opcodes: list = field(default_factory=list)
    code: list = field(default_factory=list)
    cp_count: int = 0


class _Walker:
    def __init__(self, data: bytes):
        self.d = data
        self.lay = Layout(len(data))
        self.utf8: dict = {}

    def u2(self, p: int, role: Optional[str] = None) -> int:
        if role:
            self.lay.fields.append((p, 2, role))
        return _u2.unpack_from(self.d, p)[0]

    def u4(self, p: int, role: Optional[str] = None) -> int:
        if role:
            self.lay.fields.append((p, 4, role))
        return _u4.unpack_from(self.d, p)[0]

    def mark(self, p: int) -> None:
        self.lay.boundaries.append(p)

    def walk(self) -> Layout:
        d, lay = self.d, self.lay
        self.mark(0)
        self.mark(4)
        self.mark(8)
        n = lay.cp_count = self.u2(8, "count")
        p = 10
        i = 1
        while i < n:
            self.mark(p)
            lay.tags.append(p)
            tag = d[p]
            if tag == 1:
                ln = self.u2(p + 1, "length")
                lay.containers.append((p + 1, 2, p + 3, p + 3 + ln))
                self.utf8[i] = d[p + 3:p + 3 + ln]
                p += 3 + ln
            else:
                for off in _CP_INDEX_FIELDS.get(tag, ()):
                    lay.fields.append((p + 1 + off, 2, "index"))
                p += 1 + _CP_SIZE[tag]
                i += tag in (5, 6)
            i += 1
        self.mark(p)
        lay.fields += [(p, 2, "flags"), (p + 2, 2, "index"), (p + 4, 2, "index")]
        p += 6
        self.mark(p)
        n = self.u2(p, "count")
        for k in range(n):
            lay.fields.append((p + 2 + 2 * k, 2, "index"))
        p += 2 + 2 * n
        for _members in range(2):
            self.mark(p)
            n = self.u2(p, "count")
            p += 2
            for _ in range(n):
                self.mark(p)
                lay.fields += [(p, 2, "flags"), (p + 2, 2, "index"), (p + 4, 2, "index")]
                p = self.attributes(p + 6)
        p = self.attributes(p)
        self.mark(p)
        lay.boundaries = sorted(set(lay.boundaries))
        return lay

    def attributes(self, p: int, in_code: bool = False) -> int:
        self.mark(p)
        n = self.u2(p, "count")
        p += 2
        for _ in range(n):
            self.mark(p)
            name = self.utf8.get(self.u2(p, "index"))
            ln = self.u4(p + 2, "length")
            start, end = p + 6, p + 6 + ln
            self.lay.containers.append((p + 2, 4, start, end))
            self.mark(start)
            if name == b"Code" and not in_code:
                self.code(start, end)
            elif in_code and name == b"LineNumberTable":
                self.table(start, 4, (0,))
            elif in_code and name in (b"LocalVariableTable", b"LocalVariableTypeTable"):
                self.table(start, 10, (0, 2))
            elif in_code and name == b"StackMapTable":
                self.stack_map(start)
            p = end
        self.mark(p)
        return p

    def table(self, p: int, row: int, pcs: Sequence[int]) -> None:
        n = self.u2(p, "count")
        for k in range(n):
            r = p + 2 + row * k
            self.mark(r)
            for off in pcs:
                self.lay.fields.append((r + off, 2, "pc"))

    def stack_map(self, p: int) -> None:
        n = self.u2(p, "count")
        p += 2
        for _ in range(n):
            self.mark(p)
            self.lay.fields.append((p, 1, "frame_type"))
            kind = self.d[p]
            p += 1
            if kind < 64:
                continue
            if kind < 128:
                p = self.vtype(p)
                continue
            self.u2(p, "pc")
            p += 2
            if kind == 247:
                p = self.vtype(p)
            elif 252 <= kind <= 254:
                for _ in range(kind - 251):
                    p = self.vtype(p)
            elif kind == 255:
                for _ in range(2):
                    m = self.u2(p, "count")
                    p += 2
                    for _ in range(m):
                        p = self.vtype(p)

    def vtype(self, p: int) -> int:
        self.lay.fields.append((p, 1, "vtype"))
        if self.d[p] < 7:
            return p + 1
        self.u2(p + 1, "index" if self.d[p] == 7 else "pc")
        return p + 3

    def code(self, start: int, end: int) -> None:
        d, lay = self.d, self.lay
        lay.code.append((start, end))
        self.u2(start, "max")
        self.u2(start + 2, "max")
        n = self.u4(start + 4, "length")
        c0 = start + 8
        lay.containers.append((start + 4, 4, c0, c0 + n))
        pc = 0
        while pc < n:
            p = c0 + pc
            self.mark(p)
            lay.opcodes.append(p)
            o = d[p]
            k = op.KIND[o]
            if k == op.K_TABLESWITCH or k == op.K_LOOKUPSWITCH:
                q = c0 + ((pc + 4) & ~3)
                lay.fields.append((q, 4, "branch"))
                if k == op.K_TABLESWITCH:
                    lay.fields += [(q + 4, 4, "count"), (q + 8, 4, "count")]
                    low, high = struct.unpack_from(">ii", d, q + 4)
                    size = 12 + 4 * (high - low + 1)
                else:
                    npairs = self.u4(q + 4, "count")
                    size = 8 + 8 * npairs
                pc = q + size - c0
            elif k == op.K_WIDE:
                pc += 6 if d[p + 1] == op.IINC else 4
            else:
                if k == op.K_BRANCH:
                    lay.fields.append((p + 1, 2, "branch"))
                elif k == op.K_BRANCH_W:
                    lay.fields.append((p + 1, 4, "branch"))
                elif k in (op.K_CP2, op.K_INVOKEINTERFACE, op.K_INVOKEDYNAMIC, op.K_MULTIANEWARRAY):
                    lay.fields.append((p + 1, 2, "index"))
                pc += op.FIXED_LENGTH[k]
        p = c0 + n
        self.mark(p)
        m = self.u2(p, "count")
        for k in range(m):
            r = p + 2 + 8 * k
            self.mark(r)
            lay.fields += [(r, 2, "pc"), (r + 2, 2, "pc"), (r + 4, 2, "pc"), (r + 6, 2, "index")]
        self.attributes(p + 2 + 8 * m, in_code=True)


def layout(data: bytes) -> Layout:
    """The layout of a valid class file (see :class:`Layout`)."""
    return _Walker(data).walk()


# --------------------------------------------------------------------------- mutations

MUTATIONS = ("flip", "bitflip", "truncate", "forge", "insert", "delete", "insert_fixed", "delete_fixed",
             "repeat", "swap_tag", "repoint", "opcode", "code_flip")


def _forged(value: int, width: int, choice: int) -> int:
    top = (1 << (8 * width)) - 1
    specials = (0, 1, top, top >> 1, (top >> 1) + 1, value + 1, value - 1, value * 2, value + 0x100, top - 1)
    if choice < len(specials):
        return specials[choice] & top
    return (choice * 2654435761) & top  # an arbitrary value, spread over the field's range


def _pick(seq, a: int):
    return seq[a % len(seq)] if seq else None


def mutate(data: bytes, lay: Layout, mutations: Iterable[tuple[str, int, int]]) -> bytes:
    """Apply ``mutations``, each ``(kind, a, b)`` with ``a`` choosing where and ``b`` how (any ints).

    Positions come from the original layout: in-place mutations are applied first, then the ones that
    insert or delete bytes from the last position backwards (so earlier positions stay valid), then
    truncations.
    """
    buf = bytearray(data)
    n = len(buf)
    in_place, moving, cuts = [], [], []
    for kind, a, b in mutations:
        a, b = abs(a), abs(b)
        if kind == "flip":
            in_place.append((a % n, ((b % 255) + 1, "xor")))
        elif kind == "bitflip":
            in_place.append((a % n, (1 << (b % 8), "xor")))
        elif kind == "code_flip" and lay.code:
            start, end = _pick(lay.code, b)
            in_place.append((start + a % (end - start), (((b >> 8) % 255) + 1, "xor")))
        elif kind == "opcode" and lay.opcodes:
            in_place.append((_pick(lay.opcodes, a), (b % 256, "set")))
        elif kind == "swap_tag" and lay.tags:
            tags = VALID_TAGS + INVALID_TAGS
            in_place.append((_pick(lay.tags, a), (tags[b % len(tags)], "set")))
        elif kind in ("forge", "repoint") and lay.fields:
            fields = [f for f in lay.fields if f[2] == "index"] if kind == "repoint" else lay.fields
            off, width, role = _pick(fields, a)
            old = int.from_bytes(buf[off:off + width], "big")
            if kind == "repoint":  # another entry of the pool, usually of the wrong kind
                new = (old + 1 + b % max(1, lay.cp_count)) % 0x10000
            else:
                new = _forged(old, width, b % 16)
            in_place.append((off, (new.to_bytes(width, "big"), "bytes")))
        elif kind == "truncate":
            cuts.append(max(0, _pick(lay.boundaries, a) + (b % 3) - 1))
        elif kind in ("insert", "insert_fixed", "delete", "delete_fixed"):
            # at a boundary most of the time, anywhere else otherwise
            pos = _pick(lay.boundaries, a) if b % 4 else a % n
            count = 1 + (b >> 2) % 8
            moving.append((pos, kind, count, b))
        elif kind == "repeat":  # the bytes from one boundary to the next, many more times (nesting, tables)
            i = a % len(lay.boundaries)
            pos = lay.boundaries[i]
            nxt = lay.boundaries[i + 1] if i + 1 < len(lay.boundaries) else n
            chunk = data[pos:min(nxt, pos + 16)] or data[pos - 1:pos]
            moving.append((pos, kind, 16 << (b % 9), chunk))
    for pos, (value, how) in in_place:
        if how == "xor":
            buf[pos] ^= value
        elif how == "set":
            buf[pos] = value
        else:
            buf[pos:pos + len(value)] = value
    for pos, kind, count, b in sorted(moving, key=lambda m: -m[0]):
        if pos > len(buf):
            continue
        if kind == "repeat":
            buf[pos:pos] = b * count
            delta = len(b) * count
        elif kind.startswith("insert"):
            buf[pos:pos] = bytes(((b >> 5) + 37 * i) & 0xFF for i in range(count))
            delta = count
        else:
            count = min(count, len(buf) - pos)
            del buf[pos:pos + count]
            delta = -count
        if kind.endswith("_fixed") or kind == "repeat":  # keep every enclosing length consistent
            for len_off, width, start, end in lay.containers:
                inside = start <= pos <= end if delta > 0 else start <= pos and pos - delta <= end
                if inside and len_off + width <= len(buf):
                    old = int.from_bytes(buf[len_off:len_off + width], "big")
                    buf[len_off:len_off + width] = ((old + delta) % (1 << (8 * width))).to_bytes(width, "big")
    if cuts:
        del buf[min(cuts):]
    return bytes(buf)


def random_mutations(rng: random.Random, max_count: int = 3) -> list[tuple[str, int, int]]:
    return [(rng.choice(MUTATIONS), rng.getrandbits(30), rng.getrandbits(30))
            for _ in range(rng.randint(1, max_count))]


# --------------------------------------------------------------------------- the contract


class ContractViolation(AssertionError):
    """An input broke the engine's contract: a foreign exception escaped, or a round trip failed."""

    def __init__(self, stage: str, message: str, cause: Optional[BaseException] = None):
        self.stage = stage
        self.cause = cause
        detail = ""
        if cause is not None:
            detail = "\n" + "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))
        super().__init__(f"{stage}: {message}{detail}")


def _decode_all(cf: ClassFile) -> None:
    for m in cf.methods:
        m.code


STAGES = ("parse", "write", "decode", "encode", "reparse", "instrument block", "instrument instruction",
          "read back")


def exercise(data: bytes) -> str:
    """Run every engine operation on ``data``; return ``"ok"`` or the name of the project error it ended
    with. Raises :class:`ContractViolation` on anything else.

    Stages: parse; write undecoded (must give the input back, byte for byte); decode every method's
    Code; re-encode; parse the re-encoded class, decode it and re-encode it again (must be a fixed
    point); instrument every method with both strategies; read the instrumented classes back.
    """
    stage = "parse"
    try:
        cf = ClassFile.parse(data)
        stage = "write"
        if cf.to_bytes() != data:
            raise ContractViolation(stage, "an undecoded class did not write back byte for byte")
        stage = "decode"
        _decode_all(cf)
        stage = "encode"
        once = cf.to_bytes()
        stage = "reparse"
        again = ClassFile.parse(once)
        _decode_all(again)
        if again.to_bytes() != once:
            raise ContractViolation(stage, "re-encoding a re-encoded class changed it (not a fixed point)")
        for strategy in ("block", "instruction"):
            stage = f"instrument {strategy}"
            result = instrument_class(data, None, CounterIndexes(strategy))
            stage = "read back"
            back = ClassFile.parse(result.data)
            _decode_all(back)
            back.to_bytes()
    except ContractViolation:
        raise
    except PROJECT_ERRORS as e:
        if stage in ("write", "reparse", "read back"):
            raise ContractViolation(stage, f"the engine rejected bytes it wrote itself: {e}", e) from e
        _check_message(e)
        return type(e).__name__
    except BaseException as e:  # noqa: BLE001 - the point is to catch everything else
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        raise ContractViolation(stage, f"{type(e).__name__} escaped: {e}", e) from e
    return "ok"


def _check_message(e: BaseException) -> None:
    text = str(e)
    if not text or len(text) > 1000 or not text.replace("\n", " ").isprintable():
        raise ContractViolation("message", f"{type(e).__name__} with an unusable message: {text[:200]!r}", e)


# --------------------------------------------------------------------------- seed classes

JARS = Path("/usr/share/java")


def class_files(root: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted(Path(root).rglob("*.class"))]


def jar_sample(jar: Path, count: int) -> list[bytes]:
    """``count`` classes of ``jar`` chosen deterministically: evenly spaced in name order, plus the largest
    one (empty when the jar is missing)."""
    if not jar.exists():
        return []
    with zipfile.ZipFile(jar) as z:
        infos = sorted((i for i in z.infolist() if i.filename.endswith(".class")), key=lambda i: i.filename)
        if not infos:
            return []
        step = max(1, len(infos) // count)
        chosen = infos[::step][:count]
        largest = max(infos, key=lambda i: i.file_size)
        if largest not in chosen:
            chosen.append(largest)
        return [z.read(i) for i in chosen]


def split_class(data: bytes, limit: int) -> list[bytes]:
    """A class whose methods' attributes pass ``limit`` bytes, cut into several classes that each keep a
    share of the methods (every method with its Code, so long methods stay whole): one huge seed costs
    seconds per input, its pieces a fraction each."""
    cf = ClassFile.parse(data)
    methods = cf.methods

    def size(m) -> int:
        return sum(6 + len(a.data) for a in m.attributes)

    if sum(size(m) for m in methods) <= limit:
        return [data]
    groups, group, total = [], [], 0
    for m in methods:
        if group and total + size(m) > limit:
            groups.append(group)
            group, total = [], 0
        group.append(m)
        total += size(m)
    groups.append(group)
    out = []
    for group in groups:
        cf.methods = group
        out.append(cf.to_bytes())
    cf.methods = methods
    return out


SPLIT_LIMIT = 8000  # bytes of method attributes per seed piece


def largest_code(data: bytes) -> int:
    """The size of the largest Code attribute in a class file."""
    cf = ClassFile.parse(data)
    return max((len(m.find_attribute("Code")[1].data) for m in cf.methods if m.has_code()), default=0)


def seed_pieces(classes: Iterable[bytes], limit: int = SPLIT_LIMIT) -> tuple[list[bytes], list[bytes]]:
    """(ordinary, long) seeds: every class cut by :func:`split_class`; ``long`` holds the pieces whose one
    method alone passes ``limit`` (they reach long branches once instrumented, and cost most per input)."""
    ordinary, long = [], []
    for data in classes:
        for piece in split_class(data, limit):
            (long if largest_code(piece) > limit else ordinary).append(piece)
    return ordinary, long


def iter_inputs(seeds: Sequence[bytes], layouts: Sequence[Layout], rng: random.Random,
                max_mutations: int = 3, weights: Optional[Sequence[float]] = None) -> Iterator[tuple[int, list, bytes]]:
    """Endless mutated inputs: (seed index, mutations, bytes); seeds drawn evenly or by ``weights``."""
    cum = list(itertools.accumulate(weights)) if weights is not None else None
    indexes = range(len(seeds))
    while True:
        i = rng.choices(indexes, cum_weights=cum)[0] if cum else rng.randrange(len(seeds))
        muts = random_mutations(rng, max_mutations)
        yield i, muts, mutate(seeds[i], layouts[i], muts)
