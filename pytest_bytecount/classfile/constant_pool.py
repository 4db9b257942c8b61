"""The constant pool (JVMS §4.4): every tag, written back byte for byte, and appendable."""

from __future__ import annotations

import struct
from typing import Optional

from ..wording import counted
from .errors import ClassFormatError

UTF8 = 1
INTEGER = 3
FLOAT = 4
LONG = 5
DOUBLE = 6
CLASS = 7
STRING = 8
FIELDREF = 9
METHODREF = 10
INTERFACE_METHODREF = 11
NAME_AND_TYPE = 12
METHOD_HANDLE = 15
METHOD_TYPE = 16
DYNAMIC = 17
INVOKE_DYNAMIC = 18
MODULE = 19
PACKAGE = 20

TAG_NAMES = {
    UTF8: "Utf8", INTEGER: "Integer", FLOAT: "Float", LONG: "Long", DOUBLE: "Double",
    CLASS: "Class", STRING: "String", FIELDREF: "Fieldref", METHODREF: "Methodref",
    INTERFACE_METHODREF: "InterfaceMethodref", NAME_AND_TYPE: "NameAndType",
    METHOD_HANDLE: "MethodHandle", METHOD_TYPE: "MethodType", DYNAMIC: "Dynamic",
    INVOKE_DYNAMIC: "InvokeDynamic", MODULE: "Module", PACKAGE: "Package",
}

# Payload sizes after the tag byte; Utf8 is variable.
_FIXED_SIZE = {
    INTEGER: 4, FLOAT: 4, LONG: 8, DOUBLE: 8, CLASS: 2, STRING: 2, FIELDREF: 4, METHODREF: 4,
    INTERFACE_METHODREF: 4, NAME_AND_TYPE: 4, METHOD_HANDLE: 3, METHOD_TYPE: 2, DYNAMIC: 4,
    INVOKE_DYNAMIC: 4, MODULE: 2, PACKAGE: 2,
}

_MEMBER_REFS = (FIELDREF, METHODREF, INTERFACE_METHODREF)
_DYNAMIC_REFS = (DYNAMIC, INVOKE_DYNAMIC)

_u2 = struct.Struct(">H")
_u2u2 = struct.Struct(">HH")
_u4 = struct.Struct(">I")
_u8 = struct.Struct(">Q")
_bu2 = struct.Struct(">BH")


def mutf8_decode(raw: bytes) -> str:
    """Decode the JVM's modified UTF-8 (JVMS §4.4.7): NUL as C0 80, supplementary chars as surrogate pairs."""
    try:
        if b"\xc0\x80" not in raw and b"\xed" not in raw:
            return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    return raw.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass").encode(
        "utf-16", "surrogatepass").decode("utf-16", "surrogatepass")


def mutf8_encode(text: str) -> bytes:
    if text.isascii() and "\x00" not in text:  # nearly every name and descriptor: the bytes are the text's
        return text.encode("ascii")
    out = bytearray()
    for ch in text:
        c = ord(ch)
        if c == 0:
            out += b"\xc0\x80"
        elif c < 0x80:
            out.append(c)
        elif c > 0xFFFF:
            c -= 0x10000
            for unit in (0xD800 | (c >> 10), 0xDC00 | (c & 0x3FF)):
                out += bytes((0xE0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3F), 0x80 | (unit & 0x3F)))
        else:
            out += ch.encode("utf-8", "surrogatepass")
    return bytes(out)


