"""Baseline size when a marker matches a whole library (figures, not a test).

    python benchmarks/baseline_size.py [--jar /usr/share/java/guava.jar] [--pattern 'com.google.common.**']

Writes a throw-away pytest project whose one test splits a short string with guava's ``Splitter`` under
``@pytest.mark.bytecount(PATTERN)``, runs ``pytest --bytecount-update --bytecount-json=results.json`` in it
(a real pytest process), and prints, side by side from that one run:
- the baseline file as written (only the methods that ran);
- the same file rendered with every matched method's entry, ran or not (what a baseline held when it
  stored zeros), from the counts in ``results.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from pytest_bytecount.regression.baseline import BaselineFile

TEST = '''
import pytest

@pytest.mark.bytecount({pattern!r})
def test_split(bytecount):
    splitter = bytecount.jclass("com.google.common.base.Splitter")
    parts = splitter.on(",").trimResults().splitToList("a, b ,c")
    assert [str(p) for p in parts] == ["a", "b", "c"]
'''


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jar", default="/usr/share/java/guava.jar", help="the library (Debian's libguava-java)")
    p.add_argument("--pattern", default="com.google.common.**")
    args = p.parse_args(argv)
    jar = Path(args.jar).resolve()
    if not jar.is_file():
        print(f"no such jar: {jar} (apt-get install libguava-java)", file=sys.stderr)
        return 2
    project = Path(tempfile.mkdtemp(prefix="bytecount-size-"))
    (project / "pyproject.toml").write_text(f'[tool.bytecount]\nclasspath = [{json.dumps(str(jar))}]\n')
    (project / "test_split.py").write_text(textwrap.dedent(TEST.format(pattern=args.pattern)))
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--bytecount-update",
                          "--bytecount-json=results.json", "--bytecount-no-cache"],
                         cwd=project, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        print(run.stdout[-3000:], run.stderr[-3000:], sep="\n", file=sys.stderr)
        return 1
    path = project / "bytecount" / "test_split.json"
    written = BaselineFile.load(path)
    entry = written.tests["test_split"]
    counted = json.loads((project / "results.json").read_text())["test_split.py::test_split"]["counts"]
    every = BaselineFile(path, {"test_split": {**entry, "methods": counted}})
    size_ran, size_all = path.stat().st_size, len(every.render().encode("utf-8"))
    print(f"pattern {args.pattern!r} on {jar.name}: {len(counted):,} methods matched, "
          f"{len(entry['methods']):,} ran ({seconds:.1f} s for the pytest run, instrumenting afresh)")
    print(f"{'baseline':34} {'entries':>8} {'bytes':>12}")
    print(f"{'only the methods that ran':34} {len(entry['methods']):>8,} {size_ran:>12,}")
    print(f"{'every matched method':34} {len(counted):>8,} {size_all:>12,}")
    print(f"ratio {size_all / size_ran:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
