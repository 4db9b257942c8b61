"""A failure names the source lines whose counts changed, with their text (the lines' counts themselves are
checked against the oracle in tests/counting/test_exact.py)."""

from __future__ import annotations

import json

from tests.support.pytest_project import java_project, run

CART = """package shop;
public class Cart {
    public static int total(int[] prices) {
        int sum = 0;
        for (int p : prices) sum += p;
        return sum;
    }
}
"""
TEST = {"test_cart": """
    import jpype, pytest

    @pytest.mark.bytecount("shop.Cart#total")
    def test_total(bytecount):
        assert bytecount.jclass("shop.Cart").total(jpype.JArray(jpype.JInt)(list(range(100)))) == 4950
"""}


def test_a_regression_names_its_lines_with_their_source_text(pytester):
    java_project(pytester, {"shop/Cart.java": CART}, TEST)
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    stored = json.loads((pytester.path / "bytecount" / "test_cart.json").read_text())
    lines = stored["tests"]["test_total"]["methods"]["shop.Cart#total([I)I"]["lines"]
    assert set(lines) == {"4", "5", "6"} and sum(lines.values()) == \
        stored["tests"]["test_total"]["methods"]["shop.Cart#total([I)I"]["total"]
    # a second pass over the prices, on a line of its own, between the loop and the return
    (pytester.path / "src" / "shop" / "Cart.java").write_text(CART.replace(
        "        return sum;", "        for (int p : prices) if (p % 3 == 0) sum -= 0;\n        return sum;"))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "    lines that changed most:",
        "      Cart.java:6 *0 -> * (+*)  | for (int p : prices) if (p % 3 == 0) sum -= 0;",
        "    the method's bytecode changed since the baseline",
    ])
    # the unchanged loop keeps its line and its count: it is not named as changed
    assert "Cart.java:5 " not in result.stdout.str() and "Cart.java:7 (was 6)" not in result.stdout.str()


def test_lines_moved_by_an_inserted_line_are_paired_by_their_code(pytester):
    """A guard inserted above the loop moves it from line 5 to 6, and the test now sums twice as many prices:
    the failure pairs the loop with itself by its code (its digest is unchanged) and names its old number."""
    java_project(pytester, {"shop/Cart.java": CART}, TEST)
    run(pytester, "--bytecount-update").assert_outcomes(passed=1)
    method = "shop.Cart#total([I)I"
    before = json.loads((pytester.path / "bytecount" / "test_cart.json").read_text())["tests"]["test_total"]["methods"][method]
    assert set(before["lines"]) <= set(before["line_digests"]) == {"4", "5", "6"}
    (pytester.path / "src" / "shop" / "Cart.java").write_text(CART.replace(
        "        int sum = 0;\n", "        int sum = 0;\n        if (prices == null) return 0;\n"))
    (pytester.path / "test_cart.py").write_text((pytester.path / "test_cart.py").read_text().replace(
        "range(100)))) == 4950", "range(200)))) == 19900"))
    result = run(pytester, "--bytecount-json=results.json")
    result.assert_outcomes(failed=1)
    now = json.loads((pytester.path / "results.json").read_text())["test_cart.py::test_total"]["counts"][method]
    assert now["line_digests"]["6"] == before["line_digests"]["5"]  # the loop's code, one line lower
    loop_before, loop_now = before["lines"]["5"], now["lines"]["6"]
    result.stdout.fnmatch_lines([
        "    lines that changed most:",
        f"      Cart.java:6 (was 5)  {loop_before:,} -> {loop_now:,} (+{loop_now - loop_before:,})*",
        f"      Cart.java:5 * 0 -> {now['lines']['5']} (+{now['lines']['5']})*| if (prices == null) return 0;",
    ])
