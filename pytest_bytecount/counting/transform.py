"""The counting transform: ByCounter-style counters in the target methods (the counting contract).

Per target method, :func:`instrument_method` decides where counting code goes and emits it:
- ``block`` strategy (the default): the method's basic blocks (:mod:`.flow`) get counters only where flow
  conservation cannot derive them (:mod:`.plan`), or one counter per path for small loop-free methods;
- ``instruction`` strategy (ByCounter's reference): one ``int`` local per opcode and per call signature,
  an ``iinc`` before every instruction;
- before every ``*return`` the invocation's counters are added to the batch-wide totals of the support
  class (:mod:`.runtime`). An invocation that ends by an exception reports nothing, unless abrupt exits
  are tallied (a handler around the body reports them under separate counters).

A :class:`~.countermap.CounterMap` tells, for each method, what its counters stand for.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Optional

from ..classfile import ClassFile, ClassFormatError, CodeFormatError, CodeTooLargeError, Insn
from ..classfile import opcodes as op
from ..classfile.assemble import push_int
from ..classfile.code import Handler, Label
from ..classfile.frames import (INTEGER, LONG, TOP, UNINITIALIZED_THIS, Frame, Obj, is_wide, slots_to_entries,
                                type_from_descriptor, with_locals)
from .countermap import CounterMap
from .flow import basic_blocks, block_successors, blocks_in_cycles, loop_heads
from .inclusive import INCLUSIVE_CLASS
from .plan import every_block, plan_block_counters, plan_paths
from .runtime import MAX_VALUES_PER_CALL, RUNTIME_CLASS, add_descriptor
from .targets import MethodId

INVOKES = frozenset((op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE, op.INVOKEDYNAMIC))

STRATEGIES = ("instruction", "block")
# Past this many basic blocks a method is counted per instruction kind instead: its counters stay few,
# so the stack map frames that must declare them all stay small.
MAX_BLOCKS = 256


@dataclass
class Batch:
    """Counter indexes handed out to every method instrumented together (one Counters class).

    ``abrupt``: also tally the invocations that end by an exception (a catch-all handler over each
    method). ``allocations``: also record objects and arrays created and the arrays' lengths."""

    strategy: str = "instruction"
    maps: list = field(default_factory=list)
    size: int = 0
    arities: set = field(default_factory=set)
    abrupt: bool = False
    allocations: bool = False
    inclusive: Optional[object] = None  # an inclusive.InclusivePlan: link the invocations of its methods

    def add(self, cmap: CounterMap) -> CounterMap:
        """Give ``cmap`` (and its abrupt part) the next free indexes."""
        cmap.base = self.size
        self.size += cmap.size
        if cmap.abrupt is not None:
            cmap.abrupt.base = self.size
            self.size += cmap.abrupt.size
        self.maps.append(cmap)
        return cmap


def call_key(insn: Insn, cp, cache: Optional[dict] = None) -> str:
    """``owner/Name.name(desc)ret`` for invokes, ``indy name(desc)ret`` for invokedynamic. ``cache``: a
    dict kept per constant pool, to decode each referenced signature once."""
    if cache is None:
        return _call_key(insn, cp)
    index = insn.arg[0] if insn.opcode in (op.INVOKEINTERFACE, op.INVOKEDYNAMIC) else insn.arg
    ckey = (insn.opcode == op.INVOKEDYNAMIC, index)
    key = cache.get(ckey)
    if key is None:
        key = cache[ckey] = _call_key(insn, cp)
    return key


def _call_key(insn: Insn, cp) -> str:
    if insn.opcode == op.INVOKEDYNAMIC:
        _, name, desc = cp.dynamic_ref(insn.arg[0])
        return f"indy {name}{desc}"
    index = insn.arg[0] if insn.opcode == op.INVOKEINTERFACE else insn.arg
    owner, name, desc = cp.member_ref(index)
    return f"{owner}.{name}{desc}"


_NEWARRAY_TYPES = {4: "[Z", 5: "[C", 6: "[F", 7: "[D", 8: "[B", 9: "[S", 10: "[I", 11: "[J"}


