"""The end-of-session summary: a plain object that renders lines from each test's status (see
:mod:`pytest_bytecount.regression.status`), so it is tested without pytest; and the GitHub job summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..counting.counts import metric
from ..regression.deep_band import band_text, describe_runtime
from ..regression.compare import percent_change
from ..regression.verdict_lines import deciding_figures, lead_line
from ..regression.status import STATUSES
from .arguments import update_command

SHOWN = 10  # test ids listed per status


def accept_command(nodeids: list, update: str = "--bytecount-update", limit: int = SHOWN, options=()) -> str:
    """One command that re-records these tests: their ids, or, for more than ``limit``, their modules, with
    the ``options`` in force that decide what is recorded and where (``--bytecount-baseline-dir=...``)."""
    targets = sorted(nodeids)
    if len(targets) > limit:
        targets = sorted({n.split("::", 1)[0] for n in targets})
    return update_command(targets, options, update)


@dataclass(frozen=True)
class Unwritten:
    """A file the session could not write (or a stale file it could not remove)."""

    path: str
    error: str
    lost: tuple = ()  # node ids of the tests whose baseline entries were not written to it
    unremoved: tuple = ()  # its stale entries that were not removed

    def lines(self) -> list:
        out = [f"bytecount: could not write {self.path}: {self.error}"]
        if self.lost:
            shown = ", ".join(self.lost[:SHOWN]) + (f" and {len(self.lost) - SHOWN} more" if len(self.lost) > SHOWN else "")
            out.append(f"  the baselines of these tests were not written: {shown}")
        if self.unremoved:
            out.append(f"  stale entries not removed: {', '.join(self.unremoved[:SHOWN])}")
        return out


@dataclass(frozen=True)
class LooseDeep:
    """A test whose deep counts were compared loosely: its baseline's were taken on another class library."""

    nodeid: str
    baseline_runtime: Optional[dict]
    runtime: Optional[dict]
    band: float


