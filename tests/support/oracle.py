"""An independent oracle for executed-bytecode counts: a JVMTI agent that watches the JVM execute.

It shares no code with ``pytest_bytecount``: the counts come from the JVM's own JVMTI events
(``oracle/bytecount_oracle.c``, built here with gcc), and the bcis are named by parsing ``javap -c -p
-s``. So when the instrumenter and this oracle agree, they agree for independent reasons.

``oracle_counts(classpath, classes, main, args)`` runs ``MAIN.main(ARGS)`` in a child JVM under the
agent (through ``oracle/OracleDriver.java``) and returns the counting contract's JSON shape (see
docs/contract.md)::

    {"pkg.Cls#name(desc)": {"invocations": n, "total": n, "opcodes": {...}, "calls": {...}}, ...}

ByCounter semantics: an invocation that ends by an exception contributes nothing (its count goes to
``result.abrupt``); steps in a callee belong to the callee; a method never completed normally is
absent. With ``inclusive_targets``, ``result.inclusive`` also holds each target's inclusive counts,
decided from the JVM's own stack: a frame is linked when its caller frame is a method of ``classes``
(and it is not a ``<clinit>``), and a normally completed frame's steps go to the outermost frame of each
target in its chain of linked frames, kept if that frame completes normally (see the C file). MethodEntry/MethodExit keep one frame per invocation; executions are seen in one of two ways:

- ``events="breakpoint"`` (default): a breakpoint on every instruction of every target method. Only
  target code posts events, nothing is hidden or merged, and the program runs unchanged. Setting
  the breakpoints costs a safepoint each: about 0.35 ms per instruction of the target classes
  (3.5 s for the 15 KB methods of fixtures-java/counting/BigMethod).
- ``events="step"``: JVMTI SingleStep, the classic way. Every bytecode of the VM posts an event, and
  HotSpot has two quirks the agent must handle. It suppresses a step at the same location as the
  previous one ("repeat single step"), which hides e.g. a caller's ``return`` right after a
  recursive call that returned from the same bci: the agent predicts those and counts them back
  (``result.stats["repeat_repaired"]``). And it posts no steps while the interpreter resolves a
  constant-pool entry, so a ``<clinit>`` run by resolution, and all it calls, has no steps: the
  driver therefore initialises the target classes first (which changes the order of static
  initialisation), and a frame still left without steps raises OracleAnomaly (``empty_frames``),
  e.g. a target method called from a lazily initialised non-target class.

Both modes switch off HotSpot's pair rewriting (``iload 4; iload 5`` fused into one dispatch, one
event) by requesting ``can_generate_breakpoint_events``. Any irregularity the agent notices (a frame
without steps, a step outside a known frame, a normal exit not on a ``*return``, ...) raises
OracleAnomaly unless ``strict=False``. The whole VM runs interpreted after start-up; fib(25)
(2.3 M bytecodes, 243 k calls) takes about 1.2 s in either mode.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shlex
import shutil
import struct
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .corpus import build_once, cache_root
from .javac import compile_java, javap
from .jdk import JDK17_HOME, JVM_DIR, find_jdk_home, jdk17_java
from .verifier import OracleUnavailable

HERE = Path(__file__).resolve().parent
AGENT_SOURCE = HERE / "oracle" / "bytecount_oracle.c"
DRIVER_SOURCES = HERE / "oracle"
DRIVER_CLASS = "bytecountoracle.OracleDriver"
AGENT_LIBRARY = "libbytecount_oracle.so"
CFLAGS = ("-shared", "-fPIC", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra")
# Statistics the agent reports that are expected and harmless; every other one must be 0.
EXPECTED_STATS = frozenset({"repeat_repaired"})
# javap names the wide forms iload_w, iinc_w, ...; the contract keys them as the plain instruction.
# These four are real instructions of their own (JVMS 6.5).
KEEP_W_SUFFIX = frozenset({"goto_w", "jsr_w", "ldc_w", "ldc2_w"})
JDK17_JAVAP_MAX_MAJOR = 61

JavaCommand = Union[str, "os.PathLike[str]", Sequence[str]]
MethodKey = Tuple[str, str, str]  # (internal class name, method name, descriptor)


class OracleRunError(RuntimeError):
    """The JVM under the agent failed, or wrote no results."""


class OracleAnomaly(RuntimeError):
    """The agent saw events it cannot account for, so its counts are not to be trusted."""


class OracleMismatch(RuntimeError):
    """The agent's methods or bcis do not match what javap shows for the class files on the classpath."""


