"""Build an example as Maven or Gradle would, with javac alone: compile ``src/main/java`` into the build
tool's class folder and write the classpath file its recipe writes (one entry a line, absolute paths).

    python ../build_without_tools.py maven     # target/classes, target/classpath.txt
    python ../build_without_tools.py gradle    # build/classes/java/main, build/classpath.txt

Run it from the example's folder. The dependency jars are named in the example's ``jars.txt`` and looked up
in ``$JARS_DIR`` (default ``/usr/share/java``, where Debian's ``lib*-java`` packages put them). javac
comes from ``$JAVA_HOME/bin`` or the PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

LAYOUTS = {
    # Maven: dependency:build-classpath lists the dependencies only; the class folder is configured apart
    "maven": (Path("target/classes"), Path("target/classpath.txt"), False),
    # Gradle: sourceSets.main.runtimeClasspath holds the class folder too
    "gradle": (Path("build/classes/java/main"), Path("build/classpath.txt"), True),
}


def javac() -> str:
    home = os.environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "javac") if home and (Path(home) / "bin" / "javac").exists() \
        else shutil.which("javac")
    if found is None:
        sys.exit("build: no javac: set JAVA_HOME to a JDK (Debian: apt-get install openjdk-17-jdk-headless)")
    return found


def main(argv: list) -> int:
    if len(argv) != 1 or argv[0] not in LAYOUTS:
        sys.exit(f"usage: python build_without_tools.py {'|'.join(LAYOUTS)}")
    classes, classpath_file, with_classes = LAYOUTS[argv[0]]
    jars_dir = Path(os.environ.get("JARS_DIR", "/usr/share/java"))
    jars = [jars_dir / name for name in Path("jars.txt").read_text().split()]
    missing = [str(j) for j in jars if not j.is_file()]
    if missing:
        sys.exit(f"build: missing {', '.join(missing)}: install the Debian package or set JARS_DIR")
    sources = sorted(str(p) for p in Path("src/main/java").rglob("*.java"))
    if classes.exists():
        shutil.rmtree(classes)
    classes.mkdir(parents=True)
    subprocess.run([javac(), "--release", "11", "-d", str(classes), "-cp", os.pathsep.join(map(str, jars)),
                    *sources], check=True)
    entries = ([classes.resolve()] if with_classes else []) + [j.resolve() for j in jars]
    classpath_file.write_text("".join(f"{e}\n" for e in entries))
    print(f"build: {len(sources)} sources -> {classes}; classpath in {classpath_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
