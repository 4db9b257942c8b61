"""Method ids and target patterns (the counting contract, docs/contract.md).

- A method id is ``pkg.Cls#name(descriptor)``, nested classes as ``pkg.Outer$Inner``.
- A pattern is ``pkg.Cls#name`` (all overloads), ``pkg.Cls#name(desc)`` (one), ``pkg.Cls#*`` or ``pkg.Cls``
  (every method with code); the class part may hold globs: ``*`` within a package, ``**`` across packages.
- A class part ending in ``.**`` also matches what is written before it, with its nested classes:
  ``pkg.Cls.**`` is ``pkg.Cls``, ``pkg.Cls$Inner``, ``pkg.Cls$Inner$Deeper``, ``pkg.Cls$1``, and (as ``**``
  always meant) every class in package ``pkg.Cls`` and below. ``pkg.Cls`` alone leaves nested classes out:
  :func:`nested_left_out` finds them, for the hint a test shows.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from ..classfile import ClassFile, ClassFormatError
from ..classfile.classpath import Classpath
from ..wording import counted


class TargetError(ValueError):
    """A target pattern that is malformed or matches nothing."""


@dataclass(frozen=True, order=True)
class MethodId:
    class_name: str  # internal form, pkg/Outer$Inner
    name: str
    descriptor: str

    def __str__(self) -> str:
        return f"{self.class_name.replace('/', '.')}#{self.name}{self.descriptor}"

    @classmethod
    def parse(cls, text: str) -> "MethodId":
        m = re.fullmatch(r"([^\s#]+)#([^\s#(]+)(\(.*)", text)
        if not m:
            raise TargetError(f"{text!r} is not a method id like pkg.Cls#name(I)V")
        return cls(m.group(1).replace(".", "/"), m.group(2), m.group(3))


# every name the JVM allows (JVMS 4.2): a class's may hold parentheses (ASM's test corpus has
# `Artificial$()$Structures`), a method's hyphens (Kotlin's `box-impl`, `use-YhWfFtM`); a class part ends at `#`, a
# method name at `(`
_NAME_CHARS = r"\w$\-()"
_JAVA_STYLE = re.compile(r"\.[\w$<>-]+\((?:\[*[BCDFIJSZ]|\[*L[^;]*;)*\)(?:\[*[BCDFIJSZV]|\[*L[^;]*;)$")
_PATTERN = re.compile(rf"^(?P<cls>[{_NAME_CHARS}.*]+)(?:#(?P<name>[\w$\-<>*?]+)(?P<desc>\([^)]*\)\S+)?)?$")


@dataclass(frozen=True)
class TargetPattern:
    text: str
    class_regex: re.Pattern
    method: Optional[str]  # None or "*" = every method with code
    descriptor: Optional[str]

    @classmethod
    def parse(cls, text: str) -> "TargetPattern":
        text = text.strip()
        m = _PATTERN.match(text)
        # a class part that ends in ")" or in a descriptor is a method written as Java code names it
        # (pkg.Cls.run(), pkg.Cls.run(I)V), not a class
        if not m or m.group("cls").endswith((".", ")")) or ".." in m.group("cls") or _JAVA_STYLE.search(m.group("cls")):
            meant = _with_hash(text)
            raise TargetError(
                f"bad target pattern {text!r}: expected pkg.Cls, pkg.Cls#method, pkg.Cls#method(desc), "
                f"pkg.Cls#* or a class glob such as pkg.* / pkg.**"
                + (f"; a method is named after '#': did you mean {meant}?" if meant else ""))
        cls_part = m.group("cls")
        nested = cls_part.endswith(".**") and len(cls_part) > 3
        regex = _class_regex(cls_part[:-3]) + r"(?:[.$].*)?" if nested else _class_regex(cls_part)
        return cls(text, re.compile(regex), m.group("name"), m.group("desc"))

    @property
    def exact_class(self) -> Optional[str]:
        """The dotted class name when the class part has no glob, else None."""
        cls_part = self.text.split("#")[0]
        return None if "*" in cls_part else cls_part

    @property
    def class_prefix(self) -> str:
        """What the internal name of every class the pattern matches starts with: its class part up to the first
        glob, a trailing package dot dropped (``pkg.Outer.**`` also matches ``pkg/Outer`` and ``pkg/Outer$In``)."""
        literal = self.text.split("#")[0].split("*")[0]
        return literal[:-1].replace(".", "/") if literal.endswith(".") else literal.replace(".", "/")

    def matches_class(self, dotted: str) -> bool:
        return self.class_regex.fullmatch(dotted) is not None

    def matches_method(self, name: str, descriptor: str) -> bool:
        if self.method in (None, "*"):
            return True
        if not fnmatch.fnmatchcase(name, self.method):
            return False
        return self.descriptor is None or self.descriptor == descriptor


def parse_class(classpath: Classpath, internal_name: str) -> ClassFile:
    """The class from the classpath; a file that is not a readable class file is a
    :class:`ClassFormatError` naming the class and where it comes from."""
    try:
        return ClassFile.parse(classpath.read(internal_name))
    except ClassFormatError as e:
        raise ClassFormatError(f"class {internal_name.replace('/', '.')} ({classpath.location(internal_name)}) "
                               f"is not a valid class file: {e}") from None


def _class_regex(glob: str) -> str:
    """``*`` within a package, ``**`` across packages, everything else literal."""
    parts = []
    for piece in re.split(r"(\*\*|\*)", glob):
        if piece == "**":
            parts.append(".*")
        elif piece == "*":
            parts.append("[^.]*")
        else:
            parts.append(re.escape(piece))
    return "".join(parts)


def nested_left_out(patterns: Iterable[str], class_names: Iterable[str]) -> dict:
    """{pattern: [dotted nested classes]} for each pattern that names a class exactly (no glob) whose
    nested classes (``Outer$...``, at any depth) on the classpath no pattern of ``patterns`` matches.
    ``class_names``: the classpath's internal names."""
    parsed = [TargetPattern.parse(p) for p in patterns]
    dotted = [n.replace("/", ".") for n in class_names]
    out: dict = {}
    for pat in parsed:
        outer = pat.exact_class
        if outer is None:
            continue
        left = [d for d in dotted if d.startswith(outer + "$") and not any(p.matches_class(d) for p in parsed)]
        if left:
            out[pat.text] = sorted(left)
    return out


