"""The figures that decided a card's status, for the HTML report."""

from __future__ import annotations

import re
from html import escape as esc


def _direction(figure: str) -> str:
    """"rose", "fell" or "" of a figure's text (``total 120 -> 90 (-30, -25.0%)``), by its two numbers."""
    m = re.search(r"([\d,]+) -> ([\d,]+)", figure)
    if not m:
        return ""
    b, n = (int(x.replace(",", "")) for x in m.groups())
    return "rose" if n > b else "fell" if n < b else ""


def _tripped(status: str, figures: list) -> str:
    """The figures that decided the method's status, as the failure text's first line names them; an improvement's
    under "fell" and "rose" as their numbers go."""
    if not figures:
        return ""
    if status == "improved":
        groups = [(word, [f for f in figures if (_direction(f) or "fell") == word]) for word in ("fell", "rose")]
        parts = [f'{word}: <span class="mono">{"; ".join(esc(f) for f in items)}</span>' for word, items in groups
                 if items]
        return f'<p class="tripped improved">{"; ".join(parts)}</p>'
    title = {"regressed": "outside tolerance", "changed": "changed (strict)",
             "reshaped": "narrower figures rose (the work within tolerance)"}.get(status, "changed")
    items = "; ".join(esc(f) for f in figures)
    return f'<p class="tripped {esc(status)}">{esc(title)}: <span class="mono">{items}</span></p>'
