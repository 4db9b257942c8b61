"""Baseline storage on its own (no JVM): the file format, validation, and read-merge-write under the lock."""

from __future__ import annotations

import json
import os
import stat
import threading
import time

import pytest

from pytest_bytecount.regression.baseline import FORMAT, BaselineError, BaselineFile, BrokenEntry, NewerFormatError, folder_lock, update


def entry(total: int, **extra) -> dict:
    return {"jvm": "17.0.19", "plugin": "0.1", "methods": {"demo.Sorting#fib(I)I": {
        "code_fingerprint": "ab" * 32, "calls": {"demo/Sorting.fib(I)I": total - 1}, "invocations": total,
        "opcodes": {"iload_0": 2 * total, "ireturn": total}, "total": 3 * total, **extra}}}


def test_the_text_is_json_dumps_with_sorted_keys_kept_between_writes(tmp_path):
    b = BaselineFile(tmp_path / "t.json")
    assert json.loads(b.render()) == {"format": FORMAT, "tests": {}}
    assert b.render() == json.dumps({"format": FORMAT, "tests": {}}, indent=2, sort_keys=True) + "\n"
    b.tests = {"test_b[x::y]": entry(3), "test_a[ünï]": entry(5, note="ok \"quoted\"\nline"), "test_c": entry(1)}
    expected = lambda: json.dumps({"format": FORMAT, "tests": b.tests}, indent=2, sort_keys=True,  # noqa: E731
                                  ensure_ascii=False) + "\n"
    assert b.render() == expected()
    b.tests["test_b[x::y]"] = entry(4)  # a replaced entry is rendered again
    del b.tests["test_c"]
    assert b.render() == expected()


def test_a_baseline_file_has_the_mode_of_an_ordinary_file(tmp_path):
    path = tmp_path / "bytecount" / "t.json"
    update(path, lambda b: b.tests.update(t=entry(1)) or True)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask  # not mkstemp's owner-only 0600


def test_an_update_merges_with_what_another_process_wrote_in_between(tmp_path):
    path = tmp_path / "t.json"
    mine = update(path, lambda b: b.tests.update(test_1=entry(1)) or True).baseline
    # another process (a view of its own) adds an entry
    update(path, lambda b: b.tests.update(test_2=entry(2)) or True)
    # this process updates again from its now stale view: the file is re-read first
    update(path, lambda b: b.tests.update(test_3=entry(3)) or True, previous=mine)
    assert sorted(BaselineFile.load(path).tests) == ["test_1", "test_2", "test_3"]


