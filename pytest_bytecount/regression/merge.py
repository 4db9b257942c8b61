"""Baseline entries merged test by test, as git's merge of two branches needs them: a three-way merge of ``{test key:
entry}`` tables (the merge driver's, :mod:`.merge_files`), and the two or three sides of a file that git left with its
conflict markers (no driver ran). Only data here: no files, no JSON.

An entry both sides changed, differently, cannot be merged: exact counts of one side are not those of the merged code.
It is kept (ours', or the side that kept it) with a ``"conflicted"`` key that says why, and its test fails until it is
re-recorded (``--bytecount-update=conflicted``)."""

from __future__ import annotations

from typing import Optional

CONFLICTED = "conflicted"  # the key of an entry that a merge could not decide: its value says why
BOTH_CHANGED = "changed on both sides of a git merge"
MARKERS_LEFT = "changed on both sides of a git merge that left conflict markers in the file"


def mark(entry: dict, reason: str) -> dict:
    """``entry`` marked to be re-recorded, for ``reason``."""
    return {**entry, CONFLICTED: reason}


def three_way(base: Optional[dict], ours: dict, theirs: dict, reason: str = BOTH_CHANGED) -> tuple:
    """``(merged, conflicted keys)``: each key as both sides agree, or as the side that changed it since ``base`` has
    it (its removal included); a key both changed differently (or one removed and the other changed) is kept marked
    (:func:`mark`). With no ``base`` (a conflict's two sides only) a key one side lacks is kept from the other."""
    merged: dict = {}
    conflicted = []
    for key in sorted(set(ours) | set(theirs) | set(base or {})):
        a, b = ours.get(key), theirs.get(key)
        clash = False
        if a == b:
            chosen = a
        elif base is None:
            chosen, clash = (a if a is not None else b), a is not None and b is not None
        else:
            o = base.get(key)
            chosen, clash = (b, False) if a == o else (a, False) if b == o else (None, True)
        if clash:
            kept = a if a is not None else b
            merged[key] = kept if CONFLICTED in kept else mark(kept, reason)
            conflicted.append(key)
        elif chosen is not None:
            merged[key] = chosen
    return merged, conflicted


def union(sides: list, base: Optional[dict] = None) -> tuple:
    """``(merged, clashes)`` of the ``{test key: entry}`` tables of shards (``sides``: ``[(label, table)]``), each of
    which recorded some tests: without ``base``, a key any side holds, as the sides that hold it agree; with ``base``
    (the table the shards started from: the committed baselines), a key as the one side that changed it (its
    removal included), else as ``base`` holds it. ``clashes``: ``{key: the labels of the sides that disagree}``,
    which a merge refuses (exact counts of two runs that differ are not both right)."""
    merged: dict = {}
    clashes: dict = {}
    keys = set(base or {}).union(*(set(table) for _, table in sides))
    for key in sorted(keys):
        if base is None:
            held = [(label, table[key]) for label, table in sides if key in table]
        else:
            held = [(label, table.get(key)) for label, table in sides if table.get(key) != base.get(key)]
        values = []
        for _, value in held:
            if value not in values:
                values.append(value)
        if len(values) > 1:
            clashes[key] = [label for label, _ in held]
        elif values:
            if values[0] is not None:
                merged[key] = values[0]
        elif base is not None and key in base:
            merged[key] = base[key]
    return merged, clashes


START, BASE, MIDDLE, END = "<<<<<<< ", "||||||| ", "=======", ">>>>>>> "


def has_markers(text: str) -> bool:
    lines = text.splitlines()
    return any(x.startswith(START) for x in lines) and any(x.startswith(END) for x in lines)


def conflict_sides(text: str) -> Optional[tuple]:
    """``(ours, base, theirs)``, the texts a file with git's conflict markers was merged from (``base`` None unless
    git wrote diff3's ``|||||||`` sections), or None when ``text`` holds no complete conflict."""
    if not has_markers(text):
        return None
    sides: dict = {"ours": [], "base": [], "theirs": []}
    state = None  # None: outside a conflict; else the side the lines belong to
    saw_base = False
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if bare.startswith(START) and state is None:
            state = "ours"
        elif bare.startswith(BASE) and state == "ours":
            state, saw_base = "base", True
        elif bare == MIDDLE and state in ("ours", "base"):
            state = "theirs"
        elif bare.startswith(END) and state == "theirs":
            state = None
        elif state is None:
            for side in sides.values():
                side.append(line)
        elif state == "base":
            sides["base"].append(line)
        else:
            sides[state].append(line)
    if state is not None:
        return None  # a conflict that never closed
    return "".join(sides["ours"]), ("".join(sides["base"]) if saw_base else None), "".join(sides["theirs"])
