"""The catalogue of realistic Java changes (tests/catalogue), judged end to end: one project holding every
case, baselines recorded on the BEFORE sources, then one run on the AFTER sources.

What is asserted follows from the kind of change alone, whatever the plugin does inside: a change that
does much more work fails its test, and a change that leaves the target's bytecode as it was passes.
``python benchmarks/catalogue.py`` prints the same run as a table, with each verdict's first line.
"""

from __future__ import annotations

from tests.catalogue import BY_NAME, CASES, first_line, outcomes, use_sources, verdicts, write_project
from tests.support.pytest_project import JDK17, run

# The judging run's pytest outcome per case; None: not asserted (yet), because the kind of change alone
# does not decide it. Every AFTER version does the same as its BEFORE version for the test's input.
EXPECTED = {
    # regressions: the AFTER version does 10x or more the work at the test's input size
    "dedupe": "failed",  # a HashSet.add per id -> a List.contains scan of the result per id: O(n^2), in the JDK
    "lookup": "failed",  # HashMap -> TreeMap: each put and get walks ~15 tree levels of String compareTo, in the JDK
    "search": "failed",  # binary search -> linear scan, in the target's own loop: log n -> n steps per look-up
    "memo": "failed",  # memo removed: 201 calls of the recursive target -> 369,511 calls
    "linked": "failed",  # get(i) on a LinkedList walks from an end: O(n^2) in the JDK where ArrayList is O(n)
    "concat": "failed",  # String += copies the whole line per field: O(n^2) bytes, in the JDK
    "sortonce": "failed",  # one clone and sort -> a clone and sort per scanned barcode: 500 sorts instead of 1
    "prefix": "failed",  # O(1) per range from prefix sums -> a loop over each range's days, in the target
    "earlyexit": "failed",  # the scan stops at the first empty slot -> always runs to the aisle's end
    "queue": "failed",  # ArrayList.remove(0) shifts the whole queue per take: O(n^2) element moves, in the JDK
    "regex": "failed",  # the regex compiled once -> compiled again by String.matches for every log line
    "inchelper": "failed",  # inclusive: the helper the target calls goes from one pass to a nested loop
    "inccall": "failed",  # inclusive: an O(n) min/max pass -> a call to the application's O(n^2) insertion sort
    "incswap": "failed",  # inclusive: a counted helper's HashSet -> List.contains, a JDK call made 2,000 times
    # harmless changes
    "rename": "passed",  # renamed locals and a comment: the target's bytecode is the same, only lines shift
    "reorder": "passed",  # methods reordered, a javadoc added: the target's bytecode is the same, lines shift
    # fixes: the work falls tenfold or more, though the method's own instructions rise
    "bagfix": "passed",  # deep: a scan and shift of the stock list per order line -> a count map the method fills
    "retainfix": "passed",  # deep: retainAll scanning a list per element -> a HashSet built once
    "linkedset": None,  # LinkedHashSet links each new entry: a few more JDK instructions per element
    "appendonly": None,  # LinkedList appends a node where ArrayList grows an array: other JDK work of the same order
    "extract": "passed",  # a loop moved into a helper: the same work plus one call (inclusive=5% tolerates it)
    "foreach": None,  # an enhanced for keeps the array and its length in locals: a few instructions per pass
}


# Cases whose AFTER version swaps a collection class: the target's code is other code (javap shows another
# class), though its raw code bytes, indexes into the constant pool, are the same.
SWAPPED_COLLECTION = ("lookup", "linked", "linkedset", "appendonly")
# Regressions whose extra work is all inside the JDK, where the default counts stop: the first line must name
# the call and say that its own work is not counted.
WORK_IN_THE_JDK = {"dedupe": "java/util/List.contains(...)", "regex": "java/lang/String.matches(...)"}


def judged_after_change(pytester, deep):
    """The catalogue recorded on the BEFORE sources (every test passes), then judged on the AFTER ones: (pytest's
    outcome per case, the bytecount result per case). ``deep``: the project's setting (None: not set)."""
    write_project(pytester.path, CASES, java_home=JDK17, deep=deep)
    record = run(pytester, "--bytecount-update", "--junitxml=record.xml")
    assert outcomes(pytester.path / "record.xml") == {case.name: "passed" for case in CASES}, record.stdout.str()
    use_sources(pytester.path, "after", CASES)
    run(pytester, "--bytecount-json=results.json", "--junitxml=judge.xml")
    return outcomes(pytester.path / "judge.xml"), verdicts(pytester.path / "results.json")


def test_the_expectations_cover_the_catalogue_and_follow_each_kind():
    assert sorted(EXPECTED) == sorted(case.name for case in CASES)
    assert {case.name for case in CASES if EXPECTED[case.name] == "failed"} == {
        case.name for case in CASES if case.kind == "regression"}
    for name in (*SWAPPED_COLLECTION, *WORK_IN_THE_JDK):
        assert name in EXPECTED


