"""The verifier oracles and the corpus, which the engine's tests lean on, can be trusted.

An oracle that never fails proves nothing, so each one is shown real classes that pass and
hand-broken ones that must fail. The breakage is done here with a minimal class-file walk
of our own, independent of the engine under test.
"""

from __future__ import annotations

import struct
import zipfile

import pytest

from tests.support.corpus import CorpusSource, corpus_source, iter_classes
from tests.support.jdk import jdk17_java, jdk25_java, zero_java
from tests.support.verifier import verify_classfile_api, verify_hotspot

LANG3 = "org/apache/commons/lang3/"
GETTER_OWNER = LANG3 + "tuple/ImmutablePair"  # getLeft() is: aload_0, getfield, areturn
TRUNCATED = LANG3 + "BooleanUtils"
PASSING = (LANG3 + "tuple/Pair", LANG3 + "StringUtils")
OLD_VERSION = LANG3 + "CharUtils"  # no invokedynamic or method handles, so legal as version 49
FRAMELESS_50 = LANG3 + "BitField"  # ditto, and it has branches, so it needs its stack map frames
ARETURN, IRETURN = 0xB0, 0xAC


def code_arrays(data: bytes) -> dict[str, tuple[int, int]]:
    """``{name + descriptor: (offset, length)}`` of each method's bytecode (JVMS 4.1, 4.7.3)."""
    pos, utf8 = 10, {}
    count = struct.unpack_from(">H", data, 8)[0]
    index = 1
    while index < count:
        tag = data[pos]
        if tag == 1:
            length = struct.unpack_from(">H", data, pos + 1)[0]
            utf8[index] = data[pos + 3 : pos + 3 + length].decode("utf-8", "replace")
            pos += 3 + length
        else:
            pos += 1 + {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4,
                        15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}[tag]
        index += 2 if tag in (5, 6) else 1
    pos += 6
    pos += 2 + 2 * struct.unpack_from(">H", data, pos)[0]  # interfaces

    def members(pos: int, found: dict) -> int:
        count, pos = struct.unpack_from(">H", data, pos)[0], pos + 2
        for _ in range(count):
            _flags, name, desc, attrs = struct.unpack_from(">HHHH", data, pos)
            pos += 8
            for _ in range(attrs):
                attr_name, attr_len = struct.unpack_from(">HI", data, pos)
                if utf8[attr_name] == "Code":  # max_stack u2, max_locals u2, code_length u4
                    found[utf8[name] + utf8[desc]] = (pos + 14, struct.unpack_from(">I", data, pos + 10)[0])
                pos += 6 + attr_len
        return pos

    methods: dict = {}
    members(members(pos, {}), methods)  # fields, then methods
    return methods


def returning_an_int_from(data: bytes, method: str) -> bytes:
    """``data`` with ``method``'s final ``areturn`` made an ``ireturn``: a type error."""
    start, length = code_arrays(data)[method]
    last = start + length - 1
    assert data[last] == ARETURN, f"{method} does not end in areturn"
    return data[:last] + bytes([IRETURN]) + data[last + 1 :]


def as_version(data: bytes, major: int) -> bytes:
    return data[:6] + struct.pack(">H", major) + data[8:]


def without_stack_maps(data: bytes) -> bytes:
    """Rename the StackMapTable attribute to one no JVM knows, so its frames are ignored."""
    assert data.count(b"\x00\x0dStackMapTable") == 1
    return data.replace(b"\x00\x0dStackMapTable", b"\x00\x0dStackMapTablX")


@pytest.fixture(scope="module")
def lang3() -> CorpusSource:
    return corpus_source("commons-lang3")


@pytest.fixture(scope="module")
def java_base() -> CorpusSource:
    return corpus_source("java.base")


