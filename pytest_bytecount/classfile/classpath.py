"""A user classpath (directories and jars) as an index from class name to class-file bytes."""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Union

from ..wording import counted


class ClasspathError(ValueError):
    """A classpath entry that does not exist or cannot be read."""


GLOB_CHARS = frozenset("*?[")


def _is_jar(path: Path) -> bool:
    return path.suffix.lower() in (".jar", ".zip")


def _build_output(p: Path) -> str:
    """For a missing entry where a build writes its output (``target/classes``, ``build/classes/java/main``, a jar
    in ``target`` or ``build/libs``): what builds it."""
    parts = p.parts
    if "target" in parts and (p.name in ("classes", "test-classes") or _is_jar(p)):
        return " yet: it is Maven's output, so build it first (mvn compile, or mvn package for the jar)"
    if "build" in parts and ("classes" in parts or "libs" in parts):
        return " yet: it is Gradle's output, so build it first (gradle classes, or gradle jar for the jar)"
    return ""


def _check(p: Path, written: str) -> Path:
    """``p`` as a classpath entry: an existing folder of class files or a jar."""
    if not p.exists():
        raise ClasspathError(f"classpath entry {p} does not exist{_build_output(p)}")
    if p.is_file() and not zipfile.is_zipfile(p):
        raise ClasspathError(f"classpath entry {p} is a file but not a jar (zip) archive")
    first = _first_class_file(p) if p.is_dir() else None
    if p.is_dir() and first is None:
        jars = sorted(q.name for q in p.iterdir() if q.is_file() and _is_jar(q))
        if jars:  # java -cp takes a folder as a root of class files: its jars would be ignored
            raise ClasspathError(
                f"classpath entry {p} is a folder of {len(jars)} jar(s) ({', '.join(jars[:3])}"
                f"{', ...' if len(jars) > 3 else ''}) with no class files; a folder entry is a root of class "
                f"files, as for java -cp: write {str(Path(written) / '*')!r} for every jar in it")
        sources = sum(1 for _ in zip(range(1000), p.rglob("*.java")))
        if sources:
            raise ClasspathError(
                f"classpath entry {p} holds Java sources ({counted(sources, '.java file')}{'+' if sources == 1000 else ''})"
                f" and no class files: the classpath takes compiled classes. To have the sources compiled, give the "
                f"folder as sources (sources = [\"{written}\"] in [tool.bytecount], or --bytecount-sources)")
    if first is not None:
        _check_package_root(p, written, first)
    return p


def _first_class_file(folder: Path) -> Optional[Path]:
    """The first class file under ``folder`` in sorted order, or None."""
    for dirpath, dirs, files in os.walk(folder):
        dirs.sort()
        found = sorted(f for f in files if f.endswith(".class") and f not in ("module-info.class", "package-info.class"))
        if found:
            return Path(dirpath) / found[0]
    return None


def _check_package_root(p: Path, written: str, class_file: Path) -> None:
    """A folder entry must be the root of its classes' packages (``target/classes``, not
    ``target/classes/com``): the class a file holds is named by its path under the entry (JVMS 4.1, this_class)."""
    from .model import ClassFile
    from .errors import ClassFormatError

    rel = class_file.relative_to(p).with_suffix("").as_posix()
    try:
        name = ClassFile.parse(class_file.read_bytes()).name
    except (ClassFormatError, OSError):
        return  # an unreadable class says so itself when it is counted
    if name == rel or not name.endswith("/" + rel):
        return
    depth = name.count("/") - rel.count("/")
    root = p.parents[depth - 1]
    if root.joinpath(*name.split("/")[:depth]) != p:
        return
    shown = Path(written).parents[depth - 1] if len(Path(written).parents) >= depth else root
    raise ClasspathError(
        f"classpath entry {p} is a package folder, not the root of its classes: {class_file.relative_to(p)} holds "
        f"class {name.replace('/', '.')}, whose root is {root}; write \"{shown}\" instead")


def expand_entry(written: str, base: Optional[Path] = None) -> list:
    """The paths one classpath entry stands for, checked. ``dir/*`` is Java's wildcard (the jars directly in
    ``dir``); an entry with other glob characters is a glob (``**`` crosses folders), matched in sorted
    order, and must match something."""
    p = Path(written).expanduser()
    if base is not None and not p.is_absolute():
        p = base / p
    return expand_path(p, written)


