"""Counting in place: the matched classes are counted in the class loader that actually loads them (the
system class loader, or an application's own), for the length of one test (``in_place=True``).

How (the JVM's instrumentation API, through the agent of :mod:`.agent`):

- At the start of the test a ``ClassFileTransformer`` (a JPype proxy) is registered, and the matched
  classes already loaded are retransformed. The transformer counts a matched class from the bytes the
  JVM hands it (for a retransformation: the original bytes, which the JVM keeps), the same way a test's
  own loader would (:class:`~pytest_bytecount.counting.pipeline.per_class.ClassCounter`), and defines the class's
  Counters class in the class's own loader. Matched classes that load during the test are counted as
  they load.
- Redefinition and retransformation may change method bodies only. Counting adds no field, method,
  interface or modifier (each counted method keeps its counters in locals and reports to its Counters
  class), and :func:`shape_changes` checks that for every class before it is handed over: a class whose
  counted copy would differ in shape is refused, by name, and runs as it is.
- At the end of the test the transformer is removed and the counted classes are retransformed back: the
  JVM derives them again from the original bytes, and they run uninstrumented until the next in-place test.

What is given up: the classes stay loaded, so their static state carries over from test to test (and from
the code that ran before the first one). Counts are those of the test's run only (each Counters class's
values at the end minus its values at the start), but they may depend on what ran before.
``--bytecount-check-determinism`` runs such a test twice in place and so catches counts that depend on
state left by an earlier run.
"""

from __future__ import annotations

from typing import Optional

from ..classfile import ClassFile, ClassFormatError
from ..counting.pipeline.per_class import ClassCounter, CountedClass
from .agent import AgentMissing, instrumentation, transformer_class
from .deep import deep_counting_set_up
from .loaders import LOADER_CLASS, CountingError, CountingHandle, CountingLoaders
from .session import JvmSession, java_set, python_longs


class InPlaceError(RuntimeError):
    """Classes cannot be counted in place in this JVM."""


def _per_test(loader) -> bool:
    """Whether ``loader`` is a test's own loader (:mod:`.loaders`): its classes are counted copies already,
    and stay loaded until collected after their test."""
    return loader is not None and str(loader.getClass().getName()) == LOADER_CLASS.replace("/", ".")


def _shape(cf: ClassFile) -> dict:
    cp = cf.constant_pool
    return {"class": (cf.name, cf.access_flags, cf.super_name, tuple(cp.class_name(i) for i in cf.interfaces)),
            "fields": sorted((f.name, f.descriptor, f.access_flags) for f in cf.fields),
            "methods": sorted((m.name, m.descriptor, m.access_flags) for m in cf.methods)}


def shape_changes(original: bytes, counted: bytes) -> list:
    """What the counted copy changes that retransformation forbids: its name, modifiers, super class and
    interfaces, and its fields and methods (names, descriptors, modifiers). Empty when it may replace the
    original."""
    a, b = _shape(ClassFile.parse(original)), _shape(ClassFile.parse(counted))
    out = []
    if a["class"] != b["class"]:
        out.append("its name, modifiers, super class or interfaces")
    for kind in ("fields", "methods"):
        added = sorted(set(b[kind]) - set(a[kind]))
        removed = sorted(set(a[kind]) - set(b[kind]))
        out += [f"adds {kind[:-1]} {n}{d}" for n, d, _ in added] + [f"removes {kind[:-1]} {n}{d}" for n, d, _ in removed]
    return out


