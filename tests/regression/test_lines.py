"""Which lines a failure names, and how lines are matched when the bytecode changed (regression/lines.py).
The counts here are made up by hand; the per-line counts themselves are checked against the oracle in
tests/counting/test_exact.py."""

from __future__ import annotations

from pytest_bytecount.regression.compare import compare, parse_tolerances, render_verdict
from pytest_bytecount.regression.lines import LineChange, line_changes, render_line_changes, source_file_of

BASE = {"4": 2, "5": 55, "6": 40, "7": 2}


def entry(lines: dict, sha: str = "a") -> dict:
    total = sum(lines.values())
    return {"invocations": 1, "total": total, "opcodes": {"nop": total}, "calls": {}, "bytecode_sha256": sha,
            "lines": lines}


def test_with_the_same_bytecode_lines_are_compared_by_number():
    now = {"4": 2, "5": 505, "6": 400, "7": 2}
    assert line_changes(entry(BASE), entry(now), same_code=True) == [
        LineChange("5", "5", 55, 505), LineChange("6", "6", 40, 400)]


def test_an_inserted_line_does_not_mark_the_lines_below_it_as_changed():
    # a new line 5 (3 instructions) above the loop moves every later line down by one
    now = {"4": 2, "5": 3, "6": 55, "7": 40, "8": 2}
    assert line_changes(entry(BASE), entry(now, "b"), same_code=False) == [LineChange(None, "5", 0, 3)]
    # compared by number instead, every moved line would look changed
    assert len(line_changes(entry(BASE), entry(now, "b"), same_code=True)) == 4


def test_a_moved_line_that_also_changed_is_paired_in_order_and_named_with_its_old_number():
    now = {"4": 2, "5": 3, "6": 55, "7": 4000, "8": 2}
    changes = line_changes(entry(BASE), entry(now, "b"), same_code=False)
    assert changes == [LineChange("6", "7", 40, 4000), LineChange(None, "5", 0, 3)]
    text = "\n".join(render_line_changes("shop.Cart$Item#sum(I)I", changes, lambda m, line: f"text of {line}"))
    assert "Cart.java:7 (was 6)  40 -> 4,000 (+3,960)  | text of 7" in text
    assert "Cart.java:5          0 -> 3 (+3)" in text


def test_a_baseline_without_lines_names_no_line_and_instructions_without_a_line_are_named_so():
    assert line_changes({"total": 1}, entry(BASE), same_code=True) == []
    changes = line_changes(entry({"none": 3}), entry({"none": 9}), same_code=True)
    assert render_line_changes("a.B#m()V", changes) == ["    lines that changed most:",
                                                        "      B.java (no line)  3 -> 9 (+6)"]


def test_the_failure_text_lists_the_lines_that_changed_most_largest_first():
    base = {"shop.Cart#total([I)I": entry({"10": 5, "11": 100, "12": 7})}
    now = {"shop.Cart#total([I)I": entry({"10": 5, "11": 10_000, "12": 70})}
    text = render_verdict(compare(base, now, parse_tolerances("")), "pytest t.py --bytecount-update")
    lines = text.splitlines()
    at = lines.index("    lines that changed most:")
    assert lines[at + 1:at + 3] == ["      Cart.java:11  100 -> 10,000 (+9,900)",
                                    "      Cart.java:12  7 -> 70 (+63)"]


def test_source_files_follow_the_java_convention():
    assert source_file_of("pkg.sub.Outer$Inner$1#run()V") == "Outer.java"
    assert source_file_of("Top#main([Ljava/lang/String;)V") == "Top.java"


def test_source_lines_come_from_folders_and_sources_jars_in_order(tmp_path):
    import zipfile

    from pytest_bytecount.regression.sources import SourceLines

    (tmp_path / "src" / "shop").mkdir(parents=True)
    (tmp_path / "src" / "shop" / "Cart.java").write_text("package shop;\nclass Cart {\n  int n;\n}\n")
    with zipfile.ZipFile(tmp_path / "dep-sources.jar", "w") as z:
        z.writestr("lib/Util.java", "package lib;\nclass Util { }\n")
        z.writestr("shop/Cart.java", "shadowed by the folder listed first\n")
    source = SourceLines([tmp_path / "missing", tmp_path / "src", tmp_path / "dep-sources.jar"])
    assert source("shop.Cart$Item#m()V", "3") == "  int n;"
    assert source("lib.Util#u()V", "2") == "class Util { }"
    assert source("shop.Cart#m()V", "9") is None and source("shop.Cart#m()V", "none") is None
    assert source("other.Gone#m()V", "1") is None
