import jpype
import pytest

AMOUNTS = [499 + (i * 7919) % 20_000 for i in range(2500)]  # an invoice of 2,500 lines, in cents
PERCENT = [(i * 13) % 4 * 5 for i in range(2500)]  # 0, 5, 10 or 15% off


@pytest.mark.bytecount("cat.rename.Invoice#totalDue")
def test_total_due_after_discounts(bytecount):
    invoice = bytecount.jclass("cat.rename.Invoice")
    total = invoice.totalDue(jpype.JArray(jpype.JInt)(AMOUNTS), jpype.JArray(jpype.JInt)(PERCENT))
    assert total == sum(a - a * p // 100 for a, p in zip(AMOUNTS, PERCENT))
