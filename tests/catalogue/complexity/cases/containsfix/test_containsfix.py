import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.containsfix.Tags#distinct")
def test_distinct_tags_scale(bytecount):
    tags = bytecount.jclass("cx.containsfix.Tags")
    bytecount.scaling(SIZES, lambda n: tags.distinct(n))
