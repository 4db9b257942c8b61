"""What an instruction is counted under besides its mnemonic: its call signature (the counting contract's
``calls``), its allocation key (allocation recording) and its source line (``lines``), and what each line's
bytecode is (``line_digests``)."""

from __future__ import annotations

import hashlib
import struct
from typing import Optional

from ...classfile import Insn
from ...classfile.instructions import Label, LineNumbers
from ...classfile import opcodes as op

INVOKES = frozenset((op.INVOKEVIRTUAL, op.INVOKESPECIAL, op.INVOKESTATIC, op.INVOKEINTERFACE, op.INVOKEDYNAMIC))


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


def block_contents(blocks: list, cp, cache: dict, allocations: bool) -> list:
    """Per basic block, its static (opcode, call, allocation) counts, as a CounterMap's ``blocks`` holds them
    (``{key: count}`` in the order the keys first occur, as a map read back from the cache holds them)."""
    return [(_tally(i.mnemonic for i in b), _tally(call_key(i, cp, cache) for i in b if i.opcode in INVOKES),
             _tally(k for k in (alloc_key(i, cp) for i in b) if k) if allocations else {})
            for b in blocks]


def _tally(keys) -> dict:
    """``{key: how many times it occurs}``, in first-occurrence order (a Counter costs more to make than a
    basic block's few instructions take to count)."""
    out: dict = {}
    for k in keys:
        out[k] = out.get(k, 0) + 1
    return out


NO_LINE = "none"  # the "lines" key of instructions that no LineNumberTable entry covers


def instruction_lines(code) -> dict:
    """``{id(instruction): line}`` for the code's instructions, ``line`` a string (JSON keys are) or
    :data:`NO_LINE`. An instruction's line is that of the LineNumberTable entry with the greatest start at
    or before it; entries at the same start: the one listed last (of every LineNumberTable the code has,
    in order). Instructions before the first entry, and all of them without a table, have no line."""
    at: dict = {}
    for attr in code.attributes:
        if type(attr) is LineNumbers:
            for label, line in attr.entries:
                at[id(label)] = str(line)
    out: dict = {}
    current = NO_LINE
    for item in code.items:
        if type(item) is Label:
            current = at.get(id(item), current)
        else:
            out[id(item)] = current
    return out


def line_order(line: str) -> tuple:
    """A ``"lines"`` key's place when lines are shown in order: by number, :data:`NO_LINE` last."""
    return (0, int(line)) if line.isdigit() else (1, 0)


def block_lines(blocks: list, code, lines: Optional[dict] = None) -> list:
    """Per basic block, how many of its instructions each source line holds (``{line: n}``). ``lines``:
    :func:`instruction_lines` of the code, when the caller has it already."""
    lines = lines if lines is not None else instruction_lines(code)
    return [_tally(lines[id(i)] for i in b) for b in blocks]


def line_digests(code, cp, cache: Optional[dict] = None, lines: Optional[dict] = None) -> dict:
    """``{line: digest}``: per source line (keyed as :func:`instruction_lines` keys them), the first 8 hex
    digits of the SHA-1 of its instructions in order, each written as its mnemonic and its operand (a call's
    signature, a field's owner, name and type, a class, a constant, a local or an immediate; jump targets
    are left out, for they move with code elsewhere). Two lines with the same digest hold the same code.
    ``lines``: :func:`instruction_lines` of the code, when the caller has it already."""
    lines = lines if lines is not None else instruction_lines(code)
    texts: dict = {}
    for insn in code.instructions:
        if cache is not None and op.KIND[insn.opcode] in _CP_KINDS and type(insn.arg) is int:
            operand = cache.get(("operand", insn.opcode, insn.arg))  # its text depends on these alone
            if operand is None:
                operand = cache[("operand", insn.opcode, insn.arg)] = _operand(insn, cp, cache)
        else:
            operand = _operand(insn, cp, cache)
        texts.setdefault(lines[id(insn)], []).append(f"{insn.mnemonic} {operand}")
    return {line: hashlib.sha1("\n".join(t).encode("utf-8", "surrogatepass")).hexdigest()[:8]
            for line, t in texts.items()}


def _operand(insn: Insn, cp, cache: Optional[dict]) -> str:
    kind = op.KIND[insn.opcode]
    try:
        if insn.opcode in INVOKES:
            return call_key(insn, cp, cache)
        if kind in (op.K_CP1, op.K_CP2, op.K_MULTIANEWARRAY):
            index = insn.arg[0] if isinstance(insn.arg, tuple) else insn.arg
            entry = cp[index]
            dims = f" {insn.arg[1]}" if isinstance(insn.arg, tuple) else ""
            if entry[0] in (9, 10, 11):  # Fieldref, Methodref, InterfaceMethodref
                return ".".join(cp.member_ref(index))
            if entry[0] == 7:  # Class
                return cp.class_name(index) + dims
            if entry[0] == 8:  # String
                return repr(cp.utf8(entry[1]))
            return repr(entry)
        if kind in (op.K_BYTE, op.K_SHORT, op.K_LOCAL, op.K_IINC, op.K_NEWARRAY):
            return repr(insn.arg)
    except Exception:  # noqa: BLE001 - a broken constant: the mnemonic alone still says something
        return "?"
    return ""


_CP_KINDS = (op.K_CP1, op.K_CP2)


