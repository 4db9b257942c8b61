"""The HTML report on handcrafted results: what a reviewer sees, escaping, the empty and the large report,
and the scaling plots (the complexity checks' ``scaling`` key, handcrafted here in the shape they will emit)."""

from __future__ import annotations

import math
import re

import pytest

from pytest_bytecount.regression.report_html import loglog_chart, order_change, render, write_report
from tests.support.chromium import Dom

SORT = "demo.Sorting#insertionSort([I)V"


def counts(total, invocations=1, opcodes=None, calls=None, sha="a" * 64):
    return {"total": total, "invocations": invocations, "opcodes": opcodes or {"iload": total},
            "calls": calls or {}, "code_fingerprint": sha}


def result(nodeid, status, now, base=None, method_status=None, **extra):
    r = {"nodeid": nodeid, "status": status, "counts": now, "baseline_counts": base, "jvm": "17.0.19",
         "plugin": "0.1.0", "message": "", "test_outcome": "failed" if status in ("regressed", "changed", "new") else "passed"}
    r["method_status"] = method_status if method_status is not None else {m: "same" for m in now}
    r.update(extra)
    return r


def regressed_sort():
    base = counts(970, opcodes={"iload_3": 198, "iinc": 54, "goto": 54, "return": 1},
                  calls={"java/lang/Math.max(II)I": 10})
    now = counts(1234, opcodes={"iload_3": 300, "iinc": 120, "goto": 54, "return": 1, "nop": 5},
                 calls={"java/lang/Math.max(II)I": 12, "demo/Sorting.swap([III)V": 40}, sha="b" * 64)
    return result("test_demo.py::test_sort[10]", "regressed", {SORT: now}, {SORT: base}, {SORT: "regressed"},
                  message="demo.Sorting#insertionSort([I)V: REGRESSED\nto accept: ...")


def bars(dom, **attrs):
    return {(a.get("data-metric"), a["class"].split()[1]): a for _, a, _ in dom.find("rect", **attrs)}


def test_a_regressed_method_gets_a_section_with_baseline_vs_now_bars_the_top_changes_and_the_accept_command():
    page = render({"test_demo.py::test_sort[10]": regressed_sort()})
    dom = Dom(page)
    (section,) = dom.find("section", class_="method")
    assert section[1]["data-method"] == SORT and section[1]["data-status"] == "regressed"
    b = bars(dom, class_="bar")
    # each metric on its own scale: the larger of baseline and now is the full bar
    assert float(b["total", "now"]["width"]) == 330
    assert float(b["total", "baseline"]["width"]) == pytest.approx(330 * 970 / 1234, abs=0.1)
    assert b["invocations", "now"]["width"] == b["invocations", "baseline"]["width"]
    assert "+264 (+27.2%)" in page
    deltas = [(a["data-key"], int(a["data-delta"]), float(a["width"])) for _, a, _ in dom.find("rect", class_="delta")]
    # opcodes then calls, each sorted by |delta|, the biggest a full bar
    assert deltas[:4] == [("iload_3", 102, 220.0), ("iinc", 66, pytest.approx(220 * 66 / 102, abs=0.1)),
                          ("nop", 5, pytest.approx(220 * 5 / 102, abs=0.1)), ("demo/Sorting.swap([III)V", 40, 220.0)]
    assert deltas[4][:2] == ("java/lang/Math.max(II)I", 2)
    assert "goto" not in [k for k, _, _ in deltas]  # unchanged keys are not shown
    assert "the method&#x27;s bytecode changed since the baseline" in page
    assert "pytest &#x27;test_demo.py::test_sort[10]&#x27; --bytecount-update" in page
    assert dom.find("a", href="#" + section[1]["id"])  # the table links to the section


