import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.contains.Customers#firstSeen")
def test_first_seen_scales(bytecount):
    customers = bytecount.jclass("cx.contains.Customers")
    bytecount.scaling(SIZES, lambda n: customers.firstSeen(n))
