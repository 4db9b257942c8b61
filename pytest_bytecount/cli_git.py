"""The commands that work on baselines as git holds them (docs/ci.md), with no JVM:

    python -m pytest_bytecount merge-driver %O %A %B %P
    python -m pytest_bytecount history [PATHS...] [--test ID] [--html FILE]

``merge-driver`` is git's merge driver for baseline files (``.gitattributes``: ``tests/bytecount/*.json
merge=bytecount``): it merges the three versions test by test, writes a valid file to %A, and marks an entry both
branches changed as conflicted, to be re-recorded. ``history`` walks ``git log`` of baseline files and prints, per test,
the deciding figure at each commit that changed its entry.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .files import write_atomically
from .regression.git import GitError
from .regression.history import HistoryError, baseline_files, history, render_history, trend_page
from .regression.merge_files import MergeError, is_trees_file, merge_baselines, merge_trees
from .wording import counted


def add_parsers(sub) -> None:
    m = sub.add_parser("merge-driver", help="git's merge driver for baseline files: merge test by test, and mark an "
                                            "entry both branches changed to be re-recorded")
    m.add_argument("base", metavar="O", help="the common ancestor's version (git's %%O)")
    m.add_argument("ours", metavar="A", help="this branch's version, where the merged file is written (%%A)")
    m.add_argument("theirs", metavar="B", help="the merged branch's version (%%B)")
    m.add_argument("pathname", metavar="P", nargs="?", default=None, help="the file's path in the repository (%%P)")
    h = sub.add_parser("history", help="per test, the deciding figure at each commit that changed its baseline entry, "
                                       "from git log")
    h.add_argument("paths", metavar="PATHS", nargs="*",
                   help="baseline files or folders of them (default: every baseline file git tracks under '.')")
    h.add_argument("--test", metavar="ID", help="only this test (its key, or a node id ending in it)")
    h.add_argument("--html", metavar="FILE", help="also write a page with each test's trend as a static SVG chart")


def run(args) -> int:
    if args.command == "merge-driver":
        return _merge_driver(args)
    return _history(args)


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        return b""


def _merge_driver(args) -> int:
    name = args.pathname or args.ours
    try:
        sides = [_read(p) for p in (args.base, args.ours, args.theirs)]
    except OSError as e:
        print(f"bytecount merge-driver: {name}: {e}", file=sys.stderr)
        return 2
    try:
        if is_trees_file(name):
            data, dropped = merge_trees(*sides)
            conflicted = []
        else:
            data, conflicted = merge_baselines(*sides, name)
            dropped = []
    except MergeError as e:
        print(f"bytecount merge-driver: {name}: cannot merge, left to git as a conflict: {e}", file=sys.stderr)
        return 1
    write_atomically(Path(args.ours), data)
    if conflicted:
        shown = ", ".join(conflicted[:5]) + (f" and {len(conflicted) - 5} more" if len(conflicted) > 5 else "")
        print(f"bytecount merge-driver: {name}: {counted(len(conflicted), 'entry', 'entries')} changed on both "
              f"branches, marked conflicted: {shown}. The merge is done; re-record them with: pytest "
              f"--bytecount-update=conflicted", file=sys.stderr)
    if dropped:
        print(f"bytecount merge-driver: {name}: the trees of {counted(len(dropped), 'test')} changed on both "
              f"branches were dropped; re-recording writes them again", file=sys.stderr)
    return 0


def _history(args) -> int:
    try:
        files = baseline_files(args.paths or ["."])
        found = history(files, args.test)
    except (GitError, HistoryError) as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(render_history(found))
    if args.html:
        try:
            write_atomically(Path(args.html), trend_page(found).encode("utf-8"))
        except OSError as e:
            print(f"bytecount: error: cannot write {args.html}: {e}", file=sys.stderr)
            return 2
        print(f"bytecount: history page {args.html}", file=sys.stderr)
    return 0
