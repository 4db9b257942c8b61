"""CI shards, each in a checkout of its own (pytest-split's way: each job runs some of the tests), merged with
``python -m pytest_bytecount merge``: the merged baseline folder is the one a serial update writes, byte for byte,
and the merged results name every test, in one HTML report."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from tests.support.pytest_project import java_project, run

SOURCES = {"sh/Calc.java": """
package sh;

public class Calc {
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }
}
"""}

MODULE = '''
import pytest


@pytest.mark.bytecount("sh.Calc#sum")
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_sum(bytecount, n):
    bytecount.jclass("sh.Calc").sum(n * {k})
'''
MODULES = {f"test_m{k}": MODULE.format(k=k) for k in (1, 2)}
# pytest-split's shards: test ids, a module split between two shards
SHARDS = [["test_m1.py::test_sum[1]", "test_m1.py::test_sum[2]", "test_m2.py::test_sum[4]"],
          ["test_m1.py::test_sum[3]", "test_m1.py::test_sum[4]"],
          ["test_m2.py::test_sum[1]", "test_m2.py::test_sum[2]", "test_m2.py::test_sum[3]"]]


def merge(cwd, *args):
    return subprocess.run([sys.executable, "-m", "pytest_bytecount", "merge", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True)


def files_of(folder) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_shards_in_separate_checkouts_merge_into_the_files_of_a_serial_update(pytester, tmp_path):
    project = java_project(pytester, SOURCES, MODULES)
    checkouts = []
    for i in range(3):
        checkout = tmp_path / f"shard{i}"
        shutil.copytree(project.path, checkout, ignore=shutil.ignore_patterns("runpytest-*"))
        checkouts.append(checkout)

    def shard(i, *args):  # GitLab CI's parallel jobs name the shard
        env = {**os.environ, "CI_NODE_INDEX": str(i + 1), "CI_NODE_TOTAL": "3",
               "GITHUB_STEP_SUMMARY": str(checkouts[i] / "summary.md")}
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *SHARDS[i], *args],
                              cwd=checkouts[i], capture_output=True, text=True, timeout=600, env=env)

    for i in range(3):
        done = shard(i, "--bytecount-update", "--bytecount-json=results.json")
        assert done.returncode == 0, done.stdout
    run(pytester, "--bytecount-update").assert_outcomes(passed=8)  # the serial update, in the project itself
    serial = files_of(project.path / "bytecount")

    done = merge(tmp_path, "merged", *(c / "bytecount" for c in checkouts))
    assert done.returncode == 0, done.stderr
    assert "bytecount merge: wrote 2 files from 3 shards into merged" in done.stderr
    assert files_of(tmp_path / "merged") == serial

    done = merge(tmp_path, "results.json", *(c / "results.json" for c in checkouts), "--html", "report",
                 "--step-summary", "summary.md")
    assert done.returncode == 0, done.stderr
    merged = json.loads((tmp_path / "results.json").read_text())
    assert sorted(merged) == sorted(node for ids in SHARDS for node in ids)
    assert {r["status"] for r in merged.values()} == {"recorded"}
    page = (tmp_path / "report" / "index.html").read_text()
    assert all(f'data-test="{node}"' in page for node in merged)
    assert "; shards 1/3, 2/3, 3/3</p>" in page
    assert merged["test_m1.py::test_sum[3]"]["shard"] == "2/3"
    assert (checkouts[2] / "summary.md").read_text().startswith("### pytest-bytecount (shard 3/3)\n")
    job = (tmp_path / "summary.md").read_text()  # one job summary of every shard's tests
    assert job.startswith("### pytest-bytecount\n") and all(f"| `{node}` | recorded |" in job for node in merged)

    # one comment for the three shards, when something is not a plain pass: a regression in the second shard
    body = checkouts[1] / "src" / "sh" / "Calc.java"
    body.write_text(body.read_text().replace("s += i;", "s += i;\n            s -= 0;"))
    assert shard(1, "--bytecount-json=results.json").returncode == 1
    done = merge(tmp_path, "judged.json", *(c / "results.json" for c in checkouts), "--pr-comment", "comment.md")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "comment.md").read_text()
    assert text.splitlines()[1] == "### pytest-bytecount: 2 regressed of 8 counted tests"
    assert "`test_m1.py::test_sum[3]` | regressed" in text and "`test_m1.py::test_sum[4]` | regressed" in text
    body.write_text(body.read_text().replace("\n            s -= 0;", ""))

    # against committed baselines: one shard re-records a test whose input changed, the others keep theirs
    for checkout in checkouts:
        shutil.rmtree(checkout / "bytecount")
        shutil.copytree(tmp_path / "merged", checkout / "bytecount")
        module = checkout / "test_m2.py"
        module.write_text(module.read_text().replace("sum(n * 2)", "sum(n * 2 + 1)"))
    for i in range(3):
        assert shard(i, "--bytecount-update").returncode == 0
    changed = project.path / "test_m2.py"
    changed.write_text(changed.read_text().replace("sum(n * 2)", "sum(n * 2 + 1)"))
    run(pytester, "--bytecount-update").assert_outcomes(passed=8)
    done = merge(tmp_path, "again", *(c / "bytecount" for c in checkouts), "--base", tmp_path / "merged")
    assert done.returncode == 0, done.stderr
    assert files_of(tmp_path / "again") == files_of(project.path / "bytecount")
    # without the base, each shard's unchanged copy of the others' tests disagrees with the one that changed them
    refused = merge(tmp_path, "nowhere", *(c / "bytecount" for c in checkouts))
    assert refused.returncode == 1 and not (tmp_path / "nowhere").exists()
    assert refused.stderr.startswith("bytecount merge: error: test_m2.json: 4 tests recorded differently by two "
                                     "shards: test_sum[1] (")
    assert refused.stderr.rstrip().endswith("if the shards started from committed baselines, give them as --base; "
                                            "else re-run those tests in one job; nothing was written")


def test_a_shard_is_named_by_the_option_else_by_a_cis_parallel_job_variables():
    from pytest_bytecount.plugin.outputs import shard_label

    assert shard_label("linux-2", {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}) == "linux-2"
    assert shard_label(None, {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}) == "1/3"  # GitLab counts from 1
    assert shard_label(None, {"CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "4"}) == "1/4"  # CircleCI from 0
    assert shard_label(None, {"BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "3"}) == "3/3"
    assert shard_label(None, {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "1"}) is None  # one job: no shards
    assert shard_label(None, {"CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "3"}) is None
