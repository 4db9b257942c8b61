"""``@pytest.mark.bytecount``: its options read into one typed object, and the checks of its use made at
collection (a wrong marker fails its own test, before its setup)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..counting.options import CountingOptions
from ..regression.budgets import BudgetError, named_figures, parse_budgets
from ..regression.compare import ToleranceError, named_metrics, parse_tolerances

MARKER = "bytecount"
MARKER_OPTIONS = {"tolerance", "budget", "strict", "abrupt", "allocations", "inclusive", "max_invocations", "in_place",
                  "loader_scope", "deep"}
LOADER_SCOPES = ("test", "module", "session")
MARKER_HELP = (
    "bytecount(*targets, tolerance=None, budget=None, strict=None, abrupt=False, allocations=False, inclusive=False, "
    "max_invocations=None, in_place=None, loader_scope='test', deep=None): count executed bytecode of the target Java "
    "methods (pkg.Cls#method, pkg.Cls, pkg.**) and compare it with the stored baseline; every target must run, "
    "unless max_invocations caps it; budget='deep<=N, ...' sets fixed ceilings (never accepted by an update); "
    "in_place=True counts the classes where the application loads them, "
    "loader_scope='module' or 'session' shares one class loader among tests (static state carries over in both); "
    "every test also counts, per target, the work it does anywhere, the JDK included (deep counts, docs/deep.md), "
    "unless deep=False; deep=True makes a JVM that cannot take them an error instead of a flat run")
WEIGHTS_HOW = ("no weight table is active: set [tool.bytecount] weights = \"default\" (or a TOML file) or pass "
               "--bytecount-weights=default")
NO_WEIGHTS = f"sets a cost tolerance, but {WEIGHTS_HOW}"
NO_WEIGHTS_BUDGET = f"bounds cost, but {WEIGHTS_HOW}"
HYPOTHESIS = ("its counts would sum every example Hypothesis draws, and the examples change from run to run (and "
              "with the database and shrinking), so no baseline could hold them; count fixed inputs instead: a "
              "plain test with @pytest.mark.parametrize over the inputs you care about, beside the @given test "
              "without the marker")
# a budget's figure that only the marker's option makes the counts record
NEEDS_OPTION = {"inclusive": ("inclusive", "inclusive=True"), "abrupt": ("abrupt", "abrupt=True"),
                "allocated": ("allocations", "allocations=True"), "elements": ("allocations", "allocations=True")}


@dataclass(frozen=True)
class BytecountMarker:
    """A test's marker, as the fixture and the verdict use it (after :func:`marker_problems` found none)."""

    targets: tuple
    tolerance: str = ""
    budget: object = None  # the marker's budget spec (a string, or a number for the figure that decides)
    strict: bool = False
    abrupt: bool = False
    allocations: bool = False
    inclusive: bool = False
    max_invocations: Optional[int] = None
    in_place: Optional[bool] = None  # None: as the in-place setting says
    loader_scope: str = "test"  # how widely a loader is shared: test, module or session
    deep: Optional[bool] = None  # as the marker says; None: as the deep setting says, deep by default

    @classmethod
    def of(cls, item) -> Optional["BytecountMarker"]:
        """The closest ``bytecount`` marker of ``item``, or None for an unmarked test."""
        marker = item.get_closest_marker(MARKER)
        if marker is None:
            return None
        kw = marker.kwargs
        deep = None if kw.get("deep") is None else bool(kw.get("deep"))
        return cls(tuple(marker.args), kw.get("tolerance") or "", kw.get("budget"), bool(kw.get("strict")),
                   bool(kw.get("abrupt")),
                   bool(kw.get("allocations")), bool(kw.get("inclusive")), kw.get("max_invocations"),
                   None if kw.get("in_place") is None else bool(kw.get("in_place")), kw.get("loader_scope") or "test",
                   deep)

    def takes_deep(self, setting: Optional[bool]) -> bool:
        """Whether the test takes deep counts: as its marker says, else as the ``deep`` setting says (None: not
        set), else yes: every marked test sees all the work by default."""
        return self.deep if self.deep is not None else setting if setting is not None else True

    def asks_deep(self, setting: Optional[bool]) -> bool:
        """Whether deep counts were asked for (the marker's ``deep=True``, or ``deep = true`` set where the marker
        says nothing): a JVM that cannot take them is then an error. Taken by default, they fall back to flat."""
        return self.deep is True or (self.deep is None and setting is True)

    def counting_options(self, in_place: bool, deep: bool) -> CountingOptions:
        """How its targets are counted: the marker's options, the settings' ``in_place`` where the marker leaves it
        open (None), and ``deep``, whether the test takes deep counts (:meth:`takes_deep`)."""
        return CountingOptions(self.targets, abrupt=self.abrupt, allocations=self.allocations, inclusive=self.inclusive,
                               in_place=in_place if self.in_place is None else self.in_place, deep=deep)


def is_marked(item) -> bool:
    return item.get_closest_marker(MARKER) is not None


