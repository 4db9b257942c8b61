"""Real-world robustness of counting: every method of the corpus as a target (java.base of JDK 17 and 25,
guava, commons-lang3, eclipse-jdt-core, and the runtime libraries of Scala 2.11, Kotlin 1.3, Groovy 2.4 and
Clojure 1.11; see support/corpus.py). The instrumented classes must raise no verifier failure the originals
do not have, by ``ClassFile.verify`` (JDK 25) and by HotSpot linking (JDK 17, or 25 for version 69). The
only refusals allowed are methods whose counted code would pass 65,535 bytes, each with a message naming
the method and its size.

What CI covers: by default one class in ``SAMPLE_SHARE`` (2) of every source, picked by the SHA-256 of the
class name (``support.corpus.in_sample``), so the same classes on every run: 14,925 of the 29,751 classes
with Debian 12's packages. Every method of those classes is counted, and every counted class goes through
both verifiers. ``BYTECOUNT_CORPUS=full`` checks every class of every source (1.7 times the CPU time of
the sample for both corpus files), as ``benchmarks/corpus.py`` does.
"""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile.classpath import Classpath

from tests.support.counted import count_classes

from tests.support.corpus import CORPUS_NAMES, corpus_classes, corpus_is_full, corpus_source, write_jar
from tests.support.engine import CODE_TOO_LARGE, corpus_classpath, new_failures
from tests.support.jdk import jdk25_java
from tests.support.verifier import verify_classfile_api, verify_hotspot

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module", params=CORPUS_NAMES)
def counted(request, tmp_path_factory):
    source = corpus_source(request.param)
    originals = dict(corpus_classes(source))
    if corpus_is_full():
        path = source.path
    else:
        path = write_jar(originals, tmp_path_factory.mktemp("sample") / f"{source.name}.jar")
    return source, originals, count_classes(Classpath([path]), ["**"])


def _counters_kinds(result) -> dict:
    """One Counters class per set of ``add`` overloads among the corpus's (they differ only in their size
    and overloads): {internal name: bytes}."""
    out, seen = {}, set()
    for c in result.classes:
        kind = tuple(sorted(m.descriptor for m in ClassFile.parse(c.counters_data).methods if m.name == "add"))
        if kind not in seen:
            seen.add(kind)
            out[c.counters_name] = c.counters_data
    return out


def test_every_method_is_counted_or_refused_with_a_reason(counted):
    source, originals, result = counted
    methods = {f"{name.replace('/', '.')}#{m.name}{m.descriptor}"
               for name, data in originals.items()
               if not name.startswith("META-INF/") and not name.endswith(("module-info", "package-info"))
               for m in ClassFile.parse(data).methods if m.has_code()}
    counted_methods = {str(m.method) for m in result.maps}
    refused = {}
    for message in result.refused:
        match = CODE_TOO_LARGE.match(message)
        assert match, f"a method was refused for another reason than its size: {message}"
        refused[match.group(1)] = int(match.group(2).replace(",", ""))
    size = sum(c.size for c in result.classes)
    print(f"\n{source.name}: {len(counted_methods)} of {len(methods)} methods counted, {size:,} counters; "
          f"refused: {refused}")
    assert all(size > 65535 for size in refused.values()), refused
    assert len(refused) == len(result.refused)
    assert not counted_methods & set(refused)
    assert counted_methods | set(refused) == methods
    assert len(refused) < 10


def test_instrumented_classes_pass_classfile_verify(counted):
    source, originals, result = counted
    classpath = corpus_classpath(source)
    counted = {c.name: c.data for c in result.classes}
    kinds = _counters_kinds(result)
    before = verify_classfile_api({n: d for n, d in originals.items() if n in counted}, classpath)
    after = verify_classfile_api({**counted, **kinds}, classpath)
    print(f"\n{source.name}: {after.checked} classes, {len(before)} fail before counting and {len(after)} after")
    assert new_failures(before, after) == []
    # the Counters classes are version 49 (no stack maps), which ClassFile.verify leaves to HotSpot
    assert set(kinds) <= set(after.skipped)


def test_instrumented_classes_pass_hotspot_verification(counted):
    source, originals, result = counted
    java = jdk25_java() if source.name == "java.base-25" else None
    classpath = corpus_classpath(source)
    counted = {c.name: c.data for c in result.classes}
    kinds = _counters_kinds(result)
    before = verify_hotspot({n: d for n, d in originals.items() if n in counted}, classpath, java=java)
    after = verify_hotspot({**counted, **kinds}, classpath, java=java)
    print(f"\n{source.name}: HotSpot linked {after.checked - len(after.skipped)} classes "
          f"({len(kinds)} kinds of Counters class among them), {len(before)} fail before counting and {len(after)} after")
    assert not set(kinds) & (set(after) | set(after.skipped))
    assert new_failures(before, after) == []
