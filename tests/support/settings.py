"""The command-line options ``plugin.config.load_settings`` reads, for reading settings without a pytest run."""

from __future__ import annotations

import argparse


def option(**given) -> argparse.Namespace:
    """The ``--bytecount-*`` options load_settings reads, none given but ``given`` (``bytecount_<name>=value``)."""
    names = ("classpath", "classpath_file", "sources", "compile_classpath", "java_home", "jvm", "source_path",
             "baseline_dir", "tolerance", "budget", "weights")
    values = {f"bytecount_{name}": None for name in names} | {"bytecount_jvm_options": [], "bytecount_javac_options": [],
                                                             "bytecount_in_place": False, "bytecount_deep": None}
    return argparse.Namespace(**(values | given))
