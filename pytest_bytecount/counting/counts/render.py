"""The counts as text: :func:`render_json` in Python, and :func:`class_layout`, the same text as a program
the exit hook of counted classes runs over each class's raw counters (``Report.jasm``, see
:mod:`pytest_bytecount.counting.report`). Both print one method a line with sorted keys."""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii


def _quoted(text) -> str:
    """``json.dumps(text)``, quicker for a string."""
    return encode_basestring_ascii(text) if type(text) is str else json.dumps(text)


def _map(d: dict) -> str:
    return "{" + ", ".join(f"{_quoted(k)}: {v}" for k, v in sorted(d.items()) if v) + "}"


def _strings(d: dict) -> str:
    return "{" + ", ".join(f"{_quoted(k)}: {_quoted(v)}" for k, v in sorted(d.items())) + "}"


def _deep_group(d: dict) -> str:
    abrupt = f"\"abrupt\": {{{_deep_group(d['abrupt'])}}}, " if "abrupt" in d else ""
    tree = f", \"tree\": {json.dumps(d['tree'], sort_keys=True, separators=(',', ':'))}" if "tree" in d else ""
    return (f"{abrupt}\"copied\": {d['copied']}, \"methods\": {_map(d['methods'])}, \"total\": {d['total']}"
            f"{tree}, \"windows\": {d['windows']}")


def _render_group(c: dict) -> str:
    cost = f"\"cost\": {c['cost']}, " if "cost" in c else ""  # only with a weight table (sorted between keys)
    if "deep" in c:  # deep counts (sorted between keys too)
        cost += f"\"deep\": {{{_deep_group(c['deep'])}}}, "
    if "inclusive" in c:  # inclusive counts (sorted between keys too)
        i = c["inclusive"]
        cost += (f"\"inclusive\": {{\"calls\": {_map(i['calls'])}, \"methods\": {json.dumps(i['methods'])}, "
                 f"\"opcodes\": {_map(i['opcodes'])}, \"total\": {i['total']}}}, ")
    lines = f"\"lines\": {_map(c['lines'])}, " if "lines" in c else ""
    if "line_digests" in c:  # static: the method's own (never in an abrupt group)
        lines = f"\"line_digests\": {_strings(c['line_digests'])}, " + lines
    fingerprint = f"\"code_fingerprint\": {json.dumps(c['code_fingerprint'])}, " if "code_fingerprint" in c else ""
    return (f"\"calls\": {_map(c['calls'])}, {fingerprint}{cost}\"invocations\": {c['invocations']}, {lines}"
            f"\"opcodes\": {_map(c['opcodes'])}, \"total\": {c['total']}")


def render_json(counts: dict) -> str:
    """The JSON text, one method a line, sorted keys; the instrumented classes' own exit hook writes the
    same text (:func:`class_layout`). ``code_fingerprint`` and a ``cost`` key (from a weight table,
    :mod:`pytest_bytecount.regression.weights`) are kept, in their sorted places."""
    lines = []
    for method_id in sorted(counts):
        c = counts[method_id]
        head = ""
        if "abrupt" in c:
            head += f"\"abrupt\": {{{_render_group(c['abrupt'])}}}, "
        if "allocations" in c:
            a = c["allocations"]
            head += (f"\"allocations\": {{\"arrays\": {_map(a['arrays'])}, \"elements\": {_map(a['elements'])}, "
                     f"\"objects\": {_map(a['objects'])}}}, ")
        lines.append(f"  {json.dumps(method_id)}: {{{head}{_render_group(c)}}}")
    return "{" + ",".join("\n" + line for line in lines) + "\n}\n"


def sort_key(*parts: str) -> str:
    """The exit hook's sort key of ``parts``: each one's UTF-8 bytes in hex, ``-`` between them. Java compares
    strings by UTF-16 units, Python by code points; these keys sort alike in both, as the tuple of ``parts``."""
    return "-".join(p.encode("utf-8").hex() for p in parts)