def test_the_summary_counts_tests_by_status_and_the_table_lists_every_method():
    fib = "demo.Sorting#fib(I)I"
    results = {
        "t.py::test_sort[10]": regressed_sort(),
        "t.py::test_fib": result("t.py::test_fib", "passed", {fib: counts(1678, 177)}, {fib: counts(1678, 177)}),
        "t.py::test_new": result("t.py::test_new", "new", {fib: counts(10)}, None, {}),
        "t.py::test_less": result("t.py::test_less", "improved", {fib: counts(90)}, {fib: counts(100)}, {fib: "improved"}),
    }
    dom = Dom(render(results))
    tally = {a["data-status"]: int(a["data-count"]) for _, a, _ in dom.find("li", class_="status-count")}
    assert tally == {"passed": 1, "regressed": 1, "improved": 1, "changed": 0, "new": 1}
    rows = dom.find("tr", data_method=fib)
    assert len(rows) == 3 and len(dom.find("tr", data_method=SORT)) == 1
    # sections: regressed first, then improved; passed and new tests have none
    assert [a["data-status"] for _, a, _ in dom.find("section", class_="method")] == ["regressed", "improved"]
    new_row = dom.find("tr", data_test="t.py::test_new")[0][2]
    assert "10" in new_row and "\u2013" in new_row  # no baseline: a dash


def test_every_user_controlled_string_is_escaped():
    evil = "t.py::test_x[<script>alert('x')</script>]"
    method = "p.Outer$Inner#<init>(Ljava/lang/String;)V"
    uni = "java/lang/\u00dcber\u2211.\u540d(\"&)V"
    now = counts(20, calls={uni: 3})
    r = result(evil, "regressed", {method: now}, {method: counts(10)}, {method: "regressed"},
               message="<b>not bold</b>")
    page = render({evil: r})
    assert "<script" not in page.lower() and "<b>" not in page and "<init>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page and "&lt;init&gt;" in page
    dom = Dom(page)
    assert not dom.find("script")
    assert evil in dom.text and method in dom.text and uni in dom.text and "<b>not bold</b>" in dom.text
    (section,) = dom.find("section", class_="method")
    assert section[1]["data-test"] == evil and section[1]["data-method"] == method
    assert re.fullmatch(r"m-[0-9a-f]{12}", section[1]["id"])  # anchors never carry user text


def test_the_page_is_self_contained():
    page = render({"t.py::test_sort[10]": regressed_sort()})
    assert "http" not in page and "//" not in page  # no URL of any kind
    assert not re.search(r"\b(src|url)\s*[=(]", page)
    assert all(a["href"].startswith("#") for _, a, _ in Dom(page).find("a"))
    assert "<script" not in page and "@import" not in page and "@font-face" not in page


def test_an_empty_run_still_writes_a_page(tmp_path):
    path = write_report({}, tmp_path / "deep" / "report")
    assert path == tmp_path / "deep" / "report" / "index.html"
    dom = Dom(path.read_text(encoding="utf-8"))
    assert dom.find("p", class_="empty")[0][2] == "No counted tests in this run."
    assert {int(a["data-count"]) for _, a, _ in dom.find("li", class_="status-count")} == {0}
    assert not dom.find("table")


def test_many_methods_stay_readable_and_unique():
    results = {}
    for t in range(60):
        nodeid = f"t.py::test_{t}"
        now = {f"p.C{m}#m{m}()V": counts(100 + t + m, opcodes={f"op{k}": k + t for k in range(40)}) for m in range(5)}
        base = {f"p.C{m}#m{m}()V": counts(100 + m, opcodes={f"op{k}": k for k in range(40)}) for m in range(5)}
        results[nodeid] = result(nodeid, "regressed", now, base, {m: "regressed" for m in now})
    page = render(results)
    dom = Dom(page)
    sections = dom.find("section", class_="method")
    assert len(sections) == 300 and len({a["id"] for _, a, _ in sections}) == 300
    assert len(dom.find("tr")) == 1 + 300  # the table: a header and a row per method
    # top 10 of 40 changed opcodes, and a note for the rest; test_0's methods changed on no key at all
    assert len(dom.find("rect", class_="delta")) == 295 * 10
    assert page.count("and 30 more") == 295 and page.count("no opcodes changed") == 5
    assert len(page) < 8_000_000


def test_a_method_status_is_derived_when_the_result_does_not_carry_it():
    r = regressed_sort()
    del r["method_status"]
    dom = Dom(render({"t.py::test_sort[10]": r}))
    assert [a["data-status"] for _, a, _ in dom.find("section", class_="method")] == ["changed"]


# --- scaling: the complexity checks add result["scaling"]; until they land, handcrafted here -------------

