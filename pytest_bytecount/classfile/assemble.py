"""Build new class files from scratch with the same instruction and label model used for editing: from
Python (:func:`new_class`, :func:`add_method`) or from a readable assembly text (:func:`assemble`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Optional, Sequence

from . import opcodes as op
from . import access
from .access import ACC_FINAL, ACC_PUBLIC, ACC_STATIC, ACC_SUPER
from .code import Code, Handler, Insn, Label, Switch
from .encode import NO_ARG_LOCALS
from .constant_pool import ConstantPool
from .model import ClassFile, Member, Method



def new_class(name: str, super_name: str = "java/lang/Object", interfaces: Sequence[str] = (),
              major_version: int = 49, access: int = ACC_PUBLIC | ACC_FINAL | ACC_SUPER) -> ClassFile:
    cp = ConstantPool()
    return ClassFile(0, major_version, cp, access, cp.add_class(name), cp.add_class(super_name),
                     [cp.add_class(i) for i in interfaces], [], [], [])


def add_field(cf: ClassFile, name: str, descriptor: str, access: int) -> Member:
    cp = cf.constant_pool
    f = Member(access, cp.add_utf8(name), cp.add_utf8(descriptor), [], cf)
    cf.fields.append(f)
    return f


def add_method(cf: ClassFile, name: str, descriptor: str, access: int, items: Sequence,
               handlers: Sequence = ()) -> Method:
    """A method whose code is ``items`` (Insns and Labels) and whose exception table is ``handlers``; offsets,
    max_stack and max_locals are computed when the class is written. Without stack map frames, so for class
    versions below 50."""
    cp = cf.constant_pool
    m = Method(access, cp.add_utf8(name), cp.add_utf8(descriptor), [], cf)
    cf.methods.append(m)
    code = Code(m, cp.add_utf8("Code"), 0, 0, list(items), list(handlers), [])
    m.attributes.append(code)
    return m


def push_int(cp: ConstantPool, value: int) -> Insn:
    """The shortest instruction pushing an int constant."""
    if -1 <= value <= 5:
        return Insn(op.ICONST_0 + value)
    if -128 <= value <= 127:
        return Insn(op.BIPUSH, value)
    if -32768 <= value <= 32767:
        return Insn(op.SIPUSH, value)
    return Insn(op.LDC, cp.add_integer(value))


# --- The text form ----------------------------------------------------------------------------------------
# A Jasmin-like assembly text, one instruction or directive a line, read by :func:`assemble`:
#
#   .class public final super pkg/Name      .super java/lang/Object     .implements java/lang/Runnable
#   .version 49                             (below 50: no stack map frames are written)
#   .field private static final NAME Ljava/lang/ThreadLocal;
#   .method public static name(I)[J  ...  .end method
#     .args first                           names of the parameters, in order (``this`` is implicit)
#     .local sum [J                         a named local of that type, in the next free slot
#     .local sum [J at 6                    ... in slot 6 (the following ones go after it)
#     .pool <constant>                      puts a constant in the pool now (see below)
#     .catch begin end handler              a catch-all handler over the code from label begin to label end
#     loop:                                 a label
#     aload sum                             ``aload_<n>`` for slots 0-3, as javac writes it
#     aload sum indexed                     the two-byte ``aload <n>`` even for slots 0-3
#     iinc i 1 / bipush 16 / sipush -300 / push $SIZE (the shortest int push) / newarray long
#     getstatic NAME                        a field of this class, as declared
#     getfield owner/Cls.name I             a field of another class, with its descriptor
#     invokestatic owner/Cls.name(I)V       ``name(I)V`` alone: a method of this class
#     invokeinterface java/util/Set.contains(Ljava/lang/Object;)Z   (the count operand is computed)
#     new / anewarray / checkcast / instanceof pkg/Cls
#     ldc / ldc_w "text" | class pkg/Cls | 42 | $SIZE
#     lookupswitch 'a':label 98:label default:label
#     .insert NAME                          the text given for NAME (generated methods) goes here
#
# ``;`` or ``//`` at the start of a token starts a comment (descriptors keep theirs). ``$NAME`` is an int
# given by the caller. The constant pool fills in the order the text names things: the class, its super
# class and interfaces; at each run of ``.field`` lines, their names and descriptors, then references to
# the run's static fields; per method, its instructions' constants (and ``.pool``'s) in order, then the
# method's name and descriptor.

class AssemblyError(ValueError):
    """A line the assembler cannot read, named by source and line number."""


_ACCESS = {"public": access.ACC_PUBLIC, "private": access.ACC_PRIVATE, "protected": access.ACC_PROTECTED,
           "static": access.ACC_STATIC, "final": access.ACC_FINAL, "super": access.ACC_SUPER,
           "synchronized": access.ACC_SYNCHRONIZED, "volatile": access.ACC_VOLATILE,
           "transient": access.ACC_TRANSIENT, "native": access.ACC_NATIVE, "abstract": access.ACC_ABSTRACT,
           "synthetic": access.ACC_SYNTHETIC}
_NEWARRAY_TYPES = {"boolean": 4, "char": 5, "float": 6, "double": 7, "byte": 8, "short": 9, "int": 10,
                   "long": 11}
_LOCAL_TYPES = {"i": "IZBCS", "l": "J", "f": "F", "d": "D", "a": "L["}  # a load's letter: its locals' types
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')


@dataclass
class _Line:
    source: str
    number: int
    tokens: list

    def error(self, message: str) -> AssemblyError:
        return AssemblyError(f"{self.source} line {self.number}: {message}")


def _lines(text: str, source: str, inserts: Mapping[str, str]) -> Iterator[_Line]:
    """The lines that hold something, comments stripped, with ``.insert`` replaced by its text."""
    for number, raw in enumerate(text.splitlines(), 1):
        tokens = []
        for token in _TOKEN.findall(raw):
            if token.startswith((";", "//")):
                break
            tokens.append(token)
        line = _Line(source, number, tokens)
        if tokens[:1] == [".insert"]:
            if len(tokens) != 2 or tokens[1] not in inserts:
                raise line.error(f"nothing to insert for {' '.join(tokens[1:]) or '(no name)'}")
            yield from _lines(inserts[tokens[1]], f"{source} .insert {tokens[1]}", inserts)
        elif tokens:
            yield line


def assemble(text: str, source: str, constants: Optional[Mapping[str, int]] = None,
             inserts: Optional[Mapping[str, str]] = None) -> bytes:
    """The class file written in ``text`` (see above); ``source`` names it in error messages,
    ``constants`` gives the ``$NAME`` values, ``inserts`` the text of each ``.insert NAME``."""
    constants = constants or {}
    header: dict = {"access": 0, "super": "java/lang/Object", "interfaces": [], "version": 49}
    cf = None
    lines = _lines(text, source, inserts or {})
    pending_refs: list = []  # the static fields of the current run of .field lines
    for line in lines:
        directive = line.tokens[0]
        if directive != ".field":
            _add_field_refs(cf, pending_refs)
            pending_refs = []
        if directive in (".class", ".super", ".implements", ".version"):
            if cf is not None:
                raise line.error(f"{directive} after the first field or method")
            _header_line(line, header)
            continue
        if cf is None:
            if "name" not in header:
                raise line.error("the class is not named yet (.class first)")
            cf = new_class(header["name"], header["super"], header["interfaces"], header["version"],
                           header["access"])
        if directive == ".field":
            pending_refs += _field(line, cf)
        elif directive == ".method":
            _method(line, lines, cf, constants)
        else:
            raise line.error(f"unknown directive {directive!r} outside a method")
    if cf is None:
        raise AssemblyError(f"{source}: no class")
    _add_field_refs(cf, pending_refs)
    return cf.to_bytes()


def _add_field_refs(cf: Optional[ClassFile], fields: list) -> None:
    for name, descriptor in fields:
        cf.constant_pool.add_fieldref(cf.name, name, descriptor)


def _header_line(line: _Line, header: dict) -> None:
    directive, args = line.tokens[0], line.tokens[1:]
    if not args:
        raise line.error(f"{directive} needs an operand")
    if directive == ".class":
        header["access"] = _flags(line, args[:-1])
        header["name"] = args[-1]
    elif directive == ".super":
        header["super"] = args[0]
    elif directive == ".implements":
        header["interfaces"].append(args[0])
    else:
        version = _int(line, args[0], {})
        if version >= 50:
            raise line.error(f"version {version}: this assembler writes no stack map frames (49 at most)")
        header["version"] = version


def _flags(line: _Line, words: Sequence[str]) -> int:
    unknown = [w for w in words if w not in _ACCESS]
    if unknown:
        raise line.error(f"unknown access flag {unknown[0]!r}")
    flags = 0
    for word in words:
        flags |= _ACCESS[word]
    return flags


def _field(line: _Line, cf: ClassFile) -> list:
    """Declare the field; a static one's reference is due at the end of the run of .field lines."""
    if len(line.tokens) < 3:
        raise line.error(".field needs a name and a descriptor")
    *flags, name, descriptor = line.tokens[1:]
    if not op.FIELD_DESCRIPTOR.fullmatch(descriptor):
        raise line.error(f"bad field descriptor {descriptor!r}")
    access = _flags(line, flags)
    add_field(cf, name, descriptor, access)
    return [(name, descriptor)] if access & ACC_STATIC else []


