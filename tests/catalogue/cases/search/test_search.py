import jpype
import pytest

# a day's ledger of 4,000 order numbers (sorted, every third number) and 500 order numbers to check
LEDGER = [700_000_000 + 3 * i for i in range(4000)]
QUERIES = [700_000_000 + (i * 1237 % 12_000) for i in range(500)]


@pytest.mark.bytecount("cat.search.Ledger#indexOf")
def test_count_known_finds_the_orders_of_the_day(bytecount):
    ledger = bytecount.jclass("cat.search.Ledger")
    known = ledger.countKnown(jpype.JArray(jpype.JLong)(LEDGER), jpype.JArray(jpype.JLong)(QUERIES))
    in_ledger = set(LEDGER)
    assert known == sum(order in in_ledger for order in QUERIES) == 167
