import pytest

SIZES = [256, 512, 1024, 2048, 4096]


@pytest.mark.bytecount("cx.concatfix.Report#render")
def test_report_scales(bytecount):
    report = bytecount.jclass("cx.concatfix.Report")
    bytecount.scaling(SIZES, lambda n: report.render(n))
