import jpype
import pytest

READINGS = [18.0 + ((i * 7919) % 1000) / 50.0 for i in range(3000)]  # a day of temperatures, 18 to 38 degrees


@pytest.mark.bytecount("cat.foreach.Sensor#alarms")
def test_alarms_above_threshold(bytecount):
    sensor = bytecount.jclass("cat.foreach.Sensor")
    assert sensor.alarms(jpype.JArray(jpype.JDouble)(READINGS), 35.0) == sum(r > 35.0 for r in READINGS)
