"""Deep counts in the running JVM: every class counted deep (:mod:`..counting.instr.deep`), the JDK's own
included, through the agent.

On first use the deep runtime class is defined in ``java.lang`` (a private lookup into ``java.lang``, opened
to the agent's module), the loaded classes of the class library that the deep cache keeps counted are
given those bytes from Java (redefined, or retransformed through ``Kept.jasm``), a ``ClassFileTransformer`` (a
JPype proxy) is registered for every class that
loads from then on, and every other class already loaded is retransformed: the JVM hands the transformer each
class's original bytes and swaps in the counted methods. Left out: hidden classes (the JVM never shows them to a
transformer), the ``java.lang.invoke`` ``$Holder`` classes, JPype's and pytest-bytecount's own classes, and
classes the counting pipeline already counted deep (a test's targets).

The JVM must run without class-data sharing (``-Xshare:off``): archived JDK state (strings with their hash
codes, pre-resolved constants) changes the JDK's work. See :data:`.deep_options.DEEP_JVM_OPTIONS`.
"""

from __future__ import annotations

import hashlib
import re
import time
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional

from ..counting.instr.deep import DEEP_CLASS, LOCAL_BASE, MethodNumbers, deep_class, deep_runtime_class, left_out
from .agent import AgentMissing, instrumentation, transformer_class
from ..files import write_atomically
from .deep_cache import DeepCache, cache_root as deep_cache_root
# deep_jvm_options: imported from here by the CLI and the plugin's runtime
from .deep_workers import count_cold_library, count_shared, launcher
from .deep_options import C2_OPTIONS, DEEP_JVM_OPTIONS, WHY, deep_jvm_options, lacking_options  # noqa: F401
from .hash_state import HashState, find as find_hash_state
from .process import process_jvm
from .deep_trees import GENERATED_NUMBER, TreeReader

_MARK = DEEP_CLASS.encode()
# whether a set-up gives the classes the deep cache keeps their bytes from Java, redefined or through Kept.jasm (False:
# every one goes through the Python transformer, as when the cache is cold; the same counts, at a higher cost)
REDEFINE = True
# the Java versions whose JVMs load the same classes whether the kept classes are redefined or retransformed: to
# verify a redefinition HotSpot 25 loads classes that retransforming them does not (about 35 of java.base's), and a
# class loaded at the set-up instead of inside a test's window would change what the window counts
REDEFINED_ON = frozenset({"17"})
COLD_CLASSES = 100  # a set-up that counted at least this many classes for the deep cache found it cold
# whether a cold set-up counts the class library's loaded classes on every core (jvm/deep_workers.py) before it
# gives them their counted bytes as a warm one does (False: one class at a time, in the transformer). Where the kept
# classes are redefined (REDEFINED_ON) their bytes are copied through one retransformation; elsewhere a JVM of its
# own reads them from the class library, since HotSpot 25 loads about 40 classes more to verify the unchanged
# classes that a copying retransformation hands back, which neither a warm set-up nor a one-at-a-time cold one loads
# (found by listing the loaded classes after each)
PARALLEL = True


class DeepUnavailable(RuntimeError):
    """Deep counts cannot be taken in this JVM."""


