"""The deep cache's patch: the counted classes a warm cache keeps, in one jar per module, handed to a deep JVM's
start (``--patch-module``). Written once per state of the pack, never changed after; what the JVM must not get
(a class that declares finalize(), a method-handle species the JDK spins, a damaged entry, a package of no known
module) is left out. The JVM side (a patched start counts what a cold one counts) is
``tests/counting/test_deep.py``'s warm set-up test."""

from __future__ import annotations

import os
import time
import zipfile
from pathlib import Path

import pytest

from pytest_bytecount.counting.instr.deep import DEEP_CLASS
from pytest_bytecount.jvm import deep_patch
from pytest_bytecount.jvm.deep_cache import DeepCache, _digest, class_library_digest, pack_bytes
from pytest_bytecount.jvm.deep_patch import (MODULES_KEY, declares_finalize, modules_text, patch_options,
                                             patched_names, unless_patched)
from tests.support.javac import compile_java

SOURCES = {
    "p/Plain.java": "package p; public class Plain { int twice(int x) { return x + x; } }",
    "p/Final.java": "package p; public class Final { @Override protected void finalize() { } }",
    "p/NotFinal.java": "package p; public class NotFinal { void finalize(int x) { } void finalized() { } }",
    "q/Other.java": "package q; public class Other { }",
    "r/Nowhere.java": "package r; public class Nowhere { }",
}


@pytest.fixture(scope="module")
def classes(tmp_path_factory) -> dict:
    src = tmp_path_factory.mktemp("patch-src")
    for name, text in SOURCES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    out = compile_java(src, release="11")
    return {str(p.relative_to(out))[:-len(".class")]: p.read_bytes() for p in out.rglob("*.class")}


def test_declares_finalize_reads_the_method_table(classes):
    assert declares_finalize(classes["p/Final"])
    assert not declares_finalize(classes["p/NotFinal"])  # finalize(int) and finalized(): not the JVM's finalize()
    assert not declares_finalize(classes["p/Plain"])


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "lib").mkdir(parents=True)
    (home / "lib" / "modules").write_bytes(b"a class library of its own")
    return home


def _entry(name: str, data: bytes) -> bytes:
    return _digest(name, data) + data


def _jar(option: str) -> tuple:
    module, _, path = option[len("--patch-module="):].partition("=")
    with zipfile.ZipFile(path) as jar:
        return module, sorted(jar.namelist())


def test_a_cold_cache_patches_in_the_runtime_only_and_a_warm_one_its_kept_classes_once(tmp_path, monkeypatch, classes):
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "cache"))
    home = _home(tmp_path)
    cold = patch_options(home)
    assert [_jar(o) for o in cold] == [("java.base", [f"{DEEP_CLASS}.class"])]  # every deep JVM starts the same way
    assert patched_names(cold) == frozenset()

    cache = DeepCache(class_library_digest(home))
    cache.keep(MODULES_KEY, modules_text([("p", "java.base"), ("q", "java.logging"), ("java/lang/invoke", "java.base")]))
    plain, other = classes["p/Plain"], classes["q/Other"]
    records = {"p/Plain": _entry("p/Plain", plain),
               "p/Final": _entry("p/Final", classes["p/Final"]),  # declares finalize(): left out
               "r/Nowhere": _entry("r/Nowhere", classes["r/Nowhere"]),  # a package of no known module: left out
               "q/Other": _entry("q/Other", other),  # a module not patched (the set-up redefines it): left out
               "p/NotFinal": _entry("p/Plain", classes["p/NotFinal"]),  # another class's digest: damaged, left out
               "java/lang/invoke/BoundMethodHandle$Species_LI": _entry("java/lang/invoke/BoundMethodHandle$Species_LI",
                                                                       plain)}  # spun by the JDK: left out
    cache.pack.write_bytes(pack_bytes(records))
    warm = patch_options(home)
    assert [_jar(o) for o in warm] == [("java.base", [f"{DEEP_CLASS}.class", "p/Plain.class"])]
    with zipfile.ZipFile(warm[0].rpartition("=")[2]) as jar:
        assert jar.read("p/Plain.class") == plain  # the counted bytes the pack keeps, as they are
    assert patched_names(warm) == {"p/Plain"}

    # the same pack: the same jars, not written again
    folder = Path(warm[0].rpartition("=")[2]).parent
    written = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    assert patch_options(home) == warm and {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == written

    # a pack that changed (another session kept more): a folder of its own; the old one stays while a JVM may use it
    records["p/NotFinal"] = _entry("p/NotFinal", classes["p/NotFinal"])
    cache.pack.write_bytes(pack_bytes(records))
    later = patch_options(home)
    assert later != warm and patched_names(later) == {"p/Plain", "p/NotFinal"} and folder.is_dir()
    # ... until it is older than an hour when another is written
    old = time.time() - deep_patch.KEEP_OLD - 60
    os.utime(folder, (old, old))
    del records["p/NotFinal"]
    time.sleep(0.01)
    cache.pack.write_bytes(pack_bytes(records))
    assert patched_names(patch_options(home)) == {"p/Plain"} and not folder.exists()


def test_no_patch_when_the_cache_cannot_be_written_or_the_jvm_patches_a_module_itself(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(blocked))
    assert patch_options(_home(tmp_path)) == []  # the set-up then defines the runtime and counts as the JVM runs
    assert patch_options(tmp_path / "no-runtime-here") == []

    ours = ["-Xshare:off", "--patch-module=java.base=/c/deep/x/patch/k/java.base.jar"]
    assert unless_patched(ours, ["-Xmx1g"]) == ours
    assert unless_patched(ours, ["--patch-module=java.base=/mine"]) == ["-Xshare:off"]
    assert patched_names(["--patch-module=java.base=/mine/java.base.jar"]) is None  # not one of the cache's
    assert patched_names(["-Xshare:off"]) is None
