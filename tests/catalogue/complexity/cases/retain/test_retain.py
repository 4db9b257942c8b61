import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.retain.Audience#returning")
def test_returning_visitors_scale(bytecount):
    audience = bytecount.jclass("cx.retain.Audience")
    bytecount.scaling(SIZES, lambda n: audience.returning(n))
