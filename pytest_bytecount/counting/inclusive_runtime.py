"""``pytest_bytecount/Inclusive``: the per-thread state behind inclusive counts, assembled here.

Version 49 like ``Counters`` (no stack map frames). One instance per thread: the thread that initializes
the class finds its own in static finals (``OWNER``, ``OWNED``), which the JIT folds; any other thread in a
``ThreadLocal``, with the last one's cached in a static field whose ``owner`` is final. It holds:

- the armed call: (receiver or null, selector or exact id; 0 = nothing armed), see :mod:`.inclusive`;
- ``list[0..n)``: the targets active on this thread, a stack; ``segBase``: where the current linked
  segment starts in it. A target is active in the current segment iff ``where[t] >= segBase``;
- the segment stack: per unlinked entry, the previous ``segBase`` and armed call, restored at its exit;
- ``pend[t]``: per target a ``long[S + 2]`` of pending counter values in the batch's flat layout
  (``S`` counters), with the lowest and highest index touched at ``S`` and ``S + 1``. When the outermost
  active invocation of ``t`` completes normally, its non-zero values are added to
  ``Counters`` at ``(t + 1) * S + i``; when it ends by an exception they are zeroed.

Instrumented methods call ``long enter(Object self, int selector, int id, int target)`` at entry (the
token: segment depth << 32 | list length << 2 | unlinked << 1 | pushed), ``add(first, v0..vN)`` instead
of ``Counters.add`` for their normal report (flat counts plus every target active in the segment),
``leave(token)`` after it, ``fail(token)`` from their catch-all handler before rethrowing, and
``arm(receiver or null, selector or id)`` / ``clear()`` around calls that may reach an instrumented
method. Every exception handler of an instrumented method calls ``resync(token)``, and every exit first
drops the list entries and segments above its own, which a frame may have left behind without running
its exit hook (an exception out of a constructor's ``super(...)`` call, which no handler may cover): the
state is repaired at the next instrumented handler or exit below. Nothing allocates per call except a
target entered again through a callback while active below (a fresh pending buffer) and the first
activation of a target on a thread.
"""

from __future__ import annotations

from typing import Iterable

from ..classfile import opcodes as op
from ..classfile.access import ACC_FINAL, ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC
from ..classfile.assemble import add_field, add_method, new_class, push_int
from ..classfile.code import Insn, Label
from .inclusive import INCLUSIVE_CLASS
from .runtime import RUNTIME_CLASS, add_descriptor

_FIELDS = {
    "owner": "Ljava/lang/Thread;", "armRecv": "Ljava/lang/Object;", "armSel": "I", "list": "[I",
    "prevWhere": "[I", "prevPend": "[Ljava/lang/Object;", "n": "I", "segBase": "I", "segBases": "[I",
    "segRecv": "[Ljava/lang/Object;", "segSel": "[I", "segDepth": "I", "where": "[I", "pend": "[[J",
}
_SELF = f"L{INCLUSIVE_CLASS};"


def build_inclusive_class(flat_size: int, n_targets: int, arities: Iterable[tuple]) -> bytes:
    """The Inclusive class for a batch of ``flat_size`` flat counters and ``n_targets`` targets."""
    S = flat_size
    cf = new_class(INCLUSIVE_CLASS)
    cp = cf.constant_pool
    I = Insn
    add_field(cf, "LOCAL", "Ljava/lang/ThreadLocal;", ACC_PRIVATE | ACC_STATIC | ACC_FINAL)
    add_field(cf, "LAST", _SELF, ACC_PRIVATE | ACC_STATIC)
    add_field(cf, "OWNER", "Ljava/lang/Thread;", ACC_PRIVATE | ACC_STATIC | ACC_FINAL)
    add_field(cf, "OWNED", _SELF, ACC_PRIVATE | ACC_STATIC | ACC_FINAL)
    for name, desc in _FIELDS.items():
        add_field(cf, name, desc, ACC_PRIVATE | (ACC_FINAL if name == "owner" else 0))
    local = cp.add_fieldref(INCLUSIVE_CLASS, "LOCAL", "Ljava/lang/ThreadLocal;")
    last = cp.add_fieldref(INCLUSIVE_CLASS, "LAST", _SELF)
    owner_thread = cp.add_fieldref(INCLUSIVE_CLASS, "OWNER", "Ljava/lang/Thread;")
    owned = cp.add_fieldref(INCLUSIVE_CLASS, "OWNED", _SELF)

    def get(name):
        return I(op.GETFIELD, cp.add_fieldref(INCLUSIVE_CLASS, name, _FIELDS[name]))

    def put(name):
        return I(op.PUTFIELD, cp.add_fieldref(INCLUSIVE_CLASS, name, _FIELDS[name]))

    def call(owner, name, desc, opcode=op.INVOKESTATIC):
        return I(opcode, cp.add_methodref(owner, name, desc))

    def mine(name, desc):
        return call(INCLUSIVE_CLASS, name, desc)

    def current_thread():
        return call("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;")

    def state():  # a fresh instruction per use: an Insn stands at one place in one method
        return mine("state", "()" + _SELF)

    klass = cp.add_class(INCLUSIVE_CLASS)

    # the thread that initializes the class owns an instance in static finals, which the JIT folds
    add_method(cf, "<clinit>", "()V", ACC_STATIC, [
        I(op.NEW, cp.add_class("java/lang/ThreadLocal")), I(op.DUP),
        call("java/lang/ThreadLocal", "<init>", "()V", op.INVOKESPECIAL), I(op.PUTSTATIC, local),
        current_thread(), I(op.PUTSTATIC, owner_thread),
        I(op.NEW, klass), I(op.DUP), call(INCLUSIVE_CLASS, "<init>", "()V", op.INVOKESPECIAL), I(op.PUTSTATIC, owned),
        I(op.RETURN)])

    init = [I(op.ALOAD_0), call("java/lang/Object", "<init>", "()V", op.INVOKESPECIAL),
            I(op.ALOAD_0), current_thread(), put("owner")]
    for name in ("list", "prevWhere", "segBases", "segSel"):
        init += [I(op.ALOAD_0), I(op.BIPUSH, 8), I(op.NEWARRAY, 10), put(name)]
    for name in ("prevPend", "segRecv"):
        init += [I(op.ALOAD_0), I(op.BIPUSH, 8), I(op.ANEWARRAY, cp.add_class("java/lang/Object")), put(name)]
    init += [I(op.ALOAD_0), push_int(cp, n_targets), I(op.NEWARRAY, 10), I(op.DUP), I(op.ICONST_M1),
             call("java/util/Arrays", "fill", "([II)V"), put("where"),
             I(op.ALOAD_0), push_int(cp, n_targets), I(op.ANEWARRAY, cp.add_class("[J")), put("pend"),
             I(op.RETURN)]
    add_method(cf, "<init>", "()V", ACC_PRIVATE, init)

    # static Inclusive state(): this thread's instance; the fast path small enough to inline everywhere
    slow, have = Label(), Label()
    other = Label()
    add_method(cf, "state", "()" + _SELF, ACC_STATIC, [
        current_thread(), I(op.GETSTATIC, owner_thread), I(op.IF_ACMPNE, other), I(op.GETSTATIC, owned), I(op.ARETURN),
        other,
        I(op.GETSTATIC, last), I(op.DUP), I(op.IFNULL, slow),
        I(op.DUP), get("owner"), current_thread(), I(op.IF_ACMPNE, slow), I(op.ARETURN),
        slow,
        I(op.POP), mine("register", "()" + _SELF), I(op.ARETURN)])
    add_method(cf, "register", "()" + _SELF, ACC_STATIC, [
        I(op.GETSTATIC, local), call("java/lang/ThreadLocal", "get", "()Ljava/lang/Object;", op.INVOKEVIRTUAL),
        I(op.CHECKCAST, klass), I(op.ASTORE_0), I(op.ALOAD_0), I(op.IFNONNULL, have),
        I(op.NEW, klass), I(op.DUP), call(INCLUSIVE_CLASS, "<init>", "()V", op.INVOKESPECIAL), I(op.ASTORE_0),
        I(op.GETSTATIC, local), I(op.ALOAD_0),
        call("java/lang/ThreadLocal", "set", "(Ljava/lang/Object;)V", op.INVOKEVIRTUAL),
        have,
        I(op.ALOAD_0), I(op.PUTSTATIC, last), I(op.ALOAD_0), I(op.ARETURN)])

    # static void grow(Inclusive s, which): double the arrays of the active list or of the segment stack
    def grow(fields) -> list:
        out = []
        for name in fields:
            desc = _FIELDS[name]
            copy = call("java/util/Arrays", "copyOf", "([II)[I") if desc == "[I" else \
                call("java/util/Arrays", "copyOf", "([Ljava/lang/Object;I)[Ljava/lang/Object;")
            out += [I(op.ALOAD_0), I(op.ALOAD_0), get(name), I(op.ALOAD_0), get(name), I(op.ARRAYLENGTH),
                    I(op.ICONST_2), I(op.IMUL), copy]
            if desc != "[I":
                out.append(I(op.CHECKCAST, cp.add_class("[Ljava/lang/Object;")))
            out.append(put(name))
        return out + [I(op.RETURN)]

    add_method(cf, "growList", f"({_SELF})V", ACC_STATIC, grow(("list", "prevWhere", "prevPend")))
    add_method(cf, "growSegments", f"({_SELF})V", ACC_STATIC, grow(("segBases", "segRecv", "segSel")))

    # static void push(Inclusive s, int t): t becomes active in the current segment
    room, fresh, alloc, keep = Label(), Label(), Label(), Label()
    add_method(cf, "push", f"({_SELF}I)V", ACC_STATIC, [
        I(op.ALOAD_0), get("n"), I(op.ISTORE_2),
        I(op.ILOAD_2), I(op.ALOAD_0), get("list"), I(op.ARRAYLENGTH), I(op.IF_ICMPLT, room),
        I(op.ALOAD_0), mine("growList", f"({_SELF})V"),
        room,
        I(op.ALOAD_0), get("list"), I(op.ILOAD_2), I(op.ILOAD_1), I(op.IASTORE),
        I(op.ALOAD_0), get("where"), I(op.ILOAD_1), I(op.IALOAD), I(op.ISTORE_3),
        I(op.ALOAD_0), get("prevWhere"), I(op.ILOAD_2), I(op.ILOAD_3), I(op.IASTORE),
        I(op.ALOAD_0), get("pend"), I(op.ILOAD_1), I(op.AALOAD), I(op.ASTORE, 4),
        I(op.ILOAD_3), I(op.IFGE, fresh),
        I(op.ALOAD, 4), I(op.IFNONNULL, keep), I(op.GOTO, alloc),
        fresh,  # active in an older segment: keep its buffer aside, start a new one (rare: allocates)
        I(op.ALOAD_0), get("prevPend"), I(op.ILOAD_2), I(op.ALOAD, 4), I(op.AASTORE),
        alloc,
        push_int(cp, S + 2), I(op.NEWARRAY, 11), I(op.ASTORE, 4),
        I(op.ALOAD, 4), push_int(cp, S), push_int(cp, S), I(op.I2L), I(op.LASTORE),
        I(op.ALOAD_0), get("pend"), I(op.ILOAD_1), I(op.ALOAD, 4), I(op.AASTORE),
        keep,
        I(op.ALOAD_0), get("where"), I(op.ILOAD_1), I(op.ILOAD_2), I(op.IASTORE),
        I(op.ALOAD_0), I(op.ILOAD_2), I(op.ICONST_1), I(op.IADD), put("n"),
        I(op.RETURN)])

    # static void pop(Inclusive s, boolean commit): the top target's outermost invocation ended
    loop, done, nonzero_skip, zero, ret = Label(), Label(), Label(), Label(), Label()
    add_method(cf, "pop", f"({_SELF}Z)V", ACC_STATIC, [
        I(op.ALOAD_0), get("n"), I(op.ICONST_1), I(op.ISUB), I(op.ISTORE_2),
        I(op.ALOAD_0), I(op.ILOAD_2), put("n"),
        I(op.ALOAD_0), get("list"), I(op.ILOAD_2), I(op.IALOAD), I(op.ISTORE_3),
        I(op.ALOAD_0), get("pend"), I(op.ILOAD_3), I(op.AALOAD), I(op.ASTORE, 4),
        I(op.ALOAD, 4), push_int(cp, S + 1), I(op.LALOAD), I(op.L2I), I(op.ISTORE, 6),
        I(op.ILOAD_3), I(op.ICONST_1), I(op.IADD), push_int(cp, S), I(op.IMUL), I(op.ISTORE, 7),
        I(op.ALOAD, 4), push_int(cp, S), I(op.LALOAD), I(op.L2I), I(op.ISTORE, 8),
        loop,
        I(op.ILOAD, 8), I(op.ILOAD, 6), I(op.IF_ICMPGE, done),
        I(op.ALOAD, 4), I(op.ILOAD, 8), I(op.LALOAD), I(op.LSTORE, 9),
        I(op.LLOAD, 9), I(op.LCONST_0), I(op.LCMP), I(op.IFEQ, nonzero_skip),
        I(op.ILOAD_1), I(op.IFEQ, zero),
        I(op.ILOAD, 7), I(op.ILOAD, 8), I(op.IADD), I(op.LLOAD, 9), call(RUNTIME_CLASS, "add", add_descriptor(1, "J")),
        zero,
        I(op.ALOAD, 4), I(op.ILOAD, 8), I(op.LCONST_0), I(op.LASTORE),
        nonzero_skip,
        I(op.IINC, (8, 1)), I(op.GOTO, loop),
        done,
        I(op.ALOAD, 4), push_int(cp, S), push_int(cp, S), I(op.I2L), I(op.LASTORE),
        I(op.ALOAD, 4), push_int(cp, S + 1), I(op.LCONST_0), I(op.LASTORE),
        I(op.ALOAD_0), get("where"), I(op.ILOAD_3), I(op.ALOAD_0), get("prevWhere"), I(op.ILOAD_2), I(op.IALOAD),
        I(op.IASTORE),
        I(op.ALOAD_0), get("prevPend"), I(op.ILOAD_2), I(op.AALOAD), I(op.ASTORE, 11),
        I(op.ALOAD, 11), I(op.IFNULL, ret),
        I(op.ALOAD_0), get("pend"), I(op.ILOAD_3), I(op.ALOAD, 11), I(op.CHECKCAST, cp.add_class("[J")), I(op.AASTORE),
        I(op.ALOAD_0), get("prevPend"), I(op.ILOAD_2), I(op.ACONST_NULL), I(op.AASTORE),
        ret,
        I(op.RETURN)])

    # public static long enter(Object self, int selector, int id, int target)
    unlinked, linked, room, done = Label(), Label(), Label(), Label()
    add_method(cf, "enter", "(Ljava/lang/Object;III)J", ACC_PUBLIC | ACC_STATIC, [
        state(), I(op.ASTORE, 4),
        I(op.ALOAD, 4), get("segDepth"), I(op.I2L), I(op.BIPUSH, 32), I(op.LSHL),
        I(op.ALOAD, 4), get("n"), I(op.I2L), I(op.ICONST_2), I(op.LSHL), I(op.LOR), I(op.LSTORE, 5),
        I(op.ALOAD, 4), get("armSel"), I(op.ISTORE, 7),
        I(op.ILOAD, 7), I(op.IFEQ, unlinked),
        I(op.ILOAD, 7), I(op.ILOAD_2), I(op.IF_ICMPEQ, linked),
        I(op.ILOAD, 7), I(op.ILOAD_1), I(op.IF_ICMPNE, unlinked),
        I(op.ALOAD, 4), get("armRecv"), I(op.ALOAD_0), I(op.IF_ACMPEQ, linked),
        unlinked,  # a new segment: remember the previous one and the armed call, restored at exit
        I(op.ALOAD, 4), get("segDepth"), I(op.ISTORE, 8),
        I(op.ILOAD, 8), I(op.ALOAD, 4), get("segBases"), I(op.ARRAYLENGTH), I(op.IF_ICMPLT, room),
        I(op.ALOAD, 4), mine("growSegments", f"({_SELF})V"),
        room,
        I(op.ALOAD, 4), get("segBases"), I(op.ILOAD, 8), I(op.ALOAD, 4), get("segBase"), I(op.IASTORE),
        I(op.ALOAD, 4), get("segRecv"), I(op.ILOAD, 8), I(op.ALOAD, 4), get("armRecv"), I(op.AASTORE),
        I(op.ALOAD, 4), get("segSel"), I(op.ILOAD, 8), I(op.ILOAD, 7), I(op.IASTORE),
        I(op.ALOAD, 4), I(op.ILOAD, 8), I(op.ICONST_1), I(op.IADD), put("segDepth"),
        I(op.ALOAD, 4), I(op.ALOAD, 4), get("n"), put("segBase"),
        I(op.LLOAD, 5), I(op.ICONST_2), I(op.I2L), I(op.LOR), I(op.LSTORE, 5),
        linked,
        I(op.ALOAD, 4), I(op.ACONST_NULL), put("armRecv"), I(op.ALOAD, 4), I(op.ICONST_0), put("armSel"),
        I(op.ILOAD_3), I(op.IFLT, done),
        I(op.ALOAD, 4), get("where"), I(op.ILOAD_3), I(op.IALOAD), I(op.ALOAD, 4), get("segBase"),
        I(op.IF_ICMPGE, done),
        I(op.ALOAD, 4), I(op.ILOAD_3), mine("push", f"({_SELF}I)V"),
        I(op.LLOAD, 5), I(op.LCONST_1), I(op.LOR), I(op.LSTORE, 5),
        done,
        I(op.LLOAD, 5), I(op.LRETURN)])

    # static void unwind(Inclusive s, int keep, int depth): drop the list entries above ``keep`` and the
    # segments above ``depth`` that frames left behind without running their exit hook
    loop, after, clear_loop, ret = Label(), Label(), Label(), Label()
    add_method(cf, "unwind", f"({_SELF}II)V", ACC_STATIC, [
        loop,
        I(op.ALOAD_0), get("n"), I(op.ILOAD_1), I(op.IF_ICMPLE, after),
        I(op.ALOAD_0), I(op.ICONST_0), mine("pop", f"({_SELF}Z)V"), I(op.GOTO, loop),
        after,
        I(op.ALOAD_0), get("segDepth"), I(op.ILOAD_2), I(op.IF_ICMPLE, ret),
        I(op.ALOAD_0), I(op.ALOAD_0), get("segBases"), I(op.ILOAD_2), I(op.IALOAD), put("segBase"),
        I(op.ILOAD_2), I(op.ISTORE_3),
        clear_loop,  # forget the receivers those segments kept
        I(op.ALOAD_0), get("segRecv"), I(op.ILOAD_3), I(op.ACONST_NULL), I(op.AASTORE), I(op.IINC, (3, 1)),
        I(op.ILOAD_3), I(op.ALOAD_0), get("segDepth"), I(op.IF_ICMPLT, clear_loop),
        I(op.ALOAD_0), I(op.ILOAD_2), put("segDepth"),
        ret,
        I(op.RETURN)])

    def unwind():
        return mine("unwind", f"({_SELF}II)V")

    def keep_and_depth(token_slot: int) -> list:
        """Push keep = list length at entry + pushed, depth = segment depth at entry + unlinked."""
        return [I(op.LLOAD, token_slot), I(op.L2I), I(op.ICONST_2), I(op.IUSHR),
                I(op.LLOAD, token_slot), I(op.L2I), I(op.ICONST_1), I(op.IAND), I(op.IADD),
                I(op.LLOAD, token_slot), I(op.BIPUSH, 32), I(op.LUSHR), I(op.L2I),
                I(op.LLOAD, token_slot), I(op.L2I), I(op.ICONST_1), I(op.ISHR), I(op.ICONST_1), I(op.IAND), I(op.IADD)]

    # static void exit(Inclusive s, long token, boolean normal): locals 4 keep, 5 depth
    segs, linked_exit, ret = Label(), Label(), Label()
    add_method(cf, "exit", f"({_SELF}JZ)V", ACC_STATIC, [
        *keep_and_depth(1), I(op.ISTORE, 5), I(op.ISTORE, 4),
        I(op.ALOAD_0), I(op.ILOAD, 4), I(op.ILOAD, 5), unwind(),
        I(op.LLOAD_1), I(op.L2I), I(op.ICONST_1), I(op.IAND), I(op.IFEQ, segs),
        I(op.ALOAD_0), get("n"), I(op.ILOAD, 4), I(op.IF_ICMPNE, segs),
        I(op.ALOAD_0), I(op.ILOAD_3), mine("pop", f"({_SELF}Z)V"),
        segs,
        I(op.LLOAD_1), I(op.L2I), I(op.ICONST_2), I(op.IAND), I(op.IFEQ, linked_exit),
        I(op.ALOAD_0), get("segDepth"), I(op.ILOAD, 5), I(op.IF_ICMPNE, ret),
        I(op.IINC, (5, -1)),  # this invocation's own segment: back to the one below, and its armed call
        I(op.ALOAD_0), I(op.ILOAD, 5), put("segDepth"),
        I(op.ALOAD_0), I(op.ALOAD_0), get("segBases"), I(op.ILOAD, 5), I(op.IALOAD), put("segBase"),
        I(op.ALOAD_0), I(op.ALOAD_0), get("segRecv"), I(op.ILOAD, 5), I(op.AALOAD), put("armRecv"),
        I(op.ALOAD_0), I(op.ALOAD_0), get("segSel"), I(op.ILOAD, 5), I(op.IALOAD), put("armSel"),
        I(op.ALOAD_0), get("segRecv"), I(op.ILOAD, 5), I(op.ACONST_NULL), I(op.AASTORE),
        I(op.RETURN),
        linked_exit,
        I(op.ALOAD_0), I(op.ACONST_NULL), put("armRecv"), I(op.ALOAD_0), I(op.ICONST_0), put("armSel"),
        ret,
        I(op.RETURN)])

    # public static void resync(long token): at a handler of an instrumented method every frame above it
    # is gone; drop what they left behind (a constructor's super(...) call that threw, see above)
    add_method(cf, "resync", "(J)V", ACC_PUBLIC | ACC_STATIC, [
        state(), I(op.ASTORE_2), I(op.ALOAD_2), *keep_and_depth(0), unwind(),
        I(op.ALOAD_2), I(op.ACONST_NULL), put("armRecv"), I(op.ALOAD_2), I(op.ICONST_0), put("armSel"),
        I(op.RETURN)])

    # leave(token) after a normal completion; the common case, a linked invocation of a method that is
    # not an outermost target, with nothing left behind above it, has nothing to undo
    slow = Label()
    add_method(cf, "leave", "(J)V", ACC_PUBLIC | ACC_STATIC, [
        state(), I(op.ASTORE_2),
        I(op.LLOAD_0), I(op.L2I), I(op.ICONST_3), I(op.IAND), I(op.IFNE, slow),
        I(op.ALOAD_2), get("n"), I(op.LLOAD_0), I(op.L2I), I(op.ICONST_2), I(op.IUSHR), I(op.IF_ICMPNE, slow),
        I(op.ALOAD_2), get("segDepth"), I(op.LLOAD_0), I(op.BIPUSH, 32), I(op.LUSHR), I(op.L2I), I(op.IF_ICMPNE, slow),
        I(op.RETURN),
        slow,
        I(op.ALOAD_2), I(op.LLOAD_0), I(op.ICONST_1), mine("exit", f"({_SELF}JZ)V"), I(op.RETURN)])
    add_method(cf, "fail", "(J)V", ACC_PUBLIC | ACC_STATIC, [
        state(), I(op.LLOAD_0), I(op.ICONST_0), mine("exit", f"({_SELF}JZ)V"), I(op.RETURN)])
    add_method(cf, "arm", "(Ljava/lang/Object;I)V", ACC_PUBLIC | ACC_STATIC, [
        state(), I(op.ASTORE_2), I(op.ALOAD_2), I(op.ALOAD_0), put("armRecv"), I(op.ALOAD_2), I(op.ILOAD_1),
        put("armSel"), I(op.RETURN)])
    add_method(cf, "clear", "()V", ACC_PUBLIC | ACC_STATIC, [
        state(), I(op.DUP), I(op.ACONST_NULL), put("armRecv"), I(op.ICONST_0), put("armSel"), I(op.RETURN)])

    # public static void add(int first, v0..vN): the flat report, then every target active in the segment
    for kind, n in sorted(set(arities)):
        width = 2 if kind == "J" else 1
        s, k, p = 1 + width * n, 2 + width * n, 3 + width * n
        loop, done, skip_lo, skip_hi = Label(), Label(), Label(), Label()
        items = [I(op.ILOAD_0)]
        for i in range(n):
            items.append(I(op.LLOAD if kind == "J" else op.ILOAD, 1 + width * i))
        items += [call(RUNTIME_CLASS, "add", add_descriptor(n, kind)),
                  state(), I(op.ASTORE, s), I(op.ALOAD, s), get("segBase"), I(op.ISTORE, k),
                  loop,
                  I(op.ILOAD, k), I(op.ALOAD, s), get("n"), I(op.IF_ICMPGE, done),
                  I(op.ALOAD, s), get("pend"), I(op.ALOAD, s), get("list"), I(op.ILOAD, k), I(op.IALOAD), I(op.AALOAD),
                  I(op.ASTORE, p)]
        for i in range(n):
            value = [I(op.LLOAD, 1 + 2 * i)] if kind == "J" else [I(op.ILOAD, 1 + i), I(op.I2L)]
            items += [I(op.ALOAD, p), I(op.ILOAD_0), push_int(cp, i), I(op.IADD), I(op.DUP2), I(op.LALOAD), *value,
                      I(op.LADD), I(op.LASTORE)]
        end = [I(op.ILOAD_0), push_int(cp, n), I(op.IADD), I(op.I2L)]  # first + n, as a long
        items += [I(op.ALOAD, p), push_int(cp, S), I(op.LALOAD), I(op.ILOAD_0), I(op.I2L), I(op.LCMP),
                  I(op.IFLE, skip_lo),
                  I(op.ALOAD, p), push_int(cp, S), I(op.ILOAD_0), I(op.I2L), I(op.LASTORE),
                  skip_lo,
                  I(op.ALOAD, p), push_int(cp, S + 1), I(op.LALOAD), *end, I(op.LCMP), I(op.IFGE, skip_hi),
                  I(op.ALOAD, p), push_int(cp, S + 1), *end, I(op.LASTORE),
                  skip_hi,
                  I(op.IINC, (k, 1)), I(op.GOTO, loop),
                  done,
                  I(op.RETURN)]
        add_method(cf, "add", add_descriptor(n, kind), ACC_PUBLIC | ACC_STATIC, items)
    return cf.to_bytes()
