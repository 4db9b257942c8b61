"""A JVM that starts with its class library counted deep: the counted classes a warm deep cache keeps
(``library.pack``) handed to the JVM's start as ``--patch-module`` jars, so that the JVM loads them counted from
its first instruction and the deep set-up has nothing to redefine or retransform for them.

The jars are written once per state of the pack (``patch/<key>/``, one jar per module and ``names``, the classes
they hold), beside the pack, and never changed: a JVM reads its jars while it runs. A newer pack gets a folder of
its own; a folder older than :data:`KEEP_OLD` seconds that is not the newest is removed when another is written
(a JVM that started from it holds its files open). Left out of the jars, and so given their counted bytes by the
set-up as before:

- a class that declares ``finalize()``: the JVM decides at load whether a class's objects are registered for
  finalization, from whether that method's body is empty (``Object``'s and ``Enum``'s are). Counted, it is not
  empty: every object would be registered, from the JVM's first allocation on;
- a class the JDK spins as it runs (:data:`SPUN`): the deep cache keeps what it counted of them by name, but
  they are not in the runtime's image, and the JDK looks for them there before it spins one;
- a class of a module other than those of :data:`MODULES` (or of a package the cache does not know: the boot
  layer's packages and their modules, ``prepared-modules``, are recorded by the first set-up on this class
  library).

The deep runtime class (``java.lang.PytestBytecountDeep``) goes into ``java.base``'s jar: the counted classes call
it from the start. It ignores what they report until the set-up turns it on (``on()``): early in the JVM's start
``Thread.currentThread`` may not be called yet.

Class-data sharing is already off for deep counts, so the patch costs the JVM's start only the module graph it
resolves without its archived one, and reading the jars.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import zipfile
from pathlib import Path
from typing import Optional

from .deep_cache import PACK, _sound, class_library_digest, deep_folder, read_pack

MODULES_KEY = "modules"  # the deep cache's prepared entry: "<package> <module>" lines of the boot layer
FOLDER = "patch"
NAMES = "names"  # in a patch folder: the internal names of the classes its jars hold
KEEP_OLD = 3600.0
OPTION = "--patch-module="
# the modules patched: java.base holds nearly all of the classes a JVM loads before a test, and each module patched
# costs the JVM's start a module reader of its own (three small ones of the platform loader, about 30 classes in
# all, cost 0.05 s of CPU on HotSpot 17: more than the set-up's redefinition of their classes)
MODULES = ("java.base",)
# classes the JDK defines in its own packages as it runs, under names a class of the image may also have: the
# method-handle species it spins when the image holds none of that shape (the image's own are pregenerated). In
# the patch, a spun one would be found as if pregenerated, and a window that spins it would stop spinning it
SPUN = ("java/lang/invoke/BoundMethodHandle$Species_",)


def patch_options(home: Path) -> list:
    """The ``--patch-module`` options that start the runtime at ``home`` with the deep runtime class and the counted
    classes its deep cache keeps (none when it is cold), the jars written first if they are not yet; empty when
    the cache cannot be read or written (the set-up then defines the runtime, and gives the classes their counted
    bytes as the JVM runs)."""
    try:
        if not (Path(home) / "lib" / "modules").is_file():
            return []
        folder = deep_folder(class_library_digest(Path(home)))
        modules = _read_prepared(folder, MODULES_KEY)
        pack = folder / PACK
        if modules is None or not pack.is_file():
            key, modules = "runtime", None  # a cold cache: the same start, with only the runtime
        else:
            st = pack.stat()
            # by size and time, which a CI cache restores with the pack (its inode it does not)
            key = hashlib.sha256(f"{st.st_size}|{st.st_mtime_ns}".encode() + modules).hexdigest()[:16]
        target = folder / FOLDER / key
        if not (target / NAMES).is_file():
            _write(target, pack.read_bytes() if modules is not None else b"", _package_modules(modules or b""))
        return [f"{OPTION}{jar.stem}={jar}" for jar in sorted(target.glob("*.jar"))]
    except OSError:
        return []


def unless_patched(options: list, others) -> list:
    """``options`` without the deep cache's patch when ``others`` (the JVM's other options) patch a module: the JVM
    takes one ``--patch-module`` per module. Their deep set-up then gives the classes their counted bytes."""
    if any(str(o).startswith("--patch-module") for o in others):
        return [o for o in options if not o.startswith(OPTION)]
    return options


def patched_names(arguments) -> Optional[frozenset]:
    """The internal names of the classes a JVM started with these arguments (the running JVM's, as
    ``jdk.internal.misc.VM.getRuntimeArguments`` gives them) holds counted from the patch, or None when it was not
    started with one of :func:`patch_options`'."""
    for argument in arguments:
        argument = str(argument)
        if argument.startswith(OPTION + "java.base="):
            names = Path(argument[len(OPTION + "java.base="):]).parent / NAMES
            if names.parent.parent.name != FOLDER:
                return None
            try:
                return frozenset(names.read_text(encoding="utf-8").split())
            except OSError:
                return None
    return None


