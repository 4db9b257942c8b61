"""One instrumentation batch: resolve the targets on a classpath, count them, add the support class."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, Optional

from ..classfile import ClassFormatError
from ..classfile.classpath import Classpath
from ..wording import counted
from . import cache
from .inclusive import INCLUSIVE_CLASS, InclusiveTarget, add_segment_boundary, plan_inclusive
from .inclusive_runtime import build_inclusive_class
from .instrumented import Instrumented
from .runtime import RUNTIME_CLASS, build_runtime_class
from .targets import resolve_targets
from .transform import STRATEGIES, Batch, instrument_class


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
