import jpype
import pytest

# 2,000 units in stock (sku-0 .. sku-1999), 1,500 order lines taken mostly from the end of the list, 100 not stocked
STOCK = [f"sku-{i}" for i in range(2000)]
ORDERED = [f"sku-{1999 - i}" for i in range(1400)] + [f"gone-{i}" for i in range(100)]


@pytest.mark.bytecount("cat.bagfix.Stock#missing", deep=True)
def test_missing_lines_are_the_unstocked_ones(bytecount):
    stock = bytecount.jclass("cat.bagfix.Stock")
    ArrayList = jpype.JClass("java.util.ArrayList")
    ordered, stocked = ArrayList(), ArrayList()
    for item in ORDERED:
        ordered.add(item)
    for item in STOCK:
        stocked.add(item)
    assert [str(s) for s in stock.missing(ordered, stocked)] == [f"gone-{i}" for i in range(100)]
