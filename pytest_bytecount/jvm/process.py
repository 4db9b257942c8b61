"""What this process's JVM holds once it runs, on one object (:func:`process_jvm`).

JPype gives a process one JVM, and it never restarts. What the plugin makes in it once (the agent's
``Instrumentation``, the Python classes that implement Java interfaces, the class that defines counted copies
and the loader that defined it, the deep counting set up in it, or why it could not be) lives as long as
that JVM, so it is kept here rather than in the modules that make it: one place says what a process's JVM
carries, and nothing else in ``jvm/`` keeps state of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class ProcessJvm:
    """Each field is made at its first use (by the module named) and kept for the JVM's life."""

    instrumentation: Any = None  # agent.instrumentation: the agent's Instrumentation
    transformer_class: Optional[type] = None  # agent.transformer_class: a ClassFileTransformer in Python
    loader_class: Any = None  # loaders: the Loader class that defines counted copies
    loader_definer: Any = None  # loaders: the URLClassLoader that defined it (kept reachable)
    hook_class: Optional[type] = None  # loaders: a java.util.function.Function in Python
    deep: Any = None  # deep.deep_counting: its DeepCounting, or the DeepUnavailable that says why not


_THIS_PROCESS = ProcessJvm()


def process_jvm() -> ProcessJvm:
    """This process's :class:`ProcessJvm`."""
    return _THIS_PROCESS
