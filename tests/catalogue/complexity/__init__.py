"""A catalogue of realistic before/after changes to small Java methods, to judge the plugin's complexity checks
(``bytecount.scaling``) against the orders the algorithms have.

Each case is one Java package ``cx.<name>`` under ``cases/<name>/``: its sources as they were (``before/``) and
after a change (``after/``), both laid out as a source folder (``cx/<name>/X.java``), and one pytest module,
``test_<name>.py``, holding one complexity check written as a user writes it: a marker naming the method and no
other option, and ``bytecount.scaling(SIZES, lambda n: ...)`` over sizes 256 to 4096. Each method builds its input
in Java from n, deterministically. The orders before and after are what the algorithm does, reasoned from the
code (see each case's ``why``), never taken from a run; linear code is ``n``. A case's kind:

- ``regression``: the AFTER version has a worse order; the check must fail with ``COMPLEXITY GOT WORSE`` naming
  ``after``;
- ``harmless``: the same order; the check must not report a worse one;
- ``fix``: the same or a better order, usually with far less work; the check must not report a worse one.

``write_project`` lays the cases out as one project (BEFORE sources under ``src/``, the test modules under
``tests/``); with ``deep=False`` every marker gets ``deep=False`` (the flat counts of the target's own body, for
comparison), with ``deep=True`` every marker says it. ``use_sources`` switches the cases' sources; ``outcomes``,
``verdicts``, ``recorded_orders``, ``scaling_of``, ``order_line`` and ``worse_order`` read a run back per case. ``benchmarks/complexity_catalogue.py`` and
``tests/plugin/test_complexity_catalogue.py`` both build the project with them.

A case's files, the project's layout and the reading back of pytest's outcomes and the results are the counts
catalogue's (``tests.catalogue``), given these cases.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Dict, Optional, Sequence, Tuple

import tests.catalogue as catalogue
from tests.catalogue import KINDS, VERSIONS, CaseFiles, check

__all__ = ["BY_NAME", "CASES", "CASES_DIR", "KINDS", "VERSIONS", "WORSE", "Case", "case_of", "check", "order_line",
           "outcomes", "recorded_orders", "scaling_of", "use_sources", "verdicts", "worse_order", "write_project"]

CASES_DIR = Path(__file__).resolve().parent / "cases"
WORSE = "COMPLEXITY GOT WORSE"


@dataclass(frozen=True)
class Case(CaseFiles):
    cases_dir: ClassVar[Path] = CASES_DIR
    root_package: ClassVar[str] = "cx"
    marker_alone: ClassVar[bool] = True  # a user's check: the marker names the method and no other option
    name: str  # the folder, the Java package cx.<name> and the test module test_<name>.py
    kind: str  # "regression", "harmless" or "fix"
    cls: str  # the class, in package cx.<name>
    method: str  # the static method the test marks and runs: method(int n)
    before: str  # the order of the BEFORE version's work, reasoned from its code
    after: str  # the order of the AFTER version's work
    description: str  # the change, in one line
    why: str  # why the orders are what they are

    @property
    def marker(self) -> str:
        return f'"cx.{self.name}.{self.cls}#{self.method}"'

    @property
    def method_prefix(self) -> str:
        """The start of the method's id in results and baselines: ``cx.name.Cls#method(``."""
        return f"cx.{self.name}.{self.cls}#{self.method}("

    def check_sources(self, version: str) -> None:
        """The version holds the class in package cx.<name>, with the method."""
        text = self.sources(version).get(f"cx/{self.name}/{self.cls}.java", "")
        if f"package cx.{self.name};" not in text or f"public static int {self.method}(int n)" not in text \
                and f"public static long {self.method}(int n)" not in text:
            raise ValueError(f"{self.name}: {version} has no cx.{self.name}.{self.cls}#{self.method}(int n)")


def _c(name, kind, cls, method, before, after, description, why) -> Case:
    return Case(name, kind, cls, method, before, after, description, why)


