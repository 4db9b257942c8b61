import jpype
import pytest

SKUS = [f"SKU-{i * 37:06d}" for i in range(3000)]  # 3,000 fields of 10 characters


@pytest.mark.bytecount("cat.concat.CsvLine#join")
def test_join_writes_every_field_comma_separated(bytecount):
    csv = bytecount.jclass("cat.concat.CsvLine")
    line = str(csv.join(jpype.JArray(jpype.JString)(SKUS)))
    assert line == ",".join(SKUS)
    assert len(line) == 3000 * 11 - 1
