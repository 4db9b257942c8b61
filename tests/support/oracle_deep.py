"""An independent oracle for *deep* executed-bytecode counts: a JVMTI agent that watches the JVM execute.

It shares no code with ``pytest_bytecount``: ``oracle/deep_oracle.c`` (built here with gcc, cached) counts
the JVM's own SingleStep events while a target method runs, callees included, and intercepts the natives
``System.arraycopy`` and ``Object.clone`` (NativeMethodBind) for the elements they copy. The rules (windows,
excluded frames and classes, ``copied``) are in the C file's header comment.

``deep_oracle(classpath, main, args, targets)`` runs ``MAIN.main(ARGS)`` in a child JVM (``-Xshare:off``,
through ``oracle/OracleDriver.java``, which calls ``main`` reflectively) and returns::

    {target_id: {"windows": n, "total": n, "copied": n, "methods": {method_id: n},
                 "abrupt": {"windows": n, "total": n, "copied": n, "methods": {...}}}}

Ids are the counting contract's ``pkg.Cls#name(desc)``. The result's ``stats`` attribute holds the agent's
statistics, ``seconds`` the JVM's wall time. With ``paths=True`` its ``paths`` attribute holds the same counts
per call path, normal and abrupt windows together::

    {target_id: {(target_id, method_id, ...): (steps, entries, copied)}}

a path being the methods from the target's own frame down to the one that ran, left-out classes skipped,
recursion NOT folded (a method called again along a path makes a longer path; see the C file). A run with an anomaly statistic (a step missing or out of
place, a shadow stack that disagrees with the JVM's, a window left open, ...) raises OracleAnomaly; a run
where a native could not be intercepted raises OracleAnomaly too, unless ``require_copy_hooks=False``
(then ``copied`` only counts what was intercepted: see ``stats["hook_arraycopy"]`` and ``["hook_clone"]``).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .oracle import JavaCommand, OracleAnomaly, OracleRunError, _java_command, build_agent, driver_dir
from .verifier import OracleUnavailable

HERE = Path(__file__).resolve().parent
AGENT_SOURCE = HERE / "oracle" / "deep_oracle.c"
AGENT_LIBRARY = "libdeep_oracle.so"
DRIVER_CLASS = "bytecountoracle.OracleDriver"
CFLAGS = ("-shared", "-fPIC", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror")
# Statistics that must be 0: anything else is the agent losing track of the execution.
ANOMALIES = (
    "w_flow_breaks", "w_entry_not_at_0", "w_empty_frames", "w_last_not_return", "w_bad_catch",
    "orphan_steps", "unmatched_exits", "stack_mismatch", "bad_locations", "open_at_end",
    "init_with_target", "hidden_disagree", "bind_unknown", "method_info_failed", "hook_mismatch",
    "path_lost", "path_mismatch",
)
HOOKS = ("hook_arraycopy", "hook_clone")
JVM_OPTIONS = ("-Xshare:off",)

MethodKey = Tuple[str, str, str]

CallPath = Tuple[str, ...]

__all__ = ["DeepCounts", "OracleAnomaly", "OracleRunError", "OracleUnavailable", "build_deep_agent",
           "deep_oracle", "method_key", "method_id", "parse_paths"]


class DeepCounts(dict):
    """Target id -> ``{"windows", "total", "copied", "methods", "abrupt"}``.

    ``stats``: the agent's statistics (names in the C file); ``seconds``: the JVM run's wall time;
    ``output``: the JVM's stdout and stderr; ``paths``: ``{target id: {path: (steps, entries, copied)}}``
    when asked for (``deep_oracle(..., paths=True)``), else None.
    """

    def __init__(self, counts=(), stats: Optional[Dict[str, int]] = None, seconds: float = 0.0, output: str = "",
                 paths: Optional[Dict[str, Dict[CallPath, Tuple[int, int, int]]]] = None):
        super().__init__(counts)
        self.stats = dict(stats or {})
        self.seconds = seconds
        self.output = output
        self.paths = paths


def method_key(method: str) -> MethodKey:
    """``pkg.Cls#name(desc)`` -> (``pkg/Cls``, name, desc)."""
    cls, sep, rest = method.partition("#")
    name, paren, desc = rest.partition("(")
    if not sep or not paren or not cls or not name:
        raise ValueError(f"deep oracle: {method!r} is not a method id of the form pkg.Cls#name(desc)")
    return cls.replace(".", "/"), name, paren + desc


