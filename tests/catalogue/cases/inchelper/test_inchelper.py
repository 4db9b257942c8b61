import jpype
import pytest

# 2,000 bookings of 15-minute slots (minutes since the start of the month), 1,768 distinct slots
SLOTS = [15 * ((i * 7919) % 1300 + (i % 3) * 1000) for i in range(2000)]


@pytest.mark.bytecount("cat.inchelper.Bookings#summary", inclusive=True)
def test_summary_counts_distinct_slots(bytecount):
    bookings = bytecount.jclass("cat.inchelper.Bookings")
    assert str(bookings.summary(jpype.JArray(jpype.JInt)(SLOTS))) == f"2000 bookings in {len(set(SLOTS))} slots"