def _int(line: _Line, token: str, constants: Mapping[str, int]) -> int:
    if token.startswith("$"):
        if token[1:] not in constants:
            raise line.error(f"no value given for {token}")
        return constants[token[1:]]
    if len(token) == 3 and token[0] == token[2] == "'":
        return ord(token[1])
    try:
        return int(token)
    except ValueError:
        raise line.error(f"not an integer: {token!r}") from None


@dataclass
class _Scope:
    """What one method's lines refer to: its locals, labels and the class's constants."""
    cf: ClassFile
    constants: Mapping[str, int]
    locals: dict = field(default_factory=dict)  # name: (slot, field type)
    next_slot: int = 0
    labels: dict = field(default_factory=dict)  # name: Label
    placed: set = field(default_factory=set)  # labels that stand somewhere
    uses: dict = field(default_factory=dict)  # label name: the first line that jumps to it

    def declare(self, line: _Line, name: str, vtype: str, slot: Optional[int] = None) -> None:
        if name in self.locals:
            raise line.error(f"local {name!r} declared twice")
        if not op.FIELD_DESCRIPTOR.fullmatch(vtype):
            raise line.error(f"bad type {vtype!r} for local {name!r}")
        slot = self.next_slot if slot is None else slot
        self.locals[name] = (slot, vtype)
        self.next_slot = max(self.next_slot, slot + op.field_slots(vtype))

    def local(self, line: _Line, name: str, letter: str) -> int:
        if name not in self.locals:
            raise line.error(f"undeclared local {name!r}")
        slot, vtype = self.locals[name]
        if vtype[0] not in _LOCAL_TYPES[letter]:
            raise line.error(f"local {name!r} is {vtype}, not for {letter}-instructions")
        return slot

    def label(self, name: str, used_by: Optional[_Line] = None) -> Label:
        if used_by is not None:
            self.uses.setdefault(name, used_by)
        return self.labels.setdefault(name, Label())


