"""The end of a pytest session of pytest-bytecount, once the recording plugin found the stale baselines and the
output plugins wrote their files: a file that could not be written counted as a failure, and the ``bytecount``
section of the terminal summary built (:class:`~.summary.Summary` renders it)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from ..regression.counts_verdict import SHARED_LOADER_VERDICT
from ..regression.scaling_deep import jdk_work_note
from .arguments import runnable_id
from ..regression.verdict_lines import lead_line
from .summary import LED, LooseDeep, Summary, Unwritten, accepted_lines, improved_lines

# the statuses a hint may explain (nested classes left out ran): a passing or recorded test's hint stays in its
# result (--bytecount-json) but is not repeated in the summary
EXPLAINED = ("regressed", "changed", "improved", "reshaped", "not-run", "over-limit", "over-budget",
             "nondeterministic")
NOT_WRITTEN = "not written"  # the key in pytest's statistics of the files that could not be written


def order_note(results: dict) -> Optional[str]:
    """A line for the tests whose counts moved with their code the baseline's in a loader they share with other
    tests: the order the tests ran in is the likely cause, so accepting them is the wrong first step."""
    moved = [r for r in results.values() if r.status != "recorded" and SHARED_LOADER_VERDICT in (r.message or "")]
    if not moved:
        return None
    return (f"{len(moved)} {'test' if len(moved) == 1 else 'tests'} sharing a class loader (loader_scope) counted "
            f"other work with the baseline's bytecode: the tests' order (pytest-randomly, -k, --lf, xdist) may be the "
            f"cause; run them in the usual order (or alone) before accepting")


class NotWritten:
    """One file that could not be written, in pytest's statistics (its last line counts them)."""


class SessionEnd:
    """What a :class:`~.session.BytecountSession` does and says once its tests ran."""

    def __init__(self, session):
        self._s = session

    def finish(self, session) -> None:
        """After the recording and output plugins finished: a file that could not be written fails the run
        (exit status 1 where it would be 0), like a test that failed."""
        if self._s.is_worker:
            return
        failed = len(self._s.baselines.unwritten) + len(self._s.unwritten_outputs())
        if failed:
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            reporter = self._s.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:  # pytest's last line counts them too: "3 passed, 1 not written"
                reporter.stats.setdefault(NOT_WRITTEN, []).extend(NotWritten() for _ in range(failed))

    def summary(self) -> Optional[Summary]:
        """The ``bytecount`` section of the terminal summary; None when there is nothing to say."""
        s, b = self._s, self._s.baselines
        late = s.java.late_notes()  # the header could not say it: the JVM started later, an app's own start
        late += [n for n in [jdk_work_note({k: r.scaling for k, r in s.results.items() if r.scaling})] if n]
        late += [n for n in [order_note(s.results)] if n]
        unwritten_outputs = s.unwritten_outputs()
        if s.is_worker or not (s.results or b.stale or b.stale_files or s.java.refused or b.unwritten
                               or unwritten_outputs or b.notes or late):
            return None
        stale = {self._shown(path): keys for path, keys in b.stale.items()}
        shown = self._shown_ids()
        removed = s.update == "all" and not s.interrupted
        files = {self._shown(f.baseline): self._shown(f.module) for f in b.stale_files
                 if not removed or f.baseline in b.removed_files}
        unwritten = tuple(
            Unwritten(self._shown(path), error, tuple(sorted(s.recording.lost_tests.get(path, ()))),
                      tuple(b.unremoved.get(path, ())))
            for path, error in sorted(b.unwritten.items())) + tuple(
            Unwritten(self._shown(path), error) for path, error in sorted(unwritten_outputs.items()))
        return Summary({n: r.status for n, r in s.results.items()}, stale, files, updating=s.update,
                       run_args=self._run_paths(),
                       weights=tuple(sorted({r.weights for r in s.results.values() if r.weights is not None})),
                       unwritten=unwritten, interrupted=s.interrupted,
                       notes=tuple(b.notes) + tuple(late), refused=tuple(sorted(s.java.refused)),
                       hints=tuple(sorted({h for r in s.results.values() if r.status in EXPLAINED for h in r.hints})),
                       written=tuple(str(p) for p in sorted(b.written)),
                       html_report=s.html_report(),
                       options=s.options, compared_with=b.ref_described(),
                       ids={n: id_ for n, id_ in shown.items() if id_ != n},
                       lost=tuple(s.recording.lost_runs), full_run=b.full_run(),
                       flat_only={side: tuple(n for n, r in sorted(s.results.items())
                                              if r.flat_only == side and r.status != "recorded")
                                  for side in ("baseline", "run")},
                       improved={shown[n]: improved_lines(r.message) for n, r in sorted(s.results.items())
                                 if r.status == "improved"},
                       leads={shown[n]: lead_line(r.message) for n, r in sorted(s.results.items())
                              if r.status in LED and lead_line(r.message)},
                       accepted=tuple(dict((shown[n], accepted_lines(r.message)) for n, r in sorted(s.results.items())
                                           if r.status == "recorded" and accepted_lines(r.message)).items()),
                       loose=tuple(LooseDeep(shown[n], r.loose_deep["baseline_runtime"], r.deep_runtime,
                                             r.loose_deep["band"])
                                   for n, r in sorted(s.results.items()) if r.loose_deep and r.status != "recorded"))

    def _shown_ids(self) -> dict:
        """nodeid -> the id the summary lists and its commands run: the test's baseline key (a plugin's repetitions
        are one test), its file relative to where pytest was started."""
        config = self._s.config
        return {n: r.command_id or runnable_id(r.test_id, config.rootpath, config.invocation_params.dir)
                for n, r in self._s.results.items()}

    def _shown(self, path) -> str:
        """A path as the summary shows it: relative to the rootdir when inside it."""
        try:
            return str(Path(path).relative_to(self._s.config.rootpath))
        except ValueError:
            return str(path)

    def _run_paths(self) -> tuple:
        """The paths this run was given on the command line (none when pytest used its testpaths)."""
        args = self._s.config.invocation_params.args
        return tuple(a for a in self._s.config.args if a in args and not a.startswith("-"))