def nested_hint(pattern: str, left_out: list) -> str:
    """One line: the nested classes ``pattern`` leaves out that a test loaded, and the pattern that counts
    them too."""
    outer, _, method = pattern.partition("#")
    shown = ", ".join(d.rpartition(".")[2] for d in left_out[:3]) + (", ..." if len(left_out) > 3 else "")
    also = f" (beside {pattern})" if method else ""
    return (f"hint: {pattern} leaves out {counted(len(left_out), 'nested class', 'nested classes')} that this "
            f"test loaded ({shown}); the target {outer}.**{also} counts {outer} with its nested classes")


def resolve_targets(patterns: Iterable[str], classpath: Classpath) -> dict[str, list[MethodId]]:
    """{class internal name: [MethodId]} for every method with code matched by any pattern.

    Every pattern must match at least one method; otherwise :class:`TargetError` names it and its near
    misses. Abstract and native methods have no code to count and are an error when named explicitly.
    """
    parsed = [TargetPattern.parse(p) for p in patterns]
    if not parsed:
        raise TargetError("no target given: name at least one method, e.g. --target demo.Sorting#insertionSort")
    names = classpath.class_names()
    dotted = {n: n.replace("/", ".") for n in names}
    found: dict[str, set] = {}
    for pat in parsed:
        classes = [n for n in names if pat.matches_class(dotted[n])]
        hits = 0
        codeless = []
        for n in classes:
            cf = parse_class(classpath, n)
            for m in cf.methods:
                name, desc = m.name, m.descriptor
                if not pat.matches_method(name, desc):
                    continue
                if not m.has_code():
                    codeless.append(f"{dotted[n]}#{name}{desc}")
                    continue
                found.setdefault(n, set()).add(MethodId(n, name, desc))
                hits += 1
        if hits:
            continue
        if codeless:
            raise TargetError(
                f"target {pat.text!r} names only methods without bytecode (abstract, interface or native): "
                f"{', '.join(codeless[:5])}; target an implementation instead")
        raise TargetError(_no_match_message(pat, classes, names, dotted, classpath))
    return {n: sorted(ms) for n, ms in sorted(found.items())}


