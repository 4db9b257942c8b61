import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.stream.Parcels#heavyGrams")
def test_heavy_parcels_scale(bytecount):
    parcels = bytecount.jclass("cx.stream.Parcels")
    bytecount.scaling(SIZES, lambda n: parcels.heavyGrams(n))
