"""A test's class loaders, and reading their counts back.

One interface for counting where classes load: :class:`CountingLoaders` (``new()`` starts a test's counting and gives
its :class:`CountingHandle`; ``handle.counts()`` reads it, ``handle.close()`` ends it), implemented for a test's own
class loader here and for the application's loaders in :mod:`.in_place`.

:class:`LoadTimeLoaders` (``new()`` gives a fresh :class:`LoaderHandle`; ``handle.counts()`` reads it): each
matched class is counted when the test's loader first asks for it (:mod:`pytest_bytecount.counting.pipeline.per_class`),
so the cost follows what the test loads, not what a pattern matches. With inclusive counts every
application class is, with its invocations linked (:mod:`pytest_bytecount.counting.links.linkage`).
The loader (``Loader.jasm``, assembled here: no jar at run time) asks Python for the names it may answer
for and defines the counted copy child first; every other class loads as in a ``URLClassLoader``. The
nested classes an exact class pattern leaves out are watched the same way (they load as usual), so a test
that loads them gets a hint (:func:`~pytest_bytecount.counting.targets.nested_hint`).

Each test (and each determinism rerun) gets a fresh loader: fresh statics, counts from zero.
"""

from __future__ import annotations

import shutil
import tempfile
from abc import ABC, abstractmethod
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Optional, Sequence

from ..classfile import ClassFormatError
from ..classfile.assemble import assemble
from ..counting.links.linkage import INCLUSIVE_BY_CLASS, exact_name, inclusive_by_class_bytes, inclusive_of, \
    read_committed
from ..counting.pipeline.per_class import ClassCounter, counters_class_of
from ..counting.targets import MethodId, nested_hint, nested_left_out
from .process import process_jvm
from .session import JvmSession, java_set, python_longs

LOADER_CLASS = "pytest_bytecount/Loader"


class CountingError(RuntimeError):
    """A class the test loaded could not be counted."""


class CountingHandle(ABC):
    """One test's counting: ``loader`` is the Java class loader ``bytecount.jclass`` loads from."""

    loader: object

    @abstractmethod
    def counts(self) -> dict:
        """The counts so far (the contract's JSON, method id -> counts); :class:`CountingError` when a class the
        test loaded could not be counted."""

    @abstractmethod
    def close(self) -> None:
        """The test is over: release what it holds (its own loader, or the originals of classes counted in place)."""


class CountingLoaders(ABC):
    """How the classes one set of counting options matches are counted in the running JVM, one per set of options
    for the session (the plugin's ``JavaContext.loaders_for``, the command line's ``count``): in each test's own
    class loader (:class:`LoadTimeLoaders`) or where the application loads them (:class:`~.in_place.InPlaceLoaders`)."""

    refused: list  # the methods left uncounted so far (over 64 KB once counted), each with the reason

    @abstractmethod
    def new(self) -> CountingHandle:
        """A test starts: a handle whose counts start from zero."""

    @abstractmethod
    def matched_methods(self, pattern: str) -> list:
        """Every method id ``pattern`` matches (read from the classpath; :class:`TargetError` when none)."""

    def hints(self, handle: CountingHandle) -> list:
        """Lines for a test that loaded classes its patterns leave out, which may hold its work (none here)."""
        return []


class LoaderHandle(CountingHandle):
    """One test's class loader (``loader``, a Java object) and what it counted."""

    def __init__(self, loader, read, counted: Optional["_Counted"] = None, start: Optional[dict] = None,
                 owner: bool = True):
        self.loader = loader
        self._read = read
        self.counted = counted
        # a loader shared by several tests (a wider loader scope): each counts from the values at its start
        self.start: dict = start or {}  # internal name -> the class's counter values when this handle began
        self.owner = owner  # closes the loader; a handle on a shared loader leaves it open

    def counts(self) -> dict:
        return self._read(self)

    def close(self) -> None:
        if not self.owner:
            return
        try:
            self.loader.close()
        except Exception:  # noqa: BLE001 - best effort
            pass


