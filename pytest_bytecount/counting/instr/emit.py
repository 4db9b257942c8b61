"""What code counts one method, once :mod:`.method_plan` has placed its counters: the counters' locals and
increments, the report that adds them to the batch's totals before every return (inline for the owner
thread when one unit is added, else ``Counters.add``; past a size, one shared exit), the catch-all handlers
for exits by exception, and the inclusive hooks. Stack map frames of inserted labels are only marked
(:data:`~..classfile.code.COMPUTE_FRAME`, :class:`~..classfile.code.AddedLocalsFrame`): the class-file
layer works them out when it encodes."""

from __future__ import annotations

from typing import Optional

from ...classfile import CodeFormatError, Insn
from ...classfile import opcodes as op
from ...classfile.assemble import push_int
from ...classfile.code import COMPUTE_FRAME, AddedLocalsFrame, Handler, Label
from ...classfile.inserted_frames import StateFrame
from ...classfile.frames import INTEGER, LONG, TOP, UNINITIALIZED_THIS, Obj, is_wide, type_from_descriptor
from ..counts.countermap import CounterMap
from ..flow.derived import edge_places, label_blocks
from ..counts.keys import INVOKES, alloc_key, call_key
from ..flow.method_plan import BLOCKS, KEYS, PATHS, MethodPlan
from .runtime import MAX_VALUES_PER_CALL, RUNTIME_CLASS, add_descriptor

SHARED_EXIT_BYTES = 2048  # past this much repeated report code, returns jump to one shared exit
REPORT_STACK = 6  # the inline owner report's deepest point above the stack it starts from (OWNED, index, a long)
_ZERO = {**dict.fromkeys("IZBCS", op.ICONST_0), "J": op.LCONST_0, "F": op.FCONST_0, "D": op.DCONST_0,
         "L": op.ACONST_NULL, "[": op.ACONST_NULL}
_STORE = {**dict.fromkeys("IZBCS", op.ISTORE), "J": op.LSTORE, "F": op.FSTORE, "D": op.DSTORE,
          "L": op.ASTORE, "[": op.ASTORE}
_LOAD = {**dict.fromkeys("IZBCS", op.ILOAD), "J": op.LLOAD, "F": op.FLOAD, "D": op.DLOAD,
         "L": op.ALOAD, "[": op.ALOAD}


def emit(plan: MethodPlan, runtime: str = RUNTIME_CLASS) -> set:
    """Emit ``plan``'s counting code into its method (the map's ``base`` is set already). Returns the
    (kind, arity) pairs of the ``add`` methods the reports call. ``runtime``: the support class that holds
    the counters (the batch's one, or a class's own when classes are counted one at a time)."""
    e = _Emitter(plan, runtime)
    {PATHS: e.path_counter, BLOCKS: e.block_counters, KEYS: e.key_counters}[plan.layout]()
    if plan.hooks is not None:
        e.token = e.code.add_locals([LONG])[0]
        e.init += plan.hooks.enter(e.token)
    e.element_totals()
    returns = [i for i in e.insns if i.opcode in op.RETURNS]
    exit_label = e.report_at_returns(returns)
    if plan.hooks is not None:
        e.hook_calls(returns, exit_label)
    stretches, bounds = e.handler_stretches()
    e.insert(bounds)
    if plan.catch_all:
        e.handlers(stretches)
    if exit_label is not None:
        e.shared_exit(exit_label, returns)
    e.code.items += e.trampolines
    if e.report_depth is not None and not (plan.catch_all or e.after or e.trampolines):
        # the inline reports are all the added code that pushes, and valid code declares its own depth (JVMS 4.7.3)
        e.code.max_stack, e.code.stack_bounded = max(e.code.max_stack, e.report_depth + REPORT_STACK), True
    return e.arities


