"""Build this example without Gradle, as

    gradle -q classes writeClasspath

would: javac compiles src/main/java into build/classes/java/main against build.gradle's dependency, and
build/classpath.txt holds ``sourceSets.main.runtimeClasspath.asPath``: the class folder, then the
dependency's jar. Usage, from any folder:

    python build_without_gradle.py [--jars DIR]

The jar is looked up in --jars DIR, else $JARS_DIR, else /usr/share/java, where Debian's libguava-java
package puts guava.jar. javac is $JAVA_HOME/bin/javac when JAVA_HOME is set, else the javac on the PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEPENDENCIES = {"com.google.guava:guava:31.1-jre": "guava.jar"}  # build.gradle's, as jar files
CLASSES = HERE / "build" / "classes" / "java" / "main"
CLASSPATH_FILE = HERE / "build" / "classpath.txt"
RELEASE = "11"  # build.gradle's compileJava.options.release
DEFAULT_JARS = "/usr/share/java"


def find_javac() -> str:
    home = os.environ.get("JAVA_HOME")
    if home:
        javac = Path(home) / "bin" / ("javac.exe" if os.name == "nt" else "javac")
        if not javac.is_file():
            sys.exit(f"build: JAVA_HOME={home} has no bin/javac: point it at a JDK, not a JRE")
        return str(javac)
    javac = shutil.which("javac")
    if javac is None:
        sys.exit("build: no javac: set JAVA_HOME to a JDK 11 or newer, or put its bin folder on the PATH "
                 "(Debian: apt-get install openjdk-17-jdk-headless)")
    return javac


def find_jars(folder: Path) -> list:
    jars = [(folder / name).absolute() for name in DEPENDENCIES.values()]
    missing = [str(jar) for jar in jars if not jar.is_file()]
    if missing:
        sys.exit(f"build: missing {', '.join(missing)}: install the jar (Debian: apt-get install libguava-java) "
                 f"or name its folder with --jars DIR or $JARS_DIR")
    return jars


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jars", type=Path, default=Path(os.environ.get("JARS_DIR") or DEFAULT_JARS),
                        help="the folder holding the dependency jars (default: $JARS_DIR, else %(default)s)")
    args = parser.parse_args(argv)
    javac = find_javac()
    jars = find_jars(args.jars)
    sources = sorted(str(p) for p in (HERE / "src" / "main" / "java").rglob("*.java"))
    if CLASSES.exists():
        shutil.rmtree(CLASSES)
    CLASSES.mkdir(parents=True)
    done = subprocess.run([javac, "--release", RELEASE, "-encoding", "UTF-8", "-d", str(CLASSES),
                           "-cp", os.pathsep.join(map(str, jars)), *sources])
    if done.returncode != 0:
        sys.exit(f"build: javac failed (exit status {done.returncode})")
    runtime = os.pathsep.join(map(str, [CLASSES, *jars]))
    CLASSPATH_FILE.write_text(runtime)  # one line, as runtimeClasspath.asPath
    print(f"build: {len(sources)} sources -> {CLASSES.relative_to(HERE)}; "
          f"{CLASSPATH_FILE.relative_to(HERE)}: {runtime}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
