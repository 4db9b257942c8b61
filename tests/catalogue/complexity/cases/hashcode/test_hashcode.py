import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.hashcode.Tiles#distinct")
def test_distinct_tiles_scale(bytecount):
    tiles = bytecount.jclass("cx.hashcode.Tiles")
    bytecount.scaling(SIZES, lambda n: tiles.distinct(n))
