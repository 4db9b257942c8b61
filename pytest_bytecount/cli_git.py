"""The commands that merge baselines and follow them through git (docs/ci.md, docs/pytest.md), with no JVM:

    python -m pytest_bytecount merge-driver %O %A %B %P
    python -m pytest_bytecount history [PATHS...] [--test ID] [--html FILE]
    python -m pytest_bytecount merge OUT IN... [--base BASE] [--html DIR]

``merge-driver`` is git's merge driver for baseline files (``.gitattributes``: ``tests/bytecount/*.json
merge=bytecount``): it merges the three versions test by test, writes a valid file to %A, and marks an entry both
branches changed as conflicted, to be re-recorded. ``history`` walks ``git log`` of baseline files and prints, per test,
the deciding figure at each commit that changed its entry. ``merge`` combines what CI shards wrote, each in its own
checkout: their baseline folders (or files) into one, or their ``--bytecount-json`` results into one file (and one
HTML report); a test two shards recorded differently is refused, naming it, and nothing is written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

from .files import write_atomically
from .regression.git import GitError
from .regression.history import HistoryError, baseline_files, history, render_history, trend_page
from .regression.merge_files import (MergeError, is_trees_file, merge_baselines, merge_results,
                                     merge_shard_baselines, merge_shard_trees, merge_trees)
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
    g = sub.add_parser("merge", help="merge what CI shards wrote: baseline folders or files, or --bytecount-json "
                                     "results; a test two shards recorded differently is refused")
    g.add_argument("out", metavar="OUT", help="the folder (for folders) or file to write")
    g.add_argument("inputs", metavar="IN", nargs="+", help="each shard's baseline folder, baseline file or results")
    g.add_argument("--base", metavar="BASE", help="the baselines the shards started from (the committed folder or "
                                                  "file): a test only one shard changed takes that shard's entry")
    g.add_argument("--html", metavar="DIR", help="with results files: also write the HTML report of the merged results")
    g.add_argument("--step-summary", metavar="FILE", help="with results files: also append the job summary of the "
                                                          "merged results (GitHub Actions: $GITHUB_STEP_SUMMARY)")
    g.add_argument("--pr-comment", metavar="FILE", help="with results files: also write the pull-request comment of "
                                                        "the merged results (when some verdict is not a plain pass)")


def run(args) -> int:
    if args.command == "merge-driver":
        return _merge_driver(args)
    if args.command == "merge":
        return _merge(args)
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


def _baseline_paths(folder: Path) -> dict:
    """{path relative to ``folder``: path} of the baseline files (counts and trees) under it."""
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*"))
            if p.is_file() and (p.name.endswith(".json") or is_trees_file(p.name))}


def _is_results(raw: bytes) -> bool:
    """Whether ``raw`` is a ``--bytecount-json`` file: {node id: {"nodeid", "status", ...}}."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and "tests" not in data and \
        all(isinstance(r, dict) and "status" in r and "nodeid" in r for r in data.values())


def _merge(args) -> int:
    inputs = [Path(p) for p in args.inputs]
    missing = [str(p) for p in inputs + ([Path(args.base)] if args.base else []) if not p.exists()]
    if missing:
        print(f"bytecount merge: error: {', '.join(missing)} does not exist", file=sys.stderr)
        return 2
    folders = [p.is_dir() for p in inputs]
    if any(folders) and not all(folders):
        print("bytecount merge: error: give shard folders, or shard files, not both", file=sys.stderr)
        return 2
    try:
        written = _merge_folders(args, inputs) if all(folders) else _merge_files(args, inputs)
    except MergeError as e:
        print(f"bytecount merge: error: {e}; nothing was written", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"bytecount merge: error: {e}", file=sys.stderr)
        return 2
    try:
        for path, what in written:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, what)
    except OSError as e:
        print(f"bytecount merge: error: cannot write {args.out}: {e}", file=sys.stderr)
        return 2
    print(f"bytecount merge: wrote {counted(len(written), 'file')} from {counted(len(inputs), 'shard')} "
          f"into {args.out}", file=sys.stderr)
    if args.html:
        from .regression.report_html import write_report  # only a merge that writes one pays for it

        page = write_report(json.loads(written[0][1]), Path(args.html))
        print(f"bytecount merge: HTML report {page}", file=sys.stderr)
    if args.pr_comment:
        _merged_comment(json.loads(written[0][1]), Path(args.pr_comment), args.html)
    if args.step_summary:
        from .plugin.summary import markdown
        from .regression.results import TestResult

        merged = {nodeid: TestResult.from_dict(r) for nodeid, r in json.loads(written[0][1]).items()}
        with open(args.step_summary, "a", encoding="utf-8") as f:
            f.write(markdown(merged))
        print(f"bytecount merge: appended the job summary to {args.step_summary}", file=sys.stderr)
    return 0


