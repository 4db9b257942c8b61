"""Inclusive (expanded) counts: which methods a target reaches, and the code that links their invocations.

Callee discovery (the *closure* of a target): starting from the target, every ``invoke*`` instruction
except ``invokedynamic`` is followed, transitively, within the application classpath (the classes the
classpath holds; JDK classes and ``java/*`` names never):

- ``invokestatic`` and ``invokespecial`` resolve to one method: the named class, then its superclasses,
  then (non-static) its superinterfaces (JVMS 5.4.3.3, 5.4.3.4); a constructor is the named class's own.
- ``invokevirtual`` and ``invokeinterface``: class-hierarchy analysis. The resolved method plus, for every
  application subtype of the named class, the method it would select: its own, one inherited from a
  superclass (which need not be a subtype itself: ``class Crate extends Box implements Sized``) or a
  default method. When the named class is a JDK type
  (``Comparable.compareTo``, ``Object.equals``) its application subtypes are the classes that name it
  among their supertypes, and, since the JDK's own hierarchy is not read, every class with a JDK
  supertype other than ``Object`` (an over-approximation: it only costs instrumentation).
- Abstract and native methods have no code and are skipped; ``<clinit>`` is never a callee.

At run time a callee's invocation is *linked* to its caller only when the caller's instrumented invoke
armed it: the caller stores (receiver, selector) before an ``invokevirtual``/``invokeinterface`` whose
candidates hold an instrumented method, or (null, exact method id) before an
``invokestatic``/``invokespecial``; the callee's entry matches (``this``, its selector) or (null, its id)
and consumes it. A JDK method calling back into application code never matches (the same receiver and
selector would dispatch to the same JDK method), so callbacks start a segment of their own, which the
targets below them do not see. See :mod:`.inclusive_runtime` for the per-thread state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..classfile import ClassFile, ClassFormatError, Insn
from ..classfile import opcodes as op
from ..classfile.access import ACC_ABSTRACT, ACC_NATIVE, ACC_PRIVATE, ACC_STATIC
from ..classfile.assemble import push_int
from ..classfile.classpath import Classpath
from ..classfile.frames import Obj, split_method_descriptor
from .targets import MethodId

INCLUSIVE_CLASS = "pytest_bytecount/Inclusive"
_OBJECT = "java/lang/Object"


@dataclass
class _ClassInfo:
    name: str
    super_name: Optional[str]
    interfaces: list
    is_interface: bool
    methods: dict  # (name, desc) -> access flags (ACC_ABSTRACT/ACC_NATIVE: no code)
    cf: ClassFile = field(repr=False)


class Hierarchy:
    """The application classes of a classpath, read on demand: supertypes, subtypes, method lookup."""

    def __init__(self, classpath: Classpath):
        self.classpath = classpath
        self._infos: dict = {}
        self._supers: dict = {}
        self._all: Optional[list] = None
        self._candidates: dict = {}
        self._subtypes: Optional[dict] = None  # supertype -> its application subtypes, in classpath order
        self._unknown: list = []  # classes with a JDK supertype other than Object
        self._resolved: dict = {}
        self._defaults: Optional[set] = None  # (name, desc) of every application default method, once all are read

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

    def all_classes(self) -> list:
        if self._all is None:
            self._all = [n for n in self.classpath.class_names() if self.info(n) is not None]
        return self._all

    def subtypes(self, owner: str) -> list:
        """Application classes and interfaces that are (or may be) proper subtypes of ``owner``, in
        classpath order."""
        if self._subtypes is None:
            self._subtypes, self._unknown = {}, []
            for n in self.all_classes():
                names, unknown = self.supertypes(n)
                for s in names:
                    self._subtypes.setdefault(s, []).append(n)
                if unknown:
                    self._unknown.append(n)
            self._defaults = {key for n in self.all_classes() if self.info(n).is_interface
                              for key, access in self.info(n).methods.items()
                              if not access & (ACC_STATIC | ACC_PRIVATE | ACC_ABSTRACT | ACC_NATIVE)}
        if owner == _OBJECT:
            return [n for n in self.all_classes() if n != owner]
        if self.info(owner) is not None:
            return [n for n in self._subtypes.get(owner, ()) if n != owner]
        below = set(self._subtypes.get(owner, ())) | set(self._unknown)
        return [n for n in self.all_classes() if n in below and n != owner]

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
        if self._defaults is not None and key not in self._defaults:
            return None  # no application interface has a default method of that name and descriptor
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

    def candidates(self, opcode: int, owner: str, name: str, desc: str) -> list:
        """The application methods with code an invoke may run (see the module docstring)."""
        key = (opcode in (op.INVOKESTATIC, op.INVOKESPECIAL), owner, name, desc)
        found = self._candidates.get(key)
        if found is None:
            found = self._candidates[key] = self._find_candidates(opcode, owner, name, desc)
        return found

    def _find_candidates(self, opcode: int, owner: str, name: str, desc: str) -> list:
        if name == "<clinit>" or owner.startswith("["):
            return []
        if opcode in (op.INVOKESTATIC, op.INVOKESPECIAL):
            if name == "<init>":
                info = self.info(owner)
                key = (name, desc)
                return [MethodId(owner, name, desc)] if info is not None and key in info.methods \
                    and self._has_code(owner, key) else []
            # a JDK superclass does not end an invokespecial's search (super.kind() reaching a default
            # method past Object); static methods are never inherited from interfaces
            found = self.resolve(owner, name, desc, dispatched=opcode == op.INVOKESPECIAL)
            return [found] if found is not None else []
        # the method each application subtype would select (JVMS 5.4.6): its own, one it inherits from a
        # superclass (which need not be a subtype of the named class) or a default method
        found = {self.resolve(c, name, desc, dispatched=True) for c in [owner, *self.subtypes(owner)]}
        return sorted((m for m in found if m is not None), key=_order)


def _order(m: MethodId) -> tuple:
    """MethodId's own order (its fields in turn), as a key: much faster to sort by than its ``__lt__``."""
    return (m.class_name, m.name, m.descriptor)


