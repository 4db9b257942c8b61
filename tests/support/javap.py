"""An oracle for "the same code": each method's code as the JDK's ``javap -c -v`` prints it, with what
differs between two compilations of the same code taken out (byte offsets, constant-pool indexes, line
numbers) and everything else kept (mnemonics, resolved members and constants, ``invokedynamic``
bootstrap methods, jump targets as instruction positions, the exception table, stack and locals).

It shares no code with the plugin: it reads javap's text, not the class file.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from .jdk import find_jdk_tool

_INSN = re.compile(r"^\s+(\d+): (\w+)\s*(.*)$")
_SWITCH_CASE = re.compile(r"^\s+(-?\d+|default): (\d+)$")
_HANDLER = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(.+)$")
_STACK = re.compile(r"^\s+stack=(\d+), locals=(\d+)")
_BOOTSTRAP = re.compile(r"^\s+(\d+): (#\d+ .*)$")
_BRANCHES = re.compile(r"^(if\w*|goto(_w)?|jsr(_w)?)$")
_INDEX = re.compile(r"#\d+")


def code_listings(class_file: Path) -> dict:
    """``{name + descriptor: listing}`` for every method with code of one class file."""
    text = subprocess.run([str(find_jdk_tool("javap")), "-c", "-p", "-v", str(class_file)], check=True,
                          stdout=subprocess.PIPE, text=True, timeout=120).stdout.splitlines()
    bootstrap = _bootstrap_methods(text)
    simple = Path(class_file).stem
    out: dict = {}
    header = None
    i = 0
    while i < len(text):
        line = text[i]
        if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(";"):
            header = line.strip()
        elif line.startswith("    descriptor: ") and header is not None:
            descriptor = line.split(": ", 1)[1].strip()
            name = "<clinit>" if header.startswith("static {}") else header.split("(", 1)[0].split()[-1]
            if name.rsplit(".", 1)[-1] == simple:
                name = "<init>"
            i, listing = _method(text, i + 1, bootstrap)
            if listing is not None:
                out[name + descriptor] = listing
            header = None
            continue
        i += 1
    return out


def _method(text: list, i: int, bootstrap: dict):
    """(the index after the method, its listing or None without code)."""
    insns: list = []  # [offset, mnemonic, operand text]
    handlers: list = []
    frame = None
    in_handlers = over = False  # in the exception table; past the code and its table
    while i < len(text) and not re.match(r"^(  \S|\S)", text[i]):  # up to the next member or the class's end
        line = text[i]
        m = _STACK.match(line)
        if m and frame is None:
            frame = f"stack {m.group(1)} locals {m.group(2)}"
        elif line.strip() == "Code:":
            pass
        elif line.strip() == "Exception table:":
            in_handlers = True
        elif re.match(r"^\s+[A-Z]\w+:", line) or re.match(r"^\s+\w+: length = ", line):
            in_handlers, over = False, True  # LineNumberTable:, StackMapTable: ... come after the code
        elif over:
            pass
        elif in_handlers:
            if _HANDLER.match(line):
                handlers.append(_HANDLER.match(line).groups())
        elif _SWITCH_CASE.match(line) and insns and insns[-1][1].endswith("switch"):
            key, target = _SWITCH_CASE.match(line).groups()
            insns[-1][3].append((key, int(target)))
        elif _INSN.match(line) and frame is not None:
            offset, mnemonic, rest = _INSN.match(line).groups()
            insns.append([int(offset), mnemonic, rest, []])
        i += 1
    if frame is None:
        return i, None
    position = {insn[0]: n for n, insn in enumerate(insns)}
    end = len(insns)

    def at(offset: int) -> str:
        return str(position.get(offset, end))

    lines = [frame]
    for offset, mnemonic, rest, cases in insns:
        if _BRANCHES.match(mnemonic):
            operand = at(int(rest.strip()))
        elif mnemonic.endswith("switch"):
            operand = " ".join(f"{k}:{at(t)}" for k, t in cases)
        else:
            code, _, comment = rest.partition("//")
            comment = comment.strip()
            m = re.match(r"InvokeDynamic #(\d+):(.*)$", comment)
            if m:
                comment = f"InvokeDynamic {m.group(2)} [{bootstrap.get(m.group(1), '?')}]"
            operand = " ".join(_INDEX.sub("", code).replace(",", " ").split())
            if comment:
                operand += " // " + comment
        lines.append(f"{mnemonic} {operand}".rstrip())
    for start, stop, target, kind in handlers:
        lines.append(f"try {at(int(start))} {at(int(stop))} {at(int(target))} {kind.strip()}")
    return i, "\n".join(lines)


def _bootstrap_methods(text: list) -> dict:
    """``{index: the bootstrap method and its arguments}`` from the BootstrapMethods section."""
    out: dict = {}
    try:
        start = text.index("BootstrapMethods:")
    except ValueError:
        return out
    current = None
    for line in text[start + 1:]:
        m = _BOOTSTRAP.match(line)
        if m:
            current = m.group(1)
            out[current] = _INDEX.sub("", m.group(2)).strip()
        elif line.strip() == "Method arguments:":
            continue
        elif line.startswith("      ") and current is not None:
            out[current] += " | " + _INDEX.sub("", line).strip()
        elif line.strip():
            break
    return out