CASES: Tuple[Case, ...] = (
    # --- regressions: the AFTER version's order is worse ---
    _c("contains", "regression", "Customers", "firstSeen", "n", "n^2",
       "seen-check on a HashSet replaced by List.contains on the result list",
       "n/2 distinct ids: each contains() scans up to n/2 elements, ~n^2/8 equals calls in ArrayList#indexOfRange"),
    _c("queue", "regression", "ImportQueue", "process", "n", "n^2",
       "ArrayDeque.poll() replaced by ArrayList.remove(0) in the task loop",
       "~1.4n takes, each remove(0) shifts the rest of the list: ~n^2 elements moved by native array copies"),
    _c("concat", "regression", "CsvLine", "join", "n", "n^2",
       "StringBuilder loop replaced by line = line + field + ','",
       "each step copies the whole line so far (4 bytes a field): ~2n^2 bytes moved by native copies"),
    _c("linked", "regression", "Sales", "total", "n", "n^2",
       "list read with get(i) in an index loop built as a LinkedList instead of an ArrayList",
       "LinkedList.get(i) walks from the nearer end: ~n^2/4 node steps in LinkedList#node"),
    _c("treemap", "regression", "PriceList", "orderTotal", "n", "n log n",
       "price table by ISBN built as a TreeMap instead of a HashMap",
       "each put and get walks log2 n tree levels, a String compareTo per level; the HashMap hashes once"),
    _c("hashcode", "regression", "Tiles", "distinct", "n", "n^2",
       "Tile.hashCode() returns the layer only, and every tile is on layer 0",
       "one bucket: HashMap treeifies it, but Tile is not Comparable, so each add searches the whole tree "
       "(HashMap$TreeNode#find): n/2 distinct tiles, ~n^2/4 node visits"),
    _c("sortloop", "regression", "Recall", "countRecalled", "n log n", "n^2",
       "the sorted copy of the recall list made inside the loop over the shipments (n/16 of them) instead of once",
       "before: one sort (n log n) and n binary searches (n log n); after: n/16 copies and sorts, n^2/16 log n. "
       "Over the fitted sizes log n grows only 1.33x while n^2 grows 64x, so n^2 fits it far better than n^3 "
       "(which would need 512x): expected n^2"),
    _c("binsearch", "regression", "Ledger", "matched", "n log n", "n^2",
       "binary search of each payment in the sorted ledger replaced by a linear scan (own code)",
       "n look-ups of log2 n halvings each, against a scan of ~n/2 entries per look-up"),
    _c("quadloop", "regression", "Readings", "aboveAverage", "n", "n^2",
       "running sum of the earlier readings replaced by summing them again for each reading (own code)",
       "the inner loop runs i times for reading i: n^2/2 additions"),
    _c("retain", "regression", "Audience", "returning", "n", "n^2",
       "own loop over a HashSet of last month's visitors replaced by thisMonth.retainAll(lastMonthList)",
       "retainAll calls lastMonth.contains() per element, an ArrayList scan of up to n: ~n^2 equals calls"),
    # --- harmless: the same order ---
    _c("extract", "harmless", "Invoice", "totalCents", "n", "n",
       "the per-line price computation extracted into a private helper",
       "the same n iterations plus one call each"),
    _c("stream", "harmless", "Parcels", "heavyGrams", "n", "n",
       "an index loop over an ArrayList replaced by stream().filter().mapToLong().sum() over the same list",
       "the stream visits each of the n elements once; its set-up is constant"),
    _c("linkedmap", "harmless", "WordCount", "distinctWords", "n", "n",
       "word counts kept in a LinkedHashMap instead of a HashMap",
       "the same hashing, plus a constant link per new entry"),
    _c("precheck", "harmless", "Histogram", "buckets", "n", "n",
       "a constant-time check of the argument added at the top",
       "one comparison more, whatever n"),
    _c("growing", "harmless", "Partition", "split", "n", "n",
       "two ArrayLists that grew as they filled presized to n",
       "growing by half each time copies ~2n elements in all (amortized linear), presized copies none: "
       "both linear"),
    # --- fixes: the same or a better order ---
    _c("containsfix", "fix", "Tags", "distinct", "n^2", "n",
       "List.contains on the result list replaced by a seen HashSet",
       "n/2 distinct tags: each contains() scanned up to n/2 Strings; HashSet.add hashes once"),
    _c("queuefix", "fix", "PrintSpool", "pages", "n^2", "n",
       "ArrayList.remove(0) in the spool loop replaced by ArrayDeque.poll()",
       "each remove(0) shifted the rest of the list (n^2/2 elements copied); poll() moves a head index"),
    _c("concatfix", "fix", "Report", "render", "n^2", "n",
       "text += line in the loop replaced by a StringBuilder",
       "each += copied the whole text so far; append copies the new line only (growth amortized)"),
    _c("sortcall", "fix", "Leaderboard", "median", "n^2", "n log n",
       "the method's own insertion sort replaced by one Arrays.sort call",
       "insertion sort of a pseudo-random array shifts ~n^2/4 elements; Arrays.sort is n log n"),
    _c("copycall", "fix", "Snapshot", "latest", "n", "n",
       "the method's own copy loop replaced by one Arrays.copyOf call",
       "both copy n elements once (the JDK's by a native copy)"),
)

