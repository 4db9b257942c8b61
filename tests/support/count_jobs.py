"""Run counting jobs in a child process (tests/support/count_worker.py): one JVM per call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

WORKER = Path(__file__).resolve().parent / "count_worker.py"


def run_jobs(jobs: list, tmp: Path, java_home: str, variant: str = "server") -> list:
    """The contract's JSON per job (or {"error": ...}), in job order; see count_worker.py for a job's keys."""
    (tmp / "jobs.json").write_text(json.dumps({"java_home": java_home, "variant": variant, "jobs": jobs}))
    run = subprocess.run([sys.executable, str(WORKER), str(tmp / "jobs.json"), str(tmp / "out.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    return json.loads((tmp / "out.json").read_text())["results"]
