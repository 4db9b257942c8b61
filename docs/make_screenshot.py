"""Redraw ``html-report.png``, the README's picture of the HTML report: the demo's sort and fib tests
recorded, then one line of the insertion sort made to loop, run again with ``--bytecount-html`` and drawn by
headless Chromium (the top of the page: the summary and the first regressed method with its source lines).

    python docs/make_screenshot.py      (needs a JDK with javac, and chromium: Debian's package)
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
TEST = '''
import jpype
import pytest

@pytest.mark.bytecount("demo.Sorting#insertionSort")
@pytest.mark.parametrize("n", [10, 50])
def test_sort(bytecount, n):
    a = jpype.JArray(jpype.JInt)(list(range(n, 0, -1)))
    bytecount.jclass("demo.Sorting").insertionSort(a)
    assert list(a) == sorted(a)

@pytest.mark.bytecount("demo.Sorting#fib")
def test_fib(bytecount):
    assert bytecount.jclass("demo.Sorting").fib(12) == 144
'''
EDIT = ("a[j + 1] = x;", "a[j + 1] = x; for (int k = 0; k < 2; k++) { x += 0; }")
WIDTH, HEIGHT = 1000, 1180


def pytest(project: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:faulthandler", "-p", "no:cacheprovider", *args],
                   cwd=project, check=False, stdout=subprocess.DEVNULL)


def write_png(path: Path, width: int, rows: list) -> None:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
    body = zlib.compress(b"".join(b"\0" + r for r in rows), 9)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def main() -> None:
    if find_chromium() is None:
        sys.exit("no chromium on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="bytecount-screenshot-") as tmp:
        project = Path(tmp)
        shutil.copytree(ROOT / "examples" / "demo" / "src", project / "src")
        (project / "pyproject.toml").write_text('[tool.bytecount]\nsources = ["src"]\n')
        (project / "test_sorting.py").write_text(TEST)
        pytest(project, "--bytecount-update")
        java = project / "src" / "demo" / "Sorting.java"
        java.write_text(java.read_text().replace(*EDIT))
        pytest(project, "--bytecount-html=report")
        shot = screenshot(project / "report" / "index.html", project / "shot.png", WIDTH, HEIGHT)
        width, _, rows = read_png(shot)
    rows = [bytes(r) for r in rows]
    while rows and rows[-1] == rows[-1][:3] * width:  # blank rows at the bottom
        rows.pop()
    write_png(OUT, width, rows)
    print(f"wrote {OUT.relative_to(ROOT)} ({width} x {len(rows)})")


if __name__ == "__main__":
    main()
