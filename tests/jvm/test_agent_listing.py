"""The agent's listing of the classes deep counting may change, made in one call into Java, agrees with the same
question asked class by class through JPype; and ``pick`` hands back the classes it names, in order."""

from __future__ import annotations

import pytest

from tests.support.jdk import child_on_jvm

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[2])
import jpype
from pytest_bytecount.jvm.agent import instrumentation
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

choice = choose_jvm(sys.argv[1], "server")
JvmSession(choice, [], agent=True).start()
inst = instrumentation()
api = inst.api
platform = jpype.JClass("java.lang.ClassLoader").getPlatformClassLoader()
expected = {}
for c in api.getAllLoadedClasses():  # asked class by class
    if api.isModifiableClass(c) and not c.isArray() and not c.isPrimitive():
        loader = c.getClassLoader()
        expected[(str(c.getName()).replace(".", "/"), loader is None or loader.equals(platform))] = c
classes, listed = inst.modifiable(platform)
which = [i for i, name, library in listed if (name, library) in expected][::-1]
picked = inst.pick(classes, which)
same = all(picked[k].equals(classes[i]) and str(classes[i].getName()).replace(".", "/") == listed[i][1]
           for k, i in enumerate(which))
print(json.dumps({"expected": sorted(map(list, expected)), "listed": [[n, lib] for _, n, lib in listed],
                  "indexes": [i for i, _, _ in listed], "classes": len(classes), "picked": len(picked), "same": same}))
"""


@pytest.mark.parametrize("vm", ["hotspot17", "jdk4py25"])
def test_the_one_call_listing_is_what_jpype_sees_class_by_class(vm):
    got = child_on_jvm(vm, _CHILD)
    listed = {tuple(x) for x in got["listed"]}
    expected = {tuple(x) for x in got["expected"]}
    assert len(expected) > 300
    assert expected <= listed  # classes may load between the two looks, never unload
    assert len(listed - expected) < 20
    assert len(listed) == len(got["listed"]) == got["classes"]  # one line per class, no name twice in a loader kind
    assert got["indexes"] == list(range(got["classes"]))
    # the boot and platform loaders' classes are told from the others
    assert ("java/lang/String", True) in listed and ("pytest_bytecount/Agent", False) in listed
    assert not any(name.startswith("[") for name, _ in listed)
    assert got["picked"] == len(expected) and got["same"]