def alloc_key(insn: Insn, cp) -> Optional[str]:
    """``o:`` + class for ``new``, ``a:`` + array type for ``newarray``/``anewarray``/``multianewarray``."""
    o = insn.opcode
    if o == op.NEW:
        return "o:" + cp.class_name(insn.arg)
    if o == op.NEWARRAY:
        return "a:" + _NEWARRAY_TYPES[insn.arg]
    if o == op.ANEWARRAY:
        c = cp.class_name(insn.arg)
        return "a:[" + (c if c.startswith("[") else f"L{c};")
    if o == op.MULTIANEWARRAY:
        return "a:" + cp.class_name(insn.arg[0])
    return None


def _this_uninitialized(code, cf) -> Optional[list]:
    """In a constructor: per instruction, whether ``this`` is still uninitialized there (before the
    super/this call), found by simulating types from each stack map frame. None when some instruction
    holds an uninitialized ``this`` elsewhere than in local 0 (then no handler is added)."""
    from ..classfile.frames import UNINITIALIZED_THIS, TypeState, entries_to_slots, initial_locals

    m = code.method
    state = TypeState(entries_to_slots(initial_locals(cf.name, m.name, m.descriptor, False)), [])
    flags = []
    for item in code.items:
        if type(item) is not Insn:
            if item.frame is not None:
                state = TypeState(entries_to_slots(item.frame.locals), list(item.frame.stack))
            continue
        uninit = UNINITIALIZED_THIS in state.locals
        if uninit and state.locals[0] != UNINITIALIZED_THIS:
            return None
        flags.append(uninit)
        try:
            state.step(item, cf.constant_pool, cf.name)
        except Exception:  # noqa: BLE001 - a state we cannot follow: no handler rather than a bad one
            return None
    return flags


