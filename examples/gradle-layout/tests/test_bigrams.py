import pytest


@pytest.mark.bytecount("stats.Bigrams#mostCommon")
@pytest.mark.parametrize("n", [1, 20])
def test_most_common(bytecount, n):
    # n copies of 6 words make 6n - 1 pairs: "to be" 2n times, the other 4 pairs at most n times each
    text = "To be or not to be " * n
    assert str(bytecount.jclass("stats.Bigrams").mostCommon(text)) == "to be"