def _method(line: _Line, lines: Iterator[_Line], cf: ClassFile, constants: Mapping[str, int]) -> None:
    """Read a method's lines up to ``.end method`` and add it to ``cf``."""
    if len(line.tokens) < 2 or "(" not in line.tokens[-1]:
        raise line.error(".method needs a name and descriptor, as name(I)V")
    *flags, signature = line.tokens[1:]
    name, paren, rest = signature.partition("(")
    descriptor = paren + rest
    if not op.METHOD_DESCRIPTOR.fullmatch(descriptor):
        raise line.error(f"bad method descriptor {descriptor!r}")
    access = _flags(line, flags)
    scope = _Scope(cf, constants)
    parameters = op.FIELD_DESCRIPTOR.findall(descriptor[1:descriptor.index(")")])
    if not access & ACC_STATIC:
        scope.declare(line, "this", f"L{cf.name};")
    items: list = []
    handlers: list = []
    named = False
    for body in lines:
        head, args = body.tokens[0], body.tokens[1:]
        if head == ".end":
            break
        if head == ".args":
            if named or len(args) != len(parameters):
                raise body.error(f".args names the {len(parameters)} parameters, once")
            for arg, vtype in zip(args, parameters):
                scope.declare(body, arg, vtype)
            named = True
        elif parameters and not named:
            raise body.error(f"the {len(parameters)} parameters are not named yet (.args first)")
        elif head == ".local":
            if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "at"):
                raise body.error(".local needs a name and a type (and optionally: at SLOT)")
            scope.declare(body, args[0], args[1], _int(body, args[3], constants) if len(args) == 4 else None)
        elif head == ".pool":
            _constant(body, args, scope)
        elif head == ".catch":
            if len(args) != 3:
                raise body.error(".catch needs three labels: begin end handler")
            handlers.append(Handler(*(scope.label(a, used_by=body) for a in args), 0))
        elif head.endswith(":") and not args:
            if head[:-1] in scope.placed:
                raise body.error(f"label {head[:-1]!r} placed twice")
            scope.placed.add(head[:-1])
            items.append(scope.label(head[:-1]))
        else:
            items.append(_instruction(body, scope))
    else:
        raise line.error(f"method {name} has no .end method")
    for label, use in scope.uses.items():
        if label not in scope.placed:
            raise use.error(f"unknown label {label!r}")
    add_method(cf, name, descriptor, access, items, handlers)


