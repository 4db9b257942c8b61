"""A test's key in its baseline file, and the id the printed commands name it by.

The key is the node id without the file part (``TestCart::test_total[10]``), less the parameters a plugin adds
to run a test several times: pytest-repeat's ``--count=N`` and ``@pytest.mark.repeat(N)``
(``__pytest_repeat_step_number``, ids ``1-3``, ``2-3``, ...), pytest-flakefinder's ``__flakefinder_<name>``.
Such a parameter has a private name (two leading underscores) that the test function does not take; each
repetition is the same test, so every one of them is compared with, and recorded to, the one entry.
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence

from .arguments import runnable_id


def repetition_params(item) -> List[str]:
    """The names of the item's parameters that only repeat it: private to a plugin, not taken by the test."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return []
    info = getattr(item, "_fixtureinfo", None)
    taken = set(getattr(info, "argnames", ()) or ())  # the test function's own arguments
    return [name for name in callspec.params if name.startswith("__") and name not in taken]


def _is_id_of(part: str, name: str, value: object) -> bool:
    """Whether ``part`` is an id pytest (or a plugin) gives the parameter ``name`` for ``value``: ``str(value)``,
    pytest-repeat's ``<value + 1>-<count>``, or pytest's fallback ``<name><index>``."""
    if part == str(value):
        return True
    if isinstance(value, int) and re.fullmatch(rf"{value + 1}-\d+", part):
        return True
    return bool(re.fullmatch(rf"{re.escape(name)}\d+", part))


def _repetition_positions(params: Sequence[str], idlist: Sequence[str], repeats: Sequence[str],
                          values: dict) -> Optional[List[int]]:
    """Where in ``idlist`` (one id per parametrize call) the repetitions' ids are, or None when that cannot be
    told. One id per parameter maps by position; otherwise a repetition parameter added first (flakefinder
    parametrizes first) or last (pytest-repeat last) has the first or last id, when that id is one of its own."""
    if len(idlist) == len(params):
        positions = [params.index(name) for name in repeats]
    else:
        positions = []
        for name in repeats:
            at = {params[0]: 0, params[-1]: len(idlist) - 1}.get(name)
            if at is None:
                return None
            positions.append(at)
    if len(set(positions)) != len(positions):
        return None
    if not all(_is_id_of(idlist[p], name, values[name]) for p, name in zip(positions, repeats)):
        return None
    return positions


def baseline_key(item) -> str:
    """The test's key in its baseline file: the node id without the file part, and without the ids of the
    parameters that only repeat the test (:func:`repetition_params`)."""
    key = item.nodeid.split("::", 1)[1] if "::" in item.nodeid else item.name
    repeats = repetition_params(item)
    if not repeats:
        return key
    callspec = item.callspec
    idlist = list(getattr(callspec, "_idlist", ()) or ())
    full = "-".join(idlist)
    if not idlist or not key.endswith(f"[{full}]"):
        return key  # a name pytest did not build from the ids: left as it is
    positions = _repetition_positions(list(callspec.params), idlist, repeats, callspec.params)
    if positions is None:
        return key
    kept = [part for i, part in enumerate(idlist) if i not in positions]
    stem = key[:-len(full) - 2]
    return f"{stem}[{'-'.join(kept)}]" if kept else stem


def _repeated_on_request(item) -> bool:
    """Whether the item repeats only because the command line asked (``--count``, ``--flake-finder``): a command
    printed without that option runs the test once, under the id its baseline knows. Repeated by a marker, or by
    options in addopts, every run of it has its repetition's id."""
    if item.get_closest_marker("repeat") is not None:
        return False
    args = getattr(getattr(getattr(item, "config", None), "invocation_params", None), "args", ()) or ()
    return any(str(a).startswith(("--count", "--flake-finder", "--flake-runs")) for a in args)


def command_id(item) -> str:
    """The id a printed command gives pytest for this test: its file part and :func:`baseline_key`, so that one
    command re-records every repetition's entry, and runs without the repeating plugin's options (a parametrized
    test repeated by a marker or addopts keeps its run's id, which is the one that selects it); the file part
    relative to where pytest was started, as pytest's own lines give it."""
    nodeid = item.nodeid
    if "::" in nodeid:
        key = baseline_key(item)
        params = "[" in key.rsplit("::", 1)[-1]
        if not params or _repeated_on_request(item):  # else the key's id selects nothing while the runs repeat
            nodeid = f"{nodeid.split('::', 1)[0]}::{key}"
    config = getattr(item, "config", None)
    if config is None:
        return nodeid
    return runnable_id(nodeid, config.rootpath, config.invocation_params.dir)

