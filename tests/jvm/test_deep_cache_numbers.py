"""The deep cache's shared method numbers and its entries, without a JVM: two caches on one folder stand for two
processes (an xdist worker each) numbering methods in turn, as their JVMs load classes."""

from __future__ import annotations

from pytest_bytecount.counting.instr.deep import MethodNumbers
from pytest_bytecount.jvm.deep_cache import DeepCache

CLASS = b"\xca\xfe\xba\xbe" + b"\0" * 12


def test_two_processes_numbering_in_turn_agree_on_every_number(tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    one, two = DeepCache("lib"), DeepCache("lib")
    a, b = MethodNumbers(), MethodNumbers()
    assert one.number(a, ["p.A#f()V", "p.A#g()V"])
    assert two.number(b, ["p.B#h()V", "p.A#g()V"])  # reads what the first appended, then appends its own
    assert one.number(a, ["p.C#k()V"])
    assert two.number(b, ["p.C#k()V", "p.A#f()V"])  # all known by now
    assert a.ids == b.ids == {"p.A#f()V": 0, "p.A#g()V": 1, "p.B#h()V": 2, "p.C#k()V": 3}
    assert {n: a.names[n] for n in range(4)} == {n: b.names[n] for n in range(4)}
    assert one.numbers_file.read_text() == "p.A#f()V\np.A#g()V\np.B#h()V\np.C#k()V\n"
    # a third process starting now reads them all; a line being written is not taken until it is whole
    with open(one.numbers_file, "a") as f:
        f.write("p.D#half")
    late = MethodNumbers()
    three = DeepCache("lib")
    three.sync(late)
    assert late.ids == a.ids
    with open(one.numbers_file, "a") as f:
        f.write("()V\n")
    three.sync(late)
    assert late.ids["p.D#half()V"] == 4


def test_entries_are_written_together_and_read_back_before_and_after(tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    cache = DeepCache("lib")
    cache.number(MethodNumbers(), ["p.A#f()V"])
    cache.put("p/A", b"original", CLASS, library=True)
    assert not any(cache.classes.iterdir())  # kept in memory
    assert cache.get("p/A", b"original", library=True) == CLASS  # and found there
    cache.flush()
    assert [p.name for p in cache.classes.iterdir()] == ["p.A"]
    assert DeepCache("lib").get("p/A", b"other bytes, same class library", library=True) == CLASS


def test_entries_put_from_several_threads_while_others_are_written_are_all_kept(tmp_path, monkeypatch):
    """The transformer runs on whichever JVM thread loads a class: puts go on while a flush writes."""
    import threading

    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    cache = DeepCache("lib")
    cache.number(MethodNumbers(), ["p.A#f()V"])  # a folder without numbers.txt is emptied when next opened
    failures = []

    def load(prefix: str) -> None:
        try:
            for k in range(1500):
                cache.put(f"p/{prefix}{k}", b"original", CLASS, library=True)
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=load, args=(p,)) for p in "ABC"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cache.flush()
    assert failures == []
    assert len(list(cache.classes.iterdir())) == 4500
    assert DeepCache("lib").get("p/B1499", b"original", library=True) == CLASS
