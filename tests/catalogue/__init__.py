"""A catalogue of realistic before/after changes to small Java code, to judge whether the plugin's verdicts
follow the real work.

Each case is one Java package ``cat.<name>`` under ``cases/<name>/``: its sources as they were
(``before/``) and after a change (``after/``), both laid out as a source folder (``cat/<name>/X.java``),
and one pytest module, ``test_<name>.py``, with one marked test. The test is the same before and after,
and passes functionally on both: the change leaves the Java result it asserts as it was, and only the
amount of work may differ. A case's kind says what the change does to that work:

- ``regression``: the AFTER version does asymptotically or substantially more work at the test's input
  size (10x or more), in the application's own code or inside the JDK;
- ``harmless``: the same work, or a few instructions more or less;
- ``fix``: the AFTER version does a tenth of the work or less (a performance fix), wherever that work is done.

``write_project`` lays all the cases out as one project (the BEFORE sources under ``src/``, every test
module under ``tests/``), ``use_sources`` switches every case to its BEFORE or AFTER sources, and
``outcomes`` and ``verdicts`` read a run's JUnit XML and ``--bytecount-json`` file back per case.
``benchmarks/catalogue.py`` and ``tests/plugin/test_catalogue.py`` both build the project with them.

The complexity catalogue (``tests/catalogue/complexity``) keeps its cases the same way: its ``Case`` shares
``CaseFiles`` below, and its functions are these ones given its own cases.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Collection, Dict, Iterable, Optional, Sequence, Tuple

CASES_DIR = Path(__file__).resolve().parent / "cases"
KINDS = ("regression", "harmless", "fix")
VERSIONS = ("before", "after")


class CaseFiles:
    """A case's files, for a catalogue whose cases are folders ``<cases_dir>/<name>/`` holding ``before/``,
    ``after/`` and ``test_<name>.py``, the Java package ``<root_package>.<name>``. A catalogue's ``Case``
    dataclass derives from it and has the fields ``name``, ``kind`` and ``marker`` (a field or a property)."""

    cases_dir: ClassVar[Path] = CASES_DIR
    root_package: ClassVar[str] = "cat"
    marker_alone: ClassVar[bool] = False  # the marker line must hold the marker and nothing more
    name: str
    kind: str
    marker: str

    @property
    def folder(self) -> Path:
        return self.cases_dir / self.name

    @property
    def package(self) -> str:
        return f"{self.root_package}.{self.name}"

    @property
    def test_module(self) -> Path:
        return self.folder / f"test_{self.name}.py"

    @property
    def marker_line(self) -> str:
        """The test module's marker line as the entry writes it (its line end too when ``marker_alone``)."""
        return f"@pytest.mark.bytecount({self.marker})" + ("\n" if self.marker_alone else "")

    def sources(self, version: str) -> Dict[str, str]:
        """The version's Java sources: {path under the source folder: text}."""
        if version not in VERSIONS:
            raise ValueError(f"version must be one of {VERSIONS}, not {version!r}")
        root = self.folder / version
        return {path.relative_to(root).as_posix(): path.read_text() for path in sorted(root.rglob("*.java"))}

    def check_sources(self, version: str) -> None:
        """The version holds Java files of the case's package only."""
        sources = self.sources(version)
        if not sources:
            raise ValueError(f"{self.name}: no Java sources in {self.folder / version}")
        for rel, text in sources.items():
            if not rel.startswith(f"{self.root_package}/{self.name}/") or f"package {self.package};" not in text:
                raise ValueError(f"{self.name}: {version}/{rel} is not in package {self.package}")


@dataclass(frozen=True)
class Case(CaseFiles):
    name: str  # the case's folder, the Java package cat.<name> and the test module test_<name>.py
    kind: str  # "regression", "harmless" or "fix"
    marker: str  # the arguments of the test's @pytest.mark.bytecount(...), as written in the module
    description: str  # the change, in one line


