"""A disk cache of classes counted one at a time (:mod:`.per_class`): one file per counted class.

An entry is keyed by a SHA-256 over this plugin's version and source files (:func:`.cache.plugin_digest`),
the counting options, the class's matched methods and the class's own bytes; so two markers whose patterns
both match a class share its entry, and a changed class or plugin never reuses an old one. The file holds a
JSON header line (the counter maps as data, never pickle, and the SHA-256 of each class file) followed by
the counted class and its Counters class. A read re-hashes both against the header: a torn or tampered
entry is never used, it is rebuilt. Entries are written to a temporary file and renamed, so concurrent
runs and killed processes leave whole entries or none; a hit refreshes the file's modification time, so
the project cache can remove entries long unused.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Iterable, Optional

from .cache import map_from_json, map_to_json, plugin_digest

FORMAT = 6  # 6: code fingerprints of resolved code; 5: counter maps carry line digests; 4: lines per instruction kind; 3: block_lines


def key(data: bytes, methods: Iterable[tuple], options: str) -> str:
    """The entry's key: plugin, ``options``, the (name, descriptor) pairs counted, the class bytes."""
    h = hashlib.sha256(f"bytecount-class {FORMAT}\0{plugin_digest()}\0{options}\0".encode())
    for name, descriptor in sorted(methods):
        h.update(f"{name}{descriptor}\0".encode())
    h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def _path(cache_dir: Path, entry_key: str) -> Path:
    return Path(cache_dir) / f"{entry_key}.class-entry"


def load(cache_dir: Path, entry_key: str, name: str) -> Optional[dict]:
    """The fields of the cached :class:`~.per_class.CountedClass` of class ``name`` under ``entry_key``
    (by name), or None."""
    path = _path(cache_dir, entry_key)
    try:
        blob = path.read_bytes()
        header_end = blob.index(b"\n")
        header = json.loads(blob[:header_end].decode("utf-8"))
        if header.get("format") != FORMAT or header.get("key") != entry_key or header.get("name") != name:
            return None
        data_end = header_end + 1 + int(header["data_length"])
        data, counters = blob[header_end + 1:data_end], blob[data_end:]
        if (hashlib.sha256(data).hexdigest() != header["data_sha256"]
                or hashlib.sha256(counters).hexdigest() != header["counters_sha256"]):
            return None
        counted = {"name": name, "data": data, "counters_name": str(header["counters_name"]),
                   "counters_data": counters, "maps": tuple(map_from_json(m) for m in header["maps"]),
                   "size": int(header["size"]), "refused": tuple(str(r) for r in header["refused"]),
                   "inclusive": bool(header["inclusive"]), "targets": tuple(str(t) for t in header["targets"])}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # missing, torn or foreign: rebuild
    try:
        os.utime(path)
    except OSError:
        pass
    return counted


def store(cache_dir: Path, entry_key: str, counted) -> None:
    """Write ``counted`` under ``entry_key``; best effort (a read-only or full disk only costs the speed-up)."""
    header = {"format": FORMAT, "key": entry_key, "name": counted.name, "counters_name": counted.counters_name,
              "size": counted.size, "refused": list(counted.refused), "inclusive": counted.inclusive,
              "targets": list(counted.targets), "maps": [map_to_json(m) for m in counted.maps],
              "data_length": len(counted.data), "data_sha256": hashlib.sha256(counted.data).hexdigest(),
              "counters_sha256": hashlib.sha256(counted.counters_data).hexdigest()}
    blob = json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + counted.data + counted.counters_data
    staging: Optional[str] = None
    try:
        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        fd, staging = tempfile.mkstemp(dir=cache_dir, prefix=".build-", suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(staging, _path(cache_dir, entry_key))
        staging = None
    except OSError:
        pass
    finally:
        if staging is not None and os.path.exists(staging):
            os.unlink(staging)