class _Counted:
    """The classes one load-time loader defined: counted classes and the Counters classes defined."""

    def __init__(self):
        self.classes: dict = {}  # internal name -> CountedClass
        self.counters: set = set()  # internal names of Counters classes defined
        self.nested: set = set()  # dotted names of nested classes the patterns leave out that loaded
        self.error: Optional[str] = None


class LoadTimeLoaders(CountingLoaders):
    """Loaders that count each matched class when first asked for it."""

    def __init__(self, jvm: JvmSession, counter: ClassCounter, classpath: Sequence[Path]):
        self.jvm, self.counter, self.classpath = jvm, counter, list(classpath)
        self.refused: list = []
        jvm.start()
        candidates = counter.candidates()
        self._by_counters = {}  # dotted name of a Counters class -> internal name of its class
        dotted = []
        for name in candidates:
            counters = counters_class_of(name)
            self._by_counters[counters.replace("/", ".")] = name
            dotted += [name.replace("/", "."), counters.replace("/", ".")]
        if counter.inclusive:  # the support class behind the links, one per test loader: fresh state
            dotted.append(INCLUSIVE_BY_CLASS.replace("/", "."))
        # nested classes an exact class pattern leaves out: watched (they load as usual) for the hint; with
        # inclusive counts they are counted (and their work is in the target's inclusive counts)
        self.left_out = {} if counter.inclusive else nested_left_out(counter.patterns, counter.classpath.class_names())
        self._watched = {d for names in self.left_out.values() for d in names}
        dotted += sorted(self._watched)
        self._names = java_set(dotted)
        self._bytes: dict = {}  # internal name -> (class bytes, Counters bytes) as Java byte[]

    def new(self) -> LoaderHandle:
        import jpype

        counted = _Counted()
        hook = _hook_class()(lambda name: self._supply(counted, str(name)))
        URL = jpype.JClass("java.net.URL")
        urls = jpype.JArray(URL)([jpype.JClass("java.io.File")(str(p)).toURI().toURL() for p in self.classpath])
        parent = jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader()
        loader = _loader_class(self.jvm)(urls, parent, hook, self._names)
        return LoaderHandle(loader, self._counts, counted)

    def _supply(self, counted: _Counted, dotted: str):
        """The bytes to define for ``dotted`` in a loader, or None (it loads as usual)."""
        import jpype

        try:
            if dotted in self._watched:
                counted.nested.add(dotted)
                return None  # not counted: it loads as usual
            if dotted == INCLUSIVE_BY_CLASS.replace("/", "."):
                if "support" not in self._bytes:
                    self._bytes["support"] = jpype.JArray(jpype.JByte)(inclusive_by_class_bytes())
                return self._bytes["support"]
            if dotted in self._by_counters:
                name = self._by_counters[dotted]
                if name not in counted.classes:
                    return None  # its class was not counted here: never referenced
                counted.counters.add(name)
                return self._java_bytes(counted.classes[name])[1]
            name = dotted.replace(".", "/")
            cls = self.counter.count(name)
            if cls is None:
                return None
            if cls.refused:
                self.refused += [r for r in cls.refused if r not in self.refused]
            counted.classes[name] = cls
            return self._java_bytes(cls)[0]
        except Exception as e:  # noqa: BLE001 - the test fails with it (CountingError), not with a JPype proxy trace
            counted.error = counted.error or (f"bytecount: {e}" if isinstance(e, (ClassFormatError, OSError)) else
                                              f"bytecount: counting class {dotted} failed: {type(e).__name__}: {e}")
            raise jpype.JClass("java.lang.ClassFormatError")(str(counted.error)) from None

    def _java_bytes(self, cls) -> tuple:
        import jpype

        if cls.name not in self._bytes:
            self._bytes[cls.name] = (jpype.JArray(jpype.JByte)(cls.data), jpype.JArray(jpype.JByte)(cls.counters_data))
        return self._bytes[cls.name]

    def matched_methods(self, pattern: str) -> list:
        return self.counter.matched_methods(pattern)

    def hints(self, handle: LoaderHandle) -> list:
        """A line per pattern whose left-out nested classes the test loaded (so they may hold its work)."""
        loaded = handle.counted.nested
        return [nested_hint(pattern, [d for d in names if d in loaded])
                for pattern, names in sorted(self.left_out.items()) if loaded.intersection(names)]

    def shared(self, base: LoaderHandle) -> LoaderHandle:
        """A handle on ``base``'s loader whose counts start now (a loader scope wider than one test: the
        classes stay loaded, with their statics, and each test counts its own run)."""
        return LoaderHandle(base.loader, self._counts, base.counted, start=self._values(base), owner=False)

    def _values(self, handle: LoaderHandle) -> dict:
        """The raw counter values of every class counted in ``handle``'s loader so far."""
        counted = handle.counted
        return {name: [0] * cls.size if name not in counted.counters else
                self.jvm.read_counters(handle.loader, cls.size, cls.counters_name)
                for name, cls in counted.classes.items()}

    def _counts(self, handle: LoaderHandle) -> dict:
        counted = handle.counted
        if counted.error is not None:
            raise CountingError(counted.error)
        out: dict = {}
        values = self._values(handle)
        for name in sorted(counted.classes):
            cls = counted.classes[name]
            start = handle.start.get(name)
            ran = values[name] if start is None else [a - b for a, b in zip(values[name], start)]
            out.update(cls.counts(ran, lines=True))
        if self.counter.inclusive:
            self._add_inclusive(handle, out)
        return dict(sorted(out.items()))

    def _add_inclusive(self, handle: LoaderHandle, out: dict) -> None:
        """Give every target its ``"inclusive"`` object, from the committed values of the test's support class."""
        import jpype

        counted = handle.counted
        support = jpype.JClass(jpype.JClass("java.lang.Class").forName(INCLUSIVE_BY_CLASS.replace("/", "."), True,
                                                                         handle.loader))
        classes = [None if n is None else str(n) for n in support.names(True)]
        targets = [str(t) for t in support.names(False)]
        committed = read_committed(python_longs(support.snapshot()))
        by_target: dict = {}
        for (t, slot), values in committed.items():
            cls = counted.classes[classes[slot]]
            by_target.setdefault(t, []).append((cls.maps, values))
        index = {exact: t for t, exact in enumerate(targets)}
        for name in sorted(counted.classes):
            for mid in counted.classes[name].targets:
                t = index.get(exact_name(MethodId.parse(mid)))
                out[mid] = dict(sorted({**out[mid], "inclusive": inclusive_of(by_target.get(t, []))}.items()))


