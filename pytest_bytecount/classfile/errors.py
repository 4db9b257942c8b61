"""Errors raised by the class-file layer. Each one says where (class, method) and what is wrong."""

from __future__ import annotations


class ClassFormatError(ValueError):
    """The bytes are not a class file this layer can read (JVMS §4)."""


class CodeFormatError(ClassFormatError):
    """A Code attribute (JVMS §4.7.3) cannot be decoded into the label model."""


class CodeTooLargeError(ValueError):
    """Re-encoding would exceed the 65,535-byte limit on a method's code (JVMS §4.7.3, §4.11)."""

    def __init__(self, class_name: str, method: str, size: int):
        self.class_name = class_name
        self.method = method
        self.size = size
        super().__init__(
            f"{class_name.replace('/', '.')}#{method}: code would be {size:,} bytes after editing, "
            f"over the JVM's limit of 65,535 bytes; the method was not written. "
            f"Exclude it from the targets or split it."
        )
