"""Classes counted when a test's loader first asks for them: what a user sees.

The counts themselves are checked against the oracle in tests/counting/test_exact.py; here: which classes
get counted, the cache, and the verdicts that need to know what a pattern matched beyond what was loaded.

The stories share one child pytest session (tests/support/shared_run.py): each is a test module of one
project, with a baseline file of its own, and none of them changes what another counts, so one update, one
plain run and, after the loader-scope story rewrites its own module, one more plain run serve them all;
each test reads only its own outcome, results entry, report section and files.
"""

from __future__ import annotations

import json
from fnmatch import fnmatch
import textwrap
from types import SimpleNamespace

import pytest

from tests.support.session_reads import summary_lines
from tests.support.shared_run import run_session, write_project

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

GLOB = """
    import json, jpype, pytest

    @pytest.mark.bytecount("shop.**")
    def test_total(bytecount):
        Cart = bytecount.jclass("shop.Cart")
        assert Cart.total(jpype.JArray(jpype.JInt)([10, 20, 30])) == 72
        with open("counts.json", "w") as f:
            json.dump(bytecount.counts(), f)
"""

IDLE = """
    import pytest

    @pytest.mark.bytecount("shop.Unused#never")
    def test_exact_name(bytecount):
        pass

    @pytest.mark.bytecount("shop.Unu*")
    def test_glob(bytecount):
        pass
"""

TYPO = """
    import jpype, pytest

    @pytest.mark.bytecount("shop.*#totl")
    def test_typo(bytecount):
        bytecount.jclass("shop.Cart").count(jpype.JArray(jpype.JInt)([1]))
"""

TYPO_BESIDE_BROKEN = """
    import jpype, pytest

    @pytest.mark.bytecount("store.*#totl")
    def test_typo_beside_broken(bytecount):
        bytecount.jclass("store.Cart").count(jpype.JArray(jpype.JInt)([1]))
"""

# the classes of shop in a package of their own, beside which a class file that cannot be parsed is put: the
# other stories' patterns over shop never meet it
STORE = {path.replace("shop/", "store/"): text.replace("package shop;", "package store;")
         for path, text in SOURCES.items()}

BROKEN = """
    import pytest

    @pytest.mark.bytecount("store.**")
    def test_broken(bytecount):
        bytecount.jclass("store.Broken")
"""

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

NESTED = """
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
"""

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

SCOPED = """
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

NO_RANDOM = ("-p", "no:randomly")  # the loader-scope story reads its tests' order


def cache_entries(folder) -> dict:
    """{entry file name: its JSON header} of the counted-class cache."""
    out = {}
    for path in sorted((folder / ".bytecount-cache" / "counted").iterdir()):
        out[path.name] = json.loads(path.read_bytes().split(b"\n", 1)[0]) if path.suffix == ".class-entry" else None
    return out


def read(path):
    return path.read_text() if path.exists() else None


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The project of every story, run with --bytecount-update, then plainly (leaving out the one test whose
    verdict needs a hint explained), then, its module switched to a loader per test, plainly again; the
    files a story reads are kept as each run left them."""
    folder = write_project(tmp_path_factory.mktemp("load_time"), {**SOURCES, **STORE, **WORDS, **TAGGER}, {
        "test_cart.py": GLOB, "test_idle.py": IDLE, "test_typo.py": TYPO, "test_broken.py": BROKEN,
        "test_typo_broken.py": TYPO_BESIDE_BROKEN,
        "test_words.py": NESTED, "test_tagger.py": SCOPED.replace("SCOPE", "'module'")},
        pyproject='classpath = ["broken"]\n')
    broken = folder / "broken" / "store"
    broken.mkdir(parents=True)
    (broken / "Broken.class").write_bytes(b"\xca\xfe\xba\xbe" + bytes(12))

    update = run_session(folder, "--bytecount-update", *NO_RANDOM, name="update")
    after_update = SimpleNamespace(
        counts=read(folder / "counts.json"), seen=read(folder / "seen.json"), entries=cache_entries(folder),
        baselines={p.name: p.read_text() for p in (folder / "bytecount").glob("*.json")})
    plain = run_session(folder, *NO_RANDOM, "-k", "not test_not_run", name="plain")
    (folder / "test_tagger.py").write_text(textwrap.dedent(SCOPED.replace("SCOPE", "'test'")))
    own_loaders = run_session(folder, *NO_RANDOM, name="own_loaders")
    return SimpleNamespace(folder=folder, update=update, after_update=after_update, plain=plain,
                           own_loaders=own_loaders, seen=read(folder / "seen.json"))


