"""Counting in the running JVM, assembled in one place for the plugin (``JavaContext``), the command line's ``count``
and the tests' workers: the :class:`~.loaders.CountingLoaders` that count a :class:`ClassCounter`'s classes in each
test's own class loader or where the application loads them, and, for deep counts, the JVM's deep counting told the
method numbers and the targets."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional, Sequence

from ..counting.pipeline.per_class import ClassCounter
from .deep import DeepCounting
from .in_place import InPlaceLoaders
from .loaders import CountingLoaders, LoadTimeLoaders
from .session import JvmSession


def counting_loaders(jvm: JvmSession, counter: ClassCounter, entries: Sequence[Path], in_place: bool = False,
                     deep: Optional[Callable[[], DeepCounting]] = None) -> CountingLoaders:
    """The loaders that count ``counter``'s classes in ``jvm`` (started here if it is not running): in place, or
    in a loader per test over the classpath ``entries``. ``deep`` gives the JVM's deep counting once the JVM runs
    (its set-up needs it); the counted classes then carry deep code too, and the targets open windows."""
    loaders = InPlaceLoaders(jvm, counter) if in_place else LoadTimeLoaders(jvm, counter, entries)
    if deep is not None:
        counting = deep()
        counter.deep = counting.numbers
        counting.targets(sorted({m for p in counter.patterns for m in counter.matched_methods(p)}))
    return loaders
