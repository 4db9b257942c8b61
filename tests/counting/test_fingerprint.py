"""A method's ``code_fingerprint`` says "same code" exactly when ``javap -c`` shows the same code.

The oracle (tests/support/javap.py) reads javap's text, with offsets, constant-pool indexes and line
numbers taken out. The variants are the changes that matter: collection classes swapped (javac keeps
the constant-pool indexes, so the code's raw bytes stay the same while the names they point at change),
comments added (line numbers move), constants added ahead of the method (indexes move), locals renamed.
"""

from __future__ import annotations

import itertools
import struct

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.counting.counts.keys import bootstrap_methods, code_fingerprint
from tests.support.javac import compile_java
from tests.support.javap import code_listings

BASE = """
package fp;

import java.util.*;
import java.util.function.IntUnaryOperator;

public class Work {
    public static int dedupe(int[] ids) {
        Set<Integer> seen = new HashSet<>();
        int n = 0;
        for (int id : ids) {
            if (seen.add(id)) {
                n++;
            }
        }
        return n;
    }

    public static int lookup(int[] keys) {
        Map<Integer, Integer> table = new HashMap<>();
        for (int k : keys) {
            table.put(k, k * 2);
        }
        int sum = 0;
        for (int k : keys) {
            sum += table.get(k);
        }
        return sum;
    }

    public static int collect(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        int sum = 0;
        for (int x : out) {
            sum += x;
        }
        return sum;
    }

    public static int classify(int x) {
        IntUnaryOperator f = v -> v * 3;
        switch (x) {
            case 1: return f.applyAsInt(x);
            case 7: return 7;
            default: return -1;
        }
    }
}
"""

VARIANTS = {
    "base": BASE,
    "linked-set": BASE.replace("new HashSet<>()", "new LinkedHashSet<>()"),
    "tree-map": BASE.replace("new HashMap<>()", "new TreeMap<>()"),
    "linked-list": BASE.replace("new ArrayList<>()", "new LinkedList<>()"),
    "commented": BASE.replace("    public static", "    // a comment that moves every line below it\n\n"
                                                    "    public static"),
    "constants-ahead": BASE.replace("public class Work {", 'public class Work {\n    static String hello() {\n'
                                    '        return "hello " + Math.abs(-3) + 2.5e10 + 123456789L;\n    }\n'),
    "renamed": BASE.replace("seen", "visited").replace("table", "byKey").replace("out", "items"),
    "other-case": BASE.replace("case 7: return 7;", "case 8: return 7;"),
    "other-lambda": BASE.replace("v -> v * 3", "v -> v * 4"),
}

# the method that each variant changes, as javap shows it (None: no method's code changes)
CHANGED = {"linked-set": "dedupe([I)I", "tree-map": "lookup([I)I", "linked-list": "collect(I)I",
           "commented": None, "constants-ahead": None, "renamed": None, "other-case": "classify(I)I",
           "other-lambda": "lambda$classify$0(I)I"}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict:
    """{variant: (class file path, {name + descriptor: fingerprint}, {name + descriptor: raw code bytes})}"""
    out = {}
    for name, source in VARIANTS.items():
        src = tmp_path_factory.mktemp(f"fp-{name}")
        (src / "fp").mkdir()
        (src / "fp" / "Work.java").write_text(source)
        path = compile_java(src, release="17") / "fp" / "Work.class"
        cf = ClassFile.parse(path.read_bytes())
        bootstrap = bootstrap_methods(cf)
        prints, raw = {}, {}
        for m in cf.methods:
            if not m.has_code:
                continue
            key = m.name + m.descriptor
            _, attr = m.find_attribute("Code")
            raw[key] = _instruction_bytes(attr.data)
            prints[key] = code_fingerprint(m.code, cf.constant_pool, bootstrap)
        out[name] = (path, prints, raw)
    return out


def _instruction_bytes(code_attribute: bytes) -> bytes:
    """The ``code`` array of a Code attribute (JVMS 4.7.3): max_stack, max_locals, code_length, code."""
    (length,) = struct.unpack_from(">I", code_attribute, 4)
    return code_attribute[8:8 + length]


