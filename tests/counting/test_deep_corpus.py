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
    assert all(CODE_TOO_LARGE.match(r.removeprefix("deep counts: ")) for r in refused), refused
    assert len(refused) < 10
    classpath = corpus_classpath(source)
    before = verify_classfile_api(originals, classpath)
    after = verify_classfile_api(counted, classpath)
    print(f"\n{name}: {len(counted)} classes counted deep ({len(numbers.ids)} methods), {len(refused)} methods too "
          f"large; {len(before)} fail ClassFile.verify before and {len(after)} after")
    assert after.checked == before.checked > 100
    assert new_failures(before, after) == []


@pytest.mark.parametrize("options", [{}, {"abrupt": True}, {"inclusive": True}, {"abrupt": True, "inclusive": True},
                                     {"strategy": "instruction", "allocations": True}],
                         ids=["block", "abrupt", "inclusive", "abrupt+inclusive", "instruction+allocations"])
def test_classes_counted_flat_and_deep_in_one_pass_pass_both_verifiers(counting_classes, options):
    """A test's own classes carry their flat counters and the deep code from one pass, with every option of the
    flat counts (their catch-all handlers, constructors' stretches, inclusive hooks): both verifiers accept them."""
    from pytest_bytecount.classfile.classpath import Classpath
    from pytest_bytecount.counting.options import CountingOptions
    from pytest_bytecount.counting.pipeline.per_class import ClassCounter
    from tests.support.counted import Counted
    from tests.support.verifier import verify_hotspot

    for build, folder in sorted(counting_classes.items()):
        counter = ClassCounter(Classpath([folder]), CountingOptions(("**",), **options))
        counter.deep = MethodNumbers()
        counted = Counted(counter.count_all())
        files = counted.files
        originals = {c.name: Classpath([folder]).read(c.name) for c in counted.classes}
        assert len(originals) >= 5 and not counted.refused
        assert all(b"java/lang/PytestBytecountDeep" in c.data for c in counted.classes)
        before = verify_classfile_api(originals, [folder])
        after = verify_classfile_api(files, [folder])
        assert new_failures(before, after) == [], build
        before, after = verify_hotspot(originals, [folder]), verify_hotspot(files, [folder])
        # java/lang/PytestBytecountDeep is not on HotSpot's class path here: linking stops at the first call
        # into it only if verification passed, so only VerifyErrors count
        assert [f for f in new_failures(before, after) if "VerifyError" in f] == [], build


def test_a_method_too_large_with_both_keeps_its_deep_code():
    """java.lang.Character$UnicodeScript#<clinit> (JDK 17) is too large once counted flat with abrupt tallies; counted flat and deep in
    one pass, it is refused for its flat counts but keeps its deep code alone, which fits."""
    from pytest_bytecount.classfile import ClassFile
    from pytest_bytecount.classfile.classpath import Classpath
    from pytest_bytecount.counting.options import CountingOptions
    from pytest_bytecount.counting.pipeline.per_class import ClassCounter
    from tests.support.corpus import java_base_dir

    counter = ClassCounter(Classpath([java_base_dir()]), CountingOptions(("java.lang.Character$UnicodeScript",),
                                                                         abrupt=True))
    counter.deep = MethodNumbers()
    counted = counter.count("java/lang/Character$UnicodeScript")
    assert any(r.startswith("java.lang.Character$UnicodeScript#<clinit>()V: code would be") for r in counted.refused)
    clinit = next(m for m in ClassFile.parse(counted.data).methods if m.name == "<clinit>")
    cp = clinit.owner.constant_pool
    calls = {cp.member_ref(i.arg)[:2] for i in clinit.code.instructions if i.opcode == 184}  # invokestatic
    assert ("java/lang/PytestBytecountDeep", "exclude") in calls and ("java/lang/PytestBytecountDeep", "add") in calls
    assert not any(owner.startswith("pytest_bytecount/") for owner, _ in calls)  # no flat counters
