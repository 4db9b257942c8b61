"""The JDK 17 the tests compile with and run on: Debian's ``openjdk-17-jdk-headless`` (``.ci/run`` installs
it), or the one ``BYTECOUNT_JDK17`` names. The one place its path is written."""

from __future__ import annotations

import os
from pathlib import Path

JDK17_HOME = Path(os.environ.get("BYTECOUNT_JDK17", "/usr/lib/jvm/java-17-openjdk-amd64"))
JDK17 = str(JDK17_HOME)  # as pyproject.toml settings and command lines take it
