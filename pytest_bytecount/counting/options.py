"""How a marker's targets are counted: one frozen value, merged once from the marker, the settings and the command
line (``BytecountMarker.counting_options``), that travels unchanged to the JVM side that counts them
(``counting.pipeline.per_class.ClassCounter``). Equal values
share their loaders for the session."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CountingOptions:
    targets: tuple  # the marker's target patterns, as written
    strategy: str = "block"  # where the counters go: "block" (counters on some blocks, the rest derived) or
    # "instruction" (a counter per instruction kind); the command line's --strategy, block for every marker
    abrupt: bool = False  # also tally invocations that end by an exception
    allocations: bool = False  # also count the objects and arrays each method allocates
    inclusive: bool = False  # each target's count includes the application methods it calls
    in_place: bool = False  # counted where the application loads the classes (jvm.in_place)
    deep: bool = False  # also each target's work anywhere, the JDK included (jvm.deep)
