"""Baseline files as git holds them: a file at another commit (``git show``, no checkout), the commit a file was last
changed in, and the commits that changed it. Every call runs ``git`` in a subprocess with a fixed locale; a path
outside any repository, a ref that does not resolve, or no ``git`` at all is a :class:`GitError` whose text says which.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional


class GitError(Exception):
    """git could not answer: the message says what was asked and why not, in one line."""


@dataclass(frozen=True)
class Commit:
    sha: str  # the full hash
    short: str  # git's abbreviated hash
    date: str  # the committer date, YYYY-MM-DD
    subject: str

    def describe(self) -> str:
        return f"{self.short} ({self.date}, {self.subject!r})"

    def to_dict(self) -> dict:
        return {"commit": self.sha, "short": self.short, "date": self.date, "subject": self.subject}


_FORMAT = "%H%x00%h%x00%cs%x00%s"


def _git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=env)
    except FileNotFoundError:
        raise GitError("git is not installed (no 'git' on PATH)") from None
    if check and done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(err[-1] if err else f"git {' '.join(args)} exited with {done.returncode}")
    return done


def _commit(line: str) -> Commit:
    sha, short, date, subject = line.split("\x00", 3)
    return Commit(sha, short, date, subject)


def toplevel(path: Path) -> Path:
    """The work tree that holds ``path`` (a file or folder, which need not exist yet)."""
    folder = Path(path).resolve()
    while not folder.is_dir():
        folder = folder.parent
    done = _git(folder, "rev-parse", "--show-toplevel", check=False)
    if done.returncode != 0:
        raise GitError(f"{path} is not in a git repository")
    return Path(done.stdout.decode("utf-8").strip())


def resolve(repo: Path, ref: str) -> Commit:
    """The commit ``ref`` names (``main``, ``origin/main``, a hash, ``HEAD~2``)."""
    if not ref or ref.startswith("-"):
        raise GitError(f"{ref!r} is not a git ref")
    done = _git(repo, "log", "-1", f"--format={_FORMAT}", f"{ref}^{{commit}}", "--", check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise GitError(f"{ref!r} does not name a commit in the git repository {repo}")
    return _commit(done.stdout.decode("utf-8", "replace").rstrip("\n"))


def relative(repo: Path, path: Path) -> str:
    """``path`` as git names it inside ``repo`` (forward slashes), or a GitError when it is outside."""
    try:
        return Path(path).resolve().relative_to(Path(repo).resolve()).as_posix()
    except ValueError:
        raise GitError(f"{path} is outside the git repository {repo}") from None


def show(repo: Path, commit: str, path: Path) -> Optional[bytes]:
    """The bytes of ``path`` at ``commit`` (None when that commit has no such file)."""
    spec = f"{commit}:{relative(repo, path)}"
    done = _git(repo, "cat-file", "blob", spec, check=False)
    if done.returncode != 0:
        missing = _git(repo, "cat-file", "-e", spec, check=False)
        if missing.returncode != 0:
            return None
        raise GitError(f"git cannot read {spec}: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout


def last_commit(repo: Path, paths: list) -> Optional[Commit]:
    """The last commit that changed any of ``paths`` (None: none of them is committed)."""
    rel = [relative(repo, p) for p in paths]
    done = _git(repo, "log", "-1", f"--format={_FORMAT}", "--", *rel, check=False)
    text = done.stdout.decode("utf-8", "replace").strip("\n")
    return _commit(text) if done.returncode == 0 and text else None


def uncommitted(repo: Path, paths: list) -> list:
    """Those of ``paths`` whose working copy differs from HEAD's, or that git does not track yet."""
    rel = [relative(repo, p) for p in paths]
    done = _git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *rel, check=False)
    if done.returncode != 0:
        return []
    entries = [e for e in done.stdout.decode("utf-8", "replace").split("\x00") if e]
    return sorted({e[3:] for e in entries if len(e) > 3})


def changes(repo: Path, path: Path) -> list:
    """The commits that changed ``path``, oldest first, following renames: ``[(Commit, path at that commit)]``."""
    rel = relative(repo, path)
    done = _git(repo, "log", "--follow", "--name-only", f"--format=%x01{_FORMAT}", "--", rel, check=False)
    if done.returncode != 0:
        return []
    out = []
    for block in done.stdout.decode("utf-8", "replace").split("\x01")[1:]:
        head, _, names = block.partition("\n")
        names = [n for n in names.splitlines() if n.strip()]
        out.append((_commit(head), names[0] if names else rel))
    return out[::-1]


def show_at(repo: Path, commit: str, rel: str) -> Optional[bytes]:
    """The bytes of the file git names ``rel`` at ``commit`` (None when that commit has no such file)."""
    done = _git(repo, "cat-file", "blob", f"{commit}:{rel}", check=False)
    return done.stdout if done.returncode == 0 else None