def _no_match_message(pat: TargetPattern, classes, names, dotted, classpath) -> str:
    if not classes:
        method_hint = _method_written_as_member(pat.text, set(dotted.values()))
        if method_hint:
            return f"target {pat.text!r} matches no class on the classpath; {method_hint}"
        close = near_classes(pat.text.split("#")[0], dotted.values())
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return (f"target {pat.text!r} matches no class on the classpath "
                f"({counted(len(names), 'class', 'classes')} in {classpath.describe()}){hint}")
    methods = []
    for n in classes[:50]:
        cf = parse_class(classpath, n)
        methods += [(f"{dotted[n]}#{m.name}{m.descriptor}", m.name) for m in cf.methods]
    return f"target {pat.text!r} matches no method; near misses: {', '.join(near_methods(pat.method or '', methods))}"


def _words(name: str) -> set:
    """The lower-case words of a camelCase or snake_case name (``isSubset``: is, subset)."""
    return {w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)}


def near_methods(wanted: str, methods: list, n: int = 5) -> list:
    """The methods ([(method id, name)]) whose names are most like ``wanted``: by their letters (a typo, ``wrok``)
    or by their words in any order (``subsetOf`` for ``isSubset``, ``unionOf`` for ``union``), the descriptor left
    out (a wrong one still finds the method); with none alike, the first ``n`` but the static initializer."""
    words = _words(wanted)

    def alike(name: str) -> float:
        letters = difflib.SequenceMatcher(None, wanted.lower(), name.lower()).ratio()
        shared = len(words & _words(name)) / max(len(words | _words(name)), 1)
        return max(letters, 0.5 + shared / 2 if shared else 0.0)

    scored = sorted((-alike(name), k, shown) for k, (shown, name) in enumerate(methods))
    close = [shown for score, _, shown in scored if -score >= 0.6][:n]
    return close or [shown for shown, name in methods if name != "<clinit>"][:n]


def _with_hash(text: str) -> Optional[str]:
    """``pkg.Cls#method(desc)`` for ``pkg.Cls::method(desc)`` or ``pkg.Cls.method(desc)``, or None."""
    m = re.fullmatch(r"([\w$.]+?)(?:::|\.)([\w$<>]+)(\(.*)?", text)
    return f"{m.group(1)}#{m.group(2)}{m.group(3) or ''}" if m and "#" not in text else None


def _method_written_as_member(text: str, classes: set) -> Optional[str]:
    """For ``pkg.Cls.method`` or ``pkg.Cls::method`` (a method written the way Java code or a method
    reference names it), the advice to write ``pkg.Cls#method``; None when no class is named so."""
    meant = _with_hash(text)
    if meant is None or meant.partition("#")[0] not in classes:
        return None
    return f"a method is named after '#': did you mean {meant}?"


def near_classes(wanted: str, dotted_names: Iterable[str], n: int = 5) -> list:
    """Class names (``pkg.Outer$Inner``) like ``wanted``: difflib's close matches or, for a name nothing is
    close to (made up, misremembered), the most alike classes of its package."""
    names = list(dotted_names)
    close = difflib.get_close_matches(wanted, names, n=n, cutoff=0.6)
    if close:
        return close
    package = wanted.rpartition(".")[0]
    siblings = [d for d in names if package and d.rpartition(".")[0] == package]
    return sorted(siblings, key=lambda d: -difflib.SequenceMatcher(None, wanted, d).ratio())[:n]


def missing_class_message(name: str, classpath: Classpath) -> str:
    """Why no class ``name`` loads: the form a class name takes when ``name`` has another, and near misses."""
    text = f"no class {name} on the classpath"
    binary = name[:-len(".class")] if name.endswith(".class") else name
    binary = binary.replace("/", ".")
    if binary != name or not re.fullmatch(r"[\w$]+(\.[\w$]+)*", name):
        text += "; jclass() takes a binary class name such as pkg.Cls (a nested class: pkg.Outer$Inner)"
    names = classpath.class_names()
    close = near_classes(binary, [n.replace("/", ".") for n in names])
    if close:
        return f"{text}; did you mean {', '.join(close)}?"
    return f"{text} ({counted(len(names), 'class', 'classes')} in {classpath.describe()})"
