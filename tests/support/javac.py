"""Compiles the Java fixtures for the test session, cached by a hash of everything that shapes the output.

No class file is ever committed: the tests compile ``fixtures-java/`` themselves. A build lands in
``$BYTECOUNT_CACHE_DIR/classes/<hash>`` (default ``~/.cache/pytest-bytecount``). The hash covers every
source file's relative path and contents, the compiler, its version string and its options, so an edit,
a new JDK or a new flag gives a new directory and an unchanged tree is compiled once. A build is made in
a temporary directory and renamed into place with its marker already inside, so a crashed or concurrent
compile is never reused half-written.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

from .corpus import cache_root  # one cache folder for all test support
from .jdk import JavaToolNotFound, find_jdk_tool

# Written last, inside the build directory, before the rename that publishes it.
COMPLETE_MARKER = ".bytecount-build.json"
# Bump when the way a build is made changes, so old cache entries are not reused.
_BUILD_FORMAT = 1
# ecj options per class-file major version; both keep try/finally as jsr/ret (inlined from 49 on).
LEGACY_TARGETS = {
    "45": ["-source", "1.3", "-target", "1.1"],  # 45.3, the JDK 1.1 format
    "48": ["-source", "1.4", "-target", "1.4"],  # 48.0
}

PathLike = Union[str, os.PathLike]


class JavaCompileError(RuntimeError):
    """The compiler rejected the sources; the message carries its full output."""

    def __init__(self, src_dir: Path, command: Sequence[str], output: str) -> None:
        self.src_dir = src_dir
        self.command = list(command)
        self.output = output
        super().__init__(f"compiling the Java sources under {src_dir} failed:\n{output.rstrip()}")


def find_compiler(compiler: str) -> Path:
    """``javac`` (see find_jdk_tool), ``ecj`` (on PATH) or a path to a compiler executable."""
    if compiler == "javac":
        return find_jdk_tool("javac")
    if compiler == "ecj":
        on_path = shutil.which("ecj")
        if not on_path:
            raise JavaToolNotFound(
                "ecj (the Eclipse compiler, used for class versions 45 and 48 with jsr/ret) "
                "not found on PATH; install it with: apt-get install ecj"
            )
        return Path(on_path)
    path = Path(compiler)
    if path.is_file() and os.access(path, os.X_OK):
        return path
    raise JavaToolNotFound(f"compiler {compiler!r} is neither 'javac', 'ecj' nor an executable file")


@functools.lru_cache(maxsize=None)
def compiler_version(executable: Path) -> str:
    """What ``<compiler> -version`` prints (javac and ecj both accept it); part of the cache key."""
    result = subprocess.run(
        [str(executable), "-version"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    if result.returncode != 0:
        raise JavaToolNotFound(f"{executable} -version failed:\n{result.stdout}")
    return result.stdout.strip()


def compile_java(
    src_dir: PathLike,
    *,
    compiler: str = "javac",
    release: Optional[str] = None,
    options: Sequence[str] = (),
    classpath: Iterable[PathLike] = (),
) -> Path:
    """Compile every ``.java`` under ``src_dir``; return the directory of class files (cached).

    ``compiler`` is ``"javac"``, ``"ecj"`` or a path to a compiler. ``release`` becomes ``--release``.
    ``classpath`` entries are hashed by path only: pass directories that are themselves cache entries
    (their path changes with their contents) or files that never change.
    Raises JavaCompileError with the compiler's output when compilation fails.
    """
    src_dir = Path(src_dir)
    sources = sorted(src_dir.rglob("*.java"))
    if not sources:
        raise FileNotFoundError(f"no .java files under {src_dir}")
    executable = find_compiler(compiler)
    args = ["-encoding", "UTF-8"]
    if release is not None:
        args += ["--release", str(release)]
    args += [str(option) for option in options]
    classpath = [str(entry) for entry in classpath]
    if classpath:
        args += ["-classpath", os.pathsep.join(classpath)]

    build = {
        "format": _BUILD_FORMAT,
        "compiler": compiler,
        "compiler_version": compiler_version(executable),
        "args": args,
        "sources": [
            [source.relative_to(src_dir).as_posix(), hashlib.sha256(source.read_bytes()).hexdigest()]
            for source in sources
        ],
    }
    key = hashlib.sha256(json.dumps(build, sort_keys=True).encode()).hexdigest()[:32]
    classes_root = cache_root() / "classes"
    target = classes_root / key
    if (target / COMPLETE_MARKER).is_file():
        return target

    classes_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{key[:12]}-", suffix=".tmp", dir=classes_root))
    os.chmod(staging, 0o755)  # mkdtemp makes it private; the published build is an ordinary directory
    try:
        command = [str(executable), *args, "-d", str(staging), *map(str, sources)]
        result = _run_compiler(command)
        if result.returncode != 0:
            raise JavaCompileError(src_dir, command, result.stdout)
        build["src_dir"] = str(src_dir)
        (staging / COMPLETE_MARKER).write_text(json.dumps(build, indent=1, sort_keys=True) + "\n")
        _publish(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _run_compiler(command: Sequence[str]) -> subprocess.CompletedProcess:
    # One place that runs the compiler, so a test can count real compilations.
    return subprocess.run(list(command), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)


def _publish(staging: Path, target: Path) -> None:
    """Rename the finished build into place; a concurrent process may have won the race."""
    try:
        os.rename(staging, target)
        return
    except OSError:
        if (target / COMPLETE_MARKER).is_file():
            return  # Another session published the same build first; ours is discarded.
    # A directory without the marker is left from something else (it was never published by
    # compile_java): replace it.
    shutil.rmtree(target, ignore_errors=True)
    os.rename(staging, target)


def javap(target: PathLike, *options: str, java_home: Optional[PathLike] = None) -> str:
    """``javap <options> <target>`` output, for assertions about what a compiler emitted.

    ``java_home`` picks a JDK's own javap, e.g. a JDK 25 one for class version 69.
    """
    tool = Path(java_home) / "bin" / "javap" if java_home else find_jdk_tool("javap")
    command = [str(tool), *options, str(target)]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}")
    return result.stdout