def test_a_glob_counts_the_classes_the_test_loads_and_only_those(runs):
    assert runs.update.outcome("test_total") == "passed"
    counts = json.loads(runs.after_update.counts)
    # Cart and Tax loaded (Cart calls Tax), Unused never: no entry, nothing instrumented for it
    assert sorted({m.split("#")[0] for m in counts}) == ["shop.Cart", "shop.Tax"]
    # Tax.gross(p) = p + p / 5, by hand: iload_0 iload_0 iconst_5 idiv iadd ireturn, once per price
    assert counts["shop.Tax#gross(I)I"]["invocations"] == 3 and counts["shop.Tax#gross(I)I"]["total"] == 18
    assert counts["shop.Cart#count([I)I"]["invocations"] == 0
    stored = json.loads(runs.after_update.baselines["test_cart.json"])
    assert sorted(stored["tests"]["test_total"]["methods"]) == ["shop.Cart#total([I)I", "shop.Tax#gross(I)I"]
    # one cache entry for each of Cart and Tax; the other stories' targets in shop count no class of it
    entries = runs.after_update.entries
    assert all(name.endswith(".class-entry") for name in entries), sorted(entries)
    assert sorted(header["name"] for header in entries.values() if header["name"].startswith("shop/")) == \
        ["shop/Cart", "shop/Tax"], entries
    assert runs.plain.outcome("test_total") == "passed"  # from the cache, the same verdict


def test_a_target_whose_class_never_loads_is_not_run(runs):
    assert runs.update.outcome("test_exact_name") == "failed"
    assert runs.update.outcome("test_glob") == "failed"
    assert runs.update.result("test_idle.py::test_exact_name")["status"] == "not-run"
    assert runs.update.result("test_idle.py::test_glob")["status"] == "not-run"
    for name, line in [
        ("test_exact_name", "*NOT RUN: target 'shop.Unused#never' matched shop.Unused#never(I)I, which did not run in "
                            "this test"),
        ("test_glob", "*NOT RUN: target 'shop.Unu[*]' matched 2 methods (shop.Unused#<init>()V, "
                      "shop.Unused#never(I)I), none of which ran in this test"),
    ]:
        section = runs.update.section(name).splitlines()
        assert any(fnmatch(x, line) for x in section), section
    assert "test_idle.json" not in runs.after_update.baselines


def test_a_glob_whose_method_part_matches_nothing_says_so_when_nothing_ran(runs):
    assert runs.update.outcome("test_typo") == "failed"
    section = runs.update.section("test_typo").splitlines()
    assert any(fnmatch(line, "*bytecount: target 'shop.*#totl' matches no method; near misses: *shop.Cart#total*")
               for line in section), section


def test_a_matched_class_that_cannot_be_counted_fails_the_test_that_loads_it(runs):
    assert runs.plain.outcome("test_broken") == "failed"
    section = runs.plain.section("test_broken").splitlines()
    cannot = [i for i, line in enumerate(section) if fnmatch(
        line, "*bytecount: class store.Broken cannot be loaded: java.lang.ClassFormatError: bytecount: class "
              "store.Broken (*broken*) cannot be instrumented: *")]
    assert cannot and any(fnmatch(line, "The class fails the same way without instrumentation *")
                          for line in section[cannot[0] + 1:]), section