def instrument_method(method, batch: Batch, call_keys: Optional[dict] = None,
                      max_blocks: Optional[int] = MAX_BLOCKS) -> CounterMap:
    cf = method.owner
    cp = cf.constant_pool
    _, raw = method.find_attribute("Code")
    raw_bytes = raw.encode().data if hasattr(raw, "instructions") else raw.data  # decoded already: re-encode
    digest = hashlib.sha256(raw_bytes).hexdigest()
    code = method.code
    insns = code.instructions
    opcodes = sorted({i.mnemonic for i in insns})
    keys = call_keys if call_keys is not None else {}
    calls = sorted({call_key(i, cp, keys) for i in insns if i.opcode in INVOKES})
    edits: dict = {id(i): [] for i in insns}
    mid = MethodId(cf.name, method.name, method.descriptor)

    # Allocation recording: which allocations the code holds; array lengths need runtime values.
    allocs = sorted({k for k in (alloc_key(i, cp) for i in insns) if k}) if batch.allocations else None
    elements = sorted({k[2:] for k in allocs if k.startswith("a:")}) if allocs else []
    # Exits by exception: one handler over the whole body, in constructors one per stretch where ``this``
    # is (un)initialized. Its frame holds only the counters, so the verifier accepts it anywhere.
    uninit = None
    abrupt = batch.abrupt
    # inclusive counts: hooks at entry, exits and calls (see .inclusive); their exit by exception needs
    # the same catch-all handler
    hooks = batch.inclusive.hooks(cf, method) if batch.inclusive is not None else None
    catch_all = abrupt or hooks is not None
    if catch_all and method.name == "<init>" and cf.major_version >= 50:  # older: no frames to write
        uninit = _this_uninitialized(code, cf)
        abrupt = abrupt and uninit is not None
        catch_all = uninit is not None
    # Blocks end after every instruction that can throw when the handler covers everything, so that an
    # exception never leaves a block counted in part.
    blocks = basic_blocks(code, precise=abrupt)
    found = block_successors(code, blocks)
    # In a method with a loop one invocation may run an instruction more than 2**31 times. The block
    # strategy then keeps long counters (exact to 2**63). The per-instruction reference keeps its int
    # increments and adds each counter into a long at every loop head: between two loop heads each
    # instruction runs at most once, so an int never holds more than the method's instruction count.
    heads = loop_heads(found, len(blocks))
    wide = heads is not None or bool(elements)
    plan = None
    if batch.strategy == "block":
        plan = plan_block_counters(code, blocks, found) if not abrupt else every_block(blocks)
        if max_blocks is not None and len(plan.counted) > max_blocks:
            plan = None  # a huge method: fewer counters per instruction kind than per block
    kind = "J" if wide else "I"
    spills: list = []  # per value: the long local its int counter is added to, or None
    int_slots: set = set()  # with long reports: the int counters (per instruction) reported as they are
    typed: list = []  # (slot, type) of every local added, for the handler's frame

    def longs(n: int) -> list:
        slots = code.add_locals([LONG] * n)
        typed.extend((x, LONG) for x in slots)
        return slots

    def ints(n: int) -> list:
        slots = code.add_locals([INTEGER] * n)
        typed.extend((x, INTEGER) for x in slots)
        return slots

    # A loop-free method with a few paths: one counter per path, one add per invocation (Ball-Larus)
    paths = plan_paths(code, blocks, found) if plan is not None and not abrupt and not wide else None
    fallthrough: list = []  # (instruction, code) run only when control falls through into it
    if paths is not None:
        contents = [(Counter(i.mnemonic for i in b), Counter(call_key(i, cp, keys) for i in b if i.opcode in INVOKES),
                     Counter(k for k in (alloc_key(i, cp) for i in b) if k) if allocs is not None else Counter())
                    for b in blocks]
        cmap = CounterMap(mid, 0, opcodes, calls, digest, contents,
                          [tuple((p, 1) for p in through) for through in paths.block_paths],
                          tuple((p, 1) for p in range(paths.paths)), paths.paths, allocs, elements)
        path_slot = ints(1)[0]
        init = [Insn(op.ICONST_0), Insn(op.ISTORE, path_slot)]
        fallthrough = [(blocks[b][0], [Insn(op.IINC, (path_slot, inc))]) for b, inc in sorted(paths.increments.items())]
        values = []
    elif plan is not None:
        contents = [(Counter(i.mnemonic for i in b), Counter(call_key(i, cp, keys) for i in b if i.opcode in INVOKES),
                     Counter(k for k in (alloc_key(i, cp) for i in b) if k) if allocs is not None else Counter())
                    for b in blocks]
        cmap = CounterMap(mid, 0, opcodes, calls, digest, contents, plan.block_exprs, plan.invocation_expr,
                          len(plan.counted) + len(elements), allocs, elements)
        counted = plan.counted[1:] if plan.entry_once else plan.counted
        slots = longs(len(counted)) if wide else ints(len(counted))
        for blk, slot in zip(counted, slots):
            edits[id(blocks[blk][0])] += ([Insn(op.LLOAD, slot), Insn(op.LCONST_1), Insn(op.LADD),
                                           Insn(op.LSTORE, slot)] if wide else [Insn(op.IINC, (slot, 1))])
        values = ([None] if plan.entry_once else []) + slots  # None: the constant 1
        init = [x for slot in slots
                for x in ([Insn(op.LCONST_0), Insn(op.LSTORE, slot)] if wide else [Insn(op.ICONST_0), Insn(op.ISTORE, slot)])]
        if abrupt:  # the same counters, after an invocation counter of its own (the constant 1)
            cmap.abrupt = CounterMap(mid, 0, opcodes, calls, digest, contents,
                                     [tuple((off + 1, c) for off, c in e) for e in plan.block_exprs], ((0, 1),),
                                     1 + cmap.counters, allocs, elements)
    else:
        cmap = CounterMap(mid, 0, opcodes, calls, digest, allocs=allocs, elements=elements)
        op_slots = ints(len(opcodes) + len(calls) + len(allocs or ()))
        op_slot = dict(zip(opcodes, op_slots))
        call_slot = dict(zip(calls, op_slots[len(opcodes):]))
        alloc_slot = dict(zip(allocs or (), op_slots[len(opcodes) + len(calls):]))
        slots = list(op_slots)
        for insn in insns:
            edits[id(insn)].append(Insn(op.IINC, (op_slot[insn.mnemonic], 1)))
            if insn.opcode in INVOKES:
                edits[id(insn)].append(Insn(op.IINC, (call_slot[call_key(insn, cp, keys)], 1)))
            if allocs:
                k = alloc_key(insn, cp)
                if k:
                    edits[id(insn)].append(Insn(op.IINC, (alloc_slot[k], 1)))
        values = [None] + slots  # None: the invocation, 1
        init = [x for slot in slots for x in (Insn(op.ICONST_0), Insn(op.ISTORE, slot))]
        if wide:
            # only counters of keys in a block on a cycle can pass 2**31 in one invocation
            cyclic = blocks_in_cycles(found, len(blocks))
            looping = {k for b in cyclic for i in blocks[b] for k in
                       (i.mnemonic, call_key(i, cp, keys) if i.opcode in INVOKES else None, alloc_key(i, cp))}
            keyed = list(opcodes) + list(calls) + list(allocs or ())
            spilled = [slot for slot, key in zip(slots, keyed) if key in looping]
            big = dict(zip(spilled, longs(len(spilled))))
            spills = [None] + [big.get(slot) for slot in slots]
            int_slots.update(slots)
            flush = []
            for slot, b in big.items():
                init += [Insn(op.LCONST_0), Insn(op.LSTORE, b)]
                flush += [Insn(op.LLOAD, b), Insn(op.ILOAD, slot), Insn(op.I2L), Insn(op.LADD), Insn(op.LSTORE, b),
                          Insn(op.ICONST_0), Insn(op.ISTORE, slot)]
            for h in sorted(heads or ()):
                first = blocks[h][0]
                edits[id(first)] = flush + edits[id(first)]
        if abrupt:
            cmap.abrupt = CounterMap(mid, 0, opcodes, calls, digest, allocs=allocs, elements=elements)

    batch.add(cmap)  # the map's place in the batch: the reports below push its first indexes
    token = None
    if hooks is not None:
        token = longs(1)[0]
        init += hooks.enter(token)

    # array lengths: after each array creation, its length is added to a long per array type
    after: list = []
    if elements:
        element_slot = dict(zip(elements, longs(len(elements))))
        for slot in element_slot.values():
            init += [Insn(op.LCONST_0), Insn(op.LSTORE, slot)]
        for i, insn in enumerate(insns):
            k = alloc_key(insn, cp)
            if k and k.startswith("a:"):
                slot = element_slot[k[2:]]
                after.append((insns[i + 1], [Insn(op.DUP), Insn(op.ARRAYLENGTH), Insn(op.I2L), Insn(op.LLOAD, slot),
                                             Insn(op.LADD), Insn(op.LSTORE, slot)], False))
        values += [("elements", element_slot[k]) for k in elements]
        spills += [None] * len(elements) if spills else []

    # the report: add(first, c0, ..., cN), as many calls as argument slots need
    per_call = MAX_VALUES_PER_CALL if not wide else MAX_VALUES_PER_CALL // 2

    def push(j: int, slot) -> list:
        if slot is None:
            return [Insn(op.LCONST_1 if wide else op.ICONST_1)]
        if isinstance(slot, tuple):  # an element total: always a long
            return [Insn(op.LLOAD, slot[1])]
        if not wide:
            return [Insn(op.ILOAD, slot)]
        if spills and spills[j] is not None:  # the long so far plus the int since the last loop head
            return [Insn(op.LLOAD, spills[j]), Insn(op.ILOAD, slot), Insn(op.I2L), Insn(op.LADD)]
        if slot in int_slots:  # counts only instructions outside cycles: at most once each per invocation
            return [Insn(op.ILOAD, slot), Insn(op.I2L)]
        return [Insn(op.LLOAD, slot)]

    def report(target: CounterMap, vals: list, shift: int = 0, owner: str = RUNTIME_CLASS) -> list:
        out = []
        for start in range(0, len(vals), per_call):
            chunk = vals[start:start + per_call]
            out.append(push_int(cp, target.base + start))
            for j, slot in enumerate(chunk, start):
                out += [Insn(op.LCONST_1 if wide else op.ICONST_1)] if slot == "one" else push(j - shift, slot)
            out.append(Insn(op.INVOKESTATIC, cp.add_methodref(owner, "add", add_descriptor(len(chunk), kind))))
            batch.arities.add((kind, len(chunk)))
        return out

    # Many returns with a long report (a huge method): one shared exit instead of a copy at every return
    returns = [i for i in insns if i.opcode in op.RETURNS]
    exit_label = _shared_exit(code, cf, method, insns, returns, values, wide)
    result_slot = None
    # inclusive counts: the normal report goes through Inclusive.add (flat counts, then the active targets')
    owner = RUNTIME_CLASS if hooks is None else INCLUSIVE_CLASS
    # One unit to add (the path's counter, or the invocation counter of a method with one path): the
    # owner thread's add is written inline, which HotSpot compiles better than the same code inlined
    # from Counters.add; other threads call Counters.add(first [+ path], 1).
    unit = hooks is None and (paths is not None or (values == [None] and not elements))
    if unit:
        batch.arities.add(("I", 1))
        index = [push_int(cp, cmap.base)] + ([Insn(op.ILOAD, path_slot), Insn(op.IADD)] if paths is not None else [])
        states = _return_frames(code, cf, returns, typed)
        for insn in returns:
            edits[id(insn)] += _inline_report(cp, index, states.get(insn) if states is not None else None,
                                              cf.major_version >= 50)
        values = []  # reported
    elif paths is not None:  # add(first + path, 1)
        batch.arities.add(("I", 1))
        for insn in returns:
            edits[id(insn)] += [push_int(cp, cmap.base), Insn(op.ILOAD, path_slot), Insn(op.IADD), Insn(op.ICONST_1),
                                Insn(op.INVOKESTATIC, cp.add_methodref(owner, "add", add_descriptor(1, "I")))]
    if exit_label is not None:
        rtype = method.descriptor[method.descriptor.index(")") + 1:]
        if rtype != "V":
            vtype = type_from_descriptor(rtype)
            result_slot = code.add_locals([vtype])[0]
            typed.append((result_slot, vtype))
            init += [Insn(_ZERO[rtype[0]]), Insn(_STORE[rtype[0]], result_slot)]
            for insn in returns:
                edits[id(insn)].append(Insn(_STORE[rtype[0]], result_slot))
    elif values:
        for insn in returns:
            edits[id(insn)] += report(cmap, values, owner=owner)
    if hooks is not None:
        if exit_label is None:
            for insn in returns:
                edits[id(insn)] += hooks.leave(token)
        after += _arm_calls(hooks, code, insns, edits)
        for insn in _handler_entries(code):
            edits[id(insn)] += hooks.resync(token)
    start = Label()
    init.append(start)  # the handler's range begins after the counters are zeroed
    # stretches of the body with one handler each: everything, or in a constructor the stretches where
    # `this` is uninitialized (the handler's frame says so) and those where it is not
    stretches = [(start, False)]  # (start label, uninitialized?)
    bounds = []
    if catch_all and uninit is not None:
        # The call that initializes `this` gets no handler: HotSpot checks its handlers with the locals
        # after the call but the flags before it, which no stack map frame can express. An exception
        # thrown by the super(...) or this(...) constructor itself is therefore not tallied here.
        flags = list(uninit)
        for k, insn in enumerate(insns[:-1]):
            if flags[k] and flags[k + 1] is False and insn.opcode == op.INVOKESPECIAL \
                    and cp.member_ref(insn.arg)[1] == "<init>":
                flags[k] = None
        stretches = []
        state = "start"
        for insn, flag in zip(insns, flags):
            if flag != state:
                lab = start if state == "start" else Label()
                if state != "start":
                    bounds.append((insn, [lab], False))
                stretches.append((lab, flag))
                state = flag
    # zero the counters before everything, and keep jumps to the first instruction (a loop head) after it
    # (an array's length is read right after the instruction that created it: before the next one's
    # labels, so that no jump skips it; a stretch begins before the next instruction's own code)
    code.insert_many([(insns[0], init, False)] + after + bounds + [(insn, c, False) for insn, c in fallthrough]
                     + [(insn, edits[id(insn)], True) for insn in insns if edits[id(insn)]])

    if catch_all:
        first_counter = min((x for x, _ in typed), default=code.max_locals)
        counters = [t for _, t in sorted(typed)]
        end = Label()
        code.items.append(end)
        handlers = {}
        for flag in sorted({f for _, f in stretches if f is not None}):
            label = Label()
            local0 = (UNINITIALIZED_THIS,) if flag else ()
            label.frame = Frame(with_locals(local0, first_counter, counters), (Obj("java/lang/Throwable"),))
            code.items.append(label)
            if abrupt and plan is not None:  # block counters: an invocation counter first, the constant 1
                code.items += report(cmap.abrupt, ["one"] + values, shift=1)
            elif abrupt:  # per instruction: the same layout as the normal report
                code.items += report(cmap.abrupt, values)
            if hooks is not None:
                code.items += hooks.fail(token)
            code.items.append(Insn(op.ATHROW))
            handlers[flag] = label
        ends = [lab for lab, _ in stretches[1:]] + [end]
        for (lab, flag), stop in zip(stretches, ends):
            if flag is not None:
                code.handlers.append(Handler(lab, stop, handlers[flag], 0))

    if exit_label is not None:
        # every return becomes a jump to the exit, which reports and returns the saved result; the exit
        # lies outside every handler range, and its frame holds only the added locals
        rtype = method.descriptor[method.descriptor.index(")") + 1:]
        exit_op = returns[0].opcode
        for insn in returns:
            insn.opcode, insn.arg, insn.wide = op.GOTO, exit_label, False
        first_added = min(x for x, _ in typed)
        exit_label.frame = Frame(with_locals((), first_added, [t for _, t in sorted(typed)]), ())
        code.items.append(exit_label)
        code.items += report(cmap, values, owner=owner)
        if hooks is not None:
            code.items += hooks.leave(token)
        if result_slot is not None:
            code.items.append(Insn(_LOAD[rtype[0]], result_slot))
        code.items.append(Insn(exit_op))

    return cmap


