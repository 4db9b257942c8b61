import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.precheck.Histogram#buckets")
def test_histogram_scales(bytecount):
    histogram = bytecount.jclass("cx.precheck.Histogram")
    bytecount.scaling(SIZES, lambda n: histogram.buckets(n))