class DeepCounting:
    """The JVM's deep counting, set up once (:func:`deep_counting`)."""

    def __init__(self, progress=None):
        import jpype

        try:
            self.api = instrumentation()
        except AgentMissing as e:
            raise DeepUnavailable(f"deep counts need pytest-bytecount's agent: {e}") from None
        J = jpype.JClass
        arguments = _runtime_arguments()
        lacking = lacking_options(arguments)
        if lacking:
            raise DeepUnavailable(f"deep counts need a JVM started with {' '.join(DEEP_JVM_OPTIONS)} (and on a "
                                  f"server VM {' '.join(C2_OPTIONS)}); this one runs with {', '.join(lacking)} on. "
                                  + WHY)
        self.numbers = MethodNumbers()
        self._runtime: Optional[dict] = None
        # the classes counted deep are kept per class library (jvm.deep_cache), outside the project; without a
        # cache folder that can be written, every session counts them afresh
        try:
            self.cache: Optional[DeepCache] = DeepCache(self.runtime_identity()["class_library"])
            self.cache.sync(self.numbers)
        except OSError:
            self.cache = None
        self._sums: dict = {}  # target -> its deep group since deep counting began (snapshot)
        self.tree = TreeReader(self)  # the calling-context trees (jvm.deep_trees)
        self.wanted: set = set()  # target method ids of classes that load through the transformer
        self.refused: list = []  # methods left without deep code (too large), one message each
        self.errors: list = []
        self.fresh = 0  # classes counted and kept in the deep cache (none were there)
        # while a test counts in place (jvm.in_place): (loader, internal name) -> whether that test counts the class
        # itself (flat and, for a deep test, deep: from the original bytes, which this transformer then leaves alone)
        self.in_place = None
        self.runtime, hashes = self._define_runtime()
        self.hashes: HashState = hashes
        # what the set-up hashes (the Class objects of every loaded class, what the warm-up makes) gets the same
        # identity hashes whatever the JVM's start drew before
        self.hashes.reseed("the deep runtime's set-up")
        # before any class carries deep code: the same caches built, at a fraction of the cost (the JDK's code runs
        # without counting, and the classes it loads are counted with the others below)
        _warm_up()
        self._platform = J("java.lang.ClassLoader").getPlatformClassLoader()
        self._transformer = transformer_class()(self._transform)
        started = time.monotonic()
        if self.cache is not None and REDEFINE and PARALLEL:
            # cold: the class library's loaded classes counted on every core and kept, then given from Java below
            redefines = self._redefines()
            java = None if redefines else launcher()
            if redefines or java is not None:
                self.fresh += count_cold_library(self.api, self._platform, self.cache, self.numbers,
                                                 self.runtime_identity()["class_library"], self._answered_by_name,
                                                 progress, COLD_CLASSES, _BATCH, java)
        # the class library's classes the deep cache keeps get their counted bytes from Java (redefined before
        # the Python transformer is registered, or retransformed through Kept.jasm in front of it); every other
        # loaded class is retransformed through the Python transformer
        redefined, front, listing = self._install_kept(progress) if self.cache is not None and REDEFINE \
            else (set(), None, None)
        self.redefined = len(redefined)  # loaded classes of the class library given their kept counted bytes from Java
        if front is None:
            self.api.api.addTransformer(self._transformer, True)
        # the classes loaded before a transformer was: those loaded since were transformed as they loaded
        classes, listed = listing if front is not None else self.api.modifiable(self._platform)
        loaded = [i for i, name, library in listed if not left_out(name) and not (library and name in redefined)]
        total = len(redefined) + len(loaded)
        for at in range(0, len(loaded), _BATCH):
            self._retransform(self.api.pick(classes, loaded[at:at + _BATCH]))
            if progress is not None:
                progress(len(redefined) + min(at + _BATCH, len(loaded)), total)
        if front is not None:
            front.drop()  # from now on every class goes to the Python transformer (a test's targets may be JDK classes)
        if self.cache is not None:
            self.cache.flush()  # what the set-up counted, written at once
        # the set-up's cost when the deep cache was cold: (classes counted and kept for later sessions, seconds)
        self.cold = (self.fresh, time.monotonic() - started) if self.fresh >= COLD_CLASSES else None

    def _define_runtime(self) -> tuple:
        """The deep runtime class, defined in ``java.lang``, and where the thread's identity-hash state sits; both
        kept in the deep cache by the first session of this class library and plugin (the runtime's bytes) and
        JVM (the state's place, checked before it is used)."""
        import jpype

        J = jpype.JClass
        data = self.cache.prepared("runtime", deep_runtime_class) if self.cache is not None else deep_runtime_class()
        self.api.private_lookup(J("java.lang.Object").class_).defineClass(jpype.JArray(jpype.JByte)(data))
        runtime = J(DEEP_CLASS.replace("/", "."))
        System = J("java.lang.System")
        jvm = "|".join(str(System.getProperty(p)) for p in ("java.home", "java.vm.name", "java.vm.version"))
        key = f"hash-state-{hashlib.sha256(jvm.encode()).hexdigest()[:16]}"
        hint = None  # (offset, layout) where an earlier session of this JVM found it
        if self.cache is not None:
            try:
                offset, layout = self.cache.prepared(key, lambda: b"").decode().split()
                hint = (int(offset), layout)
            except ValueError:
                pass
        hashes = find_hash_state(lambda offset: list(runtime.hashProbe(jpype.JLong(offset))),
                                 lambda offset, ints, xi: runtime.hashStart(
                                     jpype.JLong(offset), jpype.JArray(jpype.JInt)(ints), xi), hint=hint)
        if self.cache is not None and hashes.offset is not None and hint != (hashes.offset, hashes.layout):
            self.cache.keep(key, f"{hashes.offset} {hashes.layout}".encode())
        return runtime, hashes

    def _transform(self, loader, name, being_redefined, data):
        import jpype

        if name is None:
            return None
        name = str(name)
        if left_out(name) or (self.in_place is not None and self.in_place(loader, name)):
            return None
        try:
            original = bytes(memoryview(data))
            if _MARK in original:  # counted deep already (a test's targets)
                return None
            keep = self.cache is not None and not (self.wanted and _has_target(name, self.wanted))
            # the class library's own classes (those the JVM generates as it runs, proxies, are not)
            library = (loader is None or loader.equals(self._platform)) and not _generated(name)
            cached = self.cache.get(name, original, library) if keep else None
            if cached is not None:
                return jpype.JArray(jpype.JByte)(cached)
            if keep:
                counted, keep = count_shared(self.cache, self.numbers, original, frozenset(self.wanted))
            else:
                counted = deep_class(original, self.numbers, frozenset(self.wanted))
            if keep:
                self.cache.put(name, original, counted.data, library, only=not library and _generated(name))
                self.fresh += 1
            self.refused += [r for r in counted.refused if r not in self.refused]
            return jpype.JArray(jpype.JByte)(counted.data)
        except Exception as e:  # noqa: BLE001 - the JVM would drop it silently
            self.errors.append(f"{name.replace('/', '.')}: {type(e).__name__}: {e}")
            return None

    def reseed(self, key: str) -> bool:
        """Give the current thread the identity-hash state a test of id ``key`` starts with (:mod:`.hash_state`);
        whether this JVM allows it."""
        return self.hashes.reseed(key)

    def healed(self) -> Optional[str]:
        """One line naming the damaged deep-cache entries found since the last call (counted afresh, written
        again), or None."""
        names = self.cache.healed if self.cache is not None else []
        if not names:
            return None
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        line = (f"bytecount: {len(names)} damaged {'entry' if len(names) == 1 else 'entries'} of the deep cache "
                f"({self.cache.folder}) counted afresh and written again: {shown}")
        names.clear()
        return line

    def targets(self, method_ids: Iterable[str]) -> list:
        """Numbers for these target method ids (the runtime makes room for them)."""
        method_ids = list(method_ids)
        self.wanted.update(method_ids)
        numbers = [self.numbers.target(m) for m in method_ids]
        self.runtime.targets(len(self.numbers.target_names))
        return numbers

    def runtime_identity(self) -> dict:
        """What deep counts depend on: the runtime's version and vendor and a digest of its class library
        (``lib/modules``), the same under HotSpot and Zero."""
        if self._runtime is None:
            import jpype

            System = jpype.JClass("java.lang.System")
            home = Path(str(System.getProperty("java.home")))
            self._runtime = {"version": str(System.getProperty("java.runtime.version")),
                             "vendor": str(System.getProperty("java.vendor")),
                             "class_library": class_library_digest(home)}
        return self._runtime

    def _install_kept(self, progress) -> tuple:
        """Give the loaded classes of the class library that the deep cache keeps their counted bytes from Java (in
        batches; a batch the JVM refuses is left to the Python transformer): (the internal names of those given
        them, a class library's loaders holding one class of a name; the ``Kept.jasm`` transformer registered in
        front of the Python transformer, or None; then the loaded classes it saw, :meth:`Instrumentation.modifiable`).

        Where the JVM redefines them as they would be retransformed (:data:`REDEFINED_ON`) they are redefined with
        those bytes, before the Python transformer is registered: the JVM does not rebuild their class files.
        Elsewhere a transformer in Java is registered, holding the Python transformer as its next: it answers with
        every class of the class library the cache keeps (as the Python transformer would), those retransformed now
        and those the JVM loads meanwhile, until its ``drop()``. Either way the JVM holds the counted bytes as the
        classes' own from then on, so a later retransformation hands them to the Python transformer, which leaves
        them as they are (they carry the deep runtime's name): the classes stay counted, as they would."""
        import jpype

        J = jpype.JClass
        api = self.api.api
        redefine = self._redefines()
        front = answers = None
        if not redefine:  # every class of the class library the cache keeps, loaded or not
            answers = {n: d for n in self.cache.library_names()
                       if self._answered_by_name(n) and (d := self.cache.library(n)) is not None}
            front = self.api.kept_transformer(self._platform, list(answers), list(answers.values()), self._transformer)
            api.addTransformer(front, True)
        classes, listed = self.api.modifiable(self._platform)
        kept = []
        for i, name, library in listed:
            if library and self._answered_by_name(name):
                data = self.cache.library(name) if answers is None else answers.get(name)
                if data is not None:
                    kept.append((i, name, data))
        done: set = set()
        for at in range(0, len(kept), _BATCH):
            part = kept[at:at + _BATCH]
            which = [i for i, _, _ in part]
            try:
                if redefine:
                    self.api.redefine(classes, which, [data for _, _, data in part])
                else:
                    api.retransformClasses(self.api.pick(classes, which))
            except J("java.lang.Throwable"):
                continue  # none of them given their bytes here: retransformed again below, a refusal said by name
            done.update(name for _, name, _ in part)
            if progress is not None:
                progress(len(done), len(kept))
        return done, front, (classes, listed)

    def _redefines(self) -> bool:
        """Whether the set-up gives the kept classes their bytes by redefining them (:data:`REDEFINED_ON`)."""
        import jpype

        version = str(jpype.JClass("java.lang.System").getProperty("java.specification.version"))
        return version in REDEFINED_ON and self.api.api.isRedefineClassesSupported()

    def _answered_by_name(self, name: str) -> bool:
        """Whether the transformer answers a class of this name of the class library's loaders from the deep
        cache's pack (:meth:`_transform`'s rule)."""
        return not left_out(name) and not _generated(name) and not (self.wanted and _has_target(name, self.wanted))

    def _retransform(self, classes) -> None:
        """Retransform ``classes`` (a Java ``Class[]``); when the JVM refuses a batch, one class at a time, each
        refusal an error."""
        import jpype

        J = jpype.JClass
        try:
            self.api.api.retransformClasses(classes)
        except J("java.lang.Throwable") as e:
            if len(classes) == 1:
                self.errors.append(f"{classes[0].getName()}: the JVM refused its counted copy: {e.getClass().getName()}: "
                                   f"{e.getMessage()}")
                return
            for c in classes:
                self._retransform(J("java.lang.Class[]")([c]))

    def close_stale_windows(self) -> int:
        """Close, uncounted, any window still open when no target can be running (between tests): a window whose
        target's exit never ran. How many there were."""
        return int(self.runtime.reset())

    def check(self) -> None:
        """:class:`DeepUnavailable` when a class could not be counted deep: its work would be missing."""
        if self.errors:
            shown = "; ".join(self.errors[:3]) + (f"; and {len(self.errors) - 3} more" if len(self.errors) > 3 else "")
            raise DeepUnavailable(f"counting classes deep failed, so deep counts would miss their work: {shown}")

    def snapshot(self) -> dict:
        """{target: its deep group} of every target, summed since deep counting began (:meth:`drain` into
        running totals)."""
        self.check()
        for target in self.numbers.target_names:
            self._sums[target] = deep_sum(self._sums.get(target), self.drain(target))
        return {t: _copy(g) for t, g in self._sums.items()}

    def drain(self, target: str) -> dict:
        """What the windows of ``target`` counted since the last drain: ``{"windows", "total", "copied",
        "methods"}`` for the windows that ended normally, and the same under ``"abrupt"``."""
        t = self.numbers.target(target)
        out = {}
        for normal, key in ((True, None), (False, "abrupt")):
            values = [int(v) for v in self.runtime.drain(t, normal)]
            if self.cache is not None and any(values[k] < LOCAL_BASE and values[k] not in self.numbers.names
                                              for k in range(3, len(values), 2)):
                self.cache.sync(self.numbers)  # a class another process counted and kept since this one last read
            methods = {}
            for k in range(3, len(values), 2):
                if values[k + 1]:
                    name = GENERATED_NUMBER.sub(r"\1", self.numbers.names.get(values[k], f"(method number {values[k]})"))
                    methods[name] = methods.get(name, 0) + values[k + 1]
            group = {"windows": values[0], "total": values[1], "copied": values[2], "methods": dict(sorted(methods.items()))}
            if key is None:
                out.update(group)
            else:
                out[key] = group
        return out