class OracleCounts(dict):
    """Method id -> ``{"invocations", "total", "opcodes", "calls"}``, sorted by method id.

    ``abrupt``: method id -> invocations that ended by an exception (not in the counts).
    ``abrupt_counts``: method id -> the same shape as the counts, for those invocations (the
    instruction that threw, or whose callee threw, included).
    ``stats``: the agent's statistics (see the C file). ``seconds``: wall time of the JVM run.
    ``inclusive``: with ``inclusive_targets``, target id -> ``{"calls", "methods", "opcodes", "total"}``
    (``methods``: the methods whose steps were attributed to the target).
    """

    def __init__(self, counts=(), abrupt: Optional[Dict[str, int]] = None,
                 stats: Optional[Dict[str, int]] = None, seconds: float = 0.0,
                 abrupt_counts: Optional[Dict[str, dict]] = None, inclusive: Optional[Dict[str, dict]] = None):
        super().__init__(counts)
        self.inclusive = dict(inclusive or {})
        self.abrupt = dict(abrupt or {})
        self.abrupt_counts = dict(abrupt_counts or {})
        self.stats = dict(stats or {})
        self.seconds = seconds


# --------------------------------------------------------------------------- building


def _jni_include_dir() -> Path:
    """``include/`` of a JDK with jvmti.h: $JAVA_HOME, Debian's JDK 17, then any /usr/lib/jvm/*.

    JVMTI is ABI-stable, so an agent built against JDK 17 headers loads in 25 as well."""
    homes: List[Path] = []
    if os.environ.get("JAVA_HOME"):
        homes.append(Path(os.environ["JAVA_HOME"]))
    homes.append(JDK17_HOME)
    if JVM_DIR.is_dir():
        homes.extend(sorted(JVM_DIR.iterdir()))
    for home in homes:
        include = home / "include"
        if (include / "jvmti.h").is_file() and (include / "linux" / "jni_md.h").is_file():
            return include
    raise OracleUnavailable(
        "the bytecount oracle needs a JDK's include/jvmti.h and include/linux/jni_md.h; none in "
        "$JAVA_HOME or /usr/lib/jvm/*: apt-get install openjdk-17-jdk-headless"
    )


def _c_compiler() -> List[str]:
    if os.environ.get("CC"):
        return shlex.split(os.environ["CC"])
    compiler = shutil.which("gcc") or shutil.which("cc")
    if not compiler:
        raise OracleUnavailable("the bytecount oracle's JVMTI agent needs a C compiler: apt-get install gcc")
    return [compiler]


def build_agent(source: Path = AGENT_SOURCE, library: str = AGENT_LIBRARY, prefix: str = "oracle-agent") -> Path:
    """Compile ``source`` (by default ``oracle/bytecount_oracle.c``) into the cache as ``library`` (keyed by
    source, compiler and headers); return the shared library."""
    compiler = _c_compiler()
    include = _jni_include_dir()
    try:
        version = subprocess.run([*compiler, "--version"], capture_output=True, text=True).stdout.splitlines()
    except OSError as exc:
        raise OracleUnavailable(f"cannot run the C compiler {compiler}: {exc}") from exc
    key_material = b"\0".join([
        source.read_bytes(),
        (version[0] if version else " ".join(compiler)).encode(),
        str(include.resolve()).encode(),
        (include / "jvmti.h").read_bytes(),
        " ".join(CFLAGS).encode(),
    ])
    key = hashlib.sha256(key_material).hexdigest()[:16]

    def fill(tmp: Path) -> None:
        command = [*compiler, *CFLAGS, f"-I{include}", f"-I{include / 'linux'}",
                   "-o", str(tmp / library), str(source)]
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            raise OracleUnavailable(f"building the oracle agent failed: {' '.join(command)}\n{proc.stderr}")

    return build_once(cache_root() / f"{prefix}-{key}", fill) / library


def driver_dir() -> Path:
    """Class directory of ``bytecountoracle.OracleDriver`` (javac --release 8, cached)."""
    return compile_java(DRIVER_SOURCES, release="8")


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class AgentOutput:
    """What the agent wrote: per (class, name, descriptor) the normal invocations and bci counts."""

    invocations: Dict[MethodKey, int]
    steps: Dict[MethodKey, Dict[int, int]]
    abrupt: Dict[MethodKey, int]
    stats: Dict[str, int]
    abrupt_steps: Dict[MethodKey, Dict[int, int]]
    inclusive: Dict[MethodKey, Dict[MethodKey, Dict[int, int]]] = None  # target -> method -> bci counts


