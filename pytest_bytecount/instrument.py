"""One instrumentation batch: resolve the targets on a classpath, count them, add the support class."""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

from .classfile import ClassFormatError
from .classpath import Classpath
from .runtime_class import LAYOUT_RESOURCE, RUNTIME_CLASS, build_runtime_class, layout_program
from .targets import resolve_targets
from .transform import STRATEGIES, Batch, instrument_class


@dataclass
class Instrumented:
    """Instrumented classes (and the support class) of one batch, with their counter maps."""

    classes: dict  # internal name -> bytes
    maps: list
    refused: list  # one clear message per method left uncounted because it would exceed 64 KB
    size: int

    def layout(self) -> str:
        return layout_program([(str(m.method), m) for m in sorted(self.maps, key=lambda m: str(m.method))])

    def write(self, out_dir: Path) -> list[Path]:
        """Write every class file and the layout resource under ``out_dir``, atomically per file."""
        written = []
        files = {f"{name}.class": data for name, data in self.classes.items()}
        files[f"{RUNTIME_CLASS.rsplit('/', 1)[0]}/{LAYOUT_RESOURCE}"] = self.layout().encode("utf-8")
        for rel, data in files.items():
            path = Path(out_dir) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".part")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
            written.append(path)
        return written


def instrument(classpath: Classpath, patterns: Iterable[str], progress: Optional[callable] = None,
               strategy: str = "block", cache_dir: Optional[Path] = None, abrupt: bool = False,
               allocations: bool = False) -> Instrumented:
    """Count the methods matched by ``patterns``. ``strategy``: ``block`` (counters on basic blocks, the
    default) or ``instruction`` (one increment per executed instruction, ByCounter's reference).
    ``cache_dir``: reuse and keep results there (see :mod:`.cache`). ``abrupt``: also tally invocations
    that end by an exception (under ``"abrupt"``). ``allocations``: also record objects and arrays
    created and the arrays' lengths (under ``"allocations"``)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown counting strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    patterns = list(patterns)
    key = None
    if cache_dir is not None:
        from . import cache

        key = cache.batch_key(classpath, patterns, f"{strategy} abrupt={abrupt} allocations={allocations}")
        hit = cache.load(cache_dir, key) if key else None
        if hit is not None:
            return hit
    result = _instrument(classpath, patterns, progress, Batch(strategy, abrupt=abrupt, allocations=allocations))
    if key is not None:
        cache.store(cache_dir, key, result)
    return result


def _instrument(classpath: Classpath, patterns: list, progress, batch: Batch) -> Instrumented:
    targets = resolve_targets(patterns, classpath)
    classes = {}
    refused = []
    for i, (name, methods) in enumerate(targets.items()):
        try:
            result = instrument_class(classpath.read(name), methods, batch)
        except ClassFormatError as e:
            raise ClassFormatError(f"class {name.replace('/', '.')} ({classpath.location(name)}) cannot be "
                                   f"instrumented: {e}") from None
        classes[name] = result.data
        refused += result.refused
        if progress is not None:
            progress(i + 1, len(targets), name)
    classes[RUNTIME_CLASS] = build_runtime_class(batch.size, batch.arities or {("I", 1)})
    return Instrumented(classes, batch.maps, refused, batch.size)


def stderr_progress(done: int, total: int, name: str) -> None:
    if total >= 50 and (done % 50 == 0 or done == total):
        print(f"bytecount: instrumented {done}/{total} classes", file=sys.stderr, flush=True)
