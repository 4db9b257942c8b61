import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.growing.Partition#split")
def test_partition_scales(bytecount):
    partition = bytecount.jclass("cx.growing.Partition")
    bytecount.scaling(SIZES, lambda n: partition.split(n))
