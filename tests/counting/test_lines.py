"""Per-line counts where the LineNumberTable is missing or edited: a documented result, never an error.

The rule (pytest_bytecount/counting/keys.py, docs/contract.md): an instruction's line is that of the entry
with the greatest start at or before it; of entries with the same start, the one listed last; before
every entry, or without a table, the key "none". Expected counts are derived by hand below, and checked
against the oracle's too (executed bcis mapped through the table javap prints)."""

from __future__ import annotations

import shutil

import pytest

from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile.instructions import LineNumbers
from tests.support.count_jobs import run_jobs
from tests.support.javac import compile_java
from tests.support.jdk import jdk17_home
from tests.support.oracle_lines import oracle_lines

SOURCE = """package lines;
public class Lines {
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++)
            s += i;
        return s;
    }
    public static void main(String[] args) { sum(10); }
}
"""
# sum(10), by hand: line 4 `int s = 0` iconst_0 istore_1 (2); line 5 `for` iconst_0 istore_2 (2), the test
# iload_2 iload_0 if_icmpge 11 times (33), iinc and goto 10 times each (20): 55; line 6 `s += i` iload_1
# iload_2 iadd istore_1 10 times (40); line 7 `return s` iload_1 ireturn (2). 99 in all.
AS_COMPILED = {"4": 2, "5": 55, "6": 40, "7": 2}
SUM = "lines.Lines#sum(I)I"


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    """Class folders: as javac wrote it, without the table, and with an extra entry at the start (line 40,
    listed last) and one that starts no line's instructions twice over (line 6 again, at `s += i`)."""
    src = tmp_path_factory.mktemp("src")
    (src / "lines").mkdir()
    (src / "lines" / "Lines.java").write_text(SOURCE)
    compiled = compile_java(src, release="17")
    out = {}
    for name, edit in (("compiled", None), ("none", "drop"), ("overlap", "overlap")):
        folder = tmp_path_factory.mktemp(name)
        shutil.copytree(compiled, folder, dirs_exist_ok=True)
        if edit is not None:
            path = folder / "lines" / "Lines.class"
            cf = ClassFile.parse(path.read_bytes())
            code = cf.find_method("sum", "(I)I").code
            table = next(a for a in code.attributes if type(a) is LineNumbers)
            if edit == "drop":
                code.attributes.remove(table)
            else:
                first = table.entries[0][0]
                at_line_6 = next(label for label, line in table.entries if line == 6)
                table.entries += [(first, 40), (at_line_6, 6)]
            path.write_bytes(cf.to_bytes())
        out[name] = folder
    return out


@pytest.mark.parametrize("variant,expected", [
    ("compiled", AS_COMPILED),
    ("none", {"none": 99}),
    ("overlap", {"40": 2, "5": 55, "6": 40, "7": 2}),
])
def test_a_missing_or_overlapping_line_table_gives_the_documented_lines(variants, tmp_path, variant, expected):
    job = {"classpath": [str(variants[variant])], "targets": [SUM], "main": "lines.Lines", "lines": True}
    counted = run_jobs([job], tmp_path, str(jdk17_home()))[0]
    assert "error" not in counted, counted
    assert counted[SUM]["lines"] == expected and counted[SUM]["total"] == 99
    assert oracle_lines([variants[variant]], ["lines/Lines"], "lines.Lines")[SUM] == expected
