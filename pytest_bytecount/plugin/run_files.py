"""The files a run writes besides the baselines: the results file (``--bytecount-json``), after each test, and at
the end the HTML report and the job summary (``$GITHUB_STEP_SUMMARY``). A file that cannot be written is never
raised: it is named (:attr:`RunFiles.unwritten`), and the session fails the run for it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

import pytest

from ..regression.results import ResultsFile, TestResult, as_json
from .config import Settings
from .summary import markdown


class RunFiles:
    """The results file, the HTML report and the job summary of one session (the xdist controller's: a worker
    writes none)."""

    def __init__(self, config, settings: Callable[[], Settings], is_worker: bool):
        self._config = config
        self._settings = settings
        json_out = config.option.bytecount_json
        self._results_file = ResultsFile(Path(json_out)) if json_out and not is_worker else None
        self.unwritten: dict = {}  # results file, HTML report ... -> why it could not be written
        self.html_report: Optional[Path] = None  # where the HTML report was written, at the end

    def add(self, nodeid: str, result: TestResult) -> None:
        """A test's result, into the results file as soon as the test ends."""
        if self._results_file is not None:
            try:
                self._results_file.add(nodeid, result)
            except OSError as e:
                self._results_file_failed(e)

    def finish(self, results: dict, file_lines: Callable) -> None:
        """The results file sorted, the HTML report (``file_lines``: the sources' lines, for its annotated
        views) and the job summary."""
        if self._results_file is not None:
            try:
                self._results_file.finish(results)
            except OSError as e:
                self._results_file_failed(e)
        self._write_html(results, file_lines)
        summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary_file and results:
            try:
                with open(summary_file, "a", encoding="utf-8") as f:
                    f.write(markdown(results))
            except OSError as e:
                self.unwritten[summary_file] = f"{e} ($GITHUB_STEP_SUMMARY)"

    def close(self) -> None:
        if self._results_file is not None:
            self._results_file.close()

    def _results_file_failed(self, error: OSError) -> None:
        self.unwritten[str(self._results_file.path)] = f"{error} (--bytecount-json)"
        self._results_file.close()
        self._results_file = None

    def _write_html(self, results: dict, file_lines: Callable) -> None:
        html_dir = self._html_dir()
        if html_dir is None:
            return
        from ..regression.report_html import write_report

        try:
            self.html_report = write_report(as_json(results), html_dir, file_lines)
        except OSError as e:
            self.unwritten[str(html_dir / "index.html")] = f"{e} (the HTML report)"

    def _html_dir(self) -> Optional[Path]:
        if self._config.option.bytecount_html:
            return Path(self._config.option.bytecount_html)
        try:
            return self._settings().html  # [tool.bytecount] html, relative to pyproject.toml
        except pytest.UsageError:
            return None
