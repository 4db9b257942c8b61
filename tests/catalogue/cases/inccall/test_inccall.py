import jpype
import pytest

MILLIS = [20 + (i * 7919) % 480 + (i * 31) % 7 for i in range(1500)]  # a batch of 1,500 request latencies


@pytest.mark.bytecount("cat.inccall.Latency#spread", inclusive=True)
def test_spread_of_a_batch(bytecount):
    latency = bytecount.jclass("cat.inccall.Latency")
    assert latency.spread(jpype.JArray(jpype.JInt)(MILLIS)) == max(MILLIS) - min(MILLIS)
