"""Counted classes for a JVM without pytest: the files ``instrument`` writes, and their exit hook.

Each counted class comes with its own Counters class (:mod:`.per_class`), as the plugin's loader defines
them. Written to a folder (or a jar), each Counters class gets beside it its ``.layout`` resource (and with inclusive
counts its ``.links``, see :func:`~.counts.render.links_program`), and the folder gets ``Report``
(``Report.jasm``). Run with ``-Dbytecount.out=FILE``, every Counters class registers with ``Report`` as
it is initialised, and at exit ``Report`` runs the layouts of those registered over their counters and
writes the contract's JSON to FILE: the text ``count`` prints for the same run."""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from ...classfile.assemble import assemble
from ...files import write_atomically
from ..links.linkage import INCLUSIVE_BY_CLASS, inclusive_by_class_bytes
from ..instr.runtime import support_source

REPORT_CLASS = "pytest_bytecount/Report"


@lru_cache(maxsize=None)
def report_class_bytes() -> bytes:
    return assemble(support_source("Report.jasm"), "Report.jasm", {})


def counted_files(classes: Iterable) -> dict:
    """{relative path: bytes} of ``classes`` (:class:`~.per_class.CountedClass`), their Counters classes with
    their resources, and the support classes the exit hook and the links need."""
    classes = list(classes)
    files: dict = {f"{REPORT_CLASS}.class": report_class_bytes()}
    if any(c.inclusive for c in classes):
        files[f"{INCLUSIVE_BY_CLASS}.class"] = inclusive_by_class_bytes()
    for c in classes:
        files[f"{c.name}.class"] = c.data
        files[f"{c.counters_name}.class"] = c.counters_data
        files[f"{c.counters_name}.layout"] = c.layout().encode("utf-8")
        if c.inclusive:
            files[f"{c.counters_name}.links"] = c.links().encode("utf-8")
    return files


def write_files(files: dict, out_dir: Path) -> list:
    """Write ``files`` under ``out_dir``, each atomically (a reader never sees half a class); their paths."""
    written = []
    for rel, data in sorted(files.items()):
        path = Path(out_dir) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, data)
        written.append(path)
    return written


def write_jar(files: dict, jar: Path) -> list:
    """Write ``files`` into one jar at ``jar``, made beside it and renamed over it (a reader sees the old jar or
    the new one, whole): one file to create where a folder takes three per class. Entries are stored, not
    compressed (the JVM reads them as fast, and nothing is spent on compression); their names."""
    import zipfile

    jar = Path(jar)
    jar.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=f".{jar.name}-", suffix=".part", dir=jar.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as z:
            folders = sorted({rel.rsplit("/", i)[0] + "/" for rel in files for i in range(1, rel.count("/") + 1)})
            for folder in folders:  # folder entries first, as jar does: getResource on a package finds them
                z.writestr(zipfile.ZipInfo(folder, date_time=_JAR_TIME), b"")
            for rel, data in sorted(files.items()):
                z.writestr(zipfile.ZipInfo(rel, date_time=_JAR_TIME), data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(partial, 0o666 & ~mask)  # as a file the user writes (mkstemp's is the owner's alone)
        os.replace(partial, jar)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return sorted(files)


_JAR_TIME = (1980, 1, 1, 0, 0, 0)  # every entry's time: the same bytes for the same classes
