import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.treemap.PriceList#orderTotal")
def test_order_total_scales(bytecount):
    priceList = bytecount.jclass("cx.treemap.PriceList")
    bytecount.scaling(SIZES, lambda n: priceList.orderTotal(n))
