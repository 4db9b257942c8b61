"""Identity hashes drawn by the JVM's own first-use work inside a window do not move the program's: a class first
linked there (HotSpot hashes its Class object natively as it links it), or first initialised there (its static
initialiser's objects), draws from the thread's sequence, and so do the JDK's class loaders. Under deep counts those
draws are undone at the end of the excluded frame, and at the first counted code after a native link, so a window
that builds a HashMap of identity-hashed keys counts the same whether an earlier test loaded those classes or not
(H2's GROUP BY, in place, moved by 17,991 deep instructions with the tests before it)."""

from __future__ import annotations

import json

from tests.support.pytest_project import java_project, run

SOURCES = {"late/Identities.java": """
package late;

import java.util.HashMap;
import java.util.Map;

public class Identities {
    /** n keys that hash by identity, put and looked up: the work follows the hashes the thread draws. */
    static int build(int n) {
        Map<Object, Integer> m = new HashMap<>();
        Object[] keys = new Object[n];
        for (int i = 0; i < n; i++) {
            keys[i] = new Object();
            m.put(keys[i], i);
        }
        int s = 0;
        for (int i = 0; i < n; i++) s += m.get(keys[i]);
        return s;
    }

    public static int firstUse(int n) {
        new Linked();  // linked here first, unless an earlier test made one
        return Holder.touch() + build(n);  // initialised here first, unless an earlier test touched it
    }

    public static void prepare() {
        new Linked();
        Holder.touch();
    }
}

class Linked {
}

class Holder {
    static final Object[] MADE = new Object[8];

    static {
        for (int i = 0; i < MADE.length; i++) {
            MADE[i] = new Object();
            MADE[i].hashCode();
        }
    }

    static int touch() {
        return 0;
    }
}
"""}

TESTS = '''
import pytest


@pytest.mark.bytecount("late.Identities#prepare", in_place=True)
def test_an_earlier_test_uses_the_classes(bytecount):
    bytecount.jclass("late.Identities").prepare()


@pytest.mark.bytecount("late.Identities#firstUse", in_place=True)
def test_counted(bytecount):
    assert bytecount.jclass("late.Identities").firstUse(3000) == 3000 * 2999 // 2
'''


def _deep(tmp_path, name: str) -> dict:
    (result,) = [r for n, r in json.loads((tmp_path / name).read_text()).items() if n.endswith("::test_counted")]
    return result["counts"]["late.Identities#firstUse(I)I"]["deep"]


def test_a_window_counts_the_same_whether_an_earlier_test_loaded_its_classes_or_not(pytester, tmp_path):
    java_project(pytester, SOURCES, {"test_first_use": TESTS}, pinned=False)
    after = run(pytester, "--bytecount-update", f"--bytecount-json={tmp_path / 'after.json'}", "-p", "no:randomly")
    assert after.ret == 0, after.stdout.str()
    alone = run(pytester, "-k", "test_counted", f"--bytecount-json={tmp_path / 'alone.json'}")
    assert alone.ret == 0, alone.stdout.str()
    first, second = _deep(tmp_path, "after.json"), _deep(tmp_path, "alone.json")
    assert first["total"] > 50_000 and "java.util.HashMap#putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;" \
        in first["methods"]
    assert second == first
