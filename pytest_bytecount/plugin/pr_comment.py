"""The pull-request comment (``--bytecount-pr-comment=FILE``): one Markdown file per run, written by the process that
writes the other files (the xdist controller), only when some verdict is not a plain pass. A CI step posts it, and
updates the same comment on the next push: the first line is a hidden marker the step finds it by
(docs/ci.md). A run whose every verdict passes removes a file this plugin wrote before, so that a re-run in the same
workspace never posts an old comment."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from ..regression.deep_band import describe_runtime
from ..regression.git import GitError, last_commit, relative, toplevel, uncommitted
from ..wording import counted
from .summary import CHANGED, changed_table, worse_lines

MARKER = "<!-- pytest-bytecount comment -->"
FAILING = ("regressed", "changed", "not-run", "over-limit", "over-budget", "nondeterministic", "unchecked", "error",
           "failed", "unwritten", "new")


def title(results: dict) -> str:
    """``2 regressed, 1 improved of 14 counted tests``: the statuses that are not a plain pass, in the table's order."""
    tally: dict = {}
    for r in results.values():
        if r.status in CHANGED:
            tally[r.status] = tally.get(r.status, 0) + 1
    parts = [f"{n} {s}" for s, n in sorted(tally.items(), key=lambda kv: CHANGED.index(kv[0]))]
    return f"{', '.join(parts)} of {counted(len(results), 'counted test')}"


def baselines_against(results: dict, repo_root: Path, compare_ref: Optional[dict] = None) -> str:
    """What the verdicts compared with: REF and its commit (``--bytecount-compare-ref``), or the commit that last
    changed the baseline files in git, with uncommitted changes said."""
    if compare_ref is not None:
        return (f"the baselines committed at `{compare_ref['ref']}`, commit {compare_ref['short']} "
                f"({compare_ref['date']}, {compare_ref['subject']!r}), read through git")
    files = sorted({Path(r.baseline) for r in results.values() if r.baseline})
    if not files:
        return "no baseline files"
    try:
        repo = toplevel(files[0].parent if files[0].parent.exists() else Path(repo_root))
        inside = [f for f in files if _inside(f, repo)]
        commit = last_commit(repo, inside) if inside else None
        dirty = uncommitted(repo, inside) if inside else []
    except GitError:
        return f"the baseline files on disk ({counted(len(files), 'file')}; not in a git repository)"
    where = f"{counted(len(files), 'baseline file')}"
    if commit is None:
        return f"{where}, none of them committed yet"
    text = f"{where} as last committed in {commit.short} ({commit.date}, {commit.subject!r})"
    if dirty:
        text += f", with uncommitted changes to {counted(len(dirty), 'file')}"
    return text


def _inside(path: Path, repo: Path) -> bool:
    try:
        relative(repo, path)
        return True
    except GitError:
        return False


def runtimes(results: dict) -> list:
    """The runtimes the counts were taken on: the class library for deep counts, else the JVM's version."""
    deep = sorted({describe_runtime(r.deep_runtime) for r in results.values() if r.deep_runtime})
    flat = sorted({f"Java {r.jvm}" for r in results.values() if r.jvm and not r.deep_runtime})
    return deep + [f for f in flat if not any(d.startswith((f + " ", f + "+")) for d in deep)]


def run_url() -> Optional[str]:
    """The CI run that holds the artefacts: GitHub Actions', or GitLab CI's job."""
    env = os.environ
    if env.get("GITHUB_RUN_ID") and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL", "https://github.com")
        return f"{server}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}"
    return env.get("CI_JOB_URL") or None


def comment(results: dict, against: str, html_report: Optional[str] = None, url: Optional[str] = None,
            other_ref: bool = False) -> Optional[str]:
    """The comment's Markdown, or None when every verdict is a plain pass (nothing to say). ``other_ref``: compared
    with another branch's baselines (``--bytecount-compare-ref``), which the branch may have re-recorded already."""
    if not any(r.status in CHANGED for r in results.values()):
        return None
    failing = [r for r in results.values() if r.status in FAILING]
    lines = [MARKER, f"### pytest-bytecount: {title(results)}", ""]
    lines += worse_lines(results)
    lines += changed_table(results, heading="####")
    lines.append(f"Compared with {against}.")
    found = runtimes(results)
    if found:
        lines.append(f"Counted on {'; '.join(found)}.")
    if html_report:
        where = f" (in the artefacts of {url})" if url else ""
        lines.append(f"HTML report: `{html_report}`{where}.")
    elif url:
        lines.append(f"Run: {url}")
    if failing and other_ref:
        lines += ["", "These counts differ from the compared branch's baselines: review each change before merging "
                      "(this branch's own baseline files may already hold them)."]
    elif failing:
        lines += ["", "Review each change; to accept one, run its command and commit the baseline files it rewrites."]
    return "\n".join(lines) + "\n"


def write_comment(path: Path, text: Optional[str]) -> Optional[str]:
    """Write ``text`` to ``path``, or, when it is None, remove a comment this plugin wrote there before: what was done
    ("wrote", "removed" or None)."""
    path = Path(path)
    if text is None:
        try:
            if path.read_text(encoding="utf-8").startswith(MARKER):
                path.unlink()
                return "removed"
        except (OSError, UnicodeDecodeError):
            pass
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return "wrote"