class _Emitter:
    """The code of one method under construction: ``edits`` before instructions (jumps to them run it
    too), ``init`` at entry, ``after`` right after an instruction, ``fallthrough`` run only by code
    falling into an instruction; ``values`` are what the report adds, in counter order (None: the
    constant 1; an int: a counter's local; ("elements", slot): an array length total)."""

    def __init__(self, plan: MethodPlan, runtime: str = RUNTIME_CLASS):
        self.plan = plan
        self.runtime = runtime
        self.cf = plan.method.owner
        self.cp = self.cf.constant_pool
        self.code = plan.code
        self.insns = self.code.instructions
        self.cmap: CounterMap = plan.cmap
        self.wide = plan.wide
        self.kind = "J" if plan.wide else "I"
        self.per_call = MAX_VALUES_PER_CALL if not plan.wide else MAX_VALUES_PER_CALL // 2  # argument slots
        # with inclusive hooks, the normal report goes to the flat counters and then every active target's
        self.owner, self.add_name = (runtime, "add") if plan.hooks is None else (plan.hooks.add_owner, plan.hooks.add_name)
        self.edits: dict = {id(i): [] for i in self.insns}
        self.init: list = []
        self.after: list = []
        self.fallthrough: list = []
        self.values: list = []
        self.spills: list = []  # per value: the long local its int counter is added to, or None
        self.int_slots: set = set()  # with long reports: the int counters (per instruction) reported as they are
        self.arities: set = set()
        self.path_slot = self.token = self.result_slot = self.report_depth = None
        self.trampolines: list = []  # code after all the method's own, reached only by branches redirected to it

    # --- the counters ------------------------------------------------------------------------------
    def path_counter(self) -> None:
        """Ball-Larus: the path number grows on fall-through edges; the report adds 1 to its counter."""
        paths = self.plan.paths
        self.path_slot = self.code.add_locals([INTEGER])[0]
        self.init = [Insn(op.ICONST_0), Insn(op.ISTORE, self.path_slot)]
        self.fallthrough = [(self.plan.blocks[b][0], [Insn(op.IINC, (self.path_slot, inc))])
                            for b, inc in sorted(paths.increments.items())]

    def block_counters(self) -> None:
        """A counter at the start of each counted block (the entry block's is the constant 1 if no jump
        reaches it), those the loop's own locals keep (:meth:`loop_edges`), and one on each counted edge
        leaving a loop."""
        plan = self.plan.block_plan
        counted = plan.counted[1:] if plan.entry_once else plan.counted
        slots = self.code.add_locals([LONG if self.wide else INTEGER] * (len(counted) + len(plan.edges)))
        for blk, slot in zip(counted, slots):
            if blk not in plan.derived:
                self.edits[id(self.plan.blocks[blk][0])] += self._bump(slot)
        self.values = ([None] if plan.entry_once else []) + slots
        self.init = [x for slot in slots for x in ([Insn(op.LCONST_0), Insn(op.LSTORE, slot)] if self.wide
                                                   else [Insn(op.ICONST_0), Insn(op.ISTORE, slot)])]
        if plan.derived or plan.edges:
            self.loop_edges(dict(zip(counted, slots)), dict(zip(plan.edges, slots[len(counted):])))

    def _bump(self, slot: int) -> list:
        return ([Insn(op.LLOAD, slot), Insn(op.LCONST_1), Insn(op.LADD), Insn(op.LSTORE, slot)] if self.wide
                else [Insn(op.IINC, (slot, 1))])

    def loop_edges(self, slot_of: dict, edge_slots: dict) -> None:
        """The counting done on a loop's way in and out, on the edges themselves (see
        :func:`~.derived.edge_places`), in one piece of code per edge: the counters of counted edges, and
        those :mod:`.derived` takes from a loop's own locals (its entries save the locals, its exits add
        their unsigned change to the blocks' long counters)."""
        blocks = self.plan.blocks
        per_loop: dict = {}
        for blk, d in sorted(self.plan.block_plan.derived.items()):
            per_loop.setdefault(d.loop, []).append((slot_of[blk], d))
        on_edge: dict = {edge: (self._bump(slot), []) for edge, slot in edge_slots.items()}  # (leaving, entering)
        for members in per_loop.values():
            xs = sorted({d.slot for _, d in members})
            saved = dict(zip(xs, self.code.add_locals([INTEGER] * len(xs))))
            self.init += [x for s in saved.values() for x in (Insn(op.ICONST_0), Insn(op.ISTORE, s))]
            save = [x for v, s in saved.items() for x in (Insn(op.ILOAD, v), Insn(op.ISTORE, s))]
            add = []
            for counter, d in members:
                change = ([Insn(op.ILOAD, d.slot), Insn(op.ILOAD, saved[d.slot])] if d.step == 1
                          else [Insn(op.ILOAD, saved[d.slot]), Insn(op.ILOAD, d.slot)])
                add += [Insn(op.LLOAD, counter), *change, Insn(op.ISUB), Insn(op.I2L),  # unsigned: << 32 >>> 32
                        Insn(op.BIPUSH, 32), Insn(op.LSHL), Insn(op.BIPUSH, 32), Insn(op.LUSHR),
                        Insn(op.LADD), Insn(op.LSTORE, counter)]
            d = members[0][1]
            for edge in d.exits:
                on_edge.setdefault(edge, ([], []))[0].extend(add)
            for edge in d.entries:
                on_edge.setdefault(edge, ([], []))[1].extend(save)
            if d.at_start:
                self.init += save
        labels = label_blocks(self.code, blocks)
        places = {edge: edge_places(blocks, labels, *edge) for edge in on_edge}  # before any branch is redirected
        frames = self.cf.major_version >= 50
        for (u, t), (leave, enter) in sorted(on_edge.items()):
            code = leave + enter
            last = blocks[u][-1]
            for place in places[(u, t)]:
                copy = [Insn(i.opcode, i.arg) for i in code]
                if place == "fall":
                    self.fallthrough.append((blocks[u + 1][0], copy))
                elif place == "goto":
                    self.edits[id(last)] += copy
                else:  # the branch jumps to a trampoline, which jumps on to the original target
                    trampoline = Label()
                    if frames:
                        trampoline.frame = COMPUTE_FRAME
                    self.trampolines += [trampoline, *copy, Insn(op.GOTO, last.arg)]
                    last.arg = trampoline

    def key_counters(self) -> None:
        """ByCounter's reference: an int per opcode, call signature and allocation key, an ``iinc`` before
        every instruction; and a counter per source line, which each basic block adds its instructions on
        that line to as it begins (a block runs whole or ends at an instruction that threw). In a method
        with a loop the line counters are longs, added to directly (spilling them at every loop head, as
        the others are, would cost each loop iteration a few instructions per line)."""
        cmap, cp, keys = self.cmap, self.cp, self.plan.call_keys
        allocs = cmap.allocs or ()
        lines = cmap.lines or ()
        slots = self.code.add_locals([INTEGER] * (len(cmap.opcodes) + len(cmap.calls) + len(allocs)))
        op_slot = dict(zip(cmap.opcodes, slots))
        call_slot = dict(zip(cmap.calls, slots[len(cmap.opcodes):]))
        alloc_slot = dict(zip(allocs, slots[len(cmap.opcodes) + len(cmap.calls):]))
        line_slots = self.code.add_locals([LONG if self.wide else INTEGER] * len(lines))
        line_slot = dict(zip(lines, line_slots))
        for block, counts in zip(self.plan.blocks, self.plan.line_counts or ()):
            for line, n in sorted(counts.items()):
                self.edits[id(block[0])] += self._add_to(line_slot[line], n)
        for insn in self.insns:
            self.edits[id(insn)].append(Insn(op.IINC, (op_slot[insn.mnemonic], 1)))
            if insn.opcode in INVOKES:
                self.edits[id(insn)].append(Insn(op.IINC, (call_slot[call_key(insn, cp, keys)], 1)))
            if allocs:
                k = alloc_key(insn, cp)
                if k:
                    self.edits[id(insn)].append(Insn(op.IINC, (alloc_slot[k], 1)))
        self.values = [None] + slots + line_slots  # None: the invocation, 1
        self.init = [x for slot in slots for x in (Insn(op.ICONST_0), Insn(op.ISTORE, slot))]
        self.init += [x for slot in line_slots for x in ([Insn(op.LCONST_0), Insn(op.LSTORE, slot)] if self.wide
                                                         else [Insn(op.ICONST_0), Insn(op.ISTORE, slot)])]
        if self.wide:
            self.spill_at_loop_heads(slots, [*cmap.opcodes, *cmap.calls, *allocs])
            self.spills += [None] * len(line_slots)

    def _add_to(self, slot: int, n: int) -> list:
        """Add the constant ``n`` (> 0) to a counter: a long in a method with a loop, else an int."""
        if self.wide:
            push = [Insn(op.LCONST_1)] if n == 1 else [push_int(self.cp, n), Insn(op.I2L)]
            return [Insn(op.LLOAD, slot), *push, Insn(op.LADD), Insn(op.LSTORE, slot)]
        return [Insn(op.IINC, (slot, step)) for step in [32767] * (n // 32767) + [n % 32767] if step]

    def spill_at_loop_heads(self, slots: list, keyed: list) -> None:
        """Per instruction kind with a loop: add each int counter of a key on a cycle into a long at every
        loop head and zero it, so that no int passes 2**31 within one invocation."""
        spilled = [slot for slot, key in zip(slots, keyed) if key in self.plan.looping]
        big = dict(zip(spilled, self.code.add_locals([LONG] * len(spilled))))
        self.spills = [None] + [big.get(slot) for slot in slots]
        self.int_slots.update(slots)
        flush = []
        for slot, b in big.items():
            self.init += [Insn(op.LCONST_0), Insn(op.LSTORE, b)]
            flush += [Insn(op.LLOAD, b), Insn(op.ILOAD, slot), Insn(op.I2L), Insn(op.LADD), Insn(op.LSTORE, b),
                      Insn(op.ICONST_0), Insn(op.ISTORE, slot)]
        for h in sorted(self.plan.heads or ()):
            first = self.plan.blocks[h][0]
            self.edits[id(first)] = flush + self.edits[id(first)]

    def element_totals(self) -> None:
        """Array lengths: after each array creation, its length is added to a long per array type."""
        elements = self.cmap.elements
        if not elements:
            return
        element_slot = dict(zip(elements, self.code.add_locals([LONG] * len(elements))))
        for slot in element_slot.values():
            self.init += [Insn(op.LCONST_0), Insn(op.LSTORE, slot)]
        for i, insn in enumerate(self.insns):
            k = alloc_key(insn, self.cp)
            if k and k.startswith("a:"):
                slot = element_slot[k[2:]]
                self.after.append((self.insns[i + 1], [Insn(op.DUP), Insn(op.ARRAYLENGTH), Insn(op.I2L),
                                                       Insn(op.LLOAD, slot), Insn(op.LADD), Insn(op.LSTORE, slot)],
                                   False))
        self.values += [("elements", element_slot[k]) for k in elements]
        self.spills += [None] * len(elements) if self.spills else []

    # --- the report --------------------------------------------------------------------------------
    def report(self, target: CounterMap, vals: list, shift: int = 0, owner: Optional[str] = None) -> list:
        """``add(first, c0, ..., cN)``, as many calls as argument slots need. ``"one"``: the constant 1,
        outside ``values`` (``shift`` of them lead)."""
        out = []
        for start in range(0, len(vals), self.per_call):
            chunk = vals[start:start + self.per_call]
            out.append(push_int(self.cp, target.base + start))
            for j, slot in enumerate(chunk, start):
                out += self._push(j - shift, None if slot == "one" else slot)  # "one", like None: the constant 1
            add = self.cp.add_methodref(owner or self.runtime, "add" if owner is None else self.add_name,
                                        add_descriptor(len(chunk), self.kind))
            out.append(Insn(op.INVOKESTATIC, add))
            self.arities.add((self.kind, len(chunk)))
        return out

    def _push(self, j: int, slot) -> list:
        if slot is None:
            return [Insn(op.LCONST_1 if self.wide else op.ICONST_1)]
        if isinstance(slot, tuple):  # an element total: always a long
            return [Insn(op.LLOAD, slot[1])]
        if not self.wide:
            return [Insn(op.ILOAD, slot)]
        if self.spills and self.spills[j] is not None:  # the long so far plus the int since the last loop head
            return [Insn(op.LLOAD, self.spills[j]), Insn(op.ILOAD, slot), Insn(op.I2L), Insn(op.LADD)]
        if slot in self.int_slots:  # counts only instructions outside cycles: at most once each per invocation
            return [Insn(op.ILOAD, slot), Insn(op.I2L)]
        return [Insn(op.LLOAD, slot)]

    def report_at_returns(self, returns: list) -> Optional[Label]:
        """The report before every return, or (many returns with a long report: a huge method) the saved
        result and a jump to one shared exit, whose label is returned."""
        exit_label = _shared_exit(self.code, self.cf, self.insns, returns, self.values, self.wide)
        paths = self.plan.paths
        # One unit to add (the path's counter, or the invocation counter of a method with one path): the
        # owner thread's add is written inline, which HotSpot compiles better than the same code inlined
        # from Counters.add; other threads call Counters.add(first [+ path], 1).
        if self.plan.hooks is None and (paths is not None or (self.values == [None] and not self.cmap.elements)):
            self.arities.add(("I", 1))
            index = [push_int(self.cp, self.cmap.base)] + (
                [Insn(op.ILOAD, self.path_slot), Insn(op.IADD)] if paths is not None else [])
            states = _states_known(self.code, self.cf, returns)
            if states and exit_label is None and len(states) == len(returns):  # the deepest return's stack, in slots
                self.report_depth = max(sum(2 if is_wide(t) else 1 for t in states[i].stack) for i in returns)
            for insn in returns:
                # the report leaves the method's own locals and the stack as they were before the return, and the
                # added locals are all stored at entry with their types (but a shared exit's result: the walk)
                state = states.get(insn) if states and exit_label is None else None
                self.edits[id(insn)] += _owner_report(self.cp, index, None if states is None else bool(states),
                                                      self.runtime, state)
            self.values = []  # reported
        elif paths is not None:  # add(first + path, 1)
            self.arities.add(("I", 1))
            for insn in returns:
                self.edits[id(insn)] += [push_int(self.cp, self.cmap.base), Insn(op.ILOAD, self.path_slot),
                                         Insn(op.IADD), Insn(op.ICONST_1), Insn(op.INVOKESTATIC, self.cp.add_methodref(
                                             self.owner, self.add_name, add_descriptor(1, "I")))]
        if exit_label is not None:
            rtype = _return_type(self.plan.method)
            if rtype != "V":
                self.result_slot = self.code.add_locals([type_from_descriptor(rtype)])[0]
                self.init += [Insn(_ZERO[rtype[0]]), Insn(_STORE[rtype[0]], self.result_slot)]
                for insn in returns:
                    self.edits[id(insn)].append(Insn(_STORE[rtype[0]], self.result_slot))
        elif self.values:
            for insn in returns:
                self.edits[id(insn)] += self.report(self.cmap, self.values, owner=self.owner)
        return exit_label

    def hook_calls(self, returns: list, exit_label: Optional[Label]) -> None:
        """Inclusive counts: leave at every return (or at the shared exit), arm the calls, resync in the
        method's own handlers."""
        hooks = self.plan.hooks
        if exit_label is None:
            for insn in returns:
                self.edits[id(insn)] += hooks.leave(self.token)
        self.after += _arm_calls(hooks, self.code, self.insns, self.edits)
        for insn in _handler_entries(self.code):
            self.edits[id(insn)] += hooks.resync(self.token)

    # --- exits by exception ------------------------------------------------------------------------
    def handler_stretches(self) -> tuple[list, list]:
        """Stretches of the body with one catch-all handler each, as (start label, ``this``
        uninitialized?; None: no handler), and the labels to insert where they begin: everything after
        the counters are zeroed, or in a constructor the stretches where ``this`` is uninitialized (the
        handler's frame says so) and those where it is not."""
        start = Label()
        self.init.append(start)  # the handler's range begins after the counters are zeroed
        if not (self.plan.catch_all and self.plan.uninit is not None):
            return [(start, False)], []
        return constructor_stretches(self.insns, self.plan.uninit, self.cp, start)

    def insert(self, bounds: list) -> None:
        # zero the counters before everything, and keep jumps to the first instruction (a loop head) after it
        # (an array's length is read right after the instruction that created it: before the next one's
        # labels, so that no jump skips it; a stretch begins before the next instruction's own code)
        self.code.insert_many([(self.insns[0], self.init, False)] + self.after + bounds
                              + [(insn, c, False) for insn, c in self.fallthrough]
                              + [(insn, self.edits[id(insn)], True) for insn in self.insns if self.edits[id(insn)]])

    def handlers(self, stretches: list) -> None:
        """One handler per kind of stretch: report the abrupt counters and the hooks' failure, rethrow.
        Its frame holds only the added locals (and an uninitialized ``this``), so the verifier accepts
        it anywhere in its range."""
        code = self.code
        end = Label()
        code.items.append(end)
        handlers = {}
        for flag in sorted({f for _, f in stretches if f is not None}):
            label = Label()
            label.frame = AddedLocalsFrame((Obj("java/lang/Throwable"),), (UNINITIALIZED_THIS,) if flag else ())
            code.items.append(label)
            if self.plan.abrupt and self.plan.layout == BLOCKS:  # an invocation counter first, the constant 1
                code.items += self.report(self.cmap.abrupt, ["one"] + self.values, shift=1)
            elif self.plan.abrupt:  # per instruction: the same layout as the normal report
                code.items += self.report(self.cmap.abrupt, self.values)
            if self.plan.hooks is not None:
                code.items += self.plan.hooks.fail(self.token)
            code.items.append(Insn(op.ATHROW))
            handlers[flag] = label
        ends = [lab for lab, _ in stretches[1:]] + [end]
        for (lab, flag), stop in zip(stretches, ends):
            if flag is not None:
                code.handlers.append(Handler(lab, stop, handlers[flag], 0))

    def shared_exit(self, exit_label: Label, returns: list) -> None:
        """Every return becomes a jump to the exit, which reports and returns the saved result; the exit
        lies outside every handler range, and its frame holds only the added locals."""
        rtype = _return_type(self.plan.method)
        exit_op = returns[0].opcode
        for insn in returns:
            insn.opcode, insn.arg, insn.wide = op.GOTO, exit_label, False
        exit_label.frame = AddedLocalsFrame(())
        items = self.code.items
        items.append(exit_label)
        items += self.report(self.cmap, self.values, owner=self.owner)
        if self.plan.hooks is not None:
            items += self.plan.hooks.leave(self.token)
        if self.result_slot is not None:
            items.append(Insn(_LOAD[rtype[0]], self.result_slot))
        items.append(Insn(exit_op))


def constructor_stretches(insns: list, uninit: list, cp, start: Label) -> tuple[list, list]:
    """In a constructor (``uninit``: per instruction, whether ``this`` is uninitialized there), the stretches of
    one catch-all handler each, as (start label, ``this`` uninitialized?; None: no handler), the first one
    beginning at ``start``, and the labels to insert where the others begin ([(instruction, [label], False)]).

    The call that initializes `this` gets no handler: HotSpot checks its handlers with the locals after the
    call but the flags before it, which no stack map frame can express. An exception thrown by the super(...)
    or this(...) constructor itself is therefore not seen by the handlers."""
    flags = list(uninit)
    for k, insn in enumerate(insns[:-1]):
        if flags[k] and flags[k + 1] is False and insn.opcode == op.INVOKESPECIAL and cp.member_ref(insn.arg)[1] == "<init>":
            flags[k] = None
    stretches, bounds = [], []
    state = "start"
    for insn, flag in zip(insns, flags):
        if flag != state:
            lab = start if state == "start" else Label()
            if state != "start":
                bounds.append((insn, [lab], False))
            stretches.append((lab, flag))
            state = flag
    return stretches, bounds


def _return_type(method) -> str:
    return method.descriptor[method.descriptor.index(")") + 1:]


def _states_known(code, cf, at: list) -> Optional[dict]:
    """The type states right before ``at``, where inserted labels there get stack map frames: {} in class files
    without frames (before version 50), None when the code cannot be simulated there."""
    if cf.major_version < 50:
        return {}
    try:
        return code.type_states(at)
    except CodeFormatError:
        return None


def _owner_report(cp, index: list, frames: Optional[bool], runtime: str, state=None) -> list:
    """``if (Thread.currentThread() == Counters.OWNER) Counters.OWNED[index]++; else Counters.add(index, 1);``
    before a return; ``frames``: mark both labels for a computed frame, with ``state`` (the type state before
    the return) one worked out already. Where frames are needed but unknown (None): the call alone."""
    call = Insn(op.INVOKESTATIC, cp.add_methodref(runtime, "add", add_descriptor(1, "I")))
    if frames is None:
        return [*index, Insn(op.ICONST_1), call]
    slow, done = Label(), Label()
    if frames:
        slow.frame = done.frame = COMPUTE_FRAME if state is None else StateFrame(state)
    return [Insn(op.INVOKESTATIC, cp.add_methodref("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;")),
            Insn(op.GETSTATIC, cp.add_fieldref(runtime, "OWNER", "Ljava/lang/Thread;")),
            Insn(op.IF_ACMPNE, slow),
            Insn(op.GETSTATIC, cp.add_fieldref(runtime, "OWNED", "[J")), *index,
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


def _shared_exit(code, cf, insns, returns, values, wide) -> Optional[Label]:
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