def _constant(line: _Line, args: list, scope: _Scope) -> int:
    """A constant's pool index: ``"text"``, ``class Name``, an int, ``field NAME`` of this class, or
    ``method [owner.]name(desc)``."""
    cp = scope.cf.constant_pool
    if len(args) == 1 and args[0].startswith('"'):
        return cp.add_string(json.loads(args[0]))
    if len(args) == 2 and args[0] == "class":
        return cp.add_class(args[1])
    if len(args) == 2 and args[0] == "field":
        return _field_ref(line, args[1], scope)
    if len(args) == 2 and args[0] == "method":
        return _method_ref(line, args[1], scope)
    if len(args) == 1:
        return cp.add_integer(_int(line, args[0], scope.constants))
    raise line.error(f"not a constant: {' '.join(args)!r}")


def _field_ref(line: _Line, name: str, scope: _Scope) -> int:
    cf = scope.cf
    for f in cf.fields:
        if f.name == name:
            return cf.constant_pool.add_fieldref(cf.name, name, f.descriptor)
    raise line.error(f"no field {name!r} declared in this class")


def _method_ref(line: _Line, ref: str, scope: _Scope, interface: bool = False) -> int:
    owner, _, signature = ref.rpartition(".") if "." in ref.partition("(")[0] else ("", "", ref)
    name, paren, rest = signature.partition("(")
    if not name or not op.METHOD_DESCRIPTOR.fullmatch(paren + rest):
        raise line.error(f"not a method reference: {ref!r} (owner/Cls.name(desc)ret, or name(desc)ret)")
    return scope.cf.constant_pool.add_methodref(owner or scope.cf.name, name, paren + rest, interface)


