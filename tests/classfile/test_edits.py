"""The class-file engine on small fixtures written to hit its hard parts: long branches, switch padding,
loops at pc 0, `new` and constructors with branches, jsr/ret, over-large methods.

Oracles: javap (decoding), the JVM's verifiers (editing), and the JVM running original and edited
code side by side (behaviour).
"""

from __future__ import annotations

import pytest

from pytest_bytecount.classfile import ClassFile, CodeTooLargeError, Insn
from pytest_bytecount.classfile import opcodes as op
from pytest_bytecount.classfile.constant_pool import mutf8_decode, mutf8_encode
from pytest_bytecount.classfile.code import COMPUTE_FRAME, AddedLocalsFrame, Handler, Label
from pytest_bytecount.classfile.frames import INTEGER, Obj, Uninit, UNINITIALIZED_THIS

from tests.support.engine import (engine_listing, exercise, javap_debug_tables, javap_listing, read_class_dir, stress_all,
                            write_class_dir)
from tests.support.javac import javap
from tests.support.verifier import verify_classfile_api, verify_hotspot

NEVER_RETURNS = ["spinForever"]
# Over 32 KB before any edit (javac already wrote goto_w): the stress edit takes them past 64 KB.
ALREADY_HUGE = ["engine.BigBranches#alreadyWideLoop", "engine.BigBranches#alreadyWideSwitch"]


def edited(classes: dict, name: str, edit) -> bytes:
    cf = ClassFile.parse(classes[name])
    for m in cf.methods:
        if m.has_code():
            edit(m)
    return cf.to_bytes()


def branch_targets(data: bytes, method_name: str) -> list[tuple[str, int]]:
    cf = ClassFile.parse(data)
    m = next(m for m in cf.methods if m.name == method_name)
    return [(i.mnemonic, i.arg.offset) for i in m.code.instructions if op.KIND[i.opcode] in (op.K_BRANCH, op.K_BRANCH_W)]


# --- decoding ---------------------------------------------------------------------------------------
def test_modified_utf8_round_trips_nul_and_supplementary_characters():
    text = "a\u0000b\U0001F600\u00e9\u4e2d"
    raw = mutf8_encode(text)
    assert b"\x00" not in raw  # JVMS 4.4.7: NUL is C0 80
    assert b"\xf0" not in raw  # supplementary characters are two 3-byte surrogates, never 4 bytes
    assert mutf8_decode(raw) == text


def test_decoded_instructions_match_javap(engine_classes, legacy_classes):
    """Every instruction's offset and mnemonic as the JDK's own javap sees them."""
    roots = [engine_classes, *legacy_classes.values()]
    checked = 0
    for root in roots:
        for path in sorted(root.rglob("*.class")):
            ours = engine_listing(path.read_bytes())
            theirs = javap_listing(javap(path, "-c", "-p"))
            assert ours == theirs, path
            checked += sum(len(m) for m in ours)
    assert checked > 5000


def test_untouched_fixture_classes_round_trip_through_the_code_model(engine_classes, legacy_classes):
    for root in [engine_classes, *legacy_classes.values()]:
        for name, data in read_class_dir(root).items():
            cf = ClassFile.parse(data)
            for m in cf.methods:
                _ = m.code  # decode every method into labels, then write it all back
            assert cf.to_bytes() == data, name


# --- insertion semantics ----------------------------------------------------------------------------
def test_jumps_to_the_first_instruction_can_run_or_skip_inserted_code(engine_classes):
    classes = read_class_dir(engine_classes)
    original = branch_targets(classes["engine/LoopAtStart"], "whileAtStart")
    assert ("goto", 0) in original  # the loop head is pc 0

    def insert(run):
        def edit(m):
            if m.name == "whileAtStart":
                first = m.code.instructions[0]
                m.code.insert_before(first, [Insn(op.NOP), Insn(op.NOP)], jumps_run_inserted=run)
        return edited(classes, "engine/LoopAtStart", edit)

    ran = branch_targets(insert(True), "whileAtStart")
    skipped = branch_targets(insert(False), "whileAtStart")
    assert ("goto", 0) in ran  # back edge lands on the inserted nops
    assert ("goto", 2) in skipped  # back edge lands on the original instruction, after them
    # forward branches move by the two inserted bytes either way
    assert [t for t in ran if t[0] != "goto"] == [(m, off + 2) for m, off in original if m != "goto"]


