"""The mains of the counting fixtures (fixtures-java/counting and fixtures-java/counting-legacy) and what each counts.

Each main is a deterministic workload: the same stdout and the same executed bytecodes on every JVM
(HotSpot 17, Zero, HotSpot 25). The exactness tests run a main with its TARGET_CLASSES counted and
compare our counts with a JVMTI single-step oracle's. Targets are user classes only: the main's class
and its nested classes, including synthetic ones javac makes for us (the enum-switch map Switches$1),
never JDK classes or the hidden classes behind lambdas.

The ``counting_classes`` session fixture (tests/conftest.py) compiles the builds named in BUILD_MAINS.
"""

from __future__ import annotations

from typing import Dict, List

# Package `counting`, compiled by javac --release 17 and --release 8 (the same class files by name).
COUNTING_MAINS: List[str] = [
    "counting.Loops",  # for/while/do-while, nested, labeled, enhanced for, loop heads at pc 0
    "counting.Switches",  # tableswitch, lookupswitch, fall-through, string switch, enum switch
    "counting.Exceptions",  # caught inside; escaping 1..n frames, through finally, a lambda, a JDK call
    "counting.Monitors",  # synchronized methods and blocks, exceptions through both
    "counting.Constructors",  # branches before super(...)/this(...) and between new and <init>
    "counting.Recursion",  # fib, ackermann, mutual recursion, recursive instance methods
    "counting.Numeric",  # long/double/float locals, comparisons, conversions, ldiv by zero
    "counting.WideLocals",  # more than 255 locals: wide loads, stores and iinc
    "counting.Functional",  # lambdas, method references, `+` concatenation, default/static interface methods
    "counting.StaticInit",  # <clinit> with loops; nested ones first used by getstatic, invokestatic, new, putstatic
    "counting.BigMethod",  # 15.7 KB / 11.9 KB methods whose branches overflow once counting code is added
    "counting.Concurrent",  # one method invoked from 8 threads at once
    "counting.Dispatch",  # invokeinterface/virtual/special/static, fields, default methods, nestmate access
    "counting.ArraysAndTypes",  # every array opcode, multianewarray, instanceof/checkcast, array clone()
    "counting.ManyReturns",  # dozens of returns per method: every return jumps to one shared exit
    "counting.Derived",  # loops whose counts derive from their own locals, and loops built to break that
]

# Package `countinglegacy`, compiled by ecj for class versions 45.3 and 48.0 (finally as jsr/ret).
LEGACY_MAINS: List[str] = [
    "countinglegacy.Subroutines",  # jsr/ret finally: return, catch, nesting, break/continue, escaping
    "countinglegacy.LoopsAndSwitches",  # while opening with goto, do-while at pc 0, switches, StringBuffer
    "countinglegacy.Recursion",  # fib, ackermann, gcd, an exception escaping a recursion
    "countinglegacy.Monitors",  # synchronized methods/blocks, a block inside finally, 4 threads
]

# Which builds hold which mains: the keys of the `counting_classes` fixture.
BUILD_MAINS: Dict[str, List[str]] = {
    "javac17": COUNTING_MAINS,
    "javac8": COUNTING_MAINS,
    "ecj45": LEGACY_MAINS,
    "ecj48": LEGACY_MAINS,
}

# main -> internal names of the classes whose methods are counted for it (the same in every build).
TARGET_CLASSES: Dict[str, List[str]] = {
    "counting.Loops": ["counting/Loops"],
    "counting.Switches": ["counting/Switches", "counting/Switches$1", "counting/Switches$Color"],
    "counting.Exceptions": ["counting/Exceptions", "counting/Exceptions$Fail", "counting/Exceptions$Resource"],
    "counting.Monitors": ["counting/Monitors"],
    "counting.Constructors": [
        "counting/Constructors",
        "counting/Constructors$Base",
        "counting/Constructors$Checked",
        "counting/Constructors$Derived",
        "counting/Constructors$Pair",
        "counting/Constructors$Point",
    ],
    "counting.Recursion": ["counting/Recursion", "counting/Recursion$Node"],
    "counting.Numeric": ["counting/Numeric"],
    "counting.WideLocals": ["counting/WideLocals"],
    "counting.Functional": [
        "counting/Functional",
        "counting/Functional$Box",
        "counting/Functional$Shape",
        "counting/Functional$Square",
    ],
    "counting.StaticInit": [
        "counting/StaticInit",
        "counting/StaticInit$Holder",
        "counting/StaticInit$Lazy",
        "counting/StaticInit$Planet",
        "counting/StaticInit$Sink",
    ],
    "counting.BigMethod": ["counting/BigMethod"],
    "counting.ManyReturns": ["counting/ManyReturns"],
    "counting.Derived": ["counting/Derived"],
    "counting.Concurrent": ["counting/Concurrent", "counting/Concurrent$Worker"],
    "counting.Dispatch": [
        "counting/Dispatch",
        "counting/Dispatch$Animal",
        "counting/Dispatch$Base",
        "counting/Dispatch$Bird",
        "counting/Dispatch$Dog",
        "counting/Dispatch$Snake",
    ],
    "counting.ArraysAndTypes": [
        "counting/ArraysAndTypes",
        "counting/ArraysAndTypes$Cell",
        "counting/ArraysAndTypes$Wall",
    ],
    "countinglegacy.Subroutines": ["countinglegacy/Subroutines"],
    "countinglegacy.LoopsAndSwitches": ["countinglegacy/LoopsAndSwitches"],
    "countinglegacy.Recursion": ["countinglegacy/Recursion"],
    "countinglegacy.Monitors": ["countinglegacy/Monitors", "countinglegacy/Monitors$1"],
}
