"""Classpath entries that cannot work, each refused with what to write instead (classfile/classpath.py's
``expand_entry``), on a Maven-style project made in ``tmp_path``: its classes compiled by javac, a real jar.

That such an error is one usage error before any test runs is tried end to end in
tests/plugin/test_classpath.py and tests/plugin/test_bad_input.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_bytecount.classfile.classpath import ClasspathError, expand_entry
from tests.support.javac import compile_java

INVENTORY = "package shop;\npublic class Inventory {\n    public static int one() { return 1; }\n}\n"
COMMONS_LANG3 = Path("/usr/share/java/commons-lang3.jar")  # Debian's libcommons-lang3-java


@pytest.fixture
def root(tmp_path) -> Path:
    """target/classes/shop/Inventory.class, lib/ with one jar, src/main/java/shop/Inventory.java."""
    source = tmp_path / "src" / "main" / "java" / "shop" / "Inventory.java"
    source.parent.mkdir(parents=True)
    source.write_text(INVENTORY)
    shutil.copytree(compile_java(tmp_path / "src" / "main" / "java"), tmp_path / "target" / "classes")
    (tmp_path / "lib").mkdir()
    if COMMONS_LANG3.is_file():
        shutil.copyfile(COMMONS_LANG3, tmp_path / "lib" / "commons-lang3-3.12.0.jar")
    else:
        pytest.skip("needs Debian's libcommons-lang3-java")
    return tmp_path


def refused(entry: str, root: Path) -> str:
    with pytest.raises(ClasspathError) as e:
        expand_entry(entry, root)
    return str(e.value)


def test_what_works_expands_as_java_does(root):
    assert expand_entry("target/classes", root) == [root / "target" / "classes"]
    assert expand_entry("lib/*", root) == [root / "lib" / "commons-lang3-3.12.0.jar"]
    assert expand_entry("lib/*.jar", root) == [root / "lib" / "commons-lang3-3.12.0.jar"]


def test_a_folder_of_jars_is_not_a_class_folder(root):
    assert refused("lib", root) == (
        f"classpath entry {root}/lib is a folder of 1 jar(s) (commons-lang3-3.12.0.jar) with no class files; a "
        f"folder entry is a root of class files, as for java -cp: write 'lib/*' for every jar in it")


def test_a_glob_or_a_wildcard_that_matches_nothing_names_where_it_looked(root):
    assert refused("lib/*.war", root) == f"classpath entry 'lib/*.war' matches no file ({root}/lib/*.war)"
    assert refused("deps/*", root) == f"classpath entry 'deps/*': the folder {root}/deps does not exist"


def test_a_package_folder_names_the_root_to_write_instead(root):
    assert refused("target/classes/shop", root) == (
        f"classpath entry {root}/target/classes/shop is a package folder, not the root of its classes: "
        f"Inventory.class holds class shop.Inventory, whose root is {root}/target/classes; write \"target/classes\" "
        f"instead")


def test_sources_given_as_the_classpath_say_how_to_have_them_compiled(root):
    assert refused("src/main/java", root) == (
        f"classpath entry {root}/src/main/java holds Java sources (1 .java file) and no class files: the classpath "
        f"takes compiled classes. To have the sources compiled, give the folder as sources (sources = "
        f"[\"src/main/java\"] in [tool.bytecount], or --bytecount-sources)")


def test_a_missing_entry_and_a_jar_that_is_not_a_zip(root):
    assert refused("build/missing", root) == f"classpath entry {root}/build/missing does not exist"
    # a build's output that is not built yet: what builds it
    assert refused("app/target/classes", root) == (f"classpath entry {root}/app/target/classes does not exist yet: it is "
                                               f"Maven's output, so build it first (mvn compile, or mvn package for "
                                               f"the jar)")
    assert refused("app/build/classes/java/main", root) == (f"classpath entry {root}/app/build/classes/java/main does not "
                                                        f"exist yet: it is Gradle's output, so build it first (gradle "
                                                        f"classes, or gradle jar for the jar)")
    (root / "lib" / "dep.jar").write_text("<html>404 not found</html>")
    assert refused("lib/dep.jar", root) == f"classpath entry {root}/lib/dep.jar is a file but not a jar (zip) archive"
