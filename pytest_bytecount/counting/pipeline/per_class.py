"""Counting one class at a time, when a class loader first asks for it: the one way classes are counted.

A :class:`ClassCounter` holds the patterns of one marker and its options. Asked for a class, it counts that
class's matched methods and gives the class a Counters class of its own (:func:`counters_class_of`), so the
class's counter indexes start at 0 and never depend on which other classes a test happens to load: the
instrumented bytes of a class are a function of its original bytes, its matched methods and the options,
and so is their cache entry (:mod:`.cache`), which patterns that overlap share. The plugin's loaders, the
``count`` command (:mod:`pytest_bytecount.jvm.loaders`) and the ``instrument`` command (:mod:`.report`)
all count through it.

Storage is exact and cheap: each class's Counters is the support class of :mod:`..instr.runtime`, sized
for that class; the total grows as classes arrive, and nothing is allocated per invocation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Optional, Sequence

from ...classfile import ClassFile, ClassFormatError
from ...classfile.classpath import Classpath
from . import cache as class_cache
from ..counts import add_code_fingerprint, class_layout, counts_from_values, links_program
from ..links.hooks import Hierarchy
from ..links.linkage import ClassLinks, exact_name
from ..options import CountingOptions
from ..instr.deep import OWN_PREFIX
from ..instr.runtime import build_runtime_class
from ..targets import MethodId, TargetError, TargetPattern, resolve_targets
from .transform import STRATEGIES, CounterIndexes, instrument_class

COUNTERS_PACKAGE = "pytest_bytecount/of/"
IN_PLACE_PACKAGE = "pytest_bytecount/inplace/"


def counters_class_of(internal_name: str) -> str:
    """The Counters class of a class counted on its own: ``pytest_bytecount/of/`` + its internal name."""
    return COUNTERS_PACKAGE + internal_name


@dataclass(frozen=True)
class CountedClass:
    """One class with its matched methods counted, and its own Counters class."""

    name: str  # internal name
    data: bytes
    counters_name: str  # internal name of its Counters class
    counters_data: bytes
    maps: tuple  # CounterMaps, indexes from 0 in its Counters class
    size: int
    refused: tuple  # methods left uncounted (over 64 KB), one message each
    inclusive: bool = False  # every method counted and linked (inclusive_by_class); only targets reported
    targets: tuple = ()  # with inclusive counts: the method ids of its targets
    rendered: Optional[tuple] = None  # (layout, links) as kept in its cache entry: not rendered again

    def counts(self, values: Sequence[int], lines: bool = False) -> dict:
        """The contract's counts of this class's methods (with inclusive counts: of its targets) from its
        Counters' values (``lines``: with per-line counts)."""
        maps = self.reported()
        return add_code_fingerprint(counts_from_values(maps, values, lines=lines), maps)

    def reported(self) -> list:
        """The maps of the methods with an entry of their own: every one, or with inclusive counts the targets'."""
        return list(self.maps) if not self.inclusive else [m for m in self.maps if str(m.method) in self.targets]

    def layout(self) -> str:
        """The exit hook's program for this class's entries (:func:`~.counts.class_layout`)."""
        if self.rendered is not None:
            return self.rendered[0]
        inclusive = {t: exact_name(MethodId.parse(t)) for t in self.targets} if self.inclusive else None
        return class_layout(sorted(((str(m.method), m) for m in self.reported()), key=lambda e: e[0]), inclusive)

    def links(self) -> str:
        """With inclusive counts, the exit hook's program for what this class's methods add to a target."""
        if self.rendered is not None:
            return self.rendered[1]
        return links_program(self.maps) if self.inclusive else ""