def method_id(key: MethodKey) -> str:
    internal, name, desc = key
    return f"{internal.replace('/', '.')}#{name}{desc}"


def build_deep_agent() -> Path:
    """Compile ``oracle/deep_oracle.c`` into the cache (keyed by source, compiler, headers, flags)."""
    return build_agent(AGENT_SOURCE, AGENT_LIBRARY, "deep-oracle-agent")


def _empty_record() -> dict:
    return {"windows": 0, "total": 0, "copied": 0, "methods": {}}


def parse_output(text: str) -> Tuple[Dict[MethodKey, dict], Dict[str, int]]:
    """The agent's file -> ({target key: {"normal": record, "abrupt": record}}, stats)."""
    lines = text.splitlines()
    if not lines or lines[0] != "# deep-oracle 1":
        raise OracleRunError(f"not a deep-oracle v1 result: {lines[:1]!r}")
    stats: Dict[str, int] = {}
    targets: Dict[MethodKey, dict] = {}
    target: Optional[dict] = None
    record: Optional[dict] = None
    for line in lines[1:]:
        fields = line.split(" ")
        if fields[0] == "S" and len(fields) == 3:
            stats[fields[1]] = int(fields[2])
        elif fields[0] == "T" and len(fields) == 4:
            target = targets.setdefault((fields[1], fields[2], fields[3]), {})
            record = None
        elif fields[0] == "R" and len(fields) == 5 and target is not None and fields[1] in ("normal", "abrupt"):
            record = target.setdefault(fields[1], _empty_record())
            record["windows"] += int(fields[2])
            record["total"] += int(fields[3])
            record["copied"] += int(fields[4])
        elif fields[0] == "C" and len(fields) == 5 and record is not None:
            mid = method_id((fields[1], fields[2], fields[3]))
            record["methods"][mid] = record["methods"].get(mid, 0) + int(fields[4])
        else:
            raise OracleRunError(f"unexpected line in the deep oracle's output: {line!r}")
    return targets, stats


def parse_paths(text: str) -> Dict[MethodKey, Dict[CallPath, Tuple[int, int, int]]]:
    """The agent's paths=FILE -> {target key: {path of method ids: (steps, entries, copied)}}."""
    lines = text.splitlines()
    if not lines or lines[0] != "# deep-oracle-paths 1":
        raise OracleRunError(f"not a deep-oracle v1 paths file: {lines[:1]!r}")
    methods: Dict[int, str] = {}
    targets: Dict[MethodKey, Dict[CallPath, Tuple[int, int, int]]] = {}
    paths: Optional[Dict[CallPath, Tuple[int, int, int]]] = None
    for line in lines[1:]:
        fields = line.split(" ")
        if fields[0] == "M" and len(fields) == 5:
            methods[int(fields[1])] = method_id((fields[2], fields[3], fields[4]))
        elif fields[0] == "T" and len(fields) == 4:
            paths = targets.setdefault((fields[1], fields[2], fields[3]), {})
        elif fields[0] == "P" and len(fields) >= 5 and paths is not None:
            path = tuple(methods[int(index)] for index in fields[4:])
            if path in paths:
                raise OracleRunError(f"the deep oracle's paths file names a path twice: {line!r}")
            paths[path] = (int(fields[1]), int(fields[2]), int(fields[3]))
        else:
            raise OracleRunError(f"unexpected line in the deep oracle's paths file: {line!r}")
    return targets


