import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.concat.CsvLine#join")
def test_csv_line_scales(bytecount):
    csvLine = bytecount.jclass("cx.concat.CsvLine")
    bytecount.scaling(SIZES, lambda n: csvLine.join(n))
