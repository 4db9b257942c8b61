import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.binsearch.Ledger#matched")
def test_matched_payments_scale(bytecount):
    ledger = bytecount.jclass("cx.binsearch.Ledger")
    bytecount.scaling(SIZES, lambda n: ledger.matched(n))