def test_equal_fingerprints_exactly_where_javap_shows_equal_code(compiled):
    listings = {name: code_listings(path) for name, (path, _, _) in compiled.items()}
    pairs = 0
    for a, b in itertools.combinations(compiled, 2):
        common = set(compiled[a][1]) & set(compiled[b][1])
        for method in common:
            same_text = listings[a][method] == listings[b][method]
            same_print = compiled[a][1][method] == compiled[b][1][method]
            assert same_print == same_text, (a, b, method, listings[a][method], listings[b][method])
            pairs += 1
    assert pairs > 150


@pytest.mark.parametrize("variant", sorted(CHANGED))
def test_each_variant_changes_the_fingerprint_of_the_method_it_changes_only(compiled, variant):
    _, base, _ = compiled["base"]
    _, now, _ = compiled[variant]
    changed = sorted(m for m in set(base) & set(now) if base[m] != now[m])
    assert changed == ([] if CHANGED[variant] is None else [CHANGED[variant]])


@pytest.mark.parametrize("variant", ["linked-set", "tree-map", "linked-list"])
def test_a_swapped_collection_keeps_the_raw_code_bytes_but_not_the_fingerprint(compiled, variant):
    # javac gives the new class the old one's constant-pool slot, so the instructions' bytes are identical;
    # a hash of them would call the method unchanged
    method = CHANGED[variant]
    assert compiled["base"][2][method] == compiled[variant][2][method]
    assert compiled["base"][1][method] != compiled[variant][1][method]


@pytest.mark.parametrize("variant", ["commented", "constants-ahead"])
def test_moved_lines_and_moved_indexes_keep_the_fingerprint(compiled, variant):
    _, base, base_raw = compiled["base"]
    _, now, now_raw = compiled[variant]
    assert {m: base[m] for m in now if m in base} == {m: now[m] for m in now if m in base}
    if variant == "constants-ahead":  # the indexes moved: the raw bytes differ where the code does not
        assert any(base_raw[m] != now_raw[m] for m in base)


def test_the_fingerprint_is_a_sha256(compiled):
    _, prints, _ = compiled["base"]
    assert all(len(p) == 64 and int(p, 16) >= 0 for p in prints.values())
    assert len(set(prints.values())) == len(prints)


def test_callee_fingerprints_of_a_real_jar_are_the_counted_methods_own(tmp_path):
    """Every class of a real jar fingerprints (abstract and native methods have none), each method as its counts'
    ``code_fingerprint`` would give it, and the JDK's classes, not on the classpath, have none."""
    import zipfile
    from pathlib import Path

    from pytest_bytecount.classfile.classpath import Classpath
    from pytest_bytecount.counting.pipeline.fingerprints import CalleeCode, class_fingerprints

    jar = Path("/usr/share/java/commons-lang3.jar")
    if not jar.exists():
        pytest.skip("no commons-lang3 jar (Debian: apt-get install libcommons-lang3-java; CI installs it)")
    code = CalleeCode(Classpath([jar]))
    with zipfile.ZipFile(jar) as z:
        names = [n for n in z.namelist() if n.endswith(".class") and not n.startswith(("META-INF/", "module-info"))]
        assert len(names) > 200
        total = 0
        for n in names:
            data = z.read(n)
            cf = ClassFile.parse(data)
            found = class_fingerprints(data)
            with_code = [m for m in cf.methods if m.has_code()]
            assert len(found) == len({(m.name, m.descriptor) for m in with_code}), n
            total += len(found)
        assert total > 2000
    owner = "org.apache.commons.lang3.StringUtils"
    cf = ClassFile.parse(code.classpath.read(owner.replace(".", "/")))
    m = next(m for m in cf.methods if m.name == "isEmpty")
    assert code.fingerprint(f"{owner}#isEmpty{m.descriptor}") == code_fingerprint(m.code, cf.constant_pool,
                                                                                   bootstrap_methods(cf))
    assert code.fingerprint("java.util.ArrayList#size()I") is None
    assert code.fingerprint(f"{owner}#noSuchMethod()V") is None
