"""Target patterns and method ids, as the counting contract defines them."""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.targets import (MethodId, TargetError, TargetPattern, nested_hint, nested_left_out,
                                               resolve_targets)


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


@pytest.mark.parametrize("dotted, matched", [
    ("pkg.Cls", True), ("pkg.Cls$A", True), ("pkg.Cls$A$B", True), ("pkg.Cls$1", True), ("pkg.Cls.sub.Y", True),
    ("pkg.ClsY", False), ("pkg.Cls2$A", False), ("pkg.Other$Cls", False), ("other.pkg.Cls$A", False),
])
def test_a_class_part_ending_in_dot_star_star_takes_the_class_with_its_nested_classes(dotted, matched):
    assert TargetPattern.parse("pkg.Cls.**").matches_class(dotted) is matched
    assert TargetPattern.parse("pkg.Cls.**#run").matches_class(dotted) is matched


def test_the_other_class_forms_keep_their_meaning():
    assert not TargetPattern.parse("pkg.Cls").matches_class("pkg.Cls$A")
    assert TargetPattern.parse("pkg.Cls$*").matches_class("pkg.Cls$A")
    assert not TargetPattern.parse("pkg.Cls$*").matches_class("pkg.Cls")
    assert TargetPattern.parse("pkg.**").matches_class("pkg.a.B$C")
    assert not TargetPattern.parse("pkg.**").matches_class("pkgx.B")
    assert not TargetPattern.parse("pkg.*").matches_class("pkg.a.B")
    assert TargetPattern.parse("**").matches_class("a.B")


def test_nested_classes_an_exact_class_pattern_leaves_out():
    names = ["pkg/Cls", "pkg/Cls$It", "pkg/Cls$It$Deep", "pkg/Cls$1", "pkg/Clsx$A", "pkg/Other"]
    assert nested_left_out(["pkg.Cls#run"], names) == {"pkg.Cls#run": ["pkg.Cls$1", "pkg.Cls$It", "pkg.Cls$It$Deep"]}
    assert nested_left_out(["pkg.Cls", "pkg.Cls$It*"], names) == {"pkg.Cls": ["pkg.Cls$1"]}
    assert nested_left_out(["pkg.Cls.**"], names) == {}  # globs never get the hint
    assert nested_left_out(["pkg.Other"], names) == {}  # no nested class at all
    hint = nested_hint("pkg.Cls#run", ["pkg.Cls$1", "pkg.Cls$It", "pkg.Cls$It$Deep", "pkg.Cls$Z"])
    assert hint.startswith("hint: pkg.Cls#run leaves out 4 nested classes that this test loaded "
                           "(Cls$1, Cls$It, Cls$It$Deep, ...); the target pkg.Cls.** (beside pkg.Cls#run)")
    assert "1 nested class that" in nested_hint("pkg.Cls", ["pkg.Cls$1"])


def test_near_misses_are_found_by_the_method_name_s_letters_or_its_words_in_any_order():
    from pytest_bytecount.counting.targets import near_methods

    def listed(*names):
        return [(f"a.Set#{n}{d}", n) for n, d in names]

    methods = listed(("<clinit>", "()V"), ("<init>", "()V"), ("toArray", "()[Ljava/lang/Object;"),
                     ("isSubset", "(La/Set;)Z"), ("size", "()I"), ("union", "(La/Set;)La/Set;"))
    assert near_methods("subsetOf", methods) == ["a.Set#isSubset(La/Set;)Z"]  # words, reordered
    assert near_methods("unoin", methods)[0] == "a.Set#union(La/Set;)La/Set;"  # a typo
    assert near_methods("size", methods)[0] == "a.Set#size()I"  # a wrong descriptor: the name still finds it
    # nothing alike: the first methods, the static initializer left out
    assert near_methods("frobnicate", methods) == ["a.Set#<init>()V", "a.Set#toArray()[Ljava/lang/Object;",
                                                   "a.Set#isSubset(La/Set;)Z", "a.Set#size()I",
                                                   "a.Set#union(La/Set;)La/Set;"]
