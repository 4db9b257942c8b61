"""The text form of ``classfile.assemble``: every construct it reads, the class it writes (decoded again by the
engine, and run on a real JVM), and an error naming the line for every kind of bad line."""

from __future__ import annotations

import subprocess

import pytest

from pytest_bytecount.classfile import ClassFile, Label
from pytest_bytecount.classfile import constant_pool as cpool
from pytest_bytecount.classfile.assemble import AssemblyError, assemble
from pytest_bytecount.counting.instr.runtime import RUNTIME_CLASS, build_runtime_class
from pytest_bytecount.counting.links.linkage import INCLUSIVE_BY_CLASS, inclusive_by_class_bytes
from pytest_bytecount.counting.pipeline.report import REPORT_CLASS, report_class_bytes

from tests.support.jdk import find_jdk_tool

HEADER = """
.class public final super demo/Asm      ; a comment after a directive
.super java/lang/Object
.version 49
"""


def listing(data: bytes, method: str) -> list:
    """(mnemonic, operand) per instruction of ``method``, operands as names where they are pool indexes."""
    cf = ClassFile.parse(data)
    cp = cf.constant_pool
    code = next(m for m in cf.methods if m.name == method).code
    out = []
    for insn in code.instructions:
        arg = insn.arg
        if insn.mnemonic in ("getstatic", "putstatic", "getfield", "putfield", "invokestatic", "invokevirtual",
                             "invokespecial"):
            arg = cp.member_ref(arg)
        elif insn.mnemonic in ("new", "anewarray", "checkcast", "instanceof"):
            arg = cp.class_name(arg)
        elif insn.mnemonic in ("ldc", "ldc_w"):
            entry = cp[arg]
            arg = cp.utf8(entry[1]) if entry[0] in (cpool.STRING, cpool.CLASS) else entry[1]
        elif isinstance(arg, Label):
            arg = "label"
        out.append((insn.mnemonic, arg) if arg is not None else (insn.mnemonic,))
    return out


def method_text(body: str, signature: str = "public static m()V") -> str:
    return f"{HEADER}\n.method {signature}\n{body}\n.end method\n"


def test_the_header_and_fields_become_the_class_and_its_members():
    data = assemble(HEADER + """
.implements java/lang/Runnable
.field private static final COUNT I
.field public name Ljava/lang/String;   // a comment of the other kind
.method public run()V
    return
.end method
""", "Asm.jasm")
    cf = ClassFile.parse(data)
    assert (cf.major_version, cf.name, cf.super_name) == (49, "demo/Asm", "java/lang/Object")
    assert cf.access_flags == 0x0001 | 0x0010 | 0x0020
    assert [cf.constant_pool.class_name(i) for i in cf.interfaces] == ["java/lang/Runnable"]
    assert [(f.name, f.descriptor, f.access_flags) for f in cf.fields] == [
        ("COUNT", "I", 0x0002 | 0x0008 | 0x0010), ("name", "Ljava/lang/String;", 0x0001)]
    assert [(m.name, m.descriptor, m.access_flags) for m in cf.methods] == [("run", "()V", 0x0001)]


def test_a_static_fields_reference_follows_its_run_of_field_lines_an_instance_fields_its_first_use():
    data = assemble(HEADER + """
.field private static A I
.field private b I
.method public static m()V
    return
.end method
""", "Asm.jasm")
    cp = ClassFile.parse(data).constant_pool
    refs = [e for e in cp.entries if e is not None and e[0] == cpool.FIELDREF]
    assert [cp.name_and_type(e[2])[0] for e in refs] == ["A"]


def test_named_locals_take_slots_in_order_after_this_and_the_parameters():
    data = assemble(method_text("""
    .args count total
    .local text Ljava/lang/String;
    .local far I at 7
    .local after J
    iload count
    lload total
    aload text
    iload far
    lload after
    aload this
    pop2
    pop2
    pop2
    pop2
    return""", "public m(IJ)V"), "Asm.jasm")
    assert listing(data, "m")[:6] == [("iload_1",), ("lload_2",), ("aload", 4), ("iload", 7), ("lload", 8),
                                      ("aload_0",)]


def test_indexed_keeps_the_two_byte_form_for_the_first_four_slots():
    data = assemble(method_text("""
    .args count
    iload count indexed
    istore count indexed
    iinc count -3
    return""", "public static m(I)V"), "Asm.jasm")
    assert listing(data, "m") == [("iload", 0), ("istore", 0), ("iinc", (0, -3)), ("return",)]


def test_int_operands_constants_and_the_shortest_push():
    data = assemble(method_text("""
    push -1
    push 100
    push -300
    push 40000
    push $N
    bipush 'x'
    sipush 1000
    ldc 7
    ldc_w $N
    return"""), "Asm.jasm", {"N": 5})
    assert listing(data, "m") == [("iconst_m1",), ("bipush", 100), ("sipush", -300), ("ldc", 40000),
                                  ("iconst_5",), ("bipush", 120), ("sipush", 1000), ("ldc", 7), ("ldc_w", 5),
                                  ("return",)]


