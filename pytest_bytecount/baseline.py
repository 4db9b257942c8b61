"""Baseline files: one JSON file per test module, made to be reviewed and merged.

    {
      "format": 1,
      "tests": {
        "test_sort[10]": {
          "jvm": "17.0.19", "plugin": "0.1.0",
          "methods": {"demo.Sorting#insertionSort([I)V": {"bytecode_sha256": "...", "calls": {...},
                      "invocations": 1, "opcodes": {...}, "total": 970}}
        }
      }
    }

Keys are sorted and indented, one count a line, so a change is a small diff. Writes go to a temporary
file in the same folder and are renamed over the old one (atomic on POSIX and Windows). A file that does
not parse is an error naming it; it is never overwritten silently.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

FORMAT = 1


class BaselineError(ValueError):
    """A baseline file that cannot be read or written."""


@dataclass
class BaselineFile:
    path: Path
    tests: dict = field(default_factory=dict)  # test key -> {"jvm", "plugin", "methods": {...}}
    exists: bool = False

    @classmethod
    def load(cls, path: Path) -> "BaselineFile":
        path = Path(path)
        if not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise BaselineError(f"baseline file {path} is not valid JSON ({e}); fix it by hand or delete it "
                                f"and re-record with --bytecount-update") from None
        if not isinstance(data, dict) or not isinstance(data.get("tests"), dict):
            raise BaselineError(f"baseline file {path} does not hold a 'tests' table; fix it by hand or delete it "
                                f"and re-record with --bytecount-update")
        version = data.get("format")
        if version != FORMAT:
            raise BaselineError(f"baseline file {path} has format {version!r}; this pytest-bytecount reads format "
                                f"{FORMAT}. Upgrade pytest-bytecount, or re-record with --bytecount-update")
        for key, entry in data["tests"].items():
            if not isinstance(entry, dict) or not isinstance(entry.get("methods"), dict) or not all(
                    isinstance(m, dict) and isinstance(m.get("total"), int) and isinstance(m.get("invocations"), int)
                    for m in entry["methods"].values()):
                raise BaselineError(f"baseline file {path}: entry {key!r} is malformed (each method needs integer "
                                    f"'total' and 'invocations'); fix it or re-record with --bytecount-update")
        return cls(path, data["tests"], True)

    def get(self, test_key: str) -> Optional[dict]:
        entry = self.tests.get(test_key)
        return None if entry is None else entry["methods"]

    def render(self) -> str:
        return json.dumps({"format": FORMAT, "tests": self.tests}, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = self.render()
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        self.exists = True
