"""Whether a running JVM has the options deep counts need is read from the options it started with when they say
so, each by its last word, and asked of the JVM's diagnostic bean otherwise (about a hundred classes loaded, which
a deep set-up then counts)."""

from __future__ import annotations

import pytest

from pytest_bytecount.jvm.deep_options import C2_OPTIONS, DEEP_JVM_OPTIONS, _turned_off

THEIRS = [*DEEP_JVM_OPTIONS, *C2_OPTIONS, "-XX:DisableIntrinsic=_indexOfL"]


@pytest.fixture(autouse=True)
def no_environment_options(monkeypatch):
    for name in ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS"):
        monkeypatch.delenv(name, raising=False)


def test_the_plugin_s_options_say_it_without_asking_the_jvm():
    assert _turned_off(THEIRS)
    assert _turned_off(["-Xshare:auto", *THEIRS, "-Xmx1g"])  # the last word on class-data sharing is off


@pytest.mark.parametrize("later", ["-Xshare:auto", "-XX:+UseSharedSpaces", "-XX:+InlineNatives",
                                   "-XX:+OptimizeStringConcat", "-XX:InlineNatives=true", "-XX:Flags=.hotspotrc",
                                   "-XX:VMOptionsFile=opts"])
def test_a_later_word_or_a_flags_file_sends_the_question_to_the_jvm(later):
    assert not _turned_off([*THEIRS, later])


def test_options_that_leave_one_out_or_the_environment_s_options_send_it_to_the_jvm(monkeypatch):
    assert not _turned_off([])  # a JVM whose options are not known (before Java 9)
    assert not _turned_off([*DEEP_JVM_OPTIONS])  # a VM given no C2 options (Zero, client) is asked which it has
    assert not _turned_off([o for o in THEIRS if o != "-XX:-InlineNatives"])
    monkeypatch.setenv("_JAVA_OPTIONS", "-XX:+InlineNatives")
    assert not _turned_off(THEIRS)
