"""Per-line counts for the oracle: the JVMTI agent's executed-bytecode counts per bci (tests/support/oracle.py)
mapped through the LineNumberTable that ``javap -l`` prints. Shares no code with ``pytest_bytecount``.

A bci's line is that of the table entry with the greatest start at or before it; of entries with the
same start, the one javap lists last. A bci before every entry, or in a method without a table, is on no
line: key ``"none"``. (javap prints the entries in the class file's order.)
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from .javac import javap
from .oracle import _CLASS_HEADER, _internal, _member_name, method_id, run_agent

_LINE = re.compile(r"^\s+line (\d+): (\d+)$")
NO_LINE = "none"


def parse_line_tables(text: str) -> Dict[tuple, List[Tuple[int, int]]]:
    """``javap -l -p -s`` output -> per (class, name, descriptor), the [(start, line)] of its table(s)."""
    tables: Dict[tuple, List[Tuple[int, int]]] = {}
    this_class = name = None
    current = None
    for line in text.splitlines():
        if not line.startswith(" "):
            match = _CLASS_HEADER.match(line)
            if match and line.rstrip().endswith("{"):
                this_class = _internal(match.group(1))
            name = current = None
            continue
        if line.startswith("  ") and not line.startswith("   "):
            header = line.strip()
            name = "<clinit>" if header == "static {};" else _member_name(header) if "(" in header else None
            current = None
            continue
        stripped = line.strip()
        if stripped.startswith("descriptor: ") and name is not None and this_class is not None:
            current = tables.setdefault((this_class, name, stripped[len("descriptor: "):]), [])
            continue
        match = _LINE.match(line)
        if match and current is not None:
            current.append((int(match.group(2)), int(match.group(1))))
    return tables


def line_of(table: List[Tuple[int, int]], bci: int) -> str:
    best = None
    for start, line in table:
        if start <= bci and (best is None or start >= best[0]):
            best = (start, line)
    return NO_LINE if best is None else str(best[1])


def oracle_lines(classpath: Sequence[Path], classes: Sequence[str], main: str, args: Sequence[str] = (),
                 java=None) -> Dict[str, Dict[str, int]]:
    """{method id: {line: executed instructions}} of the methods of ``classes`` that completed normally while
    ``main.main(args)`` ran (the instructions of those invocations, as the oracle's counts hold them)."""
    output, _ = run_agent([Path(c) for c in classpath], classes, main, args, java)
    cp = os.pathsep.join(str(c) for c in classpath)
    names = sorted({key[0] for key in output.invocations})
    tables = parse_line_tables(javap(names[0].replace("/", "."), "-l", "-p", "-s", "-classpath", cp,
                                     *[n.replace("/", ".") for n in names[1:]]))
    out: Dict[str, Dict[str, int]] = {}
    for key in output.invocations:
        lines: Dict[str, int] = {}
        for bci, count in output.steps.get(key, {}).items():
            line = line_of(tables.get(key, []), bci)
            lines[line] = lines.get(line, 0) + count
        out[method_id(key)] = {k: v for k, v in lines.items() if v}
    return out
