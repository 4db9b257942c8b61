"""Instrumented-class folders left behind by a crashed process are removed by a later one (jvm.ClassDir)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from pytest_bytecount.jvm.session import ORPHAN_AGE_S, _remove_orphans


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _folder(tmp, name: str, age_s: float):
    folder = tmp / name
    (folder / "pkg").mkdir(parents=True)
    (folder / "pkg" / "A.class").write_bytes(b"\xca\xfe\xba\xbe")
    then = time.time() - age_s
    os.utime(folder, (then, then))
    return folder


def test_only_old_folders_of_processes_that_are_gone_are_removed(tmp_path):
    dead = _dead_pid()
    old = ORPHAN_AGE_S + 60
    orphan = _folder(tmp_path, f"bytecount-{dead}-abc", old)
    recent = _folder(tmp_path, f"bytecount-{dead}-def", 5)  # maybe a process in another PID namespace
    alive = _folder(tmp_path, f"bytecount-{os.getpid()}-ghi", old)
    other = _folder(tmp_path, "bytecount-bench-jkl", old)  # not ours: no pid in the name
    unrelated = _folder(tmp_path, f"other-{dead}-mno", old)
    _remove_orphans(tmp_path)
    assert not orphan.exists()
    assert recent.exists() and alive.exists() and other.exists() and unrelated.exists()
