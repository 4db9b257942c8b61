"""What counting costs: run time of counted code, instrumentation time, and the pytest path (figures only).

    python benchmarks/overhead.py [--only overhead|throughput|per-test|startup ...]

Four parts, all by default (several minutes on 2 cores):

- ``overhead``: counted / original run time of small Java kernels (``benchmarks/java/bench``), both loaded
  in the SAME HotSpot JVM (default flags) by ``benchmarks/java/harness/OverheadHarness.java``: once from
  the original classes, once per counting strategy from the counted classes put ahead of them. The
  counted classes are the plugin's: each class counted on its own (``ClassCounter``) with its own
  Counters class, written to a folder with ``pytest_bytecount/counters.list`` naming those Counters classes,
  whose counters the harness reads after the timed runs.
  Runs alternate after a warm-up that waits for stable timings; medians are compared, in each of
  ``--forks`` JVMs (JIT outcomes differ between JVMs). The harness checks that every variant returns
  the original's checksum, that the counted ones counted and that JaCoCo's probes were hit. A JaCoCo
  column times the same kernels with JaCoCo's offline coverage probes (``org.jacoco.core.instr.Instrumenter``,
  Debian's ``libjacoco-java``; ``--jacoco-dir``): see :func:`jacoco_variant`. Without the jars the run says
  so in one line and the column is left out.
- ``throughput``: every method of guava.jar counted, class by class as the plugin's loader counts them
  (``ClassCounter(Classpath([guava.jar]), CountingOptions(("**",), strategy)).count_all()``, no cache) in pure Python,
  best of 2, beside the time to read and parse every class alone; then the per-class cache
  (``cache_dir``): once cold (every class counted and stored) and warm (every class a cache hit, its
  hashes checked), best of 2.
- ``per-test``: pytest subprocesses over a temporary project, N tests marked
  ``@pytest.mark.bytecount("demo.Sorting#insertionSort")`` using the ``bytecount`` fixture against the
  same N tests calling the original class through plain JPype; (marked - plain) / N.
- ``startup``: one marked test against one plain Python test (and JPype's bare JVM start).

Java sources are compiled with ``javac --release 11`` (class files of Java 11, version 55: JaCoCo 0.8.6 reads
none newer than it knows) into ``$BYTECOUNT_CACHE_DIR`` (default ``~/.cache/pytest-bytecount``)
``/benchmarks/<hash of sources and javac>``. Every column of one run measures those same kernel class files:
the original column runs them, and the counted and JaCoCo variants are instrumented from them, afresh on
every run. Every counting strategy ("instruction" and "block") is measured, or those ``--strategy`` names.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from _support import DEMO_SRC, JDK17  # first: this checkout's package
from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.options import CountingOptions
from pytest_bytecount.counting.pipeline.per_class import ClassCounter
from pytest_bytecount.counting.pipeline.report import write_files
from pytest_bytecount.counting.pipeline.transform import STRATEGIES
from pytest_bytecount.jvm.session import choose_jvm

JAVA_DIR = Path(__file__).resolve().parent / "java"
DEMO_SOURCE = DEMO_SRC / "demo" / "Sorting.java"
DEFAULT_JAVA_HOME = JDK17
DEFAULT_GUAVA = "/usr/share/java/guava.jar"
PARTS = ("overhead", "throughput", "per-test", "startup")


@dataclass(frozen=True)
class Kernel:
    label: str
    class_name: str
    targets: tuple
    floor: bool = False  # benchmarks/java/floor and floor-exact have hand-written floor variants of it


KERNELS = (
    Kernel("Monte Carlo pi, 1e6 samples (2 Lcg calls each)", "bench.MonteCarlo",
           ("bench.MonteCarlo#integrate", "bench.Lcg"), floor=True),
    Kernel("insertion sort, 10,000 shuffled ints", "bench.InsertionSort", ("bench.InsertionSort#sort",)),
    Kernel("matrix multiply, 200x200 double", "bench.MatMul", ("bench.MatMul#multiply",)),
    Kernel("recursive fib(27)", "bench.Fib", ("bench.Fib#fib",), floor=True),
    Kernel("StringBuilder, 100,000 x 5 appends", "bench.StringBuilding", ("bench.StringBuilding#build",)),
    Kernel("string + (indy), 100,000 strings", "bench.StringConcat", ("bench.StringConcat#concat",)),
)


# --------------------------------------------------------------------------- machine, JDK, compilation

def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return f"{platform.system()} {platform.release()}"


def java_version(java_home: Path) -> str:
    """The VM line of ``java -version``, e.g. ``OpenJDK 64-Bit Server VM (build 17.0.19+10-..., mixed mode)``."""
    out = subprocess.run([str(java_home / "bin" / "java"), "-version"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True).stdout
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    return lines[-1] if lines else "unknown"


def find_javac(java_home: Path) -> Path:
    for home in (java_home, os.environ.get("JAVA_HOME"), DEFAULT_JAVA_HOME):
        if home and (Path(home) / "bin" / "javac").is_file():
            return Path(home) / "bin" / "javac"
    found = shutil.which("javac")
    if found:
        return Path(found)
    sys.exit("benchmarks/overhead.py needs javac (a JDK): set --java-home or JAVA_HOME")


def cache_root() -> Path:
    env = os.environ.get("BYTECOUNT_CACHE_DIR")
    return (Path(env) if env else Path.home() / ".cache" / "pytest-bytecount") / "benchmarks"


@dataclass
class Compiled:
    kernels: Path  # package bench
    harness: Path  # bench.harness.OverheadHarness
    demo: Path  # demo.Sorting
    floor: Path  # hand-written floor variants (one static increment per invocation)
    floor_exact: Path  # hand-written exact, thread-safe floor variants (benchmarks/java/floor-exact)


def compile_java(javac: Path) -> Compiled:
    """javac --release 11 into a cache folder keyed by the sources and the javac version."""
    groups = {
        "kernels": sorted((JAVA_DIR / "bench").glob("*.java")),
        "harness": sorted((JAVA_DIR / "harness").glob("*.java")),
        "demo": [DEMO_SOURCE],
        "floor": sorted((JAVA_DIR / "floor").glob("*.java")),
        "floor-exact": sorted((JAVA_DIR / "floor-exact").glob("*.java")),
    }
    version = subprocess.run([str(javac), "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True).stdout.strip()
    h = hashlib.sha256(f"{version}\0--release 11\0".encode())
    for group, files in sorted(groups.items()):
        for f in files:
            h.update(f"{group}/{f.name}\0".encode() + f.read_bytes() + b"\0")
    cache = cache_root() / h.hexdigest()[:20]
    result = Compiled(cache / "kernels", cache / "harness", cache / "demo", cache / "floor", cache / "floor-exact")
    if (cache / ".complete").exists():
        return result
    cache.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=cache.parent, prefix=".build-"))
    for group, files in groups.items():
        cmd = [str(javac), "--release", "11", "-encoding", "UTF-8", "-d", str(staging / group)]
        cmd += [str(f) for f in files]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            sys.exit(f"javac failed on the {group} sources:\n{done.stdout}")
    (staging / ".complete").write_text(version + "\n")
    try:
        os.replace(staging, cache)
    except OSError:  # another run published the same build first
        shutil.rmtree(staging, ignore_errors=True)
    return result


DEFAULT_JACOCO_DIR = Path("/usr/share/java")  # Debian's libjacoco-java and libasm-java
JACOCO_JARS = ("org.jacoco.core.jar", "org.jacoco.agent.rt.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar")
# in the package the probed classes name (JaCoCo.RUNTIMEPACKAGE): on to the runtime of Debian's unshaded agent jar
JACOCO_FORWARD = ("public final class Offline { public static boolean[] getProbes(long id, String name, int probes) "
                  "{ return org.jacoco.agent.rt.internal.Offline.getProbes(id, name, probes); } }")


def jacoco_variant(javac: Path, compiled: Compiled, jacoco_dir: Path, work: Path) -> Optional[str]:
    """The kernels instrumented offline by JaCoCo, as a harness variant: ``DIR:...:JAR:...`` (the probed
    classes, the forwarding class, then JaCoCo's jars), or None (said why, in one line) when the jars are missing.

    ``benchmarks/java/jacoco/OfflineInstrument.java`` runs ``org.jacoco.core.instr.Instrumenter`` with an
    ``OfflineInstrumentationAccessGenerator`` over the kernels' original class files (the ones the original
    column runs), afresh on every run. The probed classes call ``<JaCoCo.RUNTIMEPACKAGE>.Offline.getProbes(long,
    String, int)``: ``org.jacoco.agent.rt.internal_<hash>.Offline``, the package JaCoCo's own agent jar shades
    its runtime into. Debian's ``org.jacoco.agent.rt.jar`` is not shaded: its runtime is
    ``org.jacoco.agent.rt.internal.Offline``. So a one-line class of ours in the package the probes name
    forwards to it. The instrumenting tool and that class are compiled at run time into the benchmark cache
    folder (``jacoco-<hash of the tool's source, the jars and javac>``). The agent writes no coverage file
    (``-Djacoco-agent.output=none``); the harness reads its probes through ``RT.getAgent()`` and fails unless
    some were hit."""
    tool = jacoco_tool(javac, jacoco_dir, "overhead: the JaCoCo column is left out")
    if tool is None:
        return None
    jars = [jacoco_dir / name for name in JACOCO_JARS]
    classpath = os.pathsep.join(str(j) for j in jars)
    built = Path(tool.split(os.pathsep)[-1]).parent
    probed = work / "jacoco-kernels"
    done = subprocess.run([str(javac.parent / "java"), "-cp", tool,
                           "bench.jacoco.OfflineInstrument", str(compiled.kernels), str(probed)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"JaCoCo's offline instrumentation failed:\n{done.stdout}")
    package = done.stdout.strip().splitlines()[-1]
    runtime = package.replace(".", "/").encode() + b"/Offline"
    if not any(runtime in f.read_bytes() for f in probed.rglob("*.class")):
        sys.exit(f"none of JaCoCo's probed classes calls {package}.Offline (JaCoCo.RUNTIMEPACKAGE)")
    entries = [str(probed)]
    if package != "org.jacoco.agent.rt.internal":
        forward = built / "forward" / package
        if not forward.is_dir():
            staging = Path(tempfile.mkdtemp(dir=built, prefix=".forward-"))
            source = staging / "src" / "Offline.java"
            source.parent.mkdir()
            source.write_text(f"package {package};\n{JACOCO_FORWARD}\n")
            _javac(javac, ["-cp", classpath, "-d", str(staging / "classes"), str(source)])
            forward.parent.mkdir(exist_ok=True)
            try:
                os.replace(staging / "classes", forward)
            except OSError:  # another run compiled it first
                pass
            shutil.rmtree(staging, ignore_errors=True)
        entries.append(str(forward))
    return os.pathsep.join([*entries, *(str(j) for j in jars)])


def jacoco_tool(javac: Path, jacoco_dir: Path, without: str) -> Optional[str]:
    """The classpath that runs ``bench.jacoco.OfflineInstrument`` (JaCoCo's jars, then the tool compiled by
    ``javac``), or None when a jar is missing: then it prints ``without``, which jars and how to get them."""
    jars = [jacoco_dir / name for name in JACOCO_JARS]
    missing = [j.name for j in jars if not j.is_file()]
    if missing:
        print(f"{without}: {', '.join(missing)} not found in {jacoco_dir} "
              f"(Debian: apt-get install libjacoco-java; or point --jacoco-dir at the jars)", flush=True)
        return None
    return os.pathsep.join([*(str(j) for j in jars), str(_jacoco_tools(javac, jars) / "tool")])


def _jacoco_tools(javac: Path, jars: list) -> Path:
    """``bench.jacoco.OfflineInstrument`` compiled against the JaCoCo jars, in the benchmark cache folder."""
    source = JAVA_DIR / "jacoco" / "OfflineInstrument.java"
    version = subprocess.run([str(javac), "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True).stdout.strip()
    h = hashlib.sha256(f"{version}\0--release 11\0".encode() + source.read_bytes())
    for jar in jars:
        st = jar.stat()
        h.update(f"\0{jar.resolve()}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    built = cache_root() / f"jacoco-{h.hexdigest()[:20]}"
    if (built / "tool" / ".complete").exists():
        return built
    built.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=built, prefix=".tool-"))
    _javac(javac, ["-cp", os.pathsep.join(str(j) for j in jars), "-d", str(staging), str(source)])
    (staging / ".complete").write_text(version + "\n")
    shutil.rmtree(built / "tool", ignore_errors=True)  # an incomplete earlier attempt
    try:
        os.replace(staging, built / "tool")
    except OSError:  # another run published it first
        shutil.rmtree(staging, ignore_errors=True)
    return built


def _javac(javac: Path, args: list) -> None:
    done = subprocess.run([str(javac), "--release", "11", "-encoding", "UTF-8", *args],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"javac {' '.join(args)} failed:\n{done.stdout}")


def strategies(requested: Optional[list]) -> list:
    """Every counting strategy, or the requested ones."""
    unknown = [s for s in requested or [] if s not in STRATEGIES]
    if unknown:
        sys.exit(f"unknown counting strategy {', '.join(unknown)}: choose from {', '.join(STRATEGIES)}")
    return requested or list(STRATEGIES)


COUNTERS_LIST = "pytest_bytecount/counters.list"  # the Counters classes the harness reads, in order


def bytecodes_counted(classes: list, values: list) -> int:
    """Executed bytecodes of every counted method, from the harness's values: each class's Counters
    snapshot in :data:`COUNTERS_LIST` order (a snapshot holds at least one counter)."""
    total, offset = 0, 0
    for c in classes:
        total += sum(m["total"] for m in c.counts(values[offset:offset + c.size]).values())
        offset += max(c.size, 1)
    return total


@dataclass
class CpuWatch:
    """How much CPU other processes took while we ran: timings on a busy machine are not figures."""

    wall: float
    busy: Optional[float]  # seconds of busy CPU on the whole machine (/proc/stat), None if unknown
    own: float  # our process and its waited-for children

    @staticmethod
    def _busy() -> Optional[float]:
        try:
            fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
        except (OSError, ValueError, IndexError):
            return None
        user, nice, system, _idle, _iowait, irq, softirq, steal = fields
        return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")

    @classmethod
    def now(cls) -> "CpuWatch":
        t = os.times()
        return cls(time.perf_counter(), cls._busy(), t.user + t.system + t.children_user + t.children_system)

    def others_share(self) -> Optional[float]:
        """Fraction of all cores used by other processes since this reading."""
        end = CpuWatch.now()
        if self.busy is None or end.busy is None:
            return None
        cores = os.cpu_count() or 1
        return max(0.0, (end.busy - self.busy) - (end.own - self.own)) / ((end.wall - self.wall) * cores)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- part 1: counting overhead

@dataclass
class KernelResult:
    """One kernel over several JVMs (forks); each fork compares its own original and counted runs."""

    kernel: Kernel
    forks_original_ms: list  # per fork, median ms
    forks_counted_ms: dict  # variant -> per fork, median ms
    bytecodes_per_run: dict  # variant -> executed bytecodes of the targets per run (None if unknown)
    warmup_rounds: list  # per fork; a trailing "!" when timings had not settled at the time limit
    runs_timed: list  # per fork
    vm: str
    forks_floor_ms: list = field(default_factory=list)  # per fork, the hand-written floor variant
    forks_exact_ms: list = field(default_factory=list)  # per fork, the hand-written exact, thread-safe floor
    forks_jacoco_ms: list = field(default_factory=list)  # per fork, JaCoCo's offline coverage probes
    jacoco_probes: list = field(default_factory=list)  # per fork, "hit/all" of JaCoCo's probes after the runs

    @property
    def original_ms(self) -> float:
        return statistics.median(self.forks_original_ms)

    @property
    def counted_ms(self) -> dict:
        return {n: statistics.median(ms) for n, ms in self.forks_counted_ms.items()}

    def fork_ratios(self, variant: str) -> list:
        return [c / o for c, o in zip(self.forks_counted_ms[variant], self.forks_original_ms)]

    def ratio(self, variant: str) -> float:
        """The median over forks of counted / original measured in the same JVM."""
        return statistics.median(self.fork_ratios(variant))

    def jacoco_ratio(self) -> Optional[float]:
        if not self.forks_jacoco_ms:
            return None
        return statistics.median(j / o for j, o in zip(self.forks_jacoco_ms, self.forks_original_ms))

    def floor_ratio(self, exact: bool = False) -> Optional[float]:
        forks = self.forks_exact_ms if exact else self.forks_floor_ms
        if not forks:
            return None
        return statistics.median([f / o for f, o in zip(forks, self.forks_original_ms)])

    def extra_ns_per_bytecode(self, variant: str) -> Optional[float]:
        bytecodes = self.bytecodes_per_run.get(variant)
        return (self.counted_ms[variant] - self.original_ms) * 1e6 / bytecodes if bytecodes else None


def run_kernel(kernel: Kernel, compiled: Compiled, java_home: Path, variants: list, work: Path,
               harness_options: list, forks: int, jacoco: Optional[str] = None) -> KernelResult:
    counted = {}  # strategy -> [CountedClass]
    args = []
    for strategy in variants:
        out = work / f"{kernel.class_name}-{strategy}"
        counter = ClassCounter(Classpath([compiled.kernels]), CountingOptions(tuple(kernel.targets), strategy))
        counter.check()
        classes = counter.count_all()
        files = {COUNTERS_LIST: "".join(c.counters_name.replace("/", ".") + "\n" for c in classes).encode()}
        for c in classes:
            files.update({f"{c.name}.class": c.data, f"{c.counters_name}.class": c.counters_data})
        write_files(files, out)
        counted[strategy] = classes
        args.append(f"{strategy}={out}")
    if kernel.floor:
        args += [f"ref-floor={compiled.floor}", f"ref-exact={compiled.floor_exact}"]
    if jacoco:
        args.append(f"ref-jacoco={jacoco}")
    cmd = [str(java_home / "bin" / "java"), "-Djacoco-agent.output=none", "-cp", str(compiled.harness),
           "bench.harness.OverheadHarness",
           kernel.class_name, str(compiled.kernels), *args, *harness_options]
    result = KernelResult(kernel, [], {name: [] for name in counted}, {}, [], [], "")
    for _ in range(forks):
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"harness failed on {kernel.class_name} (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
        data = json.loads(done.stdout.strip().splitlines()[-1])
        by_name = {v["name"]: v for v in data["variants"]}
        original = by_name["original"]
        result.forks_original_ms.append(original["median_ns"] / 1e6)
        result.warmup_rounds.append(f"{data['warmup_rounds']}{'' if data['warmup_stable'] else '!'}")
        result.runs_timed.append(original["runs_timed"])
        result.vm = data["vm"]
        if "ref-floor" in by_name:
            result.forks_floor_ms.append(by_name["ref-floor"]["median_ns"] / 1e6)
            result.forks_exact_ms.append(by_name["ref-exact"]["median_ns"] / 1e6)
        if jacoco:
            probed = by_name["ref-jacoco"]
            if not probed.get("probes_hit"):  # the harness fails on 0; a harness not reading them says nothing
                sys.exit(f"harness did not report JaCoCo's probes hit for {kernel.class_name}:\n{done.stdout}")
            result.forks_jacoco_ms.append(probed["median_ns"] / 1e6)
            result.jacoco_probes.append(f"{probed['probes_hit']}/{probed['probes']}")
        for name, classes in counted.items():
            v = by_name[name]
            result.forks_counted_ms[name].append(v["median_ns"] / 1e6)
            try:  # the counts layout belongs to the transform; a figure we cannot derive is left out
                total = bytecodes_counted(classes, v["counts"])
                per_run = total // v["runs_total"] if total % v["runs_total"] == 0 else None
            except Exception:  # noqa: BLE001
                per_run = None
            if result.bytecodes_per_run.get(name, per_run) != per_run:
                per_run = None  # forks disagree: not deterministic, no figure
            result.bytecodes_per_run[name] = per_run
    return result


def part_overhead(args, compiled: Compiled, variants: list) -> list:
    names = list(variants)
    options = [f"warmup-min-s={args.warmup_min_s}", f"warmup-max-s={args.warmup_max_s}",
               f"measure-s={args.measure_s}", f"min-runs={args.min_runs}"]
    kernels = [k for k in KERNELS if not args.kernel or any(p.lower() in k.class_name.lower() for p in args.kernel)]
    if not kernels:
        sys.exit(f"no kernel matches {args.kernel}; kernels: {', '.join(k.class_name for k in KERNELS)}")
    results = []
    with tempfile.TemporaryDirectory(prefix="bytecount-bench-") as work:
        jacoco = jacoco_variant(find_javac(args.java_home), compiled, args.jacoco_dir, Path(work))
        for kernel in kernels:
            log(f"overhead: {kernel.class_name} ...")
            results.append(run_kernel(kernel, compiled, args.java_home, variants, Path(work), options, args.forks,
                                      jacoco))
    print()
    print(f"## Counting overhead ({results[0].vm}; per JVM the median of alternating runs after warm-up, "
          f"then the median over {args.forks} JVMs)")
    head = f"{'kernel':44} {'original ms':>11}"
    for n in names:
        head += f" {n + ' ms':>14} {'ratio':>6} {'ratios per JVM':>20} {'+ns/bc':>6}"
    with_jacoco = any(r.forks_jacoco_ms for r in results)
    if with_jacoco:
        head += f" {'JaCoCo':>7} {'probes hit':>20}"
    head += f" {'floor ratio':>11} {'exact floor':>11} {'bytecodes/run':>14} {'warm-up':>12} {'timed':>12}"
    print(head)
    print("-" * len(head))
    for r in results:
        line = f"{r.kernel.label:44} {r.original_ms:11.3f}"
        for n in names:
            spread = " ".join(f"{x:.2f}" for x in r.fork_ratios(n))
            extra = fmt(r.extra_ns_per_bytecode(n), ".2f")
            line += f" {r.counted_ms[n]:14.3f} {r.ratio(n):6.2f} {spread:>20} {extra:>6}"
        if with_jacoco:
            line += f" {fmt(r.jacoco_ratio(), '.2f'):>7} {','.join(r.jacoco_probes):>20}"
        line += f" {fmt(r.floor_ratio(), '.2f'):>11} {fmt(r.floor_ratio(exact=True), '.2f'):>11}"
        line += f" {fmt_int(r.bytecodes_per_run.get(names[0])):>14}"
        line += f" {','.join(r.warmup_rounds):>12} {','.join(map(str, r.runs_timed)):>12}"
        print(line)
    for n in names:
        ratios = [r.ratio(n) for r in results]
        worst = max(results, key=lambda r: r.ratio(n))
        print(f"{n}: median ratio {statistics.median(ratios):.2f}, "
              f"worst {worst.ratio(n):.2f} ({worst.kernel.class_name})")
    jacoco_ratios = [r.jacoco_ratio() for r in results if r.jacoco_ratio() is not None]
    if jacoco_ratios:
        print(f"JaCoCo: median ratio {statistics.median(jacoco_ratios):.2f}, worst {max(jacoco_ratios):.2f}")
    mismatched = [r.kernel.class_name for r in results if len({b for b in r.bytecodes_per_run.values()}) > 1]
    if mismatched:
        print(f"WARNING: strategies disagree on executed bytecodes per run for {', '.join(mismatched)}")
    print("(ms: median over the JVMs; ratio: median over the JVMs of counted / original in that JVM; +ns/bc: "
          "time added per executed target bytecode; bytecodes/run: executed by the target methods per kernel run, "
          "from the counters; warm-up: rounds per JVM, ! = timings had not settled at the time limit; timed: "
          "alternating rounds timed per JVM; floor ratio: a hand-written variant of the target doing one static "
          "increment per invocation (benchmarks/java/floor), the least any per-invocation report can cost; "
          "exact floor: a hand-written variant recording by hand what an exact, thread-safe count with counters of its "
          "own must record "
          "(benchmarks/java/floor-exact); JaCoCo: median over the JVMs of JaCoCo-probed / original, the kernels with "
          "JaCoCo's offline coverage probes; probes hit: per JVM, of the probes in the classes that ran)")
    return results


def fmt(value, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def fmt_int(value) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


# --------------------------------------------------------------------------- part 2: instrumentation throughput

@dataclass
class Throughput:
    variant: str
    jar: str
    classes: int  # counted (with a method to count)
    methods: int
    refused: int
    seconds: float
    megabytes: float  # the counted classes and their Counters classes
    read_parse_seconds: float  # reading every class of the jar and parsing it, nothing counted
    cold_cache_seconds: float  # counting every class with an empty per-class cache (storing each)
    cached_seconds: float  # the same from the warm per-class cache (every class a hit, hashes checked)
    blocks: int = 0  # per basic block: the blocks of the methods counted that way,
    block_methods: int = 0  # those methods,
    counters: int = 0  # and their counters (array-length totals not included)


def part_throughput(args, variants: list) -> list:
    guava = Path(args.guava)
    if not guava.is_file():
        sys.exit(f"{guava} not found (apt-get install libguava-java, or pass --guava)")
    read_parse = float("inf")
    for _ in range(args.throughput_repeat):
        t = time.perf_counter()
        classpath = Classpath([guava])
        for name in classpath.class_names():
            ClassFile.parse(classpath.read(name))
        read_parse = min(read_parse, time.perf_counter() - t)
    results = []
    for strategy in variants:
        best, counted = float("inf"), None
        for i in range(args.throughput_repeat):
            log(f"throughput: {strategy} run {i + 1}/{args.throughput_repeat} ...")
            t = time.perf_counter()
            # a fresh classpath and counter: reading the jar counts, nothing is remembered
            counted = ClassCounter(Classpath([guava]), CountingOptions(("**",), strategy)).count_all()
            best = min(best, time.perf_counter() - t)
        size = sum(len(c.data) + len(c.counters_data) for c in counted) / 1e6
        with tempfile.TemporaryDirectory(prefix="bytecount-cache-") as cache_dir:
            log(f"throughput: {strategy}, filling the per-class cache ...")
            t = time.perf_counter()
            ClassCounter(Classpath([guava]), CountingOptions(("**",), strategy), cache_dir=Path(cache_dir)).count_all()
            cold = time.perf_counter() - t
            cached = float("inf")
            for i in range(args.throughput_repeat):
                log(f"throughput: {strategy}, warm per-class cache run {i + 1}/{args.throughput_repeat} ...")
                warm = ClassCounter(Classpath([guava]), CountingOptions(("**",), strategy), cache_dir=Path(cache_dir))
                t = time.perf_counter()
                hit = warm.count_all()
                cached = min(cached, time.perf_counter() - t)
                if warm.cache_hits != len(hit):
                    sys.exit(f"the warm cache hit {warm.cache_hits} of {len(hit)} classes")
            if [(c.name, c.data, c.counters_data) for c in hit] != [(c.name, c.data, c.counters_data) for c in counted]:
                sys.exit("a cache hit must give the same classes")
        maps = [m for c in counted for m in c.maps]
        per_block = [m for m in maps if m.blocks is not None]
        results.append(Throughput(strategy, guava.stem, len(counted), len(maps), sum(len(c.refused) for c in counted),
                                  best, size, read_parse, cold, cached, sum(len(m.blocks) for m in per_block),
                                  len(per_block), sum(m.counters - len(m.elements) for m in per_block)))
    print()
    print(f"## Instrumentation throughput: every method of {guava.name}, class by class "
          f"(Python {platform.python_version()}, one process, best of {args.throughput_repeat})")
    head = (f"{'strategy':12} {'classes':>8} {'methods':>8} {'refused':>8} {'output MB':>9} {'seconds':>8} "
            f"{'classes/s':>10} {'methods/s':>10} {'reading + parsing alone, s':>27} {'cold cache, s':>14} "
            f"{'warm cache, s':>14}")
    print(head)
    print("-" * len(head))
    for r in results:
        print(f"{r.variant:12} {r.classes:8d} {r.methods:8d} {r.refused:8d} {r.megabytes:9.1f} {r.seconds:8.2f} "
              f"{r.classes / r.seconds:10.0f} {r.methods / r.seconds:10.0f} {r.read_parse_seconds:27.2f} "
              f"{r.cold_cache_seconds:14.2f} {r.cached_seconds:14.2f}")
        if r.blocks:
            print(f"{'':12} per basic block: {r.blocks:,} blocks in {r.block_methods:,} methods, {r.counters:,} "
                  f"counters (the rest of the counts follow from them)")
    return results


# --------------------------------------------------------------------------- parts 3 and 4: the pytest path

CONFTEST = '''\
"""The plain variant (the original class through JPype, no plugin involved), and test end times for both."""
import json
import os
import time

import jpype
import pytest

_started = []
_finished = []


@pytest.fixture(scope="session")
def plain_sorting():
    jpype.startJVM({libjvm!r}, "-Djava.class.path=" + {classes!r}, convertStrings=False)
    _started.append(True)
    return jpype.JClass("demo.Sorting")


def pytest_runtest_logfinish(nodeid, location):
    _finished.append(time.perf_counter())


def pytest_sessionfinish(session):
    # when each test ended: the time between the first and the last is free of start-up and shutdown
    with open(os.environ["BENCH_TIMES"], "w") as f:
        json.dump(_finished, f)


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    # as the plugin does: before faulthandler swaps signal handlers back (jpype issues 842, 1261)
    if _started and jpype.isJVMStarted():
        jpype.shutdownJVM()
'''

MARKED = '''\
import jpype
import pytest


@pytest.mark.bytecount("demo.Sorting#insertionSort")
@pytest.mark.parametrize("i", range({n}))
def test_sort(bytecount, i):
    a = jpype.JArray(jpype.JInt)(list(range(100, 0, -1)))
    bytecount.jclass("demo.Sorting").insertionSort(a)
    assert list(a) == sorted(a)
'''

PLAIN = '''\
import jpype
import pytest


@pytest.mark.parametrize("i", range({n}))
def test_sort(plain_sorting, i):
    a = jpype.JArray(jpype.JInt)(list(range(100, 0, -1)))
    plain_sorting.insertionSort(a)
    assert list(a) == sorted(a)
'''

PYTHON_ONLY = '''\
def test_python():
    assert sorted(range(100, 0, -1)) == list(range(1, 101))
'''

JPYPE_START = '''\
import json, sys, time
t0 = time.perf_counter()
import jpype
t1 = time.perf_counter()
jpype.startJVM(sys.argv[1], convertStrings=False)
jpype.JClass("java.lang.System").currentTimeMillis()
t2 = time.perf_counter()
jpype.shutdownJVM()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "start": t2 - t1, "shutdown": t3 - t2}))
'''


PYTEST_OPTIONS = ("-p", "pytest_bytecount.plugin.hooks", "-p", "no:cacheprovider", "-q")


@dataclass
class PytestRun:
    wall: float  # seconds, the whole subprocess
    ends: list  # perf_counter when each test finished (its own process's clock)

    def per_test(self) -> float:
        """Seconds per test after the first one (which also pays for the JVM and instrumenting)."""
        return (self.ends[-1] - self.ends[0]) / (len(self.ends) - 1)


@dataclass
class PytestProject:
    """Two temporary projects over examples/demo: ``classpath = ["classes"]`` and ``sources = ["src"]``."""

    root: Path
    java_home: Path
    libjvm: Path
    n: int
    env: dict = field(default_factory=dict)

    @classmethod
    def create(cls, root: Path, compiled: Compiled, java_home: Path, n: int) -> "PytestProject":
        libjvm = choose_jvm(str(java_home)).libjvm
        for kind in ("classpath", "sources"):
            d = root / kind
            d.mkdir(parents=True)
            setting = 'classpath = ["classes"]' if kind == "classpath" else 'sources = ["src"]'
            (d / "pyproject.toml").write_text(f'[tool.bytecount]\n{setting}\njava-home = "{java_home}"\n')
            shutil.copytree(compiled.demo, d / "classes")
            (d / "src" / "demo").mkdir(parents=True)
            shutil.copy(DEMO_SOURCE, d / "src" / "demo" / "Sorting.java")
            (d / "conftest.py").write_text(CONFTEST.format(libjvm=str(libjvm), classes=str(d / "classes")))
            for count in sorted({1, n}):
                (d / f"test_marked_{count}.py").write_text(MARKED.format(n=count))
                (d / f"test_plain_{count}.py").write_text(PLAIN.format(n=count))
            (d / "test_python_1.py").write_text(PYTHON_ONLY)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "BYTECOUNT_"))}
        env.pop("JAVA_HOME", None)  # the projects name their java-home; the plain conftest its libjvm
        # only our plugin: whatever else is installed (hypothesis alone imports for 1.2 s here) is noise
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        return cls(root, java_home, libjvm, n, env)

    def pytest(self, kind: str, files: list, *extra: str) -> "PytestRun":
        """One ``python -m pytest`` subprocess; fails loudly unless every test passed."""
        cmd = [sys.executable, "-m", "pytest", *PYTEST_OPTIONS, *extra, *files]
        ends = self.root / "test-ends.json"
        t = time.perf_counter()
        done = subprocess.run(cmd, cwd=self.root / kind, env={**self.env, "BENCH_TIMES": str(ends)},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        elapsed = time.perf_counter() - t
        if done.returncode != 0:
            sys.exit(f"pytest {' '.join(files)} in {self.root / kind} failed (exit {done.returncode}):\n{done.stdout}")
        return PytestRun(elapsed, json.loads(ends.read_text()))

    def record_baselines(self) -> None:
        for kind in ("classpath", "sources"):
            self.pytest(kind, [f"test_marked_{c}.py" for c in sorted({1, self.n})], "--bytecount-update")

    def jpype_start(self) -> dict:
        done = subprocess.run([sys.executable, "-c", JPYPE_START, str(self.libjvm)], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])


def timed_runs(project: PytestProject, runs: dict, repeat: int) -> dict:
    """{name: [PytestRun]}, interleaved, after one untimed run each (pyc files, disk cache)."""
    results = {name: [] for name in runs}
    for name, (kind, files) in runs.items():
        project.pytest(kind, files)
    for i in range(repeat):
        log(f"pytest runs: round {i + 1}/{repeat} ...")
        for name, (kind, files) in runs.items():
            results[name].append(project.pytest(kind, files))
    return results


@dataclass
class PytestFigures:
    n: int
    repeat: int
    runs: dict  # name -> [PytestRun]
    jpype: Optional[dict] = None

    @property
    def medians(self) -> dict:
        """Median wall seconds per kind of run."""
        return {name: statistics.median(r.wall for r in runs) for name, runs in self.runs.items()}

    def per_test_ms(self) -> float:
        """(marked - plain) / N over whole pytest runs: the one-off costs of a session are spread over N."""
        m = self.medians
        return (m["marked_n"] - m["plain_n"]) / self.n * 1e3

    def in_session_ms(self) -> float:
        """Per test from 2nd to last, inside the session (no start-up, collection or shutdown noise)."""
        marked = statistics.median(r.per_test() for r in self.runs["marked_n"])
        plain = statistics.median(r.per_test() for r in self.runs["plain_n"])
        return (marked - plain) * 1e3

    def in_session_each_ms(self, name: str) -> float:
        return statistics.median(r.per_test() for r in self.runs[name]) * 1e3


def part_pytest(args, compiled: Compiled, parts: list) -> PytestFigures:
    n = args.tests
    runs = {}
    if "per-test" in parts:
        runs["marked_n"] = ("classpath", [f"test_marked_{n}.py"])
        runs["plain_n"] = ("classpath", [f"test_plain_{n}.py"])
    runs.update({"marked_1": ("classpath", ["test_marked_1.py"]), "plain_1": ("classpath", ["test_plain_1.py"])})
    if "startup" in parts:
        runs.update({"python_1": ("classpath", ["test_python_1.py"]),
                     "marked_1_sources": ("sources", ["test_marked_1.py"])})
    with tempfile.TemporaryDirectory(prefix="bytecount-bench-pytest-") as tmp:
        project = PytestProject.create(Path(tmp), compiled, args.java_home, n)
        log("pytest runs: recording baselines (and compiling the sources project) ...")
        project.record_baselines()
        figures = PytestFigures(n, args.repeat, timed_runs(project, runs, args.repeat))
        if "startup" in parts:
            starts = [project.jpype_start() for _ in range(args.repeat)]
            figures.jpype = {k: statistics.median(s[k] for s in starts) for k in starts[0]}
    m = figures.medians
    print()
    print(f"## The pytest path (PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python -m pytest {' '.join(PYTEST_OPTIONS)}; "
          f"wall time, median of {args.repeat} interleaved runs; {choose_jvm(str(args.java_home)).describe()})")
    labels = {
        "python_1": "1 plain Python test (no Java)",
        "plain_1": "1 test calling demo.Sorting through plain JPype",
        "marked_1": "1 marked test (bytecount fixture), classpath = [\"classes\"]",
        "marked_1_sources": "1 marked test, sources = [\"src\"] (javac cache warm)",
        "plain_n": f"{n} tests calling demo.Sorting through plain JPype",
        "marked_n": f"{n} marked tests (bytecount fixture)",
    }
    for key, label in labels.items():
        if key in m:
            print(f"{label:64} {m[key]:8.3f} s")
    if "per-test" in parts:
        print(f"per-test overhead, (marked - plain) / {n} over whole runs: {figures.per_test_ms():.1f} ms")
        print(f"per-test overhead inside the session (2nd to {n}th test end): {figures.in_session_ms():.1f} ms "
              f"(marked {figures.in_session_each_ms('marked_n'):.1f} ms, "
              f"plain JPype {figures.in_session_each_ms('plain_n'):.1f} ms per test)")
    if "startup" in parts:
        j = figures.jpype
        print(f"session start-up, 1 marked test - 1 plain Python test: {m['marked_1'] - m['python_1']:.3f} s "
              f"(JVM through JPype in pytest, plain JPype - Python: {m['plain_1'] - m['python_1']:.3f} s; "
              f"the plugin's own, marked - plain JPype: {m['marked_1'] - m['plain_1']:.3f} s; "
              f"with sources = [...]: +{m['marked_1_sources'] - m['marked_1']:.3f} s)")
        print(f"bare JPype: import {j['import']:.3f} s, startJVM {j['start']:.3f} s, shutdownJVM {j['shutdown']:.3f} s")
    return figures


# --------------------------------------------------------------------------- the README table

def markdown(machine: str, overhead: Optional[list], throughput: Optional[list], py: Optional[PytestFigures],
             parts: list) -> str:
    out = [machine, ""]
    if overhead:
        names = list(overhead[0].counted_ms)
        head = "| kernel | original ms |" + "".join(f" {n} ms | {n} × |" for n in names)
        jacoco = [r.jacoco_ratio() for r in overhead if r.jacoco_ratio() is not None]  # none: column left out
        head += (" JaCoCo × |" if jacoco else "") + " floor × | exact floor × | target bytecodes per run |"
        out += [head, "| --- | ---: |" + " ---: | ---: |" * len(names) + " ---: |" * (4 if jacoco else 3)]
        for r in overhead:
            row = f"| {r.kernel.label} | {r.original_ms:.2f} |"
            row += "".join(f" {r.counted_ms[n]:.2f} | {r.ratio(n):.2f} |" for n in names)
            row += f" {fmt(r.jacoco_ratio(), '.2f')} |" if jacoco else ""
            out.append(row + f" {fmt(r.floor_ratio(), '.2f')} | {fmt(r.floor_ratio(exact=True), '.2f')} |"
                       f" {fmt_int(r.bytecodes_per_run.get(names[0]))} |")
        medians = "".join(f" | {statistics.median(r.ratio(n) for r in overhead):.2f} |" for n in names)
        worsts = "".join(f" | {max(r.ratio(n) for r in overhead):.2f} |" for n in names)
        out.append(f"| **median ratio** | |{medians}" + (f" {statistics.median(jacoco):.2f} |" if jacoco else ""))
        out.append(f"| **worst ratio** | |{worsts}" + (f" {max(jacoco):.2f} |" if jacoco else ""))
        out.append("")
    rows = []
    for t in throughput or []:
        suffix = f" ({t.variant})"
        rows.append(f"| count every method of {t.jar}, class by class{suffix}: {t.classes:,} classes, "
                    f"{t.methods:,} methods | {t.seconds:.1f} s, {t.classes / t.seconds:,.0f} classes/s "
                    f"(reading and parsing every class alone: {t.read_parse_seconds:.1f} s) |")
        rows.append(f"| the same with the per-class cache{suffix}, cold / warm "
                    f"| {t.cold_cache_seconds:.1f} s / {t.cached_seconds:.1f} s |")
    if py and "per-test" in parts:
        rows.append(f"| pytest, per marked test, (marked - plain JPype) / {py.n} | {py.per_test_ms():.1f} ms |")
        rows.append(f"| pytest, per marked test inside the session (2nd to {py.n}th test) "
                    f"| {py.in_session_ms():.1f} ms |")
    if py and "startup" in parts:
        m = py.medians
        rows.append(f"| pytest session start-up, 1 marked test - 1 plain Python test "
                    f"| {m['marked_1'] - m['python_1']:.2f} s |")
        rows.append(f"| of which the JVM through JPype (plain JPype test - plain Python test) "
                    f"| {m['plain_1'] - m['python_1']:.2f} s |")
        rows.append(f"| bare `jpype.startJVM` | {py.jpype['start']:.2f} s |")
    if rows:
        out += ["| figure | value |", "| --- | ---: |", *rows]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="PART",
                        help=f"run only these parts (repeatable or comma-separated): {', '.join(PARTS)}")
    parser.add_argument("--java-home", type=Path, default=Path(os.environ.get("JAVA_HOME") or DEFAULT_JAVA_HOME),
                        help="JDK running the kernels and the pytest JVM (default: JAVA_HOME, else JDK 17)")
    parser.add_argument("--strategy", action="append", help="counting strategies to measure (default: all)")
    parser.add_argument("--kernel", action="append", help="only kernels whose class name contains this")
    parser.add_argument("--warmup-min-s", type=float, default=2.0)
    parser.add_argument("--warmup-max-s", type=float, default=15.0)
    parser.add_argument("--measure-s", type=float, default=3.0, help="timed alternating runs, at least this long")
    parser.add_argument("--min-runs", type=int, default=15)
    parser.add_argument("--forks", type=int, default=3, help="JVMs per kernel (JIT outcomes vary between JVMs)")
    parser.add_argument("--guava", default=DEFAULT_GUAVA)
    parser.add_argument("--jacoco-dir", type=Path, default=DEFAULT_JACOCO_DIR,
                        help=f"folder with {', '.join(JACOCO_JARS)} for the JaCoCo column (default: Debian's)")
    parser.add_argument("--throughput-repeat", type=int, default=2)
    parser.add_argument("--tests", type=int, default=50, help="tests per file in the per-test part")
    parser.add_argument("--repeat", type=int, default=5, help="pytest runs per variant (medians)")
    parser.add_argument("--json", type=Path, help="also write the raw figures to this file")
    args = parser.parse_args(argv)
    parts = [p.strip() for o in args.only for p in o.split(",") if p.strip()] or list(PARTS)
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s) {sorted(unknown)}; choose from {', '.join(PARTS)}")
    if args.tests < 2:
        parser.error("--tests must be at least 2")
    args.java_home = args.java_home.resolve()
    started = time.perf_counter()

    variants = strategies(args.strategy)
    machine = (f"Machine: {cpu_model()}, {os.cpu_count()} cores, {os_name()}; Python {platform.python_version()}; "
               f"JVM: {java_version(args.java_home)} at {args.java_home}")
    print(machine)
    print(f"(1-minute load average before the run: {os.getloadavg()[0]:.2f})")
    watch = CpuWatch.now()
    compiled = compile_java(find_javac(args.java_home)) if set(parts) - {"throughput"} else None

    overhead = part_overhead(args, compiled, variants) if "overhead" in parts else None
    throughput = part_throughput(args, variants) if "throughput" in parts else None
    py = part_pytest(args, compiled, parts) if {"per-test", "startup"} & set(parts) else None

    table = markdown(machine, overhead, throughput, py, parts)
    print()
    print("## Markdown (for the README)")
    print()
    print(table)
    print()
    print(f"(benchmark wall time {time.perf_counter() - started:.0f} s)")
    others = watch.others_share()
    if others is not None:
        note = " -- WARNING: a busy machine; these timings are not representative" if others > 0.1 else ""
        print(f"(other processes used {others:.0%} of the {os.cpu_count()} cores meanwhile{note})")
    if args.json:
        raw = {
            "machine": machine,
            "overhead": [{"kernel": r.kernel.class_name, "targets": list(r.kernel.targets),
                          "original_ms": r.original_ms, "counted_ms": r.counted_ms,
                          "forks_original_ms": r.forks_original_ms, "forks_counted_ms": r.forks_counted_ms,
                          "bytecodes_per_run": r.bytecodes_per_run, "warmup_rounds": r.warmup_rounds,
                          "runs_timed": r.runs_timed, "forks_jacoco_ms": r.forks_jacoco_ms,
                          "jacoco_probes_hit": r.jacoco_probes} for r in overhead or []],
            "throughput": [t.__dict__ for t in throughput or []],
            "pytest": None if py is None else {"n": py.n, "medians_s": py.medians, "jpype": py.jpype,
                                               "ends_s": {k: [r.ends for r in v] for k, v in py.runs.items()}},
        }
        args.json.write_text(json.dumps(raw, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
