"""Inclusive counting keeps a class file of before version 50 linking as it did. Such classes are verified by type
inference: where paths join, the verifier merges each local's types, loading the classes it merges. The inclusive
hooks spill a dispatched call's arguments into locals of their own; left holding one call's argument class on one
path and another's on the other, they made the verifier load a class the original never needed (ASM's test corpus:
a JSP of version 48 threw NoClassDefFoundError for a Spring class after `instrument --inclusive`). The source is
compiled by ecj for Java 1.4 (version 48), and the class the original never needs to link is removed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.support.javac import compile_java
from tests.support.jdk import find_jdk_tool

SOURCE = """package old;

public class Main {
    int seen;

    void sink(Object o) {
        seen++;
    }

    static Foo makeFoo() {
        return new Foo();
    }

    static Bar makeBar() {
        return new Bar();
    }

    public static int run(boolean b) {
        Main m = new Main();
        if (b) {
            m.sink(makeFoo());
        } else {
            m.sink(makeBar());
        }
        m.sink("x");
        return m.seen;
    }

    public static void main(String[] args) {
        System.out.println(run(true));
    }
}

class Foo {
}

class Bar {
}
"""


def test_instrument_inclusive_keeps_a_version_48_class_linking_without_the_classes_it_never_needed(tmp_path):
    (tmp_path / "src" / "old").mkdir(parents=True)
    (tmp_path / "src" / "old" / "Main.java").write_text(SOURCE)
    built = compile_java(tmp_path / "src", compiler="ecj", options=["-source", "1.4", "-target", "1.4"])
    classes = tmp_path / "classes"
    shutil.copytree(built, classes)
    (classes / "old" / "Bar.class").unlink()  # run(true) never makes a Bar: the original links and runs without it
    assert (classes / "old" / "Main.class").read_bytes()[6:8] == b"\x00\x30"  # major version 48
    java = str(find_jdk_tool("java"))
    plain = subprocess.run([java, "-cp", str(classes), "old.Main"], capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0 and plain.stdout.strip() == "2", plain.stderr
    made = subprocess.run([sys.executable, "-m", "pytest_bytecount", "instrument", "--classpath", str(classes),
                           "--target", "old.Main#run", "--inclusive", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    ran = subprocess.run([java, "-cp", f"{tmp_path / 'out'}:{classes}", f"-Dbytecount.out={tmp_path / 'c.json'}",
                          "old.Main"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "2", ran.stderr
    run = json.loads((tmp_path / "c.json").read_text())["old.Main#run(Z)I"]
    assert run["invocations"] == 1 and run["calls"]["old/Main.sink(Ljava/lang/Object;)V"] == 2
