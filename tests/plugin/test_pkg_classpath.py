"""Classpath entries that name an installed Python package's jars: ``pkg:<package>/<path>``, as JPype
applications ship them (mpxj's ``mpxj/lib/*.jar``, konlpy's ``konlpy/java/bin``, tabula-py's
``tabula/tabula-*.jar``), without writing the path of a venv or of a Python version.

The package here is ``fakeapp`` in a folder put on the path of Python (no pip): ``lib/calc.jar`` holds
``st.Calc`` (built by javac and jar), ``java/bin`` the same class as a class folder. Its ``__init__.py``
raises: finding the package must not import it (an application may start a JVM when imported)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_bytecount.plugin.config import (ConfigError, Settings, classpath_entries, classpath_file_entries,
                                            compile_classpath_entries, configured_classpath, load_settings,
                                            split_entries)
from tests.support.pytest_project import CALC, JDK17, run
from tests.support.settings import option

TEST = """\
import pytest

@pytest.mark.bytecount("st.Calc#twice")
def test_twice(bytecount):
    assert bytecount.jclass("st.Calc").twice(21) == 42
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder as site-packages holds them: the package ``fakeapp`` with its jar and class folder, its
    distribution's metadata, and a single module ``fakemod``."""
    site = tmp_path_factory.mktemp("site")
    app = site / "fakeapp"
    source = site / "src" / "st" / "Calc.java"
    source.parent.mkdir(parents=True)
    source.write_text(CALC)
    subprocess.run([f"{JDK17}/bin/javac", "-d", str(app / "java" / "bin"), str(source)], check=True)
    (app / "lib").mkdir()
    subprocess.run([f"{JDK17}/bin/jar", "cf", str(app / "lib" / "calc.jar"), "-C", str(app / "java" / "bin"), "."],
                   check=True)
    (app / "__init__.py").write_text("raise RuntimeError('fakeapp was imported')\n")
    (app / "helpers.py").write_text("")
    (site / "fakemod.py").write_text("")
    info = site / "fakeapp_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeapp-dist\nVersion: 1.0\n")
    (info / "RECORD").write_text("fakeapp/__init__.py,,\nfakeapp/helpers.py,,\nfakeapp/lib/calc.jar,,\n")
    two = site / "two_apps-1.0.dist-info"  # a distribution of two packages: its name cannot stand for one
    two.mkdir()
    (two / "METADATA").write_text("Metadata-Version: 2.1\nName: two-apps\nVersion: 1.0\n")
    (two / "RECORD").write_text("fakeapp/__init__.py,,\nfakemore/__init__.py,,\n")
    return site


@pytest.fixture
def installed(site, monkeypatch) -> Path:
    """``site`` on ``sys.path``, as an installed package's folder is."""
    monkeypatch.syspath_prepend(str(site))
    return site


def entries(tmp_path, *classpath: str) -> list:
    return classpath_entries(Settings(root=tmp_path, classpath=list(classpath)))


@pytest.mark.parametrize("entry, found", [
    ("pkg:fakeapp/lib/*", "fakeapp/lib/calc.jar"),              # Java's wildcard: every jar in the folder
    ("pkg:fakeapp/lib/*.jar", "fakeapp/lib/calc.jar"),          # a glob
    ("pkg:fakeapp/lib/calc.jar", "fakeapp/lib/calc.jar"),       # one jar
    ("pkg:fakeapp/java/bin", "fakeapp/java/bin"),               # a class folder
    ("pkg:fakeapp.java/bin", "fakeapp/java/bin"),               # a dotted name: a folder inside the package
    ("pkg:fakeapp-dist/lib/*", "fakeapp/lib/calc.jar"),         # a distribution's name: its one package
])
def test_an_entry_is_expanded_in_the_package_folder(installed, tmp_path, entry, found):
    assert entries(tmp_path, entry) == [installed / found]
    assert "fakeapp" not in sys.modules  # found, not imported (its __init__ raises)


def test_every_setting_that_takes_entries_takes_the_package_form(installed, tmp_path):
    jar = installed / "fakeapp" / "lib" / "calc.jar"
    assert compile_classpath_entries(Settings(root=tmp_path, compile_classpath=["pkg:fakeapp/lib/*"])) == [jar]
    listed = tmp_path / "classpath.txt"
    listed.write_text("classes:pkg:fakeapp/lib/*\npkg:fakeapp/java/bin\n")
    assert classpath_file_entries(listed) == [str(tmp_path / "classes"), "pkg:fakeapp/lib/*", "pkg:fakeapp/java/bin"]
    shown = configured_classpath(Settings(root=tmp_path, classpath=["pkg:fakeapp/lib/*"], classpath_file=listed))
    assert shown == "pkg:fakeapp/lib/*, classpath.txt (3 entries: classes, pkg:fakeapp/lib/*, pkg:fakeapp/java/bin)"


def test_a_colon_separated_string_keeps_the_package_entry_whole(tmp_path, monkeypatch):
    assert split_entries("target/classes:pkg:fakeapp/lib/*::pkg:") == ["target/classes", "pkg:fakeapp/lib/*", "pkg:"]
    (tmp_path / "pyproject.toml").write_text('[tool.bytecount]\ncompile-classpath = "lib:pkg:fakeapp/lib/*"\n')
    monkeypatch.chdir(tmp_path)
    s = load_settings(tmp_path, option(bytecount_classpath="classes:pkg:fakeapp/lib/*"))
    assert s.classpath == [str(tmp_path / "classes"), "pkg:fakeapp/lib/*"]  # the package entry stays as written
    assert s.compile_classpath == ["lib", "pkg:fakeapp/lib/*"]