def _return_frames(code, cf, returns, typed) -> Optional[dict]:
    """Per return instruction, the stack map frame right before it (the added locals, assigned at entry,
    declared with their types); None when the code cannot be simulated or has no frames to extend."""
    if cf.major_version < 50:
        return {}
    try:
        states = code.type_states(returns)
    except CodeFormatError:
        return None
    out = {}
    for insn, state in states.items():
        slots = list(state.locals) + [TOP] * max(0, code.max_locals - len(state.locals))
        for slot, t in typed:
            slots[slot] = t
            if is_wide(t):
                slots[slot + 1] = TOP
        out[insn] = Frame(slots_to_entries(slots), tuple(state.stack))
    return out


def _inline_report(cp, index: list, frame, frames: bool) -> list:
    """``if (Thread.currentThread() == Counters.OWNER) Counters.OWNED[index]++; else Counters.add(index, 1);``
    before a return; ``frame`` is the state there (class files with stack map frames need it at both
    labels). Without a frame where one is needed: the call alone."""
    call = Insn(op.INVOKESTATIC, cp.add_methodref(RUNTIME_CLASS, "add", add_descriptor(1, "I")))
    if frames and frame is None:
        return [*index, Insn(op.ICONST_1), call]
    slow, done = Label(), Label()
    if frames:
        slow.frame, done.frame = frame, frame
    return [Insn(op.INVOKESTATIC, cp.add_methodref("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;")),
            Insn(op.GETSTATIC, cp.add_fieldref(RUNTIME_CLASS, "OWNER", "Ljava/lang/Thread;")),
            Insn(op.IF_ACMPNE, slow),
            Insn(op.GETSTATIC, cp.add_fieldref(RUNTIME_CLASS, "OWNED", "[J")), *index,
            Insn(op.DUP2), Insn(op.LALOAD), Insn(op.LCONST_1), Insn(op.LADD), Insn(op.LASTORE),
            Insn(op.GOTO, done),
            slow, *index, Insn(op.ICONST_1), call,
            done]


