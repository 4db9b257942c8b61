import jpype
import pytest

TASKS = [1 + (i * 7919) % 1200 for i in range(30_000)]  # a night's 30,000 import tasks of 1 to 1,200 rows


@pytest.mark.bytecount("cat.queue.ImportQueue#chunks")
def test_chunks_of_500_rows(bytecount):
    queue = bytecount.jclass("cat.queue.ImportQueue")
    assert queue.chunks(jpype.JArray(jpype.JInt)(TASKS), 500) == sum(-(-rows // 500) for rows in TASKS)
