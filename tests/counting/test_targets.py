"""Target patterns and method ids, as the counting contract defines them."""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.targets import MethodId, TargetError, TargetPattern, resolve_targets


@pytest.fixture(scope="module")
def classpath(engine_classes):
    return Classpath([engine_classes])


def resolved(classpath, *patterns):
    return {str(m) for ms in resolve_targets(patterns, classpath).values() for m in ms}


def test_method_ids_use_dots_for_packages_and_dollars_for_nesting():
    m = MethodId("engine/Misc$Point", "<init>", "(II)V")
    assert str(m) == "engine.Misc$Point#<init>(II)V"
    assert MethodId.parse(str(m)) == m


def test_a_name_matches_every_overload_and_a_descriptor_exactly_one(classpath):
    all_ = resolved(classpath, "engine.CtorBranches#<init>")
    assert len(all_) >= 2 and all(i.startswith("engine.CtorBranches#<init>(") for i in all_)
    one = sorted(all_)[0]
    assert resolved(classpath, one) == {one}


def test_a_class_or_star_matches_every_method_with_code_including_init_and_clinit(classpath):
    whole = resolved(classpath, "engine.Misc")
    assert whole == resolved(classpath, "engine.Misc#*")
    assert "engine.Misc#<clinit>()V" in whole and any("#<init>(" in i for i in whole)


def test_globs_in_the_class_part(classpath):
    one_level = resolved(classpath, "engine.*")
    assert any(i.startswith("engine.Misc$") for i in one_level)  # nested classes are in the package
    assert resolved(classpath, "engine.**") == one_level  # no subpackages here
    assert resolved(classpath, "**") == one_level
    assert resolved(classpath, "engine.Ctor*") == {i for i in one_level if i.startswith("engine.Ctor")}


def test_nothing_matched_is_an_error_with_near_misses(classpath):
    with pytest.raises(TargetError, match=r"'engine.Misc#nosuch' matches no method; near misses: engine.Misc#"):
        resolve_targets(["engine.Misc#nosuch"], classpath)
    with pytest.raises(TargetError, match=r"matches no class .* did you mean engine.Misc"):
        resolve_targets(["engine.Mics"], classpath)
    with pytest.raises(TargetError, match="bad target pattern"):
        TargetPattern.parse("engine.Misc#")
    with pytest.raises(TargetError, match="no target given"):
        resolve_targets([], classpath)


def test_abstract_and_interface_methods_have_nothing_to_count(classpath):
    codeless = None
    from pytest_bytecount.classfile import ClassFile

    for name in classpath.class_names():
        cf = ClassFile.parse(classpath.read(name))
        for m in cf.methods:
            if not m.has_code() and m.name not in ("<init>", "<clinit>"):
                codeless = f"{name.replace('/', '.')}#{m.name}{m.descriptor}"
                break
        if codeless:
            break
    assert codeless, "the engine fixtures have an interface or abstract method"
    with pytest.raises(TargetError, match="without bytecode"):
        resolve_targets([codeless], classpath)
