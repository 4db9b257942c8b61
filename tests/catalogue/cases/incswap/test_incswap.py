import jpype
import pytest

# 2,000 tag uses over 650 tag ids
TAGS = [(i * 7919) % 650 for i in range(2000)]


@pytest.mark.bytecount("cat.incswap.Report#summary", inclusive=True, tolerance="inclusive=20%")
def test_summary_counts_distinct_tags(bytecount):
    report = bytecount.jclass("cat.incswap.Report")
    assert str(report.summary(jpype.JArray(jpype.JInt)(TAGS))) == f"{len(set(TAGS))} distinct of 2000"
