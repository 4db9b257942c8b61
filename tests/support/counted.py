"""Classes counted without a JVM, as the plugin's loader and ``instrument`` count them: every class the
patterns match (with inclusive counts, every application class), each with its own Counters class."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.links.linkage import INCLUSIVE_BY_CLASS, inclusive_by_class_bytes
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter


@dataclass
class Counted:
    classes: list  # CountedClass, in classpath order

    @property
    def files(self) -> dict:
        """{internal name: bytes}: the counted classes, their Counters classes and (inclusive) the links' support."""
        out = {}
        for c in self.classes:
            out[c.name] = c.data
            out[c.counters_name] = c.counters_data
            if c.inclusive:
                out[INCLUSIVE_BY_CLASS] = inclusive_by_class_bytes()
        return out

    @property
    def maps(self) -> list:
        return [m for c in self.classes for m in c.maps]

    @property
    def refused(self) -> list:
        return [r for c in self.classes for r in c.refused]

    def of(self, name: str):
        """The CountedClass of internal name ``name``."""
        return next(c for c in self.classes if c.name == name)


def count_classes(classpath: Classpath, patterns, **options) -> Counted:
    """``ClassCounter(classpath, CountingOptions(patterns, **options)).count_all()``."""
    return Counted(ClassCounter(classpath, CountingOptions(tuple(patterns), **options)).count_all())
