"""``--bytecount-json=FILE``: every counted test's result, written as the session goes.

The file is valid JSON at every moment of the session. It starts as ``{}``; each result is added with a
single ``write`` over the closing brace (a process that dies, even by SIGKILL or a JVM crash, dies
before or after that write, never inside it), so the results of the tests finished before a crash are in
it. At the end of the session it is replaced, atomically, by the same results with sorted keys.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from .baseline import write_atomically


class ResultsFile:
    _CLOSE = b"\n}\n"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd: Optional[int] = None
        self._count = 0

    def add(self, nodeid: str, result: dict) -> None:
        if self._fd is None:
            write_atomically(self.path, b"{" + self._CLOSE)
            self._fd = os.open(self.path, os.O_WRONLY)
            self._end = 1 + len(self._CLOSE)
        entry = f"\n  {json.dumps(nodeid)}: {json.dumps(result, sort_keys=True)}".encode("utf-8")
        chunk = (b"," if self._count else b"") + entry + self._CLOSE
        at = self._end - len(self._CLOSE)
        os.lseek(self._fd, at, os.SEEK_SET)
        view = memoryview(chunk)
        while view:  # one write, in practice: the file holds the old text or the new one
            view = view[os.write(self._fd, view):]
        self._end = at + len(chunk)
        self._count += 1

    def finish(self, results: dict) -> None:
        self.close()
        write_atomically(self.path, (json.dumps(results, indent=2, sort_keys=True) + "\n").encode("utf-8"))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
