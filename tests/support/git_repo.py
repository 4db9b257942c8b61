"""Real git repositories for the tests of what the plugin reads through git: a fixed identity and no user or system
configuration, so that a test's commits and merges behave the same on every machine."""

from __future__ import annotations

import subprocess

import pytest

GIT_ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org", "GIT_COMMITTER_NAME": "Test",
           "GIT_COMMITTER_EMAIL": "test@example.org", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}


def git(project, *args, ok: bool = True) -> str:
    """``git ARGS`` in the pytester project's folder: its output (a failure fails the test unless ``ok`` is False)."""
    done = subprocess.run(["git", *args], cwd=project.path, capture_output=True, text=True)
    if ok:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout + (done.stderr if not ok else "")


def commit_all(project, message: str) -> str:
    """Commit everything in the work tree; the commit's short hash."""
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", message)
    return git(project, "rev-parse", "--short", "HEAD").strip()


def init(project) -> None:
    """A repository on branch main that ignores what the plugin and Python cache."""
    # and the files pytester keeps in the project folder (each child run's output)
    (project.path / ".gitignore").write_text(".bytecount-cache/\n__pycache__/\nstdout\nstderr\nrunpytest-*\n*.json.bak\nresults.json\n")
    git(project, "init", "-q", "-b", "main")


@pytest.fixture
def git_env(monkeypatch):
    """The fixed identity of :data:`GIT_ENV`, for git here and in the child pytest runs."""
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