class InPlaceLoaders(CountingLoaders):
    """What :class:`~.loaders.LoadTimeLoaders` is to a test's own loader, in place (both are
    :class:`~.loaders.CountingLoaders`): ``new()`` starts
    counting the matched classes where they live, ``handle.counts()`` reads them, ``handle.close()``
    restores the originals."""

    def __init__(self, jvm: JvmSession, counter: ClassCounter):
        jvm.start()
        try:
            self.api = instrumentation()
        except AgentMissing as e:
            raise InPlaceError(f"{e}. Start the JVM with pytest_bytecount.start_jvm(config, ...) in conftest.py "
                               f"instead of jpype.startJVM, or count in the test's own class loader "
                               f"(without in_place=True)") from None
        self.counter = counter
        self.refused: list = []
        # (loader, Counters name) -> its Java class, defined once per loader for the JVM's life: tests of other
        # markers that count the same class with the same methods share it (its name is keyed by them)
        self._counters: dict = jvm.defined
        self._matched: dict = {}  # internal name -> whether a pattern's class part matches it
        # the matched classes of the classpath, as Java looks them up among the loaded classes at each test's
        # start (a class of another name that a pattern matches is counted when it loads during a test)
        self.names = java_set([n.replace("/", ".") for n in counter.candidates()])

    def matches(self, internal_name: str) -> bool:
        hit = self._matched.get(internal_name)
        if hit is None:
            dotted = internal_name.replace("/", ".")
            hit = self._matched[internal_name] = any(p.matches_class(dotted) for p in self.counter.parsed)
        return hit

    def new(self) -> "InPlaceHandle":
        return InPlaceHandle(self)

    def matched_methods(self, pattern: str) -> list:
        return self.counter.matched_methods(pattern)

    def counters_class(self, loader, cls: CountedClass):
        """The Counters class of ``cls`` in ``loader``, defined there on first use."""
        import jpype

        key = (loader, cls.counters_name)
        if key not in self._counters:
            data = jpype.JArray(jpype.JByte)(cls.counters_data)
            self._counters[key] = jpype.JClass(self.api.define(loader, cls.counters_name, data))
        return self._counters[key]


class _Touched:
    """One counted class in one loader during a test: its counts so far start at ``before``."""

    def __init__(self, cls: CountedClass, counters, before: list):
        self.cls, self.counters, self.before = cls, counters, before
        self.java_class = None  # known once loaded (for the restore)