def class_library_digest(home: Path) -> str:
    """The first 16 hex digits of the SHA-256 of the runtime's class library (``lib/modules``; a pre-9 runtime's
    ``lib/rt.jar``), or ``unknown`` when it has none of them. Worked out once per file, size and modification
    time (kept beside the deep cache, so a warm session does not read the file)."""
    for name in ("lib/modules", "jre/lib/rt.jar", "lib/rt.jar"):
        path = home / name
        if path.is_file():
            st = path.stat()
            return _file_digest(path.resolve(), st.st_size, st.st_mtime_ns)
    return "unknown"


@lru_cache(maxsize=None)
def _file_digest(path: Path, size: int, mtime_ns: int) -> str:
    ident = f"{path}|{size}|{mtime_ns}"
    memo = deep_cache_root() / "deep" / f"library-{hashlib.sha256(ident.encode()).hexdigest()[:16]}"
    try:
        digest = memo.read_text().strip()
    except OSError:
        digest = ""
    if len(digest) != 16:
        h = hashlib.sha256()
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        digest = h.hexdigest()[:16]
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)  # a first session finds no deep cache folder yet
            write_atomically(memo, digest.encode())
        except OSError:
            pass
    return digest



def _runtime_arguments() -> list:
    """The options the running JVM started with (none known before Java 9)."""
    import jpype

    try:
        return [str(a) for a in jpype.JClass("jdk.internal.misc.VM").getRuntimeArguments()]
    except Exception:  # noqa: BLE001 - no such class: a pre-9 runtime
        return []


