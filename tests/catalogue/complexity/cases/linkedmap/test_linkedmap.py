import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.linkedmap.WordCount#distinctWords")
def test_word_count_scales(bytecount):
    wordCount = bytecount.jclass("cx.linkedmap.WordCount")
    bytecount.scaling(SIZES, lambda n: wordCount.distinctWords(n))
