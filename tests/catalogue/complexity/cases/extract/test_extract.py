import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.extract.Invoice#totalCents")
def test_invoice_total_scales(bytecount):
    invoice = bytecount.jclass("cx.extract.Invoice")
    bytecount.scaling(SIZES, lambda n: invoice.totalCents(n))
