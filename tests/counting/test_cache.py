"""The disk cache of instrumented batches: a hit gives exactly what instrumenting afresh gives, and no
stale or tampered entry is ever used."""

from __future__ import annotations

import shutil
from pathlib import Path

from pytest_bytecount.counting import cache
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.instrument import instrument

TARGETS = ["counting.Loops", "counting.Recursion#fib"]


def _same(a, b) -> bool:
    return a.classes == b.classes and a.layout() == b.layout() and a.size == b.size and a.refused == b.refused


def _entries(d: Path) -> list:
    return sorted(p for p in d.iterdir() if not p.name.startswith("."))


def test_a_hit_equals_a_fresh_instrumentation(counting_classes, tmp_path):
    cp = Classpath.parse([counting_classes["javac17"]])
    fresh = instrument(cp, TARGETS)
    first = instrument(cp, TARGETS, cache_dir=tmp_path)
    (entry,) = _entries(tmp_path)
    assert (entry / "manifest.json").is_file()
    again = instrument(Classpath.parse([counting_classes["javac17"]]), TARGETS, cache_dir=tmp_path)
    assert _same(fresh, first) and _same(fresh, again)
    assert _entries(tmp_path) == [entry]  # reused, not rebuilt under another key


def test_the_key_follows_class_bytes_targets_and_strategy(counting_classes, tmp_path):
    src = counting_classes["javac17"]
    copy = tmp_path / "classes"
    shutil.copytree(src, copy)
    cp = Classpath.parse([copy])
    key = cache.batch_key(cp, TARGETS, "block")
    assert key == cache.batch_key(Classpath.parse([copy]), TARGETS, "block")
    assert key != cache.batch_key(cp, TARGETS, "instruction")
    assert key != cache.batch_key(cp, TARGETS[:1], "block")
    # a class the patterns match changes: another key; a class they do not match changes: same key
    loops = copy / "counting" / "Loops.class"
    loops.write_bytes(loops.read_bytes() + b"\0")
    assert cache.batch_key(Classpath.parse([copy]), TARGETS, "block") != key
    loops.write_bytes(loops.read_bytes()[:-1])
    other = copy / "counting" / "Switches.class"
    other.write_bytes(other.read_bytes() + b"\0")
    assert cache.batch_key(Classpath.parse([copy]), TARGETS, "block") == key


def test_a_tampered_or_torn_entry_is_never_used(counting_classes, tmp_path):
    cp = Classpath.parse([counting_classes["javac17"]])
    fresh = instrument(cp, TARGETS)
    instrument(cp, TARGETS, cache_dir=tmp_path)
    (entry,) = _entries(tmp_path)
    stored = sorted(p for p in entry.iterdir() if p.suffix == ".class")
    assert stored
    victim = stored[0]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    assert cache.load(tmp_path, entry.name) is None
    assert _same(instrument(cp, TARGETS, cache_dir=tmp_path), fresh)  # rebuilt
    assert cache.load(tmp_path, entry.name) is not None
    # a torn manifest, a manifest for another key: rebuilt too
    (entry / "manifest.json").write_text('{"format": 2, "key": "', encoding="utf-8")
    assert cache.load(tmp_path, entry.name) is None
    assert _same(instrument(cp, TARGETS, cache_dir=tmp_path), fresh)
    moved = tmp_path / ("0" * 64)
    shutil.copytree(entry, moved)
    assert cache.load(tmp_path, moved.name) is None


def test_an_unwritable_cache_only_costs_the_speed_up(counting_classes, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cp = Classpath.parse([counting_classes["javac17"]])
    assert _same(instrument(cp, TARGETS, cache_dir=blocker / "cache"), instrument(cp, TARGETS))


def test_inclusive_batches_are_cached_apart_and_keyed_by_every_class(counting_classes, tmp_path):
    src = counting_classes["javac17"]
    copy = tmp_path / "classes"
    shutil.copytree(src, copy)
    cp = Classpath.parse([copy])
    cache_dir = tmp_path / "cache"
    flat = instrument(cp, TARGETS, cache_dir=cache_dir)
    fresh = instrument(cp, TARGETS, inclusive=True)
    first = instrument(cp, TARGETS, cache_dir=cache_dir, inclusive=True)
    assert len(_entries(cache_dir)) == 2 and flat.inclusive is None
    again = instrument(Classpath.parse([copy]), TARGETS, cache_dir=cache_dir, inclusive=True)
    assert _same(fresh, again) and _same(fresh, first) and again.inclusive == fresh.inclusive
    assert len(_entries(cache_dir)) == 2
    # callees may live in any class: a class no pattern matches changes the inclusive key, not the flat one
    key = cache.batch_key(cp, TARGETS, "block", every_class=True)
    flat_key = cache.batch_key(cp, TARGETS, "block")
    other = copy / "counting" / "Switches.class"
    other.write_bytes(other.read_bytes() + b"\0")
    assert cache.batch_key(Classpath.parse([copy]), TARGETS, "block", every_class=True) != key
    assert cache.batch_key(Classpath.parse([copy]), TARGETS, "block") == flat_key


def test_a_hit_gives_every_field_of_every_counter_map(counting_classes, tmp_path):
    # abrupt exits and allocations fill the optional fields (an abrupt part, allocation keys, array totals)
    cp = Classpath.parse([counting_classes["javac17"]])
    for strategy in ("block", "instruction"):
        options = {"strategy": strategy, "abrupt": True, "allocations": True}
        fresh = instrument(cp, TARGETS, **options)
        instrument(cp, TARGETS, cache_dir=tmp_path / strategy, **options)
        (entry,) = _entries(tmp_path / strategy)
        hit = cache.load(tmp_path / strategy, entry.name)
        assert any(m.abrupt is not None and m.allocs for m in fresh.maps)
        assert hit is not None and hit.maps == fresh.maps


def test_an_entry_of_an_older_format_is_ignored(counting_classes, tmp_path):
    import json

    cp = Classpath.parse([counting_classes["javac17"]])
    instrument(cp, TARGETS, cache_dir=tmp_path)
    (entry,) = _entries(tmp_path)
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    manifest["format"] = cache.FORMAT - 1
    (entry / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert cache.load(tmp_path, entry.name) is None


def test_the_key_covers_the_support_classes_assembly_text():
    """The Counters and Inclusive classes are assembled from text files and stored in every entry: an edit
    to that text must change every key, as an edit to the Python does."""
    from pytest_bytecount.counting.cache import source_files

    names = {p.name for p in source_files()}
    assert {"Counters.jasm", "Inclusive.jasm", "emit.py", "cache.py"} <= names