def _warm_up() -> None:
    """Build what the JDK builds on first use outside any class initializer, before any window opens: the
    formatter's locale data (the first String.format costs about 1.8 M instructions, a later one 0.1 M) for the
    default locale, Locale.ROOT and Locale.US."""
    import jpype

    J = jpype.JClass
    String, Locale = J("java.lang.String"), J("java.util.Locale")
    args = [jpype.JObject(jpype.JInt(1), J("java.lang.Integer")), jpype.JObject(jpype.JDouble(2.5), J("java.lang.Double")),
            jpype.JString("s"), jpype.JObject(jpype.JLong(10), J("java.lang.Long"))]
    pattern = "%d %5.2f %s %x %08.3f %e %,d %b %c %-4s %+d %o %g %%%n"
    values = [args[0], args[1], args[2], args[3], args[1], args[1], args[3], jpype.JObject(True, J("java.lang.Boolean")),
              jpype.JObject(jpype.JChar("c"), J("java.lang.Character")), args[2], args[0], args[0], args[1]]
    for locale in (Locale.getDefault(), Locale.ROOT, Locale.US):
        String.format(locale, pattern, *values)
    String.format(pattern, *values)


_BATCH = 256  # classes redefined or retransformed in one call


def _generated(name: str) -> bool:
    """Whether a class of the boot or platform class loader is one the JVM made as it ran (a proxy class, a
    reflection accessor): not in the class library, and not the same class from one session to the next."""
    return _PROXY.search(name) is not None or name.startswith(("com/sun/proxy/", "jdk/proxy")) or "/Generated" in name


