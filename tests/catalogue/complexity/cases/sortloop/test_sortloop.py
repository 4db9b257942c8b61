import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.sortloop.Recall#countRecalled")
def test_recalled_count_scales(bytecount):
    recall = bytecount.jclass("cx.sortloop.Recall")
    bytecount.scaling(SIZES, lambda n: recall.countRecalled(n))