def test_regressions_fail_and_unchanged_bytecode_passes(pytester):
    judged, results = judged_after_change(pytester, deep=False)  # flat counts, as deep=False gives them
    # the AFTER versions still pass functionally: recorded anew, every test passes
    rerecord = run(pytester, "--bytecount-update", "--junitxml=rerecord.xml")
    assert outcomes(pytester.path / "rerecord.xml") == {case.name: "passed" for case in CASES}, rerecord.stdout.str()

    wrong = {name: f"{judged.get(name)}, expected {expected}: "
                   f"{first_line(results.get(name, {}).get('message', '')) or '(no verdict text)'}"
             for name, expected in EXPECTED.items() if expected is not None and judged.get(name) != expected}
    assert wrong == {}

    # and for the right reason
    for name in SWAPPED_COLLECTION:
        message = results[name]["message"]
        assert "the method's bytecode changed since the baseline" in message and "same bytecode" not in message, name
    for name, call in WORK_IN_THE_JDK.items():
        assert first_line(results[name]["message"]).startswith(f"REGRESSED: new call {call} "), name
        assert "its own work is not counted" in first_line(results[name]["message"]), name
    # the extracted helper: only a call moved, and its work is counted in inclusive
    assert results["extract"]["status"] == "reshaped"
    assert first_line(results["extract"]["message"]).startswith(
        "reshaped: new call cat/extract/Shipping.totalGrams(...) 0 -> 2 (+2; its work is counted in inclusive)")
    # the fixes pass because the deep work fell, though the method's own instructions or calls rose
    for name in ("bagfix", "retainfix"):
        assert results[name]["status"] == "improved", (name, results[name]["message"])
        assert first_line(results[name]["message"]).startswith("improved: deep "), name
    # a counted helper's new JDK call fails under inclusive counts by itself (inclusive stays within its 20%)
    assert first_line(results["incswap"]["message"]).startswith(
        "REGRESSED: new call java/util/List.contains(...) 0 -> 2,000 (+2,000; its own work is not counted)")
    # the renamed and reordered code: not judged at all, since nothing moved
    assert results["rename"]["status"] == results["reorder"]["status"] == "passed"


# With the markers as users write them and deep counts taken by default: what each case's verdict must be, and the
# words its first line starts with (the reason). None: not asserted, for the same reasons as above.
DEEP_EXPECTED = {
    **{case.name: ("regressed", "REGRESSED: deep ") for case in CASES if case.kind == "regression"},
    "rename": ("passed", None), "reorder": ("passed", None),
    "bagfix": ("improved", "improved: deep "), "retainfix": ("improved", "improved: deep "),
    "extract": (None, None),  # the helper's call adds a few instructions to the deep work; inclusive=5% bounds it
    "linkedset": (None, None), "appendonly": (None, None), "foreach": (None, None),
}


# the frames the first call path must hold, in order, from each case's description: the target, then the culprit
FIRST_PATH = {
    "dedupe": ["Dedupe.firstOccurrences", "ArrayList.contains", "ArrayList.indexOfRange"],
    "lookup": ["PriceList.orderTotal", "TreeMap.put", "String.compareTo"],
    "search": ["Ledger.indexOf"], "memo": ["Routes.walk"], "prefix": ["Revenue.rangeTotals"],
    "earlyexit": ["Restock.firstEmptySlot"],
    "linked": ["Sales.weeklyTotals", "LinkedList.get"],
    "concat": ["CsvLine.join", "StringConcatHelper.simpleConcat"],
    "sortonce": ["Recall.countRecalled", "Arrays.sort"],
    "queue": ["ImportQueue.chunks", "ArrayList.remove"],
    "regex": ["AccessLog.countValidClients", "String.matches", "Pattern.compile"],
    "inchelper": ["Bookings.summary", "Bookings.distinctSorted"],
    "inccall": ["Latency.spread", "Sorting.insertionSorted"],
    "incswap": ["Report.summary", "Tags.distinct", "ArrayList.contains"],
    "bagfix": ["Stock.missing", "ArrayList.remove"],  # the fixes: the path that fell most is the one removed
    "retainfix": ["Audience.returning", "ArrayList.retainAll", "ArrayList.contains"],
}


def test_with_plain_markers_deep_counts_fail_every_regression_on_the_work_and_pass_every_fix(pytester):
    """The same catalogue with deep counts taken by default (no deep=False anywhere): every regression fails on the
    deep work itself, the JDK's included, whether its work is the target's own, a callee's or inside a JDK call,
    and the deep methods that grew are named; the fixes pass as improved; unchanged bytecode passes."""
    judged, results = judged_after_change(pytester, deep=None)
    wrong = {}
    for name, (status, start) in DEEP_EXPECTED.items():
        line = first_line(results.get(name, {}).get("message", ""))
        if status is not None and results.get(name, {}).get("status") != status:
            wrong[name] = f"{results.get(name, {}).get('status')}, expected {status}: {line}"
        elif start is not None and not line.startswith(start):
            wrong[name] = f"first line {line!r}, expected {start!r}..."
    assert wrong == {}
    assert {name for name, outcome in judged.items() if outcome == "failed"} >= {
        case.name for case in CASES if case.kind == "regression"}
    # where the work went: every regression's and fix's first call path leads from the target to the culprit its
    # description names (the culprit's frames in order; a path of the target alone where the work is its own code)
    assert set(FIRST_PATH) == {case.name for case in CASES if case.kind in ("regression", "fix")}
    wrong = {}
    for name, frames in FIRST_PATH.items():
        lines = results[name]["message"].splitlines()
        header = next((i for i, ln in enumerate(lines) if ln.startswith("    where the work") and "call paths" in ln), None)
        if header is None:
            wrong[name] = "no call paths"
            continue
        path, _, figures = lines[header + 1].strip().partition("  ")
        shown = path.split(" -> ")
        grew = figures.split()[-1].startswith("+")
        at = [shown.index(f) if f in shown else -1 for f in frames]
        if at[0] != 0 or -1 in at or at != sorted(at) or (frames == shown[:1] and len(shown) > 1) or \
                grew != (BY_NAME[name].kind == "regression"):
            wrong[name] = lines[header + 1].strip()
    assert wrong == {}
    # the extracted helper: inclusive=5% was written for the work before deep counts; it bounds the deep work too
    assert results["extract"]["status"] in ("passed", "reshaped"), results["extract"]["message"]