@lru_cache(maxsize=None)
def loader_class_bytes() -> bytes:
    text = resources.files(__package__).joinpath("Loader.jasm").read_text(encoding="utf-8")
    return assemble(text, "Loader.jasm", {})


def _loader_class(jvm: JvmSession):
    """The Loader class, defined once per JVM by a loader of its own over a folder that holds it briefly."""
    import jpype

    held = process_jvm()
    if held.loader_class is None:
        jvm.start()
        folder = Path(tempfile.mkdtemp(prefix="bytecount-loader-"))
        try:
            path = folder / f"{LOADER_CLASS}.class"
            path.parent.mkdir(parents=True)
            path.write_bytes(loader_class_bytes())
            URL = jpype.JClass("java.net.URL")
            urls = jpype.JArray(URL)([jpype.JClass("java.io.File")(str(folder)).toURI().toURL()])
            definer = jpype.JClass("java.net.URLClassLoader")(urls, jpype.JClass("java.lang.ClassLoader")
                                                              .getPlatformClassLoader())
            cls = jpype.JClass("java.lang.Class").forName(LOADER_CLASS.replace("/", "."), True, definer)
            held.loader_class, held.loader_definer = jpype.JClass(cls), definer
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return held.loader_class


def _hook_class():
    """A Python implementation of java.util.function.Function (made once the JVM runs)."""
    import jpype

    held = process_jvm()
    if held.hook_class is not None:
        return held.hook_class

    @jpype.JImplements("java.util.function.Function")
    class Hook:
        def __init__(self, supply):
            self._supply = supply

        @jpype.JOverride
        def apply(self, name):
            return self._supply(name)

    held.hook_class = Hook
    return Hook