def expand_path(p: Path, written: str) -> list:
    """The paths ``p`` stands for, checked, as :func:`expand_entry` expands them; messages name the entry as
    ``written`` (which has the glob characters of ``p``'s last parts)."""
    if not GLOB_CHARS & set(written):
        return [_check(p, written)]
    if p.name == "*" and not GLOB_CHARS & set(str(p.parent)):  # Java's form: every jar in one folder
        if not p.parent.is_dir():
            raise ClasspathError(f"classpath entry {written!r}: the folder {p.parent} does not exist")
        found = sorted(q for q in p.parent.iterdir() if q.is_file() and _is_jar(q))
        if not found:
            raise ClasspathError(f"classpath entry {written!r}: no jar in {p.parent}")
        return [_check(q, written) for q in found]
    anchor = Path(p.anchor)
    found = sorted(anchor.glob(str(p.relative_to(anchor))))
    if not found:
        raise ClasspathError(f"classpath entry {written!r} matches no file ({p})")
    return [_check(q, written) for q in found]


@dataclass
class Classpath:
    """Entries in order; the first entry holding a class wins, as on the JVM."""

    entries: list
    # how a message names an entry the user did not write (classes compiled from their sources, say): entry -> text
    labels: dict = field(default_factory=dict, repr=False)
    _index: Optional[dict] = field(default=None, repr=False)
    _jars: dict = field(default_factory=dict, repr=False)

    @classmethod
    def parse(cls, spec: Union[str, Iterable], base: Optional[Path] = None) -> "Classpath":
        """``spec`` is an ``os.pathsep``-separated string or a list of entries, relative to ``base``. An entry
        is a folder of class files, a jar, Java's ``dir/*`` (every jar in ``dir``), or a glob such as
        ``lib/*.jar`` or ``lib/**/*.jar`` (matches in sorted order)."""
        parts = spec.split(os.pathsep) if isinstance(spec, str) else list(spec)
        entries = []
        for part in parts:
            if part in ("", None):
                continue
            entries += expand_entry(str(part), base)
        if not entries:
            raise ClasspathError("the classpath is empty: give directories or jars with compiled classes")
        return cls(entries)

    def _build(self) -> dict:
        index: dict = {}
        for entry in self.entries:
            if entry.is_dir():
                for dirpath, _dirs, files in os.walk(entry):
                    for f in files:
                        if f.endswith(".class"):
                            rel = os.path.relpath(os.path.join(dirpath, f), entry)[:-6].replace(os.sep, "/")
                            index.setdefault(rel, (entry, None))
            else:
                try:
                    jar = zipfile.ZipFile(entry)
                except (zipfile.BadZipFile, OSError) as e:
                    raise ClasspathError(f"cannot read jar {entry}: {e}") from None
                self._jars[entry] = jar
                for name in jar.namelist():
                    if name.endswith(".class") and not name.startswith("META-INF/"):
                        index.setdefault(name[:-6], (entry, name))
        return index

    @property
    def index(self) -> dict:
        if self._index is None:
            self._index = self._build()
        return self._index

    def class_names(self) -> list[str]:
        """Internal names (``pkg/Outer$Inner``) of every class, module-info excluded."""
        return sorted(n for n in self.index if not n.endswith("module-info") and not n.endswith("package-info"))

    def read(self, internal_name: str) -> bytes:
        where = self.index.get(internal_name)
        if where is None:
            raise KeyError(internal_name)
        entry, member = where
        if member is None:
            return (entry / f"{internal_name}.class").read_bytes()
        return self._jars[entry].read(member)

    def location(self, internal_name: str) -> str:
        """Where the class comes from, for messages: ``dir/pkg/Cls.class`` or ``lib.jar!pkg/Cls.class``."""
        entry, member = self.index[internal_name]
        return str(entry / f"{internal_name}.class") if member is None else f"{entry}!{member}"

    def __contains__(self, internal_name: str) -> bool:
        return internal_name in self.index

    def as_string(self) -> str:
        return os.pathsep.join(str(e) for e in self.entries)

    def describe(self) -> str:
        """The entries as a message names them: each by its label when it has one, else by its path."""
        return os.pathsep.join(self.labels.get(str(e), str(e)) for e in self.entries)
