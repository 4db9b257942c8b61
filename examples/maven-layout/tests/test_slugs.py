import pytest


@pytest.mark.bytecount("shop.Slugs#slug")
@pytest.mark.parametrize("n", [1, 20])
def test_slug(bytecount, n):
    # the loop runs once per character: 20 titles count about 20 times the bytecodes of one
    slug = bytecount.jclass("shop.Slugs").slug("  Crème Brûlée, 2 Pots! " * n)
    assert str(slug) == "-".join(["creme-brulee-2-pots"] * n)
