"""Build this example without Maven, as

    mvn -q compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt

would: javac compiles src/main/java into target/classes against the pom's dependency, and
target/classpath.txt lists the dependency's jar (Maven lists the dependencies only; pyproject.toml names
target/classes apart). Usage, from any folder:

    python build_without_maven.py [--jars DIR]

The jar is looked up in --jars DIR, else $JARS_DIR, else /usr/share/java, where Debian's
libcommons-lang3-java package puts commons-lang3.jar. javac is $JAVA_HOME/bin/javac when JAVA_HOME is set,
else the javac on the PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEPENDENCIES = {"org.apache.commons:commons-lang3:3.12.0": "commons-lang3.jar"}  # pom.xml's, as jar files
CLASSES = HERE / "target" / "classes"
CLASSPATH_FILE = HERE / "target" / "classpath.txt"
RELEASE = "11"  # pom.xml's maven.compiler.release
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
        sys.exit(f"build: missing {', '.join(missing)}: install the jar (Debian: apt-get install "
                 f"libcommons-lang3-java) or name its folder with --jars DIR or $JARS_DIR")
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
    CLASSPATH_FILE.write_text(os.pathsep.join(map(str, jars)))  # one line, as Maven writes it
    print(f"build: {len(sources)} sources -> {CLASSES.relative_to(HERE)}; "
          f"{CLASSPATH_FILE.relative_to(HERE)}: {os.pathsep.join(map(str, jars))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