def _arm_calls(hooks, code, insns, edits) -> list:
    """Inclusive counts: arm every call that may reach an instrumented method (before it, after any
    counter increment) and clear after it returns; the arguments of a dispatched call are spilled to
    locals past every other (declared in no frame: no branch lies between the spill and the call).
    Returns the clears, as ``after`` edits."""
    sites = [(k, insn, hooks.call_site(insn)) for k, insn in enumerate(insns)]
    sites = [(k, insn, site) for k, insn, site in sites if site is not None]
    width = max((hooks.spill_slots(site) for _, _, site in sites), default=0)
    spill = code.add_locals([TOP] * width, declare_in_frames=False)[0] if width else 0
    after = []
    for k, insn, site in sites:
        edits[id(insn)] += hooks.arm(site, spill)
        after.append((insns[k + 1], hooks.clear(), False))
    return after


def _handler_entries(code) -> list:
    """The first instruction of every exception handler of the code."""
    wanted = {id(h.handler) for h in code.handlers}
    out, pending = [], False
    for item in code.items:
        if type(item) is Insn:
            if pending:
                out.append(item)
            pending = False
        elif id(item) in wanted:
            pending = True
    return out


SHARED_EXIT_BYTES = 2048  # past this much repeated report code, returns jump to one shared exit
_ZERO = {**dict.fromkeys("IZBCS", op.ICONST_0), "J": op.LCONST_0, "F": op.FCONST_0, "D": op.DCONST_0,
         "L": op.ACONST_NULL, "[": op.ACONST_NULL}
