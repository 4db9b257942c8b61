"""The class-file engine on real code nobody here wrote: the JDK's java.base (17 and 25), guava,
commons-lang3, eclipse-jdt-core, and the runtime libraries of Scala 2.11, Kotlin 1.3, Groovy 2.4 and
Clojure 1.11, whose compilers lay out bytecode in ways javac never does (see support/corpus.py).

- Round trip: parsing and writing back, with every method decoded into the label model on the way, gives
  the same bytes.
- max_stack: our computation equals the compiler's on every method.
- Stress edit: an ``iinc`` of a new local before every instruction, the local set at entry. The JVM's
  verifiers (``ClassFile.verify`` of JDK 25, HotSpot linking on JDK 17, or 25 for version 69) must report
  no failure on the edited classes that they do not also report on the originals (a class whose optional
  dependency is not installed fails the same way in both). Only methods that the edit would take past
  65,535 bytes may stay unedited, each shown to have no room.

What CI covers: by default one class in ``SAMPLE_SHARE`` (2) of every source, picked by the SHA-256 of the
class name (``support.corpus.in_sample``), the same classes on every run: 14,925 of the 29,751 classes
with Debian 12's packages go through the round trip, the max_stack check and the stress edit with both
verifiers; the constant-pool tag census always reads every class. ``BYTECOUNT_CORPUS=full`` runs every
test on every class (1.7 times the CPU time of the sample for both corpus files), as
``benchmarks/corpus.py`` does.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile import constant_pool as cpool
from pytest_bytecount.classfile.encode import compute_max_locals, compute_max_stack

from tests.support.corpus import CORPUS_NAMES, corpus_classes, corpus_share, corpus_source, iter_classes
from tests.support.engine import CODE_TOO_LARGE, corpus_classpath, new_failures
from tests.support.jdk import jdk25_java
from tests.support.stress import stress_class
from tests.support.verifier import verify_classfile_api, verify_hotspot

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module", params=CORPUS_NAMES)
def source(request):
    return corpus_source(request.param)


def test_round_trip_is_byte_identical(source):
    classes = methods = 0
    versions = Counter()
    differing = []
    for name, data in corpus_classes(source):
        classes += 1
        cf = ClassFile.parse(data)
        versions[cf.major_version] += 1
        if cf.to_bytes() != data:
            differing.append(f"{name} (untouched)")
            continue
        for m in cf.methods:
            if m.code is not None:  # decodes the Code attribute into labels
                methods += 1
        if cf.to_bytes() != data:
            differing.append(name)
    print(f"\n{source.name}: {classes} classes, {methods} methods decoded, versions {dict(sorted(versions.items()))}")
    assert classes > 300 // corpus_share()
    assert differing == []


def test_computed_max_stack_equals_the_compilers(source):
    """javac and ecj compute max_stack exactly; our data-flow computation must agree on every method.
    (max_locals only has a lower bound: compilers reserve slots that no instruction touches.)"""
    checked = 0
    wrong = []
    for name, data in corpus_classes(source):
        cf = ClassFile.parse(data)
        for m in cf.methods:
            code = m.code
            if code is None:
                continue
            checked += 1
            computed = compute_max_stack(code.instructions, code.handlers, cf.constant_pool, code.items)
            if computed != code.max_stack:
                wrong.append(f"{name}#{m.name}{m.descriptor}: {computed} != {code.max_stack}")
            if compute_max_locals(code.instructions, m) > code.max_locals:
                wrong.append(f"{name}#{m.name}{m.descriptor}: max_locals over the compiler's")
    assert checked > 3000 // corpus_share()
    assert wrong == []


def test_the_corpus_covers_every_constant_pool_tag_but_dynamic():
    """Dynamic (17) has no javac source form; test_constant_dynamic_round_trips covers it. Module and
    Package appear only in module-info, so this census reads every class, sample or not."""
    seen = set()
    for name in CORPUS_NAMES:
        for _, data in iter_classes(corpus_source(name)):
            seen.update(e[0] for e in ClassFile.parse(data).constant_pool.entries if e is not None)
    assert set(cpool.TAG_NAMES) - seen == {cpool.DYNAMIC}


def _code_length(data: bytes, name: str, descriptor: str) -> int:
    m = ClassFile.parse(data).find_method(name, descriptor)
    return int.from_bytes(m.find_attribute("Code")[1].data[4:8], "big")


def _stress(source):
    originals = dict(corpus_classes(source))
    edited = {}
    too_large = []
    for name, data in originals.items():
        edited[name], big = stress_class(data)
        too_large += big
    return originals, edited, too_large


@pytest.fixture(scope="module")
def stressed(source):
    return source, *_stress(source)


def test_stress_edit_passes_classfile_verify(stressed):
    source, originals, edited, too_large = stressed
    classpath = corpus_classpath(source)
    before = verify_classfile_api(originals, classpath)
    after = verify_classfile_api(edited, classpath)
    print(f"\n{source.name}: {after.checked} classes verified in {after.seconds:.1f}s, "
          f"{len(before)} fail before the edit and {len(after)} after, {len(after.skipped)} skipped, "
          f"{len(too_large)} methods over 64 KB left unedited")
    assert after.checked == len(originals)
    assert set(after.skipped) == set(before.skipped)
    assert new_failures(before, after) == []
    # Methods the edit would take past 64 KB raise CodeTooLargeError and stay as they were; check that
    # each says so with its size, and really had no room: its bytes plus 3 per instruction (the iinc)
    # already exceed the limit.
    for message in too_large:
        match = CODE_TOO_LARGE.match(message)
        assert match and int(match.group(2).replace(",", "")) > 65535, message
        qualified = match.group(1)
        print("  left unedited:", qualified, match.group(2), "bytes")
        cls, method = qualified.split("#")
        data = originals[cls.replace(".", "/")]
        name, descriptor = method[:method.index("(")], method[method.index("("):]
        instructions = len(ClassFile.parse(data).find_method(name, descriptor).code.instructions)
        assert _code_length(data, name, descriptor) + 3 * instructions > 65535, message
    assert len(too_large) < 10


def test_stress_edit_passes_hotspot_verification(stressed):
    source, originals, edited, _ = stressed
    java = jdk25_java() if source.name == "java.base-25" else None
    classpath = corpus_classpath(source)
    before = verify_hotspot(originals, classpath, java=java)
    after = verify_hotspot(edited, classpath, java=java)
    print(f"\n{source.name}: HotSpot linked {after.checked - len(after.skipped)} classes in {after.seconds:.1f}s, "
          f"{len(before)} fail before the edit and {len(after)} after, {len(after.skipped)} skipped")
    assert set(after.skipped) == set(before.skipped)
    assert new_failures(before, after) == []
