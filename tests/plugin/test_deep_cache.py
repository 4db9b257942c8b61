"""A damaged deep cache heals: an entry a full disk or a killed writer left truncated, or one copied under
another class's name, is counted afresh and written again, and one line says so and where the cache is."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

from pytest_bytecount.jvm.deep_cache import pack_bytes, read_pack
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
    # output that is not a terminal (this pipe, a CI log) gets no progress of the cold set-up, only the line below
    assert "counting the JVM's loaded classes" not in first.stdout.str()
    (classes,) = cache.glob("deep/*/classes")
    # the first session found the cache cold, and says so once, with where it keeps the classes for later ones
    first.stdout.fnmatch_lines([f"bytecount: the deep cache was cold: * classes of the class library counted deep in "
                                f"* s and kept in {classes.parent} for later sessions; keep that folder between CI "
                                f"runs (docs/deep.md)"])
    # the class library's classes are kept in one pack, a record each
    pack = classes.parent / "library.pack"
    records = {n: bytes(e) for n, e in read_pack(pack.read_bytes())[0].items()}
    string, array_list, hash_map = "java/lang/String", "java/util/ArrayList", "java/util/HashMap"
    good = {n: records[n] for n in (string, array_list, hash_map)}
    records[string] = good[string][:len(good[string]) // 2]  # truncated
    records[array_list] = b""  # empty
    records[hash_map] = good[string]  # another class's entry under this name
    pack.write_bytes(pack_bytes(records))

    second = run(pytester)
    assert second.ret == 0, second.stdout.str()
    second.stdout.fnmatch_lines([f"bytecount: 3 damaged entries of the deep cache ({classes.parent}) counted afresh "
                                 "and written again: *"])
    line = [ln for ln in second.stdout.lines if "damaged entries" in ln][0]
    assert all(n in line for n in ("java.lang.String", "java.util.ArrayList", "java.util.HashMap"))
    assert {n: bytes(read_pack(pack.read_bytes())[0][n]) for n in good} == good  # written again, as they were

    third = run(pytester)
    assert third.ret == 0 and "damaged entr" not in third.stdout.str() and "was cold" not in third.stdout.str()


def _screen(raw: str) -> list:
    """What a terminal shows after ``raw``: colours dropped; carriage returns, backspaces and overwrites applied."""
    lines, row, col = [[]], 0, 0
    for ch in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw):
        if ch == "\n":
            row, col = row + 1, 0
            lines.append([]) if row == len(lines) else None
        elif ch == "\r":
            col = 0
        elif ch == "\b":
            col = max(col - 1, 0)
        else:
            line = lines[row]
            line.extend(" " * (col + 1 - len(line)))
            line[col] = ch
            col += 1
    return ["".join(line).rstrip() for line in lines]


def test_a_cold_deep_set_up_on_a_terminal_shows_one_status_that_it_erases(pytester, tmp_path):
    java_project(pytester, {"st/Calc.java": CALC}, {"test_deep": DEEP_TEST})
    env = dict(os.environ, BYTECOUNT_CACHE_DIR=str(tmp_path / "deep-cache"), COLUMNS="120")
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bytecount-update"],
                            cwd=pytester.path, env=env, stdin=subprocess.DEVNULL, stdout=child, stderr=child)
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    assert proc.wait(timeout=600) == 0
    raw = b"".join(chunks).decode("utf-8", "replace")
    # while the cold set-up ran, the status stood after the test file's name on pytest's progress line...
    assert re.search(r"test_deep\.py +bytecount: counting the JVM's loaded classes deep \(kept for later "
                     r"sessions\): \d+/\d+\x08", raw), raw
    # ...and the screen keeps none of it: pytest's line reads as if nothing had been written
    screen = _screen(raw)
    assert not [ln for ln in screen if "counting the JVM's loaded classes" in ln], screen
    assert any(re.fullmatch(r"test_deep\.py \. +\[100%\]", ln) for ln in screen), screen
    assert any("the deep cache was cold" in ln for ln in screen), screen