def _merged_comment(data: dict, path: Path, html: Optional[str]) -> None:
    """The one pull-request comment of the shards' merged results, as a run of all of them writes it."""
    from .plugin.pr_comment import baselines_against, comment, run_url, write_comment
    from .regression.results import TestResult

    results = {nodeid: TestResult.from_dict(r) for nodeid, r in data.items()}
    done = write_comment(path, comment(results, baselines_against(results, Path.cwd()), html, run_url()))
    if done:
        print(f"bytecount merge: {done} the pull-request comment {path}", file=sys.stderr)


def _clash_error(where: str, clashes: dict, based: bool) -> MergeError:
    shown = "; ".join(f"{key} ({', '.join(labels)})" for key, labels in list(clashes.items())[:5])
    more = f"; and {len(clashes) - 5} more" if len(clashes) > 5 else ""
    how = "re-run those tests in one job" if based else \
        "if the shards started from committed baselines, give them as --base; else re-run those tests in one job"
    return MergeError(f"{where}: {counted(len(clashes), 'test')} recorded differently by two shards: {shown}{more}. "
                      f"Exact counts of the same code agree: {how}")


def _merge_folders(args, inputs: list) -> list:
    if args.html or args.pr_comment or args.step_summary:
        raise MergeError("--html, --pr-comment and --step-summary merge results files (--bytecount-json), not "
                         "baseline folders")
    base = Path(args.base) if args.base else None
    if base is not None and not base.is_dir():
        raise MergeError(f"--base {base} is a file: give the baseline folder the shards started from")
    per_shard = [(str(p), _baseline_paths(p)) for p in inputs]
    names = sorted(set().union(*(set(files) for _, files in per_shard)))
    out = []
    for name in names:
        sides = [(label, files[name].read_bytes() if name in files else None) for label, files in per_shard]
        start = (base / name).read_bytes() if base is not None and (base / name).is_file() else None
        data, clashes = merge_shard_trees(sides, start) if is_trees_file(name) else \
            merge_shard_baselines(sides, start, name)
        if clashes:
            raise _clash_error(name, clashes, base is not None)
        out.append((Path(args.out) / name, data))
    return out


def _merge_files(args, inputs: list) -> list:
    raws = [(str(p), p.read_bytes()) for p in inputs]
    kinds = {_is_results(raw) for _, raw in raws}
    if len(kinds) > 1:
        raise MergeError("give baseline files, or --bytecount-json results files, not both")
    if kinds == {True}:
        if args.base:
            raise MergeError("--base goes with baseline files, not results")
        merged, clashes = merge_results([(label, json.loads(raw)) for label, raw in raws])
        if clashes:
            raise _clash_error(args.out, clashes, True)
        return [(Path(args.out), (json.dumps(merged, indent=2, sort_keys=True) + "\n").encode("utf-8"))]
    if args.html or args.pr_comment or args.step_summary:
        raise MergeError("--html, --pr-comment and --step-summary merge results files (--bytecount-json), not "
                         "baseline files")
    start = Path(args.base).read_bytes() if args.base else None
    name = Path(args.out).name
    data, clashes = merge_shard_trees(raws, start) if is_trees_file(name) else \
        merge_shard_baselines(raws, start, str(args.out))
    if clashes:
        raise _clash_error(args.out, clashes, start is not None)
    return [(Path(args.out), data)]
