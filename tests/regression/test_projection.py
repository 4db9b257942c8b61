"""A budget at a size, on exact series made by hand (no JVM): the fitted sum of terms projected to a size the check
did not measure, and each reason to refuse a projection that cannot be trusted."""

from __future__ import annotations

import math

import pytest

from pytest_bytecount.regression.growth import ScalingError
from pytest_bytecount.regression.projection import REACH, check_budget, project, render_projections

SIZES = [256, 512, 1024, 2048, 4096, 8192]


def series(f, sizes=SIZES):
    return [f(n) for n in sizes]


@pytest.mark.parametrize("name, f", [
    ("n^2", lambda n: n * n // 2 + 30 * n + 5),  # insertion sort's shape: shifts plus a loop's overhead
    ("n log n", lambda n: round(3 * n * math.log2(n)) + 7 * n + 11),  # a merge sort's
    ("n", lambda n: 40 * n - 8),
    ("log n", lambda n: round(12 * math.log2(n)) + 9),  # a binary search's
    ("n^2", lambda n: 1000 * n + n * n),  # the square only taking over: its rising exponent is the fit's own
])
def test_an_exact_sum_of_terms_projects_to_its_own_value_far_beyond_the_sizes_measured(name, f):
    at = 100_000
    exact = f(at)
    (within,) = project(SIZES, series(f), {at: exact + 1})
    assert within.order == name and within.status == "within" and not within.refused
    assert math.isclose(within.value, exact, rel_tol=1e-6, abs_tol=0.5)  # the counts are whole numbers
    (over,) = project(SIZES, series(f), {at: exact - exact // 1000})
    assert over.status == "over"


def test_a_constant_projects_to_itself():
    (p,) = project(SIZES, [77] * len(SIZES), {50_000: 77})
    assert p.order == "1" and p.status == "within" and math.isclose(p.value, 77)


def test_a_size_beyond_the_reach_is_refused_and_the_sizes_to_reach_it_named():
    f = lambda n: 40 * n  # noqa: E731
    far = REACH * SIZES[-1] + 1
    (p,) = project(SIZES, series(f), {far: 10 ** 12})
    assert p.status == "refused" and p.value is None
    assert any("beyond the 100x a projection may reach" in r for r in p.refused)
    assert p.add[0] == 2 * SIZES[-1] and p.add[-1] * REACH >= far  # doublings until the size is within reach
    (near,) = project(SIZES, series(f), {REACH * SIZES[-1]: 10 ** 12})
    assert near.status == "within"
    (wide,) = project(SIZES, series(f), {far: 10 ** 12}, reach=1000)
    assert wide.status == "within"


def test_a_fit_that_is_not_exact_enough_is_refused():
    def staircase(n):  # 5 instructions an element, plus every copy of an array that grows by half when full
        cap, copies = 10, 0
        while cap < n:
            copies, cap = copies + cap, cap * 3 // 2
        return 5 * n + copies
    (p,) = project(SIZES, series(staircase), {30_000: 10 ** 12})
    assert p.status == "refused" and any(r.startswith("the fit is not exact enough (error 3") for r in p.refused)
    assert p.add == (16_384, 32_768)


def test_growth_still_rising_at_the_largest_sizes_is_refused():
    # linear, until a quadratic path that starts between the two largest sizes: the fit, still close (0.4%),
    # would miss most of it at n=100,000
    f = lambda n: 40 * n + 9 + (n * n // 20_000 if n >= 8192 else 0)  # noqa: E731
    (p,) = project(SIZES, series(f), {100_000: 10 ** 12})
    assert p.status == "refused" and p.order == "n"
    assert [r.split(" (")[0] for r in p.refused] == ["the top local exponent is still rising"]
    assert p.add == (16_384, 32_768)


def test_exponential_growth_is_refused():
    sizes = [10, 12, 14, 16, 18, 20]
    (p,) = project(sizes, series(lambda n: 2 ** n + 5, sizes), {24: 10 ** 12})
    assert p.order == "2^n" and p.status == "refused" and p.add == ()
    assert p.refused[0].startswith("the growth is exponential")


def test_the_failure_prints_the_projection_the_fit_and_the_order_beside_the_limit():
    f = lambda n: n * n // 2 + 30 * n + 5  # noqa: E731
    projections = project(SIZES, series(f), {100_000: 10 ** 9, 1000: 10 ** 9})
    text = render_projections("demo.Sorting#insertionSort([I)V", "the deep work", projections, SIZES, updating=True)
    lines = text.splitlines()
    assert lines[0] == ("OVER BUDGET at n=100,000: the deep work of demo.Sorting#insertionSort([I)V projected to "
                        "5,003,000,005, over the limit 1,000,000,000 by 4,003,000,005, +400.3% (order n^2, measured "
                        "up to n=8,192)")
    assert lines[1].startswith("    fit: n^2: 99% of the work at n=8,192")
    assert "Nothing was recorded" in text and "n=1,000" not in text  # within its limit: not said
    refused = render_projections("m", "total", project(SIZES, series(f), {10 ** 7: 1}), SIZES, updating=False)
    assert refused.startswith("BUDGET UNCHECKED: cannot project total of m to n=10,000,000 (limit 1): n=10,000,000 is "
                              "1,221 times")
    assert "    add sizes 16,384, 32,768," in refused
    assert render_projections("m", "total", project(SIZES, series(f), {1000: 10 ** 9}), SIZES, False) == ""


@pytest.mark.parametrize("budget, reach, says", [
    ({}, REACH, "budget must be a dict {size: limit}"),
    ([100, 5], REACH, "budget must be a dict {size: limit}"),
    ({0: 5}, REACH, "a size is an integer n >= 1, got 0"),
    ({10.0: 5}, REACH, "a size is an integer n >= 1, got 10.0"),
    ({100: -1}, REACH, "the limit at n=100 must be a whole number >= 0, got -1"),
    ({100: 1.5}, REACH, "got 1.5"),
    ({100: True}, REACH, "got True"),
    ({100: 5}, 0.5, "reach must be a number >= 1"),
])
def test_a_bad_budget_says_what_is_wrong(budget, reach, says):
    with pytest.raises(ScalingError) as e:
        check_budget(budget, reach)
    assert says in str(e.value)


def test_a_limit_written_as_a_whole_float_is_taken_and_sizes_are_sorted():
    assert check_budget({100_000: 1e9, 10: 5}, REACH) == {10: 5, 100_000: 10 ** 9}
