"""Writing a file so that a reader never sees it half written, below every layer."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, renamed over it: another
    process reading ``path`` meanwhile sees the old file or the new one, whole. Nothing is left behind
    when the write fails (the error is raised)."""
    path = Path(path)
    fd, partial = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
