import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.queuefix.PrintSpool#pages")
def test_print_spool_scales(bytecount):
    printSpool = bytecount.jclass("cx.queuefix.PrintSpool")
    bytecount.scaling(SIZES, lambda n: printSpool.pages(n))
