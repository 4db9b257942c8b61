"""Java classes and exceptions as the layers above see them, so that JPype stays under ``jvm/``: a class loaded by
name through a class loader (with the reasons it may not load as Python exceptions), the running JVM's class
path, and whether a Python exception is a Java one."""

from __future__ import annotations

from typing import Optional


class ClassMissing(Exception):
    """The class loader has no class of that name (``ClassNotFoundException``)."""


class ClassLoadError(Exception):
    """The class is there but does not load (a ``LinkageError``: ``VerifyError``, ``ClassFormatError``, ...)."""

    def __init__(self, kind: str, message: Optional[str]):
        super().__init__(kind if message is None else f"{kind}: {message}")
        self.kind = kind  # the Java error's class name
        self.message = message  # its message, if any


def load_class(name: str, loader):
    """The class ``name`` (``pkg.Cls`` or ``pkg.Outer$Inner``) through ``loader``, initialized, as JPype's
    class object. A static initializer that throws raises its ``ExceptionInInitializerError`` as it is (the test
    may expect it); else :class:`ClassMissing` or :class:`ClassLoadError`."""
    import jpype

    try:
        return jpype.JClass(jpype.JClass("java.lang.Class").forName(name, True, loader))
    except jpype.JClass("java.lang.LinkageError") as e:
        if isinstance(e, jpype.JClass("java.lang.ExceptionInInitializerError")):
            raise
        message = e.getMessage()
        failure = ClassLoadError(str(e.getClass().getName()), None if message is None else str(message))
    except jpype.JClass("java.lang.ClassNotFoundException"):
        failure = ClassMissing(name)
    raise failure  # outside the except: no Java exception chained to it


def load_error(name: str, loader) -> Optional[str]:
    """The class name of the Java error that loading ``name`` through ``loader`` throws (None: it loads)."""
    import jpype

    try:
        jpype.JClass("java.lang.Class").forName(name, True, loader)
    except jpype.JClass("java.lang.Throwable") as e:
        return str(e.getClass().getName())
    return None


def system_class_path() -> str:
    """The running JVM's ``java.class.path``."""
    import jpype

    return str(jpype.JClass("java.lang.System").getProperty("java.class.path") or "")


def is_java_exception(error: BaseException) -> bool:
    """Whether ``error`` is a Java exception as JPype raises it in Python."""
    import jpype

    return isinstance(error, jpype.JException)
