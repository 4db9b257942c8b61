"""`python -m pytest_bytecount count|instrument` as a user runs them, on counts derived by hand.

Each run is a subprocess: a process gets one JVM, and these tests use several.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.javac import compile_java
from tests.support.javap import code_listings
from tests.support.jdk import JDK17, find_jdk_tool, jdk25_java, zero_java
from tests.support.paths import BY_HAND



@pytest.fixture(scope="module")
def tiny() -> Path:
    return compile_java(BY_HAND, release="17")


def bytecount(*args, java_home=JDK17, check=True) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pytest_bytecount", *args]
    if args and args[0] == "count" and java_home:
        cmd[4:4] = ["--java-home", java_home]
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def without_bytecode_hashes(counts: dict) -> dict:
    return {m: {k: v for k, v in c.items() if k not in ("code_fingerprint", "line_digests")} for m, c in counts.items()}


def test_a_loop_counted_by_hand(tiny):
    # javac 17 compiles sum(n) to: iconst_0 istore_1 iconst_0 istore_2 | L: iload_2 iload_0 if_icmpge E
    # iload_1 iload_2 iadd istore_1 iinc goto L | E: iload_1 ireturn. main calls sum(3) and sum(0):
    # sum(3) runs the loop head 4 times and the body 3 times; sum(0) runs the head once.
    out = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#sum", "hand.Tiny").stdout
    counts = json.loads(out)
    # Per source line (javac's table: 6 at the first iconst_0, 7 at the loop's init, 8 at the body, 7 again
    # at iinc, 10 at the return): line 6 two instructions a call (4); line 7 iconst_0 istore_2 a call (4),
    # the head's 3 five times (15), iinc goto three times (6): 25; line 8 the body's 4 three times (12); 10: 4.
    assert without_bytecode_hashes(counts) == {"hand.Tiny#sum(I)I": {
        "calls": {}, "invocations": 2, "total": 45, "lines": {"6": 4, "7": 25, "8": 12, "10": 4},
        "opcodes": {"iconst_0": 4, "istore_1": 5, "istore_2": 2, "iload_2": 8, "iload_0": 5, "if_icmpge": 5,
                    "iload_1": 5, "iadd": 3, "iinc": 3, "goto": 3, "ireturn": 2}}}
    # line 8's digest: its four instructions, one a line as mnemonic and operand (none here), SHA-1, 8 digits
    body = "\n".join(f"{m} " for m in ("iload_1", "iload_2", "iadd", "istore_1"))
    digests = counts["hand.Tiny#sum(I)I"]["line_digests"]
    assert digests["8"] == hashlib.sha1(body.encode()).hexdigest()[:8]
    assert sorted(digests, key=int) == ["6", "7", "8", "10"] and len(set(digests.values())) == 4


def test_an_invocation_ending_in_an_exception_counts_nothing(tiny):
    # thrower(1) throws out of itself: nothing of it counts. thrower(0): iload_0 ifle iload_0 ireturn.
    # catcher(1): iload_0 invokestatic (throws) -> handler astore_1 iconst_m1 ireturn;
    # catcher(0): iload_0 invokestatic ireturn. The caught exception does not lose catcher's counts.
    out = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#thrower",
                    "--target", "hand.Tiny#catcher(I)I", "hand.Tiny").stdout
    # Lines: thrower(0) runs `if` (14) and `return x` (17), two each; catcher runs line 22 (`return
    # thrower(x)`: 2 and 3), the handler's astore_1 on line 23 (`catch`) and iconst_m1 ireturn on 24.
    assert without_bytecode_hashes(json.loads(out)) == {
        "hand.Tiny#thrower(I)I": {"calls": {}, "invocations": 1, "total": 4, "lines": {"14": 2, "17": 2},
                                  "opcodes": {"iload_0": 2, "ifle": 1, "ireturn": 1}},
        "hand.Tiny#catcher(I)I": {"calls": {"hand/Tiny.thrower(I)I": 2}, "invocations": 2, "total": 8,
                                  "lines": {"22": 5, "23": 1, "24": 2},
                                  "opcodes": {"iload_0": 2, "invokestatic": 2, "ireturn": 2, "astore_1": 1,
                                              "iconst_m1": 1}},
    }


def test_count_writes_the_json_to_a_file_with_sorted_keys(tiny, tmp_path):
    out = tmp_path / "counts.json"
    result = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny", "--output", str(out), "hand.Tiny")
    assert result.stdout == ""
    assert "using Java 17" in result.stderr and "configured java-home" in result.stderr
    text = out.read_text()
    data = json.loads(text)
    assert list(data) == sorted(data)
    assert data["hand.Tiny#<init>()V"]["invocations"] == 0  # a target never run is still reported
    assert all(list(v) == ["calls", "code_fingerprint", "invocations", "line_digests", "lines", "opcodes", "total"]
               for v in data.values())
    # every line of the code has a digest, the lines that ran among them
    assert all(set(v["lines"]) <= set(v["line_digests"]) for v in data.values())
    assert all(list(v["lines"]) == sorted(v["lines"]) for v in data.values())  # keys sorted as text, as JSON tools do


def test_count_gives_each_method_the_plugins_shape_with_its_code_fingerprint(tiny, tmp_path):
    # The plugin's counts carry each method's code_fingerprint (docs/contract.md); so do the command line's,
    # so a file from either can serve as a baseline, and `cost` keeps it. Two methods share a fingerprint
    # exactly when javap shows them the same code (tests/counting/test_fingerprint.py checks the rule).
    counts = json.loads(bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny", "hand.Tiny").stdout)
    assert len(counts) > 3
    listings = code_listings(tiny / "hand" / "Tiny.class")
    for (a, ca), (b, cb) in itertools.combinations(counts.items(), 2):
        same_code = listings[a.split("#")[1]] == listings[b.split("#")[1]]
        assert (ca["code_fingerprint"] == cb["code_fingerprint"]) == same_code, (a, b)
    assert all(len(c["code_fingerprint"]) == 64 for c in counts.values())
    saved = tmp_path / "counts.json"
    saved.write_text(json.dumps(counts))
    costed = json.loads(bytecount("cost", "--weights", "default", str(saved)).stdout)
    assert {m: c["code_fingerprint"] for m, c in costed.items()} == {m: c["code_fingerprint"] for m, c in counts.items()}


def _plain_jvms():
    jvms = {"hotspot17": [str(find_jdk_tool("java"))]}
    if jdk25_java():
        jvms["hotspot25"] = [str(jdk25_java())]
    if zero_java():
        jvms["zero"] = [str(x) for x in zero_java()]
    return jvms


@pytest.mark.parametrize("options", [[], ["--abrupt", "--allocations"]], ids=["plain", "abrupt-allocations"])
@pytest.mark.parametrize("jvm", ["hotspot17", "hotspot25", "zero"])
def test_instrumented_classes_on_a_plain_jvm_write_the_same_json_at_exit(tiny, tmp_path, jvm, options):
    java = _plain_jvms().get(jvm)
    assert java is not None, f"{jvm} is not installed (see .ci/run)"
    counted = bytecount("count", "--classpath", str(tiny), "--target", "hand.**", *options, "hand.Tiny").stdout
    if options:
        assert '"abrupt": {' in counted and '"allocations": {' in counted
    bytecount("instrument", "--classpath", str(tiny), "--target", "hand.**", *options, "--out", str(tmp_path / "out"))
    written = tmp_path / "counts.json"
    run = subprocess.run([*java, "-cp", f"{tmp_path / 'out'}:{tiny}", f"-Dbytecount.out={written}", "hand.Tiny"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert run.returncode == 0, run.stdout
    assert written.read_text() == counted  # byte for byte


def test_instrumented_classes_written_as_one_jar_run_the_same(tiny, tmp_path):
    """``--out FILE.jar``: the same files in one jar (one file to create), and the same JSON at exit."""
    counted = bytecount("count", "--classpath", str(tiny), "--target", "hand.**", "hand.Tiny").stdout
    r = bytecount("instrument", "--classpath", str(tiny), "--target", "hand.**", "--out", str(tmp_path / "hand.jar"))
    assert "wrote 7 files (2 classes, " in r.stderr and f"java -cp {tmp_path / 'hand.jar'}:" in r.stderr
    with zipfile.ZipFile(tmp_path / "hand.jar") as jar:
        names = [n for n in jar.namelist() if not n.endswith("/")]
    assert names == ["hand/Costs.class", "hand/Tiny.class", "pytest_bytecount/Report.class",
                     "pytest_bytecount/of/hand/Costs.class", "pytest_bytecount/of/hand/Costs.layout",
                     "pytest_bytecount/of/hand/Tiny.class", "pytest_bytecount/of/hand/Tiny.layout"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.jar"]  # nothing left beside it
    written = tmp_path / "counts.json"
    run = subprocess.run([str(find_jdk_tool("java")), "-cp", f"{tmp_path / 'hand.jar'}:{tiny}",
                          f"-Dbytecount.out={written}", "hand.Tiny"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert run.returncode == 0, run.stdout
    assert written.read_text() == counted  # byte for byte


def test_without_the_property_the_instrumented_program_writes_nothing(tiny, tmp_path):
    bytecount("instrument", "--classpath", str(tiny), "--target", "hand.Tiny", "--out", str(tmp_path / "out"))
    run = subprocess.run([str(find_jdk_tool("java")), "-cp", f"{tmp_path / 'out'}:{tiny}", "hand.Tiny"],
                         cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_count_deep_adds_each_targets_deep_group(tiny, tmp_path, monkeypatch):
    """sum(n) calls nothing, so its deep counts are its own instructions, derived by hand above: 45 in 2 windows."""
    monkeypatch.setenv("BYTECOUNT_CACHE_DIR", str(tmp_path / "deep-cache"))
    counts = json.loads(bytecount("count", "--deep", "--classpath", str(tiny), "--target", "hand.Tiny#sum",
                                  "hand.Tiny").stdout)
    assert counts["hand.Tiny#sum(I)I"]["deep"] == {"copied": 0, "methods": {"hand.Tiny#sum(I)I": 45}, "total": 45,
                                                   "windows": 2}
    r = bytecount("instrument", "--deep", "--classpath", str(tiny), "--target", "hand.Tiny", "--out",
                  str(tmp_path / "out"), check=False)
    assert r.returncode == 2 and "instrument has no --deep" in r.stderr and "count --deep" in r.stderr


def test_a_target_matching_nothing_names_the_near_misses(tiny):
    r = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#summ", "hand.Tiny", check=False)
    assert r.returncode == 2
    assert "'hand.Tiny#summ' matches no method" in r.stderr and "hand.Tiny#sum(I)I" in r.stderr
    r = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiyn", "hand.Tiny", check=False)
    assert r.returncode == 2 and "matches no class" in r.stderr and "did you mean hand.Tiny" in r.stderr


def test_a_missing_classpath_entry_is_a_clear_error(tmp_path):
    r = bytecount("instrument", "--classpath", str(tmp_path / "nope"), "--target", "a.B", "--out", str(tmp_path),
                  check=False)
    assert r.returncode == 2 and "does not exist" in r.stderr
    fake = tmp_path / "fake.jar"
    fake.write_text("not a zip")
    r = bytecount("instrument", "--classpath", str(fake), "--target", "a.B", "--out", str(tmp_path), check=False)
    assert r.returncode == 2 and "not a jar" in r.stderr


def test_count_lines_prints_the_per_line_table_with_the_source(tiny, tmp_path):
    # the lines of sum, derived by hand in test_a_loop_counted_by_hand: 6: 4, 7: 25, 8: 12, 10: 4
    out = tmp_path / "counts.json"
    result = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#sum", "--lines",
                       "--source-path", str(BY_HAND), "--output", str(out), "hand.Tiny")
    rows = result.stdout.splitlines()
    assert rows[0] == "-- hand/Tiny.java  (sum(I)I)"
    assert "     7           25  |         for (int i = 0; i < n; i++) {" in rows
    assert "     8           12  |             s += i;" in rows
    assert "     9               |         }" in rows  # a line that did not run, between two that did
    assert json.loads(out.read_text())["hand.Tiny#sum(I)I"]["lines"] == {"6": 4, "7": 25, "8": 12, "10": 4}


def test_annotate_compares_a_counts_file_with_a_baseline_line_by_line(tiny, tmp_path):
    now = tmp_path / "now.json"
    bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#sum", "--output", str(now), "hand.Tiny")
    old = tmp_path / "old.json"
    counts = json.loads(now.read_text())
    counts["hand.Tiny#sum(I)I"]["lines"]["8"] = 2  # as if the body had run once instead of three times
    old.write_text(json.dumps(counts))
    text = bytecount("annotate", str(now), "--baseline", str(old), "--source-path", str(BY_HAND)).stdout
    assert "     8            2           12        +10  |             s += i;" in text.splitlines()
    assert "     6            4            4             |         int s = 0;" in text.splitlines()
    missing = bytecount("annotate", str(now), "--source-path", str(tmp_path), check=False)  # no source there
    assert "[source not found: give --source-path]" in missing.stdout and "     8           12" in missing.stdout
    bad = bytecount("annotate", str(tmp_path), check=False)
    assert bad.returncode == 2 and "not a counts file" in bad.stderr


def test_annotate_reads_a_test_s_counts_from_a_baseline_or_results_file(tiny, tmp_path):
    now = tmp_path / "now.json"
    bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#sum", "--output", str(now), "hand.Tiny")
    counts = json.loads(now.read_text())
    slower = json.loads(now.read_text())
    slower["hand.Tiny#sum(I)I"]["lines"]["8"] = 20
    baseline = tmp_path / "test_tiny.json"  # a baseline file as the plugin writes it, two tests
    baseline.write_text(json.dumps({"format": 1, "tests": {"test_sum": {"methods": counts, "jvm": "17"},
                                                           "test_other": {"methods": slower, "jvm": "17"}}}))
    results = tmp_path / "results.json"  # a --bytecount-json file, one test
    results.write_text(json.dumps({"tests/test_tiny.py::test_sum": {"status": "regressed", "counts": slower}}))
    shown = bytecount("annotate", str(results), "--baseline", str(baseline), "--test", "test_sum",
                      "--source-path", str(BY_HAND)).stdout
    assert "     8           12           20         +8  |             s += i;" in shown.splitlines()
    which = bytecount("annotate", str(baseline), check=False)
    assert which.returncode == 2 and which.stderr.strip() == (
        f"bytecount: error: {baseline}: more than one test in it; choose one with --test: test_other, test_sum")
    unknown = bytecount("annotate", str(baseline), "--test", "test_gone", check=False)
    assert unknown.returncode == 2 and "no test 'test_gone' in it; choose one with --test" in unknown.stderr


PRINTS = {"talk/Talk.java": """
package talk;