@dataclass
class CallSite:
    exact: Optional[MethodId]  # invokestatic/invokespecial: the one method; None: dispatched by selector
    selector: tuple  # (name, descriptor)


def _invokes(hierarchy: Hierarchy, mid: MethodId):
    """(instruction, candidates) for each invoke of the method, invokedynamic excluded."""
    info = hierarchy.info(mid.class_name)
    method = info.cf.find_method(mid.name, mid.descriptor)
    cp = info.cf.constant_pool
    for insn in method.code.instructions:
        if insn.opcode in (op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE):
            index = insn.arg[0] if insn.opcode == op.INVOKEINTERFACE else insn.arg
            owner, name, desc = cp.member_ref(index)
            yield insn, hierarchy.candidates(insn.opcode, owner, name, desc)


def closure(hierarchy: Hierarchy, start: MethodId, cache: Optional[dict] = None) -> list:
    """Every method ``start`` may reach through application calls, ``start`` included, sorted."""
    cache = {} if cache is None else cache
    seen = {start}
    todo = [start]
    while todo:
        mid = todo.pop()
        if mid not in cache:
            cache[mid] = sorted({c for _, cs in _invokes(hierarchy, mid) for c in cs}, key=_order)
        for callee in cache[mid]:
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return sorted(seen, key=_order)


@dataclass
class InclusivePlan:
    """What the transform needs to link invocations: ids of the instrumented methods, selector ids,
    target indexes. Exact ids are 1.., selectors -1, -2, ..., 0 means "nothing armed"."""

    targets: list  # MethodId per target index
    methods: list  # every instrumented method (closure of all targets), sorted
    closures: dict  # target MethodId -> its closure (sorted MethodIds)
    hierarchy: Hierarchy = field(repr=False)
    ids: dict = field(default_factory=dict)
    selectors: dict = field(default_factory=dict)
    target_index: dict = field(default_factory=dict)

    def __post_init__(self):
        self.ids = {m: i + 1 for i, m in enumerate(self.methods)}
        sels = sorted({(m.name, m.descriptor) for m in self.methods if m.name != "<init>"})
        self.selectors = {s: -(i + 1) for i, s in enumerate(sels)}
        self.target_index = {m: i for i, m in enumerate(self.targets)}

    def by_class(self) -> dict:
        out: dict = {}
        for m in self.methods:
            out.setdefault(m.class_name, []).append(m)
        return out

    def hooks(self, cf, method) -> "MethodHooks":
        return MethodHooks(self, cf, method)

    def boundary_classes(self) -> list:
        """Application classes whose ``<clinit>`` gets segment-boundary hooks: the classes of the
        instrumented methods and their application supertypes. A ``<clinit>`` runs between an armed
        ``invokestatic`` and its callee (JVMS 5.5); its boundary keeps the armed call for that callee,
        even when the initializer itself calls the same method."""
        out: set = set()
        for cls in {m.class_name for m in self.methods}:
            out.add(cls)
            names, _ = self.hierarchy.supertypes(cls)
            out |= {n for n in names if self.hierarchy.info(n) is not None}
        hooked = {m.class_name for m in self.methods if m.name == "<clinit>"}
        return sorted(c for c in out - hooked if ("<clinit>", "()V") in self.hierarchy.info(c).methods)