class ClassCounter:
    """The methods ``options.targets`` match, counted class by class on demand, as ``options`` say
    (:class:`~..options.CountingOptions`; a list of patterns alone: counted with the default options).

    ``cache_dir``: keep and reuse each counted class there (:mod:`.cache`); None: in memory only.
    With ``options.inclusive``, every method of every application class is counted and linked, and the patterns
    name the targets (:mod:`..links.linkage`)."""

    def __init__(self, classpath: Classpath, options, cache_dir: Optional[Path] = None):
        if not isinstance(options, CountingOptions):
            options = CountingOptions(tuple(options))
        strategy, abrupt, allocations = options.strategy, options.abrupt, options.allocations
        inclusive, in_place = options.inclusive, options.in_place
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown counting strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
        self.classpath = classpath
        self.patterns = list(options.targets)
        self.parsed = [TargetPattern.parse(p) for p in self.patterns]
        self.strategy, self.abrupt, self.allocations = strategy, abrupt, allocations
        # how the classes are counted, as the per-class cache's key spells it
        self.options_key = f"{strategy} abrupt={abrupt} allocations={allocations}" \
            + (" inclusive" if inclusive else "") + (" in-place" if in_place else "")
        self.inclusive = inclusive
        # counted in place (jvm.in_place): each class's Counters class lives in the class's own loader for the
        # rest of the JVM's life, so its name carries the entry's key (a class counted with other options or
        # from other bytes gets another one)
        self.in_place = in_place
        self.hierarchy = Hierarchy(classpath) if inclusive else None
        self.cache_dir = cache_dir
        # deep counts (..instr.deep): the JVM's MethodNumbers once its deep counting is set up. Every method of a
        # counted class is counted deep too, and the matched methods open windows. The numbers are the JVM's own:
        # each class's are handed out before it is counted, and its cache entry is keyed by them (a session that
        # numbers the classes in the same order, as the same tests do, reuses the entries)
        self.deep = None
        # the classes go to files with their exit hook's programs (instrument): each class's are rendered when it is
        # counted and kept in its cache entry, so a cache hit does not render them again
        self.for_files = False
        self._counted: dict = {}  # internal name -> CountedClass or None (nothing of it is matched)
        self.cache_hits = 0

    def candidates(self) -> list:
        """The internal names of the classes the patterns' class parts match (names only: nothing is read);
        with inclusive counts, every application class."""
        if self.inclusive:
            return [n for n in self.classpath.class_names() if not n.startswith("java/")]
        return [n for n in self.classpath.class_names() if any(p.matches_class(n.replace("/", ".")) for p in self.parsed)]

    def check(self) -> None:
        """:class:`TargetError` for a pattern that matches no class, or (one whose class part names a
        class, no glob) no method with code: what resolving every pattern would report, at the cost of
        reading the named classes only. A glob's methods are checked when none of them ran
        (:meth:`matched_methods`)."""
        if not self.parsed:
            raise TargetError("no target given: name at least one method, e.g. --target demo.Sorting#insertionSort")
        names = None
        for pattern in self.parsed:
            if "*" not in pattern.text.partition("#")[0]:
                resolve_targets([pattern.text], self.classpath)
                continue
            names = self.classpath.class_names() if names is None else names
            if not any(pattern.matches_class(n.replace("/", ".")) for n in names):
                resolve_targets([pattern.text], self.classpath)  # raises, naming near misses

    def matched_methods(self, pattern: str) -> list:
        """Every method with code ``pattern`` matches, as method ids; :class:`TargetError` when none.
        Reads every class the pattern's class part matches."""
        return [str(m) for ms in resolve_targets([pattern], self.classpath).values() for m in ms]

    def count(self, internal_name: str, data: Optional[bytes] = None) -> Optional[CountedClass]:
        """The class with its matched methods counted, or None when it has no method the patterns match.
        ``data``: the class's bytes as the JVM has them (counted in place); by default they are read from the
        classpath. Counted once per counter; a :class:`ClassFormatError` names the class and where it
        comes from."""
        memo = internal_name if data is None else (internal_name, data)
        if memo in self._counted:
            return self._counted[memo]
        where = "as the JVM loads it" if data is not None else self.classpath.location(internal_name)
        data = self.classpath.read(internal_name) if data is None else data
        try:
            cf = ClassFile.parse(data)
            wanted = self._wanted(cf)
            if self.inclusive:
                targets, wanted = wanted, [MethodId(cf.name, m.name, m.descriptor) for m in cf.methods if m.has_code()]
            result = None if not wanted else self._count(internal_name, data, wanted, targets if self.inclusive else ())
        except ClassFormatError as e:
            raise ClassFormatError(f"class {internal_name.replace('/', '.')} "
                                   f"({where}) cannot be instrumented: {e}") from None
        self._counted[memo] = result
        return result

    def count_all(self, progress: Optional[Callable[[int, int], None]] = None) -> list:
        """Every class of :meth:`candidates` that has a method to count, counted (what ``instrument`` writes:
        the classes a run might load). ``progress(done, total)`` after each class."""
        names = self.candidates()
        out = []
        for done, name in enumerate(names, 1):
            counted = self.count(name)
            if counted is not None:
                out.append(counted)
            if progress is not None:
                progress(done, len(names))
        return out

    def _deep_numbers(self, data: bytes, targets: frozenset) -> str:
        """Number every method of the class for deep counts now, in the class's order, the way counting it would
        (:func:`~..instr.deep.deep_method`: the targets get a window number too), and spell the numbers for its
        cache key: the counted bytes carry them."""
        cf = ClassFile.parse(data)
        if cf.name.startswith(OWN_PREFIX):
            return "own"
        out = []
        for m in cf.methods:
            if m.has_code():
                mid = str(MethodId(cf.name, m.name, m.descriptor))
                number = self.deep.number(mid)
                out.append(f"{number}:{self.deep.target(mid)}" if mid in targets else str(number))
        return ",".join(out)

    def _wanted(self, cf: ClassFile) -> list:
        dotted = cf.name.replace("/", ".")
        patterns = [p for p in self.parsed if p.matches_class(dotted)]
        return sorted(MethodId(cf.name, m.name, m.descriptor) for m in cf.methods
                      if m.has_code() and any(p.matches_method(m.name, m.descriptor) for p in patterns))

    def _count(self, name: str, data: bytes, wanted: list, targets: Sequence[MethodId] = ()) -> CountedClass:
        options = self.options_key + "".join(f" target={m.name}{m.descriptor}" for m in targets)
        deep_targets = frozenset(str(m) for m in (targets if self.inclusive else wanted))
        if self.deep is not None:
            options += " deep " + self._deep_numbers(data, deep_targets)
        key = class_cache.key(data, [(m.name, m.descriptor) for m in wanted], options)
        cache_dir = self.cache_dir
        if cache_dir is not None:
            hit = class_cache.load(self.cache_dir, key, name)
            if hit is not None:
                self.cache_hits += 1
                return CountedClass(**hit)
        counters = counters_class_of(name) if not self.in_place else f"{IN_PLACE_PACKAGE}{key[:16]}/{name}"
        links = ClassLinks(self.hierarchy, counters, [(m.name, m.descriptor) for m in targets]) \
            if self.inclusive else None
        batch = CounterIndexes(self.strategy, abrupt=self.abrupt, allocations=self.allocations, runtime=counters,
                               inclusive=links,
                               deep=None if self.deep is None else (self.deep, deep_targets))
        result = instrument_class(data, wanted, batch)
        arities = batch.arities or {("I", 1)}
        more = links.counters_inserts(name, batch.size, arities) if links is not None else None
        counted = CountedClass(name, result.data, counters, build_runtime_class(batch.size, arities, counters, more),
                               tuple(batch.maps), batch.size, tuple(result.refused), self.inclusive,
                               tuple(str(m) for m in targets))
        if self.for_files:  # its exit hook's programs, rendered once and kept with it
            counted = replace(counted, rendered=(counted.layout(), counted.links()))
        if cache_dir is not None:
            class_cache.store(cache_dir, key, counted)
        return counted
