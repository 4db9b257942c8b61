"""The deep cache's shared method numbers and its entries, without a JVM: two caches on one folder stand for two
processes (an xdist worker each) numbering methods in turn, as their JVMs load classes."""

from __future__ import annotations

from pytest_bytecount.counting.instr.deep import MethodNumbers
from pytest_bytecount.jvm import deep_cache
from pytest_bytecount.jvm.deep_cache import DeepCache, pack_bytes, read_pack

CLASS = b"\xca\xfe\xba\xbe" + b"\0" * 12


def _class(k: int) -> bytes:
    return b"\xca\xfe\xba\xbe" + k.to_bytes(4, "big") * 50


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
    assert not any(cache.classes.iterdir())  # the class library's classes are kept together, in the pack
    assert list(read_pack(cache.pack.read_bytes())[0]) == ["p/A"]
    assert DeepCache("lib").get("p/A", b"other bytes, same class library", library=True) == CLASS
    cache.put("p/$Proxy1", b"generated", CLASS)  # any other class in a file of its own, keyed by its bytes
    cache.flush()
    assert [p.name.split("-")[0] for p in cache.classes.iterdir()] == ["p.$Proxy1"]
    assert DeepCache("lib").get("p/$Proxy1", b"generated") == CLASS
    assert DeepCache("lib").get("p/$Proxy1", b"generated again, otherwise") is None


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
    assert len(read_pack(cache.pack.read_bytes())[0]) == 4500
    assert DeepCache("lib").get("p/B1499", b"original", library=True) == CLASS


