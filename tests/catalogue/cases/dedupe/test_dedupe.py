import jpype
import pytest

# an import of 3,000 rows naming 1,500 customers, each twice, in no particular order
IDS = [(i * 7919) % 1500 + 100_000 for i in range(3000)]


@pytest.mark.bytecount("cat.dedupe.Dedupe#firstOccurrences")
def test_first_occurrences_keep_each_id_once_in_order(bytecount):
    dedupe = bytecount.jclass("cat.dedupe.Dedupe")
    unique = [int(i) for i in dedupe.firstOccurrences(jpype.JArray(jpype.JInt)(IDS))]
    assert unique == list(dict.fromkeys(IDS))
    assert len(unique) == 1500
