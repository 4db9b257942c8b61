"""Calling-context trees as pprof profiles (regression/pprof.py) and as collapsed stacks (CallTree.collapsed),
each read back by a reader written independently of the writer.

The pprof bytes are decoded by the ``protobuf`` package, with the ``Profile`` message built here from a
descriptor that transcribes github.com/google/pprof's ``proto/profile.proto`` field by field: the writer's own
field numbers are not used. Both outputs are also read by speedscope's own importers, run in Node, when
speedscope is installed (``npm install -g speedscope``, or its package folder in ``$SPEEDSCOPE``). The trees are
made by hand, with values small enough to sum by eye.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional

import pytest

from pytest_bytecount.counting.counts.calltree import OTHER, CallTree
from pytest_bytecount.regression.pprof import pprof_bytes, profile_message

descriptor_pb2 = pytest.importorskip("google.protobuf.descriptor_pb2")
from google.protobuf import descriptor_pool, message_factory  # noqa: E402

F = descriptor_pb2.FieldDescriptorProto
INT64, UINT64, STRING, BOOL, MESSAGE = F.TYPE_INT64, F.TYPE_UINT64, F.TYPE_STRING, F.TYPE_BOOL, F.TYPE_MESSAGE
ONE, MANY = F.LABEL_OPTIONAL, F.LABEL_REPEATED

# profile.proto (package perftools.profiles, proto3), message by message: (field, number, type, label[, message])
PROFILE_PROTO = {
    "Profile": [("sample_type", 1, MESSAGE, MANY, "ValueType"), ("sample", 2, MESSAGE, MANY, "Sample"),
                ("mapping", 3, MESSAGE, MANY, "Mapping"), ("location", 4, MESSAGE, MANY, "Location"),
                ("function", 5, MESSAGE, MANY, "Function"), ("string_table", 6, STRING, MANY),
                ("drop_frames", 7, INT64, ONE), ("keep_frames", 8, INT64, ONE), ("time_nanos", 9, INT64, ONE),
                ("duration_nanos", 10, INT64, ONE), ("period_type", 11, MESSAGE, ONE, "ValueType"),
                ("period", 12, INT64, ONE), ("comment", 13, INT64, MANY), ("default_sample_type", 14, INT64, ONE)],
    "ValueType": [("type", 1, INT64, ONE), ("unit", 2, INT64, ONE)],
    "Sample": [("location_id", 1, UINT64, MANY), ("value", 2, INT64, MANY), ("label", 3, MESSAGE, MANY, "Label")],
    "Label": [("key", 1, INT64, ONE), ("str", 2, INT64, ONE), ("num", 3, INT64, ONE), ("num_unit", 4, INT64, ONE)],
    "Mapping": [("id", 1, UINT64, ONE), ("memory_start", 2, UINT64, ONE), ("memory_limit", 3, UINT64, ONE),
                ("file_offset", 4, UINT64, ONE), ("filename", 5, INT64, ONE), ("build_id", 6, INT64, ONE),
                ("has_functions", 7, BOOL, ONE), ("has_filenames", 8, BOOL, ONE),
                ("has_line_numbers", 9, BOOL, ONE), ("has_inline_frames", 10, BOOL, ONE)],
    "Location": [("id", 1, UINT64, ONE), ("mapping_id", 2, UINT64, ONE), ("address", 3, UINT64, ONE),
                 ("line", 4, MESSAGE, MANY, "Line"), ("is_folded", 5, BOOL, ONE)],
    "Line": [("function_id", 1, UINT64, ONE), ("line", 2, INT64, ONE), ("column", 3, INT64, ONE)],
    "Function": [("id", 1, UINT64, ONE), ("name", 2, INT64, ONE), ("system_name", 3, INT64, ONE),
                 ("filename", 4, INT64, ONE), ("start_line", 5, INT64, ONE)],
}


def profile_class():
    """The ``perftools.profiles.Profile`` message class, from a descriptor of PROFILE_PROTO in a pool of its own."""
    file = descriptor_pb2.FileDescriptorProto(name="profile.proto", package="perftools.profiles", syntax="proto3")
    for name, fields in PROFILE_PROTO.items():
        message = file.message_type.add(name=name)
        for field, number, kind, label, *of in fields:
            f = message.field.add(name=field, number=number, type=kind, label=label)
            if of:
                f.type_name = f".perftools.profiles.{of[0]}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    descriptor = pool.FindMessageTypeByName("perftools.profiles.Profile")
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)  # protobuf < 4.21


Profile = profile_class()


def decode(data: bytes):
    profile = Profile()
    profile.ParseFromString(gzip.decompress(data))
    return profile


def stacks(profile) -> list:
    """``(frames root first as method ids, values, labels)`` for each sample, through locations, functions and
    the string table."""
    s = profile.string_table
    functions = {f.id: f for f in profile.function}
    locations = {loc.id: loc for loc in profile.location}
    out = []
    for sample in profile.sample:
        frames = []
        for lid in sample.location_id:
            (line,) = locations[lid].line
            frames.append(s[functions[line.function_id].system_name])
        labels = {s[label.key]: s[label.str] for label in sample.label}
        out.append((tuple(reversed(frames)), list(sample.value), labels))
    return out


# --- trees made by hand --------------------------------------------------------------------------------------
DISTINCT = "app.Orders#distinct(I)I"
INDEX_OF = "java.util.ArrayList#indexOf(Ljava/lang/Object;)I"
EQUALS = "java.lang.Integer#equals(Ljava/lang/Object;)Z"
ADD = "java.util.ArrayList#add(Ljava/lang/Object;)Z"
GROW = "java.util.ArrayList#grow(I)[Ljava/lang/Object;"
CART = "shop.Cart$Item#<init>(I)V"
ENTRY = "java.util.HashMap$Node#<init>(ILjava/lang/Object;Ljava/lang/Object;Ljava/util/HashMap$Node;)V"


def distinct_tree() -> CallTree:
    return CallTree({
        (DISTINCT,): [40, 1, 0],
        (DISTINCT, INDEX_OF): [300, 10, 0],
        (DISTINCT, INDEX_OF, EQUALS): [120, 30, 0],
        (DISTINCT, ADD): [50, 10, 0],
        (DISTINCT, ADD, GROW): [20, 2, 16],
        (DISTINCT, OTHER): [7, 0, 3],
        (DISTINCT, EQUALS): [0, 0, 0],  # a node without a value makes no sample
    })


def cart_tree() -> CallTree:
    return CallTree({
        (): [4, 0, 0],  # the window's work before the target's own node began
        (CART,): [11, 1, 0],
        (CART, ENTRY): [9, 3, 0],
        (CART, INDEX_OF): [5, 1, 0],  # a frame the other target's tree has too
    })


def trees() -> dict:
    return {DISTINCT: distinct_tree(), CART: cart_tree()}


# --- pprof ---------------------------------------------------------------------------------------------------
def test_sample_types_default_type_and_string_table():
    profile = decode(pprof_bytes(trees()))
    s = profile.string_table
    assert s[0] == ""
    assert [(s[t.type], s[t.unit]) for t in profile.sample_type] == [
        ("instructions", "count"), ("invocations", "count"), ("copied", "elements")]
    assert s[profile.default_sample_type] == "instructions"
    assert len(set(s)) == len(s)  # each string once


def test_each_value_sums_to_the_trees_totals():
    t = trees()
    profile = decode(pprof_bytes(t))
    sums = [sum(sample.value[i] for sample in profile.sample) for i in range(3)]
    assert sums[0] == sum(tree.total() for tree in t.values()) == 537 + 29
    assert sums[1] == sum(v[1] for tree in t.values() for v in tree.nodes.values()) == 53 + 5
    assert sums[2] == sum(tree.copied() for tree in t.values()) == 19
    assert all(len(sample.value) == 3 for sample in profile.sample)


def test_every_sample_is_a_node_its_stack_the_nodes_path_from_the_target():
    t = trees()
    got = stacks(decode(pprof_bytes(t)))
    want = []
    for target, tree in t.items():
        for path, values in tree.nodes.items():
            if any(values):
                labels = {"node": "window"} if not path else {}
                want.append((path or (target,), values, labels))
    assert sorted(got) == sorted(want)
    assert all(frames[0] in t for frames, _, _ in got)  # every stack starts with its target's frame


def test_stacks_are_listed_leaf_first():
    profile = decode(pprof_bytes({DISTINCT: CallTree({(DISTINCT, ADD, GROW): [1, 1, 0]})}))
    names = {f.id: profile.string_table[f.name] for f in profile.function}
    locations = {loc.id: loc.line[0].function_id for loc in profile.location}
    (sample,) = profile.sample
    assert [names[locations[i]] for i in sample.location_id] == [
        "java.util.ArrayList.grow", "java.util.ArrayList.add", "app.Orders.distinct"]


def test_one_function_and_one_location_per_distinct_frame():
    profile = decode(pprof_bytes(trees()))
    s = profile.string_table
    functions = {s[f.system_name]: (s[f.name], s[f.filename]) for f in profile.function}
    assert functions == {
        DISTINCT: ("app.Orders.distinct", "app/Orders.java"),
        INDEX_OF: ("java.util.ArrayList.indexOf", "java/util/ArrayList.java"),
        EQUALS: ("java.lang.Integer.equals", "java/lang/Integer.java"),
        ADD: ("java.util.ArrayList.add", "java/util/ArrayList.java"),
        GROW: ("java.util.ArrayList.grow", "java/util/ArrayList.java"),
        OTHER: (OTHER, ""),
        CART: ("shop.Cart$Item.<init>", "shop/Cart.java"),  # a nested class's source is its outer class's
        ENTRY: ("java.util.HashMap$Node.<init>", "java/util/HashMap.java"),
    }
    assert len(profile.function) == len(profile.location) == len(functions)
    ids = [f.id for f in profile.function]
    assert len(set(ids)) == len(ids) and 0 not in ids
    assert sorted(loc.id for loc in profile.location) == sorted(ids)
    assert all(len(loc.line) == 1 and loc.line[0].line == 0 for loc in profile.location)  # no lines known


def test_lines_given_fill_the_locations_and_functions():
    profile = decode(pprof_bytes(trees(), lines={DISTINCT: 12, ADD: 466}))
    s = profile.string_table
    by_id = {f.id: s[f.system_name] for f in profile.function}
    starts = {s[f.system_name]: f.start_line for f in profile.function}
    lines = {by_id[loc.line[0].function_id]: loc.line[0].line for loc in profile.location}
    assert lines == starts
    assert {m: n for m, n in lines.items() if n} == {DISTINCT: 12, ADD: 466}


def test_the_comment_is_kept():
    profile = decode(pprof_bytes(trees(), comment="tests/test_orders.py::test_distinct"))
    assert [profile.string_table[i] for i in profile.comment] == ["tests/test_orders.py::test_distinct"]
    assert list(decode(pprof_bytes(trees())).comment) == []


def test_a_difference_of_trees_keeps_its_negative_values():
    diff = distinct_tree().merged(CallTree({(DISTINCT, INDEX_OF): [1300, 20, 0]}), sign=-1)
    (got,) = [values for frames, values, _ in stacks(decode(pprof_bytes({DISTINCT: diff})))
              if frames == (DISTINCT, INDEX_OF)]
    assert got == [-1000, -10, 0]


def test_equal_trees_give_equal_bytes_whatever_their_order():
    t = trees()
    reordered = {CART: CallTree(dict(reversed(list(cart_tree().nodes.items())))), DISTINCT: distinct_tree()}
    data = pprof_bytes(t, comment="c")
    assert pprof_bytes(t, comment="c") == pprof_bytes(reordered, comment="c") == data
    assert data[4:8] == b"\0\0\0\0"  # gzip's mtime
    assert gzip.decompress(data) == profile_message(t, comment="c")


def test_no_trees_make_an_empty_profile():
    profile = decode(pprof_bytes({}))
    assert list(profile.sample) == [] and len(profile.sample_type) == 3 and profile.string_table[0] == ""


# --- speedscope's own importers ------------------------------------------------------------------------------
# speedscope ships one browser bundle: it is run in a Node VM context (no DOM) only up to the point where the
# bundle starts its import module, which is made to hand that module's namespace (importProfilesFromArrayBuffer,
# the entry point for a dropped file) to the script. Each profile read comes back as its total weight, the
# importer speedscope chose (its own console message) and the stacks (frame names, root first) with their
# self weights.
SPEEDSCOPE_READ = r"""
const fs = require("fs"), path = require("path"), vm = require("vm");
const [pkg, file] = process.argv.slice(2);
const dir = path.join(pkg, "dist", "release");
const bundle = fs.readdirSync(dir).find(n => /^speedscope-.*\.js$/.test(n));
let src = fs.readFileSync(path.join(dir, bundle), "utf8");
const ns = /var ([\w$]+)=\{\};[\w$]+\(\1,\{[^}]*importProfilesFromArrayBuffer:/.exec(src);
if (!ns) throw new Error("no import module in " + bundle);
const start = new RegExp("\\(\\)=>\\(([\\w$]+)\\(\\)," + ns[1].replace(/\$/g, "\\$") + "\\)").exec(src);
if (!start) throw new Error("no start of the import module in " + bundle);
src = src.replace(start[0], `()=>(globalThis.__imports=(${start[1]}(),${ns[1]}))`);
const said = [];
const quiet = {log: m => said.push(String(m)), warn() {}, error() {}, info() {}, assert() {}, time() {}, timeEnd() {}};
const ctx = {console: quiet, location: {hash: "", search: "", href: "", protocol: "file:"}, TextDecoder,
             TextEncoder, setTimeout, clearTimeout};
ctx.window = ctx; ctx.self = ctx; ctx.globalThis = ctx;
vm.createContext(ctx);
let stopped = null;
try { vm.runInContext(src, ctx, {filename: bundle}); } catch (e) { stopped = e; }  // the app needs a DOM
setTimeout(async () => {
  if (!ctx.__imports) throw new Error("the import module did not start" + (stopped ? ": " + stopped : ""));
  const data = fs.readFileSync(file);
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);
  const group = await ctx.__imports.importProfilesFromArrayBuffer(path.basename(file), buffer);
  const profiles = (group ? group.profiles : []).map(p => {
    const stacks = [];
    const walk = (node, stack) => {
      for (const child of node.children) {
        const s = stack.concat([child.frame.name]);
        if (child.getSelfWeight()) stacks.push([s, child.getSelfWeight()]);
        walk(child, s);
      }
    };
    walk(p.getAppendOrderCalltreeRoot(), []);
    return {total: p.getTotalWeight(), stacks};
  });
  process.stdout.write(JSON.stringify({importer: said.filter(m => m.startsWith("Importing")), profiles}));
}, 0);
"""


def speedscope_package() -> Optional[Path]:
    """speedscope's package folder: ``$SPEEDSCOPE``, else npm's global one."""
    if os.environ.get("SPEEDSCOPE"):
        return Path(os.environ["SPEEDSCOPE"])
    npm = shutil.which("npm")
    if not npm:
        return None
    try:
        root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(root) / "speedscope" if root else None


@pytest.fixture(scope="module")
def speedscope(tmp_path_factory):
    """Reads a file with speedscope's importers: ``{"importer": [its message], "profiles": [...]}``."""
    node = shutil.which("node") or shutil.which("nodejs")
    package = speedscope_package()
    if not node or package is None or not (package / "dist" / "release").is_dir():
        pytest.skip("no node, or no speedscope package (npm install -g speedscope, or $SPEEDSCOPE)")
    script = tmp_path_factory.mktemp("speedscope") / "read.js"
    script.write_text(SPEEDSCOPE_READ)

    def read(file: Path) -> dict:
        run = subprocess.run([node, str(script), str(package), str(file)], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    return read


def collapsed_frame(method: str) -> str:
    """What collapsed stacks make of a frame name: ';' and ' ' separate frames and values there."""
    return method.replace(";", ",").replace(" ", "_")


def test_speedscope_reads_the_collapsed_stacks(speedscope, tmp_path):
    tree = cart_tree().merged(distinct_tree())  # one tree with a window node, frames with ';' and ' '
    tree.add((CART, "odd name;with separators"), 2)
    file = tmp_path / "cart.collapsedstack.txt"
    file.write_text("\n".join(tree.collapsed(0, root="(window)")) + "\n")
    read = speedscope(file)
    assert read["importer"] == ["Importing as collapsed stack format"]
    (profile,) = read["profiles"]
    assert profile["total"] == tree.total()
    want = {tuple(collapsed_frame(m) for m in path) or ("(window)",): v[0] for path, v in tree.nodes.items() if v[0]}
    assert {tuple(s): w for s, w in profile["stacks"]} == want


def pprof_name(method: str) -> str:
    """The function name a pprof profile gives a method: ``pkg.Cls#m(I)V`` -> ``pkg.Cls.m``."""
    cls, sep, rest = method.partition("#")
    return f"{cls}.{rest[:rest.index('(')]}" if sep else method


def test_speedscope_reads_the_pprof_profile_by_its_default_sample_type(speedscope, tmp_path):
    t = trees()
    file = tmp_path / "trees.pb.gz"
    file.write_bytes(pprof_bytes(t))
    read = speedscope(file)
    assert read["importer"] == ["Importing as protobuf encoded pprof file"]
    (profile,) = read["profiles"]
    assert profile["total"] == sum(tree.total() for tree in t.values())  # instructions, not the last type
    want: dict = {}
    for target, tree in t.items():
        for path, v in tree.nodes.items():
            if v[0]:  # the window's work joins its target's frame
                key = tuple(pprof_name(m) for m in (path or (target,)))
                want[key] = want.get(key, 0) + v[0]
    assert {tuple(s): w for s, w in profile["stacks"]} == want
