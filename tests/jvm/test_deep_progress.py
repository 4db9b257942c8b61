"""The deep set-up's progress lines: none while it is quick (a warm deep cache), a line every few seconds once it is
slow, and the last one when it ends. The clock is given, so the rule is checked without a JVM or a wait."""

from __future__ import annotations

from pytest_bytecount.jvm.deep import slow_progress


def said(times: list, calls: list) -> list:
    """What the progress says for ``calls`` ([(done, total)]) made at ``times`` (the first is the set-up's start)."""
    clock = iter(times)
    lines: list = []
    progress = slow_progress(lines.append, quiet_for=2.0, every=5.0, clock=lambda: next(clock))
    for done, total in calls:
        progress(done, total)
    return [line.rsplit(": ", 1)[1] for line in lines]


def test_a_quick_set_up_says_nothing():
    assert said([0.0, 0.2, 0.4, 0.5], [(256, 700), (512, 700), (700, 700)]) == []


def test_a_slow_set_up_says_where_it_is_every_few_seconds_and_when_it_ends():
    times = [0.0, 1.0, 2.5, 4.0, 8.0, 9.0, 9.5]
    calls = [(256, 1536), (512, 1536), (768, 1536), (1024, 1536), (1280, 1536), (1536, 1536)]
    assert said(times, calls) == ["512/1536", "1024/1536", "1536/1536"]


def test_a_set_up_that_turns_slow_at_its_end_says_only_that_it_ended():
    assert said([0.0, 0.5, 3.0], [(256, 512), (512, 512)]) == ["512/512"]
