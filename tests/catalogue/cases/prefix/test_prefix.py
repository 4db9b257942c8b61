import jpype
import pytest

DAILY = [1000 + (i * 7919) % 4000 for i in range(1500)]  # four years of daily revenue
FROM = [(q * 37) % 1000 for q in range(600)]  # 600 ranges of up to 500 days
TO = [f + 1 + (q * 101) % 500 for q, f in enumerate(FROM)]


@pytest.mark.bytecount("cat.prefix.Revenue#rangeTotals")
def test_range_totals_sum_each_range(bytecount):
    revenue = bytecount.jclass("cat.prefix.Revenue")
    totals = list(revenue.rangeTotals(*(jpype.JArray(jpype.JInt)(a) for a in (DAILY, FROM, TO))))
    assert totals == [sum(DAILY[f:t]) for f, t in zip(FROM, TO)]
