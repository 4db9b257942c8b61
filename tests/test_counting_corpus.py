"""Real-world robustness of counting: every method of java.base (17 and 25), guava, commons-lang3 and
eclipse-jdt-core as a target. The instrumented classes must raise no verifier failure the originals do
not have; the only refusals allowed are methods that would pass 64 KB, each with a clear message."""

from __future__ import annotations

import re

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classpath import Classpath
from pytest_bytecount.instrument import instrument
from pytest_bytecount.runtime_class import RUNTIME_CLASS

from engine_helpers import corpus_classpath, new_failures
from support.corpus import CORPUS_NAMES, corpus_source, iter_classes
from support.verifier import jdk25_java, verify_classfile_api, verify_hotspot

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module", params=CORPUS_NAMES)
def counted(request):
    source = corpus_source(request.param)
    result = instrument(Classpath([source.path]), ["**"])
    return source, result


def test_every_method_is_counted_or_refused_with_a_reason(counted):
    source, result = counted
    originals = dict(iter_classes(source))
    methods = sum(1 for name, data in originals.items() if not name.startswith("META-INF/")
                  and not name.endswith(("module-info", "package-info"))
                  for m in ClassFile.parse(data).methods if m.has_code())
    print(f"\n{source.name}: {len(result.maps)} of {methods} methods counted, {result.size:,} counters; "
          f"refused: {[r.split(':')[0] for r in result.refused]}")
    assert len(result.maps) + len(result.refused) == methods
    for message in result.refused:
        assert re.match(r"^[\w.$]+#\S+: code would be [\d,]+ bytes after editing, over the JVM's limit of "
                        r"65,535 bytes; the method was not written", message), message
    assert len(result.refused) < 10


def test_instrumented_classes_pass_classfile_verify(counted):
    source, result = counted
    classpath = corpus_classpath(source)
    originals = {n: d for n, d in iter_classes(source) if n in result.classes}
    before = verify_classfile_api(originals, classpath)
    after = verify_classfile_api(result.classes, classpath)
    print(f"\n{source.name}: {after.checked} classes, {len(before)} fail before counting and {len(after)} after")
    assert new_failures(before, after) == []
    # the support class is version 49 (no stack maps), which ClassFile.verify leaves to HotSpot
    assert RUNTIME_CLASS in after.skipped


def test_instrumented_classes_pass_hotspot_verification(counted):
    source, result = counted
    java = jdk25_java() if source.name == "java.base-25" else None
    classpath = corpus_classpath(source)
    originals = {n: d for n, d in iter_classes(source) if n in result.classes}
    before = verify_hotspot(originals, classpath, java=java)
    after = verify_hotspot(result.classes, classpath, java=java)
    print(f"\n{source.name}: HotSpot linked {after.checked - len(after.skipped)} classes, "
          f"{len(before)} fail before counting and {len(after)} after")
    assert RUNTIME_CLASS not in after and RUNTIME_CLASS not in after.skipped
    assert new_failures(before, after) == []
