import jpype
import pytest

# a recall list of 1,500 EAN-13 barcodes in the order the manufacturer sent them, and 500 scans at the till,
# about 100 of them recalled
RECALLED = [4_006_381_000_000 + (i * 7919) % 1_000_003 for i in range(1500)]
SCANNED = [4_006_381_000_000 + (i * 104_729) % 1_000_003 for i in range(400)] + RECALLED[::15]


@pytest.mark.bytecount("cat.sortonce.Recall#countRecalled")
def test_count_recalled_finds_the_recalled_scans(bytecount):
    recall = bytecount.jclass("cat.sortonce.Recall")
    count = recall.countRecalled(jpype.JArray(jpype.JLong)(RECALLED), jpype.JArray(jpype.JLong)(SCANNED))
    on_list = set(RECALLED)
    assert count == sum(barcode in on_list for barcode in SCANNED)
    assert count == 101
