"""Command-line mistakes pytest cannot see: an option's value given after a space, where pytest, which looks
for its root folder before it knows this plugin's options, takes the value for a folder to test."""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path
from typing import Optional, Sequence

# the options that take a value, with the placeholder --help shows for it (the README's; --bytecount-weights
# shows its values, FILE|default|none)
VALUE_OPTIONS = {
    "--bytecount-classpath": "CP",
    "--bytecount-classpath-file": "FILE",
    "--bytecount-sources": "DIRS",
    "--bytecount-javac-option": "OPT",
    "--bytecount-compile-classpath": "CP",
    "--bytecount-source-path": "PATHS",
    "--bytecount-java-home": "DIR",
    "--bytecount-jvm": "NAME",
    "--bytecount-jvm-option": "OPT",
    "--bytecount-baseline-dir": "DIR",
    "--bytecount-tolerance": "SPEC",
    "--bytecount-budget": "SPEC",
    "--bytecount-json": "FILE",
    "--bytecount-html": "DIR",
    "--bytecount-profiles": "DIR",
    "--bytecount-weights": "FILE",
    "--bytecount-pr-comment": "FILE",
    "--bytecount-compare-ref": "REF",
    "--bytecount-shard": "NAME",
}


def misplaced_value(args: Sequence[str], cwd: Path) -> Optional[str]:
    """What is wrong with ``args`` (pytest's command line, addopts included), or None: an option of this
    plugin followed by its value as a separate argument that names an existing path outside the folder
    pytest runs in (pytest took its root folder from it: a JDK, say), or ``--bytecount-update new``. A path
    inside the project (``build/cp.txt``) leaves pytest's root where the project's configuration is."""
    args = list(args)

    def outside(value: str) -> bool:
        path = (cwd / value).resolve()
        return path.exists() and Path(cwd).resolve() not in (path, *path.parents)

    for i, arg in enumerate(args[:-1]):
        value = args[i + 1]
        if arg == "--bytecount-update" and value in ("new", "conflicted") and not (cwd / value).exists():
            return (f"write --bytecount-update={value}, with '=': after a space, pytest takes {value!r} for a file or "
                    f"folder to test")
        if arg in VALUE_OPTIONS and not value.startswith("-") and outside(value):
            return (f"give {arg} its value with '=': {arg}={value}. After a space, pytest takes {value} for a "
                    f"folder to test and looks for its root folder there (it does so before it knows "
                    f"pytest-bytecount's options), and would write its .pytest_cache into it")
    return None


DEEP_VALUES = {"yes": True, "true": True, "no": False, "false": False}


def deep_choice(value: str) -> bool:
    """``--bytecount-deep=VALUE``: yes or no. After a space pytest's parser takes the next word for the value, so a
    path there is named as such."""
    chosen = DEEP_VALUES.get(str(value).strip().lower())
    if chosen is None:
        raise argparse.ArgumentTypeError(
            f"expected yes or no, got {value!r}; give it with '=' (--bytecount-deep=no), and a path to test before "
            f"the flag alone, not after it")
    return chosen


# the options that decide what a re-recording counts and where it writes: a command the summary prints for
# re-recording repeats those given on the command line (addopts apply by themselves)
RECORDING_OPTIONS = ("--bytecount-classpath", "--bytecount-classpath-file", "--bytecount-sources",
                     "--bytecount-javac-option", "--bytecount-compile-classpath", "--bytecount-java-home",
                     "--bytecount-jvm", "--bytecount-jvm-option", "--bytecount-baseline-dir", "--bytecount-weights",
                     "--bytecount-budget")
RECORDING_FLAGS = ("--bytecount-in-place", "--bytecount-deep")  # the same, without a value (or with one after '=')


def recording_options(args: Sequence[str]) -> tuple:
    """The options of ``args`` among :data:`RECORDING_OPTIONS`, each as ``--option=value``, and
    :data:`RECORDING_FLAGS`, in their order."""
    out = []
    args = list(args)
    for i, arg in enumerate(args):
        name, eq, value = str(arg).partition("=")
        if str(arg) == "--bytecount-deep" and i + 1 < len(args) and str(args[i + 1]).lower() in DEEP_VALUES:
            out.append(f"--bytecount-deep={args[i + 1]}")  # its value given after a space
        elif str(arg) in RECORDING_FLAGS or (name in RECORDING_FLAGS and eq):
            out.append(str(arg))
        elif name in RECORDING_OPTIONS and eq:
            out.append(f"{name}={value}")
        elif name in RECORDING_OPTIONS and i + 1 < len(args):
            out.append(f"{name}={args[i + 1]}")
    return tuple(out)


def runnable_id(nodeid: str, rootpath: Path, cwd: Path) -> str:
    """A node id (its file part relative to the rootdir) as pytest takes it from ``cwd``, where the user stands: a
    command printed from a subfolder of the rootdir runs as printed there."""
    file, sep, rest = nodeid.partition("::")
    if Path(cwd) == Path(rootpath) or not file:
        return nodeid
    shown = os.path.relpath(Path(rootpath) / file, cwd)
    return Path(shown).as_posix() + sep + rest


def update_command(nodeids: Sequence[str], options: Sequence[str] = (), update: str = "--bytecount-update") -> str:
    """``pytest IDS [OPTIONS] --bytecount-update``, each part quoted for a POSIX shell."""
    return " ".join(["pytest", *(shlex.quote(n) for n in nodeids), *(shlex.quote(o) for o in options), update])