CASES: Tuple[Case, ...] = (
    # --- regressions: the AFTER version does much more work ---
    Case("dedupe", "regression", '"cat.dedupe.Dedupe#firstOccurrences"',
         "seen-check on a HashSet replaced by List.contains on the result list (O(n) -> O(n^2), inside the JDK)"),
    Case("lookup", "regression", '"cat.lookup.PriceList#orderTotal"',
         "price table by ISBN built as a TreeMap instead of a HashMap (a String compareTo per tree level)"),
    Case("search", "regression", '"cat.search.Ledger#indexOf"',
         "binary search over the sorted ledger turned into a linear scan (own code, log n -> n per look-up)"),
    Case("memo", "regression", '"cat.memo.Routes#walk"',
         "memo table removed from the recursive route count (201 calls -> 369,511 calls)"),
    Case("linked", "regression", '"cat.linked.Sales#weeklyTotals"',
         "list read with get(i) in an index loop built as a LinkedList instead of an ArrayList (O(n^2) in the JDK)"),
    Case("concat", "regression", '"cat.concat.CsvLine#join"',
         "StringBuilder loop replaced by String += in the loop (each step copies the whole line)"),
    Case("sortonce", "regression", '"cat.sortonce.Recall#countRecalled"',
         "recall list sorted (a fresh copy) before every binary search instead of once before all of them"),
    Case("prefix", "regression", '"cat.prefix.Revenue#rangeTotals"',
         "prefix sums computed once replaced by summing each range's days in a loop (own code)"),
    Case("earlyexit", "regression", '"cat.earlyexit.Restock#firstEmptySlot"',
         "return on the first empty slot removed: the scan goes on to the aisle's end (own code)"),
    Case("queue", "regression", '"cat.queue.ImportQueue#chunks"',
         "ArrayDeque.poll() replaced by ArrayList.remove(0) in the task queue loop (each take shifts the queue)"),
    Case("regex", "regression", '"cat.regex.AccessLog#countValidClients"',
         "IPv4 Pattern compiled once replaced by String.matches, which compiles the regex per log line"),
    Case("inchelper", "regression", '"cat.inchelper.Bookings#summary", inclusive=True',
         "inclusive: the private helper counting distinct sorted slots goes from one pass to a nested loop"),
    Case("inccall", "regression", '"cat.inccall.Latency#spread", inclusive=True',
         "inclusive: the min/max pass replaced by a call to the application's insertion sort"),
    Case("incswap", "regression", '"cat.incswap.Report#summary", inclusive=True, tolerance="inclusive=20%"',
         "inclusive: the application helper the target calls counts distinct tags with List.contains, not a HashSet"),
    # --- harmless: the same work, or a few instructions ---
    Case("rename", "harmless", '"cat.rename.Invoice#totalDue"',
         "locals and a parameter renamed, a comment added above the method (same bytecode, lines shift)"),
    Case("linkedset", "harmless", '"cat.linkedset.Tags#distinctTags"',
         "seen-set built as a LinkedHashSet instead of a HashSet"),
    Case("appendonly", "harmless", '"cat.appendonly.Overdue#overdueTotal"',
         "append-only list iterated with for-each built as a LinkedList instead of an ArrayList"),
    Case("extract", "harmless", '"cat.extract.Shipping#costCents", inclusive=True, tolerance="inclusive=5%"',
         "inclusive: the weight-summing loop extracted into a private helper"),
    Case("foreach", "harmless", '"cat.foreach.Sensor#alarms"',
         "index loop over the readings array turned into an enhanced for"),
    Case("reorder", "harmless", '"cat.reorder.Discounts#bestPercent"',
         "methods reordered in the class and a javadoc added (same bytecode, lines shift)"),
    # --- fixes: the AFTER version does far less work, some of it moved from the JDK into the method ---
    Case("bagfix", "fix", '"cat.bagfix.Stock#missing", deep=True',
         "deep: ArrayList.remove(Object) per order line replaced by a count map built in the method's own loop"),
    Case("retainfix", "fix", '"cat.retainfix.Audience#returning", deep=True',
         "deep: retainAll given the list itself (a contains scan per element) replaced by a HashSet of it"),
)

BY_NAME: Dict[str, Case] = {case.name: case for case in CASES}


