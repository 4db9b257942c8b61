"""Which classes the deep cache keeps by name as the class library's own, and the digest of the class library a
session works out once and keeps beside the deep cache, without a JVM."""

from __future__ import annotations

from pytest_bytecount.jvm.deep import _generated, class_library_digest


def test_classes_the_jvm_generates_are_told_from_the_class_library_s_own():
    for made in ("com/sun/proxy/$Proxy12", "jdk/proxy1/$Proxy4", "java/lang/invoke/$Proxy8",
                 "jdk/internal/reflect/GeneratedMethodAccessor3", "sun/reflect/GeneratedConstructorAccessor1"):
        assert _generated(made), made
    # the class library's own classes whose names merely contain "Proxy": kept by name, counted once
    for own in ("java/lang/reflect/Proxy$ProxyBuilder", "java/lang/reflect/Proxy$ProxyBuilder$1",
                "java/lang/reflect/ProxyGenerator$ProxyMethod", "java/lang/reflect/Proxy"):
        assert not _generated(own), own


def test_the_class_library_s_digest_is_kept_by_the_first_session_on_a_fresh_cache_folder(tmp_path, monkeypatch):
    home = tmp_path / "jdk"
    (home / "lib").mkdir(parents=True)
    (home / "lib" / "modules").write_bytes(b"the class library" * 1000)
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "never-made"))
    digest = class_library_digest(home)
    kept = list((tmp_path / "never-made" / "deep").glob("library-*"))
    assert len(kept) == 1 and kept[0].read_text() == digest  # the next session reads it instead of the file
