"""The project's cache folder, ``.bytecount-cache/`` next to pyproject.toml (javac's output for ``sources``,
classes counted one at a time). Like pytest's ``.pytest_cache/`` it ignores itself (a ``.gitignore`` of ``*``) and
says what it is (``CACHEDIR.TAG``, which backup tools skip). It stays bounded: the first use in a run removes
the entries that no run has used for :data:`UNUSED_DAYS` days (a use refreshes an entry's modification time).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Optional

from ..files import write_atomically

CACHE_FOLDER = ".bytecount-cache"
KINDS = ("classes", "counted")  # one folder of entries (folders or files) per kind
RETIRED = ("instrumented",)  # kinds older versions wrote and none reads: removed whole
UNUSED_DAYS = 30
GITIGNORE = "# Created by pytest-bytecount automatically.\n*\n"
# https://bford.info/cachedir/ : the signature line must come first, byte for byte
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by pytest-bytecount.\n"
                "# For information about cache directory tags, see https://bford.info/cachedir/\n")


def project_cache(root: Path) -> Path:
    """``root/.bytecount-cache``, made if missing, with its ``.gitignore`` and ``CACHEDIR.TAG``. Best
    effort: a read-only project only loses the cache, and the callers already cope with that."""
    folder = Path(root) / CACHE_FOLDER
    try:
        folder.mkdir(exist_ok=True)
        for name, text in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", CACHEDIR_TAG)):
            if not (folder / name).exists():
                write_atomically(folder / name, text.encode("utf-8"))
    except OSError:
        pass
    return folder


def remove_unused(folder: Path, now: Optional[float] = None, days: float = UNUSED_DAYS) -> list:
    """Remove the entries of ``folder`` (a project cache) unused for ``days`` days; return their paths.
    Folders being built (``.build-*``) older than that are left-overs of killed runs and go too."""
    limit = (time.time() if now is None else now) - days * 86400
    removed = []
    for kind in RETIRED:
        retired = Path(folder) / kind
        if retired.is_dir():
            shutil.rmtree(retired, ignore_errors=True)
            removed.append(retired)
    for kind in KINDS:
        try:
            entries = list((Path(folder) / kind).iterdir())
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat().st_mtime >= limit:
                    continue
                # rename first: a run that reads the entry meanwhile sees it whole or gone, and rebuilds it
                graveyard = Path(tempfile.mkdtemp(dir=entry.parent, prefix=".removing-"))
                os.replace(entry, graveyard / "entry")
            except OSError:
                continue  # another run removed or refreshed it
            shutil.rmtree(graveyard, ignore_errors=True)
            removed.append(entry)
    return removed