def test_inserted_code_before_a_handler_entry_is_inside_or_outside_the_handler(engine_classes):
    classes = read_class_dir(engine_classes)
    cf = ClassFile.parse(classes["engine/Misc"])
    m = next(m for m in cf.methods if m.has_code() and m.code.handlers)
    code = m.code
    handler_label = code.handlers[0].handler
    i = code.items.index(handler_label)
    entry = next(x for x in code.items[i:] if type(x) is Insn)
    code.insert_before(entry, [Insn(op.NOP), Insn(op.NOP)], jumps_run_inserted=False)
    code.insert_before(entry, [Insn(op.NOP)], jumps_run_inserted=True)
    out = ClassFile.parse(cf.to_bytes())
    m2 = out.find_method(m.name, m.descriptor)
    h = m2.code.handlers[0].handler.offset
    by_offset = {x.offset: x for x in m2.code.instructions}
    # the handler starts at the single nop; the two nops run only by falling through, before it
    assert by_offset[h].opcode == op.NOP and by_offset[h + 1].opcode == entry.opcode
    assert by_offset[h - 1].opcode == op.NOP and by_offset[h - 2].opcode == op.NOP


# --- the stress edit on every fixture ---------------------------------------------------------------
@pytest.mark.parametrize("wide", [False, True], ids=["iinc", "wide-iinc"])
def test_stress_edit_of_every_fixture_verifies_and_behaves_the_same(engine_classes, tmp_path, wide):
    classes = read_class_dir(engine_classes)
    edited_classes = stress_all(classes, wide=wide, may_outgrow=ALREADY_HUGE)
    with_code = [n for n in classes if any(m.has_code() for m in ClassFile.parse(classes[n]).methods)]
    assert len(with_code) > 10 and all(edited_classes[n] != classes[n] for n in with_code)

    for oracle in (verify_hotspot, verify_classfile_api):
        result = oracle(edited_classes, [engine_classes])
        assert dict(result) == {}, f"{oracle.__name__}: {dict(result)}"
        assert result.checked == len(classes)

    out_dir = write_class_dir(edited_classes, tmp_path / "edited")
    names = sorted(n for n in classes if "$" not in n and n.startswith("engine/"))
    before = exercise(engine_classes, names, NEVER_RETURNS)
    after = exercise(out_dir, names, NEVER_RETURNS)
    assert before.count("\n") > 100
    assert after == before


def test_long_branches_become_goto_w_or_an_inverted_if(engine_classes):
    classes = read_class_dir(engine_classes)
    data = stress_all({"engine/BigBranches": classes["engine/BigBranches"]}, wide=True,
                      may_outgrow=ALREADY_HUGE)["engine/BigBranches"]
    cf = ClassFile.parse(data)
    widened_methods = set()
    inverted = 0
    for m in cf.methods:
        insns = m.code.instructions
        for a, b in zip(insns, insns[1:]):
            if a.opcode in op.CONDITIONAL_BRANCHES and b.opcode == op.GOTO_W and a.arg.offset == b.offset + 5:
                inverted += 1  # if<!cond> over a goto_w
                widened_methods.add(m.name)
                # JVMS 4.10.1: the instruction after goto_w needs a frame; it is there
                after = next(x for x in m.code.items[m.code.items.index(b) + 1:])
                assert getattr(after, "frame", None) is not None, (m.name, b.offset)
            if a.opcode == op.GOTO_W:
                widened_methods.add(m.name)
    assert inverted >= 3
    for name in ("ifAroundBigBlock", "loopAroundBigBody", "ternaryBigTrueBranch", "tryCatchAroundBigBlock"):
        assert name in widened_methods


