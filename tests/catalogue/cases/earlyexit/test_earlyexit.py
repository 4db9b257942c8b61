import jpype
import pytest

# five aisles of 3,000 slots; every aisle has empty slots, the first of them near its start
AISLES = [[0 if (slot * 31 + aisle) % 97 == 0 else 1 + slot % 12 for slot in range(3000)] for aisle in range(5)]


@pytest.mark.bytecount("cat.earlyexit.Restock#firstEmptySlot")
def test_first_empty_slot_of_each_aisle(bytecount):
    restock = bytecount.jclass("cat.earlyexit.Restock")
    firsts = [restock.firstEmptySlot(jpype.JArray(jpype.JInt)(aisle)) for aisle in AISLES]
    assert firsts == [aisle.index(0) for aisle in AISLES]
    assert max(firsts) < 100
