"""Source lines for the failure text: a changed line's counts are shown with the line itself when its source
file is found, in order, under the ``source-path`` setting (folders and ``-sources.jar`` files), the
``sources`` folders, and the classpath's folders (sources kept next to the classes)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Optional, Sequence

from .lines import source_file_of


class SourceLines:
    """The text of a line of the source file a method comes from, read once per file."""

    def __init__(self, roots: Sequence[Path]):
        self.roots = [Path(r) for r in roots]
        self._files: dict = {}  # relative path -> list of lines, or None when not found

    def __call__(self, method_id: str, line: str) -> Optional[str]:
        if not line.isdigit():
            return None
        lines = self.file_lines(method_id)
        number = int(line)
        return lines[number - 1] if lines is not None and 0 < number <= len(lines) else None

    def file_lines(self, method_id: str) -> Optional[list]:
        """The lines of the source file ``method_id`` comes from, or None when it is not found."""
        return self._read(source_path_of(method_id))

    def _read(self, relative: str) -> Optional[list]:
        if relative not in self._files:
            self._files[relative] = None
            for root in self.roots:
                text = _text(root, relative)
                if text is not None:
                    self._files[relative] = text.splitlines()
                    break
        return self._files[relative]


def source_path_of(method_id: str) -> str:
    """The source file's path under a source root: ``pkg.sub.Outer$Inner#m()V`` -> ``pkg/sub/Outer.java``."""
    cls = method_id.split("#", 1)[0]
    package = cls.rsplit(".", 1)[0].replace(".", "/") + "/" if "." in cls else ""
    return package + source_file_of(method_id)


def _text(root: Path, relative: str) -> Optional[str]:
    try:
        if root.is_dir():
            path = root / relative
            return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        if root.is_file() and root.suffix in (".jar", ".zip"):
            with zipfile.ZipFile(root) as z:
                try:
                    return z.read(relative).decode("utf-8", errors="replace")
                except KeyError:
                    return None
    except (OSError, zipfile.BadZipFile):
        return None
    return None
