"""``--bytecount-html``, end to end: record baselines, make a loop run more, run with the report, and read the
page the way a reviewer would, in headless Chromium (Debian's ``chromium``; CI installs it)."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.chromium import Dom, dump_dom, find_chromium, longest_run, read_png, screenshot
from tests.support.pytest_project import demo_copy, demo_project, run

SORT = "demo.Sorting#insertionSort([I)V"
FIB = "demo.Sorting#fib(I)I"
EVIL = "<script>alert(1)</script>"

TESTS = f'''
import jpype
import pytest

@pytest.mark.bytecount("demo.Sorting#insertionSort")
@pytest.mark.parametrize("n", [10, 50])
def test_sort(bytecount, n):
    a = jpype.JArray(jpype.JInt)(list(range(n, 0, -1)))
    bytecount.jclass("demo.Sorting").insertionSort(a)
    assert list(a) == sorted(a)

@pytest.mark.bytecount("demo.Sorting#fib")
@pytest.mark.parametrize("n", [12], ids=["{EVIL}"])
def test_fib(bytecount, n):
    assert bytecount.jclass("demo.Sorting").fib(n) == 144
'''


@pytest.fixture
def project(pytester):
    return demo_project(pytester, {"test_demo": TESTS})


@pytest.fixture
def demo(pytester):
    """examples/demo with its committed baselines (8 tests, these 3 on insertionSort)."""
    return demo_copy(pytester)


DEMO_SORT_TESTS = [f"tests/test_sorting.py::{name}" for name in
                   ("test_insertion_sort[10]", "test_insertion_sort[100]", "test_insertion_sort_is_quadratic")]


def make_the_sort_loop_run_more(pytester) -> None:
    path = pytester.path / "src" / "demo" / "Sorting.java"
    text = path.read_text()
    path.write_text(text.replace("a[j + 1] = x;", "a[j + 1] = x; for (int k = 0; k < 2; k++) { x += 0; }"))


def totals(recorded: dict, results: dict, test: str, module: str = "test_demo.py") -> tuple:
    """(baseline total, total now) of the sort method in ``test``."""
    base = recorded["tests"][test]["methods"][SORT]["total"]
    now = results[f"{module}::{test}"]["counts"][SORT]["total"]
    return base, now


def test_a_regression_is_on_the_page_chromium_renders(project, tmp_path):
    run(project, "--bytecount-update").assert_outcomes(passed=3)
    recorded = json.loads((project.path / "bytecount" / "test_demo.json").read_text())
    make_the_sort_loop_run_more(project)
    result = run(project, "--bytecount-html=report", "--bytecount-json=results.json")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(["1 passed, 2 regressed",
                                 "bytecount: HTML report report*index.html"])
    results = json.loads((project.path / "results.json").read_text())
    page = project.path / "report" / "index.html"
    source = page.read_text(encoding="utf-8")
    # the result carries the stored counts the page compares with
    assert results["test_demo.py::test_sort[10]"]["baseline_counts"] == recorded["tests"]["test_sort[10]"]["methods"]
    assert "http" not in source and "<script" not in source

    if find_chromium() is None:
        pytest.skip("no chromium on PATH to render the report (Debian: apt-get install chromium; CI installs it)")
    dom = Dom(dump_dom(page))
    text = dom.text

    # the summary: test counts by status, as in the terminal
    tally = {a["data-status"]: int(a["data-count"]) for _, a, _ in dom.find("li", class_="status-count")}
    assert tally == {"passed": 1, "regressed": 2, "improved": 0, "changed": 0, "new": 0}

    # one section per regressed method: its id, both totals, the delta, the cause and the accept command
    sections = {a["data-test"]: (a, t) for _, a, t in dom.find("section", class_="method")}
    assert sorted(sections) == ["test_demo.py::test_sort[10]", "test_demo.py::test_sort[50]"]
    for test in ("test_sort[10]", "test_sort[50]"):
        attrs, section_text = sections[f"test_demo.py::{test}"]
        assert attrs["data-method"] == SORT and attrs["data-status"] == "regressed"
        base, now = totals(recorded, results, test)
        assert now > base
        assert f"{base:,}" in section_text and f"{now:,}" in section_text and f"{now - base:+,}" in section_text
        assert "the method's bytecode changed since the baseline" in section_text
        assert f"pytest 'test_demo.py::{test}' --bytecount-update" in section_text
    # bars in proportion to the numbers
    base, now = totals(recorded, results, "test_sort[10]")
    widths = {(a["class"], int(a["data-value"])): float(a["width"])
              for _, a, _ in dom.find("rect", class_="bar") if a.get("data-metric") == "total"}
    assert widths[("bar now", now)] > widths[("bar baseline", base)] > 0
    assert widths[("bar baseline", base)] / widths[("bar now", now)] == pytest.approx(base / now, abs=0.002)
    # the top changed opcodes include the added loop's iinc
    assert "iinc" in [a["data-key"] for _, a, _ in dom.find("rect", class_="delta")]

    # every counted test and method in the table; the fib test's id is shown as text, never run
    assert {a["data-test"] for _, a, _ in dom.find("tr") if "data-test" in a} == {
        "test_demo.py::test_sort[10]", "test_demo.py::test_sort[50]", f"test_demo.py::test_fib[{EVIL}]"}
    assert f"test_demo.py::test_fib[{EVIL}]" in text and FIB in text
    assert not dom.find("script")

    # nothing from the network: no URL in any attribute, no external resource element
    for tag, attrs, _ in dom.elements:
        assert tag not in ("img", "link", "iframe", "object", "embed")
        for name, value in attrs.items():
            assert not re.search(r"(https?:|//)", value or ""), (tag, name, value)

    # and it is drawn: the widest "now" bar is as wide on screen as in the markup, the baseline bars show too
    from pytest_bytecount.regression.report_html import BASELINE_COLOR, NOW_COLOR

    _, _, rows = read_png(screenshot(page, tmp_path / "report.png"))
    widest_now = max(float(a["width"]) for _, a, _ in dom.find("rect", class_="now"))
    assert abs(longest_run(rows, NOW_COLOR) - widest_now) <= 1
    assert longest_run(rows, BASELINE_COLOR) >= round(widths[("bar baseline", base)]) - 1


def test_under_xdist_the_controller_writes_the_report(demo):
    make_the_sort_loop_run_more(demo)
    result = run(demo, "-n", "2", "--bytecount-html=report")
    result.assert_outcomes(passed=5, failed=3)
    dom = Dom((demo.path / "report" / "index.html").read_text(encoding="utf-8"))
    sections = dom.find("section", class_="method")
    assert {a["data-status"] for _, a, _ in sections} == {"regressed"}
    assert sorted(a["data-test"] for _, a, _ in sections) == sorted(DEMO_SORT_TESTS)


def test_the_report_folder_can_be_set_in_pyproject(project):
    (project.path / "pyproject.toml").write_text(
        (project.path / "pyproject.toml").read_text() + '\nhtml = "build/bytecount-report"\n')
    run(project).assert_outcomes(failed=3)
    dom = Dom((project.path / "build" / "bytecount-report" / "index.html").read_text(encoding="utf-8"))
    assert {a["data-status"]: int(a["data-count"]) for _, a, _ in dom.find("li", class_="status-count")}["new"] == 3


def test_the_regressed_methods_source_is_annotated_with_counts_per_line(demo, tmp_path):
    """Each regressed method's section shows its source with the baseline's and the current instructions
    per line, the edited line in the strongest heat colour, and Chromium draws that colour across the row."""
    recorded = json.loads((demo.path / "tests" / "bytecount" / "test_sorting.json").read_text())
    make_the_sort_loop_run_more(demo)
    run(demo, "--bytecount-html=report", "--bytecount-json=results.json").assert_outcomes(passed=5, failed=3)
    results = json.loads((demo.path / "results.json").read_text())
    source = (demo.path / "src" / "demo" / "Sorting.java").read_text().splitlines()
    edited = next(i for i, text in enumerate(source, 1) if "for (int k = 0" in text)
    page = demo.path / "report" / "index.html"
    if find_chromium() is None:
        pytest.skip("no chromium on PATH to render the report (Debian: apt-get install chromium; CI installs it)")
    dom = Dom(dump_dom(page))
    from pytest_bytecount.regression.report_lines import heat

    tables = dom.find("table", class_="source")
    assert [a["data-method"] for _, a, _ in tables] == [SORT] * len(DEMO_SORT_TESTS)
    for test_id in DEMO_SORT_TESTS:
        module, _, test = test_id.partition("::")
        base_lines = recorded["tests"][test]["methods"][SORT]["lines"]
        now_lines = results[test_id]["counts"][SORT]["lines"]
        section, = dom.find("section", class_="method", data_test=test_id)
        rows = {a["data-line"]: (int(a["data-base"]), int(a["data-now"]), a.get("style"), text)
                for _, a, text in dom.find("tr", within=section, class_="src")}
        # every line that ran on either side has its row, with the stored and the current counts
        assert set(base_lines) | set(now_lines) <= set(rows)
        for line, (b, n, _, text) in rows.items():
            assert (b, n) == (base_lines.get(line, 0), now_lines.get(line, 0)), line
            assert text.rstrip().endswith(source[int(line) - 1].strip()), line
        # only the edited line changed, by the whole method's change, and it is the hottest row
        base_total, now_total = totals(recorded, results, test, module)
        changed = {line: n - b for line, (b, n, _, _) in rows.items() if n != b}
        assert changed == {str(edited): now_total - base_total}
        assert rows[str(edited)][2] == f"background:{heat(1, 1)}"
        assert all(style is None for line, (_, _, style, _) in rows.items() if line != str(edited))

    # drawn: the hottest colour spans the row, source included
    _, _, pixels = read_png(screenshot(page, tmp_path / "tall.png", height=2400))
    assert longest_run(pixels, heat(1, 1)) >= 800


LONG = '''
import jpype
import pytest

@pytest.mark.bytecount("demo.Sorting#insertionSort")
@pytest.mark.parametrize("n", [400], ids=["a_reversed_array_of_four_hundred_ints_sorted_in_place"])
def test_insertion_sort_of_a_reversed_array_keeps_its_cost_within_the_recorded_budget(bytecount, n):
    a = jpype.JArray(jpype.JInt)(list(range(n, 0, -1)))
    bytecount.jclass("demo.Sorting").insertionSort(a)
'''


def test_the_report_fits_the_window_and_keeps_ids_readable(pytester, tmp_path):
    """Long test ids, a large delta: nothing runs past the window, a table stays inside its box, an id
    cell keeps 20 characters a line at least, and no chart label is cut at its chart's edge."""
    if find_chromium() is None:
        pytest.skip("no chromium on PATH to render the report (Debian: apt-get install chromium; CI installs it)")
    from tests.support.chromium import layout

    project = demo_project(pytester, {"test_long_names": LONG})
    run(project, "--bytecount-update").assert_outcomes(passed=1)
    path = project.path / "src" / "demo" / "Sorting.java"
    path.write_text(path.read_text().replace("a[j + 1] = x;", "a[j + 1] = x; for (int k = 0; k < 40; k++) { x += 0; }"))
    run(project, "--bytecount-html=report").assert_outcomes(failed=1)
    for width in (1400, 1000):
        measured = layout(project.path / "report" / "index.html", width)
        assert measured["page"] <= measured["viewport"], (width, measured)
        assert measured["tables_past_their_box"] == 0, (width, measured)
        assert measured["narrowest_id_chars"] >= 19.5, (width, measured)
        assert measured["cut_labels"] == [], (width, measured)
