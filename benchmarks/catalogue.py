"""The plugin's verdicts on the catalogue of realistic Java changes (tests/catalogue): which regressions fail,
which harmless changes and which fixes pass.

    python benchmarks/catalogue.py [--plugin-root DIR] [--java-home DIR] [--only NAME...] [--keep] [--deep]

Builds one temporary project holding every case (tests/catalogue's ``write_project``), records the
baselines on the BEFORE sources (``pytest --bytecount-update``), switches every case to its AFTER
sources, judges them in one run (``pytest --bytecount-json=results.json``), and prints per case its kind,
the test's bytecount status, pytest's outcome and the first line of the verdict's text, then a tally.

``--plugin-root DIR`` puts DIR first on the pytest runs' PYTHONPATH, so that the ``pytest_bytecount``
there is the one judged (e.g. a ``git worktree`` of an older commit); by default, the installed plugin.
``--deep`` adds ``deep=True`` to every case's marker (deep counts: the work inside the JDK is counted and
compared too, exactly, as the cases' markers set no tolerance for it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.catalogue; the plugin judged is chosen for the pytest runs

from tests.catalogue import first_line, outcomes, select, use_sources, verdicts, write_project  # noqa: E402


def pytest_run(project: Path, env: dict, *options: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)


def step(text: str) -> float:
    print(text, flush=True)
    return time.monotonic()


def environment(plugin_root) -> dict:
    env = dict(os.environ)
    if plugin_root:
        root = str(Path(plugin_root).resolve())
        if not (Path(root) / "pytest_bytecount" / "__init__.py").exists():
            sys.exit(f"--plugin-root {plugin_root}: no pytest_bytecount package in it")
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    return env


def tail(run: subprocess.CompletedProcess, lines: int = 30) -> str:
    return "\n".join((run.stdout + run.stderr).splitlines()[-lines:])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plugin-root", help="a checkout whose pytest_bytecount to judge (default: the installed one)")
    p.add_argument("--java-home", help="the JDK that compiles and runs the cases (default: the plugin's choice)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="only these cases")
    p.add_argument("--keep", action="store_true", help="keep the temporary project (its path is printed)")
    p.add_argument("--deep", action="store_true", help="judge with deep counts (deep=True on every marker)")
    args = p.parse_args(argv)
    cases = select(args.only)
    env = environment(args.plugin_root)
    project = Path(tempfile.mkdtemp(prefix="bytecount-catalogue-"))
    try:
        return judge_catalogue(project, cases, env, args.java_home, args.deep)
    finally:
        if args.keep:
            print(f"project kept in {project}")
        else:
            shutil.rmtree(project, ignore_errors=True)


def judge_catalogue(project: Path, cases, env: dict, java_home, deep: bool = False) -> int:
    write_project(project, cases, java_home=java_home)
    if deep:
        for module in (project / "tests").glob("test_*.py"):
            text = module.read_text()
            module.write_text(re.sub(r"@pytest\.mark\.bytecount\((.*)\)\n", r"@pytest.mark.bytecount(\1, deep=True)\n", text))
    plugin = subprocess.run([sys.executable, "-c", "import pytest_bytecount; print(pytest_bytecount.__file__)"],
                            cwd=project, env=env, capture_output=True, text=True).stdout.strip()
    print(f"catalogue: {len(cases)} cases in {project}; plugin: {plugin or '(not importable)'}", flush=True)

    start = step("record: BEFORE sources, pytest --bytecount-update ...")
    record = pytest_run(project, env, "--bytecount-update", "--junitxml=record.xml")
    recorded = outcomes(project / "record.xml") if (project / "record.xml").exists() else {}
    print(f"record: {time.monotonic() - start:.1f} s, pytest exit {record.returncode}", flush=True)
    unrecorded = [case.name for case in cases if recorded.get(case.name) != "passed"]
    if unrecorded:
        print(f"record: not passed: {', '.join(unrecorded)}\n{tail(record)}", file=sys.stderr)
        return 2

    use_sources(project, "after", cases)
    start = step("judge: AFTER sources, pytest --bytecount-json=results.json ...")
    judge = pytest_run(project, env, "--bytecount-json=results.json", "--junitxml=judge.xml")
    print(f"judge: {time.monotonic() - start:.1f} s, pytest exit {judge.returncode}", flush=True)
    if not (project / "judge.xml").exists():
        print(f"judge: pytest wrote no report\n{tail(judge)}", file=sys.stderr)
        return 2
    judged = outcomes(project / "judge.xml")
    results = verdicts(project / "results.json") if (project / "results.json").exists() else {}

    print_table(cases, results, judged)
    return 0


def print_table(cases, results: dict, judged: dict) -> None:
    """Per case: kind, bytecount status, pytest's outcome, the verdict's first line; then the tally."""
    rows = [(case.name, case.kind, results.get(case.name, {}).get("status", "-"), judged.get(case.name, "-"),
             first_line(results.get(case.name, {}).get("message", ""))) for case in cases]
    header = ("case", "kind", "status", "pytest", "first line of the verdict")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
    print()
    for row in [header, *rows]:
        print(("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4]).rstrip())

    regressions = [case.name for case in cases if case.kind == "regression"]
    harmless = [case.name for case in cases if case.kind == "harmless"]
    fixes = [case.name for case in cases if case.kind == "fix"]
    fixed = [name for name in fixes if judged.get(name) == "passed"]
    caught = [name for name in regressions if judged.get(name) == "failed"]
    quiet = [name for name in harmless if judged.get(name) == "passed"]
    print()
    print(f"regressions that failed:     {len(caught)} of {len(regressions)}"
          + (f" (missed: {', '.join(n for n in regressions if n not in caught)})" if len(caught) < len(regressions) else ""))
    print(f"harmless changes that passed: {len(quiet)} of {len(harmless)}"
          + (f" (failed: {', '.join(n for n in harmless if n not in quiet)})" if len(quiet) < len(harmless) else ""))
    if fixes:
        print(f"fixes that passed:            {len(fixed)} of {len(fixes)}"
              + (f" (failed: {', '.join(n for n in fixes if n not in fixed)})" if len(fixed) < len(fixes) else ""))


if __name__ == "__main__":
    sys.exit(main())
