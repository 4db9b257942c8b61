"""Which test modules a run collected in full, and the tests each holds: the proof a stale baseline entry needs.

A run can be narrowed in many ways (``-k``, ``-m``, node ids, ``--deselect``, ``--lf``, ``--ff``, ``--sw``,
a plugin that drops items, xdist). Rather than list them, this looks at what each collector itself
returned (``pytest_make_collect_report``, as the innermost wrapper: before ``--lf``'s wrapper filters a
module's items, and ``-k`` or a plugin's ``pytest_collection_modifyitems`` come later still). A module is
collected in full when it and every collector under it (classes, say) reported ``passed``, the module
with a non-empty result: an empty module proves nothing, because ``--lf`` skips whole modules that way.
A test missing from a module collected in full is proven gone; a test merely left out of the run is not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest

from .baseline_keys import baseline_key


class FullCollection:
    """What one process saw collectors return (on an xdist worker: sent to the controller at the end)."""

    def __init__(self):
        self._children: Dict[str, Optional[List[tuple]]] = {}  # collector id -> [(child id, its baseline key
        # when it is an item, else None)], or None when its report proves nothing (failed, skipped, an empty file)
        self._files: Dict[str, Path] = {}  # file collector id -> its path
        self._elsewhere: Dict[str, Set[str]] = {}  # module path -> test keys, from xdist workers

    def seen(self, collector, report) -> None:
        """A collector's own report, before any plugin narrowed its result."""
        is_file = isinstance(collector, pytest.File)
        result = list(report.result or ()) if report.passed else None
        proves = result is not None and (bool(result) or not is_file)
        self._children[collector.nodeid] = [(c.nodeid, baseline_key(c) if isinstance(c, pytest.Item) else None)
                                            for c in result] if proves else None
        if is_file:
            self._files[collector.nodeid] = Path(collector.path)

    def add(self, modules: Dict[str, List[str]]) -> None:
        """Modules another process (an xdist worker) collected in full: :meth:`modules` of its own."""
        for module, keys in modules.items():
            self._elsewhere.setdefault(module, set()).update(keys)

    def modules(self) -> Dict[str, List[str]]:
        """``{module path: [test keys]}`` for the modules collected in full (a key as in the baseline files:
        :func:`~.baseline_keys.baseline_key`)."""
        out = {module: sorted(keys) for module, keys in self._elsewhere.items()}
        for nodeid, path in self._files.items():
            items = self._items(nodeid)
            if items is not None:
                out[str(path)] = sorted(items)
        return out

    def _items(self, nodeid: str) -> Optional[Set[str]]:
        """The baseline keys of the items under a collector, or None when some collector under it was not
        collected in full."""
        children = self._children.get(nodeid)
        if children is None:
            return None
        items: Set[str] = set()
        for child, key in children:
            if key is not None:
                items.add(key)
                continue
            below = self._items(child)
            if below is None:
                return None
            items |= below
        return items
