"""The built wheel carries every file the package reads at run time, not only its Python modules."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pytest_bytecount"


def test_the_wheel_holds_every_file_of_the_package(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(tmp_path), str(ROOT)], check=True, timeout=300)
    wheel, = tmp_path.glob("pytest_bytecount-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        packed = {name for name in archive.namelist() if name.startswith("pytest_bytecount/")}
    wanted = {path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*")
              if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"}
    assert wanted - packed == set()
    assert any(name.endswith(".jasm") for name in packed)
