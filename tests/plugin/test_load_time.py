"""Classes counted when a test's loader first asks for them: what a user sees.

The counts themselves are checked against the oracle in tests/counting/test_exact.py; here: which classes
get counted, the cache, and the verdicts that need to know what a pattern matched beyond what was loaded."""

from __future__ import annotations

import json
import textwrap

from tests.support.pytest_project import java_project, run

SOURCES = {
    "shop/Cart.java": """
        package shop;
        public class Cart {
            public static int total(int[] prices) {
                int sum = 0;
                for (int p : prices) sum += Tax.gross(p);
                return sum;
            }
            public static int count(int[] prices) { return prices.length; }
        }
    """,
    "shop/Tax.java": """
        package shop;
        public class Tax {
            public static int gross(int net) { return net + net / 5; }
        }
    """,
    "shop/Unused.java": """
        package shop;
        public class Unused {
            public static int never(int x) { return x * 2; }
        }
    """,
}


def test_a_glob_counts_the_classes_the_test_loads_and_only_those(pytester):
    java_project(pytester, SOURCES, {"test_cart": """
        import json, jpype, pytest

        @pytest.mark.bytecount("shop.**")
        def test_total(bytecount):
            Cart = bytecount.jclass("shop.Cart")
            assert Cart.total(jpype.JArray(jpype.JInt)([10, 20, 30])) == 72
            with open("counts.json", "w") as f:
                json.dump(bytecount.counts(), f)
    """})
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    counts = json.loads((pytester.path / "counts.json").read_text())
    # Cart and Tax loaded (Cart calls Tax), Unused never: no entry, nothing instrumented for it
    assert sorted({m.split("#")[0] for m in counts}) == ["shop.Cart", "shop.Tax"]
    # Tax.gross(p) = p + p / 5, by hand: iload_0 iload_0 iconst_5 idiv iadd ireturn, once per price
    assert counts["shop.Tax#gross(I)I"]["invocations"] == 3 and counts["shop.Tax#gross(I)I"]["total"] == 18
    assert counts["shop.Cart#count([I)I"]["invocations"] == 0
    stored = json.loads((pytester.path / "bytecount" / "test_cart.json").read_text())
    assert sorted(stored["tests"]["test_total"]["methods"]) == ["shop.Cart#total([I)I", "shop.Tax#gross(I)I"]
    entries = sorted(p.name for p in (pytester.path / ".bytecount-cache" / "counted").iterdir())
    assert len(entries) == 2 and all(e.endswith(".class-entry") for e in entries)  # Cart and Tax
    again = run(pytester)  # from the cache, the same verdict
    again.assert_outcomes(passed=1)


def test_a_target_whose_class_never_loads_is_not_run(pytester):
    java_project(pytester, SOURCES, {"test_idle": """
        import pytest

        @pytest.mark.bytecount("shop.Unused#never")
        def test_exact_name(bytecount):
            pass

        @pytest.mark.bytecount("shop.Unu*")
        def test_glob(bytecount):
            pass
    """})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*NOT RUN: target 'shop.Unused#never' matched shop.Unused#never(I)I, which did not run in this test",
        "*NOT RUN: target 'shop.Unu*' matched 2 methods (shop.Unused#<init>()V, shop.Unused#never(I)I), none of "
        "which ran in this test",
    ])
    assert not (pytester.path / "bytecount" / "test_idle.json").exists()


def test_a_glob_whose_method_part_matches_nothing_says_so_when_nothing_ran(pytester):
    java_project(pytester, SOURCES, {"test_typo": """
        import jpype, pytest

        @pytest.mark.bytecount("shop.*#totl")
        def test_typo(bytecount):
            bytecount.jclass("shop.Cart").count(jpype.JArray(jpype.JInt)([1]))
    """})
    result = run(pytester, "--bytecount-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*bytecount: target 'shop.*#totl' matches no method; near misses: *shop.Cart#total*"])


def test_a_matched_class_that_cannot_be_counted_fails_the_test_that_loads_it(pytester):
    java_project(pytester, SOURCES, {"test_broken": """
        import pytest

        @pytest.mark.bytecount("shop.**")
        def test_broken(bytecount):
            bytecount.jclass("shop.Broken")
    """})
    broken = pytester.path / "broken" / "shop"
    broken.mkdir(parents=True)
    (broken / "Broken.class").write_bytes(b"\xca\xfe\xba\xbe" + bytes(12))
    (pytester.path / "pyproject.toml").write_text(
        (pytester.path / "pyproject.toml").read_text().replace('sources = ["src"]',
                                                               'sources = ["src"]\nclasspath = ["broken"]'))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*bytecount: class shop.Broken cannot be loaded: java.lang.ClassFormatError: "
                                 "bytecount: class shop.Broken (*broken*) cannot be instrumented: *",
                                 "The class fails the same way without instrumentation *"])


WORDS = {"txt/Words.java": """
    package txt;
    import java.util.Iterator;
    public class Words {
        public static Iterable<String> split(String s) { return () -> new Cursor(s); }
        public static int count(String s) {
            int n = 0;
            for (String w : split(s)) n++;
            return n;
        }
        static final class Cursor implements Iterator<String> {
            private final String s;
            private int at;
            Cursor(String s) { this.s = s; }
            public boolean hasNext() { return at < s.length(); }
            public String next() {
                int end = s.indexOf(' ', at);
                if (end < 0) end = s.length();
                String w = s.substring(at, end);
                at = end + 1;
                return w;
            }
        }
    }
"""}