class InPlaceHandle(CountingHandle):
    """One test counting in place. ``loader`` is the system class loader (``bytecount.jclass`` loads from it,
    as ``jpype.JClass`` does)."""

    def __init__(self, owner: InPlaceLoaders):
        import jpype

        self.owner = owner
        self.loader = jpype.JClass("java.lang.ClassLoader").getSystemClassLoader()
        self.error: Optional[str] = None
        self.touched: dict = {}  # (loader, internal name) -> _Touched
        self.final: Optional[dict] = None  # the counts when it was closed (its Counters count on for others)
        # in Java, a class no pattern's prefix names passes without a call into Python (Sieve.jasm)
        self._python = transformer_class()(self._transform)  # held here as long as Java holds it
        self._transformer = owner.api.sieve(sorted({p.class_prefix for p in owner.counter.parsed}), self._python)
        # in a JVM that counts deep, the deep transformer (registered first, so called first) leaves the classes
        # this test counts to this one, which counts them from the original bytes (deep too, for a deep test)
        self._deep = deep_counting_set_up()
        if self._deep is not None:
            self._deep.in_place = self._counts_here
        api = owner.api.api
        api.addTransformer(self._transformer, True)
        loaded = [c for c in owner.api.loaded(owner.names) if api.isModifiableClass(c) and not _per_test(c.getClassLoader())]
        if loaded:
            self._retransform(loaded)  # the transformer notes each as the class being redefined

    def _retransform(self, classes) -> None:
        import jpype

        api = self.owner.api.api
        try:
            api.retransformClasses(jpype.JArray(jpype.JClass("java.lang.Class"))(classes))
        except jpype.JClass("java.lang.Throwable") as e:
            self.error = self.error or f"bytecount: retransforming {', '.join(str(c.getName()) for c in classes)} " \
                                       f"failed: {e.getClass().getName()}: {e.getMessage()}"

    def _counts_here(self, loader, name: str) -> bool:
        """Whether this test counts the class ``name`` of ``loader`` (as :meth:`_transform` picks them)."""
        return loader is not None and self.owner.matches(name) and not _per_test(loader)

    def _transform(self, loader, name, being_redefined, data):
        """The counted bytes for a matched class, or None (the class stays as it is)."""
        import jpype

        if name is None or loader is None:  # hidden classes, and the JDK's own (the boot loader)
            return None
        name = str(name)
        if not self.owner.matches(name) or _per_test(loader):
            return None
        try:
            original = bytes(memoryview(data))
            cls = self.owner.counter.count(name, original)
            if cls is None:
                return None
            changes = shape_changes(original, cls.data)
            if changes:
                message = (f"bytecount: {name.replace('/', '.')} cannot be counted in place: its counted copy "
                           f"{'; '.join(changes)}, which the JVM does not allow when it redefines a class")
                if message not in self.owner.refused:
                    self.owner.refused.append(message)
                return None
            if cls.refused:
                self.owner.refused += [r for r in cls.refused if r not in self.owner.refused]
            counters = self.owner.counters_class(loader, cls)
            key = (loader, name)
            if key not in self.touched:
                self.touched[key] = _Touched(cls, counters, python_longs(counters.snapshot())[:cls.size])
            if being_redefined is not None:
                self.touched[key].java_class = being_redefined
            return jpype.JArray(jpype.JByte)(cls.data)
        except Exception as e:  # noqa: BLE001 - the test fails with it; the JVM would drop it silently
            text = f"bytecount: {e}" if isinstance(e, (ClassFormatError, OSError)) else \
                f"bytecount: counting class {name.replace('/', '.')} in place failed: {type(e).__name__}: {e}"
            self.error = self.error or text
            return None

    def counts(self) -> dict:
        if self.final is not None:
            return self.final
        if self.error is not None:
            raise CountingError(self.error)
        values: dict = {}  # Counters name -> (CountedClass, values summed over the loaders that counted it)
        for t in self.touched.values():
            now = python_longs(t.counters.snapshot())[:t.cls.size]
            ran = [a - b for a, b in zip(now, t.before)]
            summed = values.get(t.cls.counters_name, (t.cls, None))[1]
            values[t.cls.counters_name] = (t.cls, ran if summed is None else [a + b for a, b in zip(summed, ran)])
        names = [cls.name for cls, _ in values.values()]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise CountingError(f"bytecount: {', '.join(n.replace('/', '.') for n in twice)} loaded from different "
                                f"bytes by two class loaders during the test; in place, one name must be one class")
        out: dict = {}
        for cls, v in values.values():
            out.update(cls.counts(v, lines=True))
        return dict(sorted(out.items()))

    def close(self) -> None:
        """Stop counting and put the original classes back (once; the counts stay readable)."""
        import jpype

        if self.final is not None:
            return
        try:
            self.final = self.counts()
        except CountingError:
            self.final = {}
        api = self.owner.api.api
        api.removeTransformer(self._transformer)
        if self._deep is not None and self._deep.in_place == self._counts_here:
            self._deep.in_place = None  # the restored classes are counted deep as every other class is
        restore = []
        for (loader, name), t in self.touched.items():
            c = t.java_class
            if c is None:
                try:
                    c = jpype.JClass("java.lang.Class").forName(name.replace("/", "."), False, loader)
                except jpype.JClass("java.lang.Throwable"):
                    continue  # its definition failed: nothing to restore
            restore.append(c)
        if restore:
            api.retransformClasses(jpype.JArray(jpype.JClass("java.lang.Class"))(restore))


def loaded_elsewhere(internal_names: set, tests_own: bool = False) -> dict:
    """``{internal name: [loader, ...]}`` of the classes among ``internal_names`` that a class loader other than
    the tests' own loaded (as the loaders describe themselves), or with ``tests_own`` those that only the tests'
    own loaders loaded; empty without the agent, which alone can list the classes a JVM loaded."""
    import jpype

    try:
        api = instrumentation()
    except AgentMissing:
        return {}
    system = jpype.JClass("java.lang.ClassLoader").getSystemClassLoader()
    out: dict = {}
    others: set = set()
    for c in api.loaded(java_set([n.replace("/", ".") for n in internal_names])):
        name = str(c.getName()).replace(".", "/")
        loader = c.getClassLoader()
        if _per_test(loader) != tests_own:  # a test's own: this test's, or an earlier test's not yet collected
            others.add(name)
            continue
        if tests_own:
            out.setdefault(name, []).append("a test's own class loader")
            continue
        shown = "the system class loader (jpype.JClass, jpype.imports)" if loader is not None and loader.equals(system) \
            else "the boot class loader" if loader is None else f"{loader.getClass().getName()}@{loader.hashCode():x}"
        out.setdefault(name, []).append(shown)
    return {n: v for n, v in out.items() if n not in others} if tests_own else out