def parse_agent_output(text: str) -> AgentOutput:
    """Read the agent's file (format in the C file's header); duplicate methods (one class loaded by
    two loaders) are summed."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# bytecount-oracle 2"):
        raise OracleRunError(f"not a bytecount-oracle v2 result: {lines[:1]!r}")
    invocations: Dict[MethodKey, int] = {}
    steps: Dict[MethodKey, Dict[int, int]] = {}
    abrupt: Dict[MethodKey, int] = {}
    abrupt_steps: Dict[MethodKey, Dict[int, int]] = {}
    stats: Dict[str, int] = {}
    inclusive: Dict[MethodKey, Dict[MethodKey, Dict[int, int]]] = {}
    target: Optional[Dict[MethodKey, Dict[int, int]]] = None
    current: Optional[Dict[int, int]] = None
    for line in lines[1:]:
        fields = line.split(" ")
        if fields[0] == "I":
            target = inclusive.setdefault((fields[1], fields[2], fields[3]), {})
            current = None
        elif fields[0] == "F" and target is not None:
            current = target.setdefault((fields[1], fields[2], fields[3]), {})
        elif fields[0] == "S":
            stats[fields[1]] = int(fields[2])
        elif fields[0] in ("M", "A"):
            key = (fields[1], fields[2], fields[3])
            table = invocations if fields[0] == "M" else abrupt
            table[key] = table.get(key, 0) + int(fields[4])
            current = (steps if fields[0] == "M" else abrupt_steps).setdefault(key, {})
        elif current is not None and len(fields) == 2:
            bci, count = int(fields[0]), int(fields[1])
            current[bci] = current.get(bci, 0) + count
        elif line:
            raise OracleRunError(f"unexpected line in the oracle's output: {line!r}")
    return AgentOutput(invocations, steps, abrupt, stats, abrupt_steps, inclusive)


def _java_command(java: Optional[JavaCommand]) -> List[str]:
    if java is None:
        return [str(jdk17_java())]
    if isinstance(java, (str, os.PathLike)):
        return [str(java)]
    return [str(part) for part in java]


def _internal(name: str) -> str:
    return name.replace(".", "/")


def _method_key(method: str) -> MethodKey:
    """``pkg.Cls#name(desc)`` -> (internal class name, name, descriptor)."""
    cls, rest = method.split("#", 1)
    name, paren, desc = rest.partition("(")
    return _internal(cls), name, paren + desc


def run_agent(classpath: Sequence[Path], classes: Sequence[str], main: str, args: Sequence[str] = (),
              java: Optional[JavaCommand] = None, *, jvm_options: Sequence[str] = (),
              timeout: float = 600, initialize: Optional[bool] = None,
              events: str = "breakpoint", inclusive_targets: Sequence[str] = ()) -> Tuple[AgentOutput, float]:
    """Run ``MAIN.main(ARGS)`` under the agent; return its raw output and the run's wall time.

    ``classes``: binary names (``pkg.Outer$Inner``) or internal ones; each names one class exactly.
    ``events``: ``"breakpoint"`` (a breakpoint on every target instruction) or ``"step"`` (SingleStep).
    ``initialize``: have the driver initialise the target classes before ``main`` (default: only for
    ``"step"``, which cannot see a ``<clinit>`` that constant-pool resolution runs).
    ``inclusive_targets``: method ids (``pkg.Cls#name(desc)``) whose inclusive counts to record.
    """
    if events not in ("step", "breakpoint"):
        raise ValueError(f"oracle: events must be 'step' or 'breakpoint', not {events!r}")
    if initialize is None:
        initialize = events == "step"
    internal = [_internal(name) for name in classes]
    if not internal:
        raise ValueError("oracle: no target classes given")
    agent = build_agent()
    entries = [str(Path(entry)) for entry in classpath] + [str(driver_dir())]
    with tempfile.TemporaryDirectory(prefix="bytecount-oracle-") as tmp:
        out = Path(tmp) / "counts.txt"
        listing = ";".join(internal)
        if "," in listing or len(listing) > 8000:
            (Path(tmp) / "classes.txt").write_text("\n".join(internal) + "\n", encoding="utf-8")
            listing = "@" + str(Path(tmp) / "classes.txt")
        if "," in str(tmp):
            raise OracleRunError(f"the temporary directory {tmp} contains ',', which the agent's options cannot carry")
        forced = [name.replace("/", ".") for name in internal] if initialize else []
        options = f"out={out},events={events},classes={listing}"
        if inclusive_targets:
            (Path(tmp) / "inclusive.txt").write_text(
                "".join(" ".join(_method_key(t)) + "\n" for t in inclusive_targets), encoding="utf-8")
            options += f",inclusive=@{Path(tmp) / 'inclusive.txt'}"
        command = [
            *_java_command(java), *jvm_options,
            f"-agentpath:{agent}={options}",
            "-cp", os.pathsep.join(entries),
            DRIVER_CLASS, str(len(forced)), *forced, main, *map(str, args),
        ]
        started = time.perf_counter()
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise OracleRunError(f"the oracle's JVM ran past {timeout} s: {' '.join(command)}") from exc
        seconds = time.perf_counter() - started
        if proc.returncode != 0 or not out.is_file():
            raise OracleRunError(
                f"the oracle's JVM failed (exit {proc.returncode}): {' '.join(command)}\n"
                f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}"
            )
        return parse_agent_output(out.read_text(encoding="utf-8")), seconds


