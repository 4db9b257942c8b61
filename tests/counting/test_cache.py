"""The per-class cache's format: a hit gives back every field of every counter map, an entry of another
format is never used, and the key covers everything that shapes a counted class. (Hits, misses, tampered
and torn entries: test_per_class.py.)"""

from __future__ import annotations

import json
from dataclasses import replace

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.pipeline import cache
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter

TARGETS = ["counting.Loops", "counting.Recursion#fib"]


def _entries(d) -> list:
    return sorted(p for p in d.iterdir() if not p.name.startswith("."))


def test_a_hit_gives_every_field_of_every_counter_map(counting_classes, tmp_path):
    # abrupt exits and allocations fill the optional fields (an abrupt part, allocation keys, array totals)
    cp = Classpath.parse([counting_classes["javac17"]])
    for strategy in ("block", "instruction"):
        options = {"strategy": strategy, "abrupt": True, "allocations": True}
        fresh = ClassCounter(cp, CountingOptions(tuple(TARGETS), **options)).count_all()
        ClassCounter(cp, CountingOptions(tuple(TARGETS), **options), cache_dir=tmp_path / strategy).count_all()
        warm = ClassCounter(cp, CountingOptions(tuple(TARGETS), **options), cache_dir=tmp_path / strategy)
        hits = warm.count_all()
        assert warm.cache_hits == len(fresh) == 2
        assert any(m.abrupt is not None and m.allocs for c in fresh for m in c.maps)
        assert [c.maps for c in hits] == [c.maps for c in fresh]
        assert hits == fresh  # every field: bytes, Counters class, size, refusals


def test_instrument_s_rendered_programs_are_kept_and_read_back_as_rendered_afresh(counting_classes, tmp_path):
    """instrument keeps each class's exit-hook programs in its entry; a hit gives them back unrendered, equal to
    what rendering its counter maps gives, for flat and inclusive counts; the plugin's entries keep none."""
    cp = Classpath.parse([counting_classes["javac17"]])
    for inclusive in (False, True):
        options = CountingOptions(tuple(TARGETS), inclusive=inclusive)
        writer = ClassCounter(cp, options, cache_dir=tmp_path / str(inclusive))
        writer.for_files = True
        written = writer.count_all()
        reader = ClassCounter(cp, options, cache_dir=tmp_path / str(inclusive))
        reader.for_files = True
        hits = reader.count_all()
        assert reader.cache_hits == len(hits) == len(written) and all(c.rendered is not None for c in hits)
        for hit in hits:
            afresh = replace(hit, rendered=None)
            assert hit.layout() == afresh.layout() and (not inclusive or hit.links() == afresh.links())
        assert any(hit.layout() for hit in hits) and (not inclusive or any(hit.links() for hit in hits))
    plugin = ClassCounter(cp, CountingOptions(tuple(TARGETS)), cache_dir=tmp_path / "plugin").count_all()
    assert all(c.rendered is None for c in plugin)


def test_an_entry_of_another_format_is_ignored(counting_classes, tmp_path):
    cp = Classpath.parse([counting_classes["javac17"]])
    ClassCounter(cp, ["counting.Loops"], cache_dir=tmp_path).count("counting/Loops")
    (entry,) = _entries(tmp_path)
    key = entry.name.split(".")[0]
    assert cache.load(tmp_path, key, "counting/Loops") is not None
    blob = entry.read_bytes()
    header_end = blob.index(b"\n")
    header = json.loads(blob[:header_end])
    header["format"] = cache.FORMAT - 1
    entry.write_bytes(json.dumps(header, sort_keys=True).encode() + blob[header_end:])
    assert cache.load(tmp_path, key, "counting/Loops") is None


def test_the_key_covers_the_support_classes_assembly_text():
    """The support classes are assembled from text files and stored in every entry (Counters) or written
    beside it (InclusiveByClass, Report): an edit to that text must change every key, as an edit to the
    Python does."""
    names = {p.name for p in cache.source_files()}
    assert {"Counters.jasm", "InclusiveByClass.jasm", "Report.jasm", "emit.py", "cache.py", "version.py"} <= names
