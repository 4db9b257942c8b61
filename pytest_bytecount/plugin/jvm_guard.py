"""The JVM guard plugin: the process's one JVM, whoever started it (the plugin, a conftest, an application's
own ``jpype.startJVM`` in a test). The JVM keeps its fault signals and Python its interrupts
(:mod:`~pytest_bytecount.jvm.signals`); a JVM that dies names the test that ran; under deep counts each test
and fixture starts drawing identity hashes where it always does; a failure an application's start explains
says so; and at the end the JVM is shut down before faulthandler hands the signals back."""

from __future__ import annotations

import pytest

from ..jvm import signals
from ..jvm.session import jvm_running


def guard_signals() -> None:
    """With a JVM in the process: the JVM handles its faults and Python its interrupts."""
    if jvm_running():
        signals.owners.reclaim()


class JvmGuard:
    """The JVM's side of every test (``java``: the session's :class:`~.java.JavaContext`)."""

    name = "bytecount-jvm-guard"

    def __init__(self, java):
        self._java = java

    def pytest_sessionstart(self, session) -> None:
        """After every pytest_configure, faulthandler's included (a conftest may have started the JVM before)."""
        guard_signals()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item) -> None:
        """An application may start its JVM in any test or fixture."""
        guard_signals()

    def pytest_runtest_logstart(self, nodeid, location) -> None:
        self._java.crash.running(nodeid)  # named if the JVM dies of a fatal error

    def pytest_runtest_logfinish(self, nodeid, location) -> None:
        """After each test: a JVM its fixtures started has its fault handlers noted while they are in place."""
        guard_signals()
        self._java.crash.running(None)

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        """Before a fixture's set-up: under deep counts, the identity hashes its objects get are its own."""
        self._java.reseed_identity_hashes(f"fixture {fixturedef.baseid}::{fixturedef.argname}"
                                          f"[{getattr(request, 'param_index', 0)}]")
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        """A test that failed after an application's start asked for what the running JVM lacks says so."""
        report = yield
        if call.when == "call":
            self._java.explain_application_failure(report)
        return report

    @pytest.hookimpl(tryfirst=True)
    def pytest_unconfigure(self, config) -> None:
        # before faulthandler's unconfigure swaps the signal handlers back (jpype issues 842, 1261)
        self._java.close()
