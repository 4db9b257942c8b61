"""The Java agent, for counting classes in place: in the class loader that loads them.

pytest-bytecount starts the JVM with ``-javaagent`` pointing at a jar it writes itself (:func:`agent_jar`):
one class, ``Agent.jasm``, assembled here, and a manifest that asks for retransformation. The agent keeps
the JVM's ``java.lang.instrument.Instrumentation``; everything else happens from Python
(:mod:`.in_place`): a ``ClassFileTransformer`` implemented through a JPype proxy counts the matched
classes as they load or are retransformed, and each counted class's Counters class is defined in the
class's own loader. A JVM started without the agent (by the application) has no instrumentation, and
in-place counting says so (:class:`AgentMissing`).
"""

from __future__ import annotations

import hashlib
import io
import tempfile
import zipfile
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Optional

from ..classfile.assemble import assemble
from ..files import write_atomically
from .process import process_jvm

AGENT_CLASS = "pytest_bytecount/Agent"
KEPT_CLASS = "pytest_bytecount/Kept"  # a transformer that answers with kept counted bytes (jvm/deep.py)
SIEVE_CLASS = "pytest_bytecount/Sieve"  # a transformer that hands Python only the classes a prefix names (in_place.py)
ORIGINALS_CLASS = "pytest_bytecount/Originals"  # a program that reads a class library's class files (deep_workers.py)
MANIFEST = ("Manifest-Version: 1.0\r\n"
            "Premain-Class: pytest_bytecount.Agent\r\n"
            "Agent-Class: pytest_bytecount.Agent\r\n"
            "Can-Redefine-Classes: true\r\n"
            "Can-Retransform-Classes: true\r\n"
            "Created-By: pytest-bytecount\r\n\r\n")


class AgentMissing(RuntimeError):
    """The running JVM was not started with pytest-bytecount's agent."""


@lru_cache(maxsize=None)
def agent_class_bytes(source: str = "Agent.jasm") -> bytes:
    """A class of the agent's jar, assembled from its text (``Agent.jasm``, ``Kept.jasm``, ...)."""
    text = resources.files(__package__).joinpath(source).read_text(encoding="utf-8")
    return assemble(text, source, {})


