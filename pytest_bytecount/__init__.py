"""pytest-bytecount: executed JVM bytecode counts as exact regression tests.

The package's root is what test code imports: :func:`bytecount` (the marker's short form) and
:func:`start_jvm`. Both import the plugin only when called, so importing the package costs nothing.
"""

from .version import __version__

__all__ = ["__version__", "bytecount", "start_jvm"]


def bytecount(*targets: str, **options):
    """The short form of ``@pytest.mark.bytecount``: ``@bytecount("pkg.Cls#method", tolerance="total=5%")``
    is exactly ``@pytest.mark.bytecount("pkg.Cls#method", tolerance="total=5%")``::

        from pytest_bytecount import bytecount

        @bytecount("demo.Search#indexOf")
        def test_index_of(bytecount):
            assert bytecount.jclass("demo.Search").indexOf(...) == 3

    The targets and options are checked here, when the test module is imported, as collection checks the
    marker: a :class:`TypeError` names every problem (a tolerance on ``cost`` without a weight table is
    found at collection, which knows the settings)."""
    import pytest

    from .plugin.markers import MARKER, option_problems

    problems = option_problems(targets, options)
    if problems:
        raise TypeError("bytecount(...): " + "; ".join(problems))
    return getattr(pytest.mark, MARKER)(*targets, **options)


def start_jvm(config, *options: str, classpath=(), deep: bool = False, **jpype_options):
    """Start this process's JVM through pytest-bytecount, for an application that starts the JVM itself.

    Call it where ``jpype.startJVM`` would be called, from ``conftest.py``::

        def pytest_configure(config):
            pytest_bytecount.start_jvm(config, "-Xmx1g", classpath=["build/libs/app.jar"])

    ``options`` and ``classpath`` (entries relative to the rootdir's pyproject.toml, or ``pkg:<package>/<path>``
    inside an installed Python package) are the application's;
    the JVM is the one ``[tool.bytecount]`` chooses, started with its ``jvm-options`` too, its ``classpath``
    ahead of the application's entries, and with the agent that counting in place (``in_place=True``) needs.
    ``deep=True`` starts it with the options deep counts need (``deep=True`` markers), which a JVM cannot
    take once it runs (``deep = true`` in ``[tool.bytecount]`` does the same). ``jpype_options`` are ``jpype.startJVM``'s own keywords
    that an application sets, ``convertStrings`` and ``ignoreUnrecognized`` (``jvmpath`` is the ``java-home``
    setting's, and ``interrupt`` is pytest-bytecount's, so that Ctrl-C ends a run with its summary).
    Without this, pytest-bytecount adopts a JVM the application started, as it is. Under pytest-xdist the
    controller, which runs no test, starts none (each worker starts its own). Returns the JVM's version."""
    from .plugin.hooks import start_jvm as start

    if not isinstance(deep, bool):
        raise TypeError(f"pytest_bytecount.start_jvm: deep must be True or False, got {deep!r}")
    return start(config, list(options), list(classpath), jpype_options, deep)