# --------------------------------------------------------------------------- naming bcis with javap


@dataclass(frozen=True)
class Instruction:
    mnemonic: str  # as the contract keys it: javap's, with the wide forms' _w removed
    call: Optional[str]  # callee signature for invoke*, else None


CodeListing = Dict[MethodKey, Dict[int, Instruction]]

_MODIFIERS = frozenset({
    "public", "private", "protected", "static", "final", "synchronized", "native", "abstract",
    "strictfp", "default", "transient", "volatile", "sealed", "non-sealed",
})
_CLASS_HEADER = re.compile(r"^(?:\S+\s+)*?(?:class|interface|enum|record)\s+([^\s<{]+)")
_INSTRUCTION = re.compile(r"^\s+(\d+): ([a-z][a-z0-9_]*)\b(.*)$")
_METHOD_REF = re.compile(r"//\s+(?:Method|InterfaceMethod)\s+(.+)$")
_INDY_REF = re.compile(r"//\s+InvokeDynamic\s+#\d+:(.+)$")


def _strip_type_parameters(text: str) -> str:
    if not text.startswith("<"):
        return text
    depth = 0
    for index, char in enumerate(text):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth == 0:
            return text[index + 1:].lstrip()
    return text


def _member_name(header: str) -> str:
    """Method name from a javap member line: ``<init>`` for a constructor (no return type)."""
    before = header.strip().split("(", 1)[0]
    words = before.split()
    while words and words[0] in _MODIFIERS:
        words.pop(0)
    rest = _strip_type_parameters(" ".join(words))
    return rest.split()[-1] if len(rest.split()) > 1 else "<init>"


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == '"' and text[-1] == '"' else text


def _call_key(mnemonic: str, comment: str, this_class: str) -> str:
    if mnemonic == "invokedynamic":
        match = _INDY_REF.search(comment)
        if not match:
            raise OracleMismatch(f"cannot read javap's invokedynamic operand: {comment!r}")
        ref = match.group(1).strip()
        colon = ref.index(":(")
        return f"indy {_unquote(ref[:colon])}{ref[colon + 1:]}"
    match = _METHOD_REF.search(comment)
    if not match:
        raise OracleMismatch(f"cannot read javap's {mnemonic} operand: {comment!r}")
    ref = match.group(1).strip()
    colon = ref.index(":(")
    target, descriptor = ref[:colon], ref[colon + 1:]
    # Owner and name never contain '.', so at most one '.' separates them (a quoted array owner
    # such as "[I" has none either); javap leaves out the owner when it is the class itself.
    owner, _, name = target.rpartition(".")
    owner = _unquote(owner) if owner else this_class
    return f"{owner}.{_unquote(name)}{descriptor}"


