"""An enum constant's identity hash does not depend on which test asked for it first. An enum's hashCode is the
identity hash, and HotSpot draws it the first time one is asked for, from the asking thread's sequence: so a window
that fills a HashMap keyed by an application's enum constants counted otherwise after a test that had used them
(mpxj's JsonWriter, in place, moved by 58,464 deep instructions under -n 2). Under deep counts each constant gets its
hash as Enum's constructor ends, drawn from a state made from its class's name, its name and its ordinal."""

from __future__ import annotations

import json

from tests.support.pytest_project import java_project, run

CONSTANTS = 300

SOURCES = {"shades/Shade.java": "package shades;\n\npublic enum Shade {\n    "
           + ", ".join(f"S{i}" for i in range(CONSTANTS)) + ";\n}\n",
           "shades/Palette.java": """
package shades;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

public class Palette {
    /** Every constant put in a HashMap and looked up: the work follows the constants' hashes. */
    public static int index() {
        Map<Shade, Integer> m = new HashMap<>();
        for (Shade s : Shade.values()) m.put(s, s.ordinal());
        int sum = 0;
        for (Shade s : Shade.values()) sum += m.get(s);
        return sum;
    }

    /** An earlier test's use of the constants: it asks for their hashes first. */
    public static int prepare() {
        Set<Shade> seen = new HashSet<>();
        for (Shade s : Shade.values()) seen.add(s);
        return seen.size();
    }
}
"""}

TESTS = '''
import pytest


@pytest.mark.bytecount("shades.Palette#prepare", in_place=True)
def test_an_earlier_test_hashes_the_constants(bytecount):
    assert bytecount.jclass("shades.Palette").prepare() == 300


@pytest.mark.bytecount("shades.Palette#index", in_place=True)
def test_counted(bytecount):
    assert bytecount.jclass("shades.Palette").index() == 300 * 299 // 2
'''


def _deep(tmp_path, name: str) -> dict:
    (result,) = [r for n, r in json.loads((tmp_path / name).read_text()).items() if n.endswith("::test_counted")]
    return result["counts"]["shades.Palette#index()I"]["deep"]


def test_a_map_of_enum_constants_counts_the_same_whether_an_earlier_test_hashed_them_or_not(pytester, tmp_path):
    java_project(pytester, SOURCES, {"test_shades": TESTS}, pinned=False)
    after = run(pytester, "--bytecount-update", f"--bytecount-json={tmp_path / 'after.json'}", "-p", "no:randomly")
    assert after.ret == 0, after.stdout.str()
    alone = run(pytester, "-k", "test_counted", f"--bytecount-json={tmp_path / 'alone.json'}")
    assert alone.ret == 0, alone.stdout.str()
    first, second = _deep(tmp_path, "after.json"), _deep(tmp_path, "alone.json")
    assert "java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;" in first["methods"]
    assert second == first
