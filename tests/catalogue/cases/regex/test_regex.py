import re

import jpype
import pytest

IPV4 = re.compile(r"((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)")
# the client addresses of 2,000 access log lines; one in nine is garbled (an octet over 255, or cut short)
CLIENTS = [f"10.{i % 7}.{(i * 37) % 256}.{(i * 7919) % 250 + 1}" if i % 9 else
           (f"10.0.{i % 300}.1" if i % 2 else f"192.168.{i % 256}") for i in range(2000)]


@pytest.mark.bytecount("cat.regex.AccessLog#countValidClients")
def test_count_valid_clients(bytecount):
    log = bytecount.jclass("cat.regex.AccessLog")
    valid = sum(IPV4.fullmatch(client) is not None for client in CLIENTS)
    assert log.countValidClients(jpype.JArray(jpype.JString)(CLIENTS)) == valid == 1874