def parse_javap(text: str) -> CodeListing:
    """``javap -c -p -s`` output (one or more classes) -> per method, the instruction at each bci."""
    listing: CodeListing = {}
    this_class: Optional[str] = None
    method: Optional[Dict[int, Instruction]] = None
    name: Optional[str] = None
    in_switch = False
    for line in text.splitlines():
        if not line.startswith(" "):
            match = _CLASS_HEADER.match(line)
            if match and line.rstrip().endswith("{"):
                this_class = _internal(match.group(1))
            method = name = None
            continue
        if line.startswith("  ") and not line.startswith("   "):  # a member header
            header = line.strip()
            method = None
            if header == "static {};":
                name = "<clinit>"
            elif "(" in header:
                name = _member_name(header)
            else:
                name = None  # a field
            continue
        stripped = line.strip()
        if stripped.startswith("descriptor: ") and name is not None and this_class is not None:
            method = listing.setdefault((this_class, name, stripped[len("descriptor: "):]), {})
            continue
        if method is None:
            continue
        if in_switch:
            in_switch = stripped != "}"
            continue
        match = _INSTRUCTION.match(line)
        if not match:
            continue
        bci, mnemonic, operands = int(match.group(1)), match.group(2), match.group(3)
        if mnemonic.endswith("_w") and mnemonic not in KEEP_W_SUFFIX:
            mnemonic = mnemonic[:-2]
        call = _call_key(mnemonic, operands, this_class) if mnemonic.startswith("invoke") else None
        method[bci] = Instruction(mnemonic, call)
        if mnemonic in ("tableswitch", "lookupswitch"):
            in_switch = True
    return listing


def _class_file(classpath: Sequence[Path], internal: str) -> Optional[bytes]:
    """The bytes of ``internal``.class from the first classpath entry (dir or jar) holding it."""
    for entry in classpath:
        entry = Path(entry)
        try:
            if entry.is_dir():
                path = entry / f"{internal}.class"
                if path.is_file():
                    return path.read_bytes()
            elif entry.is_file():
                with zipfile.ZipFile(entry) as jar:
                    try:
                        return jar.read(f"{internal}.class")
                    except KeyError:
                        continue
        except (OSError, zipfile.BadZipFile):
            continue
    return None


def code_listing(classpath: Sequence[Path], classes: Iterable[str]) -> CodeListing:
    """Instructions of every method of ``classes`` (internal names) by javap: JDK 17's for class
    versions up to 61, a JDK 25+ javap for newer ones."""
    classpath = tuple(Path(entry) for entry in classpath)
    by_home: Dict[Optional[Path], List[str]] = {}
    fingerprints = []
    for internal in sorted(set(classes)):
        data = _class_file(classpath, internal)
        if data is None or len(data) < 8:
            raise OracleMismatch(f"{internal}.class is not on the classpath {list(map(str, classpath))}")
        fingerprints.append(hashlib.sha256(data).hexdigest())
        major = struct.unpack(">H", data[6:8])[0]
        home = None
        if major > JDK17_JAVAP_MAX_MAJOR:
            home = find_jdk_home(25)
            if home is None:
                raise OracleUnavailable(
                    f"{internal}.class is version {major}; naming its bytecodes needs a JDK 25+ javap "
                    "($JAVA_HOME or /usr/lib/jvm/*), and there is none"
                )
        by_home.setdefault(home, []).append(internal)
    return _javap_listing(classpath, tuple((home, tuple(names)) for home, names in by_home.items()),
                          tuple(fingerprints))


@functools.lru_cache(maxsize=64)
def _javap_listing(classpath: Tuple[Path, ...], groups: Tuple[Tuple[Optional[Path], Tuple[str, ...]], ...],
                   fingerprints: Tuple[str, ...]) -> CodeListing:
    # Keyed by the class files' hashes too, so a rebuilt class is read again; javap costs ~0.6 s a run.
    del fingerprints
    listing: CodeListing = {}
    cp = os.pathsep.join(str(entry) for entry in classpath)
    for home, names in groups:
        text = javap(names[0].replace("/", "."), "-c", "-p", "-s", "-classpath", cp,
                     *[name.replace("/", ".") for name in names[1:]], java_home=home)
        listing.update(parse_javap(text))
    return listing


# --------------------------------------------------------------------------- the contract's shape


def method_id(key: MethodKey) -> str:
    internal, name, descriptor = key
    return f"{internal.replace('/', '.')}#{name}{descriptor}"