public class Talk {
    static int twice(int x) { return x + x; }                 // iload_0 iload_0 iadd ireturn: 4

    public static void main(String[] args) {
        System.out.println("the program's own output " + twice(21));
    }
}
""", "talk/NoMain.java": """
package talk;

public class NoMain {
    public static int one() { return 1; }
    public int main(String[] args) { return 0; }              // not static, not void: not a main method
}
"""}


@pytest.fixture(scope="module")
def talk(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("talk")
    for rel, text in PRINTS.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    return compile_java(src, release="17")


def test_count_redirected_to_a_file_holds_the_json_alone_and_the_program_speaks_on_stderr(talk, tmp_path):
    """`count ... > counts.json` then `annotate counts.json`: the program's own System.out must not end up in
    the JSON, so while the counts go to standard output it goes to standard error."""
    r = bytecount("count", "--classpath", str(talk), "--target", "talk.Talk#twice", "talk.Talk")
    counts = json.loads(r.stdout)
    assert (counts["talk.Talk#twice(I)I"]["total"], counts["talk.Talk#twice(I)I"]["invocations"]) == (4, 1)
    assert "the program's own output 42" in r.stderr
    (tmp_path / "counts.json").write_text(r.stdout)
    assert bytecount("cost", "--weights", "default", str(tmp_path / "counts.json")).returncode == 0
    # with --output, standard output is the program's again
    r = bytecount("count", "--classpath", str(talk), "--target", "talk.Talk#twice", "--output",
                  str(tmp_path / "out.json"), "talk.Talk")
    assert r.stdout == "the program's own output 42\n"


def test_count_on_a_class_without_main_or_not_there_is_an_error_before_anything_runs(talk):
    r = bytecount("count", "--classpath", str(talk), "--target", "talk.NoMain#one", "talk.NoMain", check=False)
    assert (r.returncode, r.stdout) == (2, "")
    assert "bytecount: error: talk.NoMain has no public static void main(String[]) to run" in r.stderr
    r = bytecount("count", "--classpath", str(talk), "--target", "talk.NoMain#one", "talk.Tlak", check=False)
    assert (r.returncode, r.stdout) == (2, "")
    assert "bytecount: error: MAIN: no class talk.Tlak on the classpath; did you mean talk.Talk" in r.stderr


def test_the_version_is_one_option_away():
    from pytest_bytecount import __version__

    assert bytecount("--version").stdout == f"pytest-bytecount {__version__}\n"


def test_count_lists_the_classes_that_ran_and_names_the_matched_ones_that_never_loaded(tiny, tmp_path):
    """count counts each matched class as the program's loader asks for it (as pytest does): hand.Costs
    matches hand.** but hand.Tiny never uses it, so it is not counted, not listed, and said so."""
    r = bytecount("count", "--classpath", str(tiny), "--target", "hand.**", "--cache-dir", str(tmp_path / "c"),
                  "hand.Tiny")
    counts = json.loads(r.stdout)
    assert {m.split("#")[0] for m in counts} == {"hand.Tiny"}
    assert "hand.Tiny#<init>()V" in counts and counts["hand.Tiny#<init>()V"]["invocations"] == 0  # ran or not
    assert ("bytecount: counted 1 class as it loaded; 1 class the targets match never loaded (hand.Costs): "
            "its methods are not in the counts") in r.stderr


def test_count_says_which_target_never_ran(tiny):
    """hand.Tiny's main never makes a Tiny: a target of its constructor alone leaves the counts empty, and a note
    says why; a target that ran beside it gets no note."""
    alone = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#<init>", "hand.Tiny")
    assert json.loads(alone.stdout) == {}
    note = "bytecount: note: no method --target hand.Tiny#<init> matches ran in hand.Tiny.main: the counts hold nothing of it"
    assert note in alone.stderr
    both = bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#<init>", "--target", "hand.Tiny#sum",
                     "hand.Tiny")
    assert note in both.stderr and "--target hand.Tiny#sum" not in both.stderr


def test_count_keeps_each_counted_class_in_a_cache_and_reuses_it(tiny, tmp_path):
    args = ["count", "--classpath", str(tiny), "--target", "hand.Tiny", "hand.Tiny"]
    cold = subprocess.run([sys.executable, "-m", "pytest_bytecount", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert cold.returncode == 0, cold.stderr
    cache = tmp_path / ".bytecount-cache"
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*" and (cache / "CACHEDIR.TAG").is_file()
    assert len(list((cache / "counted").glob("*.class-entry"))) == 1 and "from the cache" not in cold.stderr
    warm = subprocess.run([sys.executable, "-m", "pytest_bytecount", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert warm.returncode == 0 and warm.stdout == cold.stdout
    assert "counted 1 class as it loaded, 1 from the cache" in warm.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    fresh = subprocess.run([sys.executable, "-m", "pytest_bytecount", *args[:1], "--no-cache", *args[1:]],
                           cwd=elsewhere, capture_output=True, text=True, timeout=300)
    assert fresh.returncode == 0 and fresh.stdout == cold.stdout and list(elsewhere.iterdir()) == []


def test_instrument_writes_each_class_with_its_own_counters_class_and_the_exit_hook(tiny, tmp_path):
    r = bytecount("instrument", "--classpath", str(tiny), "--target", "hand.**", "--no-cache", "--out",
                  str(tmp_path / "out"))
    written = sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert written == ["hand/Costs.class", "hand/Tiny.class", "pytest_bytecount/Report.class",
                       "pytest_bytecount/of/hand/Costs.class", "pytest_bytecount/of/hand/Costs.layout",
                       "pytest_bytecount/of/hand/Tiny.class", "pytest_bytecount/of/hand/Tiny.layout"]
    assert "wrote 7 files (2 classes, " in r.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_instrument_progress_is_quiet_when_quick_sparse_in_a_log_and_one_line_on_a_terminal(monkeypatch):
    """Progress of counting many classes: nothing in the first 2 s; in a log a line every 5 s and the last; on a
    terminal one line rewritten in place, ended when the work ends."""
    from pytest_bytecount.cli import _progress

    def drive(stream, seconds_per_class: float, total: int = 100) -> str:
        monkeypatch.setattr(sys, "stderr", stream)
        now = [0.0]
        progress = _progress("counted {done}/{total}", clock=lambda: now[0])
        for done in range(1, total + 1):
            now[0] += seconds_per_class
            progress(done, total)
        return stream.getvalue()

    assert drive(io.StringIO(), 0.01) == ""  # 1 s in all: quiet
    log = drive(io.StringIO(), 0.25).splitlines()  # 25 s: a line at 2 s, then every 5 s, and the last
    assert log == ["counted 8/100", "counted 28/100", "counted 48/100", "counted 68/100", "counted 88/100",
                   "counted 100/100"]
    screen = drive(_Terminal(), 0.25)
    assert screen.startswith("\rcounted 8/100\x1b[K\rcounted 9/100\x1b[K") and screen.endswith("\rcounted 100/100\x1b[K\n")
    assert screen.count("\n") == 1


def test_annotate_takes_a_node_id_for_a_baseline_file_and_warns_of_counts_on_lines_without_code(tiny, tmp_path):
    now = tmp_path / "now.json"
    bytecount("count", "--classpath", str(tiny), "--target", "hand.Tiny#sum", "--output", str(now), "hand.Tiny")
    counts = json.loads(now.read_text())
    baseline = tmp_path / "test_tiny.json"
    baseline.write_text(json.dumps({"format": 1, "tests": {"test_sum": {"methods": counts, "jvm": "17"},
                                                           "test_other": {"methods": counts, "jvm": "17"}}}))
    by_node_id = bytecount("annotate", str(baseline), "--test", "tests/test_tiny.py::test_sum",
                           "--source-path", str(BY_HAND)).stdout
    assert "     8           12  |             s += i;" in by_node_id.splitlines()
    assert "warning" not in by_node_id  # the source is the one the counts were taken from
    # the same counts over a source that gained three lines at its top: lines 6 to 10 now hold other text
    source = tmp_path / "src"
    shutil.copytree(BY_HAND, source)
    tiny_java = next(source.rglob("Tiny.java"))
    lines = tiny_java.read_text().splitlines(keepends=True)
    tiny_java.write_text("".join(lines[:5] + ["\n", "// moved\n", "\n"] + lines[5:]))
    moved = bytecount("annotate", str(now), "--source-path", str(source)).stdout
    (warning,) = [ln for ln in moved.splitlines() if ln.startswith("warning:")]
    assert warning.startswith("warning: counts on 3 lines with no code in this source (6, 7, 8): the source has "
                              "changed since the counts were taken"), warning
