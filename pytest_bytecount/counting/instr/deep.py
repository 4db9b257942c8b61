"""Deep counts: every method of every class, the JDK's included, adds the instructions it ran to the window of
the target activation that is open on its thread (see docs/deep.md for the rules).

Per method, one ``int`` local holds the instructions the invocation ran: an ``iinc`` at the start of each of
the method's *precise* basic blocks (a block ends after any instruction that can throw, so an exception never
leaves a block counted in part) adds the block's length. In a method with a loop, every loop head adds the
``int`` into a ``long`` local and zeroes it (one invocation may run more than 2**31 instructions; between two loop
heads the ``int`` grows by at most the method's length). Before every ``*return``, and in a catch-all handler
that rethrows, the count (a ``long``) goes to ``PytestBytecountDeep.add(n, method, token)``, which adds it only on the thread that
owns the open window and only while no excluded frame is on its stack. So a method's count is exact
whichever way it ends, and a callee's instructions are its own.

- A target method opens its window at entry (``enter(t)``) and closes it at exit (``exit(t, normal)``).
- Every counted method makes its node of the calling-context tree current at entry (``call(method)``, after a
  target's ``enter``), and its report puts its caller's back (``add``'s third argument, the token ``call``
  returned; -1 where nothing is put back: an excluded frame, and a constructor's report before its ``super(...)``).
- ``<clinit>``, ``loadClass``, the JVM's linkage upcalls (``MethodHandleNatives.link*`` and
  ``findMethodHandleType``) and the agent's ``InstrumentationImpl.transform`` exclude their whole run
  (``exclude()`` at entry, ``include()`` at every exit).
- Before each ``System.arraycopy`` its length argument, and before an array's ``clone()`` the array's length,
  go to ``copied(n)``.
- In ``java.lang.Class``, what ``getDeclaredMethods0`` and ``getDeclaredConstructors0`` return goes through
  ``sortMembers`` (an excluded frame) first: HotSpot's order follows where the names sit in memory, which changes
  from run to run, and code that walks a class's methods would do work that changes with it.
- At the end of ``java.lang.Enum``'s constructor the new constant gets its identity hash from ``pinEnum`` (an
  excluded frame), drawn from a state made from its class's name, its name and its ordinal: a constant otherwise
  keeps the hash the first code that asks draws, which follows which tests ran before.

The pass runs in two steps on one decoded method, so that it can share a method with the flat counters:
:func:`plan_deep` reads the original code (its blocks, lengths and returns), then the flat counters may be
emitted, then :func:`emit_deep` inserts the deep code around the original instructions only: the flat
counters' own code is never counted.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Optional

from ...classfile import ClassFile, CodeTooLargeError, Insn
from ...classfile import opcodes as op
from ...classfile.assemble import assemble, push_int
from ...classfile.code import AddedLocalsFrame, Handler, Label
from ...classfile.inserted_frames import this_uninitialized
from ...classfile.frames import INTEGER, LONG, UNINITIALIZED_THIS, Obj
from ..flow.graph import CANNOT_THROW, basic_blocks, block_successors, loop_heads
from ..targets import MethodId
from .emit import constructor_stretches

DEEP_CLASS = "java/lang/PytestBytecountDeep"
MAX_METHODS = 1 << 22  # method ids the runtime has room for
_ARRAYCOPY = ("java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V")
# the natives that give java.lang.Class its methods and constructors in the order the JVM keeps them (by where their
# names sit in memory, which changes from run to run): the deep pass sorts what they return (_sorted_members)
_MEMBERS = frozenset([("java/lang/Class", "getDeclaredMethods0", "(Z)[Ljava/lang/reflect/Method;"),
                      ("java/lang/Class", "getDeclaredConstructors0", "(Z)[Ljava/lang/reflect/Constructor;")])
# java.lang.Enum's constructor, Enum(String name, int ordinal): its returns give the constant its hash (pinEnum)
_ENUM_INIT = ("java/lang/Enum", "<init>", "(Ljava/lang/String;I)V")
_CALLS = frozenset([op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC])  # the calls plan_deep looks at
_LOAD_CLASS = frozenset(["(Ljava/lang/String;)Ljava/lang/Class;", "(Ljava/lang/String;Z)Ljava/lang/Class;"])
# the java.lang.invoke classes that hold pre-generated LambdaForm code: left out, like the hidden classes that
# hold the same code when it is spun at run time
HOLDERS = frozenset(f"java/lang/invoke/{n}$Holder" for n in ("LambdaForm", "DirectMethodHandle", "Invokers",
                                                               "DelegatingMethodHandle"))
LEFT_OUT_PREFIXES = ("org/jpype/", DEEP_CLASS)
# pytest-bytecount's own classes (loaders, Counters classes, the exit hook) are never counted, and neither is
# what they call: each of their methods is an excluded frame (the counting never counts itself)
OWN_PREFIX = "pytest_bytecount/"


@lru_cache(maxsize=None)
def deep_runtime_class() -> bytes:
    text = resources.files(__package__).joinpath("Deep.jasm").read_text(encoding="utf-8")
    return assemble(text, "Deep.jasm", {})


def left_out(internal_name: str) -> bool:
    """Whether the class is never touched by deep counting: its own instructions are not counted, its callees
    still are. (pytest-bytecount's own classes are touched: see :data:`OWN_PREFIX`.)"""
    return internal_name in HOLDERS or internal_name.startswith(LEFT_OUT_PREFIXES)


# Methods the JVM may run as intrinsics, without their bytecode: HotSpot's interpreter runs these Math methods,
# Reference.get and CRC32C's loops from entries of its own (Zero runs their bodies, and what they call), and its
# JIT keeps the Math.abs and sqrt intrinsics even with -XX:-InlineNatives. Their runs are left out, so that no
# JVM and no compiler changes deep counts. So is SoftReference.get, whose work depends on whether a garbage
# collection ran since the last call (it stamps the reference with the collector's clock).
INTRINSIC_FRAMES = {
    "java/lang/Math": frozenset(["sin", "cos", "tan", "abs", "sqrt", "log", "log10", "pow", "exp", "fma"]),
    "java/lang/ref/Reference": frozenset(["get"]),
    "java/lang/ref/SoftReference": frozenset(["get"]),
    "java/util/zip/CRC32C": frozenset(["updateBytes", "updateDirectByteBuffer"]),
    "java/lang/Float": frozenset(["float16ToFloat", "floatToFloat16"]),
}


# The JDK's clean-up of what the garbage collector cleared: polling reference queues, and the methods that drop
# the entries of weak and soft caches whose referents were collected. How much of it a
# call finds to do depends on when the collector last ran, not on the program: its runs are left out, so that
# identical runs give identical deep counts.
COLLECTOR_FRAMES = {
    "java/lang/ref/ReferenceQueue": frozenset(["poll", "poll0", "reallyPoll", "remove", "remove0"]),
    "java/lang/invoke/MethodType$ConcurrentWeakInternSet": frozenset(["expungeStaleElements"]),
    "jdk/internal/util/ReferencedKeyMap": frozenset(["removeStaleReferences"]),
    "java/lang/WeakPairMap": frozenset(["expungeStaleAssociations"]),
    "java/io/ClassCache": frozenset(["processQueue"]),
    "java/lang/Thread": frozenset(["processQueue"]),
    "jdk/internal/vm/ThreadContainers": frozenset(["expungeStaleEntries"]),
    "sun/util/locale/LocaleObjectCache": frozenset(["cleanStaleEntries"]),
    "sun/util/locale/provider/LocaleResources": frozenset(["removeEmptyReferences"]),
    "sun/util/resources/Bundles": frozenset(["cleanupCache"]),
    "sun/security/util/MemoryCache": frozenset(["emptyQueue"]),
    "javax/crypto/JceSecurity": frozenset(["expungeStaleWrappers"]),
    "sun/nio/ch/FileLockTable": frozenset(["removeStaleEntries"]),
    # a zip file's cache of inflaters, refilled by the Cleaner when the collector finds a stream nobody closed
    "java/util/zip/ZipFile$CleanableResource": frozenset(["getInflater", "releaseInflater"]),
}
# classes whose every method follows the collector's clock: a WeakHashMap's size, and so its resizes, its chains
# and what its views walk, are what the collector left of it (its own constructors aside: they follow their
# arguments only, and one that throws could not end its exclusion)
COLLECTOR_CLASS = "java/util/WeakHashMap"
# a thread's map of ThreadLocal values: where a ThreadLocal's probe starts follows a sequence the whole JVM shares
# (ThreadLocal.nextHashCode, a step for every ThreadLocal ever made), how far it goes follows the entries the
# thread's earlier work left in its table, and its sweeps follow the collector: every method but its constructors is
# left out (they copy an inheritable parent's values through childValue, the program's own code); ThreadLocal's
# get, set and remove, and an initialValue, stay counted
THREAD_LOCAL_MAP = "java/lang/ThreadLocal$ThreadLocalMap"


def excluded_method(owner: str, name: str, descriptor: str) -> bool:
    """Whether a run of this method, and all it calls, is left out of deep counts (work the JVM does once per
    class or per call site, may do without bytecode, or does as the garbage collector's clock says)."""
    if name in INTRINSIC_FRAMES.get(owner, ()) or name in COLLECTOR_FRAMES.get(owner, ()):
        return True
    if (owner == COLLECTOR_CLASS and name != "<init>") or owner.startswith(COLLECTOR_CLASS + "$"):
        return True
    if owner == THREAD_LOCAL_MAP and name != "<init>":
        return True
    if name == "<clinit>":
        return True
    if name == "loadClass" and descriptor in _LOAD_CLASS:
        return True
    if owner == "java/lang/invoke/MethodHandleNatives" and (name.startswith("link") or name == "findMethodHandleType"):
        return True
    return owner == "sun/instrument/InstrumentationImpl" and name == "transform"


@dataclass
class DeepPlan:
    """What :func:`emit_deep` needs from a method's original code."""

    leaders: list  # (first instruction of a block, the block's length)
    copies: list  # (instruction, "arraycopy" or "clone")
    uninit: Optional[list]  # per original instruction: whether `this` is uninitialized there (constructors)
    originals: list
    handler: bool  # False: a constructor whose uninitialized `this` moves out of local 0 gets no handler
    members: list = field(default_factory=list)  # the instructions right after a call in _MEMBERS
    heads: list = field(default_factory=list)  # the first instruction of each loop head (the int count is spilled)
    max_stack: int = 0  # the original code's


def plan_deep(method) -> Optional[DeepPlan]:
    """Read ``method``'s original code (None: it has none)."""
    if not method.has_code():
        return None
    code = method.code
    cf = method.owner
    cp = cf.constant_pool
    blocks = basic_blocks(code, precise=True)
    copies, members = [], []
    insns = code.instructions
    in_class = cf.name == "java/lang/Class"
    for at, insn in enumerate(insns):
        opcode = insn.opcode
        if opcode not in _CALLS:
            continue
        ref = cp.member_ref(insn.arg)
        if in_class and opcode != op.INVOKESTATIC and ref in _MEMBERS and at + 1 < len(insns):
            members.append(insns[at + 1])
        if opcode == op.INVOKESTATIC:
            if ref == _ARRAYCOPY:
                copies.append((insn, "arraycopy"))
        elif opcode == op.INVOKEVIRTUAL and ref[1] == "clone" and ref[0].startswith("[") \
                and ref[2] == "()Ljava/lang/Object;":
            copies.append((insn, "clone"))
    uninit = this_uninitialized(code) if method.name == "<init>" else None
    heads = loop_heads(block_successors(code, blocks), len(blocks)) or ()
    return DeepPlan([(b[0], len(b)) for b in blocks], copies, uninit, insns,
                    method.name != "<init>" or uninit is not None, members, [blocks[h][0] for h in sorted(heads)],
                    code.max_stack)


def emit_deep(method, plan: DeepPlan, method_id: Optional[int], target: Optional[int],
              runtime: str = DEEP_CLASS) -> None:
    """Insert the deep counting code into ``method`` (whose code may hold flat counters by now). ``method_id``
    None: the method is only an excluded frame (pytest-bytecount's own classes), nothing of it is counted."""
    code = method.code
    cp = method.owner.constant_pool
    owner = method.owner.name
    excluded = method_id is None or excluded_method(owner, method.name, method.descriptor)

    calls = set()  # the constant-pool indexes of the runtime's methods the deep code calls

    def call(name, desc):
        index = cp.add_methodref(runtime, name, desc)
        calls.add(index)
        return Insn(op.INVOKESTATIC, index)

    # local: the instructions the invocation ran so far; token: what call(id) returned (its node of the calling-context
    # tree replaced the caller's, put back by the report), -1 in a method that makes no node (an excluded frame)
    local, token = code.add_locals([INTEGER, INTEGER])
    # in a method with a loop, one invocation may run more than 2**31 instructions: the int is added into a long
    # at every loop head and zeroed (between two loop heads it grows by at most the method's length)
    wide = code.add_locals([LONG])[0] if plan.heads and method_id is not None else None

    def reported(keep: bool = False) -> list:
        return _tally(local, wide) + [push_int(cp, method_id),
                                      Insn(op.ICONST_M1) if keep or excluded else Insn(op.ILOAD, token),
                                      call("add", "(JII)V")]

    report = [] if method_id is None else reported()
    if excluded:
        report.append(call("include", "()V"))

    # A constructor's super(...) or this(...) call can have no handler (see emit.constructor_stretches): what the
    # constructor ran before it is reported right before it, and a target constructor opens its window right
    # after it, so that an exception from that call leaves nothing counted in part and no window open.
    init_calls = _init_calls(plan, cp)
    if target is not None and method.name == "<init>" and not init_calls:
        target = None  # a constructor whose initializing call cannot be found opens no window

    def leave(normal: bool, window: bool = True) -> list:
        if target is None or not window:
            return list(report)
        return report + [push_int(cp, target), Insn(op.ICONST_1 if normal else op.ICONST_0), call("exit", "(IZ)V")]

    start = Label()
    opening = [push_int(cp, target), call("enter", "(I)V")] if target is not None else []
    init = _entry(cp, call, None if excluded else method_id, [] if init_calls else opening, local, token)
    edits = _counting_edits(plan, local, call) if method_id is not None else {}
    if wide is not None:
        init[:0] = _spill_at_loop_heads(plan, edits, local, wide)
    # No handler of the deep code covers a return, nor the report before it (as no handler javac writes covers a
    # return), and none covers code that cannot throw (the deep code's own calls aside): java.lang.Object.<init> (a lone
    # return, whose registration of a finalizer C2 compiles as a call that may throw) keeps no handler at all.
    # HotSpot's C2 crashed compiling it with one (SIGSEGV in ciExceptionHandler::catch_klass).
    gaps = _report_at_returns(method, edits, lambda: _enum_pin(method, call) + [Label()], lambda: leave(True))
    for call_insn, _ in init_calls if method_id is not None and not excluded else ():
        edits.setdefault(id(call_insn), (call_insn, []))[1].extend(reported(keep=True) + _zeroed(local, wide))
    stretches, bounds = _handler_stretches(code, plan, cp, start)
    # the local is set first of all, before any flat counter is zeroed; the handler's range begins after both, where
    # every added local (the flat counters' and this one) holds its type, as the handler's frame says
    code.insert_many([(plan.originals[0], [start], False)] + bounds + [(after, opening, False) for _, after in init_calls]
                     + _sorted_members(plan, call) + [(i, c, True) for i, c in edits.values()])
    code.items[:0] = init
    end = Label()
    code.items.append(end)
    ends = [lab for lab, _ in stretches[1:]] + [end]
    handlers = {flag: Label() for flag in {f for _, f in stretches if f is not None}}
    ranges = [(lab, stop, handlers[flag]) for (lab, flag), stop in zip(stretches, ends) if flag is not None]
    throwing = {id(i) for i in code.items if type(i) is Insn and i.opcode not in CANNOT_THROW
                and not (i.opcode == op.INVOKESTATIC and (i.arg in calls or cp.member_ref(i.arg)[0] == runtime))}
    kept = _around_returns(code, ranges, gaps, throwing)
    code.handlers += kept
    for flag, label in sorted(handlers.items(), key=lambda fl: fl[0]):
        if any(h.handler is label for h in kept):  # a handler no range uses is not written (no dead code)
            if method.owner.major_version >= 50:
                label.frame = AddedLocalsFrame((Obj("java/lang/Throwable"),), (UNINITIALIZED_THIS,) if flag else ())
            code.items.append(label)
            code.items += leave(False, window=not (flag and init_calls)) + [Insn(op.ATHROW)]
    if code.stack_bounded:  # the flat counters declared the depth: room for the deep code's pushes too
        code.max_stack = max(code.max_stack, deep_stack(plan.max_stack))


def _tally(local: int, wide: Optional[int]) -> list:
    """Push the invocation's count so far, a long: the int local, plus the long it spilled into (when it has one)."""
    return [Insn(op.ILOAD, local), Insn(op.I2L)] + ([Insn(op.LLOAD, wide), Insn(op.LADD)] if wide is not None else [])


def _zeroed(local: int, wide: Optional[int]) -> list:
    return [Insn(op.ICONST_0), Insn(op.ISTORE, local)] + ([Insn(op.LCONST_0), Insn(op.LSTORE, wide)]
                                                          if wide is not None else [])


def _spill_at_loop_heads(plan: DeepPlan, edits: dict, local: int, wide: int) -> list:
    """At every loop head the int count is added into the long ``wide`` and zeroed (between two loop heads it grows
    by at most the method's length, so it never wraps); returns the long's set-up, for the method's entry."""
    for head in plan.heads:
        edits.setdefault(id(head), (head, []))[1][:0] = [Insn(op.LLOAD, wide), *_tally(local, None), Insn(op.LADD),
                                                          Insn(op.LSTORE, wide), Insn(op.ICONST_0),
                                                          Insn(op.ISTORE, local)]
    return [Insn(op.LCONST_0), Insn(op.LSTORE, wide)]


def _report_at_returns(method, edits: dict, before, report) -> list:
    """Before each return (the flat counters' shared exit, if any, holds one of its own): ``before()`` (ending with
    the label no handler covers from there on) and ``report()``, fresh for each; returns [(that label, the return)]."""
    gaps = []
    for insn in method.code.items:
        if type(insn) is Insn and insn.opcode in op.RETURNS:
            pinned = before()
            gaps.append((pinned[-1], insn))
            edits.setdefault(id(insn), (insn, []))[1].extend(pinned + report())
    return gaps


def deep_stack(original: int) -> int:
    """The depth the deep code needs: 4 above any original depth (a report under a return value, its count a long;
    a spill at a loop head; a copy's length: 2), 5 in the handler (the exception, the count, the number, the token)."""
    return max(original + 4, 5)


def _entry(cp, call, method_id: Optional[int], opening: list, local: int, token: int) -> list:
    """The code at a method's start: its count set to 0, an excluded frame begun (``method_id`` None), the target's
    window opened (``opening``), and then the method's node of the calling-context tree made (``token``; -1 in an
    excluded frame), after the window opened so that the target is a node of its own window's tree."""
    init = [Insn(op.ICONST_0), Insn(op.ISTORE, local)]
    if method_id is None:
        init.append(call("exclude", "()V"))
    init += opening
    init += [Insn(op.ICONST_M1)] if method_id is None else [push_int(cp, method_id), call("call", "(I)I")]
    return init + [Insn(op.ISTORE, token)]


def _counting_edits(plan: DeepPlan, local: int, call) -> dict:
    """{id(instruction): (instruction, code inserted before it)}: each block's length added to ``local`` at its start,
    and each native copy's length reported before it."""
    edits: dict = {}
    for insn, length in plan.leaders:
        edits.setdefault(id(insn), (insn, []))[1].append(Insn(op.IINC, (local, length)))
    for insn, kind in plan.copies:
        extra = [Insn(op.DUP), call("copied", "(I)V")] if kind == "arraycopy" else \
            [Insn(op.DUP), Insn(op.ARRAYLENGTH), call("copied", "(I)V")]
        edits.setdefault(id(insn), (insn, []))[1].extend(extra)
    return edits


def _enum_pin(method, call) -> list:
    """In java.lang.Enum's constructor, the code that gives the new constant its identity hash before a return
    (``pinEnum(this, name, ordinal)``); elsewhere nothing."""
    if (method.owner.name, method.name, method.descriptor) != _ENUM_INIT:
        return []
    return [Insn(op.ALOAD_0), Insn(op.ALOAD_1), Insn(op.ILOAD_2),
            call("pinEnum", "(Ljava/lang/Object;Ljava/lang/String;I)V")]


def _handler_stretches(code, plan: DeepPlan, cp, start: Label) -> tuple:
    """The stretches of one catch-all handler each, as (start label, `this` uninitialized?; None: no handler), and
    the labels to insert where they begin: one over the whole method, or in a constructor one per state of `this`
    in the code as it is now (the flat counters' code, if any, included) and none over the call that initializes
    it (:func:`~.emit.constructor_stretches`)."""
    if plan.uninit is None:
        return [(start, False if plan.handler else None)], []
    flags = this_uninitialized(code)
    if flags is None:
        return [(start, None)], []
    return constructor_stretches(code.instructions, flags, cp, start)


def _sorted_members(plan: DeepPlan, call) -> list:
    """Edits that sort what the JVM returned for a class's members right after the call (the fall-through path
    only: the inserted code stands before the labels of the instruction that follows)."""
    return [(after, [Insn(op.DUP), call("sortMembers", "([Ljava/lang/Object;)V")], False) for after in plan.members]


def _around_returns(code, ranges: list, gaps: list, throwing: set) -> list:
    """Catch-all handlers over ``ranges`` ([(start, end, handler label)]) that leave out each gap (from the label
    before a return's report to the return itself): the handlers of the ranges' pieces that hold an instruction
    of ``throwing`` (ids of the instructions that can throw, the deep code's own calls aside)."""
    ends = {id(ret) for _, ret in gaps}  # a label right after each return ends its gap
    items, pos, thrown = [], {}, []  # the items, each one's position, the positions of those in `throwing`
    append = items.append
    for item in code.items:
        key = id(item)
        pos[key] = len(items)
        if key in throwing:
            thrown.append(len(items))
        append(item)
        if key in ends:
            append(Label())
    code.items = items
    gaps = sorted((pos[id(gap)], pos[id(ret)] + 1) for gap, ret in gaps)
    handlers = []
    for start, stop, handler in ranges:
        a, b = pos[id(start)], pos[id(stop)]
        pieces, at = [], a
        for g0, g1 in gaps:
            if g1 <= at or g0 >= b:
                continue
            pieces.append((at, g0))
            at = g1
        pieces.append((at, b))
        for p0, p1 in pieces:
            first = bisect_left(thrown, p0)
            if first < len(thrown) and thrown[first] < p1:
                handlers.append(Handler(items[p0], items[p1], handler, 0))
    return handlers


def _init_calls(plan: DeepPlan, cp) -> list:
    """In a constructor: each call that initializes ``this`` (``super(...)`` or ``this(...)``), with the original
    instruction after it: [(call, next)]."""
    if plan.uninit is None:
        return []
    insns, flags = plan.originals, plan.uninit
    return [(insn, insns[k + 1]) for k, insn in enumerate(insns[:-1])
            if flags[k] and flags[k + 1] is False and insn.opcode == op.INVOKESPECIAL
            and cp.member_ref(insn.arg)[1] == "<init>"]


@dataclass
class DeepClass:
    name: str
    data: bytes
    refused: list


LOCAL_BASE = MAX_METHODS // 2  # numbers from here on are a JVM's own; below, a class library's shared ones


class MethodNumbers:
    """Numbers for method ids (``pkg.Cls#name(desc)``), and the targets' own. Shared numbers (below
    :data:`LOCAL_BASE`) are the same in every JVM on one class library, so that classes counted with them can be
    kept on disk (``jvm.deep_cache``); a number :meth:`number` hands out itself is the JVM's own."""

    def __init__(self):
        self.ids: dict = {}
        self.names: dict = {}  # number -> method id
        self.next_local = LOCAL_BASE
        self.targets: dict = {}
        self.target_names: list = []

    def number(self, method_id: str) -> int:
        n = self.ids.get(method_id)
        if n is None:
            n = self.ids[method_id] = self.next_local
            if n >= MAX_METHODS:
                raise OverflowError(f"more than {MAX_METHODS - LOCAL_BASE} methods to count deep")
            self.next_local += 1
            self.names[n] = method_id
        return n

    def adopt(self, method_id: str, n: int) -> None:
        """Take the shared number ``n`` for ``method_id`` (a JVM that numbered it itself keeps its own)."""
        if n < LOCAL_BASE:
            self.ids.setdefault(method_id, n)
            self.names[n] = method_id

    def target(self, method_id: str) -> int:
        n = self.targets.get(method_id)
        if n is None:
            n = self.targets[method_id] = len(self.target_names)
            self.target_names.append(method_id)
        return n


def method_id(class_name: str, name: str, descriptor: str) -> str:
    return str(MethodId(class_name, name, descriptor))


def deep_method(m, numbers: MethodNumbers, targets: frozenset = frozenset()) -> list:
    """Count method ``m`` deep, in place (its Code attribute encoded again); the refusal messages (a method
    the counting code would make too large stays as it is)."""
    index, original = m.find_attribute("Code")
    plan = plan_deep(m)
    if plan is None:
        return []
    mid = method_id(m.owner.name, m.name, m.descriptor)
    own = m.owner.name.startswith(OWN_PREFIX)
    bound = deep_stack(m.code.max_stack)
    try:
        emit_deep(m, plan, None if own else numbers.number(mid), numbers.target(mid) if mid in targets and not own else None)
        m.code.max_stack, m.code.stack_bounded = bound, True
        m.attributes[index] = m.code.encode()
    except CodeTooLargeError as e:
        m.attributes[index] = original
        # not a target (a library's huge <clinit>, say): nothing for the user to change, only to know
        return [f"deep counts: {e}, so deep counts leave out its own instructions (what it calls is still counted)"]
    return []


def deep_class(data: bytes, numbers: MethodNumbers, targets: frozenset = frozenset(), reserve=None) -> DeepClass:
    """Every method with code of the class in ``data`` counted deep; ``targets``: the method ids among them that
    open windows. ``reserve(method ids)``, when given, numbers the class's methods first (shared numbers)."""
    cf = ClassFile.parse(data)
    if reserve is not None:
        reserve([method_id(cf.name, m.name, m.descriptor) for m in cf.methods if m.has_code()])
    refused = []
    for m in cf.methods:
        refused += deep_method(m, numbers, targets)
    return DeepClass(cf.name, cf.to_bytes(), refused)