def unmarked(nodeid: str) -> str:
    return (f"{nodeid} uses the bytecount fixture but has no @pytest.mark.bytecount marker: name the "
            f"methods to count, e.g. @pytest.mark.bytecount(\"pkg.Cls#method\")")


def option_problems(targets, options) -> list:
    """What is wrong with a marker's target patterns and options on their own (empty when nothing is): the
    checks the ``bytecount`` decorator makes when a test module is imported, and collection makes again."""
    problems = []
    in_place = options.get("in_place")
    if in_place is not None and not isinstance(in_place, bool):
        problems.append(f"in_place must be True or False, got {in_place!r}")
    if in_place and options.get("inclusive"):
        problems.append("inclusive counts are made in the test's own class loader only: drop in_place=True or "
                        "inclusive=True")
    deep = options.get("deep")
    if deep is not None and not isinstance(deep, bool):
        problems.append(f"deep must be True or False, got {deep!r}")
    scope = options.get("loader_scope", "test")
    if scope not in LOADER_SCOPES:
        problems.append(f"loader_scope must be one of {', '.join(repr(s) for s in LOADER_SCOPES)}, got {scope!r}")
    elif scope != "test" and (in_place or options.get("inclusive")):
        other = "in_place=True (which counts in the application's loaders)" if in_place else "inclusive=True"
        problems.append(f"loader_scope={scope!r} shares a test's own class loader; it does not go with {other}")
    limit = options.get("max_invocations")
    if limit is not None and (type(limit) is not int or limit < 0):
        problems.append(f"max_invocations must be a whole number >= 0, got {limit!r}")
    if not targets or not all(isinstance(a, str) and a.strip() for a in targets):
        problems.append(f"@pytest.mark.bytecount needs one or more target patterns (strings such as "
                        f"'demo.Sorting#insertionSort'), got {tuple(targets)!r}")
    unknown = set(options) - MARKER_OPTIONS
    if unknown:
        problems.append(f"unknown @pytest.mark.bytecount option(s) {sorted(unknown)}; known: {sorted(MARKER_OPTIONS)}")
    if "tolerance" in options:
        try:
            parse_tolerances(options["tolerance"] or "")
        except (ToleranceError, AttributeError) as e:
            problems.append(str(e))
    if options.get("budget") is not None:
        problems += budget_problems(options)
    return problems


def budget_problems(options) -> list:
    """What is wrong with a marker's budget: its spec, or a figure the marker's own options keep the counts from
    recording (``deep`` with ``deep=False``, ``inclusive`` without ``inclusive=True``, ...)."""
    try:
        figures = named_figures(parse_budgets(options["budget"]))
    except BudgetError as e:
        return [str(e)]
    problems = []
    for figure in sorted(figures):
        option, needed = NEEDS_OPTION.get(figure, (None, None))
        if option is not None and not options.get(option):
            problems.append(f"budget {options['budget']!r} bounds {figure}, which the counts record only with "
                            f"{needed}: add it to the marker")
        if figure in ("deep", "copied") and options.get("deep") is False:
            problems.append(f"budget {options['budget']!r} bounds {figure}, a deep count, and the marker says "
                            f"deep=False: bound total (or the figure that decides, budget=N) instead")
    return problems


def marker_problems(item, weights_active: Callable[[], bool]) -> list:
    """What is wrong with how ``item`` uses the marker and the fixture (empty when nothing is).
    ``weights_active`` is asked only for a marker with a cost tolerance (it loads the settings)."""
    marker = item.get_closest_marker(MARKER)
    uses_fixture = "bytecount" in getattr(item, "fixturenames", ())  # items that are not functions have none
    if marker is None:
        return [unmarked(item.nodeid)] if uses_fixture else []
    problems = []
    if not uses_fixture:
        problems.append(f"{item.nodeid} is marked @pytest.mark.bytecount but does not use the bytecount "
                        f"fixture, so nothing it runs is counted: take a bytecount argument and load the "
                        f"classes with bytecount.jclass(...) (with in_place=True, the argument alone: the "
                        f"classes are counted where the application loads them)")
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        problems.append(f"{item.nodeid} is a Hypothesis @given test: {HYPOTHESIS}")
    problems += [f"{item.nodeid}: {p}" for p in option_problems(marker.args, marker.kwargs)]
    if "tolerance" in marker.kwargs:
        try:
            parse_tolerances(marker.kwargs["tolerance"] or "")
            if "cost" in named_metrics(marker.kwargs["tolerance"] or "") and not weights_active():
                problems.append(f"{item.nodeid}: tolerance {marker.kwargs['tolerance']!r} {NO_WEIGHTS}")
        except (ToleranceError, AttributeError):
            pass  # option_problems named it
    if marker.kwargs.get("budget") is not None:
        try:
            if "cost" in named_figures(parse_budgets(marker.kwargs["budget"])) and not weights_active():
                problems.append(f"{item.nodeid}: budget {marker.kwargs['budget']!r} {NO_WEIGHTS_BUDGET}")
        except BudgetError:
            pass  # option_problems named it
    return problems