def test_a_writer_waiting_while_the_folder_is_removed_locks_the_folder_made_anew(tmp_path):
    """An emptied baseline folder is removed under its lock; a writer that was waiting for that lock must
    not end up holding the lock of the removed folder while a newcomer locks the new one."""
    fcntl = pytest.importorskip("fcntl")
    folder = tmp_path / "bytecount"
    held, release = threading.Event(), threading.Event()

    def writer():
        with folder_lock(folder):
            held.set()
            release.wait(10)

    waiting = threading.Thread(target=writer)
    with folder_lock(folder):
        waiting.start()
        time.sleep(0.5)  # the writer is blocked on the lock
        folder.rmdir()
    assert held.wait(10)
    try:
        folder.mkdir(exist_ok=True)  # a newcomer, as folder_lock starts
        fd = os.open(folder, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    finally:
        release.set()
        waiting.join(10)


def test_an_unreadable_file_is_only_replaced_on_request_and_then_copied_where_the_caller_says(tmp_path):
    path = tmp_path / "baselines" / "t.json"
    path.parent.mkdir()
    path.write_text("{not json")
    with pytest.raises(BaselineError, match="is not valid JSON") as raised:
        update(path, lambda b: b.tests.update(t=entry(1)) or True)
    assert "re-record it with --bytecount-update" in str(raised.value)
    assert "re-record" not in raised.value.problem  # what is wrong, without the advice
    assert path.read_text() == "{not json"
    copies = tmp_path / "copies"
    for n, copy in enumerate([copies / "t.json", copies / "t.json.1"]):  # a second copy never overwrites the first
        path.write_text("{not json" + "!" * n)
        done = update(path, lambda b: b.tests.update(t=entry(1)) or True, replace_unreadable=True,
                      keep_copy_in=lambda: copies)
        assert done.backup == copy and copy.read_text() == "{not json" + "!" * n
        assert BaselineFile.load(path).get("t") == entry(1)["methods"]
    assert sorted(p.name for p in path.parent.iterdir()) == ["t.json"]  # nothing left beside the baseline


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("format"), "the top level has no 'format' key"),
    (lambda d: d.update(format="1"), "'format' is \"1\", not an integer"),
    (lambda d: d.update(tests=[]), "'tests' must be an object"),
    (lambda d: d["tests"]["t"].pop("methods"), "tests['t'] has no 'methods' key"),
    (lambda d: d["tests"]["t"]["methods"]["demo.Sorting#fib(I)I"].update(invocations=True),
     "tests['t'].methods['demo.Sorting#fib(I)I'].invocations is true, not an integer"),
    (lambda d: d["tests"]["t"]["methods"]["demo.Sorting#fib(I)I"].update(total=-1),
     "tests['t'].methods['demo.Sorting#fib(I)I'].total is -1, a negative count"),
    (lambda d: d["tests"]["t"]["methods"]["demo.Sorting#fib(I)I"]["calls"].update({"a/B.c()V": 1.5}),
     "tests['t'].methods['demo.Sorting#fib(I)I'].calls['a/B.c()V'] is 1.5, not an integer"),
    (lambda d: d["tests"]["t"]["methods"]["demo.Sorting#fib(I)I"].update(bytecode_sha256=7),
     "tests['t'].methods['demo.Sorting#fib(I)I'].bytecode_sha256 must be a string"),
    (lambda d: d["tests"]["t"]["methods"]["demo.Sorting#fib(I)I"].update(code_fingerprint=[1]),
     "tests['t'].methods['demo.Sorting#fib(I)I'].code_fingerprint must be a string"),
])
def test_a_hand_edited_file_is_an_error_naming_the_file_and_the_key(tmp_path, mutate, message):
    data = {"format": FORMAT, "tests": {"t": entry(2)}}
    mutate(data)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BaselineError) as e:  # the file's frame when it is read, an entry's when it is used
        BaselineFile.load(path).get("t")
    assert str(e.value).startswith(f"baseline file {path}: {message}; ")


def test_a_broken_entry_fails_only_its_own_test_with_every_problem_at_once(tmp_path):
    fib = "demo.Sorting#fib(I)I"
    data = {"format": FORMAT, "tests": {"good": entry(3), "bad": entry(2), "worse": "oops"}}
    data["tests"]["bad"]["methods"][fib].update(total=-1, invocations="x")
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    loaded = BaselineFile.load(path)
    assert loaded.get("good") == entry(3)["methods"] and loaded.entry("bad") is None
    with pytest.raises(BrokenEntry) as e:
        loaded.get("bad")
    assert str(e.value).startswith(
        f"baseline file {path}: tests['bad'].methods['{fib}'].total is -1, a negative count; "
        f"tests['bad'].methods['{fib}'].invocations is \"x\", not an integer (the file's other broken entries: 'worse')")
    with pytest.raises(BrokenEntry, match=r"tests\['worse'\] must be an object"):
        loaded.get("worse")
    # an update that re-records one broken entry keeps the other as it is, and the good one
    update(path, lambda b: b.tests.update(bad=entry(5)) or b.broken.pop("bad", None) or True)
    again = BaselineFile.load(path)
    assert again.get("bad") == entry(5)["methods"] and again.get("good") == entry(3)["methods"]
    assert json.loads(path.read_text())["tests"]["worse"] == "oops" and list(again.broken) == ["worse"]


def test_a_newer_format_is_refused_and_extra_keys_are_allowed(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"format": FORMAT + 1, "tests": {}}))
    with pytest.raises(NewerFormatError, match=f"has format {FORMAT + 1}, written by a newer pytest-bytecount"):
        BaselineFile.load(path)
    data = {"format": FORMAT, "comment": "kept by readers", "tests": {"t": {**entry(1), "note": "x"}}}
    path.write_text(json.dumps(data))
    assert BaselineFile.load(path).get("t") == entry(1)["methods"]