def test_damaged_records_of_the_pack_are_noted_once_and_replaced_by_the_next_flush(tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    cache = DeepCache("lib")
    cache.number(MethodNumbers(), ["p.A#f()V"])
    for k, name in enumerate(["p/A", "p/B", "p/C", "p/D"]):
        cache.put(name, b"original", _class(k), library=True)
    cache.flush()
    records, whole = read_pack(cache.pack.read_bytes())
    assert whole and [bytes(e)[16:] for e in records.values()] == [_class(k) for k in range(4)]
    good = {n: bytes(e) for n, e in records.items()}
    flipped = bytearray(good["p/A"])
    flipped[40] ^= 1
    damaged = {"p/A": bytes(flipped),  # a byte changed
               "p/B": good["p/C"],  # another class's entry under this name
               "p/C": good["p/C"], "p/D": good["p/D"]}
    raw = pack_bytes(damaged)
    cache.pack.write_bytes(raw[:-10])  # and cut short inside the last record (p/D)

    again = DeepCache("lib")
    assert [again.get(n, b"any", library=True) for n in ("p/A", "p/B", "p/C", "p/D")] == [None, None, _class(2), None]
    assert again.get("p/A", b"any", library=True) is None  # looked up again before it is counted afresh
    assert again.healed == ["library.pack", "p.A", "p.B", "p.D"]
    for k, name in ((0, "p/A"), (1, "p/B"), (3, "p/D")):  # counted afresh
        again.put(name, b"original", _class(k), library=True)
    again.flush()
    assert {n: bytes(e) for n, e in read_pack(again.pack.read_bytes())[0].items()} == good
    third = DeepCache("lib")
    assert [third.get(n, b"any", library=True) for n in ("p/A", "p/B", "p/C", "p/D")] == [_class(k) for k in range(4)]
    assert third.healed == []


def test_a_pack_that_is_not_one_is_named_and_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    cache = DeepCache("lib")
    cache.number(MethodNumbers(), ["p.A#f()V"])
    cache.pack.write_bytes(b"\0" * 4096)  # a disk's zeroed blocks
    again = DeepCache("lib")
    assert again.get("p/A", b"any", library=True) is None and again.healed == ["library.pack"]
    again.put("p/A", b"original", CLASS, library=True)
    again.flush()
    assert DeepCache("lib").get("p/A", b"any", library=True) == CLASS


def test_each_process_keeps_the_records_the_others_added_to_the_pack(tmp_path, monkeypatch):
    """Two caches on one folder (two xdist workers): each flush adds its own records to those on disk, and a class
    missed by one is found once the other kept it."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(deep_cache, "_LOOK_AGAIN", 0.0)  # a miss looks at the pack again at most this often
    one, two = DeepCache("lib"), DeepCache("lib")
    one.number(MethodNumbers(), ["p.A#f()V"])
    assert two.get("p/A", b"any", library=True) is None
    one.put("p/A", b"original", _class(0), library=True)
    two.put("p/B", b"original", _class(1), library=True)
    one.flush()
    assert two.get("p/A", b"any", library=True) == _class(0)  # the pack changed since it was read: read again
    two.flush()
    one.put("p/C", b"original", _class(2), library=True)
    one.flush()
    assert sorted(read_pack(one.pack.read_bytes())[0]) == ["p/A", "p/B", "p/C"]


_WORKER = """
import sys
from pytest_bytecount.counting.instr.deep import MethodNumbers
from pytest_bytecount.jvm.deep_cache import DeepCache

me = sys.argv[1]
cache = DeepCache("lib")
cache.number(MethodNumbers(), ["p.A#f()V"])
for k in range(30):
    cache.put(f"p/{me}{k}", b"original", b"\\xca\\xfe\\xba\\xbe" + f"{me}{k}".encode() * 300, library=True)
    cache.flush()
"""


def test_processes_adding_to_the_pack_at_once_lose_no_record_and_leave_none_torn(tmp_path, monkeypatch):
    import subprocess
    import sys

    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    workers = [subprocess.Popen([sys.executable, "-c", _WORKER, me]) for me in "WXYZ"]
    assert [w.wait(timeout=300) for w in workers] == [0, 0, 0, 0]
    cache = DeepCache("lib")
    records, whole = read_pack(cache.pack.read_bytes())
    assert whole and len(records) == 120
    for me in "WXYZ":
        for k in range(30):
            assert cache.get(f"p/{me}{k}", b"any", library=True) == b"\xca\xfe\xba\xbe" + f"{me}{k}".encode() * 300
    assert cache.healed == []


def test_what_a_session_prepares_once_is_kept_and_made_again_when_damaged(tmp_path, monkeypatch):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    made = []

    def make() -> bytes:
        made.append(1)
        return b"the runtime's bytes"

    assert DeepCache("lib").prepared("runtime", make) == b"the runtime's bytes"
    assert DeepCache("lib").prepared("runtime", make) == b"the runtime's bytes" and len(made) == 1
    path = DeepCache("lib").folder / "prepared-runtime"
    path.write_bytes(path.read_bytes()[:-3])  # cut short
    assert DeepCache("lib").prepared("runtime", make) == b"the runtime's bytes" and len(made) == 2
    assert DeepCache("lib").prepared("runtime", make) == b"the runtime's bytes" and len(made) == 2


def test_a_generated_class_keeps_one_version_and_any_other_class_each_of_its(tmp_path, monkeypatch):
    """A proxy the JVM generates has other bytes from one session to the next (its methods in another order): kept
    by its bytes, every session would add a file. Only its newest version is kept; a class of an application keeps
    each version (two checkouts, two loaders), and a class of the same name's prefix is not touched."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path))
    DeepCache("lib").number(MethodNumbers(), ["p.App#f()V"])  # (a folder without its numbers is emptied)
    for session in range(3):
        cache = DeepCache("lib")
        cache.put("p/$Proxy1", f"generated {session}".encode(), _class(session), only=True)
        cache.put("p/$Proxy10", f"generated {session}".encode(), _class(10 + session), only=True)
        cache.put("p/App", f"version {session}".encode(), _class(20 + session))
        cache.flush()
    names = sorted(p.name.rsplit("-", 1)[0] for p in cache.classes.iterdir())
    assert names == ["p.$Proxy1", "p.$Proxy10", "p.App", "p.App", "p.App"]
    assert DeepCache("lib").get("p/$Proxy1", b"generated 2") == _class(2)
    assert DeepCache("lib").get("p/$Proxy10", b"generated 2") == _class(12)
    assert DeepCache("lib").get("p/App", b"version 0") == _class(20)