@pytest.mark.parametrize("entry, expected", [
    ("pkg:nosuchapp/lib/*", "no Python package nosuchapp is installed for {python} (pip install nosuchapp)"),
    ("pkg:no-such-app/lib/*", "no Python package no-such-app is installed for {python} (pip install no-such-app)"),
    ("pkg:two-apps/lib/*", "the distribution two-apps installs the packages fakeapp, fakemore: write the one "
                           "that holds the path after pkg:"),
    ("pkg:fakemod/lib/*", "fakemod is a single module ({site}/fakemod.py), not a package"),
    ("pkg:fakeapp.helpers/lib/*", "fakeapp.helpers is a single module, not a package"),
    ("pkg:fakeapp.web/static", "package fakeapp has no subpackage web"),
    ("pkg:fakeapp/java/classes", "package fakeapp has no java/classes (looked in {site}/fakeapp)"),
    ("pkg:fakeapp/jars/*", "the folder {site}/fakeapp/jars does not exist"),
    ("pkg:fakeapp/java/*", "no jar in {site}/fakeapp/java"),
    ("pkg:fakeapp/lib/*.war", "matches no file ({site}/fakeapp/lib/*.war)"),
    ("pkg:fakeapp/lib", "is a folder of 1 jar(s) (calc.jar) with no class files; a folder entry is a root of class "
                        "files, as for java -cp: write 'pkg:fakeapp/lib/*' for every jar in it"),
])
def test_an_entry_that_cannot_work_says_why(installed, tmp_path, entry, expected):
    with pytest.raises(ConfigError) as raised:
        entries(tmp_path, entry)
    message = str(raised.value)
    assert "\n" not in message
    assert expected.format(python=sys.executable, site=installed) in message
    assert entry in message
    assert "fakeapp" not in sys.modules


@pytest.mark.parametrize("entry", ["pkg:", "pkg:/lib/*", "pkg:fakeapp", "pkg:fakeapp/"])
def test_an_entry_without_a_package_or_a_path_says_how_to_write_one(installed, tmp_path, entry):
    with pytest.raises(ConfigError) as raised:
        entries(tmp_path, entry)
    assert str(raised.value) == (f"classpath entry {entry!r}: write pkg:<package>/<path inside it>, such as "
                                 f"pkg:mpxj/lib/* for the jars in the lib folder of the installed package mpxj")


def test_no_classpath_names_the_package_form(tmp_path):
    with pytest.raises(ConfigError, match=r'\["pkg:mpxj/lib/\*"\] for the jars an installed Python package ships'):
        entries(tmp_path)


def test_a_counted_test_runs_on_the_jar_of_an_installed_package(pytester, site, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(site))  # installed for the pytest that runs the project
    pytester.makepyfile(test_calc=TEST)
    pytester.makepyprojecttoml(f'[tool.bytecount]\njava-home = "{JDK17}"\nclasspath = ["pkg:fakeapp/lib/*"]\n')
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(passed=1)
    assert "bytecount: classpath pkg:fakeapp/lib/*" in result.stdout.lines
    baseline = json.loads((pytester.path / "bytecount" / "test_calc.json").read_text())
    assert baseline["tests"]["test_twice"]["methods"]["st.Calc#twice(I)I"]["invocations"] == 1
    # the same entry on the command line: compared with the baseline just recorded
    pytester.makepyprojecttoml(f'[tool.bytecount]\njava-home = "{JDK17}"\n')
    result = run(pytester, "--bytecount-classpath=pkg:fakeapp/java/bin")
    result.assert_outcomes(passed=1)
    assert "bytecount: classpath pkg:fakeapp/java/bin" in result.stdout.lines


def test_start_jvm_takes_the_package_form_too(pytester, site, monkeypatch):
    """An application started through pytest_bytecount.start_jvm names its package's jars the same way; the class
    is then on the JVM's own class path (jpype.JClass finds it) with no classpath configured."""
    monkeypatch.setenv("PYTHONPATH", str(site))
    pytester.makepyfile(test_app="""
import jpype

def test_on_the_class_path():
    assert jpype.JClass("st.Calc").twice(4) == 8
""")
    pytester.makepyprojecttoml(f'[tool.bytecount]\njava-home = "{JDK17}"\n')
    pytester.makeconftest("""
        import pytest_bytecount

        def pytest_configure(config):
            pytest_bytecount.start_jvm(config, classpath=["pkg:fakeapp/lib/*"])
    """)
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert "fakeapp/lib/calc.jar" in result.stdout.str()  # the header's class path
    pytester.makeconftest("""
        import pytest_bytecount

        def pytest_configure(config):
            pytest_bytecount.start_jvm(config, classpath=["pkg:fakeapp/nothing/*"])
    """)
    result = run(pytester)
    assert result.ret != 0
    assert "pytest_bytecount.start_jvm: " in result.stdout.str() + result.stderr.str()


def test_the_command_line_takes_the_package_form_and_prints_the_paths_java_needs(site, tmp_path):
    """``instrument --classpath pkg:...`` finds the package's jar; its "run: java -cp" line names the jar itself,
    since java has no pkg: form. A package that is not installed is an error naming pip."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "pytest_bytecount", "instrument", "--classpath",
                             "pkg:fakeapp/lib/*", "--target", "st.Calc#twice", "--out", str(out)],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (out / "st" / "Calc.class").is_file()
    assert f"run: java -cp {out}:{site / 'fakeapp' / 'lib' / 'calc.jar'} " in result.stderr
    result = subprocess.run([sys.executable, "-m", "pytest_bytecount", "instrument", "--classpath",
                             "pkg:notinstalled/lib/*", "--target", "st.Calc#twice", "--out", str(out)],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert result.returncode == 2
    assert result.stderr.startswith("bytecount: error: classpath entry 'pkg:notinstalled/lib/*': no Python package "
                                    "notinstalled is installed"), result.stderr