_STORE = {**dict.fromkeys("IZBCS", op.ISTORE), "J": op.LSTORE, "F": op.FSTORE, "D": op.DSTORE,
          "L": op.ASTORE, "[": op.ASTORE}
_LOAD = {**dict.fromkeys("IZBCS", op.ILOAD), "J": op.LLOAD, "F": op.FLOAD, "D": op.DLOAD,
         "L": op.ALOAD, "[": op.ALOAD}


def _shared_exit(code, cf, method, insns, returns, values, wide) -> Optional["Label"]:
    """A label for one shared exit when copying the report to every return would cost too many bytes.

    Only where it is safe and describable: class files with stack map frames (version 50+), no monitors
    (a return may throw IllegalMonitorStateException inside a handler's range), and at every return the
    operand stack holds nothing but the result.
    """
    per_report = len(values) * (4 if wide else 2) + 8
    if not values or len(returns) < 2 or per_report * (len(returns) - 1) < SHARED_EXIT_BYTES:
        return None
    if cf.major_version < 50 or any(i.opcode in (op.MONITORENTER, op.MONITOREXIT) for i in insns):
        return None
    try:
        states = code.type_states(returns)
    except CodeFormatError:
        return None
    for insn in returns:
        state = states.get(insn)
        if state is None or len(state.stack) != (0 if insn.opcode == op.RETURN else 1):
            return None
    return Label()


