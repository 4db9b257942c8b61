"""pytest-bytecount: executed JVM bytecode counts as exact regression tests."""

__version__ = "0.1.0.dev0"


def start_jvm(config, *options: str, classpath=()):
    """Start this process's JVM through pytest-bytecount, for an application that starts the JVM itself.

    Call it where ``jpype.startJVM`` would be called, from ``conftest.py``::

        def pytest_configure(config):
            pytest_bytecount.start_jvm(config, "-Xmx1g", classpath=["build/libs/app.jar"])

    ``options`` and ``classpath`` (entries relative to the rootdir's pyproject.toml) are the application's;
    the JVM is the one ``[tool.bytecount]`` chooses, started with its ``jvm-options`` too and with the agent
    that counting in place (``in_place=True``) needs. Without this, pytest-bytecount adopts a JVM the
    application started, as it is. Returns the JVM's version."""
    from .plugin.hooks import start_jvm as start

    return start(config, list(options), list(classpath))
