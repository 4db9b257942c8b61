"""Baseline files whose test module was deleted: stale on a full run, removed by a full --bytecount-update.

A file counts as stale only when its module is gone from disk and the run covered the directory it
belonged to; a module that exists but was ignored, skipped, deselected or failed to import keeps its file.
Every test first shows a file that *is* stale, so that "nothing reported" is never an empty claim.
"""

from __future__ import annotations


from tests.support.pytest_project import CALC, JDK17, java_project, run

MODULE = '''
import pytest

@pytest.mark.bytecount("st.Calc#twice")
def test_twice(bytecount):
    assert bytecount.jclass("st.Calc").twice(3) == 6
'''

LAYOUT = {"tests/test_keep": MODULE, "tests/test_gone": MODULE, "tests/sub/test_lonely": MODULE}
GONE = "  tests/bytecount/test_gone.json: its test module tests/test_gone.py no longer exists"
GONE_LINE = GONE + " (if it moved, move this file with it)"
REMOVED = ["stale baselines (*), removed:", GONE]


def recorded(pytester, modules: dict = LAYOUT, *args: str, settings: str = ""):
    """The project with ``modules`` ({path without .py: text}), baselines recorded by a full update."""
    java_project(pytester, {"st/Calc.java": CALC}, modules)
    if settings:
        pytester.makepyprojecttoml(f"""
            [tool.bytecount]
            sources = ["src"]
            java-home = "{JDK17}"
            {settings}
        """)
    run(pytester, "--bytecount-update", *args).assert_outcomes(passed=len(modules))
    return pytester


def stale_file_lines(result) -> list:
    return [line for line in result.outlines if ": its test module " in line]


def headline(result) -> str:
    """The first line of the bytecount summary: the tests by status, then the stale baselines."""
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if "= bytecount =" in line) + 1
    return next(line for line in lines[start:] if line.strip())


def test_a_deleted_module_is_stale_on_a_full_run_and_a_full_update_removes_its_file(pytester):
    project = recorded(pytester)
    folder = project.path / "tests" / "bytecount"
    assert sorted(p.name for p in folder.iterdir()) == ["test_gone.json", "test_keep.json"]
    (project.path / "tests" / "test_gone.py").unlink()
    (project.path / "tests" / "sub" / "test_lonely.py").unlink()

    result = run(project)
    result.assert_outcomes(passed=1)
    assert headline(result) == "1 passed, 2 stale"
    result.stdout.fnmatch_lines([GONE_LINE, "  to remove them: pytest --bytecount-update"])
    result.stdout.fnmatch_lines(["  tests/sub/bytecount/test_lonely.json: its test module tests/sub/test_lonely.py "
                                 "no longer exists*"])
    assert (folder / "test_gone.json").exists()  # a run without --bytecount-update only reports

    result = run(project, "--bytecount-update")
    result.stdout.fnmatch_lines(REMOVED)
    assert sorted(p.name for p in folder.iterdir()) == ["test_keep.json"]
    assert not (project.path / "tests" / "sub" / "bytecount").exists()  # emptied: removed with its last file
    assert (project.path / "tests" / "sub").is_dir()

    result = run(project)
    assert headline(result) == "1 passed"
    assert stale_file_lines(result) == []


def test_a_run_of_one_file_one_directory_or_with_k_or_m_reports_no_other_module(pytester):
    project = recorded(pytester)
    gone = project.path / "tests" / "bytecount" / "test_gone.json"
    (project.path / "tests" / "test_gone.py").unlink()

    for args in (["tests/test_keep.py"], ["tests/test_keep.py::test_twice"], ["tests/sub"], ["-k", "twice"],
                 ["-m", "bytecount"], ["tests/test_keep.py", "--bytecount-update"],
                 ["-k", "twice", "--bytecount-update"]):
        result = run(project, *args)
        assert "stale" not in headline(result), args
        assert stale_file_lines(result) == [], args
        assert gone.exists(), args

    # the directory that held the module is covered: now it is stale
    result = run(project, "tests")
    assert headline(result).endswith(", 1 stale")
    result.stdout.fnmatch_lines([GONE_LINE, "  to remove them: pytest tests --bytecount-update"])


