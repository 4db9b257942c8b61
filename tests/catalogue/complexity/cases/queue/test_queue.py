import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.queue.ImportQueue#process")
def test_import_queue_scales(bytecount):
    importQueue = bytecount.jclass("cx.queue.ImportQueue")
    bytecount.scaling(SIZES, lambda n: importQueue.process(n))