BY_NAME: Dict[str, Case] = {case.name: case for case in CASES}


def write_project(root: Path, cases: Sequence[Case] = CASES, java_home: Optional[str] = None,
                  deep: Optional[bool] = None) -> Path:
    """One project in ``root`` holding ``cases`` with their BEFORE sources; the markers as written (``deep``
    None), or each given ``deep=False`` (the flat variant) or ``deep=True``."""
    def test_text(case: Case) -> str:
        text = case.test_module.read_text()
        if deep is None:
            return text
        return text.replace(case.marker_line, f"@pytest.mark.bytecount({case.marker}, deep={deep})\n")
    return catalogue.write_project(root, cases, java_home, test_text)


def use_sources(root: Path, version: str, cases: Sequence[Case] = CASES) -> None:
    """Replace each case's package under ``root``/src with its ``version`` ("before" or "after")."""
    catalogue.use_sources(root, version, cases)


def case_of(nodeid: str) -> Optional[str]:
    """The case a test's node id belongs to (``tests/test_<name>.py::...``), or None."""
    return catalogue.case_of(nodeid, BY_NAME)


def outcomes(junit_xml: Path) -> Dict[str, str]:
    """Each case's pytest outcome ("passed", "failed", "error" or "skipped") from a run's ``--junitxml`` file."""
    return catalogue.outcomes(junit_xml, BY_NAME)


def verdicts(results_json: Path) -> Dict[str, dict]:
    """Each case's result from a run's ``--bytecount-json`` file: ``{"status", "message", "scaling", ...}``."""
    return catalogue.verdicts(results_json, BY_NAME)


def recorded_orders(root: Path, cases: Sequence[Case] = CASES) -> Dict[str, Optional[str]]:
    """The order each case's baseline file stores for its method (None: no complexity baseline)."""
    out: Dict[str, Optional[str]] = {}
    for case in cases:
        path = Path(root) / "tests" / "bytecount" / f"test_{case.name}.json"
        stored = json.loads(path.read_text()) if path.exists() else {}
        orders = [entry["order"] for test in stored.get("tests", {}).values()
                  for method, entry in test.get("scaling", {}).items() if method.startswith(case.method_prefix)]
        out[case.name] = orders[0] if len(orders) == 1 else None
    return out


def recorded_series(root: Path, cases: Sequence[Case] = CASES) -> Dict[str, tuple]:
    """The sizes and counts each case's baseline file stores for its method's complexity check."""
    out: Dict[str, tuple] = {}
    for case in cases:
        stored = json.loads((Path(root) / "tests" / "bytecount" / f"test_{case.name}.json").read_text())
        (entry,) = [entry for test in stored["tests"].values() for method, entry in test.get("scaling", {}).items()
                    if method.startswith(case.method_prefix)]
        out[case.name] = (entry["sizes"], entry["values"])
    return out


def scaling_of(case: Case, result: dict) -> dict:
    """The case's method's entry of a result's ``scaling`` ({"order", "exponent", "values", ...}), or {}."""
    methods = (result.get("scaling") or {}).get("methods", {})
    return next((s for m, s in methods.items() if m.startswith(case.method_prefix)), {})


def order_line(result: dict) -> str:
    """The line of a result's message that reports a worse order, or ""."""
    return next((line for line in (result.get("message") or "").splitlines() if f": {WORSE}: " in line), "")


def worse_order(result: dict) -> Optional[str]:
    """The new order a ``COMPLEXITY GOT WORSE`` line names (``... -> n^2, exponent 2.00 ...``), or None."""
    match = re.search(r" -> (.+?), exponent ", order_line(result))
    return match[1] if match else None