# a proxy class is named $Proxy<n> in its interfaces' package (java.lang.reflect.Proxy$ProxyBuilder is not one)
_PROXY = re.compile(r"(?:^|/)\$Proxy\d+$")


def _has_target(name: str, wanted: set) -> bool:
    prefix = name.replace("/", ".") + "#"
    return any(t.startswith(prefix) for t in wanted)


def _copy(group: dict) -> dict:
    return {k: (dict(v) if k == "methods" else _copy(v) if isinstance(v, dict) else v) for k, v in group.items()}


def _combine(a: Optional[dict], b: Optional[dict], sign: int) -> dict:
    a = a or {"windows": 0, "total": 0, "copied": 0, "methods": {}}
    b = b or {"windows": 0, "total": 0, "copied": 0, "methods": {}}
    out = {k: a.get(k, 0) + sign * b.get(k, 0) for k in ("windows", "total", "copied")}
    methods = dict(a.get("methods", {}))
    for m, v in b.get("methods", {}).items():
        methods[m] = methods.get(m, 0) + sign * v
    out["methods"] = {m: v for m, v in sorted(methods.items()) if v}
    if "abrupt" in a or "abrupt" in b:
        out["abrupt"] = _combine(a.get("abrupt"), b.get("abrupt"), sign)
    return out