def plan_inclusive(classpath: Classpath, targets: dict) -> InclusivePlan:
    """``targets``: {class: [MethodId]} as :func:`~.targets.resolve_targets` gives them."""
    hierarchy = Hierarchy(classpath)
    flat = sorted(m for ms in targets.values() for m in ms)
    cache: dict = {}
    closures = {t: closure(hierarchy, t, cache) for t in flat}
    methods = sorted({m for c in closures.values() for m in c}, key=_order)
    return InclusivePlan(flat, methods, closures, hierarchy)


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
    """The inclusive-mode code of one instrumented method: its entry, its exits and its armed calls.

    ``runtime`` is the support class the hooks call; the flat report of a method with hooks goes to
    ``add_owner.add_name`` (``Inclusive.add``: flat, then every active target's pending buffer)."""

    runtime = INCLUSIVE_CLASS
    key_type = "I"  # how a selector or an exact method is named at run time: an int of the batch

    def __init__(self, plan: InclusivePlan, cf, method):
        self.plan = plan
        self.cp = cf.constant_pool
        self.method = method
        self.mid = MethodId(cf.name, method.name, method.descriptor)
        self.add_owner, self.add_name = INCLUSIVE_CLASS, "add"

    def _call(self, name: str, desc: str) -> Insn:
        return Insn(op.INVOKESTATIC, self.cp.add_methodref(self.runtime, name, desc))

    def _selector(self, key: tuple) -> Insn:
        """Push the run-time name of a selector (name, descriptor); 0 when nothing can be armed with it."""
        return push_int(self.cp, self.plan.selectors.get(key, 0))

    def _exact(self, mid: MethodId) -> Insn:
        """Push the run-time name of one method."""
        return push_int(self.cp, self.plan.ids.get(mid, 0))

    def _target(self) -> Insn:
        """Push this method's target index, or -1."""
        return push_int(self.cp, self.plan.target_index.get(self.mid, -1))

    def _instrumented(self, candidates: list) -> list:
        return [c for c in candidates if c in self.plan.ids]

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

    def call_site(self, insn: Insn) -> Optional[CallSite]:
        """How to arm ``insn``, or None when it can reach no instrumented method."""
        if insn.opcode not in (op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE):
            return None
        index = insn.arg[0] if insn.opcode == op.INVOKEINTERFACE else insn.arg
        owner, name, desc = self.cp.member_ref(index)
        found = self._instrumented(self.plan.hierarchy.candidates(insn.opcode, owner, name, desc))
        if not found:
            return None
        if insn.opcode in (op.INVOKESTATIC, op.INVOKESPECIAL):
            return CallSite(found[0], (name, desc))
        return CallSite(None, (name, desc))

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
        return out

    def clear(self) -> list:
        return [self._call("clear", "()V")]

    def resync(self, token: int) -> list:
        """At an exception handler: drop what frames above left behind without their exit hook."""
        return [Insn(op.LLOAD, token), self._call("resync", "(J)V")]


@dataclass
class InclusiveTarget:
    """One target's inclusive counters: the batch's whole layout again, from ``base`` on."""

    method: MethodId
    base: int
    methods: list  # the closure's methods that were instrumented, sorted


def inclusive_weights(maps: list, key: str, kind: str, shift: int) -> list:
    """[(counter index, weight)] whose weighted sum is ``key``'s count over ``maps``, shifted."""
    return [(i + shift, w) for m in maps for i, w in m.weights(key, kind)]


def total_weights(maps: list, shift: int) -> list:
    out = []
    for m in maps:
        if m.blocks is not None:
            out += [(i + shift, w) for i, w in m.block_sizes()]
        else:
            first, end = m.opcode_range()
            out += [(i + shift, 1) for i in range(first, end)]
    return out


def add_segment_boundary(data: bytes, plan: InclusivePlan) -> bytes:
    """``data`` with its ``<clinit>`` entering and leaving a segment of its own (nothing counted):
    ``Inclusive.enter`` at entry saves and clears the armed call, ``leave``/``fail`` restore it."""
    from ..classfile.code import AddedLocalsFrame, Handler, Label
    from ..classfile.frames import LONG

    cf = ClassFile.parse(data)
    method = cf.find_method("<clinit>", "()V")
    index, _ = method.find_attribute("Code")
    code = method.code
    hooks = MethodHooks(plan, cf, method)
    token = code.add_locals([LONG])[0]
    insns = code.instructions
    start, end, handler = Label(), Label(), Label()
    edits = [(insns[0], hooks.enter(token) + [start], False)]
    edits += [(i, hooks.leave(token), True) for i in insns if i.opcode in op.RETURNS]
    code.insert_many(edits)
    handler.frame = AddedLocalsFrame((Obj("java/lang/Throwable"),))  # only the token is sure everywhere
    code.items += [end, handler, *hooks.fail(token), Insn(op.ATHROW)]
    code.handlers.append(Handler(start, end, handler, 0))
    method.attributes[index] = code.encode()
    return cf.to_bytes()
