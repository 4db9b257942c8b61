import jpype
import pytest

# an order of 800 items of 50 g to 2.5 kg, shipped to a remote address and to a city one
ITEMS = [50 + (i * 7919) % 2450 for i in range(800)]


def expected(grams, remote):
    cost = 499 + -(-grams // 1000) * 120
    return max(cost + cost // 10, 999) if remote else cost


@pytest.mark.bytecount("cat.extract.Shipping#costCents", inclusive=True, tolerance="inclusive=5%")
def test_cost_per_started_kilogram(bytecount):
    shipping = bytecount.jclass("cat.extract.Shipping")
    items = jpype.JArray(jpype.JInt)(ITEMS)
    assert [shipping.costCents(items, remote) for remote in (True, False)] == [
        expected(sum(ITEMS), remote) for remote in (True, False)]
