"""The start of a child script that tries one of the agent's Java transformers on a real JVM (``child_on_jvm``):
the JVM started with the agent, and ``following``, a Python transformer to put behind it, which notes in ``seen``
each class that reaches it and answers with the bytes it was given behind ``MARK``."""

HEAD = """
import json, sys
sys.path.insert(0, sys.argv[2])
import jpype
from pytest_bytecount.jvm.agent import instrumentation, transformer_class
from pytest_bytecount.jvm.session import JvmSession, choose_jvm

JvmSession(choose_jvm(sys.argv[1], "server"), [], agent=True).start()
J = jpype.JClass
seen = []

def following(loader, name, being_redefined, data):  # the next transformer: says what reached it
    seen.append(str(name))
    return jpype.JArray(jpype.JByte)(MARK + bytes(memoryview(data)))
"""
