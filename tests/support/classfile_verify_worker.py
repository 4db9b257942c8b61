"""Child process of ``verifier.verify_classfile_api``: runs ``java.lang.classfile`` verification.

Run as a script, never imported by the tests (it starts a JVM, and a process gets only one)::

    python classfile_verify_worker.py LIBJVM INPUT.zip OUTPUT.jsonl CLASSPATH_ENTRY...

INPUT.zip holds ``<name>.class`` entries. OUTPUT.jsonl gets one line per class that fails,
``{"name": ..., "errors": [...]}``, or is skipped, ``{"name": ..., "skipped": reason}``, then
``{"done": count, "seconds": verify_loop_seconds}``. JVM options come from
``$BYTECOUNT_VERIFY_JVM_OPTIONS`` (default: serial GC, C1 only: quickest for one pass).
Self-contained on purpose: no imports from the project.
"""

import json
import os
import sys
import time
import zipfile

import jpype

SUFFIX = ".class"
# ClassFile.verify has no type-inference verifier: for major < 50 it returns this single
# error for every class, valid or not (see verifier.py's docstring).
INFERENCE_MIN_MAJOR = 50
NO_INFERENCE = "Inference verification is not supported"
MAGIC = b"\xca\xfe\xba\xbe"


class ClassBytes:
    """Classpath-first lookup of class bytes by internal name: the classpath entries in
    order, then the classes under test themselves."""

    def __init__(self, classpath, under_test):
        self.entries = []
        for entry in classpath:
            if os.path.isdir(entry):
                self.entries.append((entry, None, None))
            elif os.path.isfile(entry):
                jar = zipfile.ZipFile(entry)
                self.entries.append((entry, jar, set(jar.namelist())))
        self.under_test = under_test

    def lookup(self, internal_name):
        member = internal_name + SUFFIX
        for entry, jar, names in self.entries:
            if jar is None:
                path = os.path.join(entry, *member.split("/"))
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        return f.read()
            elif member in names:
                return jar.read(member)
        return self.under_test(internal_name)


def main(argv):
    libjvm, input_zip, output, *classpath = argv
    jvm_options = os.environ.get("BYTECOUNT_VERIFY_JVM_OPTIONS", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1").split()
    jpype.startJVM(libjvm, "--enable-native-access=ALL-UNNAMED", "-Xss8m", *jvm_options, convertStrings=False)
    JByteArray = jpype.JArray(jpype.JByte)
    ByteArrayInputStream = jpype.JClass("java.io.ByteArrayInputStream")
    ClassFile = jpype.JClass("java.lang.classfile.ClassFile")
    Resolver = jpype.JClass("java.lang.classfile.ClassHierarchyResolver")

    given = zipfile.ZipFile(input_zip)
    names = [n[: -len(SUFFIX)] for n in given.namelist() if n.endswith(SUFFIX)]
    given_set = set(names)

    def read_given(name):
        return given.read(name + SUFFIX) if name in given_set else None

    lookup = ClassBytes(classpath, read_given)

    @jpype.JImplements("java.util.function.Function")
    class ResourceByDesc:
        @jpype.JOverride
        def apply(self, desc):
            descriptor = str(desc.descriptorString())  # "Lpkg/Name;"
            if not descriptor.startswith("L"):
                return None
            data = lookup.lookup(descriptor[1:-1])
            return None if data is None else ByteArrayInputStream(JByteArray(data))

    # Classpath first, then the running JDK's own classes; cached, since verification asks
    # for the same supertypes over and over. One thread: a second one gains nothing while
    # the JIT compiler is busy on the other core, and the plain cache is a HashMap.
    resolver = Resolver.ofResourceParsing(ResourceByDesc()).orElse(Resolver.defaultResolver()).cached()
    classfile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(resolver))

    def verify(data):
        try:
            return [str(e.getMessage()) for e in classfile.verify(JByteArray(data))]
        except Exception as exc:  # parse errors and resolver failures are failures too
            return [f"{type(exc).__name__}: {exc}"]

    started = time.perf_counter()
    with open(output, "w", encoding="utf-8") as out:
        for name in names:
            data = read_given(name)
            major = int.from_bytes(data[6:8], "big") if data[:4] == MAGIC and len(data) >= 8 else None
            if major is not None and major < INFERENCE_MIN_MAJOR:
                record = {"name": name, "skipped": f"class version {major} < 50 needs the type-inference "
                                                   "verifier, which java.lang.classfile does not have"}
                out.write(json.dumps(record) + "\n")
                continue
            errors = verify(data)
            if major == INFERENCE_MIN_MAJOR and errors == [NO_INFERENCE]:
                # Version 50 fell back from the type checker to the missing inference verifier,
                # losing the reason; as version 51 there is no fallback and the reason shows.
                errors = [NO_INFERENCE] + [f"as version 51: {m}" for m in verify(data[:6] + b"\x00\x33" + data[8:])]
            if errors:
                out.write(json.dumps({"name": name, "errors": errors}) + "\n")
        out.write(json.dumps({"done": len(names), "seconds": time.perf_counter() - started}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
