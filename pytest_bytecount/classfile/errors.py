"""Errors raised by the class-file layer. Each one says where (class, method) and what is wrong."""

from __future__ import annotations


def shown(text: str, limit: int = 200) -> str:
    """``text`` as an error message may quote it: as is when short and printable, else escaped and cut
    (names in a broken class file can be 65,535 bytes of anything)."""
    if len(text) <= limit and text.isprintable():
        return text
    escaped = repr(text[:limit])[1:-1]
    if len(escaped) <= limit and len(text) <= limit:
        return escaped
    return f"{escaped[:limit]}... ({len(text):,} characters)"


class ClassFormatError(ValueError):
    """The bytes are not a class file this layer can read (JVMS §4)."""


class CodeFormatError(ClassFormatError):
    """A Code attribute (JVMS §4.7.3) cannot be decoded into the label model."""


class CodeTooLargeError(ValueError):
    """Re-encoding would pass one of a method's u2/u4 limits (JVMS §4.7.3, §4.11): 65,535 bytes of code,
    65,535 local variable slots or 65,535 operand stack slots."""

    _WHAT = {"bytes": ("code would be {size:,} bytes", "bytes"),
             "locals": ("would need {size:,} local variable slots", "slots"),
             "stack": ("would need {size:,} operand stack slots", "slots")}

    def __init__(self, class_name: str, method: str, size: int, unit: str = "bytes"):
        self.class_name = class_name
        self.method = method
        self.size = size
        self.unit = unit
        what, limit = self._WHAT[unit]
        super().__init__(
            f"{shown(class_name.replace('/', '.'))}#{shown(method)}: {what.format(size=size)} after editing, "
            f"over the JVM's limit of 65,535 {limit}; the method was not written"
        )
