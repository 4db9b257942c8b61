"""Child process for the exactness tests: one JVM (JPype), many counted runs, each in its own loader.

    python count_worker.py JOBS.json RESULTS.json

JOBS.json: {"java_home": ..., "variant": "server"|"zero", "jobs": [{"classpath": [...], "targets": [...],
"main": "pkg.Main", "args": [...], "strategy": "block", "abrupt": false, "allocations": false,
"inclusive": false, "in_place": false}, ...]}. Each target class (with ``inclusive``: every class) is
counted when the job's own loader first asks for it, as the pytest plugin and ``count`` do (assembled by
pytest_bytecount.jvm.counting.counting_loaders, as theirs are). ``in_place``: count the target classes in place
(pytest_bytecount.jvm.in_place), in an application's own URLClassLoader that the main runs in, with the
JVM's agent. RESULTS.json gets {"jvm": description, "results": [counts...]}
where each entry is the contract's JSON for that job (or {"error": ...}). Runs through the same public
layers as ``python -m pytest_bytecount count``.
"""

import json
import sys
from pathlib import Path

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter
from pytest_bytecount.jvm.counting import counting_loaders
from pytest_bytecount.jvm.session import JvmSession, choose_jvm


def main(jobs_file: str, results_file: str) -> int:
    spec = json.loads(Path(jobs_file).read_text())
    choice = choose_jvm(spec.get("java_home"), spec.get("variant", "server"))
    session = JvmSession(choice, spec.get("options", []), agent=any(j.get("in_place") for j in spec["jobs"]))
    results = []
    for job in spec["jobs"]:
        classpath = Classpath.parse(job["classpath"])
        if job.get("in_place"):
            results.append(_in_place(session, classpath, job))
            continue
        results.append(_load_time(session, classpath, job))
    Path(results_file).write_text(json.dumps({"jvm": choice.describe(), "vm_name": session.vm_name(), "results": results}))
    return 0


def _load_time(session: JvmSession, classpath: Classpath, job: dict) -> dict:
    counter = ClassCounter(classpath, CountingOptions(tuple(job["targets"]), job.get("strategy", "block"),
                                                      job.get("abrupt", False), job.get("allocations", False),
                                                      inclusive=job.get("inclusive", False)))
    handle = counting_loaders(session, counter, classpath.entries).new()
    try:
        session.run_main(session.main_method(handle.loader, job["main"]), job.get("args", []))
    except Exception as e:  # noqa: BLE001 - reported per job
        return {"error": f"{job['main']}: {e}"}
    return _as_the_oracle_has_them(handle.counts(), job)


def _in_place(session: JvmSession, classpath: Classpath, job: dict) -> dict:
    counter = ClassCounter(classpath, CountingOptions(tuple(job["targets"]), job.get("strategy", "block"),
                                                      job.get("abrupt", False), job.get("allocations", False),
                                                      in_place=True))
    handle = counting_loaders(session, counter, classpath.entries, in_place=True).new()
    application = session.loader_without_instrumentation(classpath.entries)  # the application's own loader
    try:
        session.run_main(session.main_method(application, job["main"]), job.get("args", []))
    except Exception as e:  # noqa: BLE001 - reported per job
        return {"error": f"{job['main']}: {e}"}
    finally:
        handle.close()
    return _as_the_oracle_has_them(handle.counts(), job)


def _as_the_oracle_has_them(counts: dict, job: dict) -> dict:
    """The counts without code_fingerprint and line digests (the oracle has neither), and with per-line
    counts only when the job asks for them."""
    dropped = {"code_fingerprint", "line_digests"} | (set() if job.get("lines") else {"lines"})

    def plain(c: dict) -> dict:
        return {k: plain(v) if k == "abrupt" else v for k, v in c.items() if k not in dropped}

    return {m: plain(c) for m, c in counts.items()}


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
