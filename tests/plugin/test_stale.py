"""Baseline files whose test module was deleted: stale on a full run, removed by a full --bytecount-update.

A file counts as stale only when its module is gone from disk and the run covered the directory it
belonged to; a module that exists but was ignored, skipped, deselected or failed to import keeps its file.
Every test first shows a file that *is* stale, so that "nothing reported" is never an empty claim.

Four stories share one project and its child pytest sessions (tests/support/shared_run.py), each in a folder
of its own (``deleted/``, ``narrowed/``, ``kept/``, ``junk/``; each a package, so that their modules' names do
not clash): one update records them all; the narrowed runs of ``narrowed/`` come next, while its module is the
only one deleted; then the other three delete and change their own modules, and one plain run and one update
cover them all, with the ignore, deselect and continue-on-collection-errors arguments of ``kept/`` (which name
only its modules; that a continued collection error elsewhere leaves a run whole is tested in
test_narrowed_runs.py); a last plain run follows, ``kept/``'s broken module mended. Each test reads only its
own outcomes and the stale lines that name its folder. The other stories are about a whole session's settings
(``baseline-dir``, xdist, no ``[tool.bytecount]`` table at all) and keep their own.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fnmatch import fnmatch
from types import SimpleNamespace

import pytest

from tests.support.pytest_project import CALC, JDK17, java_project, run
from tests.support.session_reads import headline as session_headline, outcome_of
from tests.support.shared_run import run_session, write_project

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


def gone_line(folder: str) -> str:
    """GONE_LINE of the story whose project is the folder ``folder`` of the shared one."""
    return (f"  {folder}/tests/bytecount/test_gone.json: its test module {folder}/tests/test_gone.py no longer exists "
            "(if it moved, move this file with it)")


def removed(folder: str) -> list:
    """REMOVED of the story in ``folder``."""
    return ["stale baselines (*), removed:",
            f"  {folder}/tests/bytecount/test_gone.json: its test module {folder}/tests/test_gone.py no longer exists"]


def stale_lines(session, folder: str = "") -> list:
    """The stale-file lines of a shared session; with ``folder``, those that name that story's folder."""
    return [line for line in session.stdout.splitlines() if ": its test module " in line
            and line.startswith(f"  {folder}")]


def in_order(session, patterns: list) -> bool:
    """As fnmatch_lines: each pattern matches a line of the output after the line the one before matched."""
    lines = iter(session.stdout.splitlines())
    return all(any(fnmatch(line, pattern) for line in lines) for pattern in patterns)


def outcomes_under(session, folder: str) -> dict:
    """{module name: outcome} of a story folder's modules (one test each), from the junit XML: its test cases,
    and the reports of modules that were skipped or failed as they were collected (named by the module)."""
    out = {}
    for case in ET.parse(session.junit).getroot().iter("testcase"):
        module = case.get("classname") or case.get("name")  # a collection report has no class name
        if module.startswith(folder + "."):
            kinds = {child.tag for child in case}
            out[module.rsplit(".", 1)[-1]] = ("failed" if "failure" in kinds else "error" if "error" in kinds else
                                              "skipped" if "skipped" in kinds else "passed")
    return out


def story_modules(folder: str, names) -> dict:
    """The modules of a story folder (a package, as are its tests folders) as write_project takes them."""
    modules = {f"{folder}/__init__.py": "", f"{folder}/tests/__init__.py": ""}
    for name in names:
        modules[f"{folder}/tests/{name}.py"] = MODULE
        if "/" in name:
            modules[f"{folder}/tests/{name.rsplit('/', 1)[0]}/__init__.py"] = ""
    return modules


LAYOUT_NAMES = ["test_keep", "test_gone", "sub/test_lonely"]
KEPT_NAMES = ["keep", "gone", "ignored", "importskip", "skipmark", "deselected", "broken"]
# kept/'s run arguments, which name only its modules
KEPT_ARGS = ["--ignore=kept/tests/test_ignored.py", "--deselect", "kept/tests/test_deselected.py::test_twice",
             "--continue-on-collection-errors"]
