"""The Kept transformer (``Kept.jasm``), which answers for the class library's classes from Java during the deep
set-up on Java 25: it answers with the bytes it keeps only for a class of the boot or platform loader whose name it
keeps, hands every other class to the next transformer, and after ``drop()`` hands it every class."""

from __future__ import annotations

import pytest

from tests.support.jdk import child_on_jvm
from tests.support.transformer_child import HEAD

_CHILD = HEAD + """
MARK = b"next:"

platform = J("java.lang.ClassLoader").getPlatformClassLoader()
app = J("java.lang.ClassLoader").getSystemClassLoader()
kept = instrumentation().kept_transformer(platform, ["p/A", "p/B"], [b"kept A", b"kept B, longer"],
                                          transformer_class()(following))
def ask(loader, name):
    out = kept.transform(loader, name, None, None, jpype.JArray(jpype.JByte)(b"original"))
    return None if out is None else bytes(memoryview(out)).decode()

answers = {"boot A": ask(None, "p/A"), "platform B": ask(platform, "p/B"), "application A": ask(app, "p/A"),
           "boot C": ask(None, "p/C")}
before = list(seen)
kept.drop()
answers["boot A, dropped"] = ask(None, "p/A")
answers["platform B, dropped"] = ask(platform, "p/B")
print(json.dumps({"answers": answers, "before": before, "after": seen[len(before):]}))
"""


@pytest.mark.parametrize("vm", ["hotspot17", "jdk4py25"])
def test_kept_answers_for_the_class_librarys_loaders_by_name_until_dropped(vm):
    got = child_on_jvm(vm, _CHILD)
    assert got["answers"] == {"boot A": "kept A", "platform B": "kept B, longer", "application A": "next:original",
                              "boot C": "next:original", "boot A, dropped": "next:original",
                              "platform B, dropped": "next:original"}
    assert got["before"] == ["p/A", "p/C"] and got["after"] == ["p/A", "p/B"]
