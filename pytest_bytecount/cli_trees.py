"""The commands that draw kept calling-context trees (docs/trees.md), with no JVM:

    python -m pytest_bytecount flamegraph INPUT [--against OLD] [--test ID] [--output FILE.html] [--profiles DIR]
    python -m pytest_bytecount tree INPUT [--against OLD] [--test ID] [--share PERCENT]

INPUT is a ``--bytecount-json`` results file, a baseline file, its trees file or a folder of baselines
(:mod:`.regression.tree_inputs`). A results file compares each test's trees with its baseline's; ``--against``
compares with another input's instead (baselines as another branch has them, say).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .counting.counts.calltree import CallTree, changed_paths, render_path, render_tree
from .files import write_atomically
from .regression.flamegraph import flame_page
from .regression.profiles import write_profiles
from .regression.tree_inputs import TreeInputError, against, chosen, read_inputs


def add_parsers(sub) -> None:
    def inputs(sp, verb: str) -> None:
        sp.add_argument("input", metavar="INPUT", help="a --bytecount-json results file, a baseline file "
                                                       "(bytecount/test_x.json), its trees file or a folder of them")
        sp.add_argument("--against", metavar="OLD", help=f"{verb} each test against its trees in OLD (any of INPUT's "
                                                         "forms) instead of those kept with its baseline")
        sp.add_argument("--test", metavar="ID", help="only this test (a node id, its end after '::', or a key)")

    f = sub.add_parser("flamegraph", help="draw the kept calling-context trees as flame graphs (differential where "
                                          "there is something to compare with), in one HTML page")
    inputs(f, "compare")
    f.add_argument("--output", "-o", default="bytecount-flamegraph.html",
                   help="the HTML page to write (default: bytecount-flamegraph.html)")
    f.add_argument("--profiles", metavar="DIR", help="also write each test's trees as collapsed stacks and pprof "
                                                     "profiles there, as --bytecount-profiles does")
    t = sub.add_parser("tree", help="print the kept calling-context trees, and the call paths whose work changed")
    inputs(t, "compare")
    t.add_argument("--share", type=float, default=1.0, metavar="PERCENT",
                   help="sum a parent's children below this share of the work into one line (default: 1)")
    t.add_argument("--paths", type=int, default=5, metavar="N", help="call paths whose work changed to list (default: 5)")


def _tests(args) -> dict:
    tests = read_inputs(args.input)
    if args.against:
        tests = against(tests, read_inputs(args.against))
    return chosen(tests, args.test)


def run(args) -> int:
    try:
        tests = _tests(args)
    except TreeInputError as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    if args.command == "flamegraph":
        return _flamegraph(args, tests)
    if not 0 <= args.share < 100:
        print(f"bytecount: error: --share {args.share:g}: expected a percentage from 0 up to 100", file=sys.stderr)
        return 2
    sys.stdout.write(tree_text(tests, args.share / 100, args.paths))
    return 0


def _flamegraph(args, tests: dict) -> int:
    from .regression.report_html import CSS  # the report's look, flame graphs and all

    title = f"pytest-bytecount flame graphs: {args.input}" + (f" against {args.against}" if args.against else "")
    out = Path(args.output)
    try:
        write_atomically(out, flame_page(tests, title, CSS).encode("utf-8"))
        written = write_profiles(tests, Path(args.profiles)) if args.profiles else []
    except OSError as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    graphs = sum(len(t["trees"]) for t in tests.values())
    diffs = sum(1 for t in tests.values() for m in t["trees"] if (t.get("baseline_trees") or {}).get(m))
    print(f"bytecount: {graphs:,} flame graph{'s' if graphs != 1 else ''} ({diffs:,} differential) of "
          f"{len(tests):,} test{'s' if len(tests) != 1 else ''}: {out}", file=sys.stderr)
    if args.profiles:
        print(f"bytecount: {len(written):,} profile files in {args.profiles}", file=sys.stderr)
    return 0


def tree_text(tests: dict, share: float = 0.01, paths: int = 5) -> str:
    """Each test's trees: per target its totals, the paths whose work changed most (when there is a tree to compare
    with), and the tree of this run as indented lines."""
    out = []
    for label, t in tests.items():
        for method in sorted(t["trees"]):
            now = CallTree.from_dict(t["trees"][method])
            old = (t.get("baseline_trees") or {}).get(method)
            head = f"{label} {method}: {now.total():,} instructions in {len(now.nodes):,} nodes"
            if old:
                before = CallTree.from_dict(old)
                b, n = before.total(), now.total()
                head = (f"{label} {method}: {b:,} -> {n:,} instructions ({n - b:+,}"
                        + (f", {(n - b) / b * 100:+.1f}%)" if b else ")"))
                out.append(head)
                moves = changed_paths(now, before, limit=paths, rises_first=n >= b) if paths > 0 else []
                if moves:
                    out.append("  where the work went (call paths, most growth first):" if n > b else
                               "  where the work changed (call paths):")
                    shown = [(render_path(p), pb, pn) for p, pb, pn in moves]
                    width = max(len(p) for p, _, _ in shown)
                    out += [f"    {p:{width}} {pb:>14,} -> {pn:<14,} {pn - pb:+,}" for p, pb, pn in shown]
                else:
                    out.append("  the same work on every call path")
            else:
                out.append(head)
            out += ["  " + line for line in render_tree(now, share)]
            out.append("")
    return "\n".join(out) + ("\n" if out else "")

