"""The code fingerprints (:func:`~..counts.keys.code_fingerprint`) of the application methods a test's work ran
through, read from the classpath: kept with the baseline's trees, they tell which callee's code changed when a
target's own bytecode did not.

Only classes the classpath holds are read (the JDK's are not: a change of the class library is told by the deep
counts' runtime identity); each class is read and fingerprinted once per :class:`CalleeCode`.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ...classfile import ClassFile
from ...classfile.classpath import Classpath
from ..counts.keys import INVOKES, bootstrap_methods, call_key, code_fingerprint, instruction_lines


def class_fingerprints(data: bytes) -> dict:
    """``{method id: fingerprint}`` of every method with code in the class file ``data``."""
    cf = ClassFile.parse(data)
    cp = cf.constant_pool
    boot = bootstrap_methods(cf)
    cache: dict = {}
    owner = cf.name.replace("/", ".")
    return {f"{owner}#{m.name}{m.descriptor}": code_fingerprint(m.code, cp, boot, cache)
            for m in cf.methods if m.has_code()}


def calls_by_line(data: bytes, name: str, descriptor: str) -> Optional[dict]:
    """``{line: [call key, ...]}`` of the method's invoke instructions (lines keyed as the counts' ``lines``), or
    None when the class file has no such method with code."""
    cf = ClassFile.parse(data)
    method = next((m for m in cf.methods if m.name == name and m.descriptor == descriptor and m.has_code()), None)
    if method is None:
        return None
    code = method.code
    lines = instruction_lines(code)
    out: dict = {}
    for insn in code.instructions:
        if insn.opcode in INVOKES:
            out.setdefault(lines[id(insn)], []).append(call_key(insn, cf.constant_pool))
    return out


class CalleeCode:
    """Fingerprints of methods by id, from the classes of one classpath, each class read once."""

    def __init__(self, classpath: Classpath):
        self.classpath = classpath
        self._classes: dict = {}  # internal class name -> {method id: fingerprint}, {} when not on it or unreadable

    def _of_class(self, internal: str) -> dict:
        found = self._classes.get(internal)
        if found is None:
            found = {}
            if internal in self.classpath:
                try:
                    found = class_fingerprints(self.classpath.read(internal))
                except Exception:  # noqa: BLE001 - a class that cannot be read or decoded has no fingerprint:
                    found = {}  # its callers are not told of it, and the verdict is the same
            self._classes[internal] = found
        return found

    def fingerprint(self, method: str) -> Optional[str]:
        """The method's fingerprint, or None when its class is not on the classpath (the JDK's) or lacks it."""
        internal = method.partition("#")[0].replace(".", "/")
        return self._of_class(internal).get(method) if internal else None

    def calls_by_line(self, method: str) -> Optional[dict]:
        """:func:`calls_by_line` of a method id, from its class on the classpath (None when it is not there)."""
        internal, _, rest = method.partition("#")
        internal = internal.replace(".", "/")
        name, paren, desc = rest.partition("(")
        if not paren or internal not in self.classpath:
            return None
        try:
            return calls_by_line(self.classpath.read(internal), name, paren + desc)
        except Exception:  # noqa: BLE001 - a class that cannot be read: its lines show their own counts only
            return None

    def of(self, methods: Iterable[str]) -> dict:
        """``{method id: fingerprint}`` of those of ``methods`` the classpath holds, sorted."""
        out = {}
        for m in sorted(set(methods)):
            fp = self.fingerprint(m)
            if fp is not None:
                out[m] = fp
        return out


def callees(counts: dict) -> set:
    """The methods a test's counts say its targets' work ran through, its targets left out (their fingerprints are
    in their own counts): deep counts' ``methods`` and inclusive counts' ``methods``."""
    out = set()
    for c in counts.values():
        out.update((c.get("deep") or {}).get("methods") or ())
        out.update(m for m in (c.get("inclusive") or {}).get("methods") or () if isinstance(m, str))
    return out - set(counts)
