"""docs/ci.md's CI steps agree with what the plugin writes: the marker they find the comment by, the file they
post, the options and commands they run, and the .gitattributes and git config lines of the merge driver."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pytest_bytecount.plugin.pr_comment import MARKER
from tests.docs.markdown import read
from tests.support.paths import ROOT

PAGE = read(ROOT / "docs" / "ci.md")


def fenced(lang: str) -> list:
    return [m[1] for m in re.finditer(rf"^```{lang}\n(.*?)^```$", PAGE, re.M | re.S)]


@pytest.mark.parametrize("steps", fenced("yaml"), ids=["github", "gitlab"])
def test_the_ci_steps_find_the_comment_by_its_marker_and_post_the_file_the_plugin_writes(steps):
    assert MARKER in steps
    (written,) = set(re.findall(r"--bytecount-pr-comment=(\S+)", steps))
    assert f"body=@{written}" in steps or f"body@{written}" in steps
    assert f"-f {written}" in steps  # posted only when the plugin wrote it
    help_text = subprocess.run([sys.executable, "-m", "pytest", "--help", "-p", "no:cacheprovider"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout
    for option in set(re.findall(r"(--bytecount-[\w-]+)", steps)):
        assert option in help_text, option
    assert "--bytecount-compare-ref=" in steps and "fetch" in steps  # the compared branch must be fetched


def test_the_comment_shown_starts_as_the_plugin_writes_it():
    (shown,) = fenced("markdown")
    assert shown.splitlines()[0] == MARKER


def test_the_merge_driver_lines_name_the_real_command():
    (attributes,) = [b for b in fenced("text") if b.startswith("# .gitattributes")]
    assert "tests/bytecount/*.json merge=bytecount" in attributes
    assert "tests/bytecount/*.trees.json.gz merge=bytecount" in attributes
    config = re.search(r'git config merge\.bytecount\.driver "python -m pytest_bytecount (merge-driver %O %A %B %P)"',
                       PAGE)
    assert config is not None
    usage = subprocess.run([sys.executable, "-m", "pytest_bytecount", "merge-driver", "--help"], capture_output=True,
                           text=True, check=True).stdout
    assert usage.startswith("usage: python -m pytest_bytecount merge-driver [-h] O A B [P]")
