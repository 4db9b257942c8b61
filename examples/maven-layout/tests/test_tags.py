import pytest


@pytest.mark.bytecount("shop.Tags#normalize")
@pytest.mark.parametrize("n", [10, 100])
def test_normalize(bytecount, n):
    typed = [f"  Tag{i % (n // 2)} " for i in range(n)] + ["", "   "]
    tags = bytecount.jclass("shop.Tags").normalize(typed)
    assert [str(t) for t in tags] == [f"tag{i}" for i in range(n // 2)]
