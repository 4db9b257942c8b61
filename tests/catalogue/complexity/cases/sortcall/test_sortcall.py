import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.sortcall.Leaderboard#median")
def test_leaderboard_scales(bytecount):
    leaderboard = bytecount.jclass("cx.sortcall.Leaderboard")
    bytecount.scaling(SIZES, lambda n: leaderboard.median(n))