@dataclass
class InstrumentedClass:
    name: str
    data: bytes
    maps: list
    refused: list  # messages for methods left uninstrumented (over 64 KB)


def instrument_class(data: bytes, methods: Optional[Iterable[MethodId]], batch: Batch) -> InstrumentedClass:
    """Count ``methods`` of the class in ``data`` (all methods with code when None)."""
    cf = ClassFile.parse(data)
    wanted = None if methods is None else {(m.name, m.descriptor) for m in methods}
    maps, refused = [], []
    call_keys: dict = {}
    for m in cf.methods:
        if not m.has_code() or (wanted is not None and (m.name, m.descriptor) not in wanted):
            continue
        index, original = m.find_attribute("Code")
        # Too big for 64 KB? Per instruction kind needs fewer counters than many blocks; past that, all
        # blocks may still fit where an increment per instruction does not.
        attempts = [("block", MAX_BLOCKS), ("instruction", None), ("block", None)] \
            if batch.strategy == "block" else [("instruction", None)]
        strategy = batch.strategy
        error = None
        for attempt, limit in attempts:
            saved = (batch.size, len(batch.maps), set(batch.arities))
            batch.strategy = attempt
            try:
                cmap = instrument_method(m, batch, call_keys, limit)
                m.attributes[index] = m.code.encode()
                break
            except CodeTooLargeError as e:
                batch.size, batch.maps[saved[1]:], batch.arities = saved[0], [], saved[2]
                m.attributes[index] = original
                error = e
            except CodeFormatError:
                raise  # names the method already
            except ClassFormatError as e:  # a name, descriptor or constant the counters need is broken
                raise CodeFormatError(f"{m.where()}: {e}") from None
            finally:
                batch.strategy = strategy
        else:
            refused.append(str(error))
            continue
        maps.append(cmap)
    return InstrumentedClass(cf.name, cf.to_bytes(), maps, refused)
