"""The documentation's runnable parts, read from the Markdown itself.

A fenced block runs or is checked when an HTML comment on the line before it says how:

- ``<!-- run SCENARIO -->`` (``, exits N`` when the last command fails on purpose): shell commands, run in
  order with the SCENARIO's earlier blocks, in the folder the previous block ended in;
- ``<!-- output -->``: what the previous ``run`` block prints, or the part of it from some line on. Lines are
  matched in order; a line ``...`` stands for any lines, and ``...`` inside a line for any text;
- ``<!-- file SCENARIO PATH -->``: written to PATH, relative to the SCENARIO's current folder;
- ``<!-- same-as PATH -->``: a TOML block equal to the ``[tool.bytecount]`` table of the file PATH.

``<!-- reference NAME -->`` before a Markdown table names a reference table (its first column's names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

_FENCED = re.compile(r"^<!-- (?P<directive>[^>]*?) -->\n```(?P<lang>[\w-]*)\n(?P<body>.*?)^```\s*$", re.S | re.M)
_TABLE = re.compile(r"^<!-- reference (?P<name>[\w-]+) -->\n(?P<table>(?:\|.*\n)+)", re.M)
_RUN = re.compile(r"^run (?P<scenario>[\w-]+)(?:, exits (?P<code>\d+))?$")
_FILE = re.compile(r"^file (?P<scenario>[\w-]+) (?P<path>\S+)$")


@dataclass(frozen=True)
class Block:
    kind: str  # run, output, file, same-as
    body: str
    line: int  # where the fence opens, for messages
    scenario: Optional[str] = None
    exit_code: int = 0
    path: Optional[str] = None


def blocks(text: str) -> list:
    """Every directed fenced block, in the order of the text."""
    out = []
    for m in _FENCED.finditer(text):
        directive, line = m["directive"].strip(), text.count("\n", 0, m.start("lang")) + 1
        run, file = _RUN.match(directive), _FILE.match(directive)
        if run:
            out.append(Block("run", m["body"], line, run["scenario"], int(run["code"] or 0)))
        elif file:
            out.append(Block("file", m["body"], line, file["scenario"], path=file["path"]))
        elif directive == "output":
            out.append(Block("output", m["body"], line))
        elif directive.startswith("same-as "):
            out.append(Block("same-as", m["body"], line, path=directive.split(" ", 1)[1]))
        else:
            raise ValueError(f"line {line}: unknown directive <!-- {directive} -->")
    return out


def reference_tables(text: str) -> dict:
    """``{name: [first-column names]}``: each table's first cell, its first code span without arguments
    (``jclass(name)`` -> ``jclass``, ``--bytecount-jvm=NAME`` -> ``--bytecount-jvm``)."""
    tables = {}
    for m in _TABLE.finditer(text):
        rows = m["table"].splitlines()[2:]  # header and separator first
        names = []
        for row in rows:
            cell = row.split("|")[1].strip()
            code = re.match(r"`([^`]+)`", cell)
            assert code, f"reference {m['name']}: the first cell of {row!r} is not a code span"
            names.append(re.split(r"[( ]|=[A-Z]", code[1])[0])
        tables[m["name"]] = names
    return tables


def mismatch(expected: str, actual: str) -> Optional[str]:
    """None when ``actual`` shows every line of ``expected`` in order, the first anywhere and each other one
    right after the one before (``...`` lines and ``...`` inside lines are wildcards); otherwise the first
    expected line not found."""
    lines = [line.rstrip() for line in actual.splitlines()]
    at, skipping = 0, True
    for want in expected.rstrip("\n").splitlines():
        if want.strip() == "...":
            skipping = True
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in want.rstrip().split("...")))
        while at < len(lines) and not pattern.fullmatch(lines[at]):
            if not skipping:
                return f"{want!r} expected, got {lines[at]!r}"
            at += 1
        if at == len(lines):
            return f"{want!r} not found"
        at, skipping = at + 1, False
    return None


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")
