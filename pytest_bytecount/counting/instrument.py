"""One instrumentation batch: resolve the targets on a classpath, count them, add the support class."""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

from ..classfile import ClassFormatError
from ..classfile.classpath import Classpath
from ..wording import counted
from .counts import counts_from_values
from .inclusive import INCLUSIVE_CLASS, InclusiveTarget, add_segment_boundary, plan_inclusive
from .inclusive_runtime import build_inclusive_class
from .runtime import LAYOUT_RESOURCE, RUNTIME_CLASS, build_runtime_class, layout_program
from .targets import resolve_targets
from .transform import STRATEGIES, Batch, instrument_class


@dataclass
class Instrumented:
    """Instrumented classes (and the support class) of one batch, with their counter maps."""

    classes: dict  # internal name -> bytes
    maps: list
    refused: list  # one clear message per method left uncounted because it would exceed 64 KB
    size: int
    inclusive: Optional[list] = None  # [InclusiveTarget] with inclusive counts: only these are reported

    def reported(self) -> list:
        """The maps whose methods get a top-level entry: every map, or with inclusive counts the targets'."""
        if self.inclusive is None:
            return self.maps
        targets = {t.method for t in self.inclusive}
        return [m for m in self.maps if m.method in targets]

    def counts(self, values) -> dict:
        """The contract's JSON from this batch's raw counter values."""
        return counts_from_values(self.reported(), values, self.inclusive_spec())

    def inclusive_spec(self) -> Optional[dict]:
        """{target id: (InclusiveTarget, [its closure's CounterMaps])}, or None."""
        if self.inclusive is None:
            return None
        by_method = {m.method: m for m in self.maps}
        return {str(t.method): (t, [by_method[x] for x in t.methods]) for t in self.inclusive}

    def layout(self) -> str:
        return layout_program([(str(m.method), m) for m in sorted(self.reported(), key=lambda m: str(m.method))],
                              self.inclusive_spec())

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
               allocations: bool = False, inclusive: bool = False) -> Instrumented:
    """Count the methods matched by ``patterns``. ``strategy``: ``block`` (counters on basic blocks, the
    default) or ``instruction`` (one increment per executed instruction, ByCounter's reference).
    ``cache_dir``: reuse and keep results there (see :mod:`.cache`). ``abrupt``: also tally invocations
    that end by an exception (under ``"abrupt"``). ``allocations``: also record objects and arrays
    created and the arrays' lengths (under ``"allocations"``). ``inclusive``: also instrument every
    application method the targets may reach and report per target the counts of its linked callees
    (under ``"inclusive"``, see :mod:`.inclusive`); only the targets get top-level entries."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown counting strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    patterns = list(patterns)
    key = None
    if cache_dir is not None:
        from . import cache

        options = f"{strategy} abrupt={abrupt} allocations={allocations}" + (" inclusive" if inclusive else "")
        key = cache.batch_key(classpath, patterns, options, every_class=inclusive)
        hit = cache.load(cache_dir, key) if key else None
        if hit is not None:
            return hit
    batch = Batch(strategy, abrupt=abrupt, allocations=allocations)
    result = _instrument(classpath, patterns, progress, batch, inclusive)
    if key is not None:
        cache.store(cache_dir, key, result)
    return result


def _instrument(classpath: Classpath, patterns: list, progress, batch: Batch, inclusive: bool = False) -> Instrumented:
    targets = resolve_targets(patterns, classpath)
    if inclusive:
        batch.inclusive = plan_inclusive(classpath, targets)
        targets = batch.inclusive.by_class()
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
    if batch.inclusive is not None:
        return _with_inclusive(classes, batch, refused)
    classes[RUNTIME_CLASS] = build_runtime_class(batch.size, batch.arities or {("I", 1)})
    return Instrumented(classes, batch.maps, refused, batch.size)


def _with_inclusive(classes: dict, batch: Batch, refused: list) -> Instrumented:
    """Add the support classes of an inclusive batch: per target a copy of the flat layout after it."""
    plan = batch.inclusive
    flat = max(batch.size, 1)
    size = flat * (1 + len(plan.targets))
    if size >= 2 ** 31 - 8:
        raise ClassFormatError(f"inclusive counts of {counted(len(plan.targets), 'target')} over {flat} counters need "
                               f"{size} counters, more than one Java array holds: target fewer methods")
    instrumented = {m.method for m in batch.maps}
    targets = [InclusiveTarget(t, flat * (1 + i), [m for m in plan.closures[t] if m in instrumented])
               for i, t in enumerate(plan.targets) if t in instrumented]
    for name in plan.boundary_classes():
        data = classes.get(name) or plan.hierarchy.classpath.read(name)
        classes[name] = add_segment_boundary(data, plan)
    arities = set(batch.arities) | {("J", 1)}  # Inclusive.pop commits one long at a time
    classes[RUNTIME_CLASS] = build_runtime_class(size, arities)
    classes[INCLUSIVE_CLASS] = build_inclusive_class(flat, len(plan.targets), batch.arities)
    return Instrumented(classes, batch.maps, refused, size, targets)


def stderr_progress(done: int, total: int, name: str) -> None:
    if total >= 50 and (done % 50 == 0 or done == total):
        print(f"bytecount: instrumented {done}/{total} classes", file=sys.stderr, flush=True)
