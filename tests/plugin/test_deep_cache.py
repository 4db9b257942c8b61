"""A damaged deep cache heals: an entry a full disk or a killed writer left truncated, or one copied under
another class's name, is counted afresh and written again, and one line says so and where the cache is."""

from __future__ import annotations

from tests.support.pytest_project import CALC, java_project, run

DEEP_TEST = """
import pytest


@pytest.mark.bytecount("st.Calc#twice", deep=True)
def test_twice(bytecount):
    assert bytecount.jclass("st.Calc").twice(21) == 42
"""


def test_damaged_entries_of_the_deep_cache_are_counted_afresh_and_said(pytester, tmp_path, monkeypatch):
    cache = tmp_path / "deep-cache"
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(cache))
    java_project(pytester, {"st/Calc.java": CALC}, {"test_deep": DEEP_TEST})
    first = run(pytester, "--bytecount-update")
    assert first.ret == 0, first.stdout.str()
    (classes,) = cache.glob("deep/*/classes")
    # the first session found the cache cold, and says so once, with where it keeps the classes for later ones
    first.stdout.fnmatch_lines([f"bytecount: the deep cache was cold: * classes of the class library counted deep in "
                                f"* s and kept in {classes.parent} for later sessions; keep that folder between CI "
                                f"runs (docs/deep.md)"])
    string, array_list, hash_map = (classes / n for n in ("java.lang.String", "java.util.ArrayList", "java.util.HashMap"))
    good = {p: p.read_bytes() for p in (string, array_list, hash_map)}
    string.write_bytes(good[string][:len(good[string]) // 2])  # truncated
    array_list.write_bytes(b"")  # empty
    hash_map.write_bytes(good[string])  # another class's entry under this name

    second = run(pytester)
    assert second.ret == 0, second.stdout.str()
    second.stdout.fnmatch_lines([f"bytecount: 3 damaged entries of the deep cache ({classes.parent}) counted afresh "
                                 "and written again: *"])
    line = [ln for ln in second.stdout.lines if "damaged entries" in ln][0]
    assert all(n in line for n in ("java.lang.String", "java.util.ArrayList", "java.util.HashMap"))
    assert {p: p.read_bytes() for p in good} == good  # written again, as they were

    third = run(pytester)
    assert third.ret == 0 and "damaged entr" not in third.stdout.str() and "was cold" not in third.stdout.str()
