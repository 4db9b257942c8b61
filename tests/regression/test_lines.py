"""Which lines a failure names, and how lines are matched when the bytecode changed (regression/lines.py).
The counts here are made up by hand; the per-line counts themselves are checked against the oracle in
tests/counting/test_exact.py."""

from __future__ import annotations

from pytest_bytecount.regression.compare import compare, parse_tolerances, render_verdict
from pytest_bytecount.regression.lines import LineChange, line_changes, render_line_changes, source_file_of

BASE = {"4": 2, "5": 55, "6": 40, "7": 2}


def entry(lines: dict, sha: str = "a") -> dict:
    total = sum(lines.values())
    return {"invocations": 1, "total": total, "opcodes": {"nop": total}, "calls": {}, "code_fingerprint": sha,
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
    # without line digests, whether line 6's code is today's line 7 is unknown: the text is today's line 7,
    # beside the figure counted on it now
    assert changes == [LineChange("6", "7", 40, 4000, None), LineChange(None, "5", 0, 3)]
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


def _rows(page: str) -> dict:
    """{line: (baseline, now, delta, background or None, source text)} of an annotated source table."""
    from tests.support.chromium import Dom

    dom = Dom(page)
    out = {}
    for _, attrs, text in dom.find("tr", class_="src"):
        style = attrs.get("style")
        out[attrs["data-line"]] = (int(attrs["data-base"]), int(attrs["data-now"]), int(attrs["data-delta"]),
                                   style.split(":", 1)[1] if style else None, text)
    return out


def test_the_annotated_source_pairs_moved_lines_and_lists_the_lines_gone():
    from pytest_bytecount.regression.report_html import esc
    from pytest_bytecount.regression.report_lines import annotated_source, heat

    source = [f"line {i} text" for i in range(1, 30)]
    base = {"4": 2, "5": 55, "6": 40, "7": 2, "20": 9}
    now = {"4": 2, "5": 3, "6": 55, "7": 4000, "8": 2}  # a line inserted at 5; the old line 6 now runs more
    page = annotated_source("shop.Cart#sum(I)I", entry(base), entry(now, "b"), False, lambda m: source, esc)
    rows = _rows(page)
    # lines 2..10 (two lines of context), the lines after shortened to nothing: line 20 ran only before
    assert sorted(rows, key=int) == [str(i) for i in range(2, 11)]
    assert rows["7"][:3] == (40, 4000, 3960) and "(line 6)" in rows["7"][4]
    assert rows["6"][:3] == (55, 55, 0) and rows["6"][3] is None and "(line 5)" in rows["6"][4]
    assert rows["5"][:3] == (0, 3, 3)
    assert rows["7"][3] == heat(3960, 3960) and rows["5"][3] == heat(3, 3960) != rows["7"][3]
    assert rows["4"][4].endswith("line 4 text")
    assert 'data-line="20"' in page and "line 20 (before the change): 9 &rarr; 0" in page  # gone: listed under the table
    assert "aligning their counts" in page  # no digests here
    with_digests = annotated_source("shop.Cart#sum(I)I", coded(base, {k: k for k in base}, "a"),
                                    coded(now, {k: k for k in now}, "b"), False, lambda m: source, esc)
    assert "by their code" in with_digests


def test_the_annotated_source_without_the_file_shows_the_lines_that_ran():
    from pytest_bytecount.regression.report_html import esc
    from pytest_bytecount.regression.report_lines import annotated_source

    now = {"4": 2, "5": 505, "9": 40, "none": 1}
    rows = _rows(annotated_source("shop.Cart#sum(I)I", entry(BASE), entry(now), True, lambda m: None, esc))
    # the same bytecode: lines 6 and 7 ran only before, and are still those lines
    assert sorted(rows) == ["4", "5", "6", "7", "9", "none"]
    assert rows["5"][:3] == (55, 505, 450) and rows["6"][:3] == (40, 0, -40) and rows["9"][:3] == (0, 40, 40)
    assert rows["none"][:3] == (0, 1, 1)
    page = annotated_source("shop.Cart#sum(I)I", entry(BASE), entry(now), True, lambda m: None, esc)
    assert "source file not found" in page and "source-path" in page
    # a baseline recorded without lines: a note, no table
    no_lines = {k: v for k, v in entry(BASE).items() if k != "lines"}
    page = annotated_source("shop.Cart#sum(I)I", no_lines, entry(now), True, lambda m: None, esc)
    assert "<table" not in page and "no per-line counts" in page


def test_heat_grows_with_the_change_and_tells_more_from_fewer():
    from pytest_bytecount.regression.report_lines import heat

    assert heat(0, 10) is None
    def red(colour): return 255 - int(colour[3:5], 16)  # how far green is from white: the red's strength
    assert red(heat(1, 100)) < red(heat(50, 100)) < red(heat(100, 100))
    up, down = heat(100, 100), heat(-100, 100)
    assert int(up[1:3], 16) > int(up[3:5], 16) and int(down[3:5], 16) > int(down[1:3], 16)


def coded(lines: dict, digests: dict, sha: str) -> dict:
    return {**entry(lines, sha), "line_digests": digests}


def test_with_line_digests_lines_are_paired_by_their_code_not_their_counts():
    # a line 5 is inserted that runs 40 times, as often as the old line 6 (now 7); the old line 5 (now 6)
    # runs more than before
    base = coded({"4": 2, "5": 55, "6": 40, "7": 2}, {"4": "a", "5": "b", "6": "c", "7": "d"}, "x")
    now = coded({"4": 2, "5": 40, "6": 90, "7": 40, "8": 2}, {"4": "a", "5": "n", "6": "b", "7": "c", "8": "d"}, "y")
    # counts alone pair the old line 5 with the inserted one, and call the old line 5's new home new
    by_counts = line_changes({k: v for k, v in base.items() if k != "line_digests"}, now, same_code=False)
    assert by_counts == [LineChange(None, "6", 0, 90), LineChange("5", "5", 55, 40, None)]
    # by code, each line is paired with its own
    assert line_changes(base, now, same_code=False) == [LineChange(None, "5", 0, 40), LineChange("5", "6", 55, 90)]


def test_a_line_with_the_same_code_that_stopped_running_keeps_its_new_number():
    base = coded({"4": 2, "5": 30, "6": 2}, {"4": "a", "5": "b", "6": "c"}, "x")
    now = coded({"4": 2, "5": 1, "7": 2}, {"4": "a", "5": "n", "6": "b", "7": "c"}, "y")
    changes = line_changes(base, now, same_code=False)
    assert changes == [LineChange("5", "6", 30, 0), LineChange(None, "5", 0, 1)]
    assert "Cart.java:6 (was 5)  30 -> 0 (-30)" in "\n".join(render_line_changes("shop.Cart#m()V", changes))


def _text(method, line):
    return f"today's line {line}"


def test_a_baseline_line_whose_code_has_gone_is_shown_before_the_change_without_todays_text():
    # line 11 held `if (!seen.contains(id))` when it ran 4 times; today's line 11 holds other code
    base = coded({"10": 5, "11": 4, "12": 4}, {"10": "a", "11": "seen", "12": "c"}, "x")
    now = coded({"10": 5, "12": 4}, {"10": "a", "11": "other", "12": "c"}, "y")
    changes = line_changes(base, now, same_code=False)
    assert changes == [LineChange("11", None, 4, 0, False)]
    text = "\n".join(render_line_changes("d.Dedupe#run([I)I", changes, _text))
    assert "Dedupe.java:11 (before the change)  4 -> 0 (-4)" in text
    assert "today's line" not in text


def test_a_paired_line_whose_code_changed_says_so_beside_todays_text():
    base = coded({"10": 5, "11": 4}, {"10": "a", "11": "seen"}, "x")
    now = coded({"10": 5, "11": 4000}, {"10": "a", "11": "list"}, "y")
    changes = line_changes(base, now, same_code=False)
    assert changes == [LineChange("11", "11", 4, 4000, False)]
    text = "\n".join(render_line_changes("d.Dedupe#run([I)I", changes, _text))
    assert "Dedupe.java:11 (its code changed)  4 -> 4,000 (+3,996)  | today's line 11" in text


def test_a_baseline_line_of_unchanged_code_keeps_its_text():
    base = coded({"10": 5, "11": 4}, {"10": "a", "11": "b"}, "x")
    now = coded({"10": 9}, {"10": "a", "11": "b"}, "x")
    changes = line_changes(base, now, same_code=True)
    text = "\n".join(render_line_changes("d.Dedupe#run([I)I", changes, _text))
    assert "Dedupe.java:11  4 -> 0 (-4)  | today's line 11" in text


def test_without_a_code_fingerprint_each_baseline_line_is_judged_by_its_digest():
    # a baseline recorded before code fingerprints: whether the method changed is unknown, lines are
    # compared by number, and a line's text is shown only where its digest is today's
    base = coded({"10": 5, "11": 4, "12": 7}, {"10": "a", "11": "b", "12": "c"}, "x")
    del base["code_fingerprint"]
    now = coded({"10": 6}, {"10": "z", "11": "b", "12": "other"}, "y")
    changes = {c.base_line: c for c in line_changes(base, now, same_code=None)}
    assert changes["11"].base_code_here is True and changes["12"].base_code_here is False
    assert changes["10"].base_code_here is False  # paired, its code changed
    text = "\n".join(" ".join(line.split()) for line in
                     render_line_changes("d.Dedupe#run([I)I", list(changes.values()), _text))
    assert "Dedupe.java:11 4 -> 0 (-4) | today's line 11" in text
    assert "Dedupe.java:12 (before the change) 7 -> 0 (-7)" in text and "today's line 12" not in text
    assert "Dedupe.java:10 (its code changed) 5 -> 6 (+1) | today's line 10" in text
    # and with neither fingerprints nor digests, a baseline-only line's text is not shown at all
    bare = {k: v for k, v in base.items() if k != "line_digests"}
    changes = line_changes(bare, {k: v for k, v in now.items() if k != "line_digests"}, same_code=None)
    text = "\n".join(render_line_changes("d.Dedupe#run([I)I", changes, _text))
    assert "Dedupe.java:12  7 -> 0 (-7)" in text and "today's line 12" not in text


def test_the_html_report_lists_a_baseline_line_whose_code_has_gone_under_the_table():
    from html import escape as esc

    from pytest_bytecount.regression.report_lines import annotated_source

    base = coded({"10": 5, "11": 4, "12": 4}, {"10": "a", "11": "seen", "12": "c"}, "x")
    now = coded({"10": 5, "12": 4}, {"10": "a", "11": "other", "12": "c"}, "x")
    del base["code_fingerprint"], now["code_fingerprint"]  # unknown: decided by the line's digest
    page = annotated_source("d.Dedupe#run([I)I", base, now, None, lambda m: [f"src {i}" for i in range(1, 20)], esc)
    rows = _rows(page)
    assert rows["11"][:3] == (0, 0, 0)  # today's line 11 ran on neither side as today's code
    assert 'data-line="11">line 11 (before the change): 4 &rarr; 0' in page


def test_a_line_whose_call_changed_counts_the_work_under_it_and_leads():
    """By hand: line 11 calls contains, line 12 add; the set became a list. The line's own counts are equal, the
    work under its call is the tree's child total of each side, matched by the call's member (an interface's call
    reaches the class that ran it); a constructor is matched by its owner, so two <init> lines stay apart."""
    from pytest_bytecount.regression.lines import call_sites, with_call_work

    calls_now = {"7": ["java/util/ArrayList.<init>()V"], "8": ["java/lang/StringBuilder.<init>()V"],
                 "11": ["java/util/List.contains(Ljava/lang/Object;)Z"], "12": ["java/util/List.add(Ljava/lang/Object;)Z"],
                 "13": ["java/util/List.size()I"], "14": ["java/util/Set.size()I"]}
    before = {"java.util.HashSet#<init>()V": 25, "java.util.HashSet#contains(Ljava/lang/Object;)Z": 300,
              "java.util.HashSet#add(Ljava/lang/Object;)Z": 200, "java.lang.StringBuilder#<init>()V": 9,
              "java.util.HashSet#size()I": 4}
    after = {"java.util.ArrayList#<init>()V": 16, "java.util.ArrayList#contains(Ljava/lang/Object;)Z": 40_000,
             "java.util.ArrayList#add(Ljava/lang/Object;)Z": 150, "java.lang.StringBuilder#<init>()V": 9,
             "java.util.ArrayList#size()I": 3}
    sites = call_sites(calls_now, set(before) | set(after))
    assert sites["java.util.ArrayList#contains(Ljava/lang/Object;)Z"] == "11"
    assert sites["java.util.HashSet#contains(Ljava/lang/Object;)Z"] == "11"
    assert sites["java.lang.StringBuilder#<init>()V"] == "8" and sites["java.util.ArrayList#<init>()V"] == "7"
    assert "java.util.ArrayList#size()I" not in sites  # size() is called on two lines: not told apart
    lines = {"7": 4, "11": 12, "12": 4, "13": 2, "14": 2}
    base, now = {"lines": dict(lines)}, {"lines": dict(lines)}
    changes = with_call_work(base, now, False, calls_now, before, after)
    first = changes[0]
    assert (first.now_line, first.base, first.now, first.calls_base, first.calls_now) == ("11", 12, 12, 300, 40_000)
    # -50 under add; line 7's constructor is ArrayList's, by its owner: HashSet's <init>, which no line names, has
    # a member two lines call, so it is left out (0 -> 16); line 8's constructor did not move
    assert [(c.now_line, c.calls_base, c.calls_now) for c in changes] == [("11", 300, 40_000), ("12", 200, 150),
                                                                          ("7", 0, 16)]
    text = render_line_changes("app.Orders#distinct(I)I", changes)
    assert text[1].split() == ["Orders.java:11", "12", "->", "12", "(+0);", "under", "its", "calls", "300", "->",
                               "40,000", "(+39,700)"]
