import jpype
import pytest

BASKET = [99 + (i * 7919) % 3000 for i in range(300)]  # a basket of 300 items, in cents
THRESHOLDS = [10_000 * (t + 1) for t in range(500)]  # 500 promotions: 100 EUR, 200 EUR, ...
PERCENTS = [1 + (t * 37) % 30 for t in range(500)]


@pytest.mark.bytecount("cat.reorder.Discounts#bestPercent")
def test_best_percent_of_the_reached_thresholds(bytecount):
    discounts = bytecount.jclass("cat.reorder.Discounts")
    best = discounts.bestPercent(*(jpype.JArray(jpype.JInt)(a) for a in (BASKET, THRESHOLDS, PERCENTS)))
    subtotal = sum(BASKET)
    assert best == max((p for t, p in zip(THRESHOLDS, PERCENTS) if subtotal >= t), default=0)