def select(names: Optional[Iterable[str]] = None) -> Tuple[Case, ...]:
    """The cases named (all of them when ``names`` is empty or None), in the catalogue's order."""
    if not names:
        return CASES
    names = list(names)
    unknown = [name for name in names if name not in BY_NAME]
    if unknown:
        raise KeyError(f"no such case: {', '.join(unknown)} (cases: {', '.join(BY_NAME)})")
    return tuple(case for case in CASES if case.name in names)


def check(case: CaseFiles) -> None:
    """A case's files agree with its entry: both versions hold the Java sources its ``check_sources`` asks
    for (here: Java files of package cat.<name> only), and the test module is there with the marker line as
    the entry writes it."""
    if case.kind not in KINDS:
        raise ValueError(f"{case.name}: kind {case.kind!r} is not one of {KINDS}")
    for version in VERSIONS:
        case.check_sources(version)
    if case.marker_line not in case.test_module.read_text():
        raise ValueError(f"{case.name}: {case.test_module.name} has no @pytest.mark.bytecount({case.marker})")


def write_project(root: Path, cases: Sequence[CaseFiles] = CASES, java_home: Optional[str] = None,
                  test_text: Optional[Callable[[CaseFiles], str]] = None, deep: Optional[bool] = None) -> Path:
    """One project in ``root`` holding ``cases``: the BEFORE sources under src/, the test modules under
    tests/ (copied, or each as ``test_text(case)`` gives it), a pyproject.toml that compiles src/ (with
    ``java_home``'s JDK, when given; with the ``deep`` setting, when given) and collects tests/."""
    root = Path(root)
    for case in cases:
        check(case)
    java = f'java-home = "{java_home}"\n' if java_home else ""
    if deep is not None:
        java += f"deep = {str(deep).lower()}\n"
    (root / "pyproject.toml").write_text(
        f'[tool.bytecount]\nsources = ["src"]\n{java}\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    tests = root / "tests"
    tests.mkdir(parents=True, exist_ok=True)
    for case in cases:
        if test_text is None:
            shutil.copyfile(case.test_module, tests / case.test_module.name)
        else:
            (tests / case.test_module.name).write_text(test_text(case))
    use_sources(root, "before", cases)
    return root


def use_sources(root: Path, version: str, cases: Sequence[CaseFiles] = CASES) -> None:
    """Replace each case's package under ``root``/src with its ``version`` ("before" or "after")."""
    for case in cases:
        package = Path(root) / "src" / case.root_package / case.name
        if package.exists():
            shutil.rmtree(package)
        for rel, text in case.sources(version).items():
            path = Path(root) / "src" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


def case_of(nodeid: str, names: Collection[str] = BY_NAME) -> Optional[str]:
    """The case among ``names`` a test's node id belongs to (``tests/test_<name>.py::...``), or None."""
    module = nodeid.split("::", 1)[0]
    if not (module.startswith("tests/test_") and module.endswith(".py")):
        return None
    name = module[len("tests/test_"):-len(".py")]
    return name if name in names else None


def outcomes(junit_xml: Path, names: Collection[str] = BY_NAME) -> Dict[str, str]:
    """Each case's pytest outcome ("passed", "failed", "error" or "skipped") from a run's ``--junitxml`` file:
    pytest's own record, whatever the plugin's version. Only the cases among ``names`` count."""
    out: Dict[str, str] = {}
    for testcase in ET.parse(junit_xml).getroot().iter("testcase"):
        module = testcase.get("classname", "").replace(".", "/")
        name = case_of(f"{module}.py::{testcase.get('name')}", names)
        if name is None:
            continue
        tags = {child.tag for child in testcase}
        outcome = ("failed" if "failure" in tags else "error" if "error" in tags
                   else "skipped" if "skipped" in tags else "passed")
        if out.get(name) in (None, "passed"):  # a teardown error adds a second entry: the worse one wins
            out[name] = outcome
    return out


def verdicts(results_json: Path, names: Collection[str] = BY_NAME) -> Dict[str, dict]:
    """Each case's result (among ``names``) from a run's ``--bytecount-json`` file: ``{"status", "message",
    ...}``."""
    results = json.loads(Path(results_json).read_text())
    return {name: result for nodeid, result in results.items() if (name := case_of(nodeid, names)) is not None}


def first_line(text: str) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""
