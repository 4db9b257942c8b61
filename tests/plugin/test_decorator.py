"""``from pytest_bytecount import bytecount``: the marker's short form. It is the marker exactly, it checks
targets and options as collection does (when the test module is imported), and the package root imports
the plugin only when it is called."""

from __future__ import annotations

import subprocess
import sys

import pytest

import pytest_bytecount
from tests.support.pytest_project import demo_project, run


def test_the_decorator_is_the_marker():
    short = pytest_bytecount.bytecount("demo.Sorting#fib", "demo.Search", tolerance="total=5%", max_invocations=3)
    long = pytest.mark.bytecount("demo.Sorting#fib", "demo.Search", tolerance="total=5%", max_invocations=3)
    assert short.mark == long.mark


@pytest.mark.parametrize("targets, options, problem", [
    ((), {}, "needs one or more target patterns"),
    ((42,), {}, "needs one or more target patterns (strings such as 'demo.Sorting#insertionSort'), got (42,)"),
    (("a.B",), {"tolerence": "total=1"}, "unknown @pytest.mark.bytecount option(s) ['tolerence']"),
    (("a.B",), {"tolerance": "totl=1"}, "bad tolerance metric 'totl'"),
    (("a.B",), {"max_invocations": -1}, "max_invocations must be a whole number >= 0, got -1"),
    (("a.B",), {"in_place": "yes"}, "in_place must be True or False, got 'yes'"),
    (("a.B",), {"in_place": True, "inclusive": True}, "inclusive counts are made in the test's own class loader"),
    (("a.B",), {"deep": "yes"}, "deep must be True or False, got 'yes'"),
])
def test_the_decorator_names_what_is_wrong(targets, options, problem):
    with pytest.raises(TypeError) as raised:
        pytest_bytecount.bytecount(*targets, **options)
    assert str(raised.value).startswith("bytecount(...): ") and problem in str(raised.value)


def test_start_jvm_refuses_a_deep_that_is_not_a_boolean_before_it_reads_the_configuration():
    with pytest.raises(TypeError, match="^pytest_bytecount.start_jvm: deep must be True or False, got 'yes'$"):
        pytest_bytecount.start_jvm(None, deep="yes")


def test_importing_the_package_does_not_import_the_plugin():
    code = ("import sys, pytest_bytecount; "
            "print(sorted(m for m in sys.modules if m.startswith('pytest_bytecount.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['pytest_bytecount.version']"  # the version, and nothing of the plugin


def test_a_decorated_test_counts_and_a_wrong_one_is_a_collection_error(pytester):
    demo_project(pytester, {"test_short": '''
        from pytest_bytecount import bytecount

        @bytecount("demo.Sorting#fib")
        def test_fib(bytecount):
            assert bytecount.jclass("demo.Sorting").fib(10) == 55
            assert bytecount.counts()["demo.Sorting#fib(I)I"]["invocations"] == 177
    ''', "test_wrong": '''
        from pytest_bytecount import bytecount

        @bytecount("demo.Sorting#fib", tolerence="total=1")
        def test_fib(bytecount):
            pass
    '''})
    recorded = run(pytester, "test_short.py", "--bytecount-update")
    recorded.assert_outcomes(passed=1)
    run(pytester, "test_short.py").assert_outcomes(passed=1)
    wrong = run(pytester, "test_wrong.py")
    wrong.assert_outcomes(errors=1)
    wrong.stdout.fnmatch_lines(["*TypeError: bytecount(...): unknown @pytest.mark.bytecount option(s) [[]'tolerence'[]]*"])
