"""One batch's result: the instrumented classes, the support classes and the counter maps that decode them."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .counts import counts_from_values, layout_program
from .runtime import LAYOUT_RESOURCE, RUNTIME_CLASS


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

    def counts(self, values, lines: bool = False) -> dict:
        """The contract's JSON from this batch's raw counter values (``lines``: with per-line counts)."""
        return counts_from_values(self.reported(), values, self.inclusive_spec(), lines)

    def inclusive_spec(self) -> Optional[dict]:
        """{target id: (InclusiveTarget, [its closure's CounterMaps])}, or None."""
        if self.inclusive is None:
            return None
        by_method = {m.method: m for m in self.maps}
        return {str(t.method): (t, [by_method[x] for x in t.methods]) for t in self.inclusive}

    def layout(self) -> str:
        return layout_program([(str(m.method), m) for m in sorted(self.reported(), key=lambda m: str(m.method))],
                              self.inclusive_spec())

    def write(self, out_dir: Path, layout: bool = True) -> list[Path]:
        """Write every class file and (unless ``layout`` is false: nothing will run the exit hook, whose
        program it is) the layout resource under ``out_dir``, atomically per file."""
        written = []
        files = {f"{name}.class": data for name, data in self.classes.items()}
        if layout:
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