@pytest.fixture(scope="module")
def specimens(lang3, java_base) -> dict[str, bytes]:
    """A few good classes and a few broken ones, checked together in one JVM per oracle."""
    originals = {name: data for name, data in iter_classes(lang3)}
    java_object = (java_base.path / "java" / "lang" / "Object.class").read_bytes()
    return {
        **{name: originals[name] for name in PASSING},
        GETTER_OWNER: returning_an_int_from(originals[GETTER_OWNER], "getLeft()Ljava/lang/Object;"),
        TRUNCATED: originals[TRUNCATED][: len(originals[TRUNCATED]) // 2],
        OLD_VERSION: as_version(originals[OLD_VERSION], 49),
        FRAMELESS_50: without_stack_maps(as_version(originals[FRAMELESS_50], 50)),
        "java/lang/Object": java_object,
    }


def test_code_arrays_finds_the_getter(lang3):
    data = dict(iter_classes(lang3))[GETTER_OWNER]
    start, length = code_arrays(data)["getLeft()Ljava/lang/Object;"]
    assert (length, data[start], data[start + 1], data[start + length - 1]) == (5, 0x2A, 0xB4, ARETURN)


def test_classfile_api_passes_originals_and_catches_breakage(specimens, lang3):
    result = verify_classfile_api(specimens, [lang3.path])

    assert set(result) == {GETTER_OWNER, TRUNCATED, FRAMELESS_50}
    assert any("getLeft" in message for message in result[GETTER_OWNER]), result[GETTER_OWNER]
    assert result[TRUNCATED]
    # Below version 50 ClassFile.verify only says "Inference verification is not supported".
    assert set(result.skipped) == {OLD_VERSION}
    # At 50 it says so after the type checker fails; the oracle digs out the real reason.
    no_inference, *reasons = result[FRAMELESS_50]
    assert no_inference == "Inference verification is not supported"
    assert any("stackmap frame" in reason for reason in reasons), reasons
    assert result.checked == len(specimens)


JAVAS = {
    "hotspot-17": jdk17_java,
    "hotspot-25": jdk25_java,
    "zero-17": zero_java,
}


@pytest.mark.parametrize("vm", list(JAVAS))
def test_hotspot_passes_originals_and_catches_breakage(specimens, lang3, vm):
    java = JAVAS[vm]()
    if java is None:
        pytest.skip(f"{vm} is not installed here")
    result = verify_hotspot(specimens, [lang3.path], java=java)

    assert set(result) == {GETTER_OWNER, TRUNCATED}
    (getter_error,) = result[GETTER_OWNER]
    assert getter_error.startswith("java.lang.VerifyError") and "getLeft" in getter_error
    assert result[TRUNCATED][0].startswith("java.lang.ClassFormatError")
    # HotSpot checks the version-49 class with its inference verifier, and at 50 fails over
    # to it when the stack maps do not check out: both pass.
    assert OLD_VERSION not in result and FRAMELESS_50 not in result
    assert set(result.skipped) == {"java/lang/Object"}


def test_hotspot_reports_a_missing_dependency(lang3):
    pair = dict(iter_classes(lang3))[GETTER_OWNER]
    result = verify_hotspot({GETTER_OWNER: pair}, classpath=[])

    (error,) = result[GETTER_OWNER]
    assert error.startswith("java.lang.NoClassDefFoundError") and "tuple/Pair" in error


def test_java_base_is_extracted_with_every_class(java_base):
    names = [name for name, _data in iter_classes(java_base)]

    assert len(names) > 5000
    assert {"java/lang/Object", "java/lang/String", "module-info"} <= set(names)


def test_iter_classes_names_multi_release_entries_by_path(tmp_path):
    jar = tmp_path / "mr.jar"
    with zipfile.ZipFile(jar, "w") as z:
        for entry in ("a/B.class", "META-INF/versions/11/a/B.class",
                      "META-INF/versions/9/module-info.class", "a/notes.txt", "a/"):
            z.writestr(entry, b"\xca\xfe\xba\xbe" + entry.encode())

    found = dict(iter_classes(CorpusSource("mr", jar, "jar")))

    assert sorted(found) == ["META-INF/versions/11/a/B", "META-INF/versions/9/module-info", "a/B"]
    assert found["a/B"].endswith(b"a/B.class")


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["commons-lang3", "guava"])
def test_every_original_jar_class_passes_both_oracles(name):
    source = corpus_source(name)
    classes = dict(iter_classes(source))

    assert verify_classfile_api(classes, [source.path]) == {}
    assert verify_hotspot(classes, [source.path]) == {}