@dataclass
class Summary:
    """What the ``bytecount`` section of the terminal summary says."""

    statuses: dict  # nodeid -> status
    stale_entries: dict = field(default_factory=dict)  # baseline path -> [test keys no longer collected]
    stale_files: dict = field(default_factory=dict)  # baseline path -> the test module it belonged to
    updating: Optional[str] = None  # None, "all" or "new"
    run_args: tuple = ()  # the paths this run was given, for the command that removes stale baselines
    weights: tuple = ()  # the cost weight tables the results were weighed with
    unwritten: tuple = ()  # Unwritten: files that could not be written, shown in red (the run fails)
    interrupted: bool = False  # the session was interrupted (Ctrl-C, SIGTERM, a collection error)
    notes: tuple = ()  # what was repaired on the way (an unreadable baseline replaced), in yellow
    refused: tuple = ()  # methods left uncounted, and why
    hints: tuple = ()  # lines that may explain counts (nested classes a class pattern left out ran)
    written: tuple = ()  # baseline files written
    html_report: Optional[str] = None  # where the HTML report was written
    options: tuple = ()  # the command line's options that a re-recording command repeats (arguments.py)
    loose: tuple = ()  # LooseDeep: tests whose deep counts were compared loosely, across two class libraries
    accepted: tuple = ()  # (nodeid, [lines]): what an update recorded beyond the baseline (regressions, worse orders)
    lost: tuple = ()  # node ids of counted tests whose process died while they ran (an xdist worker)
    full_run: bool = False  # the run collected every test of its paths (no node ids, -k or -m)
    flat_only: dict = field(default_factory=dict)  # "baseline" or "run" -> node ids compared on flat counts only,
    # that side holding no deep counts
    ids: dict = field(default_factory=dict)  # nodeid -> the id its group shows, where they differ: the runs a
    # plugin repeats (pytest-repeat) are one test, listed once
    improved: dict = field(default_factory=dict)  # the id shown -> the figures that fell (improved_lines)
    leads: dict = field(default_factory=dict)  # the id shown -> a regressed, changed or over-budget test's first line
    compared_with: Optional[dict] = None  # --bytecount-compare-ref: {"ref", "short", "date", "subject", ...}

    def tally(self) -> dict:
        out = {s: 0 for s in STATUSES}
        for s in self.statuses.values():
            out[s] = out.get(s, 0) + 1
        return out

    @property
    def stale(self) -> int:
        return sum(len(v) for v in self.stale_entries.values()) + len(self.stale_files)

    def headline(self) -> str:
        # the words pytest's own last line uses: "2 errors", as "1 error"
        parts = [f"{n} {s}{'s' if s == 'error' and n > 1 else ''}" for s, n in self.tally().items() if n]
        if self.stale:
            parts.append(f"{self.stale} stale")
        return ", ".join(parts) if parts else "no counted tests"

    def _runs(self, status: str) -> dict:
        """{the id shown: how many runs of it have ``status``}, sorted by id."""
        runs: dict = {}
        for n, s in self.statuses.items():
            if s == status:
                shown = self.ids.get(n, n)
                runs[shown] = runs.get(shown, 0) + 1
        return dict(sorted(runs.items()))

    def _ids(self, status: str) -> list:
        return list(self._runs(status))

    def _group(self, title: str, ids: list, command: Optional[str], status: Optional[str] = None) -> list:
        runs = self._runs(status) if status else {}
        total = sum(runs.values())
        details = self.improved if status == "improved" else \
            {n: [lead] for n, lead in self.leads.items()} if status in LED else {}
        lines = [f"{title} ({len(ids)} tests, {total} runs):" if total > len(ids) else f"{title} ({len(ids)}):"]
        for n in ids[:SHOWN]:
            lines.append(f"  {n}" + (f" ({runs[n]} runs)" if runs.get(n, 1) > 1 else ""))
            lines += [f"    {line}" for line in details.get(n, ())]
        if len(ids) > SHOWN:
            lines.append(f"  and {len(ids) - SHOWN} more")
        if command:
            lines.append(f"  {command}")
        return lines

    def lines(self) -> list:
        out = [self.headline()]
        if self.compared_with is not None:
            out.append(compared_line(self.compared_with, bool(self.updating)))
        groups = (
            ("regressed", "regressed", "to accept them"),
            ("changed", "changed", "to accept them"),
            ("new", "new, no baseline yet", "to record them"),
            ("improved", "improved, the baseline is stale", "to accept them"),
            ("reshaped", "reshaped: the work within tolerance, only where it is done moved", "to accept them"),
            ("not-run", "not run: a target never ran, so nothing is guarded", None),
            ("over-limit", "over the limit: a method ran more often than the marker's max_invocations allows "
                           "(fix the code, or raise max_invocations)", None),
            ("over-budget", "over budget: a figure, or its projection to a size, is over a fixed ceiling (fix the "
                            "code, or raise the budget: an update never accepts it)", None),
            ("nondeterministic", "nondeterministic: counts differ between two runs", None),
            ("unchecked", "unchecked: the determinism check, or a budget, could not be checked", None),
            ("unwritten", "not written: the baseline file could not be written", None),
        )
        for status, title, verb in groups:
            ids = self._ids(status)
            if ids:
                command = accept_command(ids, options=self.options) if verb else None
                if status == "new" and self.full_run and all(s == "new" for s in self.statuses.values()):
                    command = update_command(self.run_args, self.options, "--bytecount-update=new")  # every test
                out += self._group(title, ids, f"{verb}: {command}" if verb else None, status)
        if self.lost:
            recorded = ", nothing recorded for them" if self.updating else ""
            out += self._group(f"error: the process running them died, so their counts were never read{recorded}",
                               sorted({self.ids.get(n, n) for n in self.lost}), None)
        out += self._loose_lines()
        for side, title, verb in (
                ("baseline", "compared on flat counts only: the baselines were recorded without deep counts",
                 "to re-record them with all the work"),
                ("run", "compared on flat counts only: this run took no deep counts, the baselines hold them"
                        + (" (kept as they are)" if self.updating else ""), None)):
            ids = sorted({self.ids.get(n, n) for n in self.flat_only.get(side, ())})
            if ids:
                out += self._group(title, ids, f"{verb}: {accept_command(ids, options=self.options)}" if verb else None)
        if self.accepted:
            out.append(f"accepted beyond the baseline ({len(self.accepted)}): review these before committing the "
                       f"baselines")
            for nodeid, what in self.accepted[:SHOWN]:
                out.append(f"  {nodeid}: {'; '.join(what)}")
            if len(self.accepted) > SHOWN:
                out.append(f"  and {len(self.accepted) - SHOWN} more")
        if self.interrupted and self.updating:
            recorded = self._ids("recorded")
            if recorded:
                out += self._group("interrupted: the baselines written before the interruption", recorded, None,
                                   "recorded")
                out.append("  every other baseline is as it was before this run")
            else:
                out.append("interrupted: no baseline was written before the interruption; every baseline is as it "
                           "was before this run")
        if self.stale:
            removed = self.updating == "all" and not self.interrupted
            kept = ", not removed: the run was interrupted" if self.updating == "all" and self.interrupted else ""
            out.append(f"stale baselines ({self.stale}){', removed' if removed else kept}:")
            for path, keys in sorted(self.stale_entries.items()):
                shown = ", ".join(keys[:SHOWN]) + (f" and {len(keys) - SHOWN} more" if len(keys) > SHOWN else "")
                out.append(f"  {path}: {shown} (no such test)")
            for path, module in sorted(self.stale_files.items()):
                out.append(f"  {path}: its test module {module} no longer exists"
                           + ("" if removed else " (if it moved, move this file with it)"))
            if not removed:
                # a later, whole run removes them
                out.append(f"  to remove them: {update_command(self.run_args, self.options)}")
        return out

    def _loose_lines(self) -> list:
        """The tests whose deep counts were compared loosely, one group per pair of runtimes."""
        pairs: dict = {}
        for t in self.loose:
            key = (describe_runtime(t.baseline_runtime), describe_runtime(t.runtime), t.band)
            pairs.setdefault(key, []).append(t.nodeid)
        out = []
        for (baseline, now, band), ids in sorted(pairs.items()):
            ids = sorted(set(ids))  # a plugin's repetitions of a test: one id
            lines = self._group("", ids, f"to re-record them on this runtime: "
                                                 f"{accept_command(ids, options=self.options)}")
            lines[0] = (f"deep counts compared loosely, within {band_text(band)}, across two class libraries "
                        f"({len(ids)}): the baselines' were taken on {baseline}, this run's on {now}")
            out += lines
        return out

    def terminal_lines(self) -> list:
        """The whole section: :meth:`lines`, then what the session wrote and found, each line with its
        colour (None, "red" or "yellow")."""
        out = [(line, None) for line in self.lines()]
        if self.weights:
            out.append((f"cost weights: {'; '.join(self.weights)}", None))
        out += [(line, "red") for file in self.unwritten for line in file.lines()]
        out += [(f"bytecount: {message}", "yellow") for message in self.notes]
        out += [(f"not counted: {message}", None) for message in self.refused]
        out += [(hint, "yellow") for hint in self.hints]
        out += [(f"bytecount: wrote {path}", None) for path in self.written]
        if self.html_report is not None:
            out.append((f"bytecount: HTML report {self.html_report}", None))
        return out


