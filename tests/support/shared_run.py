"""One child pytest session that several end-to-end tests share, each reading only its own part of it.

A story that needs one run (or one fixed sequence of runs) with no edits in between does not need a pytest
process of its own: the stories of a module become test modules of one project (distinct Java packages,
distinct baseline files), run together once by a module-scoped fixture, and each test then asserts on its own
outcome (junit XML), its own result (``--bytecount-json``) and its own report section, never on the
session's summary line, which the other stories share.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from tests.support.child_runs import NO_RANDOMLY

from .pytest_project import JDK17, PINNED_FLAT


def write_project(folder: Path, sources: dict, tests: dict, pyproject: str = "") -> Path:
    """``sources`` ({"pkg/Cls.java": text}) under src/, compiled by the plugin with JDK 17, and the test modules
    ``tests`` ({"test_name.py": text}, dedented) at the top; ``pyproject`` is added to the ``[tool.bytecount]``
    table."""
    for rel, text in sources.items():
        path = folder / "src" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for rel, text in tests.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    extra = textwrap.dedent(pyproject)
    pinned = "" if re.search(r"^deep\s*=", extra, re.M) else f"{PINNED_FLAT}\n"
    (folder / "pyproject.toml").write_text(
        f'[tool.bytecount]\nsources = ["src"]\njava-home = "{JDK17}"\n{pinned}{extra}')
    return folder


_WORSE = ["failed", "error", "skipped", "passed"]


@dataclass
class Session:
    """A finished child session: its exit status, output, and each test's outcome, result and section."""

    folder: Path
    ret: int
    stdout: str
    stderr: str
    junit: Path
    results_file: Path

    def outcomes(self) -> dict:
        """Each test's name (``test_x``, ``test_x[1]``; names are unique in a shared project) -> "passed",
        "failed", "error" or "skipped", from the junit XML (an error in a teardown after a failure counts as
        the failure)."""
        out = {}
        for case in ET.parse(self.junit).getroot().iter("testcase"):
            kinds = {child.tag for child in case}
            outcome = ("failed" if "failure" in kinds else "error" if "error" in kinds else
                       "skipped" if "skipped" in kinds else "passed")
            name = case.get("name")
            if name in out and _WORSE.index(out[name]) < _WORSE.index(outcome):
                continue  # pytest can write a teardown's error as a second entry of the same test
            out[name] = outcome
        return out

    def outcome(self, name: str) -> str:
        outcomes = self.outcomes()
        assert name in outcomes, f"{name} did not run: {sorted(outcomes)}\n{self.stdout}"
        return outcomes[name]

    def result(self, nodeid: str) -> dict:
        """The test's entry of ``--bytecount-json`` (by pytest's node id, ``test_mod.py::test_x``)."""
        results = json.loads(self.results_file.read_text())
        assert nodeid in results, f"no result for {nodeid}: {sorted(results)}\n{self.stdout}"
        return results[nodeid]

    def section(self, name: str) -> str:
        """The report sections pytest headed with the test's name (``____ name ____``: its failure, its error,
        its captured output under ``-rP``), joined; "" when it has none."""
        parts = []
        header = re.compile(r"^_{3,} (?:ERROR (?:at \w+ of )?)?(.+?) _{3,}$")
        current = None
        for line in self.stdout.splitlines():
            match = header.match(line)
            if match or re.match(r"^={3,} ", line):
                current = [] if match and match.group(1) == name else None
                if current is not None:
                    parts.append(current)
                continue
            if current is not None:
                current.append(line)
        return "\n".join("\n".join(part) for part in parts)


def run_session(folder: Path, *args: str, name: str = "run") -> Session:
    """pytest in ``folder``, in a subprocess as a user runs it (faulthandler on, no cache), writing its junit XML
    and its results file under names taken from ``name``."""
    junit = folder / f"{name}.xml"
    results = folder / f"{name}.json"
    environ = {key: value for key, value in os.environ.items()
               if not key.startswith("PYTEST_XDIST_") and key not in ("PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST")}
    environ["PYTEST_ADDOPTS"] = NO_RANDOMLY
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={junit}",
                           f"--bytecount-json={results}", *args], cwd=folder, env=environ,
                          capture_output=True, text=True, timeout=900)
    return Session(folder, done.returncode, done.stdout, done.stderr, junit, results)
