import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.quadloop.Readings#aboveAverage")
def test_above_average_scales(bytecount):
    readings = bytecount.jclass("cx.quadloop.Readings")
    bytecount.scaling(SIZES, lambda n: readings.aboveAverage(n))