def test_a_widened_branch_with_values_on_the_stack_gets_a_frame_with_them(engine_classes):
    """A ternary spanning a big block branches with an operand already pushed."""
    classes = read_class_dir(engine_classes)
    data = stress_all({"engine/BigBranches": classes["engine/BigBranches"]}, wide=True,
                      may_outgrow=ALREADY_HUGE)["engine/BigBranches"]
    cf = ClassFile.parse(data)
    stacks = []
    for m in cf.methods:
        for item in m.code.items:
            if getattr(item, "frame", None) is not None and item.frame.stack:
                stacks.append((m.name, item.frame.stack))
    assert any(name.startswith("ternary") for name, _ in stacks), stacks


def test_frames_keep_uninitialized_entries_pointing_at_their_new(engine_classes):
    classes = read_class_dir(engine_classes)
    data = stress_all({"engine/NewBranches": classes["engine/NewBranches"]})["engine/NewBranches"]
    cf = ClassFile.parse(data)
    seen = 0
    for m in cf.methods:
        for item in m.code.items:
            f = getattr(item, "frame", None)
            if f is None:
                continue
            for t in f.stack + f.locals:
                if isinstance(t, Uninit):
                    assert t.new_insn.opcode == op.NEW
                    seen += 1
    assert seen >= 3
    # and the frames of constructors branching before super() hold uninitializedThis
    cf = ClassFile.parse(stress_all({"engine/CtorBranches": classes["engine/CtorBranches"]})["engine/CtorBranches"])
    ctor_frames = [item.frame for m in cf.methods if m.name == "<init>" for item in m.code.items
                   if getattr(item, "frame", None) is not None]
    assert any(UNINITIALIZED_THIS in f.locals for f in ctor_frames)


def test_every_frame_declares_the_new_local(engine_classes):
    classes = read_class_dir(engine_classes)
    cf = ClassFile.parse(classes["engine/Switches"])
    slots = {}
    for m in cf.methods:
        if m.has_code():
            slots[m.name + m.descriptor] = m.code.add_local(INTEGER)
    cf2 = ClassFile.parse(cf.to_bytes())
    checked = 0
    for m in cf2.methods:
        for item in m.code.items:
            f = getattr(item, "frame", None)
            if f is not None:
                # entries to slots: a long or double takes two
                slot = 0
                for t in f.locals[:-1]:
                    slot += 2 if t in (3, 4) else 1
                assert f.locals[-1] == INTEGER and slot == slots[m.name + m.descriptor]
                checked += 1
    assert checked > 10


def _diamonds_and_a_handler(m) -> None:
    """Before every return a stack-neutral diamond whose labels' frames are marked to be computed; outside
    constructors an added int local, assigned at entry, and a catch-all handler over the body whose frame
    is marked to hold only the added locals (the handler reads that local, then rethrows)."""
    code = m.code
    insns = code.instructions
    edits = []
    for ret in (i for i in insns if i.opcode in op.RETURNS):
        other, join = Label(), Label()
        other.frame = join.frame = COMPUTE_FRAME
        edits.append((ret, [Insn(op.ICONST_0), Insn(op.IFEQ, other), Insn(op.NOP), Insn(op.GOTO, join),
                            other, Insn(op.NOP), join], True))
    if m.name != "<init>":
        slot = code.add_locals([INTEGER])[0]
        start, end, handler = Label(), Label(), Label()
        edits.append((insns[0], [Insn(op.ICONST_0), Insn(op.ISTORE, slot), start], False))
        handler.frame = AddedLocalsFrame((Obj("java/lang/Throwable"),))
        code.items += [end, handler, Insn(op.ILOAD, slot), Insn(op.POP), Insn(op.ATHROW)]
        code.handlers.append(Handler(start, end, handler, 0))
    code.insert_many(edits)
    # encoded before the class is written: the frames' new constants (Throwable) must reach the pool first
    index, _ = m.find_attribute("Code")
    m.attributes[index] = code.encode()


