import jpype
import pytest

# a bookshop's price list of 20,000 ISBNs and a day's 20,000 order lines (a few titles not on the list)
ISBNS = [f"978-3-16-{148_000 + i * 7:06d}-{i % 10}" for i in range(20_000)]
CENTS = [499 + i * 13 % 5000 for i in range(20_000)]
ORDER = [f"978-3-16-{148_000 + j * 7:06d}-{j % 10}" for j in ((i * 7919) % 20_500 for i in range(20_000))]


@pytest.mark.bytecount("cat.lookup.PriceList#orderTotal")
def test_order_total_prices_every_known_line(bytecount):
    prices = bytecount.jclass("cat.lookup.PriceList")
    total = prices.orderTotal(jpype.JArray(jpype.JString)(ISBNS), jpype.JArray(jpype.JInt)(CENTS),
                              jpype.JArray(jpype.JString)(ORDER))
    price_of = dict(zip(ISBNS, CENTS))
    assert total == sum(price_of.get(isbn, 0) for isbn in ORDER)