def test_references_to_fields_methods_classes_and_string_constants():
    data = assemble(HEADER + """
.field private static LAST [J
.method public static m()V
    .pool method java/lang/String.length()I
    .pool "pooled"
    .pool field LAST
    getstatic LAST
    putstatic LAST
    invokestatic java/lang/Thread.currentThread()Ljava/lang/Thread;
    invokevirtual java/lang/Object.hashCode()I
    invokestatic m()V
    new java/util/ArrayList
    anewarray [J
    checkcast java/lang/Runnable
    instanceof java/lang/Runnable
    newarray long
    ldc "a b ; c"
    ldc_w class demo/Asm
    return
.end method
""", "Asm.jasm")
    assert listing(data, "m") == [
        ("getstatic", ("demo/Asm", "LAST", "[J")), ("putstatic", ("demo/Asm", "LAST", "[J")),
        ("invokestatic", ("java/lang/Thread", "currentThread", "()Ljava/lang/Thread;")),
        ("invokevirtual", ("java/lang/Object", "hashCode", "()I")),
        ("invokestatic", ("demo/Asm", "m", "()V")),
        ("new", "java/util/ArrayList"), ("anewarray", "[J"), ("checkcast", "java/lang/Runnable"),
        ("instanceof", "java/lang/Runnable"), ("newarray", 11), ("ldc", "a b ; c"), ("ldc_w", "demo/Asm"),
        ("return",)]
    cp = ClassFile.parse(data).constant_pool
    methodrefs = [i for i, e in enumerate(cp.entries) if e is not None and e[0] == cpool.METHODREF]
    assert cp.member_ref(methodrefs[0]) == ("java/lang/String", "length", "()I")  # .pool put it first
    strings = [cp.utf8(e[1]) for e in cp.entries if e is not None and e[0] == cpool.STRING]
    assert strings == ["pooled", "a b ; c"]


def test_labels_branches_and_lookupswitch_and_inserted_text():
    data = assemble(HEADER + """
.method public static m(I)I
    .args key
    iload key
    lookupswitch 'a':first 98:second default:other
first:
    iconst_1
    ireturn
second:
    goto other
other:
    iconst_0
    ireturn
.end method
.insert more
""", "Asm.jasm", inserts={"more": ".method public static n()V\n    return\n.end method"})
    cf = ClassFile.parse(data)
    assert [m.name for m in cf.methods] == ["m", "n"]
    code = next(m for m in cf.methods if m.name == "m").code
    insns = code.instructions

    def at(label):  # the instruction a label stands before
        return code.items[code.items.index(label) + 1].mnemonic

    switch = insns[1].arg
    assert (switch.keys, [at(t) for t in switch.targets], at(switch.default)) == ([97, 98], ["iconst_1", "goto"],
                                                                                  "iconst_0")
    assert at(insns[4].arg) == "iconst_0"
    assert [i.mnemonic for i in insns] == ["iload_0", "lookupswitch", "iconst_1", "ireturn", "goto", "iconst_0",
                                           "ireturn"]


def test_an_assembled_class_runs_on_the_jvm(tmp_path):
    """The verifier accepts what the assembler writes, and it computes: 1 + ... + 10 as a long (55), plus
    the case a lookupswitch picks for 'b' (2), plus the length of a string constant (3): exit status 60."""
    data = assemble(HEADER + """
.method public static main([Ljava/lang/String;)V
    .args args
    .local i I
    .local sum J
    iconst_1
    istore i
    lconst_0
    lstore sum
loop:
    iload i
    bipush 10
    if_icmpgt done
    lload sum
    iload i
    i2l
    ladd
    lstore sum
    iinc i 1
    goto loop
done:
    lload sum
    l2i
    bipush 'b'
    lookupswitch 'a':one 'b':two default:one
one:
    iconst_1
    goto add
two:
    iconst_2
add:
    iadd
    ldc "abc"
    invokevirtual java/lang/String.length()I
    iadd
    invokestatic exit(I)V
    return
.end method
.method private static exit(I)V
    .args status
    iload status
    invokestatic java/lang/System.exit(I)V
    return
.end method
""", "Asm.jasm")
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "Asm.class").write_bytes(data)
    run = subprocess.run([str(find_jdk_tool("java")), "-cp", str(tmp_path), "demo.Asm"], capture_output=True,
                         text=True, timeout=120)
    assert (run.returncode, run.stderr) == (60, "")


