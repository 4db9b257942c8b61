"""How calls link for inclusive counts: the code added to each counted method, and the class hierarchy it
resolves calls with.

Every method with code of every application class that loads is counted (:mod:`.linkage`). At run time a
callee's invocation is *linked* to its caller only when the caller's counted invoke armed it: the caller
stores (receiver, selector) before an ``invokevirtual``/``invokeinterface``, or (null, exact method)
before an ``invokestatic``/``invokespecial`` that resolves to an application method with code (JVMS
5.4.3.3/5.4.3.4: the named class, then its superclasses, then its superinterfaces); the callee's entry
matches (``this``, its selector) or (null, its name) and consumes it. A JDK method calling back into
application code never matches (the same receiver and selector would dispatch to the same JDK method),
so callbacks start a segment of their own, which the targets below them do not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ...classfile import ClassFile, ClassFormatError, Insn
from ...classfile import opcodes as op
from ...classfile.access import ACC_ABSTRACT, ACC_NATIVE, ACC_PRIVATE, ACC_STATIC
from ...classfile.classpath import Classpath
from ...classfile.frames import split_method_descriptor
from ..targets import MethodId

INCLUSIVE_BY_CLASS = "pytest_bytecount/InclusiveByClass"
_OBJECT = "java/lang/Object"
# final JDK classes: a virtual call on them never reaches application code, so it is not armed
_FINAL_JDK = frozenset(f"java/lang/{n}" for n in (
    "String", "StringBuilder", "StringBuffer", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
    "Double", "Float", "Class", "Math", "StrictMath", "System"))


def selector_name(name: str, descriptor: str) -> str:
    return name + descriptor


def exact_name(mid: MethodId) -> str:
    return f"{mid.class_name}.{mid.name}{mid.descriptor}"


@dataclass
class _ClassInfo:
    name: str
    super_name: Optional[str]
    interfaces: list
    is_interface: bool
    methods: dict  # (name, desc) -> access flags (ACC_ABSTRACT/ACC_NATIVE: no code)
    cf: ClassFile = field(repr=False)


class Hierarchy:
    """The application classes of a classpath, read on demand: supertypes and method resolution."""

    def __init__(self, classpath: Classpath):
        self.classpath = classpath
        self._infos: dict = {}
        self._supers: dict = {}
        self._resolved: dict = {}

    def info(self, name: str) -> Optional[_ClassInfo]:
        """The class if it is an application class (on the classpath, not ``java/*``), else None."""
        if name in self._infos:
            return self._infos[name]
        info = None
        if not name.startswith(("java/", "[")) and name in self.classpath:
            try:
                cf = ClassFile.parse(self.classpath.read(name))
                cp = cf.constant_pool
                info = _ClassInfo(cf.name, cf.super_name, [cp.class_name(i) for i in cf.interfaces],
                                  cf.is_interface(), {(m.name, m.descriptor): m.access_flags for m in cf.methods}, cf)
            except (ClassFormatError, KeyError):
                info = None
        self._infos[name] = info
        return info

    def supertypes(self, name: str) -> tuple:
        """(every supertype name reachable through application classes, the JDK ones included; whether
        some JDK supertype other than Object was reached, whose own supertypes are unknown)."""
        if name in self._supers:
            return self._supers[name]
        self._supers[name] = (frozenset(), False)  # cycles in broken class files: stop here
        info = self.info(name)
        names, unknown = set(), False
        if info is not None:
            for s in ([info.super_name] if info.super_name else []) + info.interfaces:
                names.add(s)
                if self.info(s) is None:
                    unknown = unknown or s != _OBJECT
                else:
                    more, u = self.supertypes(s)
                    names |= more
                    unknown = unknown or u
        self._supers[name] = (frozenset(names), unknown)
        return self._supers[name]

    def _has_code(self, cls: str, key: tuple) -> bool:
        access = self.info(cls).methods[key]
        return not access & (ACC_ABSTRACT | ACC_NATIVE)

    def resolve(self, owner: str, name: str, desc: str, dispatched: bool = False) -> Optional[MethodId]:
        """The method a symbolic reference resolves to when it is an application method with code
        (JVMS 5.4.3.3/5.4.3.4: the class and its superclasses, then superinterfaces), else None.
        ``dispatched``: a superclass from the JDK (whose methods are not read) does not end the search: an
        application default method may still be the one (invokevirtual, invokeinterface, invokespecial)."""
        memo = (owner, name, desc, dispatched)
        if memo not in self._resolved:
            self._resolved[memo] = self._resolve(owner, name, desc, dispatched)
        return self._resolved[memo]

    def _resolve(self, owner: str, name: str, desc: str, dispatched: bool) -> Optional[MethodId]:
        key = (name, desc)
        cls = owner
        while cls is not None:
            info = self.info(cls)
            if info is None:
                if dispatched:
                    break
                return None  # resolution goes on in the JDK
            if key in info.methods:
                return MethodId(cls, name, desc) if self._has_code(cls, key) else None
            if info.is_interface:
                break  # an interface's superclass is Object: its methods are the JDK's
            cls = info.super_name
        # maximally specific superinterface method: the first default found breadth first
        seen, queue = set(), [owner]
        while queue:
            info = self.info(queue.pop(0))
            if info is None:
                continue
            supers = info.interfaces + ([info.super_name] if info.super_name and not info.is_interface else [])
            for s in supers:
                if s in seen:
                    continue
                seen.add(s)
                si = self.info(s)
                if si is not None and si.is_interface and key in si.methods:
                    access = si.methods[key]
                    if not access & (ACC_STATIC | ACC_PRIVATE | ACC_ABSTRACT | ACC_NATIVE):
                        return MethodId(s, name, desc)
                queue.append(s)
        return None

@dataclass
class CallSite:
    exact: Optional[MethodId]  # invokestatic/invokespecial: the one method; None: dispatched by selector
    selector: tuple  # (name, descriptor)


def _value_ops(desc: str) -> list:
    """(store opcode, load opcode, slots) per argument of a method descriptor."""
    args, _ = split_method_descriptor(desc)
    out = []
    for a in args:
        if a in ("J",):
            out.append((op.LSTORE, op.LLOAD, 2))
        elif a == "D":
            out.append((op.DSTORE, op.DLOAD, 2))
        elif a == "F":
            out.append((op.FSTORE, op.FLOAD, 1))
        elif a in ("I", "Z", "B", "C", "S"):
            out.append((op.ISTORE, op.ILOAD, 1))
        else:
            out.append((op.ASTORE, op.ALOAD, 1))
    return out


class MethodHooks:
    """The inclusive-mode code of one counted method: its entry, its exits and its armed calls.

    The hooks call ``InclusiveByClass``; selectors and exact methods are named at run time by interned
    strings (see :mod:`.linkage`). The flat report of a method with hooks goes to its class's Counters class,
    ``addIn``: its flat counters, then every active target's pending buffer. ``links`` is the class's
    :class:`~.linkage.ClassLinks`."""

    runtime = INCLUSIVE_BY_CLASS
    key_type = "Ljava/lang/String;"

    def __init__(self, links, cf, method):
        self.plan = links
        self.cp = cf.constant_pool
        self.method = method
        self.mid = MethodId(cf.name, method.name, method.descriptor)
        self.add_owner, self.add_name = links.counters_name, "addIn"
        self.infers_types = cf.major_version <= 50  # verified by type inference, without stack map frames

    def _call(self, name: str, desc: str) -> Insn:
        return Insn(op.INVOKESTATIC, self.cp.add_methodref(self.runtime, name, desc))

    def enter(self, token: int) -> list:
        """``token = enter(this or null, selector, id, target index or -1)``."""
        m = self.method
        instance = not m.access_flags & ACC_STATIC and m.name != "<init>"
        k = self.key_type
        selector = self._selector((m.name, m.descriptor)) if instance else \
            Insn(op.ACONST_NULL if k != "I" else op.ICONST_0)
        return [Insn(op.ALOAD_0 if instance else op.ACONST_NULL), selector, self._exact(self.mid), self._target(),
                self._call("enter", f"(Ljava/lang/Object;{k}{k}I)J"), Insn(op.LSTORE, token)]

    def leave(self, token: int) -> list:
        return [Insn(op.LLOAD, token), self._call("leave", "(J)V")]

    def fail(self, token: int) -> list:
        return [Insn(op.LLOAD, token), self._call("fail", "(J)V")]

    def spill_slots(self, site: CallSite) -> int:
        return 0 if site.exact is not None else sum(s for _, _, s in _value_ops(site.selector[1]))

    def arm(self, site: CallSite, spill: int) -> list:
        """Code before the invoke: ``arm(null, id)``, or spill the arguments to the locals from
        ``spill`` on, ``arm(receiver, selector)`` and reload them (no branch in between, so no
        stack map frame needs those locals)."""
        arm = self._call("arm", f"(Ljava/lang/Object;{self.key_type})V")
        if site.exact is not None:
            return [Insn(op.ACONST_NULL), self._exact(site.exact), arm]
        ops = _value_ops(site.selector[1])
        slots, at = [], spill
        for _, _, size in ops:
            slots.append(at)
            at += size
        out = [Insn(store, slot) for (store, _, _), slot in reversed(list(zip(ops, slots)))]
        out += [Insn(op.DUP), self._selector(site.selector), arm]
        out += [Insn(load, slot) for (_, load, _), slot in zip(ops, slots)]
        if self.infers_types:
            # The type-inferring verifier of class files before version 50 (and 50's fallback to it) merges each
            # local's types where paths join: a spill slot left holding one call's argument class here and another's
            # there would make it load both classes to merge them, classes the original code never needed to
            # link. Emptied (null), the slot merges with anything without loading a class.
            out += [i for (store, _, _), slot in zip(ops, slots) if store == op.ASTORE
                    for i in (Insn(op.ACONST_NULL), Insn(op.ASTORE, slot))]
        return out

    def clear(self) -> list:
        return [self._call("clear", "()V")]

    def resync(self, token: int) -> list:
        """At an exception handler: drop what frames above left behind without their exit hook."""
        return [Insn(op.LLOAD, token), self._call("resync", "(J)V")]

    def _string(self, text: str) -> Insn:
        return Insn(op.LDC, self.cp.add_string(text))

    def _selector(self, key: tuple) -> Insn:
        return self._string(selector_name(*key))

    def _exact(self, mid: MethodId) -> Insn:
        return self._string(exact_name(mid))

    def _target(self) -> Insn:
        key = (self.method.name, self.method.descriptor)
        if key not in self.plan.targets:
            return Insn(op.ICONST_M1)
        field = f"T{self.plan.targets.index(key)}"
        return Insn(op.GETSTATIC, self.cp.add_fieldref(self.plan.counters_name, field, "I"))

    def call_site(self, insn: Insn) -> Optional[CallSite]:
        """How to arm ``insn`` (see the module docstring), or None."""
        if insn.opcode not in (op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE):
            return None
        index = insn.arg[0] if insn.opcode == op.INVOKEINTERFACE else insn.arg
        owner, name, desc = self.cp.member_ref(index)
        if name == "<clinit>" or owner.startswith("["):
            return None
        if insn.opcode in (op.INVOKESTATIC, op.INVOKESPECIAL):
            found = self._resolved(insn.opcode, owner, name, desc)
            return CallSite(found, (name, desc)) if found is not None else None
        if owner in _FINAL_JDK or (owner == "java/lang/Object" and name == "getClass"):
            return None
        return CallSite(None, (name, desc))

    def _resolved(self, opcode: int, owner: str, name: str, desc: str) -> Optional[MethodId]:
        hierarchy = self.plan.hierarchy
        if name == "<init>":
            info = hierarchy.info(owner)
            access = info.methods.get((name, desc)) if info is not None else None
            return MethodId(owner, name, desc) if access is not None and not access & (ACC_ABSTRACT | ACC_NATIVE) \
                else None
        return hierarchy.resolve(owner, name, desc, dispatched=opcode == op.INVOKESPECIAL)