def test_frames_marked_on_inserted_labels_are_worked_out_when_encoding(engine_classes, tmp_path):
    classes = read_class_dir(engine_classes)
    names = ["engine/Switches", "engine/NewBranches", "engine/Misc"]
    edited_classes = {name: edited(classes, name, _diamonds_and_a_handler) for name in names}

    def frames(data: bytes) -> int:
        return sum(1 for m in ClassFile.parse(data).methods if m.has_code() for i in m.code.items
                   if getattr(i, "frame", None) is not None)

    for name, data in edited_classes.items():  # written into the StackMapTable: at least one per return
        assert frames(data) > frames(classes[name]), name
    for oracle in (verify_hotspot, verify_classfile_api):
        assert dict(oracle(edited_classes, [engine_classes])) == {}, oracle.__name__
    out = write_class_dir(edited_classes, tmp_path / "marked")
    write_class_dir({k: v for k, v in classes.items() if k not in edited_classes}, out)
    assert exercise(out, names) == exercise(engine_classes, names)


@pytest.mark.parametrize("shift", [1, 2, 3])
def test_switch_padding_follows_the_switch(engine_classes, tmp_path, shift):
    """Shift every switch by 1..3 bytes: its padding must change to keep the table 4-aligned."""
    classes = read_class_dir(engine_classes)

    def edit(m):
        first = m.code.instructions[0]
        m.code.insert_before(first, [Insn(op.NOP)] * shift, jumps_run_inserted=False)

    data = edited(classes, "engine/Switches", edit)
    cf = ClassFile.parse(data)
    switches = [i for m in cf.methods for i in m.code.instructions
                if i.opcode in (op.TABLESWITCH, op.LOOKUPSWITCH)]
    assert len({i.offset % 4 for i in switches}) == 4  # all four alignments occur
    result = verify_hotspot({"engine/Switches": data}, [engine_classes])
    assert dict(result) == {}
    out = write_class_dir({"engine/Switches": data}, tmp_path / "shifted")
    write_class_dir({k: v for k, v in classes.items() if k != "engine/Switches"}, out)
    assert exercise(out, ["engine/Switches"]) == exercise(engine_classes, ["engine/Switches"])


def test_a_method_growing_past_64k_is_an_error_naming_it(engine_classes):
    classes = read_class_dir(engine_classes)
    cf = ClassFile.parse(classes["engine/BigBranches"])
    m = cf.find_method("alreadyWideLoop", "(I)I")
    code = m.code
    slot = code.add_local(INTEGER)
    code.insert_many([(i, [Insn(op.IINC, (slot, 1), True)] * 2, True) for i in code.instructions])
    with pytest.raises(CodeTooLargeError) as info:
        cf.to_bytes()
    message = str(info.value)
    assert "engine.BigBranches#alreadyWideLoop(I)I" in message and "65,535" in message
    assert info.value.size > 65535


# --- class files older than 50: jsr/ret, no stack maps -------------------------------------------
@pytest.mark.parametrize("major", ["45", "48"])
def test_legacy_jsr_ret_classes_survive_the_stress_edit(legacy_classes, tmp_path, major):
    root = legacy_classes[major]
    classes = read_class_dir(root)
    assert {ClassFile.parse(d).major_version for d in classes.values()} == {int(major)}
    mnemonics = {i.mnemonic for d in classes.values() for m in ClassFile.parse(d).methods if m.has_code()
                 for i in m.code.instructions}
    assert {"jsr", "ret"} <= mnemonics
    edited_classes = stress_all(classes)
    result = verify_hotspot(edited_classes, [root])  # the old type-inference verifier
    assert dict(result) == {}
    out = write_class_dir(edited_classes, tmp_path / "edited")
    names = sorted(n for n in classes if "$" not in n)
    assert exercise(out, names) == exercise(root, names)


