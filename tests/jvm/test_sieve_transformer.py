"""The Sieve transformer (``Sieve.jasm``), in front of the in-place counting's Python transformer: it hands Python
only the classes of a class loader whose internal names start with one of its prefixes, so that the thousands of
classes an application loads during a test that no target names pass in Java. The prefixes come from the target
patterns (``TargetPattern.class_prefix``): each is what every name its pattern matches starts with."""

from __future__ import annotations

import pytest

from pytest_bytecount.counting.targets import TargetPattern
from tests.support.jdk import child_on_jvm
from tests.support.transformer_child import HEAD

_CHILD = HEAD + """
MARK = b"counted "

app = J("java.lang.ClassLoader").getSystemClassLoader()
sieve = instrumentation().sieve(["com/acme/Cart", "org/shop/"], transformer_class()(following))
def ask(loader, name):
    out = sieve.transform(loader, name, None, None, jpype.JArray(jpype.JByte)(b"original"))
    return None if out is None else bytes(memoryview(out)).decode()

answers = {n: ask(app, n) for n in ["com/acme/Cart", "com/acme/Cart$Line", "com/acme/Till", "org/shop/a/B",
                                     "org/shopping/C", "com/google/common/base/Splitter"]}
answers["boot com/acme/Cart"] = ask(None, "com/acme/Cart")
answers["hidden"] = ask(app, None)
print(json.dumps({"answers": answers, "seen": seen}))
"""


@pytest.mark.parametrize("vm", ["hotspot17", "jdk4py25"])
def test_the_sieve_hands_python_only_the_classes_a_prefix_names(vm):
    got = child_on_jvm(vm, _CHILD)
    assert got["answers"] == {"com/acme/Cart": "counted original", "com/acme/Cart$Line": "counted original",
                              "com/acme/Till": None, "org/shop/a/B": "counted original", "org/shopping/C": None,
                              "com/google/common/base/Splitter": None, "boot com/acme/Cart": None, "hidden": None}
    assert got["seen"] == ["com/acme/Cart", "com/acme/Cart$Line", "org/shop/a/B"]


@pytest.mark.parametrize("pattern, prefix", [
    ("com.acme.Cart#total", "com/acme/Cart"),
    ("com.acme.Cart", "com/acme/Cart"),
    ("com.acme.Cart$Line#add(I)V", "com/acme/Cart$Line"),
    ("com.acme.*", "com/acme"),
    ("com.acme.**", "com/acme"),
    ("com.acme.Cart.**", "com/acme/Cart"),
    ("com.acme.Ca*#total", "com/acme/Ca"),
    ("**", ""),
])
def test_a_patterns_prefix_starts_every_name_it_matches(pattern, prefix):
    p = TargetPattern.parse(pattern)
    assert p.class_prefix == prefix
    for dotted in ["com.acme.Cart", "com.acme.Cart$Line", "com.acme.Cart.sub.X", "com.acme.Cargo", "com.acme",
                   "com.acmex.Y", "org.Z"]:
        if p.matches_class(dotted):
            assert dotted.replace(".", "/").startswith(prefix), (pattern, dotted)
