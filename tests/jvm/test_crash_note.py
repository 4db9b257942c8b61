"""The note a crashing JVM prints (pytest_bytecount/jvm/crash.py), without a JVM: the options it adds, what it
says, and that nothing is written for a session whose JVM is not the plugin's."""

from __future__ import annotations

import os

from pytest_bytecount.jvm.crash import CrashNote


def test_a_jvm_of_the_plugin_gets_an_error_file_in_the_rootdir_and_a_command_that_prints_the_note(tmp_path):
    note = CrashNote(tmp_path)
    try:
        note.running("tests/test_x.py::test_y")
        assert not note.path.exists()  # no JVM of ours yet: nothing to print
        options = note.options(["-Xmx1g"])
        assert options[0] == f"-XX:ErrorFile={tmp_path}/hs_err_pid%p.log"
        assert options[1].startswith("-XX:OnError=cat ") and options[1].endswith(f" >/proc/%p/fd/{note.fd}")
        text = note.path.read_text()
        assert "the JVM crashed while tests/test_x.py::test_y was running" in text
        assert str(tmp_path / f"hs_err_pid{note.pid}.log") in text
        note.running(None)
        assert "while no test was running" in note.path.read_text()
    finally:
        note.close()
    assert not note.path.exists()


def test_options_of_the_users_own_are_kept(tmp_path):
    note = CrashNote(tmp_path)
    try:
        assert note.options(["-XX:OnError=gdb -p %p"]) == []
        options = note.options(["-XX:ErrorFile=/var/crash/jvm-%p.log"])
        assert [o.split("=")[0] for o in options] == ["-XX:OnError"]
        assert "where your -XX:ErrorFile option says" in note.path.read_text()
    finally:
        note.close()


def test_a_percent_sign_in_a_path_reaches_the_jvm_doubled(tmp_path):
    folder = tmp_path / "100%done"
    folder.mkdir()
    note = CrashNote(folder)
    try:
        assert note.options([])[0] == f"-XX:ErrorFile={tmp_path}/100%%done/hs_err_pid%p.log"
    finally:
        note.close()


def test_notes_left_by_processes_that_are_gone_are_removed_and_others_kept(tmp_path):
    """A JVM that crashes ends its process before the note can be removed; the next session removes it."""
    import subprocess
    import sys

    from pytest_bytecount.jvm.crash import remove_orphans

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = tmp_path / f"pytest-bytecount-running-{int(gone.stdout)}.txt"
    alive = tmp_path / f"pytest-bytecount-running-{os.getpid()}.txt"
    other = tmp_path / "pytest-bytecount-running-notes.txt"
    for note in (orphan, alive, other):
        note.write_text("x")
    remove_orphans(tmp_path)
    assert not orphan.exists() and alive.exists() and other.exists()
