import jpype
import pytest

# ten years of daily sales, a few days with net refunds
DAILY = [(i * 7877) % 9000 - 500 for i in range(3650)]


@pytest.mark.bytecount("cat.linked.Sales#weeklyTotals")
def test_weekly_totals_are_the_moving_sum_of_seven_days(bytecount):
    sales = bytecount.jclass("cat.linked.Sales")
    totals = list(sales.weeklyTotals(jpype.JArray(jpype.JInt)(DAILY)))
    booked = [max(amount, 0) for amount in DAILY]
    assert totals == [sum(booked[max(0, i - 6):i + 1]) for i in range(len(DAILY))]