@pytest.mark.parametrize("major", ["45", "48"])
def test_a_jsr_that_no_longer_reaches_becomes_jsr_w(legacy_classes, tmp_path, major):
    root = legacy_classes[major]
    classes = read_class_dir(root)

    def edit(m):
        insns = m.code.instructions
        # 33,000 nops right after each jsr put its subroutine out of a short branch's reach
        after_jsr = [b for a, b in zip(insns, insns[1:]) if a.opcode == op.JSR]
        m.code.insert_many([(b, [Insn(op.NOP)] * 33000, True) for b in after_jsr[:1]])

    data = edited(classes, "legacy/TryFinally", edit)
    mnemonics = [i.mnemonic for m in ClassFile.parse(data).methods for i in m.code.instructions]
    assert "jsr_w" in mnemonics and "goto_w" in mnemonics
    assert dict(verify_hotspot({"legacy/TryFinally": data}, [root])) == {}
    out = write_class_dir({**classes, "legacy/TryFinally": data}, tmp_path / "edited")
    assert exercise(out, ["legacy/TryFinally"]) == exercise(root, ["legacy/TryFinally"])


def _assemble_condy_class() -> bytes:
    """A class with a CONSTANT_Dynamic (JVMS 4.4.10), assembled byte by byte (javac has no source form):
    ``public static Class value() { return <ldc Dynamic "I" via ConstantBootstraps.primitiveClass>; }``."""
    import struct

    def utf8(s):
        return b"\x01" + struct.pack(">H", len(s)) + s.encode()

    pool = [
        utf8("demo/CondyDemo"), b"\x07" + struct.pack(">H", 1),                       # 1, 2
        utf8("java/lang/Object"), b"\x07" + struct.pack(">H", 3),                     # 3, 4
        utf8("value"), utf8("()Ljava/lang/Class;"), utf8("Code"),                     # 5, 6, 7
        utf8("I"), utf8("Ljava/lang/Class;"), b"\x0c" + struct.pack(">HH", 8, 9),     # 8, 9, 10
        b"\x11" + struct.pack(">HH", 0, 10),                                          # 11 Dynamic
        utf8("java/lang/invoke/ConstantBootstraps"), b"\x07" + struct.pack(">H", 12),  # 12, 13
        utf8("primitiveClass"),                                                       # 14
        utf8("(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Class;"),
        b"\x0c" + struct.pack(">HH", 14, 15), b"\x0a" + struct.pack(">HH", 13, 16),   # 16, 17
        b"\x0f\x06" + struct.pack(">H", 17), utf8("BootstrapMethods"),                # 18, 19
    ]
    code = bytes([0x12, 11, 0xB0])  # ldc #11; areturn
    code_attr = struct.pack(">HHI", 1, 0, len(code)) + code + struct.pack(">HH", 0, 0)
    method = struct.pack(">HHHH", 0x0009, 5, 6, 1) + struct.pack(">HI", 7, len(code_attr)) + code_attr
    bsm = struct.pack(">HHH", 1, 18, 0)
    return (struct.pack(">IHH", 0xCAFEBABE, 0, 55) + struct.pack(">H", len(pool) + 1) + b"".join(pool)
            + struct.pack(">HHHH", 0x0021, 2, 4, 0) + struct.pack(">H", 0) + struct.pack(">H", 1) + method
            + struct.pack(">H", 1) + struct.pack(">HI", 19, len(bsm)) + bsm)


def test_constant_dynamic_round_trips_and_survives_the_stress_edit(tmp_path):
    data = _assemble_condy_class()
    cf = ClassFile.parse(data)
    assert cf.constant_pool.tag(11) == 17  # Dynamic
    _ = cf.methods[0].code  # decoded into labels before writing back
    assert cf.to_bytes() == data
    edited_data = stress_all({"demo/CondyDemo": data})["demo/CondyDemo"]
    assert edited_data != data
    assert dict(verify_hotspot({"demo/CondyDemo": edited_data}, [])) == {}
    original = exercise(write_class_dir({"demo/CondyDemo": data}, tmp_path / "a"), ["demo/CondyDemo"])
    assert "= int" in original
    assert exercise(write_class_dir({"demo/CondyDemo": edited_data}, tmp_path / "b"), ["demo/CondyDemo"]) == original


