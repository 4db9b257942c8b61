"""Each counted test's result (:class:`TestResult`) and ``--bytecount-json=FILE``, where they are written as
the session goes.

The file is valid JSON at every moment of the session. It starts as ``{}``; each result is added with a
single ``write`` over the closing brace (a process that dies, even by SIGKILL or a JVM crash, dies
before or after that write, never inside it), so the results of the tests finished before a crash are in
it. At the end of the session it is replaced, atomically, by the same results with sorted keys.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .baseline import write_atomically


@dataclass
class TestResult:
    """One counted test's result: its status (:mod:`.status`), counts, and what the verdict was made of.

    :meth:`to_dict` is its one JSON shape: what ``--bytecount-json`` writes, what the HTML report reads and
    what travels from an xdist worker to the controller."""

    __test__ = False  # a result, not a test class for pytest to collect

    nodeid: str
    baseline: str  # the baseline file ("" when the settings are unusable)
    key: str  # the test's key in that file
    status: str
    counts: dict = field(default_factory=dict)  # method id -> counts in the contract's shape
    jvm: Optional[str] = None  # the JVM's version, once one ran
    plugin: str = ""  # pytest-bytecount's version
    baseline_counts: Optional[dict] = None  # the stored counts the verdict compared with
    method_status: dict = field(default_factory=dict)  # method id -> its own verdict
    tripped: dict = field(default_factory=dict)  # method id -> the figures that decided its verdict
    message: str = ""  # the verdict's text
    weights: Optional[str] = None  # the cost weight table, when one is active
    scaling: Optional[dict] = None  # the complexity check (ScalingResult.to_dict), when the test made one
    test_outcome: Optional[str] = None  # pytest's outcome, once the result reached the controller
    hints: list = field(default_factory=list)  # lines that may explain the counts (plugin.fixture hints)
    mode: Optional[str] = None  # "in-place" when counted where the application loads the classes
    accept: Optional[str] = None  # the command that re-records this test, with the options in force
    deep_runtime: Optional[dict] = None  # with deep counts: the runtime they depend on (jvm.deep.runtime)
    loose_deep: Optional[dict] = None  # deep counts compared loosely (another class library): deep_band.to_dict
    flat_only: Optional[str] = None  # compared on flat counts only: the side without deep counts (counts_verdict)
    fell_back: Optional[bool] = None  # True: it takes deep counts by default, and this JVM could not take them
    command_id: Optional[str] = None  # the id printed commands name the test by (plugin.baseline_keys.command_id)
    trees: Optional[dict] = None  # with deep counts: method id -> its calling-context tree (CallTree.to_dict)
    baseline_trees: Optional[dict] = None  # the trees kept with the baseline the verdict compared with
    callee_code: Optional[dict] = None  # application callees' code fingerprints, kept with the trees when recorded
    callees_changed: Optional[dict] = None  # method id -> its application callees whose code changed since the baseline
    budgets: Optional[list] = None  # each budget checked: BudgetCheck.to_dict (regression.budgets)
    shard: Optional[str] = None  # the CI shard that ran it (--bytecount-shard, or a CI's parallel-job variables)

    @property
    def test_id(self) -> str:
        """The id commands name the test by: the node id's file part and the baseline key, one for every
        repetition a plugin makes of the test (``plugin.baseline_keys``)."""
        if "::" not in self.nodeid or not self.key:
            return self.nodeid
        return f"{self.nodeid.split('::', 1)[0]}::{self.key}"

    def to_dict(self) -> dict:
        out = {"nodeid": self.nodeid, "baseline": self.baseline, "key": self.key, "status": self.status,
               "counts": self.counts, "jvm": self.jvm, "plugin": self.plugin,
               "baseline_counts": self.baseline_counts, "method_status": self.method_status,
               "tripped": self.tripped, "message": self.message}
        optional = {"weights": self.weights, "scaling": self.scaling, "test_outcome": self.test_outcome,
                    "hints": self.hints or None, "mode": self.mode, "accept": self.accept,
                    "deep_runtime": self.deep_runtime, "loose_deep": self.loose_deep, "flat_only": self.flat_only,
                    "fell_back": self.fell_back, "command_id": self.command_id, "trees": self.trees,
                    "baseline_trees": self.baseline_trees, "callee_code": self.callee_code,
                    "callees_changed": self.callees_changed, "budgets": self.budgets,
                    "shard": self.shard}
        out.update((name, value) for name, value in optional.items() if value is not None)  # only when set
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "TestResult":
        return cls(**data)


def as_json(results: dict) -> dict:
    """``{nodeid: TestResult}`` in the shape of ``--bytecount-json``."""
    return {nodeid: result.to_dict() for nodeid, result in results.items()}


class ResultsFile:
    _CLOSE = b"\n}\n"

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd: Optional[int] = None
        self._count = 0
        self._end = 0  # where the closing brace starts, plus its length, once the file exists

    def add(self, nodeid: str, result: TestResult) -> None:
        if self._fd is None:
            write_atomically(self.path, b"{" + self._CLOSE)
            self._fd = os.open(self.path, os.O_WRONLY)
            self._end = 1 + len(self._CLOSE)
        entry = f"\n  {json.dumps(nodeid)}: {json.dumps(result.to_dict(), sort_keys=True)}".encode("utf-8")
        chunk = (b"," if self._count else b"") + entry + self._CLOSE
        at = self._end - len(self._CLOSE)
        os.lseek(self._fd, at, os.SEEK_SET)
        view = memoryview(chunk)
        while view:  # one write, in practice: the file holds the old text or the new one
            view = view[os.write(self._fd, view):]
        self._end = at + len(chunk)
        self._count += 1

    def finish(self, results: dict) -> None:
        self.close()
        write_atomically(self.path, (json.dumps(as_json(results), indent=2, sort_keys=True) + "\n").encode("utf-8"))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
