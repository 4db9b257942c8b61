"""Headless Chromium (Debian's ``chromium``) as a test oracle for HTML pages: the DOM after rendering, and
a screenshot read back into pixels with a tiny PNG decoder (stdlib only)."""

from __future__ import annotations

import itertools
import operator
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Optional


def find_chromium() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(page: Path, *args: str, fragment: str = "") -> subprocess.CompletedProcess:
    exe = find_chromium()
    assert exe, "no chromium on PATH"
    with tempfile.TemporaryDirectory(prefix="bytecount-chromium-") as profile:
        # --no-sandbox: tests run as root in CI containers; a private profile keeps parallel runs apart
        return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               "--force-device-scale-factor=1",
                               "--force-color-profile=srgb", f"--user-data-dir={profile}", *args,
                               page.resolve().as_uri() + (f"#{fragment}" if fragment else "")],
                              capture_output=True, text=True, timeout=120, check=True)


def dump_dom(page: Path) -> str:
    """The document as Chromium serializes it after parsing and rendering ``page``."""
    return _run(page, "--dump-dom").stdout


def screenshot(page: Path, png: Path, width: int = 1000, height: int = 900, fragment: str = "") -> Path:
    """``page`` drawn in a ``width`` x ``height`` window, scrolled to the element with id ``fragment``."""
    _run(page, f"--window-size={width},{height}", f"--screenshot={png}", fragment=fragment)
    return png


def read_png(path: Path):
    """(width, height, rows) with rows[y] the RGB bytes of line y, for 8-bit RGB or RGBA non-interlaced PNGs.

    Pure Python: the Up and Sub filters are undone with C-level map/accumulate, Average and Paeth byte by
    byte (RFC 2083 section 6), so keep screenshots small."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, f"unsupported PNG {header}"
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    mod256 = (256).__rmod__
    rows, prev = [], bytes(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:  # Sub: a running sum per channel
            for c in range(bpp):
                line[c::bpp] = bytes(map(mod256, itertools.accumulate(line[c::bpp])))
        elif kind == 2:  # Up
            line = bytearray(map(mod256, map(operator.add, line, prev)))
        elif kind in (3, 4):
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                if kind == 3:
                    line[i] = (line[i] + (a + b) // 2) & 0xFF
                else:
                    c = prev[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        prev = bytes(line)
        if bpp == 4:
            rgb = bytearray(width * 3)
            for c in range(3):
                rgb[c::3] = prev[c::4]
            rows.append(bytes(rgb))
        else:
            rows.append(prev)
    return width, height, rows


def longest_run(rows, color: str) -> int:
    """The longest horizontal run of pixels of exactly ``color`` (``#rrggbb``) in the image: a bar's drawn width."""
    pixel = bytes.fromhex(color.lstrip("#"))
    pattern = re.compile(b"(?:" + re.escape(pixel) + b")+")
    best = 0
    for row in rows:
        if pixel not in row:  # most lines: one C-level search
            continue
        for m in pattern.finditer(row):
            start = -(-m.start() // 3) * 3  # the first whole pixel of the match
            best = max(best, (m.end() - start) // 3)
    return best


class Dom(HTMLParser):
    """Elements (tag, attrs, text inside) of an HTML document, for assertions about what is on the page."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list = []  # [tag, attrs dict, text]
        self._open: list = []
        self._within: dict = {}  # id(attrs dict) -> ids of the attrs dicts of the elements it lies inside
        self.feed(text)
        self.close()
        for el in self.elements:
            el[2] = "".join(el[2])

    def handle_starttag(self, tag, attrs):
        el = [tag, dict(attrs), []]
        self.elements.append(el)
        self._within[id(el[1])] = {id(o[1]) for o in self._open}
        if tag not in ("meta", "br", "img", "link", "input", "hr"):
            self._open.append(el)

    def handle_startendtag(self, tag, attrs):
        self.elements.append([tag, dict(attrs), []])

    def handle_endtag(self, tag):
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        for el in self._open:
            el[2].append(data)

    def find(self, tag: str, within: Optional[tuple] = None, **attrs) -> list:
        """Elements with that tag whose attributes contain the given values (``class_`` for class; a
        class matches as one of the space-separated names), inside the element ``within`` (one that
        :meth:`find` returned) when given."""
        out = []
        for t, a, text in self.elements:
            if t != tag or (within is not None and id(within[1]) not in self._within.get(id(a), ())):
                continue
            ok = True
            for k, v in attrs.items():
                k = k.rstrip("_").replace("_", "-")
                if k == "class":
                    ok = ok and v in (a.get("class") or "").split()
                else:
                    ok = ok and a.get(k) == v
            if ok:
                out.append((t, a, text))
        return out

    @property
    def text(self) -> str:
        return self.elements[0][2] if self.elements else ""


LAYOUT_SCRIPT = """
<script>
(function () {
  var probe = document.createElement('span');
  probe.className = 'mono'; probe.textContent = 'MMMMMMMMMM';
  document.body.appendChild(probe);
  var ch = probe.getBoundingClientRect().width / 10;
  probe.remove();
  var ids = Array.prototype.map.call(document.querySelectorAll('td.id'), function (td) {
    return td.getBoundingClientRect().width / ch; });
  var cut = [];
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var box = svg.viewBox.baseVal;
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBBox();
      if (b.x + b.width > box.width + 0.5) cut.push(t.textContent);
    });
  });
  var wide = Array.prototype.filter.call(document.querySelectorAll('table'), function (t) {
    return t.getBoundingClientRect().width > t.parentElement.clientWidth + 0.5; }).length;
  var out = {viewport: window.innerWidth, page: document.documentElement.scrollWidth, tables_past_their_box: wide,
             narrowest_id_chars: ids.length ? Math.min.apply(null, ids) : null, cut_labels: cut};
  var pre = document.createElement('pre'); pre.id = 'layout-result'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def layout(page: Path, width: int, height: int = 900) -> dict:
    """How ``page`` lays out in a ``width`` px window: ``viewport`` and ``page`` widths (the page overflows
    when wider), the tables wider than their box (``tables_past_their_box``), the narrowest id cell in
    characters (``narrowest_id_chars``) and the chart labels drawn past their chart's edge (``cut_labels``). Measured by a script added to a copy of the page."""
    import json
    import re

    probe = page.with_name(f"layout-{width}.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", LAYOUT_SCRIPT + "</body>"), encoding="utf-8")
    try:
        dom = _run(probe, f"--window-size={width},{height}", "--dump-dom").stdout
    finally:
        probe.unlink()
    m = re.search(r'<pre id="layout-result">(.*?)</pre>', dom, re.S)
    assert m, "the layout script did not run"
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
