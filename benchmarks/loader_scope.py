"""What a counted test costs when its classes have an expensive start-up, with a loader of its own per test
against one loader its module shares (``loader_scope="module"``); figures, not a test.

    python benchmarks/loader_scope.py [--tests 20] [--rounds 3] [--words 300000]

The class under test is shaped like a tagger of a natural-language library (konlpy's, say): its static
initializer builds a dictionary of ``--words`` entries, and each test tags a few words. Per test, each
way, as the plugin does it: a loader (fresh, or a handle on the shared one that counts from now), the
class from it, ten words tagged, the counts read. The ways alternate round by round; the figure is the
median over rounds of milliseconds per test. Each way's counts of ``tag`` per test are printed: they are
equal, since a test's counts are its own run either way.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from _support import JDK17  # first: this checkout's package
from pytest_bytecount.classfile.classpath import Classpath
from pytest_bytecount.counting.pipeline.per_class import ClassCounter
from pytest_bytecount.jvm.loaders import LoadTimeLoaders
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

TAGGER = """
package nlp;

import java.util.HashMap;
import java.util.Map;

public class Tagger {
    static final Map<String, String> DICTIONARY = new HashMap<>();
    static {
        String[] tags = {"Noun", "Verb", "Adjective", "Adverb", "Josa"};
        for (int i = 0; i < WORDS; i++) DICTIONARY.put("w" + i, tags[i % tags.length]);
    }
    public static String tag(String word) {
        String t = DICTIONARY.get(word);
        return t == null ? "Unknown" : t;
    }
}
"""


def compiled(java_home: str, words: int) -> Path:
    src = Path(tempfile.mkdtemp(prefix="bytecount-tagger-src-"))
    (src / "nlp").mkdir()
    (src / "nlp" / "Tagger.java").write_text(TAGGER.replace("WORDS", str(words)))
    classes = Path(tempfile.mkdtemp(prefix="bytecount-tagger-"))
    subprocess.run([str(Path(java_home) / "bin" / "javac"), "-d", str(classes), str(src / "nlp" / "Tagger.java")],
                   check=True)
    return classes


def one_test(loaders: LoadTimeLoaders, handle) -> int:
    import jpype

    tagger = jpype.JClass(jpype.JClass("java.lang.Class").forName("nlp.Tagger", True, handle.loader))
    for i in range(10):
        tagger.tag(f"w{i * 7}")
    return handle.counts()["nlp.Tagger#tag(Ljava/lang/String;)Ljava/lang/String;"]["total"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tests", type=int, default=20, help="counted tests per round and way")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--words", type=int, default=300_000, help="entries of the dictionary built at start-up")
    p.add_argument("--java-home", default=JDK17)
    args = p.parse_args(argv)
    classes = compiled(args.java_home, args.words)
    session = JvmSession(choose_jvm(args.java_home), [], agent=True)
    session.start()
    loaders = LoadTimeLoaders(session, ClassCounter(Classpath.parse([str(classes)]), ["nlp.Tagger#tag"]), [classes])
    print(f"loader_scope: {args.tests} tests x {args.rounds} rounds, a dictionary of {args.words:,} words, on "
          f"{session.choice.describe()}", flush=True)
    times: dict = {"test": [], "module": []}
    totals: dict = {"test": set(), "module": set()}
    for _ in range(args.rounds):
        for way in ("test", "module"):
            shared = loaders.new() if way == "module" else None
            start = time.perf_counter()
            for _ in range(args.tests):
                handle = loaders.new() if shared is None else loaders.shared(shared)
                totals[way].add(one_test(loaders, handle))
                handle.close()
            times[way].append((time.perf_counter() - start) * 1000 / args.tests)
            if shared is not None:
                shared.close()
    for way in ("test", "module"):
        print(f"  loader_scope={way!r:9} {statistics.median(times[way]):9.2f} ms per test   tag's total per test: "
              f"{sorted(totals[way])}")
    print(f"  ratio: {statistics.median(times['test']) / statistics.median(times['module']):.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
