"""A disk cache of classes counted one at a time (:mod:`.per_class`): one file per counted class.

An entry is keyed by a SHA-256 over this plugin's version and source files (:func:`plugin_digest`),
the counting options, the class's matched methods and the class's own bytes; so two markers whose patterns
both match a class share its entry, and a changed class or plugin never reuses an old one. The file holds a
JSON header line (the counter maps as data, never pickle, and the SHA-256 of each part) followed by
the counted class, its Counters class and, for ``instrument``, its exit hook's programs as rendered. A read
re-hashes every part against the header: a torn or tampered entry is never used, it is rebuilt. Entries are written to a temporary file and renamed, so concurrent
runs and killed processes leave whole entries or none; a hit refreshes the file's modification time, so
the project cache can remove entries long unused.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Iterable, Optional

from ...version import __version__
from ..counts.countermap import CounterMap
from ..targets import MethodId

_plugin_digest: Optional[str] = None
FORMAT = 7  # 7: the exit hook's programs kept when rendered; 6: code fingerprints of resolved code; 5: counter maps carry line digests; 4: lines per instruction kind; 3: block_lines


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
        counters_end = data_end + int(header["counters_length"])
        data, counters, text = blob[header_end + 1:data_end], blob[data_end:counters_end], blob[counters_end:]
        if (hashlib.sha256(data).hexdigest() != header["data_sha256"]
                or hashlib.sha256(counters).hexdigest() != header["counters_sha256"]
                or hashlib.sha256(text).hexdigest() != header["text_sha256"]):
            return None
        rendered = None
        if header["layout_length"] is not None:
            layout_end = int(header["layout_length"])
            rendered = (text[:layout_end].decode("utf-8"), text[layout_end:].decode("utf-8"))
        counted = {"name": name, "data": data, "counters_name": str(header["counters_name"]),
                   "counters_data": counters, "maps": tuple(map_from_json(m) for m in header["maps"]),
                   "size": int(header["size"]), "refused": tuple(str(r) for r in header["refused"]),
                   "inclusive": bool(header["inclusive"]), "targets": tuple(str(t) for t in header["targets"]),
                   "rendered": rendered}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # missing, torn or foreign: rebuild
    try:
        os.utime(path)
    except OSError:
        pass
    return counted


def store(cache_dir: Path, entry_key: str, counted) -> None:
    """Write ``counted`` under ``entry_key``; best effort (a read-only or full disk only costs the speed-up)."""
    layout, links = (b"", b"") if counted.rendered is None else (t.encode("utf-8") for t in counted.rendered)
    header = {"format": FORMAT, "key": entry_key, "name": counted.name, "counters_name": counted.counters_name,
              "size": counted.size, "refused": list(counted.refused), "inclusive": counted.inclusive,
              "targets": list(counted.targets), "maps": [map_to_json(m) for m in counted.maps],
              "data_length": len(counted.data), "data_sha256": hashlib.sha256(counted.data).hexdigest(),
              "counters_length": len(counted.counters_data),
              "counters_sha256": hashlib.sha256(counted.counters_data).hexdigest(),
              "layout_length": None if counted.rendered is None else len(layout),
              "text_sha256": hashlib.sha256(layout + links).hexdigest()}
    blob = b"".join([_HEADER.encode(header).encode("utf-8"), b"\n", counted.data, counted.counters_data, layout, links])
    staging: Optional[str] = None
    try:
        try:
            fd, staging = _staging(cache_dir)
        except FileNotFoundError:
            Path(cache_dir).mkdir(parents=True, exist_ok=True)
            fd, staging = _staging(cache_dir)
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(staging, _path(cache_dir, entry_key))
        staging = None
    except OSError:
        pass
    finally:
        if staging is not None and os.path.exists(staging):
            os.unlink(staging)


# json.dumps(header, sort_keys=True), without the check for cycles (the header is a tree): the same text
_HEADER = json.JSONEncoder(sort_keys=True, check_circular=False)
_staged = itertools.count()


def _staging(cache_dir) -> tuple:
    """(descriptor, path) of a new file to write an entry into, only this process's: named after the process
    and a count (as mkstemp does, but without drawing random names); mkstemp's when that name is taken (left
    by a process of the same id)."""
    path = os.path.join(cache_dir, f".build-{os.getpid()}-{next(_staged)}.part")
    try:
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), path
    except FileExistsError:
        return tempfile.mkstemp(dir=cache_dir, prefix=".build-", suffix=".part")


def source_files() -> list:
    """The package's files that shape a counted class: its Python, and the assembly text of the support
    classes (``*.jasm``), which an entry holds assembled."""
    root = Path(__file__).resolve().parents[2]  # the package, not only this sub-package
    return sorted(p for p in root.rglob("*") if p.suffix in (".py", ".jasm"))


def plugin_digest() -> str:
    """The plugin version plus a hash of every file of :func:`source_files`."""
    global _plugin_digest
    if _plugin_digest is None:
        root = Path(__file__).resolve().parents[2]
        h = hashlib.sha256(__version__.encode())
        for f in source_files():
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
        _plugin_digest = h.hexdigest()
    return _plugin_digest


def map_to_json(m: CounterMap) -> dict:
    """The map's fields by name; block contents refer to the method's opcode, call and allocation lists by
    position, and coefficient pairs are flattened."""
    blocks = None
    if m.blocks is not None:
        index = [{k: i for i, k in enumerate(keys)} for keys in (m.opcodes, m.calls, m.allocs or ())]
        blocks = [[[x for k, v in part.items() for x in (ix[k], v)] for part, ix in zip(b, index)] for b in m.blocks]
    return {"method": [m.method.class_name, m.method.name, m.method.descriptor], "base": m.base,
            "opcodes": m.opcodes, "calls": m.calls, "code_fingerprint": m.code_fingerprint, "blocks": blocks,
            "block_exprs": None if m.block_exprs is None else [[x for t in e for x in t] for e in m.block_exprs],
            "invocation_expr": [x for t in m.invocation_expr for x in t], "counters": m.counters,
            "allocs": m.allocs, "elements": m.elements, "abrupt": None if m.abrupt is None else map_to_json(m.abrupt),
            "block_lines": m.block_lines, "lines": m.lines, "line_digests": m.line_digests}


def _pairs(flat: list) -> tuple:
    return tuple((int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2))


def map_from_json(d: dict) -> CounterMap:
    opcodes, calls, allocs, blocks, exprs = d["opcodes"], d["calls"], d["allocs"], d["blocks"], d["block_exprs"]
    if blocks is not None:
        keys = (opcodes, calls, allocs or [])
        blocks = [tuple({k[j]: v for j, v in _pairs(part)} for part, k in zip(b, keys)) for b in blocks]
    cls, name, desc = d["method"]
    return CounterMap(MethodId(str(cls), str(name), str(desc)), int(d["base"]), list(opcodes), list(calls),
                      str(d["code_fingerprint"]), blocks, None if exprs is None else [_pairs(e) for e in exprs],
                      _pairs(d["invocation_expr"]), int(d["counters"]), None if allocs is None else list(allocs),
                      list(d["elements"]), None if d["abrupt"] is None else map_from_json(d["abrupt"]),
                      None if d.get("block_lines") is None else [{str(k): int(v) for k, v in b.items()}
                                                                 for b in d["block_lines"]],
                      None if d.get("lines") is None else [str(k) for k in d["lines"]],
                      None if d.get("line_digests") is None else {str(k): str(v) for k, v in d["line_digests"].items()})