def _instruction(line: _Line, scope: _Scope) -> Insn:
    """One instruction line; dispatches on the operand shape of JVMS §6.5."""
    mnemonic, args = line.tokens[0], line.tokens[1:]
    if mnemonic == "push":  # a pseudo-instruction: the shortest push of an int
        _arity(line, args, 1)
        return push_int(scope.cf.constant_pool, _int(line, args[0], scope.constants))
    opcode = op.OPCODES.get(mnemonic)
    if opcode is None:
        raise line.error(f"unknown opcode {mnemonic!r}")
    kind = op.KIND[opcode]
    if kind == op.K_NONE or opcode in NO_ARG_LOCALS:
        _arity(line, args, 0)
        return Insn(opcode)
    if kind == op.K_LOCAL:
        return _local_insn(line, opcode, args, scope)
    if kind in (op.K_BYTE, op.K_SHORT):
        _arity(line, args, 1)
        return Insn(opcode, _int(line, args[0], scope.constants))
    if kind == op.K_IINC:
        _arity(line, args, 2)
        return Insn(opcode, (scope.local(line, args[0], "i"), _int(line, args[1], scope.constants)))
    if kind == op.K_BRANCH:
        _arity(line, args, 1)
        return Insn(opcode, scope.label(args[0], line))
    if kind == op.K_NEWARRAY:
        _arity(line, args, 1)
        if args[0] not in _NEWARRAY_TYPES:
            raise line.error(f"newarray of {args[0]!r}: one of {', '.join(_NEWARRAY_TYPES)}")
        return Insn(opcode, _NEWARRAY_TYPES[args[0]])
    if kind == op.K_LOOKUPSWITCH:
        return Insn(opcode, _lookupswitch(line, args, scope))
    if kind in (op.K_CP1, op.K_CP2):
        return Insn(opcode, _cp_operand(line, opcode, args, scope))
    if kind == op.K_INVOKEINTERFACE:  # the count operand follows from the descriptor (JVMS 6.5)
        _arity(line, args, 1)
        index = _method_ref(line, args[0], scope, interface=True)
        slots = op.FIELD_DESCRIPTOR.findall(args[0][args[0].index("(") + 1:args[0].index(")")])
        return Insn(opcode, (index, 1 + sum(2 if t in ("J", "D") else 1 for t in slots), 0))
    raise line.error(f"{mnemonic} is not supported by this assembler")


def _arity(line: _Line, args: list, n: int) -> None:
    if len(args) != n:
        raise line.error(f"{line.tokens[0]} takes {n} operand{'s' if n != 1 else ''}, not {len(args)}")


def _local_insn(line: _Line, opcode: int, args: list, scope: _Scope) -> Insn:
    """``xload name`` as javac writes it (``xload_<n>`` for slots 0-3); ``indexed`` keeps ``xload <n>``."""
    if not (len(args) == 1 or (len(args) == 2 and args[1] == "indexed")):
        raise line.error(f"{line.tokens[0]} takes a local's name (and optionally: indexed)")
    mnemonic = line.tokens[0]
    if mnemonic == "ret":
        raise line.error("ret is not supported by this assembler")
    slot = scope.local(line, args[0], mnemonic[0])
    if slot <= 3 and len(args) == 1:
        return Insn(op.OPCODES[f"{mnemonic}_{slot}"])
    return Insn(opcode, slot)


def _lookupswitch(line: _Line, args: list, scope: _Scope) -> Switch:
    keys, targets, default = [], [], None
    for arg in args:
        key, _, target = arg.rpartition(":")
        if not key or not target:
            raise line.error(f"lookupswitch case {arg!r}: key:label or default:label")
        if key == "default":
            default = scope.label(target, line)
        else:
            keys.append(_int(line, key, scope.constants))
            targets.append(scope.label(target, line))
    if default is None:
        raise line.error("lookupswitch without default:label")
    if keys != sorted(set(keys)):
        raise line.error("lookupswitch keys must increase (JVMS 6.5 lookupswitch)")
    return Switch(default, targets, keys=keys)


def _cp_operand(line: _Line, opcode: int, args: list, scope: _Scope) -> int:
    mnemonic = line.tokens[0]
    if mnemonic in ("ldc", "ldc_w"):
        if not args or (args[0] in ("field", "method")):
            raise line.error(f"{mnemonic} takes a string, class or int constant")
        return _constant(line, args, scope)
    if mnemonic in ("getstatic", "putstatic", "getfield", "putfield") and len(args) == 2:
        owner, _, name = args[0].rpartition(".")  # another class's field: owner/Cls.name descriptor
        if not owner or not name:
            raise line.error(f"not a field reference: {args[0]!r} (owner/Cls.name descriptor, or NAME)")
        return scope.cf.constant_pool.add_fieldref(owner, name, args[1])
    _arity(line, args, 1)
    if mnemonic in ("getstatic", "putstatic", "getfield", "putfield"):
        return _field_ref(line, args[0], scope)
    if mnemonic.startswith("invoke"):
        return _method_ref(line, args[0], scope)
    return scope.cf.constant_pool.add_class(args[0])  # new, anewarray, checkcast, instanceof
