"""Counting in a test's own class loader and counting in place are two implementations of one interface
(jvm/loaders.py's ``CountingLoaders`` and ``CountingHandle``), which the plugin and the command line use alone. Both
are exercised on real JVMs by tests/plugin/ (test_load_time.py, test_running_jvm.py) and tests/cli/; here, that each
implements all of it."""

from __future__ import annotations

import inspect

import pytest

from pytest_bytecount.jvm.in_place import InPlaceHandle, InPlaceLoaders
from pytest_bytecount.jvm.loaders import CountingHandle, CountingLoaders, LoaderHandle, LoadTimeLoaders


@pytest.mark.parametrize("made, interface", [(LoadTimeLoaders, CountingLoaders), (InPlaceLoaders, CountingLoaders),
                                             (LoaderHandle, CountingHandle), (InPlaceHandle, CountingHandle)])
def test_each_implementation_implements_the_whole_interface(made, interface):
    assert issubclass(made, interface)
    assert not inspect.isabstract(made), sorted(made.__abstractmethods__)
    for name in interface.__abstractmethods__:  # with the interface's parameters
        assert list(inspect.signature(getattr(made, name)).parameters) == \
            list(inspect.signature(getattr(interface, name)).parameters), name
