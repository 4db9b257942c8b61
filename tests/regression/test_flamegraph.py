"""The flame graphs' SVG, read back as a browser's DOM would hold it: frames as wide as their totals (both runs' in a
differential one), the exact figures in each frame's title, and what grew, shrank, appeared or vanished told
apart."""

from __future__ import annotations

import html
import re

from pytest_bytecount.counting.counts.calltree import CallTree
from pytest_bytecount.regression.flamegraph import flame_svg

T = "app.Orders#distinct(I)I"
SET = "java.util.HashSet#contains(Ljava/lang/Object;)Z"
LIST = "java.util.ArrayList#contains(Ljava/lang/Object;)Z"
WALK = "java.util.ArrayList#indexOfRange(Ljava/lang/Object;II)I"
ADD = "java.util.HashSet#add(Ljava/lang/Object;)Z"


def before() -> CallTree:
    return CallTree({(T,): [100, 1, 0], (T, SET): [300, 30, 0], (T, ADD): [200, 10, 0]})


def after() -> CallTree:
    return CallTree({(T,): [100, 1, 0], (T, LIST): [60, 30, 0], (T, LIST, WALK): [3540, 30, 0],
                     (T, ADD): [250, 10, 0]})


FRAME = re.compile(r'<g class="frame (\w+)"><title>([^<]*)</title><rect x="[0-9.]+" y="\d+" width="([0-9.]+)"')


def frames(svg: str) -> dict:
    """{path: (kind, drawn width + the gap between frames, title)}, read from the SVG text."""
    out = {}
    for kind, title, width in FRAME.findall(svg):
        title = html.unescape(title)
        path = tuple(title.split("\n")[0].split(" (")[0].split(" -> "))
        out[path] = (kind, float(width) + 0.6, title)
    return out


def test_a_differential_graph_gives_every_path_of_either_side_its_room_and_its_figures():
    width = 1000
    shown = frames(flame_svg(after(), before(), width=width))
    whole = before().total() + after().total()  # 600 + 3950
    for path, b, n in [((T,), 600, 3950), ((T, SET), 300, 0), ((T, ADD), 200, 250), ((T, LIST), 0, 3600),
                       ((T, LIST, WALK), 0, 3540)]:
        kind, w, title = shown[path]
        assert abs(w - (b + n) / whole * width) < 0.11, (path, w)
        assert f"total {b:,} -> {n:,} ({n - b:+,}" in title, title
    assert shown[(T, SET)][0] == "vanished" and "(vanished)" in shown[(T, SET)][2]
    assert shown[(T, LIST, WALK)][0] == "new" and shown[(T, LIST)][0] == "new"
    assert shown[(T, ADD)][0] == "grew" and shown[(T,)][0] == "grew"
    assert "own 0 -> 3,540, invocations 0 -> 30" in shown[(T, LIST, WALK)][2]


def test_the_same_frame_is_at_the_same_place_whatever_the_order_of_the_nodes():
    a = after()
    b = CallTree(dict(reversed(list(a.nodes.items()))))
    assert flame_svg(a, before()) == flame_svg(b, before())


def test_a_plain_graph_is_as_wide_as_the_run_alone_and_names_no_change():
    svg = flame_svg(after(), width=790)
    shown = frames(svg)
    assert abs(shown[(T, LIST, WALK)][1] - 3540 / 3950 * 790) < 0.11
    assert {k for k, _, _ in shown.values()} == {"same"}
    assert "total 3,540, own 3,540, invocations 30" in shown[(T, LIST, WALK)][2]
    assert not re.search(r"<script", svg)
