import pytest

TEXT = "the cat and the dog and the bird saw a cat"


@pytest.mark.bytecount("stats.TopWords#top")
@pytest.mark.parametrize("k", [1, 3])
def test_top(bytecount, k):
    top = bytecount.jclass("stats.TopWords").top(TEXT, k)
    assert [str(w) for w in top] == ["the", "cat", "and"][:k]