def test_a_catch_all_handler_runs_when_the_covered_code_throws(tmp_path):
    """``.catch begin end handler``: an exception thrown between the two labels (an array index out of bounds) goes
    to the handler, with the exception on the stack; code after ``end`` is not covered. Exit status 7."""
    data = assemble(HEADER + """
.method public static main([Ljava/lang/String;)V
    .args args
begin:
    iconst_0
    newarray int
    iconst_3
    iaload
    invokestatic java/lang/System.exit(I)V
end:
    return
caught:
    pop
    bipush 7
    invokestatic java/lang/System.exit(I)V
    return
    .catch begin end caught
.end method
""", "Asm.jasm")
    cf = ClassFile.parse(data)
    (handler,) = next(m for m in cf.methods if m.name == "main").code.handlers
    assert handler.catch_type == 0
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "Asm.class").write_bytes(data)
    run = subprocess.run([str(find_jdk_tool("java")), "-cp", str(tmp_path), "demo.Asm"], capture_output=True,
                         text=True, timeout=120)
    assert (run.returncode, run.stderr) == (7, "")


def test_the_support_classes_are_named_as_the_counting_code_calls_them():
    assert ClassFile.parse(build_runtime_class(3, [("I", 1)])).name == RUNTIME_CLASS
    assert ClassFile.parse(build_runtime_class(3, [("I", 1)], "pytest_bytecount/of/demo/A")).name == \
        "pytest_bytecount/of/demo/A"
    assert ClassFile.parse(inclusive_by_class_bytes()).name == INCLUSIVE_BY_CLASS
    assert ClassFile.parse(report_class_bytes()).name == REPORT_CLASS


BAD_LINES = [
    ("    fooload 1", "unknown opcode 'fooload'"),
    ("    iload nowhere", "undeclared local 'nowhere'"),
    ("    goto nowhere", "unknown label 'nowhere'"),
    ("    lload count", "local 'count' is I, not for l-instructions"),
    ("    getstatic NOPE", "no field 'NOPE' declared in this class"),
    ("    push $MISSING", "no value given for $MISSING"),
    ("    bipush many", "not an integer: 'many'"),
    ("    iconst_0 5", "iconst_0 takes 0 operands, not 1"),
    ("    tableswitch 0", "tableswitch is not supported by this assembler"),
    ("    newarray string", "newarray of 'string'"),
    ("    lookupswitch 2:here 1:here default:here\nhere:", "lookupswitch keys must increase"),
    ("    lookupswitch 1:here\nhere:", "lookupswitch without default:label"),
    ("here:\nhere:", "label 'here' placed twice"),
    ("    .local count I", "local 'count' declared twice"),
    ("    .local x Q", "bad type 'Q' for local 'x'"),
    ("    invokestatic nothing", "not a method reference: 'nothing'"),
    ("    .insert nothing", "nothing to insert for nothing"),
    ("    ldc method m()V", "ldc takes a string, class or int constant"),
    ("    .pool nothing here", "not a constant: 'nothing here'"),
    ("    .local x", ".local needs a name and a type"),
    ("    .args count", ".args names the 1 parameters, once"),
    ("    iload count wide", "iload takes a local's name (and optionally: indexed)"),
    ("    lookupswitch here default:here\nhere:", "lookupswitch case 'here': key:label or default:label"),
    ("    .catch here\nhere:", ".catch needs three labels: begin end handler"),
    ("    .catch here here nowhere\nhere:", "unknown label 'nowhere'"),
]


@pytest.mark.parametrize("bad, message", BAD_LINES, ids=[m for _, m in BAD_LINES])
def test_a_bad_line_is_an_error_naming_its_source_and_line(bad, message):
    text = method_text("    .args count\n" + bad + "\n    return", "public static m(I)V")
    with pytest.raises(AssemblyError) as err:
        assemble(text, "Bad.jasm")
    number = 9 if message.startswith("label 'here' placed twice") else 8
    assert str(err.value).startswith(f"Bad.jasm line {number}: {message}")


def test_errors_in_inserted_text_name_the_insert_and_its_line():
    with pytest.raises(AssemblyError, match=r"^Bad.jasm .insert gen line 2: unknown opcode 'nope'$"):
        assemble(HEADER + ".insert gen\n", "Bad.jasm", inserts={"gen": ".method static m()V\nnope\n.end method"})


@pytest.mark.parametrize("text, message", [
    (HEADER + ".version 50\n", "line 5: version 50: this assembler writes no stack map frames"),
    (".field static A I\n", "line 1: the class is not named yet"),
    (HEADER + ".field sealed A I\n", "line 5: unknown access flag 'sealed'"),
    (HEADER + ".method static m()V\n    return\n", "line 5: method m has no .end method"),
    (HEADER + ".method static m(I)V\n    return\n.end method\n", "line 6: the 1 parameters are not named"),
    (HEADER + "    return\n", "line 5: unknown directive 'return' outside a method"),
    (HEADER + ".method static m(Q)V\n.end method\n", "line 5: bad method descriptor '(Q)V'"),
    (HEADER + ".field static A Q\n", "line 5: bad field descriptor 'Q'"),
    (HEADER + ".field private static A I\n.super java/lang/Thread\n", "line 6: .super after the first"),
])
def test_a_bad_class_level_line_is_an_error_naming_its_line(text, message):
    with pytest.raises(AssemblyError) as err:
        assemble(text, "Bad.jasm")
    assert str(err.value).startswith(f"Bad.jasm {message}")