def _named(key: MethodKey, invocations: int, steps: Mapping[int, int],
           listing: Mapping[MethodKey, Mapping[int, Instruction]]) -> dict:
    instructions = listing.get(key)
    if instructions is None:
        raise OracleMismatch(f"javap shows no method {method_id(key)} (a different class file was loaded?)")
    opcodes: Dict[str, int] = {}
    calls: Dict[str, int] = {}
    for bci, count in steps.items():
        instruction = instructions.get(bci)
        if instruction is None:
            raise OracleMismatch(f"{method_id(key)}: the JVM executed bci {bci}, where javap shows no instruction")
        opcodes[instruction.mnemonic] = opcodes.get(instruction.mnemonic, 0) + count
        if instruction.call is not None:
            calls[instruction.call] = calls.get(instruction.call, 0) + count
    return {
        "invocations": invocations,
        "total": sum(opcodes.values()),
        "opcodes": dict(sorted(opcodes.items())),
        "calls": dict(sorted(calls.items())),
    }


def to_contract(output: AgentOutput, listing: Mapping[MethodKey, Mapping[int, Instruction]]) -> OracleCounts:
    """Name the agent's (method, bci) counts by javap's listing: the contract's JSON shape."""
    counts = {method_id(key): _named(key, output.invocations[key], output.steps.get(key, {}), listing)
              for key in sorted(output.invocations, key=method_id)}
    abrupt_counts = {method_id(key): _named(key, n, output.abrupt_steps.get(key, {}), listing)
                     for key, n in sorted(output.abrupt.items(), key=lambda item: method_id(item[0]))}
    abrupt = {method_id(key): n for key, n in sorted(output.abrupt.items(), key=lambda item: method_id(item[0]))}
    inclusive = {}
    for target, methods in (output.inclusive or {}).items():
        opcodes: Dict[str, int] = {}
        calls: Dict[str, int] = {}
        for key, steps in methods.items():
            named = _named(key, 0, steps, listing)
            for table, part in ((opcodes, named["opcodes"]), (calls, named["calls"])):
                for k, v in part.items():
                    table[k] = table.get(k, 0) + v
        inclusive[method_id(target)] = {"calls": dict(sorted(calls.items())),
                                        "methods": sorted(method_id(k) for k in methods),
                                        "opcodes": dict(sorted(opcodes.items())), "total": sum(opcodes.values())}
    return OracleCounts(counts, abrupt=abrupt, stats=output.stats, abrupt_counts=abrupt_counts, inclusive=inclusive)


def oracle_counts(classpath: Sequence[Union[str, Path]], classes: Sequence[str], main: str,
                  args: Sequence[str] = (), java: Optional[JavaCommand] = None, *,
                  jvm_options: Sequence[str] = (), timeout: float = 600, strict: bool = True,
                  initialize: Optional[bool] = None, events: str = "breakpoint",
                  inclusive_targets: Sequence[str] = ()) -> OracleCounts:
    """Counts of every method of ``classes`` while ``main.main(args)`` runs, in the contract's shape.

    ``classpath``: dirs and jars holding the workload. ``classes``: exact class names, dotted
    (``pkg.Outer$Inner``) or internal. ``java``: a java executable or a command prefix such as
    ``[java, "-zero"]`` (default: HotSpot of the JDK 17). With ``strict``, an irregular run raises
    OracleAnomaly instead of returning counts. ``events`` and ``initialize``: see run_agent and the
    module docstring. ``inclusive_targets``: method ids whose inclusive counts the result carries in
    ``result.inclusive`` (see the C file): their steps and those of the frames linked below them, a
    frame being linked when its caller frame is a method of ``classes`` and it is not a ``<clinit>``.
    """
    classpath = [Path(entry) for entry in classpath]
    output, seconds = run_agent(classpath, classes, main, args, java, jvm_options=jvm_options,
                                timeout=timeout, initialize=initialize, events=events,
                                inclusive_targets=inclusive_targets)
    if strict:
        bad = {name: n for name, n in output.stats.items() if n and name not in EXPECTED_STATS}
        if bad:
            raise OracleAnomaly(f"the oracle agent reports irregular events {bad} (see oracle/bytecount_oracle.c)")
    inclusive_keys = [key for methods in (output.inclusive or {}).values() for key in methods]
    seen = [*output.invocations, *output.abrupt, *inclusive_keys]
    listing = code_listing(classpath, sorted({key[0] for key in seen}))
    result = to_contract(output, listing)
    result.seconds = seconds
    return result
