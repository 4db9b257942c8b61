"""Deep counting over real class files: the JDK's own (java.base of JDK 17 and 25) and the libraries of the
corpus (support/corpus.py), every method of every class counted deep as the JVM's transformer counts it. The
counted classes must raise no verifier failure the originals do not have (``ClassFile.verify`` on JDK 25, which
judges java.* classes too), and a method may be left as it is only when its counted code would pass 65,535
bytes. CI checks the corpus's sample (one class in two, as tests/counting/test_corpus.py).
"""

from __future__ import annotations

import pytest

from pytest_bytecount.counting.instr.deep import MethodNumbers, deep_class

from tests.support.corpus import corpus_classes, corpus_source
from tests.support.engine import CODE_TOO_LARGE, corpus_classpath, new_failures
from tests.support.verifier import verify_classfile_api

pytestmark = pytest.mark.corpus


@pytest.mark.parametrize("name", ["java.base", "java.base-25", "guava"])
def test_classes_counted_deep_pass_classfile_verify(name):
    source = corpus_source(name)
    originals = {n: d for n, d in corpus_classes(source)
                 if not n.startswith("META-INF/") and not n.endswith(("module-info", "package-info"))}
    numbers = MethodNumbers()
    counted, refused = {}, []
    for n, data in originals.items():
        result = deep_class(data, numbers)
        counted[n] = result.data
        refused += result.refused
    assert all(CODE_TOO_LARGE.match(r) for r in refused), refused
    assert len(refused) < 10
    classpath = corpus_classpath(source)
    before = verify_classfile_api(originals, classpath)
    after = verify_classfile_api(counted, classpath)
    print(f"\n{name}: {len(counted)} classes counted deep ({len(numbers.ids)} methods), {len(refused)} methods too "
          f"large; {len(before)} fail ClassFile.verify before and {len(after)} after")
    assert after.checked == before.checked > 100
    assert new_failures(before, after) == []
