"""The plugin's complexity checks on the complexity catalogue (tests/catalogue/complexity): which worse orders it
names, and which harmless changes and fixes pass.

    python benchmarks/complexity_catalogue.py [--plugin-root DIR] [--java-home DIR] [--only NAME...]
                                              [--variants written flat deep] [--keep]

Per variant, builds one temporary project holding every case, records the baselines on the BEFORE sources
(``pytest --bytecount-update``), switches every case to its AFTER sources and judges them in one run
(``pytest --bytecount-json``). Variants: ``written``, the markers as the test modules write them (no deep
option); ``flat``, every marker given ``deep=False``; ``deep``, every marker given ``deep=True``. By default
``written`` and ``flat``.

Per case it prints the kind, the orders expected before -> after (reasoned from the code), the order the
baseline recorded, the order named now, the test's bytecount status and pytest outcome, and whether the
check was right: the recorded order is the expected before-order, a regression fails with ``COMPLEXITY GOT
WORSE`` naming the expected after-order, a harmless change or a fix reports no worse order, and (a note only,
not in the tally) the order named now is the expected after-order.
``--plugin-root DIR`` puts DIR first on the runs' PYTHONPATH, to judge another checkout's plugin.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for tests.catalogue; the plugin judged is chosen for the pytest runs

from tests.catalogue.complexity import (BY_NAME, CASES, outcomes, recorded_orders, scaling_of,  # noqa: E402
                                        use_sources, verdicts, worse_order, write_project)

VARIANTS = {"written": None, "flat": False, "deep": True}  # the markers' deep option in each variant


def pytest_run(project: Path, env: dict, name: str, *options: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={name}.xml",
               f"--bytecount-json={name}.json", *options]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)


def environment(plugin_root, cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") or k == "PYTEST_PLUGINS"}
    env["BYTECOUNT_CACHE_DIR"] = str(cache)  # the deep set-up, shared by every variant of this run
    if plugin_root:
        root = str(Path(plugin_root).resolve())
        if not (Path(root) / "pytest_bytecount" / "__init__.py").exists():
            sys.exit(f"--plugin-root {plugin_root}: no pytest_bytecount package in it")
        env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    return env


def tail(run: subprocess.CompletedProcess, lines: int = 30) -> str:
    return "\n".join((run.stdout + run.stderr).splitlines()[-lines:])


def judge(project: Path, cases, env: dict, java_home, deep) -> dict:
    """Record on BEFORE, judge on AFTER: per case, what the two runs said."""
    write_project(project, cases, java_home=java_home, deep=deep)
    start = time.monotonic()
    record = pytest_run(project, env, "record", "--bytecount-update")
    recorded = outcomes(project / "record.xml") if (project / "record.xml").exists() else {}
    print(f"  record: {time.monotonic() - start:.1f} s, pytest exit {record.returncode}", flush=True)
    if any(recorded.get(case.name) != "passed" for case in cases):
        print(tail(record), file=sys.stderr)
    orders = recorded_orders(project, cases)
    use_sources(project, "after", cases)
    start = time.monotonic()
    judged = pytest_run(project, env, "judge")
    print(f"  judge: {time.monotonic() - start:.1f} s, pytest exit {judged.returncode}", flush=True)
    if not (project / "judge.json").exists():
        print(tail(judged), file=sys.stderr)
        return {}
    results, ran = verdicts(project / "judge.json"), outcomes(project / "judge.xml")
    return {case.name: assess(case, orders.get(case.name), results.get(case.name, {}), ran.get(case.name, "-"))
            for case in cases}


def assess(case, recorded, result: dict, outcome: str) -> dict:
    """One case's row: what the plugin said, and whether it was right."""
    now = scaling_of(case, result).get("order", "-")
    named = worse_order(result)
    wrong = []
    if recorded != case.before:
        wrong.append(f"recorded {recorded}")
    if case.kind == "regression":
        if outcome != "failed" or named is None:
            wrong.append("no worse order")
        elif named != case.after:
            wrong.append(f"named {named}")
    elif named is not None:
        wrong.append(f"worse order {named}")
    if now != case.after and not wrong:
        wrong.append(f"named now {now}")  # not a wrong verdict: the tally leaves it out
    return {"recorded": recorded or "-", "now": now, "status": result.get("status", "-"), "pytest": outcome,
            "right": "right" if not wrong else "WRONG: " + ", ".join(wrong)}


def print_table(cases, rows: dict) -> None:
    header = ("case", "kind", "expected", "recorded", "now", "verdict", "pytest", "right/wrong")
    table = [header] + [(c.name, c.kind, f"{c.before} -> {c.after}", *(rows.get(c.name, {}).get(k, "-") for k in (
        "recorded", "now", "status", "pytest", "right"))) for c in cases]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    print(summary(cases, rows))


def summary(cases, rows: dict) -> str:
    def tally(kind, good):
        names = [c.name for c in cases if c.kind == kind]
        right = [n for n in names if good(rows.get(n, {}))]
        missed = [n for n in names if n not in right]
        return f"{len(right)} of {len(names)}" + (f" (not: {', '.join(missed)})" if missed else "")

    named = tally("regression", lambda r: r.get("named_ok", False))
    return (f"regressions named: {named}; harmless passed: {tally('harmless', lambda r: r.get('passed_ok', False))}; "
            f"fixes passed: {tally('fix', lambda r: r.get('passed_ok', False))}; "
            f"before-orders recorded: {sum(rows.get(c.name, {}).get('recorded') == c.before for c in cases)} "
            f"of {len(cases)}")


def mark(rows: dict) -> dict:
    """Adds each row's part of the tally: a regression named with its order, a harmless change or fix with no
    worse order."""
    for name, row in rows.items():
        case = BY_NAME[name]
        problems = row["right"].removeprefix("WRONG: ").split(", ") if row["right"] != "right" else []
        verdict_problems = [p for p in problems if not p.startswith(("recorded ", "named now "))]
        row["named_ok"] = case.kind == "regression" and not verdict_problems
        row["passed_ok"] = case.kind != "regression" and not verdict_problems
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plugin-root", help="a checkout whose pytest_bytecount to judge (default: the installed one)")
    p.add_argument("--java-home", help="the JDK that compiles and runs the cases (default: the plugin's choice)")
    p.add_argument("--only", nargs="+", metavar="NAME", choices=sorted(BY_NAME), help="only these cases")
    p.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=["written", "flat"])
    p.add_argument("--keep", action="store_true", help="keep the temporary projects (their path is printed)")
    args = p.parse_args(argv)
    cases = [c for c in CASES if not args.only or c.name in args.only]
    work = Path(tempfile.mkdtemp(prefix="bytecount-complexity-"))
    env = environment(args.plugin_root, work / "deep-cache")
    try:
        for variant in args.variants:
            print(f"{variant}: {len(cases)} cases in {work / variant}", flush=True)
            (work / variant).mkdir()
            rows = mark(judge(work / variant, cases, env, args.java_home, VARIANTS[variant]))
            print()
            print_table(cases, rows)
            print()
    finally:
        if args.keep:
            print(f"projects kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