def _line_of(offset: int, lines: list) -> int:
    starts = [(pc, line) for line, pc in lines if pc <= offset]
    return max(starts)[1] if starts else -1


def test_line_numbers_and_local_ranges_follow_their_instructions(engine_classes, tmp_path):
    """Read back by javap, independently of our decoder: after the stress edit each original instruction
    has the same source line, and each local variable covers the same original instructions."""
    classes = read_class_dir(engine_classes)
    names = [n for n in classes if n != "engine/BigBranches"]
    edited_classes = stress_all({n: classes[n] for n in names})
    out = write_class_dir(edited_classes, tmp_path / "edited")
    checked_lines = checked_locals = 0
    for name in names:
        before = javap_debug_tables(javap(engine_classes / f"{name}.class", "-c", "-l", "-p"))
        after = javap_debug_tables(javap(out / f"{name}.class", "-c", "-l", "-p"))
        assert len(before) == len(after)
        for b, a in zip(before, after):
            # edited listing: iconst_0, istore N, then an iinc before every original instruction
            assert [m.replace("_w", "") for _, m in a["listing"][:2]] == ["iconst_0", "istore"]
            originals = a["listing"][3::2]
            assert [m for _, m in originals] == [m for _, m in b["listing"]]
            index_after = {off: i for i, (off, _) in enumerate(originals)}
            assert [_line_of(off, b["lines"]) for off, _ in b["listing"]] == \
                   [_line_of(off, a["lines"]) for off, _ in originals]
            checked_lines += len(originals) if b["lines"] else 0

            def covered(locals_, listing, index_of):
                return sorted((slot, name, tuple(index_of[off] for off, _ in listing if start <= off < start + length))
                              for start, length, slot, name in locals_)

            index_before = {off: i for i, (off, _) in enumerate(b["listing"])}
            assert covered(b["locals"], b["listing"], index_before) == covered(a["locals"], originals, index_after)
            checked_locals += len(b["locals"])
    assert checked_lines > 500 and checked_locals > 50


def test_max_stack_grows_when_inserted_code_needs_more(engine_classes):
    classes = read_class_dir(engine_classes)
    cf = ClassFile.parse(classes["engine/Misc"])
    before = {}
    for m in cf.methods:
        if m.has_code():
            before[m.name + m.descriptor] = m.code.max_stack
            # two extra longs on top of whatever is on the stack at each instruction, then dropped
            m.code.insert_many([(i, [Insn(op.LCONST_0), Insn(op.LCONST_1), Insn(op.POP2), Insn(op.POP2)], True)
                                for i in m.code.instructions])
    data = cf.to_bytes()
    after = {m.name + m.descriptor: m.code.max_stack for m in ClassFile.parse(data).methods if m.has_code()}
    assert all(after[k] == before[k] + 4 for k in before)
    assert dict(verify_hotspot({"engine/Misc": data}, [engine_classes])) == {}


def test_type_annotations_in_code_stay_on_their_instructions(engine_classes, tmp_path):
    """javap -v reads the edited RuntimeVisibleTypeAnnotations: NEW/INSTANCEOF/CAST targets still name
    the new, instanceof and checkcast they annotated, not the iinc inserted before them."""
    import re

    name = "engine/CodeTypeAnnotations"
    classes = read_class_dir(engine_classes)
    out = write_class_dir(stress_all({name: classes[name]}), tmp_path / "edited")

    def targets(path):
        text = javap(path, "-v", "-p")
        listing = dict(max(javap_listing(text), key=len))  # annotatedBody, the one annotated method
        return [(kind, listing[int(off)]) for kind, off in re.findall(r"(NEW|INSTANCEOF|CAST), offset=(\d+)", text)]

    before = targets(engine_classes / f"{name}.class")
    assert {k for k, _ in before} == {"NEW", "INSTANCEOF", "CAST"}
    assert targets(out / f"{name}.class") == before
    assert dict(verify_hotspot({name: (out / f"{name}.class").read_bytes()}, [engine_classes])) == {}