SCALING = {
    "metric": "total",
    "sizes": [10, 100, 1000, 10000],
    "methods": {
        SORT: {"values": [120, 10_400, 1_003_000, 100_020_000], "order": "n^2", "exponent": 2.01,
               "fits": {"n": 0.91, "n log n": 0.62, "n^2": 0.004, "n^3": 0.55, "2^n": 3.2},
               "baseline_order": "n log n"},
        "demo.Sorting#sum([I)I": {"values": [52, 502, 5002, 50002], "order": "n", "exponent": 1.0,
                                  "fits": {"n": 0.001, "n log n": 0.2, "n^2": 0.8, "n^3": 0.9, "2^n": 5.0},
                                  "baseline_order": None},
    },
}


def test_a_scaling_section_says_the_complexity_verdict_and_why():
    """The verdict the run made, not a ranking of the two names: the same name with a jump in growth is worse,
    and a fall on a flat figure blind to the method's JDK calls cannot be judged; the evidence is shown."""
    methods = {
        SORT: {**SCALING["methods"][SORT], "baseline_order": "n^2", "change": "worse",
               "evidence": "n^2: 98% of the work at n=10,000; local exponents 1.02, 1.95, 2.00; fit 0.4%"},
        "demo.Sorting#keep(I)I": {"values": [12, 12, 12, 12], "order": "1", "exponent": 0.0, "fits": {},
                                  "baseline_order": "n^2", "change": "unjudged"},
    }
    scaling = {"metric": "total", "sizes": SCALING["sizes"], "methods": methods}
    r = result("t.py::test_scaling", "regressed", {SORT: counts(100_020_000)}, None, {}, scaling=scaling)
    by_method = {a["data-method"]: (a, text) for _, a, text in
                 Dom(render({"t.py::test_scaling": r})).find("section", class_="scaling")}
    sort, keep = by_method[SORT], by_method["demo.Sorting#keep(I)I"]
    assert sort[0]["data-change"] == "worse" and "baseline order n^2: worse than the baseline" in sort[1]
    assert "why: n^2: 98% of the work at n=10,000; local exponents 1.02, 1.95, 2.00" in sort[1]
    assert keep[0]["data-change"] == "unjudged" and "cannot be judged on this figure" in keep[1]
    assert "better than the baseline" not in keep[1]


def test_scaling_fits_are_plotted_log_log_with_the_order_the_exponent_and_the_baseline_order():
    r = result("t.py::test_scaling", "regressed", {SORT: counts(100_020_000)}, None, {}, scaling=SCALING)
    dom = Dom(render({"t.py::test_scaling": r}))
    by_method = {a["data-method"]: (a, text) for _, a, text in dom.find("section", class_="scaling")}
    sort, linear = by_method[SORT], by_method["demo.Sorting#sum([I)I"]
    assert sort[0]["data-order"] == "n^2" and sort[0]["data-change"] == "worse"
    assert "fitted order n^2, exponent 2.01; baseline order n log n: worse than the baseline" in sort[1]
    assert linear[0]["data-change"] == "unknown" and "baseline order none: no baseline order to compare with" in linear[1]
    points = [(float(a["data-size"]), float(a["cx"]), float(a["cy"])) for _, a, _ in dom.find("circle", class_="point")][:4]
    assert [p[0] for p in points] == [10, 100, 1000, 10000]
    # log-log: equal factors in n (x10) are equal steps across the page
    dx = [b[1] - a[1] for a, b in zip(points, points[1:])]
    assert max(dx) - min(dx) < 0.2
    (fit, _) = [a for _, a, _ in dom.find("line", class_="fit")]
    assert fit["data-exponent"] == "2.01"
    assert dom.find("tr", class_="chosen")[0][2].startswith("n^2")


def test_the_log_log_plot_places_points_by_their_logarithms():
    svg = loglog_chart([1, 10, 100], [5, 50, 500], 1.0, width=440, height=280)
    dom = Dom(svg)
    pts = [(float(a["cx"]), float(a["cy"])) for _, a, _ in dom.find("circle")]
    assert pts[1][0] - pts[0][0] == pytest.approx(pts[2][0] - pts[1][0], abs=0.2)
    assert pts[0][1] - pts[1][1] == pytest.approx(pts[1][1] - pts[2][1], abs=0.2)
    (line,) = [a for _, a, _ in dom.find("line", class_="fit")]
    # slope 1 through the points: the line ends on the first and last point
    assert (float(line["x1"]), float(line["y1"])) == pytest.approx(pts[0], abs=0.2)
    assert (float(line["x2"]), float(line["y2"])) == pytest.approx(pts[2], abs=0.2)
    assert "no positive values" in loglog_chart([1, 2], [0, 0], None)
    assert math.isfinite(float(Dom(loglog_chart([5, 5], [7, 7], None)).find("circle")[0][1]["cx"]))


