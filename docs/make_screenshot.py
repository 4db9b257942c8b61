"""Redraw the pictures of the HTML report in ``html-report.md``, drawn by headless Chromium (the top of the page:
the summary and the first regressed method):

- ``html-report.png``: a copy of ``examples/demo`` with the README's regression applied (the binary search in
  ``src/demo/Search.java`` made to step one element at a time, ``lo = mid + 1;`` becoming ``lo = lo + 1;``),
  run with ``--bytecount-html`` against the demo's committed baselines;
- ``html-report-deep.png``: a deep verdict (and ``html-report-flame.png``: its differential flame graph). A project of its own (``DEEP_JAVA``, ``DEEP_TEST``): a method that
  counts the distinct values of an array with a ``HashSet``, marked ``deep=True``, its baseline recorded, then
  the set swapped for an ``ArrayList`` searched with ``contains``. The method's own instructions barely move; the
  JDK's work it sets off, which deep counts see, grows with the square of the input.

    python docs/make_screenshot.py [demo|deep]     (needs javac from a JDK, and chromium: Debian's package)
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.support.chromium import find_chromium, read_png, screenshot  # noqa: E402 - the tests' Chromium driver

OUT = Path(__file__).resolve().parent / "html-report.png"
DEMO = ROOT / "examples" / "demo"
IGNORED = shutil.ignore_patterns(".bytecount-cache", ".pytest_cache", "__pycache__", "*.bak")
EDITED = Path("src") / "demo" / "Search.java"
EDIT = ("lo = mid + 1;", "lo = lo + 1;")  # the README's sed command
EXPECTED = "3 failed, 5 passed"  # what the README says the edit does to the demo's 8 tests
WIDTH, HEIGHT = 1000, 900
OUT_DEEP = OUT.with_name("html-report-deep.png")
OUT_FLAME = OUT.with_name("html-report-flame.png")
DEEP_JAVA = """package shop;

import java.util.*;

public class Tags {
    /** How many distinct tags there are. */
    public static int distinct(int[] tags) {
        Set<Integer> seen = new HashSet<>();
        for (int t : tags) {
            seen.add(t);
        }
        return seen.size();
    }
}
"""
DEEP_EDIT = ("Set<Integer> seen = new HashSet<>();\n        for (int t : tags) {\n            seen.add(t);",
             "List<Integer> seen = new ArrayList<>();\n        for (int t : tags) {\n"
             "            if (!seen.contains(t)) seen.add(t);")
DEEP_TEST = """import jpype
import pytest


@pytest.mark.bytecount("shop.Tags#distinct", deep=True)
def test_distinct(bytecount):
    tags = jpype.JArray(jpype.JInt)(range(400))
    assert bytecount.jclass("shop.Tags").distinct(tags) == 400
"""


def pytest(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args], cwd=project, check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)


def write_png(path: Path, width: int, rows: list) -> None:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
    body = zlib.compress(b"".join(b"\0" + r for r in rows), 9)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def draw_flame(page: Path, out: Path) -> None:
    """The first differential flame graph of ``page``, with its heading and legend, drawn into ``out``: the rows
    from a little above the first frame of a new path (its red) to below the last frame drawn."""
    width, _, rows = read_png(screenshot(page, page.parent / "flame.png", WIDTH, 2600))
    red = bytes.fromhex("d63e30")
    first = next(y for y, r in enumerate(rows) if red in r)
    top = max(first - 90, 0)
    bottom = first
    while bottom + 1 < len(rows) and any(rows[y] != rows[y][:3] * width for y in range(bottom + 1, bottom + 12)):
        bottom += 1
    write_png(out, width, [bytes(r) for r in rows[top:bottom + 8]])
    print(f"wrote {out.relative_to(ROOT)} ({width} x {bottom + 8 - top})")


def draw(page: Path, out: Path) -> None:
    """The top of ``page`` drawn into ``out``, blank rows at the bottom cut."""
    shot = screenshot(page, page.parent / "shot.png", WIDTH, HEIGHT)
    width, _, rows = read_png(shot)
    rows = [bytes(r) for r in rows]
    while rows and rows[-1] == rows[-1][:3] * width:  # blank rows at the bottom
        rows.pop()
    write_png(out, width, rows)
    print(f"wrote {out.relative_to(ROOT)} ({width} x {len(rows)})")


def demo_scene(tmp: Path) -> None:
    project = tmp / "demo"
    shutil.copytree(DEMO, project, ignore=IGNORED)
    java = project / EDITED
    text = java.read_text()
    assert text.count(EDIT[0]) == 1, f"{EDITED} should hold {EDIT[0]!r} once"
    java.write_text(text.replace(*EDIT))
    run = pytest(project, "--bytecount-html=report")
    if run.returncode != 1 or EXPECTED not in run.stdout:
        sys.exit(f"pytest exited {run.returncode}, not 1 with {EXPECTED}:\n{run.stdout}")
    draw(project / "report" / "index.html", OUT)


def deep_scene(tmp: Path) -> None:
    project = tmp / "deep"
    (project / "src" / "shop").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "pyproject.toml").write_text('[tool.bytecount]\nsources = ["src"]\n\n'
                                            '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    java = project / "src" / "shop" / "Tags.java"
    java.write_text(DEEP_JAVA)
    (project / "tests" / "test_tags.py").write_text(DEEP_TEST)
    run = pytest(project, "--bytecount-update")
    if run.returncode != 0:
        sys.exit(f"recording the deep baseline: pytest exited {run.returncode}:\n{run.stdout}")
    assert DEEP_JAVA.count(DEEP_EDIT[0]) == 1
    java.write_text(DEEP_JAVA.replace(*DEEP_EDIT))
    run = pytest(project, "--bytecount-html=report")
    if run.returncode != 1 or "REGRESSED: deep" not in run.stdout:
        sys.exit(f"pytest exited {run.returncode}, not 1 with a deep regression:\n{run.stdout}")
    print(run.stdout)
    draw(project / "report" / "index.html", OUT_DEEP)
    draw_flame(project / "report" / "index.html", OUT_FLAME)


def main() -> None:
    if find_chromium() is None:
        sys.exit("no chromium on PATH (Debian: apt-get install chromium)")
    scenes = sys.argv[1:] or ["demo", "deep"]
    with tempfile.TemporaryDirectory(prefix="bytecount-screenshot-") as tmp:
        for scene in scenes:
            {"demo": demo_scene, "deep": deep_scene}[scene](Path(tmp))


if __name__ == "__main__":
    main()
