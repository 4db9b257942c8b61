"""Access flags (ACC_*) are spelled in one module, pytest_bytecount/classfile/access.py; every other module
imports them from there. Read from the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import PACKAGE


def assigned_access_flags(path: Path) -> list[str]:
    """Names of the form ACC_* (or _ACC_*) that ``path`` assigns, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            out += [n.id for n in ast.walk(target) if isinstance(n, ast.Name) and n.id.lstrip("_").startswith("ACC_")]
    return out


def test_access_flags_are_defined_only_in_the_access_module():
    where = {str(p.relative_to(PACKAGE)): names for p in sorted(PACKAGE.rglob("*.py"))
             if (names := assigned_access_flags(p))}
    assert list(where) == ["classfile/access.py"]


def test_the_access_module_has_the_values_of_the_class_file_format():
    from pytest_bytecount.classfile import access

    # JVMS §4.1 table 4.1-B, §4.6 table 4.6-A
    assert (access.ACC_PUBLIC, access.ACC_PRIVATE, access.ACC_STATIC, access.ACC_FINAL) == (0x1, 0x2, 0x8, 0x10)
    assert access.ACC_SUPER == access.ACC_SYNCHRONIZED == 0x20
    assert (access.ACC_NATIVE, access.ACC_INTERFACE, access.ACC_ABSTRACT) == (0x100, 0x200, 0x400)
