"""Optional ``sources = [...]``: Java sources compiled once by the JDK's javac into a cache folder.

The cache key is a hash of every source file's path and bytes, the classpath and the javac version, so an
unchanged project is never recompiled and a changed file always is.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Sequence

from .config import ConfigError


def _javac(settings) -> Path:
    for home in (settings.java_home, os.environ.get("JAVA_HOME")):
        if home and (Path(home) / "bin" / "javac").is_file():
            return Path(home) / "bin" / "javac"
    found = shutil.which("javac")
    if found:
        return Path(found)
    raise ConfigError("[tool.bytecount] sources needs javac (a JDK, not a JRE): set java-home or JAVA_HOME to a JDK")


def compile_sources(roots: Sequence[Path], settings, classpath: Sequence[str]) -> Path:
    files = []
    for root in roots:
        if not root.exists():
            raise ConfigError(f"[tool.bytecount] sources: {root} does not exist")
        files += sorted(root.rglob("*.java")) if root.is_dir() else [root]
    if not files:
        raise ConfigError(f"[tool.bytecount] sources: no .java files under {', '.join(map(str, roots))}")
    javac = _javac(settings)
    # identify the compiler by its resolved path, size and mtime: running `javac -version` would start a JVM
    real = Path(os.path.realpath(javac))
    st = real.stat()
    version = f"{real}|{st.st_size}|{st.st_mtime_ns}"
    h = hashlib.sha256(version.encode())
    for f in files:
        h.update(str(f).encode() + b"\0" + f.read_bytes() + b"\0")
    h.update("\0".join(classpath).encode())
    cache = Path(settings.root) / ".bytecount-cache" / "classes" / h.hexdigest()[:20]
    if (cache / ".complete").exists():
        return cache
    cache.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=cache.parent, prefix=".build-"))
    cmd = [str(javac), "-g", "-d", str(staging), "-encoding", "UTF-8"]
    if classpath:
        cmd += ["-cp", os.pathsep.join(classpath)]
    result = subprocess.run(cmd + [str(f) for f in files], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    if result.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise ConfigError(f"javac failed on [tool.bytecount] sources:\n{result.stdout}")
    (staging / ".complete").write_text(version + "\n")
    try:
        os.replace(staging, cache)
    except OSError:  # another process published the same build first
        shutil.rmtree(staging, ignore_errors=True)
    return cache
