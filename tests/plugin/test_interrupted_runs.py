"""Interrupted, but honest: Ctrl-C (SIGINT) or SIGTERM in the middle of ``--bytecount-update``.

The third of six tests sends the signal to its own process while it waits in Java (``Calc.pause``, 4 s), as
a user's Ctrl-C or a CI's SIGTERM would arrive; the run stops when that Java call returns. pytest's interrupted summary must appear (exit status 2, the
``KeyboardInterrupt`` banner, the last line), and so must the bytecount section, naming the entries written
before the interruption. The baseline file stays valid JSON: the two tests that finished hold their new
counts, the others their old ones. The JVM is shut down by the plugin, not by the signal: no exit 130 or
143, no ``hs_err`` file. Each case runs on a real terminal (a pty) and without one.
"""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import time

import pytest

from tests.support.pytest_project import java_project

CALC = """
package st;

public class Calc {
    public static int twice(int x) {
        return x + x;
    }

    public static void pause(long ms) throws InterruptedException {
        Thread.sleep(ms);
    }
}
"""

MODULE = '''
import os
import signal
import threading
import time

import pytest


@pytest.mark.bytecount("st.Calc#twice")
@pytest.mark.parametrize("x", range(6))
def test_twice(bytecount, x):
    calc = bytecount.jclass("st.Calc")
    assert calc.twice(x) == 2 * x
    stop = os.environ.get("STOP_WITH")
    if stop and x == 2:
        for n in range(int(os.environ.get("TIMES", "1"))):
            threading.Timer(0.5 + n, os.kill, (os.getpid(), getattr(signal, stop))).start()
        if os.environ.get("WAIT_IN") == "python":
            started = time.monotonic()
            try:
                time.sleep(int(os.environ["PAUSE_MS"]) / 1000)  # the signal arrives while Python waits
            finally:
                with open("slept.txt", "w") as f:
                    f.write(str(time.monotonic() - started))
        else:
            calc.pause(int(os.environ["PAUSE_MS"]))  # the signal arrives while Java runs
'''

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _as_a_shell_starts_it() -> None:
    """In the child before exec: SIGINT and SIGQUIT handled by default, as an interactive shell starts a
    command. A suite run in the background of a non-interactive shell has them ignored, and an ignored
    signal stays ignored across exec (Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def run_on_terminal(args: list, cwd, env: dict) -> tuple:
    """The command on a pseudo-terminal that is its controlling terminal, as a user's shell runs it:
    (exit status, what it printed)."""
    pid, controller = pty.fork()
    if pid == 0:  # the child: only exec after a fork
        try:
            _as_a_shell_starts_it()
            os.chdir(cwd)
            os.execve(args[0], args, env)
        finally:
            os._exit(127)
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    return status, ANSI.sub("", b"".join(chunks).decode("utf-8", "replace").replace("\r", ""))


def run(args: list, cwd, env: dict, terminal: bool) -> tuple:
    if terminal:
        return run_on_terminal(args, cwd, env)
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          preexec_fn=_as_a_shell_starts_it)
    return proc.returncode, proc.stdout + proc.stderr


def totals(project) -> dict:
    data = json.loads((project.path / "tests" / "bytecount" / "test_calc.json").read_text())
    return {key: entry["methods"]["st.Calc#twice(I)I"]["total"] for key, entry in data["tests"].items()}


@pytest.mark.parametrize("stop, wait_in, terminal", [
    ("SIGINT", "java", True), ("SIGINT", "python", False), ("SIGTERM", "java", False), ("SIGTERM", "python", True)],
    ids=["SIGINT while Java runs, on a terminal", "SIGINT while Python sleeps", "SIGTERM while Java runs",
         "SIGTERM while Python sleeps, on a terminal"])
def test_an_interrupted_update_says_what_it_wrote_and_leaves_every_file_whole(pytester, stop, wait_in, terminal):
    """Wherever the test waits, the run ends with its summary: a wait in Java as soon as Java returns (4 s here),
    a wait in Python (60 s here) when the signal comes."""
    project = java_project(pytester, {"st/Calc.java": CALC}, {"tests/test_calc": MODULE})
    env = {k: v for k, v in os.environ.items() if k not in ("STOP_WITH", "PYTHONFAULTHANDLER")}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bytecount-update"]
    status, out = run(command, project.path, env, terminal=False)
    assert status == 0, out
    before = totals(project)
    assert sorted(before) == [f"test_twice[{x}]" for x in range(6)]
    source = project.path / "src" / "st" / "Calc.java"
    source.write_text(CALC.replace("return x + x;", "return x + x + 0;"))  # two more instructions a call

    status, out = run(command, project.path, {**env, "STOP_WITH": stop, "WAIT_IN": wait_in,
                                              "PAUSE_MS": "4000" if wait_in == "java" else "60000"}, terminal)
    if wait_in == "python":  # the signal (0.5 s in) ended the 60 s sleep
        assert float((project.path / "slept.txt").read_text()) < 30, out

    assert status == pytest.ExitCode.INTERRUPTED, out  # pytest's own status, not the JVM's 130 or 143
    assert "KeyboardInterrupt" in out and "= bytecount =" in out, out
    # the line under pytest's banner names the test's code that was running, not the plugin's signal handler
    assert re.search(r"test_calc\.py:\d+: KeyboardInterrupt", out) and "signals.py" not in out, out
    assert re.search(r"=+ 2 passed in [\d.]+s", out), out  # pytest's last line
    assert "interrupted: the baselines written before the interruption (2):\n" \
           "  tests/test_calc.py::test_twice[0]\n  tests/test_calc.py::test_twice[1]\n" \
           "  every other baseline is as it was before this run" in out, out
    after = totals(project)  # valid JSON, whole
    assert after == {**before, "test_twice[0]": before["test_twice[0]"] + 2,
                     "test_twice[1]": before["test_twice[1]"] + 2}
    assert not list(project.path.rglob("hs_err_pid*.log"))
    assert not list((project.path / "tests" / "bytecount").glob(".*.tmp"))
    if terminal and wait_in == "java":  # the signal waited for Java: the user is told, past pytest's capture
        name = stop
        assert f"pytest-bytecount: {name}: pytest stops as soon as Java returns to Python; send {name} again" in out


def test_a_second_ctrl_c_while_java_runs_ends_the_process_at_once_and_leaves_every_file_whole(pytester):
    """A test stuck in Java: the first Ctrl-C waits for Java to return; the second ends the process as the
    JVM would have (exit 130), long before the 60 s the test would take."""
    project = java_project(pytester, {"st/Calc.java": CALC}, {"tests/test_calc": MODULE})
    env = {k: v for k, v in os.environ.items() if k not in ("STOP_WITH", "PYTHONFAULTHANDLER")}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bytecount-update"]
    assert run(command, project.path, env, terminal=False)[0] == 0
    before = totals(project)
    (project.path / "src" / "st" / "Calc.java").write_text(CALC.replace("return x + x;", "return x + x + 0;"))

    started = time.monotonic()
    status, out = run(command, project.path, {**env, "STOP_WITH": "SIGINT", "TIMES": "2", "PAUSE_MS": "60000"},
                      terminal=True)
    assert status == 130 and time.monotonic() - started < 50, out
    assert "pytest-bytecount: a second SIGINT before Java returned to Python: the process ends now (exit 130)" in out
    after = totals(project)  # valid JSON: the two tests before the stuck one were recorded, whole
    assert after == {**before, "test_twice[0]": before["test_twice[0]"] + 2,
                     "test_twice[1]": before["test_twice[1]"] + 2}