@lru_cache(maxsize=None)
def agent_jar_bytes() -> bytes:
    """The agent's jar, byte for byte the same on every run (fixed entry dates)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("META-INF/MANIFEST.MF", MANIFEST.encode()),
                           (f"{AGENT_CLASS}.class", agent_class_bytes()),
                           (f"{KEPT_CLASS}.class", agent_class_bytes("Kept.jasm")),
                           (f"{SIEVE_CLASS}.class", agent_class_bytes("Sieve.jasm")),
                           (f"{ORIGINALS_CLASS}.class", agent_class_bytes("Originals.jasm"))):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return out.getvalue()


def agent_jar(folder: Optional[Path] = None) -> Path:
    """The agent's jar in ``folder`` (default: the system's temporary folder), named by its content hash and
    written only when missing (atomically: JVMs of other processes may be reading it)."""
    data = agent_jar_bytes()
    folder = Path(folder or tempfile.gettempdir())
    path = folder / f"pytest-bytecount-agent-{hashlib.sha256(data).hexdigest()[:16]}.jar"
    try:
        if path.read_bytes() == data:
            return path
    except OSError:
        pass
    write_atomically(path, data)
    return path


class Instrumentation:
    """The running JVM's instrumentation API, as the agent received it, and a way to define a class in any
    class loader (``ClassLoader.defineClass``, reached through a private lookup that the agent's module is
    given by ``Instrumentation.redefineModule``: no command-line ``--add-opens`` needed)."""

    def __init__(self):
        import jpype

        J = jpype.JClass
        try:
            agent = J(AGENT_CLASS.replace("/", "."))
        except TypeError:  # JPype: no such class
            agent = None
        if agent is None or agent.INSTRUMENTATION is None:
            raise AgentMissing("the JVM in this process was not started with pytest-bytecount's agent, so classes "
                               "cannot be counted in place")
        self.api = agent.INSTRUMENTATION
        if not self.api.isRetransformClassesSupported():
            raise AgentMissing("this JVM cannot retransform classes, so classes cannot be counted in place")
        self._agent = agent
        self._opened = False
        self._define = None

    def private_lookup(self, cls):
        """A private ``MethodHandles.Lookup`` into ``cls`` (a class of ``java.lang``), the package opened to the
        agent's module on first use."""
        import jpype

        J = jpype.JClass
        if not self._opened:
            Set, Map = J("java.util.Set"), J("java.util.Map")
            self.api.redefineModule(J("java.lang.Object").class_.getModule(), Set.of(), Map.of(),
                                    Map.of("java.lang", Set.of(self._agent.class_.getModule())), Set.of(), Map.of())
            self._opened = True
        return J("java.lang.invoke.MethodHandles").privateLookupIn(cls, self._agent.LOOKUP)

    def loaded(self, dotted_names):
        """The loaded classes (any loader) of ``dotted_names``, a Java ``Set<String>``: one call into Java."""
        return self._agent.loaded(dotted_names)

    def modifiable(self, platform) -> tuple:
        """The loaded classes the JVM may change (no arrays, no primitives), in one call into Java: (a Java
        ``Class[]``, ``[(index in it, internal name, whether its loader is the boot loader or ``platform``)]``)."""
        classes, names = self._agent.modifiable(platform)
        return classes, [(i, line[1:].replace(".", "/"), line[0] == "L")
                         for i, line in enumerate(str(names).split("\n")[:-1])]

    def pick(self, classes, which: list):
        """The Java ``Class[]`` of ``classes[i]`` for each ``i`` of ``which``."""
        import jpype

        return self._agent.pick(classes, jpype.JArray(jpype.JInt)(which))

    def redefine(self, classes, which: list, data: list) -> None:
        """Redefine ``classes[which[k]]`` with the class file ``data[k]``, in one ``redefineClasses`` (whose
        exceptions it raises)."""
        import jpype

        self._agent.redefine(classes, jpype.JArray(jpype.JInt)(which), *_blob(data))

    def kept_transformer(self, platform, names: list, data: list, then):
        """A ``ClassFileTransformer`` (``Kept.jasm``) that answers, from Java, with ``data[k]`` for the class of
        internal name ``names[k]`` of the boot loader or ``platform``, and hands every other class to the
        transformer ``then``; and to ``then`` every class once its ``drop()`` is called."""
        import jpype

        return jpype.JClass(KEPT_CLASS.replace("/", "."))(platform, jpype.JArray(jpype.JString)(names), *_blob(data),
                                                           then)

    def sieve(self, prefixes: list, then):
        """A ``ClassFileTransformer`` (``Sieve.jasm``) that hands ``then`` only the classes of a class loader (not
        the boot loader) whose internal names start with one of ``prefixes``; every other class passes in Java."""
        import jpype

        return jpype.JClass(SIEVE_CLASS.replace("/", "."))(jpype.JArray(jpype.JString)(prefixes), then)

    def define(self, loader, internal_name: str, data):
        """Define the class ``data`` (a Java ``byte[]``) in ``loader``; its ``Class``."""
        import jpype

        J = jpype.JClass
        if self._define is None:  # made on first use: only classes counted in place are defined this way
            loader_class = J("java.lang.ClassLoader").class_
            MethodType = J("java.lang.invoke.MethodType")
            signature = MethodType.methodType(J("java.lang.Class").class_, J("java.lang.String").class_,
                                              J("byte[]").class_, J("int").class_, J("int").class_)
            self._define = self.private_lookup(loader_class).findVirtual(loader_class, "defineClass", signature)
        name = jpype.JString(internal_name.replace("/", "."))
        return self._define.invokeWithArguments(J("java.lang.Object[]")([loader, name, data, jpype.JInt(0),
                                                                         jpype.JInt(len(data))]))


def _blob(data: list) -> tuple:
    """Class files for Java in two arrays: a ``byte[]`` of them all, one after the other, and an ``int[]`` of where
    each ends."""
    import jpype

    ends, at = [], 0
    for d in data:
        at += len(d)
        ends.append(at)
    return jpype.JArray(jpype.JByte)(b"".join(data)), jpype.JArray(jpype.JInt)(ends)


def transformer_class():
    """A Python implementation of java.lang.instrument.ClassFileTransformer (made once the JVM runs): made with a
    function ``transform(loader, name, class being redefined, bytes)`` returning new bytes or None."""
    import jpype

    held = process_jvm()
    if held.transformer_class is None:
        @jpype.JImplements("java.lang.instrument.ClassFileTransformer")
        class Transformer:
            def __init__(self, transform):
                self._transform = transform

            @jpype.JOverride
            def transform(self, *args):
                # (module, loader, name, class being redefined, protection domain, bytes), or without module
                loader, name, being_redefined, _, data = args[-5:]
                return self._transform(loader, name, being_redefined, data)

        held.transformer_class = Transformer
    return held.transformer_class


def instrumentation() -> Instrumentation:
    """The process's :class:`Instrumentation` (:class:`AgentMissing` without the agent), made once."""
    held = process_jvm()
    if held.instrumentation is None:
        held.instrumentation = Instrumentation()
    return held.instrumentation
