import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.copycall.Snapshot#latest")
def test_snapshot_scales(bytecount):
    snapshot = bytecount.jclass("cx.copycall.Snapshot")
    bytecount.scaling(SIZES, lambda n: snapshot.latest(n))
