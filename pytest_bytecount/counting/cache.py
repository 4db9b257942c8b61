"""A disk cache of instrumented batches, so that repeated runs skip parsing and rewriting.

An entry is keyed by a SHA-256 over: this plugin's version and the bytes of its own source files (a
changed transform never reuses an old entry), the counting strategy, the target patterns, and the name
and SHA-256 of every class whose name a pattern's class part matches (the classes resolution reads).
The entry holds the instrumented class files, the counter maps as JSON (data only, never pickle) and a
manifest with the SHA-256 of every stored file. A hit re-hashes every stored file against the manifest:
a stale, torn or tampered entry is never used, it is rebuilt. Entries are published atomically (built in
a temporary folder, then renamed), so concurrent runs and killed processes leave whole entries or none.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterable, Optional

from .. import __version__
from ..classfile.classpath import Classpath
from .inclusive import InclusiveTarget
from .instrumented import Instrumented
from .targets import MethodId, TargetPattern
from .countermap import CounterMap

FORMAT = 8  # 8: code fingerprints of resolved code; 7: line digests; 6: lines per instruction kind; 5: block_lines; 4: counter maps by field name (3 held them as positional lists)
_plugin_digest: Optional[str] = None


def source_files() -> list:
    """The package's files that shape an instrumented batch: its Python, and the assembly text of the support
    classes (``*.jasm``), which a batch's entry holds assembled."""
    root = Path(__file__).resolve().parents[1]  # the package, not only this sub-package
    return sorted(p for p in root.rglob("*") if p.suffix in (".py", ".jasm"))


def plugin_digest() -> str:
    """The plugin version plus a hash of every file of :func:`source_files`."""
    global _plugin_digest
    if _plugin_digest is None:
        root = Path(__file__).resolve().parents[1]
        h = hashlib.sha256(__version__.encode())
        for f in source_files():
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
        _plugin_digest = h.hexdigest()
    return _plugin_digest


def batch_key(classpath: Classpath, patterns: Iterable[str], strategy: str, every_class: bool = False) -> Optional[str]:
    """The cache key of a batch, or None when a pattern does not parse (the caller then reports it).
    ``strategy``: the strategy and every option that changes the instrumented bytes, as one string.
    ``every_class``: hash every class of the classpath, not only those a pattern names (inclusive
    counts instrument whatever the targets may reach)."""
    patterns = list(patterns)
    try:
        parsed = [TargetPattern.parse(p) for p in patterns]
    except ValueError:
        return None
    h = hashlib.sha256(f"bytecount-batch {FORMAT}\0{plugin_digest()}\0{strategy}\0".encode())
    for p in patterns:
        h.update(p.encode() + b"\0")
    for name in classpath.class_names():
        dotted = name.replace("/", ".")
        if every_class or any(p.matches_class(dotted) for p in parsed):
            h.update(name.encode() + b"\0" + hashlib.sha256(classpath.read(name)).digest())
    return h.hexdigest()


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


def _file_name(internal_name: str) -> str:
    # a flat, safe file name per class: no path separators, no "..", bounded length
    return hashlib.sha256(internal_name.encode()).hexdigest()[:32] + ".class"


def load(cache_dir: Path, key: str):
    """The cached :class:`~pytest_bytecount.counting.instrumented.Instrumented` for ``key``, or None."""
    entry = Path(cache_dir) / key
    try:
        manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT or manifest.get("key") != key:
            return None
        classes = {}
        for name, digest in manifest["classes"].items():
            data = (entry / _file_name(name)).read_bytes()
            if hashlib.sha256(data).hexdigest() != digest:
                return None
            classes[name] = data
        maps = [map_from_json(d) for d in manifest["maps"]]
        inclusive = manifest.get("inclusive")
        if inclusive is not None:
            inclusive = [InclusiveTarget(MethodId(*t[0]), int(t[1]), [MethodId(*m) for m in t[2]]) for t in inclusive]
        result = Instrumented(classes, maps, list(manifest["refused"]), int(manifest["size"]), inclusive)
        _mark_used(entry)
        return result
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # missing, torn or foreign: rebuild


def _mark_used(entry: Path) -> None:
    """A hit refreshes the entry's modification time: a cache owner may remove entries long unused."""
    try:
        os.utime(entry)
    except OSError:
        pass


def store(cache_dir: Path, key: str, result) -> None:
    """Publish ``result`` under ``key``; best effort (a read-only or full disk only costs the speed-up)."""
    cache_dir = Path(cache_dir)
    final = cache_dir / key
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=cache_dir, prefix=".build-"))
    except OSError:
        return
    try:
        digests = {}
        for name, data in result.classes.items():
            (staging / _file_name(name)).write_bytes(data)
            digests[name] = hashlib.sha256(data).hexdigest()
        manifest = {"format": FORMAT, "key": key, "classes": digests, "maps": [map_to_json(m) for m in result.maps],
                    "refused": result.refused, "size": result.size}
        if result.inclusive is not None:
            def ident(m):
                return [m.class_name, m.name, m.descriptor]
            manifest["inclusive"] = [[ident(t.method), t.base, [ident(m) for m in t.methods]] for t in result.inclusive]
        (staging / "manifest.json").write_text(json.dumps(manifest, sort_keys=True), encoding="utf-8")
        if final.exists():  # a bad entry (load refused it): replace it
            shutil.rmtree(final, ignore_errors=True)
        os.replace(staging, final)
    except OSError:
        pass
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