def test_nested_classes_a_class_pattern_leaves_out_get_a_hint_and_dot_star_star_counts_them(pytester):
    java_project(pytester, WORDS, {"test_words": """
        import pytest

        @pytest.mark.bytecount("txt.Words#count")
        def test_outer(bytecount):
            assert bytecount.jclass("txt.Words").count("a bb ccc") == 3

        @pytest.mark.bytecount("txt.Words.**")
        def test_family(bytecount):
            assert bytecount.jclass("txt.Words").count("a bb ccc") == 3

        @pytest.mark.bytecount("txt.Words#count")
        def test_not_run(bytecount):
            assert sum(1 for _ in bytecount.jclass("txt.Words").split("a b")) == 2
    """})
    result = run(pytester, "--bytecount-update", "--bytecount-json=out.json")
    result.assert_outcomes(passed=2, failed=1)
    hint = ("hint: txt.Words#count leaves out 1 nested class that this test loaded (Words$Cursor); "
            "the target txt.Words.** (beside txt.Words#count) counts txt.Words with its nested classes")
    # in the failure of the test whose target did not run, and once in the plugin's summary section
    text = result.stdout.str()
    failures, _, section = text.partition("= bytecount =")
    section = section.split("short test summary info")[0]  # which may repeat whole messages
    assert hint in failures.split("NOT RUN: target 'txt.Words#count'", 1)[1]
    assert section.splitlines().count(hint) == 1
    results = json.loads((pytester.path / "out.json").read_text())
    outer = results["test_words.py::test_outer"]
    family = results["test_words.py::test_family"]
    assert outer["hints"] == [hint] and "hints" not in family
    assert not any("$Cursor" in m for m in outer["counts"])
    # javac 17 compiles hasNext as aload_0, getfield, aload_0, getfield, invokevirtual, if_icmpge, then
    # iconst_1, goto (true: 9 instructions) or iconst_0 (false: 8), then ireturn; "a bb ccc" asks 4 times,
    # 3 true and 1 false: 3 * 9 + 8 = 35
    has_next = family["counts"]["txt.Words$Cursor#hasNext()Z"]
    assert (has_next["invocations"], has_next["total"]) == (4, 35)
    assert "txt.Words#count(Ljava/lang/String;)I" in family["counts"]
    # where no verdict needs explaining, the hint stays in the results file and out of the terminal
    result = run(pytester, "-k", "outer or family", "--bytecount-json=out.json")
    result.assert_outcomes(passed=2, deselected=1)
    assert "hint:" not in result.stdout.str()
    assert json.loads((pytester.path / "out.json").read_text())["test_words.py::test_outer"]["hints"] == [hint]


TAGGER = {"dict/Tagger.java": """
    package dict;
    import java.util.HashMap;
    import java.util.Map;
    public class Tagger {
        static final Map<String, String> DICTIONARY = new HashMap<>();
        static int loads;
        static {   // the expensive start-up of a tagger: its dictionary, built once per class loader
            loads++;
            for (int i = 0; i < 20000; i++) DICTIONARY.put("w" + i, i % 2 == 0 ? "Noun" : "Verb");
        }
        public static int loads() { return loads; }
        public static String tag(String word) {
            String t = DICTIONARY.get(word);
            return t == null ? "Unknown" : t;
        }
    }
"""}


def test_a_module_wide_loader_keeps_its_classes_and_each_test_counts_its_own_run(pytester):
    """loader_scope="module": the tests of a module share one loader, so the dictionary is built once; each
    test's counts are its own run (the counters at its end less those at its start), equal to what the
    test's own loader counts."""
    tests = """
        import json, pytest

        SEEN = []

        def run(bytecount, words):
            Tagger = bytecount.jclass("dict.Tagger")
            SEEN.append((Tagger.class_.hashCode(), int(Tagger.loads())))
            return [str(Tagger.tag(w)) for w in words]

        @pytest.mark.bytecount("dict.Tagger#tag", loader_scope=SCOPE)
        def test_one_word(bytecount):
            assert run(bytecount, ["w2"]) == ["Noun"]

        @pytest.mark.bytecount("dict.Tagger#tag", loader_scope=SCOPE)
        def test_three_words(bytecount):
            assert run(bytecount, ["w1", "w2", "zz"]) == ["Verb", "Noun", "Unknown"]

        def test_zz_after():
            with open("seen.json", "w") as f:
                json.dump(SEEN, f)
    """
    java_project(pytester, TAGGER, {"test_tagger": tests.replace("SCOPE", "'module'")})
    run(pytester, "--bytecount-update", "-p", "no:randomly").assert_outcomes(passed=3)
    seen = json.loads((pytester.path / "seen.json").read_text())
    assert seen[0] == seen[1] and seen[0][1] == 1  # one class, one dictionary, for both tests
    shared = json.loads((pytester.path / "bytecount" / "test_tagger.json").read_text())["tests"]
    assert shared["test_one_word"]["mode"] == "module-loader"
    run(pytester, "-p", "no:randomly").assert_outcomes(passed=3)
    # the test's own loader counts the same: each test's counts are its own run
    (pytester.path / "test_tagger.py").write_text(textwrap.dedent(tests.replace("SCOPE", "'test'")))
    result = run(pytester, "-p", "no:randomly", "--bytecount-json=results.json")
    result.assert_outcomes(passed=3)  # the same counts against the module-wide baselines
    own = json.loads((pytester.path / "results.json").read_text())
    for name in ("test_one_word", "test_three_words"):
        assert own[f"test_tagger.py::{name}"]["counts"] == {m: {k: v for k, v in c.items()}
                                                           for m, c in shared[name]["methods"].items()}
    seen = json.loads((pytester.path / "seen.json").read_text())
    assert seen[0][0] != seen[1][0]  # a loader, and a dictionary, per test
