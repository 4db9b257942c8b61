"""Security: what the plugin reads is data, never code, and it writes only where the project says.

- Baselines are JSON and the settings TOML, read by parsers that cannot run code.
- Baselines go to the project's baseline folders: a relative ``baseline-dir`` that climbs out of the
  project (``..``, or a symlink) is refused; an absolute path is an explicit choice and is used as given.
- Compiled ``sources`` are cached under a hash of their inputs and checked against a manifest of their
  own hashes on every use: a tampered entry is never run.
"""

from __future__ import annotations

import ast
import json
import shutil

import pytest

from tests.support.guard_project import GUARD_SRC, JDK17, files_under, guard_classes, make_project, run, work_total
from tests.support.paths import PACKAGE


UNSAFE_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "yaml", "dill", "jsonpickle", "cloudpickle"}
UNSAFE_BUILTINS = {"eval", "exec", "compile", "__import__"}


def test_the_plugin_never_executes_or_unpickles_what_it_reads():
    problems = []
    for source in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
        where = source.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                problems += [f"{where}:{node.lineno} imports {a.name}" for a in node.names
                             if a.name.split(".")[0] in UNSAFE_MODULES]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in UNSAFE_MODULES:
                problems.append(f"{where}:{node.lineno} imports from {node.module}")
            elif isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Name) and f.id in UNSAFE_BUILTINS:
                    problems.append(f"{where}:{node.lineno} calls {f.id}()")
                if isinstance(f, ast.Attribute) and f.attr in ("system", "popen") and \
                        getattr(f.value, "id", "") == "os":
                    problems.append(f"{where}:{node.lineno} runs a shell through os.{f.attr}")
                if any(k.arg == "shell" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
                       for k in node.keywords):
                    problems.append(f"{where}:{node.lineno} starts a process through a shell")
    assert problems == []
    # and the readers are the data-only parsers
    assert "json.loads(" in (PACKAGE / "regression" / "baseline.py").read_text()
    assert "tomllib.loads(" in (PACKAGE / "plugin" / "config.py").read_text()


COUNTED = '''
import pytest

@pytest.mark.bytecount("guard.Work#work")
@pytest.mark.parametrize("n", [2, 5])
def test_work(bytecount, n):
    assert bytecount.jclass("guard.Work").work(n) == n * (n - 1) // 2
'''


def test_a_relative_baseline_dir_outside_the_project_is_refused(pytester, monkeypatch):
    """One usage error, and nothing written anywhere (the command line's spelling and a symlink inside the project
    are refused alike: tests/plugin/test_settings.py)."""
    project = pytester.mkdir("project")
    outside = pytester.path / "outside"
    (project / "pyproject.toml").write_text(f'[tool.bytecount]\nclasspath = ["{guard_classes()}"]\n'
                                            f'java-home = "{JDK17}"\nbaseline-dir = "../outside"\n')
    (project / "test_x.py").write_text(COUNTED)
    before = files_under(pytester.path)
    monkeypatch.chdir(project)
    result = run(pytester, "--bytecount-update", str(project))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.str().strip() == (
        f"ERROR: bytecount: {project}/pyproject.toml: [tool.bytecount] baseline-dir '../outside' resolves to "
        f"{outside}, outside the project {project}; baselines are only written inside it unless you give an "
        f"absolute path")
    assert files_under(pytester.path) - {"stdout", "stderr"} == before - {"stdout", "stderr"}


def test_an_absolute_baseline_dir_is_used_as_given_and_nothing_else_is_written(pytester, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("shared") / "baselines"
    make_project(pytester, guard_classes(), extra='baseline-dir = "../../refused/if/it/were/used"\n',
                 test_x=COUNTED)
    (pytester.path / "tests").mkdir()
    (pytester.path / "test_x.py").rename(pytester.path / "tests" / "test_x.py")
    before = files_under(pytester.path)
    result = run(pytester, "--bytecount-update", f"--bytecount-baseline-dir={elsewhere}")
    result.assert_outcomes(passed=2)
    written = json.loads((elsewhere / "tests" / "test_x.json").read_text())  # mirrors the test's path
    assert written["tests"]["test_work[5]"]["methods"]["guard.Work#work(I)I"]["total"] == work_total(5)
    assert files_under(elsewhere) == {"tests/test_x.json"}
    assert files_under(pytester.path) - before - {"stdout", "stderr"} == set()


LOOP = bytes([0x1B, 0x1C, 0x60, 0x3C])  # work(): iload_1 iload_2 iadd istore_1 (s += i)
TAMPERED = bytes([0x1B, 0x1C, 0x64, 0x3C])  # the same with isub: same counts, another result


def test_a_tampered_compile_cache_entry_is_never_used(pytester):
    (pytester.path / "src" / "guard").mkdir(parents=True)
    shutil.copy(GUARD_SRC / "guard" / "Work.java", pytester.path / "src" / "guard" / "Work.java")
    pytester.makepyprojecttoml(f'[tool.bytecount]\nsources = ["src"]\njava-home = "{JDK17}"\n')
    pytester.makepyfile(test_x=COUNTED)
    run(pytester, "--bytecount-update").assert_outcomes(passed=2)
    [entry] = (pytester.path / ".bytecount-cache" / "classes").iterdir()
    compiled = entry / "guard" / "Work.class"
    original = compiled.read_bytes()
    assert original.count(LOOP) == 1
    compiled.write_bytes(original.replace(LOOP, TAMPERED))

    result = run(pytester)
    result.assert_outcomes(passed=2)  # the tampered class (wrong sums) was not run
    result.stdout.fnmatch_lines([f"bytecount: not using the compiled classes in {entry}: guard/Work.class changed "
                                 f"since it was compiled; compiling again"])
    assert compiled.read_bytes() == original
    assert [p.name for p in (pytester.path / ".bytecount-cache" / "classes").iterdir()] == [entry.name]


def test_a_cache_entry_is_checked_file_by_file_against_its_manifest(tmp_path):
    from pytest_bytecount.jvm.javac import MANIFEST, _manifest, entry_problem

    entry = tmp_path / "entry"
    shutil.copytree(guard_classes(), entry, ignore=shutil.ignore_patterns(".bytecount-build.json"))
    (entry / MANIFEST).write_text(json.dumps(_manifest(entry, "key-1")))
    assert entry_problem(entry, "key-1") is None
    assert entry_problem(entry, "key-2") == "its manifest is not the one of these sources"
    (entry / "guard" / "Evil.class").write_bytes(b"\xca\xfe\xba\xbe")
    assert entry_problem(entry, "key-1") == "guard/Evil.class was not produced by javac"
    (entry / "guard" / "Evil.class").unlink()
    (entry / "guard" / "Torn.class").unlink()
    assert entry_problem(entry, "key-1") == "guard/Torn.class is missing"
    (entry / MANIFEST).write_text("{")
    assert entry_problem(entry, "key-1") == "it has no readable manifest"
