"""The JVM options deep counts need, and the check that a running JVM has them (:mod:`.deep`).

Deep counts need class-data sharing off and the JIT's intrinsics of methods with a Java body off: both change
the JDK's work (docs/deep.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

# -Xshare:off: no class-data sharing. The others keep the JIT from replacing a counted JDK method that has a
# Java body by its intrinsic (compiled callers would skip its counters): -XX:-InlineNatives turns off the JIT's
# intrinsics but those of String and Arrays, which C2 (the server VM) has flags of its own for.
# The property keeps reflection on its native accessors up to JDK 17 (which would generate bytecode at a Method's
# 16th call): a reflective call then does the same work whatever ran before. (JDK 18+ reflects through method
# handles, made at a Method's first call and interned by identity hash codes: docs/deep.md.)
REFLECTION_OPTION = "-Dsun.reflect.inflationThreshold=2147483647"
# Soft references are cleared only when the heap runs out (the collector's default clears one not read for a second
# per free MB): a soft cache the JDK keeps (inflaters, reflection data, ...) then holds from run to run, instead of
# being emptied and filled again as the collector's clock says (docs/deep.md).
SOFT_REFERENCES_OPTION = "-XX:SoftRefLRUPolicyMSPerMB=100000000"
DEEP_JVM_OPTIONS = ("-Xshare:off", "-XX:+UnlockDiagnosticVMOptions", "-XX:-InlineNatives", REFLECTION_OPTION,
                    SOFT_REFERENCES_OPTION)
C2_OPTIONS = ("-XX:-SpecialStringCompareTo", "-XX:-SpecialStringIndexOf", "-XX:-SpecialStringEquals",
              "-XX:-SpecialArraysEquals", "-XX:-SpecialEncodeISOArray", "-XX:-OptimizeStringConcat")
# the HotSpot options that must be off, as a running JVM reports them
_MUST_BE_OFF = {"UseSharedSpaces": "class-data sharing", "InlineNatives": "InlineNatives",
                **{o[5:]: o[5:] for o in C2_OPTIONS}}
# (the C2 flags turned off too: StringBuilder chains fused into one allocation skip the builder's counted code)


# JIT intrinsics of methods with a Java body that -XX:-InlineNatives leaves on (HotSpot's vmIntrinsics): String's
# and Arrays' loops, Unsafe's get-and-add and get-and-set loops, Reference.get. Those the JVM knows are turned off
# with -XX:DisableIntrinsic (a name it does not know would stop it from starting).
KEPT_INTRINSICS = (
    "_indexOfL", "_indexOfU", "_indexOfUL", "_indexOfIL", "_indexOfIU", "_indexOfIUL", "_indexOfU_char",
    "_indexOfL_char", "_compareToL", "_compareToU", "_compareToLU", "_compareToUL", "_equalsL", "_equalsU",
    "_equalsC", "_equalsB", "_getCharStringU", "_putCharStringU", "_compressStringC", "_compressStringB",
    "_inflateStringC", "_inflateStringB", "_hasNegatives", "_countPositives", "_vectorizedMismatch",
    "_encodeISOArray", "_encodeByteISOArray", "_encodeAsciiArray", "_getAndAddInt", "_getAndAddLong",
    "_getAndAddByte", "_getAndAddShort", "_getAndSetInt", "_getAndSetLong", "_getAndSetByte", "_getAndSetShort",
    "_getAndSetReference", "_Reference_get", "_Reference_get0", "_copyOf", "_copyOfRange", "_Preconditions_checkIndex",
    "_Preconditions_checkLongIndex", "_min", "_max", "_iabs", "_labs", "_fabs", "_dabs", "_dsqrt", "_dsqrt_strict",
    "_vectorizedHashCode", "_bitCount_i", "_bitCount_l", "_numberOfLeadingZeros_i", "_numberOfLeadingZeros_l",
    "_numberOfTrailingZeros_i", "_numberOfTrailingZeros_l", "_reverseBytes_i", "_reverseBytes_l", "_reverseBytes_c",
    "_reverseBytes_s", "_reverse_i", "_reverse_l", "_compress_i", "_compress_l", "_expand_i", "_expand_l",
    "_isDigit", "_isLowerCase", "_isUpperCase", "_isWhitespace", "_multiplyToLen", "_squareToLen", "_mulAdd",
    "_montgomeryMultiply", "_montgomerySquare", "_bigIntegerRightShiftWorker", "_bigIntegerLeftShiftWorker",
    "_base64_encodeBlock", "_base64_decodeBlock", "_sha_implCompress", "_sha2_implCompress", "_sha5_implCompress",
    "_sha3_implCompress", "_md5_implCompress", "_digestBase_implCompressMB", "_updateBytesCRC32C",
    "_updateDirectByteBufferCRC32C", "_Class_cast", "_addExactI", "_addExactL", "_subtractExactI", "_subtractExactL",
    "_multiplyExactI", "_multiplyExactL", "_negateExactI", "_negateExactL", "_incrementExactI", "_incrementExactL",
    "_decrementExactI", "_decrementExactL", "_multiplyHigh", "_unsignedMultiplyHigh", "_divideUnsigned_i",
    "_divideUnsigned_l", "_remainderUnsigned_i", "_remainderUnsigned_l", "_Boolean_valueOf", "_Byte_valueOf",
    "_Character_valueOf", "_Short_valueOf", "_Integer_valueOf", "_Long_valueOf", "_Float_valueOf", "_Double_valueOf",
    "_minF", "_maxF", "_minD", "_maxD", "_minL", "_maxL", "_ceil", "_floor", "_rint", "_roundD", "_roundF",
    "_copySignD", "_copySignF", "_signumD", "_signumF", "_floatIsInfinite", "_floatIsFinite", "_doubleIsInfinite",
    "_doubleIsFinite", "_getCharsStringU", "_getCharsLatin1", "_checkIndex", "_Objects_checkIndex",
    "_getShortUnaligned", "_getCharUnaligned", "_getIntUnaligned", "_getLongUnaligned", "_putShortUnaligned",
    "_putCharUnaligned", "_putIntUnaligned", "_putLongUnaligned")


def intrinsic_names(libjvm: Path) -> frozenset:
    """The intrinsic names a HotSpot libjvm knows: its table of names, a run of ``_name`` strings that begins
    with ``_hashCode``, ``_getClass`` (empty when it has none, as Zero's)."""
    try:
        data = libjvm.read_bytes()
    except OSError:
        return frozenset()
    # the table's first string need not follow a NUL (Debian's 17.0.19 build has other data right before it)
    at = data.find(b"_hashCode\0_getClass\0")
    while at > 0 and (data[at - 1:at].isalnum() or data[at - 1:at] == b"_"):
        at = data.find(b"_hashCode\0_getClass\0", at + 1)
    if at < 0:
        return frozenset()
    names = []
    for token in data[at:at + 200_000].split(b"\0"):
        if not token.startswith(b"_") or not token[1:].replace(b"_", b"").isalnum():
            break
        names.append(token.decode("ascii"))
    return frozenset(names)


def deep_jvm_options(variant: str, libjvm: Optional[Path] = None) -> list:
    """The options a JVM of ``variant`` (server, client, zero) starts with for deep counts."""
    options = [*DEEP_JVM_OPTIONS, *(C2_OPTIONS if variant == "server" else ())]
    known = intrinsic_names(Path(libjvm)) if libjvm is not None and variant != "zero" else frozenset()
    kept = [n for n in KEPT_INTRINSICS if n in known]
    if kept:
        options.append("-XX:DisableIntrinsic=" + ",".join(kept))
    return options


WHY = ("Class-data sharing changes the JDK's work (archived strings carry their hash codes), and the JIT's "
        "intrinsics replace counted JDK methods in compiled code. pytest-bytecount starts its JVM so when a collected "
        "test takes deep counts (every marked test, unless deep=False), and so does an application's own "
        "jpype.startJVM after collection; a JVM started by pytest_bytecount.start_jvm(...) needs deep=True, one "
        "started otherwise these options.")


def lacking_options(arguments: Sequence[str] = ()) -> list:
    """The options deep counts need that the running JVM lacks: class-data sharing on, JIT intrinsics on. Read from
    the JVM's own options (``arguments``, as it started with them) when they turn every one of them off, as the
    plugin's options do; else asked of the JVM (its diagnostic bean, which loads about a hundred classes)."""
    import jpype

    if _turned_off(arguments):
        return []
    try:
        bean = jpype.JClass("java.lang.management.ManagementFactory").getPlatformMXBean(
            jpype.JClass("com.sun.management.HotSpotDiagnosticMXBean"))
    except Exception:  # noqa: BLE001 - no such bean: no HotSpot options to worry about
        return []
    out = []
    for option, shown in _MUST_BE_OFF.items():
        try:
            if str(bean.getVMOption(option).getValue()) == "true":
                out.append(shown)
        except Exception:  # noqa: BLE001 - a VM without that option (Zero, client): nothing to turn off
            pass
    return out


# what else may set a HotSpot flag: options read from files, and from the environment
_ELSEWHERE = ("-XX:Flags=", "-XX:VMOptionsFile=", "-XX:+ReadVMOptionsFile")
_ENVIRONMENT = ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")


def _turned_off(arguments: Sequence[str]) -> bool:
    """Whether ``arguments`` turn off every flag of :data:`_MUST_BE_OFF`, each by its last word on it, with nothing
    else that may set a flag (a flags file, the environment's options)."""
    arguments = [str(a) for a in arguments]
    if not arguments or any(a.startswith(_ELSEWHERE) for a in arguments) or any(os.environ.get(e) for e in _ENVIRONMENT):
        return False
    for flag in _MUST_BE_OFF:
        if any(a.startswith(f"-XX:{flag}=") for a in arguments):
            return False  # said another way: the JVM is asked
        said = [a for a in arguments if a in (f"-XX:+{flag}", f"-XX:-{flag}")
                or (flag == "UseSharedSpaces" and a.startswith("-Xshare:"))]
        if not said or said[-1] not in (f"-XX:-{flag}", "-Xshare:off"):
            return False
    return True
