"""Child process for the exactness tests: one JVM (JPype), many counted runs, each in its own loader.

    python count_worker.py JOBS.json RESULTS.json

JOBS.json: {"java_home": ..., "variant": "server"|"zero", "jobs": [{"classpath": [...], "targets": [...],
"main": "pkg.Main", "args": [...], "strategy": "block", "abrupt": false, "allocations": false,
"inclusive": false, "load_time": false}, ...]}. ``load_time``: count each target class (with
``inclusive``: every class) when the loader first asks for it, as the pytest plugin does
(pytest_bytecount.jvm.loaders.LoadTimeLoaders). ``in_place``: count the target classes in place
(pytest_bytecount.jvm.in_place), in an application's own URLClassLoader that the main runs in, with the
JVM's agent. RESULTS.json gets {"jvm": description, "results": [counts...]}
where each entry is the contract's JSON for that job (or {"error": ...}). Runs through the same public
layers as ``python -m pytest_bytecount count``.
"""

import json
import sys
from pathlib import Path

from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.instrument import instrument
from pytest_bytecount.counting.per_class import ClassCounter
from pytest_bytecount.jvm.in_place import InPlaceLoaders
from pytest_bytecount.jvm.loaders import LoadTimeLoaders
from pytest_bytecount.jvm.session import ClassDir, JvmSession, choose_jvm


def main(jobs_file: str, results_file: str) -> int:
    spec = json.loads(Path(jobs_file).read_text())
    choice = choose_jvm(spec.get("java_home"), spec.get("variant", "server"))
    session = JvmSession(choice, spec.get("options", []), agent=any(j.get("in_place") for j in spec["jobs"]))
    results = []
    for job in spec["jobs"]:
        classpath = Classpath.parse(job["classpath"])
        if job.get("load_time"):
            results.append(_load_time(session, classpath, job))
            continue
        if job.get("in_place"):
            results.append(_in_place(session, classpath, job))
            continue
        batch = instrument(classpath, job["targets"], strategy=job.get("strategy", "block"),
                           abrupt=job.get("abrupt", False), allocations=job.get("allocations", False),
                           inclusive=job.get("inclusive", False))
        with ClassDir(batch) as classes:
            loader = session.loader(classes.path, classpath.entries)
            try:
                session.run_main(session.main_method(loader, job["main"]), job.get("args", []))
            except Exception as e:  # noqa: BLE001 - reported per job
                results.append({"error": f"{job['main']}: {e}"})
                continue
            values = session.read_counters(loader, batch.size)
        results.append(batch.counts(values, lines=job.get("lines", False)))
    Path(results_file).write_text(json.dumps({"jvm": choice.describe(), "vm_name": session.vm_name(), "results": results}))
    return 0


def _load_time(session: JvmSession, classpath: Classpath, job: dict) -> dict:
    counter = ClassCounter(classpath, job["targets"], job.get("strategy", "block"), job.get("abrupt", False),
                           job.get("allocations", False), inclusive=job.get("inclusive", False))
    handle = LoadTimeLoaders(session, counter, classpath.entries).new()
    try:
        session.run_main(session.main_method(handle.loader, job["main"]), job.get("args", []))
    except Exception as e:  # noqa: BLE001 - reported per job
        return {"error": f"{job['main']}: {e}"}
    return _like_a_batch(handle.counts(), job)


def _in_place(session: JvmSession, classpath: Classpath, job: dict) -> dict:
    counter = ClassCounter(classpath, job["targets"], job.get("strategy", "block"), job.get("abrupt", False),
                           job.get("allocations", False), in_place=True)
    handle = InPlaceLoaders(session, counter).new()
    application = session.loader_without_instrumentation(classpath.entries)  # the application's own loader
    try:
        session.run_main(session.main_method(application, job["main"]), job.get("args", []))
    except Exception as e:  # noqa: BLE001 - reported per job
        return {"error": f"{job['main']}: {e}"}
    finally:
        handle.close()
    return _like_a_batch(handle.counts(), job)


def _like_a_batch(counts: dict, job: dict) -> dict:
    """The plugin's counts as a batch gives them: without code_fingerprint (the plugin adds it), and with
    per-line counts only when the job asks for them (as the batch's do)."""
    dropped = {"code_fingerprint", "line_digests"} | (set() if job.get("lines") else {"lines"})

    def plain(c: dict) -> dict:
        return {k: plain(v) if k == "abrupt" else v for k, v in c.items() if k not in dropped}

    return {m: plain(c) for m, c in counts.items()}


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