def deep_oracle(classpath: Sequence[Union[str, Path]], main: str, args: Sequence[str], targets: Sequence[str],
                java: Optional[JavaCommand] = None, extra_jvm_args: Sequence[str] = (), *,
                timeout: float = 300, verify: int = 1, require_copy_hooks: bool = True,
                repair: bool = True, paths: bool = False) -> DeepCounts:
    """Deep counts of each target while ``main.main(args)`` runs; see the module docstring.

    ``java``: a java executable, or a command prefix such as ``[java, "-zero"]`` (default: JDK 17's
    HotSpot). ``verify``: 1 compares the agent's shadow stack with the JVM's when a window opens and
    closes, 2 at every call and return inside a window, 0 never. ``repair=False`` leaves the steps
    HotSpot suppresses as repeats uncounted: only for showing that the agent's checks notice. ``paths``:
    also count per call path (the result's ``paths``).
    """
    keys = [method_key(target) for target in targets]
    if not keys:
        raise ValueError("deep oracle: no targets given")
    if len(set(keys)) != len(keys):
        raise ValueError(f"deep oracle: duplicate targets in {list(targets)}")
    agent = build_deep_agent()
    entries = [str(Path(entry)) for entry in classpath] + [str(driver_dir())]
    with tempfile.TemporaryDirectory(prefix="deep-oracle-") as tmp:
        if "," in tmp:
            raise OracleRunError(f"the temporary directory {tmp} contains ',', which agent options cannot carry")
        out = Path(tmp) / "deep.txt"
        listing = Path(tmp) / "targets.txt"
        listing.write_text("".join(" ".join(key) + "\n" for key in keys), encoding="utf-8")
        paths_file = Path(tmp) / "paths.txt"
        options = f"out={out},targets=@{listing},verify={int(verify)},repair={int(bool(repair))}"
        if paths:
            options += f",paths={paths_file}"
        command: List[str] = [
            *_java_command(java), *JVM_OPTIONS, *map(str, extra_jvm_args), f"-agentpath:{agent}={options}",
            "-cp", os.pathsep.join(entries), DRIVER_CLASS, "0", main, *map(str, args),
        ]
        started = time.perf_counter()
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise OracleRunError(f"the deep oracle's JVM ran past {timeout} s: {' '.join(command)}") from exc
        seconds = time.perf_counter() - started
        if proc.returncode != 0 or not out.is_file():
            raise OracleRunError(
                f"the deep oracle's JVM failed (exit {proc.returncode}): {' '.join(command)}\n"
                f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}")
        raw, stats = parse_output(out.read_text(encoding="utf-8"))
        if paths and not paths_file.is_file():
            raise OracleRunError(f"the deep oracle wrote no paths file: {' '.join(command)}")
        raw_paths = parse_paths(paths_file.read_text(encoding="utf-8")) if paths else None
    missing = [name for name in (*ANOMALIES, *HOOKS) if name not in stats]
    if missing:
        raise OracleRunError(f"the deep oracle's output lacks the statistics {missing}")
    bad = {name: stats[name] for name in ANOMALIES if stats[name]}
    if bad:
        raise OracleAnomaly(f"the deep oracle agent reports irregular events {bad} (see oracle/deep_oracle.c); "
                            f"all statistics: {stats}")
    if require_copy_hooks and not all(stats[name] for name in HOOKS):
        raise OracleAnomaly(f"the deep oracle could not intercept every copying native "
                            f"({ {name: stats[name] for name in HOOKS} }), so 'copied' would be short")
    result = {}
    for key in keys:
        records = raw.get(key)
        if records is None:
            raise OracleRunError(f"the deep oracle's output has no record for {method_id(key)}")
        normal = records.get("normal", _empty_record())
        abrupt = records.get("abrupt", _empty_record())
        result[method_id(key)] = {**{k: normal[k] for k in ("windows", "total", "copied")},
                                  "methods": dict(sorted(normal["methods"].items())),
                                  "abrupt": {**{k: abrupt[k] for k in ("windows", "total", "copied")},
                                             "methods": dict(sorted(abrupt["methods"].items()))}}
    per_path = None
    if raw_paths is not None:
        per_path = {method_id(key): dict(sorted(raw_paths.get(key, {}).items())) for key in keys}
    return DeepCounts(result, stats=stats, seconds=seconds, output=proc.stdout + proc.stderr, paths=per_path)
