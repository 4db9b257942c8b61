"""The files a run writes besides the baselines, one pytest plugin each, registered at configure time on the
process that writes them (the xdist controller's; a worker writes none), as pytest registers its own
``junitxml``: the results file (``--bytecount-json``), written as each test ends; the HTML report; the trees as
profiles (``--bytecount-profiles``); the job
summary (``$GITHUB_STEP_SUMMARY``). A file that cannot be written is never raised: each plugin names it in its
``unwritten``, and the session fails the run for it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import pytest

from ..regression.results import ResultsFile, as_json
from .summary import markdown


class Output:
    """What every output plugin has: the session whose results it writes, and the files it could not write."""

    name = ""  # the name it is registered under (pytest's ``--trace-config`` lists it)

    def __init__(self, session):
        self._session = session
        self.unwritten: dict = {}  # file -> why it could not be written


class ResultsFileOutput(Output):
    """``--bytecount-json FILE``: every counted test's result, added as the test ends (a JVM that dies later
    loses none of them), then rewritten in order at the end."""

    name = "bytecount-json"

    def __init__(self, session, path: Path):
        super().__init__(session)
        self._file: Optional[ResultsFile] = ResultsFile(path)

    def pytest_runtest_logreport(self, report) -> None:
        """After the session recorded the test's result (its own hook runs first)."""
        result = self._session.results.get(report.nodeid)
        if self._file is None or result is None or report.when not in ("setup", "call") or \
                getattr(report, "bytecount", None) is None:
            return
        try:
            self._file.add(report.nodeid, result)
        except OSError as e:
            self._failed(e)

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self._file is not None:
            try:
                self._file.finish(self._session.results)
            except OSError as e:
                self._failed(e)

    def pytest_unconfigure(self, config) -> None:
        if self._file is not None:
            self._file.close()

    def _failed(self, error: OSError) -> None:
        self.unwritten[str(self._file.path)] = f"{error} (--bytecount-json)"
        self._file.close()
        self._file = None


class HtmlReportOutput(Output):
    """``--bytecount-html DIR`` (or ``[tool.bytecount] html``): the self-contained report, at the end."""

    name = "bytecount-html"

    def __init__(self, session, folder: Path):
        super().__init__(session)
        self.folder = folder
        self.written: Optional[Path] = None  # DIR/index.html, once written

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        from ..regression.report_html import write_report  # only a run that writes one pays for it

        try:
            self.written = write_report(as_json(self._session.results), self.folder,
                                        self._session.java.source_lines().file_lines)
        except OSError as e:
            self.unwritten[str(self.folder / "index.html")] = f"{e} (the HTML report)"


class ProfilesOutput(Output):
    """``--bytecount-profiles DIR``: each test's calling-context trees, this run's and its baseline's, as collapsed
    stacks and pprof profiles (regression.profiles), at the end."""

    name = "bytecount-profiles"

    def __init__(self, session, folder: Path):
        super().__init__(session)
        self.folder = folder
        self.files: list = []

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        from ..regression.profiles import write_profiles

        try:
            self.files = write_profiles(as_json(self._session.results), self.folder)
        except OSError as e:
            self.unwritten[str(self.folder)] = f"{e} (--bytecount-profiles)"

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.files:
            terminalreporter.write_line(f"bytecount: wrote {len(self.files)} profile files (collapsed stacks, pprof) "
                                        f"to {self.folder}")
        elif not self.unwritten:
            terminalreporter.write_line(f"bytecount: no profiles written to {self.folder}: no test took deep counts "
                                        f"with a tree")


# parallel CI jobs' variables: (index, total, the index of the first job)
SHARD_VARIABLES = (("CI_NODE_INDEX", "CI_NODE_TOTAL", 1), ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0),
                   ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0))


def shard_label(given: Optional[str], env) -> Optional[str]:
    """This run's shard: ``--bytecount-shard``'s name, else ``2/3`` from a CI's parallel-job variables (GitLab CI,
    CircleCI, Buildkite), else None."""
    if given:
        return given
    for index, total, first in SHARD_VARIABLES:
        try:
            i, n = int(env.get(index, "")), int(env.get(total, ""))
        except ValueError:
            continue
        if n > 1:
            return f"{i - first + 1}/{n}"
    return None


class StepSummaryOutput(Output):
    """``$GITHUB_STEP_SUMMARY`` (GitHub Actions): a table of the counted tests, appended at the end."""

    name = "bytecount-step-summary"

    def __init__(self, session, path: str):
        super().__init__(session)
        self.path = path

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if not self._session.results:
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(markdown(self._session.results, self._session.baselines.ref_described(), self._session.shard))
        except OSError as e:
            self.unwritten[self.path] = f"{e} ($GITHUB_STEP_SUMMARY)"


class PrCommentOutput(Output):
    """``--bytecount-pr-comment FILE``: the pull-request comment (:mod:`.pr_comment`), after the HTML report."""

    name = "bytecount-pr-comment"

    def __init__(self, session, path: Path):
        super().__init__(session)
        self.path = path
        self.done: Optional[str] = None  # "wrote", "removed" or None

    @pytest.hookimpl(trylast=True)  # the HTML report is written first: the comment says where it is
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        from .pr_comment import baselines_against, comment, run_url, write_comment

        results = self._session.results
        try:
            text = comment(results, baselines_against(results, self._session.config.rootpath,
                                                      self._session.baselines.ref_described()),
                           self._session.html_report(), run_url(),
                           other_ref=self._session.baselines.ref is not None)
            self.done = write_comment(self.path, text)
        except OSError as e:
            self.unwritten[str(self.path)] = f"{e} (--bytecount-pr-comment)"

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.done == "wrote":
            terminalreporter.write_line(f"bytecount: pull-request comment {self.path}")
        elif self.done == "removed":
            terminalreporter.write_line(f"bytecount: no pull-request comment: every verdict passed (removed the "
                                        f"earlier {self.path})")
        elif not self.unwritten:
            terminalreporter.write_line(f"bytecount: no pull-request comment written to {self.path}: every "
                                        f"verdict passed")


def register_outputs(config, session) -> list:
    """The output plugins this run asks for, registered with pytest (none on an xdist worker)."""
    if session.is_worker:
        return []
    outputs: list = []
    if config.option.bytecount_json:
        outputs.append(ResultsFileOutput(session, Path(config.option.bytecount_json)))
    html = _html_folder(config, session)
    if html is not None:
        outputs.append(HtmlReportOutput(session, html))
    if config.option.bytecount_profiles:
        outputs.append(ProfilesOutput(session, Path(config.option.bytecount_profiles)))
    if config.option.bytecount_pr_comment:
        outputs.append(PrCommentOutput(session, Path(config.option.bytecount_pr_comment)))
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        outputs.append(StepSummaryOutput(session, os.environ["GITHUB_STEP_SUMMARY"]))
    for output in outputs:
        config.pluginmanager.register(output, output.name)
    return outputs


def _html_folder(config, session) -> Optional[Path]:
    if config.option.bytecount_html:
        return Path(config.option.bytecount_html)
    try:
        return session.settings().html  # [tool.bytecount] html, relative to pyproject.toml
    except pytest.UsageError:
        return None  # unusable settings: said once after collection
