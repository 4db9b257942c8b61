"""Small helpers for the wording of messages."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and its noun, singular for exactly one: ``counted(1, "class", "classes")`` is ``1 class``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