def deep_sum(a: Optional[dict], b: Optional[dict]) -> dict:
    """Two deep groups added."""
    return _combine(a, b, 1)


def deep_difference(now: Optional[dict], before: Optional[dict]) -> dict:
    """What a deep group gained from ``before`` to ``now``."""
    return _combine(now, before, -1)


def deep_counting_set_up() -> Optional[DeepCounting]:
    """This process's :class:`DeepCounting` when its JVM counts deep (its classes carry deep code), else None."""
    made = process_jvm().deep
    return made if isinstance(made, DeepCounting) else None


def slow_progress(say, quiet_for: float = 2.0, every: float = 5.0, clock=None,
                  text: str = "bytecount: counting the JVM's loaded classes deep (kept for later sessions): {done}/{total}"):
    """A ``progress(done, total)`` for :class:`DeepCounting`'s set-up that says nothing while it is quick (a warm
    deep cache takes a fraction of a second), then a line every ``every`` seconds once it has taken ``quiet_for``,
    and the last one when it ends, so a long set-up shows it is moving and a short one leaves the output alone."""
    clock = clock or time.monotonic
    started = clock()
    shown = {"at": None}

    def progress(done: int, total: int) -> None:
        now = clock()
        if shown["at"] is None and now - started < quiet_for:
            return
        if shown["at"] is None or now - shown["at"] >= every or done == total:
            shown["at"] = now
            say(text.format(done=done, total=total))

    return progress


def deep_counting(progress=None) -> DeepCounting:
    """The process's :class:`DeepCounting`, set up on first use (a set-up that failed fails again the same way:
    the JVM keeps whatever it had done)."""
    held = process_jvm()
    if held.deep is None:
        try:
            held.deep = DeepCounting(progress)
        except DeepUnavailable as e:
            held.deep = e
    if isinstance(held.deep, DeepUnavailable):
        raise held.deep
    return held.deep