def _read_prepared(folder: Path, key: str) -> Optional[bytes]:
    from .deep_cache import _DIGEST, _digest

    try:
        entry = (folder / f"prepared-{key}").read_bytes()
    except OSError:
        return None
    return entry[_DIGEST:] if entry[:_DIGEST] == _digest(key, entry[_DIGEST:]) else None


def _package_modules(text: bytes) -> dict:
    out = {}
    for line in text.decode("utf-8").splitlines():
        package, _, module = line.partition(" ")
        if module:
            out[package] = module
    return out


def modules_text(pairs) -> bytes:
    """The prepared entry :data:`MODULES_KEY` for ``(package, module)`` pairs (packages with ``/``)."""
    return "".join(f"{p} {m}\n" for p, m in sorted(pairs)).encode("utf-8")


def declares_finalize(data: bytes) -> bool:
    """Whether a class file declares a ``finalize()V`` method."""
    if b"finalize" not in data:
        return False
    from ..classfile.model import ClassFile

    return any(m.name == "finalize" and m.descriptor == "()V" for m in ClassFile.parse(data).methods)


def _write(target: Path, raw: bytes, modules: dict) -> None:
    """The patch folder for a pack's bytes: written beside ``target`` and renamed to it whole."""
    from ..counting.instr.deep import DEEP_CLASS, deep_runtime_class

    records, _ = read_pack(raw)
    jars: dict = {}
    for name, entry in records.items():
        data = _sound(name, entry)
        module = modules.get(name.rpartition("/")[0])
        if data is None or module not in MODULES or name.startswith(SPUN) or declares_finalize(data):
            continue
        jars.setdefault(module, {})[name] = data
    names = sorted(n for files in jars.values() for n in files)
    jars.setdefault("java.base", {})[DEEP_CLASS] = deep_runtime_class()
    target.parent.mkdir(parents=True, exist_ok=True)
    _prune(target.parent)
    building = target.parent / f".{target.name}.{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir()
    try:
        for module, files in jars.items():
            with zipfile.ZipFile(building / f"{module}.jar", "w", zipfile.ZIP_STORED) as jar:
                for name in sorted(files):
                    jar.writestr(f"{name}.class", files[name])
        (building / NAMES).write_text("".join(f"{n}\n" for n in names), encoding="utf-8")
        os.rename(building, target)
    except OSError:
        if not (target / NAMES).is_file():
            raise
    finally:
        shutil.rmtree(building, ignore_errors=True)


def _prune(parent: Path) -> None:
    """Remove the patch folders older than :data:`KEEP_OLD` seconds (a newer one is about to be written)."""
    now = time.time()
    for old in parent.iterdir():
        try:
            if now - old.stat().st_mtime > KEEP_OLD:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass
