"""The support class instrumented code reports to, assembled here (no javac, no jar at run time).

``pytest_bytecount/Counters`` holds the counters of one instrumentation batch; each counted method owns a
contiguous range of indexes (see :mod:`.transform`). Instrumented code calls ``Counters.add(int first,
int v0, ..., int vN)`` before each return. Each thread adds into a ``long[]`` of its own, so threads never
contend and nothing is lost: the thread that initialized the class finds its array in a ``static final``
field (the JIT folds it into a constant), every other thread through a ``ThreadLocal`` (registered once
under the class lock, and remembered for the last such thread);
``Counters.snapshot()`` sums them all. No call allocates; storage is one array per thread that ran counted
code, whatever the number of invocations.

When the JVM runs with ``-Dbytecount.out=FILE`` a shutdown hook writes the contract's JSON to FILE,
following ``Counters.layout``, a resource written next to the class: a small program of one-letter
operations (see :func:`layout_program`) that prints the counts in exactly the text
:func:`pytest_bytecount.counting.counts.render_json` produces. The class is version 49, so it needs no stack map
frames and runs on any JVM from Java 5 to 25.
"""

from __future__ import annotations

from typing import Iterable

from ..classfile import opcodes as op
from ..classfile.access import ACC_FINAL, ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC, ACC_SYNCHRONIZED
from ..classfile.assemble import add_field, add_method, new_class, push_int
from ..classfile.code import Insn, Label, Switch

RUNTIME_CLASS = "pytest_bytecount/Counters"
LAYOUT_RESOURCE = "Counters.layout"
MAX_VALUES_PER_CALL = 250  # a static method has at most 255 argument slots (JVMS 4.3.3)
UNCONDITIONAL_ADDS = 8  # add() skips zero values only when it has more than this many


def add_descriptor(n_values: int, kind: str = "I") -> str:
    """``(I` + ``n_values`` values of ``kind`` (``I`` int, ``J`` long) ``)V``."""
    return "(I" + kind * n_values + ")V"


def build_runtime_class(size: int, arities: Iterable[tuple]) -> bytes:
    """The Counters class for ``size`` counters, with an ``add`` overload per (kind, arity) used."""
    cf = new_class(RUNTIME_CLASS, interfaces=["java/lang/Runnable"])
    cp = cf.constant_pool
    size = max(size, 1)
    add_field(cf, "LOCAL", "Ljava/lang/ThreadLocal;", ACC_PRIVATE | ACC_STATIC | ACC_FINAL)
    add_field(cf, "ALL", "Ljava/util/ArrayList;", ACC_PRIVATE | ACC_STATIC | ACC_FINAL)
    # public: instrumented code may test OWNER and add into OWNED itself (see emit._owner_report)
    add_field(cf, "OWNER", "Ljava/lang/Thread;", ACC_PUBLIC | ACC_STATIC | ACC_FINAL)
    add_field(cf, "OWNED", "[J", ACC_PUBLIC | ACC_STATIC | ACC_FINAL)
    local = cp.add_fieldref(RUNTIME_CLASS, "LOCAL", "Ljava/lang/ThreadLocal;")
    all_ = cp.add_fieldref(RUNTIME_CLASS, "ALL", "Ljava/util/ArrayList;")
    owner = cp.add_fieldref(RUNTIME_CLASS, "OWNER", "Ljava/lang/Thread;")
    owned = cp.add_fieldref(RUNTIME_CLASS, "OWNED", "[J")

    def call(owner, name, desc, opcode=op.INVOKEVIRTUAL, interface=False):
        return Insn(opcode, cp.add_methodref(owner, name, desc, interface))

    # static { LOCAL = new ThreadLocal(); ALL = new ArrayList();
    #          if (System.getProperty("bytecount.out") != null)
    #              Runtime.getRuntime().addShutdownHook(new Thread(new Counters())); }
    done = Label()
    add_method(cf, "<clinit>", "()V", ACC_STATIC, [
        Insn(op.NEW, cp.add_class("java/lang/ThreadLocal")), Insn(op.DUP),
        call("java/lang/ThreadLocal", "<init>", "()V", op.INVOKESPECIAL), Insn(op.PUTSTATIC, local),
        Insn(op.NEW, cp.add_class("java/util/ArrayList")), Insn(op.DUP),
        call("java/util/ArrayList", "<init>", "()V", op.INVOKESPECIAL), Insn(op.PUTSTATIC, all_),
        # OWNER = Thread.currentThread(); OWNED = new long[size]; ALL.add(OWNED);
        call("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", op.INVOKESTATIC),
        Insn(op.PUTSTATIC, owner),
        push_int(cp, size), Insn(op.NEWARRAY, 11), Insn(op.DUP), Insn(op.PUTSTATIC, owned),
        Insn(op.GETSTATIC, all_), Insn(op.SWAP), call("java/util/ArrayList", "add", "(Ljava/lang/Object;)Z"),
        Insn(op.POP),
        Insn(op.LDC_W, cp.add_string("bytecount.out")),
        call("java/lang/System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;", op.INVOKESTATIC),
        Insn(op.IFNULL, done),
        call("java/lang/Runtime", "getRuntime", "()Ljava/lang/Runtime;", op.INVOKESTATIC),
        Insn(op.NEW, cp.add_class("java/lang/Thread")), Insn(op.DUP),
        Insn(op.NEW, cp.add_class(RUNTIME_CLASS)), Insn(op.DUP),
        call(RUNTIME_CLASS, "<init>", "()V", op.INVOKESPECIAL),
        call("java/lang/Thread", "<init>", "(Ljava/lang/Runnable;)V", op.INVOKESPECIAL),
        call("java/lang/Runtime", "addShutdownHook", "(Ljava/lang/Thread;)V"),
        done,
        Insn(op.RETURN),
    ])
    add_method(cf, "<init>", "()V", ACC_PUBLIC, [
        Insn(op.ALOAD_0), call("java/lang/Object", "<init>", "()V", op.INVOKESPECIAL), Insn(op.RETURN)])

    # private static synchronized long[] mine(): this thread's own counters, registered once
    add_method(cf, "mine", "()[J", ACC_PRIVATE | ACC_STATIC | ACC_SYNCHRONIZED, [
        push_int(cp, size), Insn(op.NEWARRAY, 11), Insn(op.ASTORE_0),
        Insn(op.GETSTATIC, all_), Insn(op.ALOAD_0), call("java/util/ArrayList", "add", "(Ljava/lang/Object;)Z"),
        Insn(op.POP),
        Insn(op.GETSTATIC, local), Insn(op.ALOAD_0), call("java/lang/ThreadLocal", "set", "(Ljava/lang/Object;)V"),
        Insn(op.ALOAD_0), Insn(op.ARETURN),
    ])

    # public static synchronized long[] snapshot(): the sum over every thread's counters
    outer, outer_done, inner, inner_done = Label(), Label(), Label(), Label()
    add_method(cf, "snapshot", "()[J", ACC_PUBLIC | ACC_STATIC | ACC_SYNCHRONIZED, [
        push_int(cp, size), Insn(op.NEWARRAY, 11), Insn(op.ASTORE_0),    # 0: sum
        Insn(op.ICONST_0), Insn(op.ISTORE_1),                           # 1: thread index
        outer,
        Insn(op.ILOAD_1), Insn(op.GETSTATIC, all_), call("java/util/ArrayList", "size", "()I"),
        Insn(op.IF_ICMPGE, outer_done),
        Insn(op.GETSTATIC, all_), Insn(op.ILOAD_1), call("java/util/ArrayList", "get", "(I)Ljava/lang/Object;"),
        Insn(op.CHECKCAST, cp.add_class("[J")), Insn(op.ASTORE_2),      # 2: one thread's counters
        Insn(op.ICONST_0), Insn(op.ISTORE_3),                           # 3: counter index
        inner,
        Insn(op.ILOAD_3), push_int(cp, size), Insn(op.IF_ICMPGE, inner_done),
        Insn(op.ALOAD_0), Insn(op.ILOAD_3), Insn(op.DUP2), Insn(op.LALOAD),
        Insn(op.ALOAD_2), Insn(op.ILOAD_3), Insn(op.LALOAD), Insn(op.LADD), Insn(op.LASTORE),
        Insn(op.IINC, (3, 1)), Insn(op.GOTO, inner),
        inner_done,
        Insn(op.IINC, (1, 1)), Insn(op.GOTO, outer),
        outer_done,
        Insn(op.ALOAD_0), Insn(op.ARETURN),
    ])

    # The last other thread's array, as an immutable (thread, long[]) pair: a thread that finds itself
    # there skips the ThreadLocal lookup. Final fields make the pair safe to publish through a plain field.
    entry = "java/util/AbstractMap$SimpleImmutableEntry"
    add_field(cf, "LAST", f"L{entry};", ACC_PRIVATE | ACC_STATIC)
    last = cp.add_fieldref(RUNTIME_CLASS, "LAST", f"L{entry};")
    add_method(cf, "remember", "([J)V", ACC_PRIVATE | ACC_STATIC, [
        Insn(op.NEW, cp.add_class(entry)), Insn(op.DUP),
        call("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", op.INVOKESTATIC), Insn(op.ALOAD_0),
        call(entry, "<init>", "(Ljava/lang/Object;Ljava/lang/Object;)V", op.INVOKESPECIAL),
        Insn(op.PUTSTATIC, last), Insn(op.RETURN),
    ])
    # private static long[] other(): the counters of a thread that is not OWNER
    slow, have = Label(), Label()
    add_method(cf, "other", "()[J", ACC_PRIVATE | ACC_STATIC, [
        Insn(op.GETSTATIC, last), Insn(op.DUP), Insn(op.IFNULL, slow),
        Insn(op.DUP), call(entry, "getKey", "()Ljava/lang/Object;"),
        call("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", op.INVOKESTATIC),
        Insn(op.IF_ACMPNE, slow),
        call(entry, "getValue", "()Ljava/lang/Object;"), Insn(op.CHECKCAST, cp.add_class("[J")), Insn(op.ARETURN),
        slow,
        Insn(op.POP),
        Insn(op.GETSTATIC, local), call("java/lang/ThreadLocal", "get", "()Ljava/lang/Object;"),
        Insn(op.CHECKCAST, cp.add_class("[J")), Insn(op.DUP), Insn(op.IFNONNULL, have), Insn(op.POP),
        call(RUNTIME_CLASS, "mine", "()[J", op.INVOKESTATIC),
        have,
        Insn(op.DUP), call(RUNTIME_CLASS, "remember", "([J)V", op.INVOKESTATIC), Insn(op.ARETURN),
    ])

    # static void add(int first, int|long v0, ..., vN): this thread's counters[first + i] += vi.
    # Plain adds on an array only this thread writes: nothing is lost, nothing is contended. The thread
    # that initialized the class (OWNER) finds its array in a static final field, which the JIT folds into
    # a constant: one thread comparison and the adds. Few values are added unconditionally (no branch to
    # mispredict); many are added only when nonzero (most are, in a big method).
    for kind, n in sorted(set(arities)):
        width = 2 if kind == "J" else 1
        array = 1 + width * n
        def adds() -> list:
            out = []
            for i in range(n):
                skip = Label()
                slot = 1 + width * i
                if kind == "J":
                    test = [Insn(op.LLOAD, slot), Insn(op.LCONST_0), Insn(op.LCMP), Insn(op.IFEQ, skip)]
                    value = [Insn(op.LLOAD, slot)]
                else:
                    test = [Insn(op.ILOAD, slot), Insn(op.IFEQ, skip)]
                    value = [Insn(op.ILOAD, slot), Insn(op.I2L)]
                out += [*(test if n > UNCONDITIONAL_ADDS else []), Insn(op.ALOAD, array), Insn(op.ILOAD_0),
                        push_int(cp, i), Insn(op.IADD), Insn(op.DUP2), Insn(op.LALOAD), *value, Insn(op.LADD),
                        Insn(op.LASTORE), skip]
            return out + [Insn(op.RETURN)]

        other, have = Label(), Label()
        items = [call("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", op.INVOKESTATIC),
                 Insn(op.GETSTATIC, owner), Insn(op.IF_ACMPNE, other),
                 Insn(op.GETSTATIC, owned), Insn(op.ASTORE, array)]
        if n <= UNCONDITIONAL_ADDS:
            # the adds twice: after the owner's test the array is a constant and the JIT folds its address
            items += [*adds(), other,
                      call(RUNTIME_CLASS, "other", "()[J", op.INVOKESTATIC), Insn(op.ASTORE, array), *adds()]
        else:  # once (HotSpot compiles no method over 8,000 bytes)
            items += [Insn(op.GOTO, have), other,
                      call(RUNTIME_CLASS, "other", "()[J", op.INVOKESTATIC), Insn(op.ASTORE, array), have, *adds()]
        add_method(cf, "add", add_descriptor(n, kind), ACC_PUBLIC | ACC_STATIC, items)

    add_method(cf, "run", "()V", ACC_PUBLIC, _run_method(cp, call))
    return cf.to_bytes()


def _run_method(cp, call) -> list:
    """run(): interpret Counters.layout into a StringBuilder, then write it to -Dbytecount.out.

    Locals: 0 this, 1 reader, 2 builder, 3 first-flags (boolean[16]), 4 depth, 5 line, 6 rest,
    7 space index, 8-9 a long, 10 i, 11 end, 12-13 the accumulator, 14 the counters (snapshot()).
    """
    I = Insn
    SB = "java/lang/StringBuilder"
    STR = "java/lang/String"
    loop, done = Label(), Label()
    t, n, v, s, open_, close, e = (Label() for _ in range(7))
    sum_loop, sum_done, e_skip, e_first = Label(), Label(), Label(), Label()
    z, w, a, y, a_first = Label(), Label(), Label(), Label(), Label()

    def parse_int(from_local, begin_end):
        # Integer.parseInt(rest.substring(...))
        return [I(op.ALOAD, from_local), *begin_end,
                call(STR, "substring", "(II)Ljava/lang/String;"),
                call("java/lang/Integer", "parseInt", "(Ljava/lang/String;)I", op.INVOKESTATIC)]

    append_str = call(SB, "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;")
    append_long = call(SB, "append", "(J)Ljava/lang/StringBuilder;")
    return [
        # reader = new BufferedReader(new InputStreamReader(Counters.class.getResourceAsStream(...), "UTF-8"))
        I(op.NEW, cp.add_class("java/io/BufferedReader")), I(op.DUP),
        I(op.NEW, cp.add_class("java/io/InputStreamReader")), I(op.DUP),
        I(op.LDC_W, cp.add_class(RUNTIME_CLASS)),
        I(op.LDC_W, cp.add_string(LAYOUT_RESOURCE)),
        call("java/lang/Class", "getResourceAsStream", "(Ljava/lang/String;)Ljava/io/InputStream;"),
        I(op.LDC_W, cp.add_string("UTF-8")),
        call("java/io/InputStreamReader", "<init>", "(Ljava/io/InputStream;Ljava/lang/String;)V", op.INVOKESPECIAL),
        call("java/io/BufferedReader", "<init>", "(Ljava/io/Reader;)V", op.INVOKESPECIAL),
        I(op.ASTORE_1),
        I(op.NEW, cp.add_class(SB)), I(op.DUP), call(SB, "<init>", "()V", op.INVOKESPECIAL), I(op.ASTORE_2),
        I(op.BIPUSH, 16), I(op.NEWARRAY, 4), I(op.ASTORE_3),  # boolean[16]
        I(op.ICONST_0), I(op.ISTORE, 4), I(op.LCONST_0), I(op.LSTORE, 12),
        call(RUNTIME_CLASS, "snapshot", "()[J", op.INVOKESTATIC), I(op.ASTORE, 14),
        loop,
        I(op.ALOAD_1), call("java/io/BufferedReader", "readLine", "()Ljava/lang/String;"), I(op.DUP),
        I(op.ASTORE, 5), I(op.IFNULL, done),
        I(op.ALOAD, 5), I(op.ICONST_1), call(STR, "substring", "(I)Ljava/lang/String;"), I(op.ASTORE, 6),
        I(op.ALOAD, 5), I(op.ICONST_0), call(STR, "charAt", "(I)C"),
        I(op.LOOKUPSWITCH, Switch(loop, [open_, close, a, e, n, s, t, v, w, y, z],
                                  keys=[ord(c) for c in "[]aenstvwyz"])),
        z,  # accumulator = 0
        I(op.LCONST_0), I(op.LSTORE, 12), I(op.GOTO, loop),
        w,  # accumulator += weight * counter: "w<weight> <index>"
        I(op.ALOAD, 6), I(op.BIPUSH, 32), call(STR, "indexOf", "(I)I"), I(op.ISTORE, 7),
        I(op.LLOAD, 12),
        *parse_int(6, [I(op.ICONST_0), I(op.ILOAD, 7)]), I(op.I2L),
        I(op.ALOAD, 14),
        I(op.ALOAD, 6), I(op.ILOAD, 7), I(op.ICONST_1), I(op.IADD),
        call(STR, "substring", "(I)Ljava/lang/String;"),
        call("java/lang/Integer", "parseInt", "(Ljava/lang/String;)I", op.INVOKESTATIC),
        I(op.LALOAD), I(op.LMUL), I(op.LADD), I(op.LSTORE, 12), I(op.GOTO, loop),
        y,  # write the accumulator
        I(op.ALOAD_2), I(op.LLOAD, 12), append_long, I(op.POP), I(op.GOTO, loop),
        a,  # map entry from the accumulator, shown only when not zero: "a<text>"
        I(op.LLOAD, 12), I(op.LCONST_0), I(op.LCMP), I(op.IFEQ, loop),
        I(op.ALOAD_3), I(op.ILOAD, 4), I(op.BALOAD), I(op.IFNE, a_first),
        I(op.ALOAD_2), I(op.LDC_W, cp.add_string(", ")), append_str, I(op.POP),
        a_first,
        I(op.ALOAD_3), I(op.ILOAD, 4), I(op.ICONST_0), I(op.BASTORE),
        I(op.ALOAD_2), I(op.ALOAD, 6), append_str, I(op.LLOAD, 12), append_long, I(op.POP),
        I(op.GOTO, loop),
        t,  # text
        I(op.ALOAD_2), I(op.ALOAD, 6), append_str, I(op.POP), I(op.GOTO, loop),
        n,  # newline
        I(op.ALOAD_2), I(op.BIPUSH, 10), call(SB, "append", "(C)Ljava/lang/StringBuilder;"), I(op.POP),
        I(op.GOTO, loop),
        v,  # one counter's value
        I(op.ALOAD_2), I(op.ALOAD, 14), I(op.ALOAD, 6),
        call("java/lang/Integer", "parseInt", "(Ljava/lang/String;)I", op.INVOKESTATIC),
        I(op.LALOAD), append_long, I(op.POP), I(op.GOTO, loop),
        s,  # sum of counters a (inclusive) .. b (exclusive): "s<a> <b>"
        I(op.ALOAD, 6), I(op.BIPUSH, 32), call(STR, "indexOf", "(I)I"), I(op.ISTORE, 7),
        *parse_int(6, [I(op.ICONST_0), I(op.ILOAD, 7)]), I(op.ISTORE, 10),
        I(op.ALOAD, 6), I(op.ILOAD, 7), I(op.ICONST_1), I(op.IADD),
        call(STR, "substring", "(I)Ljava/lang/String;"),
        call("java/lang/Integer", "parseInt", "(Ljava/lang/String;)I", op.INVOKESTATIC), I(op.ISTORE, 11),
        I(op.LCONST_0), I(op.LSTORE, 8),
        sum_loop,
        I(op.ILOAD, 10), I(op.ILOAD, 11), I(op.IF_ICMPGE, sum_done),
        I(op.LLOAD, 8), I(op.ALOAD, 14), I(op.ILOAD, 10), I(op.LALOAD), I(op.LADD),
        I(op.LSTORE, 8), I(op.IINC, (10, 1)), I(op.GOTO, sum_loop),
        sum_done,
        I(op.ALOAD_2), I(op.LLOAD, 8), append_long, I(op.POP), I(op.GOTO, loop),
        open_,  # a new map: its first entry gets no comma
        I(op.IINC, (4, 1)), I(op.ALOAD_3), I(op.ILOAD, 4), I(op.ICONST_1), I(op.BASTORE), I(op.GOTO, loop),
        close,
        I(op.IINC, (4, -1)), I(op.GOTO, loop),
        e,  # map entry shown only when non-zero: "e<index> <text>"
        I(op.ALOAD, 6), I(op.BIPUSH, 32), call(STR, "indexOf", "(I)I"), I(op.ISTORE, 7),
        I(op.ALOAD, 14), *parse_int(6, [I(op.ICONST_0), I(op.ILOAD, 7)]), I(op.LALOAD),
        I(op.DUP2), I(op.LSTORE, 8), I(op.LCONST_0), I(op.LCMP), I(op.IFEQ, e_skip),
        I(op.ALOAD_3), I(op.ILOAD, 4), I(op.BALOAD), I(op.IFNE, e_first),
        I(op.ALOAD_2), I(op.LDC_W, cp.add_string(", ")), append_str, I(op.POP),
        e_first,
        I(op.ALOAD_3), I(op.ILOAD, 4), I(op.ICONST_0), I(op.BASTORE),
        I(op.ALOAD_2), I(op.ALOAD, 6), I(op.ILOAD, 7), I(op.ICONST_1), I(op.IADD),
        call(STR, "substring", "(I)Ljava/lang/String;"), append_str,
        I(op.LLOAD, 8), append_long, I(op.POP),
        e_skip,
        I(op.GOTO, loop),
        done,
        I(op.ALOAD_1), call("java/io/BufferedReader", "close", "()V"),
        # try (Writer w = new OutputStreamWriter(new FileOutputStream(path), "UTF-8")) { w.write(text); }
        I(op.NEW, cp.add_class("java/io/OutputStreamWriter")), I(op.DUP),
        I(op.NEW, cp.add_class("java/io/FileOutputStream")), I(op.DUP),
        I(op.LDC_W, cp.add_string("bytecount.out")),
        call("java/lang/System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;", op.INVOKESTATIC),
        call("java/io/FileOutputStream", "<init>", "(Ljava/lang/String;)V", op.INVOKESPECIAL),
        I(op.LDC_W, cp.add_string("UTF-8")),
        call("java/io/OutputStreamWriter", "<init>", "(Ljava/io/OutputStream;Ljava/lang/String;)V", op.INVOKESPECIAL),
        I(op.DUP), I(op.ALOAD_2), call(SB, "toString", "()Ljava/lang/String;"),
        call("java/io/Writer", "write", "(Ljava/lang/String;)V"),
        call("java/io/Writer", "close", "()V"),
        I(op.RETURN),
    ]
