import jpype
import pytest

DAYS_LATE = [(i * 7919) % 90 for i in range(3000)]  # 3,000 open invoices, two thirds of them overdue
AMOUNTS = [1000 + (i * 104_729) % 50_000 for i in range(3000)]


@pytest.mark.bytecount("cat.appendonly.Overdue#overdueTotal")
def test_overdue_total(bytecount):
    overdue = bytecount.jclass("cat.appendonly.Overdue")
    total = overdue.overdueTotal(jpype.JArray(jpype.JInt)(DAYS_LATE), jpype.JArray(jpype.JInt)(AMOUNTS))
    assert total == sum(a for d, a in zip(DAYS_LATE, AMOUNTS) if d > 30)