def compared_line(ref: dict, updating: bool = False) -> str:
    """What ``--bytecount-compare-ref`` compared with: REF, its commit, its date and subject."""
    line = (f"compared with the baselines at {ref['ref']}: commit {ref['short']} ({ref['date']}, {ref['subject']!r}), "
            f"read through git")
    return line + ("; the update wrote this checkout's files, never REF's" if updating else "")


def improved_lines(message: str) -> list:
    """What an improved test's verdict said fell: its headline's figures and each better order, from the verdict's
    text."""
    out = []
    for line in (message or "").splitlines():
        if line.startswith("improved: "):
            out.append(line[len("improved: "):].removesuffix("; the baseline is stale"))
        elif ": complexity improved; baseline is stale: " in line:
            out.append("complexity improved: " + line.split(": complexity improved; baseline is stale: ", 1)[1])
    return out


def accepted_lines(message: str) -> list:
    """What a recorded test's verdict said it accepted beyond its baseline: the regression's headline and each
    worse order, from the verdict's text (none for a test that passed, improved or was new)."""
    out = []
    for line in (message or "").splitlines():
        if line.startswith(("REGRESSED: ", "CHANGED: ")):
            out.append(line)
        elif ": COMPLEXITY GOT WORSE: " in line:
            out.append("COMPLEXITY GOT WORSE: " + line.split(": COMPLEXITY GOT WORSE: ", 1)[1])
    return out


