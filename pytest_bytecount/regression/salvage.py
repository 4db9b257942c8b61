"""The entries an unreadable baseline file still holds, read one by one: a file cut short by a full disk, or one
that a merge left with conflict markers, is not valid JSON, but the plugin writes each test's entry as a block of
its own (``    "key": {`` at four spaces, up to the ``    }`` that closes it), so every block that still reads as
JSON, and whose entry is sound, is kept when the file is replaced. A key written twice with different entries (the
two sides of a conflict) is kept by neither: which side is right is the user's call, or a re-record's."""

from __future__ import annotations

import json
import re

_START = re.compile(r'^    ("(?:[^"\\]|\\.)*"): \{$')
_END = re.compile(r"^    \},?$")


def _key(line: str):
    """The test key a line opens a block for, or None."""
    m = _START.match(line)
    if m is None:
        return None
    try:
        return json.loads(m.group(1))
    except json.JSONDecodeError:
        return None


def readable_entries(raw: bytes, sound) -> tuple:
    """``({test key: entry}, [keys seen but not kept])`` of the blocks of ``raw`` that read as JSON and whose entry
    ``sound(key, entry)`` accepts."""
    found: dict = {}
    lost: list = []
    key = block = None
    for line in raw.decode("utf-8", errors="replace").splitlines():
        opened = _key(line)
        if opened is not None:
            if block is not None:  # a block that never closed: what follows is another's
                lost.append(key)
            key, block = opened, ["{"]
            continue
        if block is None:
            continue
        block.append(line)
        if _END.match(line):
            try:
                entry = json.loads("\n".join(block).rstrip(","))
            except json.JSONDecodeError:
                entry = None
            if entry is not None and sound(key, entry):
                found.setdefault(key, []).append(entry)
            else:
                lost.append(key)
            key = block = None
    if block is not None:
        lost.append(key)
    kept = {}
    for k, entries in found.items():
        if all(e == entries[0] for e in entries):
            kept[k] = entries[0]
        else:
            lost.append(k)
    return kept, sorted(set(lost) - set(kept))
