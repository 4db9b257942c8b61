import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.linked.Sales#total")
def test_sales_total_scales(bytecount):
    sales = bytecount.jclass("cx.linked.Sales")
    bytecount.scaling(SIZES, lambda n: sales.total(n))
