"""Class files as plain data (JVMS §4.1): parse, and write back byte for byte.

Attributes this layer does not model stay raw bytes. A method's Code attribute is decoded into the label
model (:mod:`.code`) only when someone asks for it; an undecoded method is copied through untouched.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Callable, Optional

from .access import ACC_INTERFACE
from .constant_pool import ConstantPool
from .errors import ClassFormatError, shown

MAGIC = 0xCAFEBABE
MIN_MAJOR = 45
MAX_MAJOR = 69  # Java 25

_u2 = struct.Struct(">H")
_u4 = struct.Struct(">I")
_u2u2u2 = struct.Struct(">HHH")
_header = struct.Struct(">IHH")

# (method, raw Code attribute) -> Code, used by Method.code. The decoder (decode.decode_code) builds on this
# module, so rather than this module importing it back, the package installs it when it is first imported
# (classfile/__init__.py), which happens before any of its modules can be used.
CODE_DECODER: Optional[Callable] = None


@dataclass(eq=False)
class Attribute:
    """An attribute kept as raw bytes (everything but Code, unless decoded)."""

    name_index: int
    data: bytes

    def write(self, out: bytearray) -> None:
        out += _u2.pack(self.name_index)
        out += _u4.pack(len(self.data))
        out += self.data


def _parse_attributes(data: bytes, pos: int) -> tuple[list[Attribute], int]:
    count = _u2.unpack_from(data, pos)[0]
    pos += 2
    attrs = []
    for _ in range(count):
        if pos + 6 > len(data):
            raise ClassFormatError("truncated attribute header")
        name_index = _u2.unpack_from(data, pos)[0]
        length = _u4.unpack_from(data, pos + 2)[0]
        start = pos + 6
        end = start + length
        if end > len(data):
            raise ClassFormatError("attribute runs past the end of the class file")
        attrs.append(Attribute(name_index, data[start:end]))
        pos = end
    return attrs, pos


def _write_attributes(attrs: list, out: bytearray) -> None:
    out += _u2.pack(len(attrs))
    for a in attrs:
        a.write(out)


@dataclass(eq=False)
class Member:
    """A field_info or method_info (JVMS §4.5, §4.6)."""

    access_flags: int
    name_index: int
    descriptor_index: int
    attributes: list = field(default_factory=list)
    owner: Optional["ClassFile"] = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.owner.constant_pool.utf8(self.name_index)

    @property
    def descriptor(self) -> str:
        return self.owner.constant_pool.utf8(self.descriptor_index)

    def find_attribute(self, name: str):
        cp = self.owner.constant_pool
        for i, a in enumerate(self.attributes):
            if cp.utf8(a.name_index) == name:
                return i, a
        return None, None


class Method(Member):
    """A method_info whose Code attribute decodes to a :class:`~.code.Code` on demand."""

    def has_code(self) -> bool:
        return self.find_attribute("Code")[1] is not None

    @property
    def code(self):
        """The decoded Code attribute (decoded once, then edited in place), or None without one."""
        i, a = self.find_attribute("Code")
        if a is None:
            return None
        if type(a) is Attribute:  # not decoded yet (a Code has a class of its own)
            a = CODE_DECODER(self, a)
            self.attributes[i] = a
        return a

    def where(self) -> str:
        """:meth:`qualified_name` for error messages: never fails, even when the names are broken."""
        try:
            owner = shown(self.owner.name)
        except ClassFormatError:
            owner = "<class with a broken name>"
        try:
            return f"{owner}#{shown(self.name)}{shown(self.descriptor)}"
        except ClassFormatError:
            index = next((i for i, m in enumerate(self.owner.methods) if m is self), "?")
            return f"{owner}#<method {index}, broken name or descriptor>"


@dataclass(eq=False)
class ClassFile:
    minor_version: int
    major_version: int
    constant_pool: ConstantPool
    access_flags: int
    this_class: int
    super_class: int
    interfaces: list
    fields: list
    methods: list
    attributes: list

    @classmethod
    def parse(cls, data: bytes) -> "ClassFile":
        data = bytes(data)
        if len(data) < 10:
            raise ClassFormatError("too short to be a class file")
        magic, minor, major = _header.unpack_from(data, 0)
        if magic != MAGIC:
            raise ClassFormatError(f"bad magic 0x{magic:08X}, expected 0xCAFEBABE")
        if not MIN_MAJOR <= major <= MAX_MAJOR:
            raise ClassFormatError(
                f"class file version {major}.{minor} is outside the supported {MIN_MAJOR}..{MAX_MAJOR}")
        part = "the constant pool"
        try:
            cp, pos = ConstantPool.parse(data, 8)
            part = "the class header after the constant pool"
            access, this_class, super_class = _u2u2u2.unpack_from(data, pos)
            pos += 6
            n = _u2.unpack_from(data, pos)[0]
            if pos + 2 + 2 * n > len(data):
                raise ClassFormatError(f"interfaces_count {n} runs past the end of the class file")
            interfaces = list(struct.unpack_from(f">{n}H", data, pos + 2))
            pos += 2 + 2 * n
            self = cls(minor, major, cp, access, this_class, super_class, interfaces, [], [], [])
            for what, kind, target in (("field", Member, self.fields), ("method", Method, self.methods)):
                part = f"the {what}s count"
                n = _u2.unpack_from(data, pos)[0]
                pos += 2
                for i in range(n):
                    part = f"{what} {i} of {n}"
                    a, ni, di = _u2u2u2.unpack_from(data, pos)
                    attrs, pos = _parse_attributes(data, pos + 6)
                    target.append(kind(a, ni, di, attrs, self))
            part = "the class attributes"
            self.attributes, pos = _parse_attributes(data, pos)
        except struct.error:
            raise ClassFormatError(f"truncated class file: it ends ({len(data)} bytes) inside {part}") from None
        except ClassFormatError as e:
            if part == "the constant pool":
                raise
            raise ClassFormatError(f"{e} (in {part})") from None
        if pos != len(data):
            raise ClassFormatError(f"{len(data) - pos} extra bytes after the class file's end")
        return self

    def to_bytes(self) -> bytes:
        out = bytearray(_header.pack(MAGIC, self.minor_version, self.major_version))
        self.constant_pool.write(out)
        out += _u2u2u2.pack(self.access_flags, self.this_class, self.super_class)
        out += _u2.pack(len(self.interfaces))
        for i in self.interfaces:
            out += _u2.pack(i)
        for members in (self.fields, self.methods):
            out += _u2.pack(len(members))
            for m in members:
                out += _u2u2u2.pack(m.access_flags, m.name_index, m.descriptor_index)
                attrs = m.attributes
                out += _u2.pack(len(attrs))
                for a in attrs:
                    if type(a) is not Attribute:  # a decoded Code
                        a = a.encode()
                    a.write(out)
        _write_attributes(self.attributes, out)
        return bytes(out)

    @property
    def name(self) -> str:
        return self.constant_pool.class_name(self.this_class)

    @property
    def super_name(self) -> Optional[str]:
        return self.constant_pool.class_name(self.super_class) if self.super_class else None

    def is_interface(self) -> bool:
        return bool(self.access_flags & ACC_INTERFACE)

    def find_method(self, name: str, descriptor: str) -> Optional[Method]:
        for m in self.methods:
            if m.name == name and m.descriptor == descriptor:
                return m
        return None
