"""The counts as text: :func:`render_json` in Python, and :func:`layout_program`, the same text as a program
the instrumented classes' exit hook runs over the raw counters (``Counters.layout``, see
:mod:`pytest_bytecount.counting.runtime`). Both print one method a line with sorted keys."""

from __future__ import annotations

import json

from ..inclusive import inclusive_weights, total_weights


def _map(d: dict) -> str:
    return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in sorted(d.items()) if v) + "}"


def _strings(d: dict) -> str:
    return "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(d.items())) + "}"


def _render_group(c: dict) -> str:
    cost = f"\"cost\": {c['cost']}, " if "cost" in c else ""  # only with a weight table (sorted between keys)
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
    same text (:func:`layout_program`). ``code_fingerprint`` and a ``cost`` key (from a weight table,
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


def layout_program(entries_arg, inclusive=None) -> str:
    """The Counters.layout text for ``entries``: [(method id, CounterMap)] sorted by method id.
    ``inclusive``: {method id: (InclusiveTarget, [closure CounterMaps])} for inclusive counts.

    Operations, one a line: ``t<text>`` text; ``n`` newline; ``v<i>`` counter i; ``s<a> <b>`` sum of
    counters a..b-1; ``[``/``]`` open/close a map; ``e<i> <text>`` a map entry shown only when counter i
    is not zero, comma-separated from the previous shown entry. For block counters: ``z`` zeroes an
    accumulator, ``w<weight> <i>`` adds weight times counter i to it, ``a<text>`` is a map entry like
    ``e`` but for the accumulator, and ``y`` writes the accumulator.
    """

    def weighted(pairs) -> list:
        return ["z", *(f"w{w} {i}" for i, w in pairs)]

    def entries(cmap, keys, kind) -> list:
        out = ["["]
        for key in sorted(keys):
            out += [*weighted(cmap.weights(key, kind)), f"a{json.dumps(key)}: "]
        return out + ["]"]

    def group(cmap, own: bool = True) -> list:
        out = ["t\"calls\": {", *entries(cmap, cmap.calls, "call"), "t}, "]
        if own:
            out.append(f"t\"code_fingerprint\": {json.dumps(cmap.code_fingerprint)}, ")
        if inclusive is not None and str(cmap.method) in inclusive:
            out += _inclusive_layout(*inclusive[str(cmap.method)], weighted)
        out.append("t\"invocations\": ")
        out += [*weighted(cmap.invocation_weights()), "y"] if cmap.blocks is not None else [f"v{cmap.base}"]
        if own and cmap.line_digests is not None:
            out.append(f"t, \"line_digests\": {_strings(cmap.line_digests)}")
        if cmap.has_lines:
            out += ["t, \"lines\": {", *entries(cmap, cmap.line_keys(), "line"), "t}"]
        out += ["t, \"opcodes\": {", *entries(cmap, cmap.opcodes, "opcode"), "t}, \"total\": "]
        if cmap.blocks is not None:
            out += [*weighted(cmap.block_sizes()), "y"]
        else:
            first, end = cmap.opcode_range()
            out.append(f"s{first} {end}")
        return out

    lines = ["t{"]
    for k, (method_id, cmap) in enumerate(entries_arg):
        lines.append("t," if k else "t")
        lines += ["n", f"t  {json.dumps(method_id)}: {{"]
        if cmap.abrupt is not None:
            lines += ["t\"abrupt\": {", *group(cmap.abrupt, own=False), "t}, "]
        if cmap.allocs is not None:
            objects = [k[2:] for k in cmap.allocs if k.startswith("o:")]
            arrays = [k[2:] for k in cmap.allocs if k.startswith("a:")]
            lines += ["t\"allocations\": {\"arrays\": {", "["]
            for key in sorted(arrays):
                lines += [*weighted(cmap.weights("a:" + key, "alloc")), f"a{json.dumps(key)}: "]
            lines += ["]", "t}, \"elements\": {", "["]
            for key, i in sorted(cmap.element_indexes().items()):
                lines.append(f"e{i} {json.dumps(key)}: ")
            lines += ["]", "t}, \"objects\": {", "["]
            for key in sorted(objects):
                lines += [*weighted(cmap.weights("o:" + key, "alloc")), f"a{json.dumps(key)}: "]
            lines += ["]", "t}}, "]
        lines += [*group(cmap), "t}"]
    lines += ["n", "t}", "n"]
    return "\n".join(lines) + "\n"


def _inclusive_layout(target, closure: list, weighted) -> list:
    """Layout lines of a target's ``"inclusive": {...}, `` (see :mod:`pytest_bytecount.counting.inclusive`)."""

    def entries(kind: str) -> list:
        holders: dict = {}  # key -> the closure's maps that count it, in closure order
        for m in closure:
            for key in (m.calls if kind == "call" else m.opcodes):
                holders.setdefault(key, []).append(m)
        out = ["["]
        for key in sorted(holders):
            out += [*weighted(inclusive_weights(holders[key], key, kind, target.base)), f"a{json.dumps(key)}: "]
        return out + ["]"]

    out = ["t\"inclusive\": {\"calls\": {", *entries("call"),
           f"t}}, \"methods\": {json.dumps([str(m) for m in target.methods])}, \"opcodes\": {{",
           *entries("opcode"), "t}, \"total\": "]
    return out + [*weighted(total_weights(closure, target.base)), "y", "t}, "]
