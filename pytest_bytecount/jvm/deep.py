"""Deep counts in the running JVM: every class counted deep (:mod:`..counting.instr.deep`), the JDK's own
included, through the agent.

On first use the deep runtime class is defined in ``java.lang`` (a private lookup into ``java.lang``, opened
to the agent's module), a ``ClassFileTransformer`` (a JPype proxy) is registered for every class that loads
from then on, and every class already loaded is retransformed: the JVM hands the transformer each class's
original bytes and swaps in the counted methods. Left out: hidden classes (the JVM never shows them to a
transformer), the ``java.lang.invoke`` ``$Holder`` classes, JPype's and pytest-bytecount's own classes, and
classes the counting pipeline already counted deep (a test's targets).

The JVM must run without class-data sharing (``-Xshare:off``): archived JDK state (strings with their hash
codes, pre-resolved constants) changes the JDK's work. See :data:`DEEP_JVM_OPTIONS`.
"""

from __future__ import annotations

import sys
import time
from typing import Iterable, Optional

from ..counting.instr.deep import DEEP_CLASS, MethodNumbers, deep_class, deep_runtime_class, left_out
from .agent import AgentMissing, instrumentation

# -Xshare:off: no class-data sharing. The others keep the JIT from replacing a counted JDK method that has a
# Java body by its intrinsic (compiled callers would skip its counters): the JIT's intrinsics are off.
DEEP_JVM_OPTIONS = ("-Xshare:off", "-XX:+UnlockDiagnosticVMOptions", "-XX:-InlineNatives")
_MARK = DEEP_CLASS.encode()


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
        sharing = _sharing_on()
        if sharing:
            raise DeepUnavailable("deep counts need a JVM started without class-data sharing (-Xshare:off): the "
                                  "archived JDK state changes the JDK's work")
        self.numbers = MethodNumbers()
        self.wanted: set = set()  # target method ids of classes that load through the transformer
        self.refused: list = []
        self.errors: list = []
        self.classes = 0
        lookup = J("java.lang.invoke.MethodHandles").privateLookupIn(J("java.lang.Object").class_, self.api._agent.LOOKUP)
        data = deep_runtime_class()
        lookup.defineClass(jpype.JArray(jpype.JByte)(data))
        self.runtime = J(DEEP_CLASS.replace("/", "."))
        self._transformer = _transformer_class()(self._transform)
        started = time.monotonic()
        api = self.api.api
        api.addTransformer(self._transformer, True)
        loaded = [c for c in api.getAllLoadedClasses()
                  if api.isModifiableClass(c) and not c.isArray() and not c.isPrimitive()
                  and not left_out(str(c.getName()).replace(".", "/"))]
        total = len(loaded)
        step = 256
        for at in range(0, total, step):
            part = loaded[at:at + step]
            api.retransformClasses(J("java.lang.Class[]")(part))
            if progress is not None:
                progress(min(at + step, total), total)
        self.seconds = time.monotonic() - started

    def _transform(self, loader, name, being_redefined, data):
        import jpype

        if name is None:
            return None
        name = str(name)
        if left_out(name):
            return None
        try:
            original = bytes(memoryview(data))
            if _MARK in original:  # counted deep already (a test's targets)
                return None
            counted = deep_class(original, self.numbers, frozenset(self.wanted))
            self.classes += 1
            self.refused += counted.refused
            return jpype.JArray(jpype.JByte)(counted.data)
        except Exception as e:  # noqa: BLE001 - the JVM would drop it silently
            self.errors.append(f"{name.replace('/', '.')}: {type(e).__name__}: {e}")
            return None

    def targets(self, method_ids: Iterable[str]) -> list:
        """Numbers for these target method ids (the runtime makes room for them)."""
        method_ids = list(method_ids)
        self.wanted.update(method_ids)
        numbers = [self.numbers.target(m) for m in method_ids]
        self.runtime.targets(len(self.numbers.target_names))
        return numbers

    def drain(self, target: str) -> dict:
        """What the windows of ``target`` counted since the last drain: ``{"windows", "total", "copied",
        "methods"}`` for the windows that ended normally, and the same under ``"abrupt"``."""
        t = self.numbers.target(target)
        out = {}
        for normal, key in ((True, None), (False, "abrupt")):
            values = [int(v) for v in self.runtime.drain(t, normal)]
            methods = {}
            for k in range(3, len(values), 2):
                if values[k + 1]:
                    name = self.numbers.names[values[k]]
                    methods[name] = methods.get(name, 0) + values[k + 1]
            group = {"windows": values[0], "total": values[1], "copied": values[2], "methods": dict(sorted(methods.items()))}
            if key is None:
                out.update(group)
            else:
                out[key] = group
        return out


def _sharing_on() -> bool:
    import jpype

    try:
        flag = jpype.JClass("java.lang.management.ManagementFactory").getPlatformMXBean(
            jpype.JClass("com.sun.management.HotSpotDiagnosticMXBean")).getVMOption("UseSharedSpaces")
        return str(flag.getValue()) == "true"
    except Exception:  # noqa: BLE001 - Zero and others: no such option, no sharing to worry about
        return False


_made: dict = {}


def deep_counting(progress=None) -> DeepCounting:
    """The process's :class:`DeepCounting`, set up on first use."""
    if "deep" not in _made:
        _made["deep"] = DeepCounting(progress)
    return _made["deep"]


def _transformer_class():
    import jpype

    if "class" not in _made:
        @jpype.JImplements("java.lang.instrument.ClassFileTransformer")
        class DeepTransformer:
            def __init__(self, transform):
                self._transform = transform

            @jpype.JOverride
            def transform(self, *args):
                loader, name, being_redefined, _, data = args[-5:]
                return self._transform(loader, name, being_redefined, data)

        _made["class"] = DeepTransformer
    return _made["class"]