def test_a_pattern_that_matches_nothing_beside_a_class_that_cannot_be_read_names_that_class(runs):
    """Which methods a glob matches is read from the classpath when none of them ran: a class file there that
    cannot be read fails that test, naming the file, and the session goes on."""
    assert runs.update.outcome("test_typo_beside_broken") == "failed"
    assert runs.update.result("test_typo_broken.py::test_typo_beside_broken")["status"] == "error"
    section = runs.update.section("test_typo_beside_broken").splitlines()
    assert any(fnmatch(line, "*bytecount: class store.Broken (*broken*) is not a valid class file: *") for line in section), \
        section
    assert "INTERNALERROR" not in runs.update.stdout


def test_nested_classes_a_class_pattern_leaves_out_get_a_hint_and_dot_star_star_counts_them(runs):
    update = runs.update
    assert [update.outcome(name) for name in ("test_outer", "test_family", "test_not_run")] == \
        ["passed", "passed", "failed"]
    hint = ("hint: txt.Words#count leaves out 1 nested class that this test loaded (Words$Cursor); "
            "the target txt.Words.** (beside txt.Words#count) counts txt.Words with its nested classes")
    # in the failure of the test whose target did not run, and once in the plugin's summary section
    assert hint in update.section("test_not_run").split("NOT RUN: target 'txt.Words#count'", 1)[1]
    assert summary_lines(update).count(hint) == 1
    outer = update.result("test_words.py::test_outer")
    family = update.result("test_words.py::test_family")
    assert outer["hints"] == [hint] and "hints" not in family
    assert not any("$Cursor" in m for m in outer["counts"])
    # javac 17 compiles hasNext as aload_0, getfield, aload_0, getfield, invokevirtual, if_icmpge, then
    # iconst_1, goto (true: 9 instructions) or iconst_0 (false: 8), then ireturn; "a bb ccc" asks 4 times,
    # 3 true and 1 false: 3 * 9 + 8 = 35
    has_next = family["counts"]["txt.Words$Cursor#hasNext()Z"]
    assert (has_next["invocations"], has_next["total"]) == (4, 35)
    assert "txt.Words#count(Ljava/lang/String;)I" in family["counts"]
    # where no verdict needs explaining (the plain run leaves test_not_run out), the hint stays in the results
    # file and out of the terminal
    plain = runs.plain
    assert [plain.outcome(name) for name in ("test_outer", "test_family")] == ["passed", "passed"]
    assert "test_not_run" not in plain.outcomes()
    assert "hint:" not in plain.stdout
    assert plain.result("test_words.py::test_outer")["hints"] == [hint]


def test_a_module_wide_loader_keeps_its_classes_and_each_test_counts_its_own_run(runs):
    """loader_scope="module": the tests of a module share one loader, so the dictionary is built once; each
    test's counts are its own run (the counters at its end less those at its start), equal to what the
    test's own loader counts."""
    names = ("test_one_word", "test_three_words", "test_zz_after")
    assert [runs.update.outcome(name) for name in names] == ["passed"] * 3
    seen = json.loads(runs.after_update.seen)
    assert seen[0] == seen[1] and seen[0][1] == 1  # one class, one dictionary, for both tests
    shared = json.loads(runs.after_update.baselines["test_tagger.json"])["tests"]
    assert shared["test_one_word"]["mode"] == "module-loader"
    assert [runs.plain.outcome(name) for name in names] == ["passed"] * 3
    # the test's own loader counts the same: each test's counts are its own run
    own = runs.own_loaders
    assert [own.outcome(name) for name in names] == ["passed"] * 3  # the same counts against the module-wide baselines
    for name in ("test_one_word", "test_three_words"):
        assert own.result(f"test_tagger.py::{name}")["counts"] == {m: {k: v for k, v in c.items()}
                                                                  for m, c in shared[name]["methods"].items()}
    seen = json.loads(runs.seen)
    assert seen[0][0] != seen[1][0]  # a loader, and a dictionary, per test
