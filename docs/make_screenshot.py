"""Redraw ``html-report.png``, the picture of the HTML report in ``html-report.md``: a copy of
``examples/demo`` with the README's regression applied (the binary search in ``src/demo/Search.java`` made
to step one element at a time, ``lo = mid + 1;`` becoming ``lo = lo + 1;``), run with ``--bytecount-html``
against the demo's committed baselines and drawn by headless Chromium (the top of the page: the summary and
the first regressed method with its source lines).

    python docs/make_screenshot.py      (needs javac from a JDK, and chromium: Debian's package)
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


def main() -> None:
    if find_chromium() is None:
        sys.exit("no chromium on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="bytecount-screenshot-") as tmp:
        project = Path(tmp) / "demo"
        shutil.copytree(DEMO, project, ignore=IGNORED)
        java = project / EDITED
        text = java.read_text()
        assert text.count(EDIT[0]) == 1, f"{EDITED} should hold {EDIT[0]!r} once"
        java.write_text(text.replace(*EDIT))
        run = pytest(project, "--bytecount-html=report")
        if run.returncode != 1 or EXPECTED not in run.stdout:
            sys.exit(f"pytest exited {run.returncode}, not 1 with {EXPECTED}:\n{run.stdout}")
        shot = screenshot(project / "report" / "index.html", project / "shot.png", WIDTH, HEIGHT)
        width, _, rows = read_png(shot)
    rows = [bytes(r) for r in rows]
    while rows and rows[-1] == rows[-1][:3] * width:  # blank rows at the bottom
        rows.pop()
    write_png(OUT, width, rows)
    print(f"wrote {OUT.relative_to(ROOT)} ({width} x {len(rows)})")


if __name__ == "__main__":
    main()
