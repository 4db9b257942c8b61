"""pytest entry point (``pytest11``). Hooks stay thin; the work lives in the layers below."""

from __future__ import annotations


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "bytecount(*targets, **options): count executed bytecode of the target Java methods "
        "and compare it with the stored baseline",
    )