# the statuses whose tests the summary lists with their verdict's first line
LED = ("regressed", "changed", "over-budget", "unchecked")
# the statuses a job summary lists under "Changed", in this order: the ones that fail first
CHANGED = ("regressed", "changed", "not-run", "over-limit", "over-budget", "nondeterministic", "unchecked", "error",
           "failed", "unwritten", "new", "improved", "reshaped")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def worse_lines(results: dict) -> list:
    """Each ``COMPLEXITY GOT WORSE`` first line among ``results``, bold, with a blank line after: what the job summary
    and the pull-request comment lead with, above their table."""
    worse = sorted({lead_line(r.message) for r in results.values() if r.status in CHANGED
                    and lead_line(r.message).startswith("COMPLEXITY GOT WORSE")})
    return [f"**{_cell(line)}**" for line in worse] + ([""] if worse else [])


def changed_table(results: dict, heading: str = "####") -> list:
    """The job summary's (and the pull-request comment's) table of the tests whose verdict is not a plain pass, failing
    ones first: baseline -> now of the figure that decided, the change, the verdict's first line and the command that
    accepts it, under a ``heading``-level title."""
    changed = sorted((r for r in results.values() if r.status in CHANGED),
                     key=lambda r: (CHANGED.index(r.status), r.nodeid))
    if not changed:
        return []
    lines = [f"{heading} Changed ({len(changed)})", "", "| test | status | baseline → now | change | verdict | to accept |",
             "|---|---|---:|---:|---|---|"]
    for r in changed:
        figures = deciding_figures(r.to_dict()) if r.status in ("regressed", "changed", "improved", "reshaped") else None
        if figures is not None:
            work, b, n = figures
            before_now = f"{work} {b:,} → {n:,}"
            change = f"{n - b:+,} ({percent_change(b, n)})" if b else f"{n - b:+,}"
        else:
            before_now = change = ""
        accept = f"`{_cell(r.accept)}`" if r.accept else ""
        lines.append(f"| `{_cell(r.nodeid)}` | {r.status} | {before_now} | {change} | {_cell(lead_line(r.message))} | "
                     f"{accept} |")
    return lines + [""]


def markdown(results: dict, compared_with: Optional[dict] = None, shard: Optional[str] = None) -> str:
    """The table of ``{nodeid: TestResult}`` for a GitHub job summary (``$GITHUB_STEP_SUMMARY``): the changed tests
    first (:func:`changed_table`), then each method's status, its figures, and the work figures in force (``cost``,
    ``inclusive``, ``deep``) where any test has them, the one that decides first."""
    figures = [(name, title) for name, title in (("deep", "deep work"), ("inclusive", "inclusive"), ("cost", "cost"))
               if any(metric(c, name) is not None for r in results.values() for c in r.counts.values())]
    changed = changed_table(results)
    ref = [compared_line(compared_with).capitalize() + ".", ""] if compared_with else []
    lines = ["### pytest-bytecount" + (f" (shard {shard})" if shard else ""), "", *ref, *worse_lines(results), *changed, *(["#### All counted tests", ""] if changed else []),
             "| test | status | method |" + "".join(f" {title} |" for _, title in figures) + " total | invocations |",
             "|---|---|---|" + "---:|" * (len(figures) + 2)]
    for nodeid, r in sorted(results.items()):
        if not r.counts:  # never counted (its process died, its setup failed): still one row with its status
            lines.append(f"| `{nodeid}` | {r.status} | |{' |' * len(figures)} | |")
        for method, c in sorted(r.counts.items()):
            cells = []
            for name, _ in figures:
                value = metric(c, name)
                if name == "deep" and value is not None:
                    value += metric(c, "copied") or 0
                cells.append(f" {value:,} |" if value is not None else " |")
            lines.append(f"| `{nodeid}` | {r.status} | `{method}` |{''.join(cells)} {c['total']:,} | {c['invocations']:,} |")
    return "\n".join(lines) + "\n\n"