@pytest.mark.parametrize("order, baseline, change", [("n^2", "n log n", "worse"), ("n", "n^2", "better"),
                                                     ("n", "n", "same"), ("n", None, "unknown"),
                                                     ("n^4", "n", "unknown")])
def test_whether_an_order_got_worse(order, baseline, change):
    assert order_change(order, baseline) == change


def test_a_deep_regression_charts_the_deep_work_first_under_its_own_labels_and_says_where_it_went():
    """A 25x deep regression whose own total fell by 20: the table shows the deep work rising, not a green -20."""
    scan = "java.util.ArrayList#indexOfRange(Ljava/lang/Object;II)I"
    base, now = counts(1_000), counts(980)
    base["deep"] = {"total": 40_000, "copied": 100, "windows": 1, "methods": {SORT: 1_000, scan: 39_000}}
    now["deep"] = {"total": 1_000_000, "copied": 100, "windows": 1, "methods": {SORT: 980, scan: 999_020}}
    page = render({"t.py::test_deep": result("t.py::test_deep", "regressed", {SORT: now}, {SORT: base}, {SORT: "regressed"})})
    dom = Dom(page)
    labels = [text for _, a, text in dom.find("text") if a.get("font-weight") == "bold"]
    assert labels[:4] == ["deep.total", "deep.copied", "total", "invocations"]
    assert set(bars(dom, class_="bar")) >= {("deep.total", "now"), ("deep.copied", "baseline"), ("total", "now")}
    (row,) = dom.find("tr", data_method=SORT)
    cells = [text for _, a, text in dom.find("td") if a.get("class") in ("num baseline-total", "num now-total")]
    assert cells[:2] == ["40,100", "1,000,100"]  # the deep work: deep.total + deep.copied
    assert [text for _, a, text in dom.find("span", class_="figure")] == ["deep work"]
    assert len(dom.find("table", class_="deep-moves")) == 1
    moves = page.split('class="deep-moves"')[1].split("</table>")[0]
    assert moves.index("indexOfRange") < moves.index("insertionSort") and "+960,020" in moves and "-20" in moves


def test_a_changed_methods_card_leads_with_the_verdicts_first_line_complexity_first():
    worse = regressed_sort()
    worse["message"] = (f"{SORT}: COMPLEXITY GOT WORSE: n -> n^2, exponent 2.00\n    n  256  512\n"
                        f"REGRESSED: total 970 -> 1,234 (+264, +27.2%)\n{SORT}: REGRESSED")
    dom = Dom(render({worse["nodeid"]: worse}))
    (section,) = dom.find("section", class_="method")
    leads = dom.find("p", class_="lead")
    assert [text for _, _, text in leads] == [f"COMPLEXITY GOT WORSE: n -> n^2, exponent 2.00 ({SORT})"]
    # it comes first in the card: before the figures that tripped
    page = render({worse["nodeid"]: worse})
    card = page[page.index('<section class="method"'):]
    assert card.index('class="lead regressed"') < card.index("<svg")


def test_an_improvements_figures_are_labelled_by_the_way_each_went():
    base, now = counts(1000), counts(600)
    r = result("t.py::fix", "improved", {SORT: now}, {SORT: base}, {SORT: "improved"},
               tripped={SORT: ["total 1,000 -> 600 (-400, -40.0%)", "call java/util/HashMap.get(...) 100 -> 204 "
                                                                      "(+104, +104.0%)"]})
    (p,) = [text for _, _, text in Dom(render({"t.py::fix": r})).find("p", class_="tripped")]
    assert p == ("fell: total 1,000 -> 600 (-400, -40.0%); rose: call java/util/HashMap.get(...) 100 -> 204 "
                 "(+104, +104.0%)")
