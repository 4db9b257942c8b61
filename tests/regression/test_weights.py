"""Cost weights: loading and validating tables, costs derived by hand from javap, and the CLI's --weights."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pytest_bytecount.regression.weights import DEFAULT_FILE, WeightsError, load_weights
from tests.support.javac import compile_java
from tests.support.jdk import JDK17
from tests.support.paths import BY_HAND


# javap -c of hand.Costs (javac --release 17), counted by hand for average(new int[] {4, 5, 6}):
#    0: iconst_0  1: istore_1  2: aload_0  3: astore_2  4: aload_2  5: arraylength  6: istore_3
#    7: iconst_0  8: istore 4                                                  once: 9 instructions
#   10: iload 4  12: iload_3  13: if_icmpge 33                                 4 times (3 elements + exit)
#   16: aload_2  17: iload 4  19: iaload  20: istore 5  22: iload_1  23: iload 5  25: iadd  26: istore_1
#   27: iinc 4, 1  30: goto 10                                                  3 times
#   33: iload_1  34: aload_0  35: arraylength  36: idiv  37: ireturn           once
AVERAGE = {"calls": {}, "invocations": 1, "total": 56, "opcodes": {
    "iconst_0": 2, "istore_1": 4, "aload_0": 2, "astore_2": 1, "aload_2": 4, "arraylength": 2, "istore_3": 1,
    "istore": 4, "iload": 10, "iload_3": 4, "if_icmpge": 4, "iaload": 3, "iload_1": 4, "iadd": 3, "iinc": 3,
    "goto": 3, "idiv": 1, "ireturn": 1}}
# label(7) and label(8): 0: new StringBuilder  3: dup  4: invokespecial StringBuilder.<init>()V  7: astore_1
#   8: aload_1  9: iload_0  10: invokevirtual append(I)  13: pop  14: aload_1  15: invokevirtual toString()
#   18: areturn                                                                 twice
LABEL = {"invocations": 2, "total": 22, "opcodes": {
    "new": 2, "dup": 2, "invokespecial": 2, "astore_1": 2, "aload_1": 4, "iload_0": 2, "invokevirtual": 4,
    "pop": 2, "areturn": 2}, "calls": {
    "java/lang/StringBuilder.<init>()V": 2, "java/lang/StringBuilder.append(I)Ljava/lang/StringBuilder;": 2,
    "java/lang/StringBuilder.toString()Ljava/lang/String;": 2}}

# With the default table (default.toml):
#   average: 56 instructions at weight 1, except iaload 3 x 2, arraylength 2 x 1, idiv 1 x 10:
#            (56 - 3 - 2 - 1) x 1 + 6 + 2 + 10 = 68
#   label:   per call new 15 + dup 1 + invokespecial 5 + astore_1 1 + aload_1 2 x 1 + iload_0 1
#            + invokevirtual 2 x 6 + pop 1 + areturn 1 = 39, plus three StringBuilder calls, none listed
#            in the table, at the default 10: 39 + 30 = 69, twice: 138
AVERAGE_DEFAULT_COST = 68
LABEL_DEFAULT_COST = 138


def table(tmp_path: Path, text: str, name: str = "weights.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_the_default_table_weighs_counts_derived_by_hand():
    default = load_weights("default")
    assert default.cost(AVERAGE) == AVERAGE_DEFAULT_COST
    assert default.cost(LABEL) == LABEL_DEFAULT_COST
    assert default.cost({"calls": {}, "opcodes": {}}) == 0


def test_a_table_of_its_own_with_defaults_and_signature_patterns(tmp_path):
    weights = load_weights(table(tmp_path, '''
        [opcodes]
        default = 0
        idiv = 100
        [calls]
        default = 1
        "java/lang/StringBuilder.append*" = 7
    '''))
    assert weights.cost(AVERAGE) == 100  # only the one idiv weighs anything
    assert weights.cost(LABEL) == 2 * (1 + 7 + 1)  # <init> and toString at the default, append by pattern


def test_without_defaults_an_opcode_weighs_1_and_a_call_0(tmp_path):
    weights = load_weights(table(tmp_path, "[opcodes]\nidiv = 10\n"))
    assert weights.cost(AVERAGE) == 55 + 10
    assert weights.cost(LABEL) == 22


def test_a_table_extends_the_default_and_overrides_a_few_keys(tmp_path):
    weights = load_weights(table(tmp_path, '''
        extends = "default"
        [opcodes]
        new = 100
        [calls]
        "java/lang/StringBuilder.*" = 0
    '''))
    assert weights.cost(AVERAGE) == AVERAGE_DEFAULT_COST
    assert weights.cost(LABEL) == 2 * (39 - 15 + 100)  # StringBuilder calls now free, new at 100
    assert weights.call_weight("java/lang/IllegalStateException.<init>()V") == 50  # still the default table's


def test_exact_signatures_win_then_the_first_pattern_in_file_order(tmp_path):
    weights = load_weights(table(tmp_path, '''
        [calls]
        "java/util/*" = 3
        "java/util/Arrays.*" = 4
        "java/util/Arrays.sort([I)V" = 5
        "indy makeConcatWithConstants*" = 30
    '''))
    assert weights.call_weight("java/util/Arrays.sort([I)V") == 5  # '[' is literal, not a character class
    assert weights.call_weight("java/util/Arrays.fill([II)V") == 3  # "java/util/*" comes first in the file
    assert weights.call_weight("indy makeConcatWithConstants(I)Ljava/lang/String;") == 30
    assert weights.call_weight("java/lang/Math.max(II)I") == 0


@pytest.mark.parametrize("text, message", [
    ("[opcodes]\nidvi = 10\n", "[opcodes] 'idvi': not a JVM opcode mnemonic as javap prints it; did you mean idiv"),
    ("[opcodes]\nwide = 2\n", "[opcodes] 'wide': 'wide' is never counted"),
    ("[opcodes]\nidiv = -1\n", "[opcodes] 'idiv' = -1: a weight must be a whole number >= 0"),
    ("[opcodes]\nidiv = 2.5\n", "[opcodes] 'idiv' = 2.5: a weight must be a whole number >= 0"),
    ("[opcodes]\nidiv = true\n", "[opcodes] 'idiv' = True: a weight must be a whole number >= 0"),
    ('[calls]\n"java/lang/String.*" = "20"\n', "[calls] 'java/lang/String.*' = '20': a weight must be a whole number"),
    ("[calls]\njava.lang = 2\n", "[calls] 'java' is a table; quote signatures that contain dots"),
    ("opcodes = 3\n", "opcodes must be a table ([opcodes]), not int"),
    ("[opcode]\nidiv = 10\n", "unknown key(s) ['opcode']; a table holds extends, opcodes, calls"),
    ("[opcodes]\nidiv = \n", "is not valid TOML"),
    ('extends = 3\n', "extends must be 'default' or the path of another table, not 3"),
])
def test_a_bad_table_is_an_error_naming_the_file_the_key_and_the_value(tmp_path, text, message):
    path = table(tmp_path, text)
    with pytest.raises(WeightsError) as e:
        load_weights(path)
    assert f"weight table {path}" in str(e.value)
    assert message in str(e.value)


def test_missing_files_and_cycles_are_errors(tmp_path):
    with pytest.raises(WeightsError, match=r"weight table .*nope\.toml not found; pass 'default' or the path"):
        load_weights("nope.toml", base_dir=tmp_path)
    table(tmp_path, 'extends = "b.toml"\n', "a.toml")
    table(tmp_path, 'extends = "a.toml"\n', "b.toml")
    with pytest.raises(WeightsError, match=r"extend each other in a cycle: .*a\.toml -> .*b\.toml -> .*a\.toml"):
        load_weights(tmp_path / "a.toml")
    table(tmp_path, 'extends = "missing.toml"\n', "c.toml")
    with pytest.raises(WeightsError, match=r"missing\.toml not found"):
        load_weights(tmp_path / "c.toml")


def test_the_default_table_orders_its_groups_as_its_rationale_says():
    w = load_weights("default").opcode_weight
    simple = [w(op) for op in ("iload_0", "istore", "iconst_1", "dup", "iadd", "ladd", "ishl", "iinc", "goto",
                               "if_icmplt", "ireturn", "ldc")]
    assert set(simple) == {1}
    assert 1 < w("imul") < w("idiv") <= w("ldiv")
    assert w("dadd") < w("ddiv") < w("drem")
    assert w("getfield") < w("putfield") and w("iaload") < w("aastore")
    assert w("invokestatic") <= w("invokevirtual") <= w("invokeinterface") < w("new") < w("multianewarray")
    assert w("athrow") > w("new") and w("monitorenter") > w("invokeinterface")
    text = DEFAULT_FILE.read_text()
    assert "RELATIVE MODEL, NOT TIME" in text and "jvms-6.html" in text


# --- the CLI: python -m pytest_bytecount count --weights, and cost ---------------------------------------

@pytest.fixture(scope="module")
def by_hand() -> Path:
    return compile_java(BY_HAND, release="17")


def bytecount(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest_bytecount", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=300)


def test_count_with_weights_adds_the_cost_derived_by_hand(by_hand):
    result = bytecount("count", "--java-home", JDK17, "--classpath", str(by_hand), "--target", "hand.Costs#average",
                       "--target", "hand.Costs#label", "--weights", "default", "hand.Costs")
    assert result.returncode == 0, result.stderr
    # per-line counts are derived by hand in tests/cli/test_cli.py
    counts = {m: {k: v for k, v in c.items() if k not in ("code_fingerprint", "line_digests", "lines")}
              for m, c in json.loads(result.stdout).items()}
    assert counts["hand.Costs#average([I)I"] == {**AVERAGE, "cost": AVERAGE_DEFAULT_COST}
    assert counts["hand.Costs#label(I)Ljava/lang/String;"] == {**LABEL, "cost": LABEL_DEFAULT_COST}
    assert '"cost": 68, "invocations": 1,' in result.stdout  # one method a line
    assert all(list(c) == sorted(c) for c in json.loads(result.stdout).values())  # keys sorted


def test_cost_weighs_a_counts_file_written_without_weights(tmp_path):
    counts = tmp_path / "counts.json"
    counts.write_text(json.dumps({"hand.Costs#average([I)I": AVERAGE}))
    result = bytecount("cost", "--weights", "default", str(counts))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hand.Costs#average([I)I"]["cost"] == AVERAGE_DEFAULT_COST


def test_the_cli_reports_a_bad_weight_table_before_running_anything(tmp_path):
    bad = table(tmp_path, "[opcodes]\nidvi = 10\n")
    result = bytecount("count", "--classpath", str(tmp_path), "--target", "x.Y", "--weights", str(bad), "x.Y")
    assert result.returncode == 2
    assert f"bytecount: error: weight table {bad}: [opcodes] 'idvi'" in result.stderr
    assert "using Java" not in result.stderr