class ConstantPool:
    """Entries as tuples ``(tag, *operands)``; index 0 and the slot after a Long/Double are ``None``.

    Utf8 entries hold their raw bytes, Integer/Float/Long/Double their raw bits (NaN payloads survive).
    """

    __slots__ = ("entries", "_utf8_cache", "_lookup", "_refs", "_texts")

    def __init__(self, entries: Optional[list] = None):
        self.entries: list = entries if entries is not None else [None]
        self._utf8_cache: dict[int, str] = {}
        self._lookup: Optional[dict] = None
        # what the reading methods below resolved, by index (an entry never changes once there: the pool is only
        # appended to); only what resolved is kept, so a broken entry raises at every look-up
        self._refs: dict = {}
        # text -> index of its Utf8 entry (add_utf8); (tag, owner, name, descriptor) -> index of a member reference
        # (add_fieldref, add_methodref), and (CLASS, name) -> of a class (add_class)
        self._texts: dict = {}

    # --- reading -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, data: bytes, pos: int) -> tuple["ConstantPool", int]:
        count = _u2.unpack_from(data, pos)[0]
        pos += 2
        if count == 0:
            raise ClassFormatError("constant_pool_count is 0; it counts the unused entry 0 too (JVMS §4.1)")
        if 3 * (count - 1) > len(data) - pos:  # every entry takes 3 bytes or more (JVMS §4.4)
            raise ClassFormatError(f"constant_pool_count {count} cannot fit in the {counted(len(data) - pos, 'byte')} "
                                   f"left in the class file")
        entries: list = [None] * count
        i = 1
        unpack_u2 = _u2.unpack_from
        while i < count:
            try:
                tag = data[pos]
            except IndexError:
                raise ClassFormatError(f"truncated constant pool at entry {i}") from None
            if tag == UTF8:
                length = unpack_u2(data, pos + 1)[0]
                end = pos + 3 + length
                if end > len(data):
                    raise ClassFormatError(f"truncated Utf8 constant at entry {i}")
                entries[i] = (UTF8, data[pos + 3:end])
                pos = end
            else:
                size = _FIXED_SIZE.get(tag)
                if size is None:
                    raise ClassFormatError(f"unknown constant pool tag {tag} at entry {i}")
                if tag in (CLASS, STRING, METHOD_TYPE, MODULE, PACKAGE):
                    entries[i] = (tag, unpack_u2(data, pos + 1)[0])
                elif tag in (INTEGER, FLOAT):
                    entries[i] = (tag, _u4.unpack_from(data, pos + 1)[0])
                elif tag in (LONG, DOUBLE):
                    entries[i] = (tag, _u8.unpack_from(data, pos + 1)[0])
                elif tag == METHOD_HANDLE:
                    kind, ref = _bu2.unpack_from(data, pos + 1)
                    entries[i] = (tag, kind, ref)
                else:
                    a, b = _u2u2.unpack_from(data, pos + 1)
                    entries[i] = (tag, a, b)
                pos += 1 + size
                if tag == LONG or tag == DOUBLE:
                    i += 1  # JVMS §4.4.5: the next index is unusable
            i += 1
        if i != count:
            raise ClassFormatError("constant pool ends inside a Long/Double entry")
        return cls(entries), pos

    def write(self, out: bytearray) -> None:
        entries = self.entries
        out += _u2.pack(len(entries))
        pack_u2 = _u2.pack
        for e in entries:
            if e is None:
                continue
            tag = e[0]
            if tag == UTF8:
                out.append(UTF8)
                out += pack_u2(len(e[1]))
                out += e[1]
            elif tag in (CLASS, STRING, METHOD_TYPE, MODULE, PACKAGE):
                out.append(tag)
                out += pack_u2(e[1])
            elif tag in (INTEGER, FLOAT):
                out.append(tag)
                out += _u4.pack(e[1])
            elif tag in (LONG, DOUBLE):
                out.append(tag)
                out += _u8.pack(e[1])
            elif tag == METHOD_HANDLE:
                out.append(tag)
                out += _bu2.pack(e[1], e[2])
            else:
                out.append(tag)
                out += _u2u2.pack(e[1], e[2])

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, index: int):
        return self.entries[index]

    def tag(self, index: int) -> int:
        e = self._entry(index)
        return e[0]

    def _entry(self, index: int):
        if not 0 < index < len(self.entries) or self.entries[index] is None:
            raise ClassFormatError(f"invalid constant pool index {index}")
        return self.entries[index]

    def _typed(self, index: int, tags: tuple, what: str):
        """The entry at ``index``, which must have one of ``tags`` (JVMS §4.4: each reference names the
        kind of entry it needs)."""
        e = self._entry(index)
        if e[0] not in tags:
            raise ClassFormatError(f"constant pool entry {index} is {TAG_NAMES.get(e[0])}, not {what}")
        return e

    def utf8(self, index: int) -> str:
        s = self._utf8_cache.get(index)
        if s is None:
            e = self._typed(index, (UTF8,), "Utf8")
            try:
                s = mutf8_decode(e[1])
            except UnicodeDecodeError as err:
                raise ClassFormatError(f"constant pool entry {index} is not valid modified UTF-8 "
                                       f"({err.reason} at byte {err.start})") from None
            self._utf8_cache[index] = s
        return s

    def class_name(self, index: int) -> str:
        """Internal name of a CONSTANT_Class (``java/lang/String`` or an array descriptor)."""
        found = self._refs.get(("c", index))
        if found is None:
            found = self._refs[("c", index)] = self.utf8(self._typed(index, (CLASS,), "Class")[1])
        return found

    def name_and_type(self, index: int) -> tuple[str, str]:
        found = self._refs.get(("n", index))
        if found is None:
            e = self._typed(index, (NAME_AND_TYPE,), "NameAndType")
            found = self._refs[("n", index)] = (self.utf8(e[1]), self.utf8(e[2]))
        return found

    def member_ref(self, index: int) -> tuple[str, str, str]:
        """(owner, name, descriptor) of a Fieldref/Methodref/InterfaceMethodref."""
        found = self._refs.get(index)
        if found is None:
            e = self._typed(index, _MEMBER_REFS, "a Fieldref, Methodref or InterfaceMethodref")
            name, desc = self.name_and_type(e[2])
            found = self._refs[index] = (self.class_name(e[1]), name, desc)
        return found

    def dynamic_ref(self, index: int) -> tuple[int, str, str]:
        """(bootstrap index, name, descriptor) of a Dynamic/InvokeDynamic."""
        e = self._typed(index, _DYNAMIC_REFS, "Dynamic or InvokeDynamic")
        name, desc = self.name_and_type(e[2])
        return e[1], name, desc

    # --- appending (deduplicated against what is already there) ------------------------------
    def _find(self, key) -> Optional[int]:
        if self._lookup is None:
            lookup = {}
            for i, e in enumerate(self.entries):
                if e is not None and e not in lookup:
                    lookup[e] = i
            self._lookup = lookup
        return self._lookup.get(key)

    def _add(self, entry) -> int:
        found = self._find(entry)
        if found is not None:
            return found
        index = len(self.entries)
        wide = entry[0] in (LONG, DOUBLE)
        if index + (2 if wide else 1) > 0xFFFF:
            raise ClassFormatError("constant pool would exceed 65,535 entries")
        self.entries.append(entry)
        if wide:
            self.entries.append(None)
        self._lookup[entry] = index
        return index

    def add_utf8(self, text: str) -> int:
        found = self._texts.get(text)
        if found is None:
            found = self._texts[text] = self._add((UTF8, mutf8_encode(text)))
        return found

    def add_class(self, internal_name: str) -> int:
        key = (CLASS, internal_name)
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = self._add((CLASS, self.add_utf8(internal_name)))
        return found

    def add_string(self, text: str) -> int:
        return self._add((STRING, self.add_utf8(text)))

    def add_integer(self, value: int) -> int:
        return self._add((INTEGER, value & 0xFFFFFFFF))

    def add_name_and_type(self, name: str, descriptor: str) -> int:
        return self._add((NAME_AND_TYPE, self.add_utf8(name), self.add_utf8(descriptor)))

    def add_fieldref(self, owner: str, name: str, descriptor: str) -> int:
        return self._member(FIELDREF, owner, name, descriptor)

    def add_methodref(self, owner: str, name: str, descriptor: str, interface: bool = False) -> int:
        return self._member(INTERFACE_METHODREF if interface else METHODREF, owner, name, descriptor)

    def _member(self, tag: int, owner: str, name: str, descriptor: str) -> int:
        key = (tag, owner, name, descriptor)
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = self._add((tag, self.add_class(owner), self.add_name_and_type(name, descriptor)))
        return found
