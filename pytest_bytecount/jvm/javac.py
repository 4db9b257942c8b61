"""Optional ``sources = [...]``: Java sources compiled once by the JDK's javac into a cache folder.

The cache entry ``classes/<key>`` in the project's cache folder is named by a hash of everything that shapes javac's
output: every source file's path and bytes, the bytes of every classpath and compile-classpath entry (jars,
and the files under classpath folders), javac's identity and options (``javac-options`` included). An unchanged project is never recompiled and a change
always is.

Each entry carries a manifest (``.complete``, written last, before the rename that publishes the entry)
with its key and the SHA-256 of every file in it. It is checked on every use: an entry whose files do not
match their manifest (edited, truncated, added or removed by hand or by a crash) is never used; it is
discarded and compiled again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Optional, Sequence


class JavacError(ValueError):
    """``sources`` that cannot be compiled: no javac, no sources, or javac's own errors."""


MANIFEST = ".complete"
_OPTIONS = ["-g", "-encoding", "UTF-8"]
_ENTRY_FORMAT = 3  # bump when the way an entry is built or checked changes


def _javac(settings) -> Path:
    for home in (settings.java_home, os.environ.get("JAVA_HOME")):
        if home and (Path(home) / "bin" / "javac").is_file():
            return Path(home) / "bin" / "javac"
    found = shutil.which("javac")
    if found:
        return Path(found)
    raise JavacError("[tool.bytecount] sources needs javac, and there is none in java-home, JAVA_HOME or on PATH: "
                     "install a JDK 11 or newer (a JRE has no javac; Debian and Ubuntu: apt install "
                     "openjdk-17-jdk-headless; macOS: brew install openjdk), or set java-home or JAVA_HOME to one")


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _files_under(folder: Path) -> list:
    """Relative POSIX paths of every regular file under ``folder``, sorted."""
    out = []
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            out.append(Path(dirpath, name).relative_to(folder).as_posix())
    return sorted(out)


def _cache_key(javac: Path, files: Sequence[Path], classpath: Sequence[str], options: Sequence[str]) -> str:
    h = hashlib.sha256(f"format {_ENTRY_FORMAT}\0".encode())
    h.update(json.dumps(list(options)).encode() + b"\0")
    # javac by its resolved path, size, mtime and its JDK's release file: `javac -version` would start a JVM
    real = Path(os.path.realpath(javac))
    st = real.stat()
    h.update(f"{real}|{st.st_size}|{st.st_mtime_ns}\0".encode())
    release = real.parent.parent / "release"
    if release.is_file():
        h.update(release.read_bytes() + b"\0")
    for f in files:
        h.update(b"source\0" + str(f).encode() + b"\0" + f.read_bytes() + b"\0")
    for entry in classpath:
        p = Path(entry)
        h.update(b"classpath\0" + str(p).encode() + b"\0")
        if p.is_file():
            h.update(_sha256_file(p).encode())
        elif p.is_dir():
            for rel in _files_under(p):
                h.update(rel.encode() + b"\0" + _sha256_file(p / rel).encode() + b"\0")
    return h.hexdigest()


def _manifest(folder: Path, key: str) -> dict:
    files = {rel: _sha256_file(folder / rel) for rel in _files_under(folder) if rel != MANIFEST}
    return {"format": _ENTRY_FORMAT, "key": key, "files": files}


def entry_problem(folder: Path, key: str) -> Optional[str]:
    """Why the cache entry ``folder`` must not be used for ``key``, or None when every file matches."""
    try:
        stored = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "it has no readable manifest"
    if not isinstance(stored, dict) or stored.get("key") != key or not isinstance(stored.get("files"), dict):
        return "its manifest is not the one of these sources"
    actual = _manifest(folder, key)["files"]
    for rel in sorted(set(stored["files"]) | set(actual)):
        if rel not in actual:
            return f"{rel} is missing"
        if rel not in stored["files"]:
            return f"{rel} was not produced by javac"
        if stored["files"][rel] != actual[rel]:
            return f"{rel} changed since it was compiled"
    return None


def _discard(folder: Path) -> None:
    # rename first: another process then sees the entry either whole or gone, never half deleted
    graveyard = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".discarded-"))
    try:
        os.replace(folder, graveyard / "entry")
    except OSError:
        pass  # another process discarded it already
    shutil.rmtree(graveyard, ignore_errors=True)


def compile_sources(roots: Sequence[Path], settings, classpath: Sequence[str], cache_root: Path,
                    report: Optional[Callable[[str], None]] = None, compile_classpath: Sequence = ()) -> Path:
    """The folder of the classes javac makes of ``roots`` (cached). javac sees ``classpath`` then
    ``compile_classpath`` (entries on javac's classpath only) and ``settings.javac_options`` after ours. The
    entry goes under ``cache_root/classes``."""
    files = []
    for root in roots:
        if not root.exists():
            raise JavacError(f"[tool.bytecount] sources: {root} does not exist")
        files += sorted(root.rglob("*.java")) if root.is_dir() else [root]
    if not files:
        raise JavacError(f"[tool.bytecount] sources: no .java files under {', '.join(map(str, roots))}")
    javac = _javac(settings)
    classpath = [*map(str, classpath), *map(str, compile_classpath)]
    options = [*_OPTIONS, *settings.javac_options]
    key = _cache_key(javac, files, classpath, options)
    cache = Path(cache_root) / "classes" / key[:24]
    if cache.exists():
        problem = entry_problem(cache, key)
        if problem is None:
            try:
                os.utime(cache)  # used: a cache owner may remove entries long unused
            except OSError:
                pass
            return cache
        if report is not None:
            report(f"bytecount: not using the compiled classes in {cache}: {problem}; compiling again")
        _discard(cache)
    cache.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=cache.parent, prefix=".build-"))
    os.chmod(staging, 0o755)  # mkdtemp makes it owner-only; the published entry is an ordinary folder
    cmd = [str(javac), *options, "-d", str(staging)]
    if classpath:
        cmd += ["-cp", os.pathsep.join(classpath)]
    result = subprocess.run(cmd + [str(f) for f in files], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    if result.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise JavacError(f"javac failed on [tool.bytecount] sources:\n{result.stdout}")
    (staging / MANIFEST).write_text(json.dumps(_manifest(staging, key), indent=1, sort_keys=True) + "\n")
    try:
        os.replace(staging, cache)
    except OSError:  # another process published the same build first
        shutil.rmtree(staging, ignore_errors=True)
    return cache