def test_an_ignored_skipped_deselected_or_broken_module_keeps_its_file(pytester):
    names = ["keep", "gone", "ignored", "importskip", "skipmark", "deselected", "broken"]
    project = recorded(pytester, {f"tests/test_{name}": MODULE for name in names})
    tests = project.path / "tests"
    (tests / "test_gone.py").unlink()
    (tests / "test_importskip.py").write_text('import pytest\npytest.importorskip("no_such_module_here")\n' + MODULE)
    (tests / "test_skipmark.py").write_text(MODULE + '\npytestmark = pytest.mark.skip("not today")\n')
    (tests / "test_broken.py").write_text("import no_such_module_here\n" + MODULE)
    args = ["--ignore=tests/test_ignored.py", "--deselect", "tests/test_deselected.py::test_twice",
            "--continue-on-collection-errors"]

    result = run(project, *args)
    result.assert_outcomes(passed=1, skipped=2, deselected=1, errors=1)
    assert headline(result).endswith(", 1 stale")
    assert len(stale_file_lines(result)) == 1
    result.stdout.fnmatch_lines([GONE_LINE])

    result = run(project, "--bytecount-update", *args)
    result.stdout.fnmatch_lines(REMOVED)
    assert sorted(p.name for p in (tests / "bytecount").iterdir()) == sorted(
        f"test_{name}.json" for name in names if name != "gone")


def test_a_json_file_that_is_not_a_baseline_or_lies_where_pytest_does_not_look_is_left_alone(pytester):
    pytester.makeini("""
        [pytest]
        norecursedirs = attic build
    """)
    project = recorded(pytester)
    tests = project.path / "tests"
    real = (tests / "bytecount" / "test_gone.json").read_text()
    (tests / "test_gone.py").unlink()
    (tests / "bytecount" / "notes.json").write_text('{"owner": "the performance team"}\n')
    (tests / "bytecount" / "torn.json").write_text('{"format": 1, "tests": {')
    (tests / "env" / "bytecount").mkdir(parents=True)
    (tests / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")  # a virtual environment
    kept = [tests / "bytecount" / "notes.json", tests / "bytecount" / "torn.json",
            tests / "env" / "bytecount" / "test_old.json"]
    for folder in (".hidden", "attic", "attic/deeper"):  # hidden, and in norecursedirs
        (tests / folder / "bytecount").mkdir(parents=True)
        kept.append(tests / folder / "bytecount" / "test_old.json")
    for path in kept[2:]:
        path.write_text(real)  # real baselines, without their modules, where pytest never collects
    before = {path: path.read_text() for path in kept}

    result = run(project)
    assert headline(result) == "2 passed, 1 stale"
    result.stdout.fnmatch_lines([GONE_LINE])
    assert len(stale_file_lines(result)) == 1
    result = run(project, "--bytecount-update")
    result.stdout.fnmatch_lines(REMOVED)
    assert not (tests / "bytecount" / "test_gone.json").exists()
    assert {path: path.read_text() for path in kept} == before
    assert "notes.json" not in result.stdout.str() and "torn.json" not in result.stdout.str()


def test_with_a_baseline_dir_the_run_directories_map_into_it(pytester):
    project = recorded(pytester, settings='baseline-dir = "baselines"')
    baselines = project.path / "baselines" / "tests"
    assert (baselines / "test_gone.json").exists() and (baselines / "sub" / "test_lonely.json").exists()
    (project.path / "tests" / "test_gone.py").unlink()
    line = "  baselines/tests/test_gone.json: its test module tests/test_gone.py no longer exists"

    result = run(project, "tests/sub")  # maps to baselines/tests/sub only
    assert headline(result) == "1 passed"
    assert stale_file_lines(result) == []

    run(project).stdout.fnmatch_lines(["2 passed, 1 stale", line + " (if it moved, move this file with it)"])
    run(project, "--bytecount-update").stdout.fnmatch_lines(["stale baselines (1), removed:", line])
    assert not (baselines / "test_gone.json").exists()
    assert (baselines / "test_keep.json").exists() and (baselines / "sub" / "test_lonely.json").exists()
    assert not (project.path / "tests" / "bytecount").exists()


def test_under_xdist_the_controller_finds_and_removes_the_file(pytester):
    project = recorded(pytester, LAYOUT, "-n", "2")
    gone = project.path / "tests" / "bytecount" / "test_gone.json"
    (project.path / "tests" / "test_gone.py").unlink()

    run(project, "-n", "2").stdout.fnmatch_lines(["2 passed, 1 stale", GONE_LINE])
    assert gone.exists()
    run(project, "-n", "2", "--bytecount-update").stdout.fnmatch_lines(REMOVED)
    assert not gone.exists()
    assert (project.path / "tests" / "bytecount" / "test_keep.json").exists()


def test_a_project_that_does_not_use_the_plugin_is_never_searched(pytester):
    """No [tool.bytecount] table, no --bytecount-* option, no marked test: the run pays no walk and reports
    nothing, even beside a real baseline file whose module is gone."""
    project = recorded(pytester)
    gone = project.path / "tests" / "bytecount" / "test_gone.json"
    (project.path / "tests" / "test_gone.py").unlink()
    (project.path / "pyproject.toml").unlink()
    for name in ("test_keep", "sub/test_lonely"):
        (project.path / "tests" / f"{name}.py").write_text("def test_plain():\n    pass\n")
    result = run(project)
    result.assert_outcomes(passed=2)
    assert "stale" not in result.stdout.str() and gone.exists()