NARROWED_ARGS = (["narrowed/tests/test_keep.py"], ["narrowed/tests/test_keep.py::test_twice"], ["narrowed/tests/sub"],
                 ["-k", "twice"], ["-m", "bytecount"], ["narrowed/tests/test_keep.py", "--bytecount-update"],
                 ["-k", "twice", "--bytecount-update"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The four stories' folders recorded by one update; narrowed/'s runs once its module is deleted; then
    deleted/, kept/ and junk/ changed, run plainly and updated with kept/'s arguments; and, kept/'s broken
    module mended, a last plain run. What a story reads of its files is kept as each step left it."""
    modules = {**story_modules("deleted", LAYOUT_NAMES), **story_modules("narrowed", LAYOUT_NAMES),
               **story_modules("kept", [f"test_{name}" for name in KEPT_NAMES]),
               **story_modules("junk", LAYOUT_NAMES)}
    root = write_project(tmp_path_factory.mktemp("stale"), {"st/Calc.java": CALC}, modules)
    (root / "tox.ini").write_text("[pytest]\nnorecursedirs = attic build\n")  # junk/'s attic
    recorded = run_session(root, "--bytecount-update", name="recorded")
    listed = {folder: sorted(p.name for p in (root / folder / "tests" / "bytecount").iterdir())
              for folder in ("deleted", "narrowed", "kept", "junk")}

    # narrowed/: its module deleted, runs that cover its folder only in part, then its tests folder
    gone = root / "narrowed" / "tests" / "bytecount" / "test_gone.json"
    (root / "narrowed" / "tests" / "test_gone.py").unlink()
    narrowed = [(args, run_session(root, *args, name=f"narrowed{i}"), gone.exists())
                for i, args in enumerate(NARROWED_ARGS)]
    narrowed_tests = run_session(root, "narrowed/tests", name="narrowed_tests")

    # deleted/: two modules deleted
    (root / "deleted" / "tests" / "test_gone.py").unlink()
    (root / "deleted" / "tests" / "sub" / "test_lonely.py").unlink()
    # kept/: one module deleted, the others kept, each in its own way
    kept = root / "kept" / "tests"
    (kept / "test_gone.py").unlink()
    (kept / "test_importskip.py").write_text('import pytest\npytest.importorskip("no_such_module_here")\n' + MODULE)
    (kept / "test_skipmark.py").write_text(MODULE + '\npytestmark = pytest.mark.skip("not today")\n')
    (kept / "test_broken.py").write_text("import no_such_module_here\n" + MODULE)
    # junk/: one module deleted, and JSON files that are no baselines or lie where pytest does not look
    junk = root / "junk" / "tests"
    real = (junk / "bytecount" / "test_gone.json").read_text()
    (junk / "test_gone.py").unlink()
    (junk / "bytecount" / "notes.json").write_text('{"owner": "the performance team"}\n')
    (junk / "bytecount" / "torn.json").write_text('{"format": 1, "tests": {')
    (junk / "env" / "bytecount").mkdir(parents=True)
    (junk / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")  # a virtual environment
    junk_kept = [junk / "bytecount" / "notes.json", junk / "bytecount" / "torn.json",
                 junk / "env" / "bytecount" / "test_old.json"]
    for folder in (".hidden", "attic", "attic/deeper"):  # hidden, and in norecursedirs
        (junk / folder / "bytecount").mkdir(parents=True)
        junk_kept.append(junk / folder / "bytecount" / "test_old.json")
    for path in junk_kept[2:]:
        path.write_text(real)  # real baselines, without their modules, where pytest never collects
    junk_before = {path: path.read_text() for path in junk_kept}

    plain = run_session(root, *KEPT_ARGS, name="plain")
    exists_after_plain = {folder: (root / folder / "tests" / "bytecount" / "test_gone.json").exists()
                          for folder in ("deleted", "kept", "junk")}
    update = run_session(root, "--bytecount-update", *KEPT_ARGS, name="update")
    (kept / "test_broken.py").write_text(MODULE)
    last = run_session(root, name="last")
    return SimpleNamespace(root=root, recorded=recorded, listed=listed, narrowed=narrowed,
                           narrowed_tests=narrowed_tests, plain=plain, exists_after_plain=exists_after_plain,
                           update=update, last=last, junk_kept=junk_kept, junk_before=junk_before)


def recorded_all(runs, folder: str, names) -> None:
    """The story's modules were all recorded (their tests passed) by the shared update."""
    assert [outcome_of(runs.recorded, f"{folder}/tests/{name}.py::test_twice") for name in names] == \
        ["passed"] * len(names)


def test_a_deleted_module_is_stale_on_a_full_run_and_a_full_update_removes_its_file(runs):
    recorded_all(runs, "deleted", LAYOUT_NAMES)
    folder = runs.root / "deleted" / "tests" / "bytecount"
    assert runs.listed["deleted"] == ["test_gone.json", "test_keep.json"]

    result = runs.plain
    assert outcome_of(result, "deleted/tests/test_keep.py::test_twice") == "passed"
    assert result.result("deleted/tests/test_keep.py::test_twice")["status"] == "passed"
    assert in_order(result, [gone_line("deleted"), "  to remove them: pytest --bytecount-update"]), result.stdout
    assert in_order(result, ["  deleted/tests/sub/bytecount/test_lonely.json: its test module "
                             "deleted/tests/sub/test_lonely.py no longer exists*"]), result.stdout
    assert len(stale_lines(result, "deleted/")) == 2  # the files of the two modules deleted, once each
    assert runs.exists_after_plain["deleted"]  # a run without --bytecount-update only reports

    result = runs.update
    assert in_order(result, removed("deleted")), result.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["test_keep.json"]
    assert not (runs.root / "deleted" / "tests" / "sub" / "bytecount").exists()  # emptied: removed with its last file
    assert (runs.root / "deleted" / "tests" / "sub").is_dir()

    result = runs.last
    assert outcome_of(result, "deleted/tests/test_keep.py::test_twice") == "passed"
    assert result.result("deleted/tests/test_keep.py::test_twice")["status"] == "passed"
    assert "stale" not in session_headline(result)
    assert stale_lines(result) == []


def test_a_run_of_one_file_one_directory_or_with_k_or_m_reports_no_other_module(runs):
    recorded_all(runs, "narrowed", LAYOUT_NAMES)
    assert [args for args, _, _ in runs.narrowed] == list(NARROWED_ARGS)
    for args, result, gone_exists in runs.narrowed:
        assert "stale" not in session_headline(result), args
        assert stale_lines(result) == [], args
        assert gone_exists, args

    # the directory that held the module is covered: now it is stale
    result = runs.narrowed_tests
    assert session_headline(result).endswith(", 1 stale")
    assert in_order(result, [gone_line("narrowed"), "  to remove them: pytest narrowed/tests --bytecount-update"]), \
        result.stdout


def test_an_ignored_skipped_deselected_or_broken_module_keeps_its_file(runs):
    recorded_all(runs, "kept", [f"test_{name}" for name in KEPT_NAMES])
    tests = runs.root / "kept" / "tests"

    result = runs.plain
    # test_ignored is not collected, test_deselected is deselected
    assert outcomes_under(result, "kept") == {"test_keep": "passed", "test_importskip": "skipped",
                                              "test_skipmark": "skipped", "test_broken": "error"}, result.stdout
    assert ", 1 deselected, " in result.stdout.splitlines()[-1]  # kept/'s --deselect is the session's only one
    assert result.result("kept/tests/test_keep.py::test_twice")["status"] == "passed"
    assert stale_lines(result, "kept/") == [gone_line("kept")]
    assert runs.exists_after_plain["kept"]

    result = runs.update
    assert in_order(result, removed("kept")), result.stdout
    assert sorted(p.name for p in (tests / "bytecount").iterdir()) == sorted(
        f"test_{name}.json" for name in KEPT_NAMES if name != "gone")


def test_a_json_file_that_is_not_a_baseline_or_lies_where_pytest_does_not_look_is_left_alone(runs):
    recorded_all(runs, "junk", LAYOUT_NAMES)
    tests = runs.root / "junk" / "tests"

    result = runs.plain
    assert [outcome_of(result, f"junk/tests/{name}.py::test_twice") for name in ("test_keep", "sub/test_lonely")] == \
        ["passed", "passed"]
    assert [result.result(f"junk/tests/{name}.py::test_twice")["status"] for name in ("test_keep", "sub/test_lonely")
            ] == ["passed", "passed"]
    assert stale_lines(result, "junk/") == [gone_line("junk")]
    assert runs.exists_after_plain["junk"]

    result = runs.update
    assert in_order(result, removed("junk")), result.stdout
    assert not (tests / "bytecount" / "test_gone.json").exists()
    assert {path: path.read_text() for path in runs.junk_kept} == runs.junk_before
    assert "notes.json" not in result.stdout and "torn.json" not in result.stdout


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
