"""``[tool.bytecount]`` and the command line read into settings (plugin/config.py's ``load_settings``) without a
pytest run: a value of the wrong kind, and a baseline folder that would lie outside the project, are refused with
the setting's name. That such an error is one usage error before any test runs, and writes nothing, is tried end
to end in tests/plugin/test_plugin.py and tests/plugin/test_security.py."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pytest_bytecount.plugin.arguments import deep_choice
from pytest_bytecount.plugin.config import ConfigError, load_settings
from pytest_bytecount.plugin.markers import BytecountMarker
from tests.support.settings import option


def project(root: Path, settings: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f"[tool.bytecount]\nclasspath = ['.']\n{settings}\n")
    return root


def refused(root: Path, **given) -> str:
    with pytest.raises(ConfigError) as e:
        load_settings(root, option(**given))
    return str(e.value)


@pytest.mark.parametrize("setting, problem", [
    ('in-place = "yes"', "[tool.bytecount] in-place must be true or false"),
    ('deep = "yes"', "[tool.bytecount] deep must be true or false"),
    ("source-path = 3", "[tool.bytecount] source-path must be a string or a list of strings"),
    ("tolerance = 5", "[tool.bytecount] tolerance must be a string such as 'total=5%|100'"),
    ("budget = [5]", "[tool.bytecount] budget must be a string such as 'deep<=50_000_000'"),
    ('jvm = "hotspot"', "jvm must be 'server', 'client' or 'zero', not 'hotspot'"),
    ("html = 5", "[tool.bytecount] html must be a folder's path (a string), got 5"),
    ('html = ""', "[tool.bytecount] html must be a folder's path (a string), got ''"),
    ('source-path = ["no-such-folder"]', "no-such-folder does not exist (source-path lists folders of Java sources "
                                         "and -sources.jar files)"),
])
def test_a_value_of_the_wrong_kind_names_the_setting(tmp_path, setting, problem):
    root = project(tmp_path, setting)
    assert problem in refused(root)


def test_a_baseline_dir_outside_the_project_is_refused_however_it_is_written(tmp_path, monkeypatch):
    root = project(tmp_path / "project", "")
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(root)  # the command line's paths are relative to where pytest runs
    assert refused(root, bytecount_baseline_dir="../outside") == (
        f"--bytecount-baseline-dir '../outside' resolves to {outside}, outside the project {root}; baselines are "
        f"only written inside it unless you give an absolute path")
    (root / "baselines").symlink_to(outside, target_is_directory=True)
    project(root, 'baseline-dir = "baselines"')
    assert refused(root) == (
        f"{root}/pyproject.toml: [tool.bytecount] baseline-dir 'baselines' resolves to {outside}, outside the "
        f"project {root}; baselines are only written inside it unless you give an absolute path")
    project(root, 'baseline-dir = "../outside"')
    assert "resolves to" in refused(root)
    project(root, f'baseline-dir = "{outside}"')  # absolute: used as given
    assert load_settings(root, option()).baseline_dir == outside
    project(root, 'baseline-dir = "perf/baselines"')
    assert load_settings(root, option()).baseline_dir == root / "perf" / "baselines"


def test_the_command_line_sets_what_a_setting_sets_and_wins(tmp_path, monkeypatch):
    root = project(tmp_path, 'javac-options = ["-g"]\ncompile-classpath = ["lib/a.jar"]')
    monkeypatch.chdir(root)  # the command line's paths are relative to where pytest runs
    table = load_settings(root, option())
    assert (table.deep, table.in_place, table.javac_options, table.compile_classpath) == (None, False, ["-g"],
                                                                                         ["lib/a.jar"])
    assert load_settings(project(tmp_path, "deep = true"), option(bytecount_deep=False)).deep is False  # =no wins
    given = load_settings(root, option(bytecount_deep=True, bytecount_in_place=True,
                                       bytecount_javac_options=["--release", "17"],
                                       bytecount_compile_classpath="x.jar:pkg:mpxj/lib/*"))
    assert (given.deep, given.in_place, given.javac_options, given.compile_classpath) == (
        True, True, ["--release", "17"], [str(root / "x.jar"), "pkg:mpxj/lib/*"])


def test_every_marked_test_takes_deep_counts_unless_its_marker_or_the_project_says_otherwise():
    """A plain marker takes them, and a JVM that cannot gives flat counts; asked for (deep=True, or deep = true with
    the marker silent), they are required."""
    plain, flat, asked = (BytecountMarker(("a.B#f",)), BytecountMarker(("a.B#f",), deep=False),
                          BytecountMarker(("a.B#f",), deep=True))
    assert [m.takes_deep(None) for m in (plain, flat, asked)] == [True, False, True]
    assert [m.takes_deep(False) for m in (plain, flat, asked)] == [False, False, True]
    assert [m.asks_deep(None) for m in (plain, flat, asked)] == [False, False, True]
    assert [m.asks_deep(True) for m in (plain, flat, asked)] == [True, False, True]
    assert plain.counting_options(False, plain.takes_deep(None)).deep is True


def test_the_deep_option_takes_yes_or_no_after_an_equals_sign_and_names_a_path_given_after_a_space():
    assert (deep_choice("no"), deep_choice("YES"), deep_choice("false")) == (False, True, False)
    with pytest.raises(argparse.ArgumentTypeError, match=r"expected yes or no, got 'tests/test_x.py'; give it with '='"):
        deep_choice("tests/test_x.py")


def test_a_budget_setting_is_a_spec_or_a_number_and_the_command_line_wins(tmp_path):
    assert load_settings(project(tmp_path, 'budget = "deep<=50_000_000"'), option()).budget == "deep<=50_000_000"
    assert load_settings(project(tmp_path, "budget = 5_000"), option()).budget == "5000"  # the figure that decides
    assert load_settings(project(tmp_path, "budget = 5"), option(bytecount_budget="total<=9")).budget == "total<=9"
