"""``annotate --baseline`` pairs moved lines as the HTML report does (regression.lines.line_pairs): where the
method's code changed, the baseline's lines are aligned with the current ones by their code's digests, and a line
whose code is gone is listed under the table, not shown against a line that now holds other code."""

from __future__ import annotations

from pytest_bytecount.regression.annotate import annotate
from pytest_bytecount.regression.sources import SourceLines

METHOD = "shop.Cart#sum(I)I"


def _entry(lines: dict, digests: dict, fingerprint: str) -> dict:
    return {METHOD: {"lines": lines, "line_digests": digests, "code_fingerprint": fingerprint,
                     "total": sum(lines.values()), "invocations": 1, "opcodes": {}, "calls": {}}}


def test_lines_that_moved_are_shown_against_their_code_and_a_line_whose_code_went_is_listed(tmp_path):
    source = tmp_path / "shop"
    source.mkdir()
    (source / "Cart.java").write_text("".join(f"line {i}\n" for i in range(1, 16)))
    # the baseline ran lines 6, 7, 8, 10 and 12; three lines were added above them since, and the code of 8, 10 and
    # 12 was replaced by that of 11 and 14: aligned by their counts in order, as the report does, so 12 has no
    # counterpart
    base = _entry({"6": 4, "7": 25, "8": 12, "10": 4, "12": 7},
                  {"6": "a", "7": "b", "8": "c", "10": "d", "12": "e"}, "old")
    now = _entry({"9": 4, "10": 25, "11": 30, "14": 2}, {"9": "a", "10": "b", "11": "x", "14": "y"}, "new")
    rows = annotate(now, SourceLines([tmp_path]), base).splitlines()
    assert "     9            4            4             | line 9" in rows
    assert "    10           25           25             | line 10" in rows
    assert "    11           12           30        +18  | line 11" in rows
    assert "    14            4            2         -2  | line 14" in rows
    assert "  before the change: line 12 ran 7 in the baseline; its code is not in this source" in rows
    assert not any(r.startswith("     6 ") and "4" in r for r in rows)  # no baseline count left on line 6
