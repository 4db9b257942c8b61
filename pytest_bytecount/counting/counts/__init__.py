"""The counts format: what each counter stands for (``countermap``, ``keys``), the contract's JSON derived from raw counters (``derive``), printed by Python and by the exit hook (``render``), and read metric by metric and diffed (``metrics``)."""

from .derive import add_code_fingerprint, counts_from_values
from .metrics import (KEYS, METRICS, REQUIRED_SCALARS, SCALAR_METRICS, TABLES, CountsDiff, diff, key_changes, metric,
                      table)
from .render import class_layout, links_program, render_json, sort_key

__all__ = ["add_code_fingerprint", "counts_from_values", "KEYS", "METRICS", "REQUIRED_SCALARS", "SCALAR_METRICS",
           "TABLES", "CountsDiff", "diff", "key_changes", "metric", "table", "class_layout", "links_program", "render_json",
           "sort_key"]
