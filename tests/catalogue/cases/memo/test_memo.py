import math

import pytest


@pytest.mark.bytecount("cat.memo.Routes#walk")
def test_count_routes_through_an_11_by_11_grid(bytecount):
    routes = bytecount.jclass("cat.memo.Routes")(11, 11)
    assert routes.count() == math.comb(20, 10)  # 184,756 routes