def class_layout(entries, inclusive=None) -> str:
    """The ``.layout`` resource of one counted class's Counters class, run by the exit hook
    (``Report.jasm``): per method of ``entries`` ([(method id, CounterMap)]) its line of the JSON
    :func:`render_json` prints, under its sort key. ``inclusive``: {method id: the target's exact name}
    for the targets of inclusive counts (their group is summed at exit, over every class's ``.links``).

    Operations, one a line: ``m<key>`` a method's line begins, ``.`` it ends; ``t<text>`` text; ``n``
    newline; ``v<i>`` counter i; ``s<a> <b>`` sum of counters a..b-1; ``[``/``]`` open/close a map;
    ``e<i> <text>`` a map entry shown only when counter i is not zero, comma-separated from the previous
    shown entry. For block counters: ``z`` zeroes an accumulator, ``w<weight> <i>`` adds weight times
    counter i to it, ``a<text>`` is a map entry like ``e`` but for the accumulator, and ``y`` writes the
    accumulator. ``i<target>``: the target's inclusive group.
    """

    # the lines are kept in lists, and some elements hold several (joined by newlines): fewer to handle
    def weighted(pairs) -> list:
        return ["z" + "".join([f"\nw{w} {i}" for i, w in pairs])]

    def entries_of(cmap, keys, kind) -> list:
        out = ["["]
        weights = cmap.weights_by_key(kind)
        for key in sorted(keys):
            out.append(f"{weighted(weights.get(key, ()))[0]}\na{_quoted(key)}: ")
        out.append("]")
        return out

    def group(cmap, own: bool = True) -> list:
        out = ["t\"calls\": {", *entries_of(cmap, cmap.calls, "call"), "t}, "]
        if own:
            out.append(f"t\"code_fingerprint\": {_quoted(cmap.code_fingerprint)}, ")
        if own and inclusive is not None and str(cmap.method) in inclusive:
            out.append(f"i{inclusive[str(cmap.method)]}")
        out.append("t\"invocations\": ")
        out += [*weighted(cmap.invocation_weights()), "y"] if cmap.blocks is not None else [f"v{cmap.base}"]
        if own and cmap.line_digests is not None:
            out.append(f"t, \"line_digests\": {_strings(cmap.line_digests)}")
        if cmap.has_lines:
            out += ["t, \"lines\": {", *entries_of(cmap, cmap.line_keys(), "line"), "t}"]
        out += ["t, \"opcodes\": {", *entries_of(cmap, cmap.opcodes, "opcode"), "t}, \"total\": "]
        if cmap.blocks is not None:
            out += [*weighted(cmap.block_sizes()), "y"]
        else:
            first, end = cmap.opcode_range()
            out.append(f"s{first} {end}")
        return out

    lines = []
    for method_id, cmap in entries:
        lines += [f"m{sort_key(method_id)}", f"t  {json.dumps(method_id)}: {{"]
        if cmap.abrupt is not None:
            lines += ["t\"abrupt\": {", *group(cmap.abrupt, own=False), "t}, "]
        if cmap.allocs is not None:
            objects = [k[2:] for k in cmap.allocs if k.startswith("o:")]
            arrays = [k[2:] for k in cmap.allocs if k.startswith("a:")]
            lines += ["t\"allocations\": {\"arrays\": {", "["]
            allocations = cmap.weights_by_key("alloc")
            for key in sorted(arrays):
                lines += [*weighted(allocations.get("a:" + key, ())), f"a{_quoted(key)}: "]
            lines += ["]", "t}, \"elements\": {", "["]
            for key, i in sorted(cmap.element_indexes().items()):
                lines.append(f"e{i} {json.dumps(key)}: ")
            lines += ["]", "t}, \"objects\": {", "["]
            for key in sorted(objects):
                lines += [*weighted(allocations.get("o:" + key, ())), f"a{_quoted(key)}: "]
            lines += ["]", "t}}, "]
        lines += [*group(cmap), "t}", "."]
    return "\n".join(lines) + "\n" if lines else ""


def links_program(maps) -> str:
    """The ``.links`` resource of a class counted for inclusive counts: run by the exit hook over the values
    one target committed to the class, it adds each method that contributed (its total is not 0) and its
    opcode and call counts to the target's group. ``C<key>`` skips to the method's ``M`` line when the
    accumulator is 0 and otherwise lists the method; ``o<key>``/``c<key>`` add the accumulator to an
    opcode's/call's count. Keys are ``<sort key> <JSON text>``."""
    lines = []
    for cmap in maps:
        m = cmap.method
        if cmap.blocks is not None:
            total = cmap.block_sizes()
        else:
            first, end = cmap.opcode_range()
            total = [(i, 1) for i in range(first, end)]
        lines += ["z", *(f"w{w} {i}" for i, w in total),
                  f"C{sort_key(m.class_name, m.name, m.descriptor)} {json.dumps(str(m))}"]
        for kind, letter, keys in (("opcode", "o", cmap.opcodes), ("call", "c", cmap.calls)):
            for key in keys:
                lines += ["z", *(f"w{w} {i}" for i, w in cmap.weights(key, kind)),
                          f"{letter}{sort_key(key)} {json.dumps(key)}"]
        lines.append("M")
    return "".join(line + "\n" for line in lines)
