"""Reads of a shared child session (tests/support/shared_run.py) that name one story's part of the
session-level text: the groups of the bytecount summary that list its node ids, the headline, and the
outcome of a test by node id where test names repeat across the project's modules."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET


def summary_lines(session) -> list:
    """The lines of the ``= bytecount =`` section of the terminal summary, up to the next section."""
    lines = session.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"^=+ bytecount =+$", line)) + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"^={3,} ", lines[i])), len(lines))
    return lines[start:end]


def summary_of(result) -> list:
    """The non-blank lines of the ``= bytecount =`` section of a pytester run's output."""
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if re.match(r"^=+ bytecount =+$", line)) + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"^={3,} ", lines[i])), len(lines))
    return [line for line in lines[start:end] if line.strip()]


def headline(session) -> str:
    """The first line of the bytecount summary: the tests by status, then the stale baselines."""
    return next(line for line in summary_lines(session) if line.strip())


def headline_parts(session) -> dict:
    """The headline as {status: count} ("3 recorded, 1 failed" -> {"recorded": 3, "failed": 1})."""
    parts = {}
    for part in headline(session).split(", "):
        number, _, status = part.partition(" ")
        parts[status] = int(number)
    return parts


def group(session, title: str) -> list:
    """The lines of the summary group headed ``title (n):``, without the heading: its node ids (and the
    command that accepts them, when the group has one), stripped, without the figures indented under an id;
    [] when there is no such group."""
    lines = summary_lines(session)
    heading = re.compile(re.escape(title) + r" \((\d+)\):$")
    for i, line in enumerate(lines):
        if heading.match(line):
            out = []
            for member in lines[i + 1:]:
                if not member.startswith("  "):
                    break
                if not member.startswith("    "):  # deeper: an improved test's figures
                    out.append(member.strip())
            return out
    return []


def group_size(session, title: str) -> int:
    """The count in a group's heading, ``title (n):``; 0 when there is no such group."""
    for line in summary_lines(session):
        match = re.match(re.escape(title) + r" \((\d+)\):$", line)
        if match:
            return int(match.group(1))
    return 0


def outcome_of(session, nodeid: str) -> str:
    """"passed", "failed", "error" or "skipped" of one test by its node id (``dir/test_mod.py::test_x``), from the
    junit XML's class name and name, for projects in which test names repeat."""
    path, _, rest = nodeid.partition("::")
    function, bracket, params = rest.partition("[")  # a parameter id may hold "::" itself
    *classes, name = function.split("::")
    name += bracket + params
    classname = ".".join([path[:-len(".py")].replace("/", "."), *classes])
    found = []
    for case in ET.parse(session.junit).getroot().iter("testcase"):
        if case.get("classname") == classname and case.get("name") == name:
            kinds = {child.tag for child in case}
            found.append("failed" if "failure" in kinds else "error" if "error" in kinds else
                         "skipped" if "skipped" in kinds else "passed")
    assert found, f"{nodeid} did not run\n{session.stdout}"
    for outcome in ("failed", "error", "skipped", "passed"):  # a teardown's error after a failure: the failure
        if outcome in found:
            return outcome


def skip_kind(session, name: str) -> str:
    """How a skipped test (by name) was skipped, from the junit XML: "pytest.skip" or "pytest.xfail"."""
    kinds = [child.get("type") for case in ET.parse(session.junit).getroot().iter("testcase")
             if case.get("name") == name for child in case if child.tag == "skipped"]
    assert len(kinds) == 1, (name, kinds)
    return kinds[0]
