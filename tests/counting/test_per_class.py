"""Classes counted one at a time (the pytest plugin's way): what is counted, the Counters class of each, and
the per-class cache. Their counts are checked against the oracle in test_exact.py."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.pipeline import cache as class_cache
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter, counters_class_of
from pytest_bytecount.counting.targets import TargetError


def _entries(folder) -> list:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_a_class_is_counted_with_a_counters_class_of_its_own(counting_classes):
    counter = ClassCounter(Classpath.parse([counting_classes["javac17"]]), ["counting.Recursion#fib"])
    counted = counter.count("counting/Recursion")
    assert counted.counters_name == counters_class_of("counting/Recursion") == "pytest_bytecount/of/counting/Recursion"
    assert [str(m.method) for m in counted.maps] == ["counting.Recursion#fib(I)I"]
    assert counted.maps[0].base == 0 and counted.size == counted.maps[0].size
    assert ClassFile.parse(counted.counters_data).name == counted.counters_name
    assert counter.count("counting/Recursion") is counted  # once per counter


def test_a_class_with_no_matched_method_is_left_alone(counting_classes):
    counter = ClassCounter(Classpath.parse([counting_classes["javac17"]]), ["counting.Recursion#fib"])
    assert counter.count("counting/Loops") is None


def test_candidates_are_the_names_the_class_parts_match(counting_classes):
    cp = Classpath.parse([counting_classes["javac17"]])
    assert ClassCounter(cp, ["counting.Recursion#fib", "counting.Loops"]).candidates() == \
        ["counting/Loops", "counting/Recursion"]
    everything = ClassCounter(cp, ["counting.**"]).candidates()
    assert everything == [n for n in cp.class_names() if n.startswith("counting/")] and len(everything) > 5


def test_check_reports_what_resolving_every_pattern_would(counting_classes):
    cp = Classpath.parse([counting_classes["javac17"]])
    with pytest.raises(TargetError, match="matches no class"):
        ClassCounter(cp, ["counting.Recursoin#fib"]).check()
    with pytest.raises(TargetError, match="matches no method"):
        ClassCounter(cp, ["counting.Recursion#fibb"]).check()
    with pytest.raises(TargetError, match="matches no class"):
        ClassCounter(cp, ["nothing.here.**"]).check()
    ClassCounter(cp, ["counting.**#nosuchmethod"]).check()  # a glob's methods are checked only if none ran
    with pytest.raises(TargetError, match="matches no method"):
        ClassCounter(cp, ["counting.**#nosuchmethod"]).matched_methods("counting.**#nosuchmethod")
    assert ClassCounter(cp, ["counting.**#fib"]).matched_methods("counting.**#fib") == ["counting.Recursion#fib(I)I"]


def test_the_cache_gives_what_counting_afresh_gives_and_overlapping_patterns_share_it(counting_classes, tmp_path):
    cp = Classpath.parse([counting_classes["javac17"]])
    fresh = ClassCounter(cp, ["counting.Loops"]).count("counting/Loops")
    first = ClassCounter(cp, ["counting.Loops"], cache_dir=tmp_path)
    assert first.count("counting/Loops") == fresh and first.cache_hits == 0
    (entry,) = _entries(tmp_path)
    glob = ClassCounter(cp, ["counting.**"], cache_dir=tmp_path)  # another marker, every method of Loops too
    assert glob.count("counting/Loops") == fresh and glob.cache_hits == 1
    assert _entries(tmp_path) == [entry]
    one = ClassCounter(cp, ["counting.Loops#collatz"], cache_dir=tmp_path)  # other methods: an entry of its own
    assert one.count("counting/Loops") != fresh and one.cache_hits == 0 and len(_entries(tmp_path)) == 2
    abrupt = ClassCounter(cp, CountingOptions(("counting.Loops",), abrupt=True), cache_dir=tmp_path)  # other options: too
    assert abrupt.count("counting/Loops").maps[0].abrupt is not None and len(_entries(tmp_path)) == 3


def test_a_changed_class_gets_a_new_entry(counting_classes, tmp_path):
    copy = tmp_path / "classes"
    shutil.copytree(counting_classes["javac17"], copy)
    cache = tmp_path / "cache"
    ClassCounter(Classpath.parse([copy]), ["counting.Loops"], cache_dir=cache).count("counting/Loops")
    # the same source built for release 8: other bytes, so another entry, and the cached one is not used
    shutil.copy(counting_classes["javac8"] / "counting" / "Loops.class", copy / "counting" / "Loops.class")
    again = ClassCounter(Classpath.parse([copy]), ["counting.Loops"], cache_dir=cache)
    assert ClassFile.parse(again.count("counting/Loops").data).major_version == 52
    assert again.cache_hits == 0 and len(_entries(cache)) == 2


def test_a_tampered_or_foreign_entry_is_never_used(counting_classes, tmp_path):
    cp = Classpath.parse([counting_classes["javac17"]])
    fresh = ClassCounter(cp, ["counting.Loops"]).count("counting/Loops")
    ClassCounter(cp, ["counting.Loops"], cache_dir=tmp_path).count("counting/Loops")
    (name,) = _entries(tmp_path)
    path = tmp_path / name
    key = name.split(".")[0]
    blob = bytearray(path.read_bytes())
    blob[-10] ^= 0xFF  # inside the Counters class
    path.write_bytes(bytes(blob))
    assert class_cache.load(tmp_path, key, "counting/Loops") is None
    again = ClassCounter(cp, ["counting.Loops"], cache_dir=tmp_path)
    assert again.count("counting/Loops") == fresh and again.cache_hits == 0  # rebuilt
    assert class_cache.load(tmp_path, key, "counting/Loops") == {f.name: getattr(fresh, f.name) for f in dataclasses.fields(fresh)}
    assert class_cache.load(tmp_path, key, "counting/Recursion") is None  # an entry names its class
    path.write_bytes(path.read_bytes()[:100])  # torn
    assert class_cache.load(tmp_path, key, "counting/Loops") is None


def test_an_unwritable_cache_only_costs_the_speed_up(counting_classes, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cp = Classpath.parse([counting_classes["javac17"]])
    counted = ClassCounter(cp, ["counting.Loops"], cache_dir=blocker / "cache").count("counting/Loops")
    assert counted == ClassCounter(cp, ["counting.Loops"]).count("counting/Loops")


def test_a_counters_class_renamed_from_its_template_is_the_one_assembled_under_its_name():
    """Each class's Counters class is assembled once per size and overloads, then renamed (a Utf8 constant
    patched): the bytes must be those that assembling the text under the class's own name gives."""
    from pytest_bytecount.counting.instr.runtime import assembled_runtime_class, build_runtime_class

    names = ["pytest_bytecount/of/demo/Sorting", "pytest_bytecount/of/a/Outer$Inner", "pytest_bytecount/of/Top",
             "pytest_bytecount/of/caf\u00e9/\u00dcber\U0001f600"]
    for size in (0, 1, 7, 300, 40_000, 70_000):
        for arities in ({("I", 1)}, {("I", 1), ("I", 3), ("J", 2)}, {("I", n) for n in (1, 9, 250)}):
            for name in names:
                fast = build_runtime_class(size, arities, name)
                assert fast == assembled_runtime_class(size, arities, name), (size, sorted(arities), name)
                assert ClassFile.parse(fast).name == name