def code_fingerprint(code, cp, bootstrap: Optional[list] = None, cache: Optional[dict] = None) -> str:
    """The SHA-256 of a method's code as ``javap -c`` shows it: ``max_stack`` and ``max_locals``, then each
    instruction as its mnemonic and its operands resolved (a member's owner, name and descriptor, a class,
    a constant's value, an ``invokedynamic``'s bootstrap method and arguments, a local, an immediate), jump
    and switch targets as positions among the method's instructions, and the exception table likewise.
    Constant-pool indexes, byte offsets and line numbers are left out: two methods with the same
    fingerprint hold the same code even when their class files number their constants differently, and a
    method whose code points at other names through the same indexes gets another fingerprint.
    ``bootstrap``: the class's BootstrapMethods (:func:`bootstrap_methods`); ``cache``: a dict kept per constant
    pool (as :func:`call_key`'s), to write each constant once."""
    position: dict = {}
    n = 0
    for item in code.items:
        if type(item) is Label:
            position[id(item)] = n
        else:
            n += 1
    where = lambda label: str(position.get(id(label), "?"))  # noqa: E731 - a label's place among the instructions
    out = [f"stack {code.max_stack} locals {code.max_locals}"]
    for item in code.items:
        if type(item) is not Insn:
            continue
        if cache is not None and op.KIND[item.opcode] in _CP_KINDS:
            operand = cache.get(("constant", item.arg))
            if operand is None:
                operand = cache[("constant", item.arg)] = _constant(cp, item.arg, bootstrap)
        else:
            operand = _resolved_operand(item, cp, bootstrap, where)
        out.append(f"{'wide ' if item.wide else ''}{item.mnemonic} {operand}")
    for h in code.handlers:
        catch = _constant(cp, h.catch_type, bootstrap) if h.catch_type else "any"
        out.append(f"try {where(h.start)} {where(h.end)} {where(h.handler)} {catch}")
    return hashlib.sha256("\n".join(out).encode("utf-8", "surrogatepass")).hexdigest()


def bootstrap_methods(cf) -> list:
    """The class's BootstrapMethods attribute as ``[(method handle index, [argument indexes])]`` (empty
    when it has none, or one that cannot be read)."""
    cp = cf.constant_pool
    for attr in cf.attributes:
        try:
            if cp.utf8(attr.name_index) != "BootstrapMethods":
                continue
            data, out = attr.data, []
            (count,), pos = struct.unpack_from(">H", data, 0), 2
            for _ in range(count):
                handle, nargs = struct.unpack_from(">HH", data, pos)
                out.append((handle, list(struct.unpack_from(f">{nargs}H", data, pos + 4))))
                pos += 4 + 2 * nargs
            return out
        except Exception:  # noqa: BLE001 - unreadable: constants then show their bootstrap index alone
            return []
    return []


def _resolved_operand(insn: Insn, cp, bootstrap, where) -> str:
    kind, arg = op.KIND[insn.opcode], insn.arg
    if kind in (op.K_BRANCH, op.K_BRANCH_W):
        return where(arg)
    if kind in (op.K_TABLESWITCH, op.K_LOOKUPSWITCH):
        keys = range(arg.low, arg.high + 1) if arg.keys is None else arg.keys
        return " ".join([f"default:{where(arg.default)}"] + [f"{k}:{where(t)}" for k, t in zip(keys, arg.targets)])
    if kind in (op.K_CP1, op.K_CP2):
        return _constant(cp, arg, bootstrap)
    if kind in (op.K_INVOKEINTERFACE, op.K_INVOKEDYNAMIC, op.K_MULTIANEWARRAY):
        return " ".join([_constant(cp, arg[0], bootstrap), *(str(a) for a in arg[1:])])
    return "" if arg is None else repr(arg)


def _constant(cp, index: int, bootstrap, depth: int = 0) -> str:
    """One constant-pool entry as text, every index in it resolved (Dynamic entries to a few levels)."""
    try:
        entry = cp[index]
        tag = entry[0]
        if tag in (9, 10, 11):  # Fieldref, Methodref, InterfaceMethodref
            return ("interface " if tag == 11 else "") + ".".join(cp.member_ref(index))
        if tag == 7:  # Class
            return cp.class_name(index)
        if tag == 8:  # String
            return repr(cp.utf8(entry[1]))
        if tag in (3, 4, 5, 6):  # Integer, Float, Long, Double: their bits
            return f"{('int', 'float', 'long', 'double')[tag - 3]} {entry[1]}"
        if tag == 15:  # MethodHandle
            return f"handle {entry[1]} {_constant(cp, entry[2], bootstrap, depth + 1)}"
        if tag == 16:  # MethodType
            return "type " + cp.utf8(entry[1])
        if tag in (17, 18):  # Dynamic, InvokeDynamic: name, type, bootstrap method and its arguments
            bsm, name, desc = cp.dynamic_ref(index)
            text = f"dynamic {name}{desc}"
            if bootstrap is not None and bsm < len(bootstrap) and depth < 8:
                handle, args = bootstrap[bsm]
                text += " [" + ", ".join(_constant(cp, i, bootstrap, depth + 1) for i in (handle, *args)) + "]"
            else:
                text += f" bootstrap {bsm}"
            return text
        if tag in (19, 20):  # Module, Package
            return cp.utf8(entry[1])
        return repr(entry)
    except Exception:  # noqa: BLE001 - a broken constant: its index still tells two apart
        return f"#{index}?"
