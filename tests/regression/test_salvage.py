"""The entries an unreadable baseline file still holds (regression.salvage), on files the plugin wrote and then
damaged as a full disk or a merge damages them."""

from __future__ import annotations

import json

from pytest_bytecount.regression.salvage import readable_entries

ENTRY = {"methods": {"p.C#m()V": {"calls": {}, "invocations": 1, "opcodes": {"return": 1}, "total": 1}}}


def _file(keys) -> str:
    return json.dumps({"format": 1, "tests": {k: ENTRY for k in keys}}, indent=2, sort_keys=True) + "\n"


def _sound(key, entry):
    return "methods" in entry


def test_a_file_cut_short_keeps_the_entries_written_whole():
    text = _file(["t1", "t2", "t3"])
    cut = text[:text.index('    "t3": {') + 40]
    kept, lost = readable_entries(cut.encode(), _sound)
    assert kept == {"t1": ENTRY, "t2": ENTRY} and lost == ["t3"]


def test_both_sides_of_a_conflict_lose_the_key_and_every_other_entry_stays():
    ours, theirs = _file(["a", "b"]), _file(["b", "c"]).replace('"total": 1', '"total": 2')
    merged = ours.replace('    "b": {', "<<<<<<< HEAD\n    \"b\": {", 1) + "=======\n" + theirs + ">>>>>>> other\n"
    kept, lost = readable_entries(merged.encode(), _sound)
    assert sorted(kept) == ["a", "c"] and lost == ["b"]
    assert kept["c"]["methods"]["p.C#m()V"]["total"] == 2


def test_an_entry_the_check_refuses_is_not_kept():
    kept, lost = readable_entries(_file(["x", "y"]).encode(), lambda key, entry: key != "y")
    assert sorted(kept) == ["x"] and lost == ["y"]
