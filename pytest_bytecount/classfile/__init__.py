"""The class-file format (JVMS §4): lossless reading and writing, and label-based code editing.

This layer knows nothing of counting. See :class:`ClassFile` and :class:`~.code.Code`.
"""

from .code import Code, Handler, Insn, Label, Switch
from .constant_pool import ConstantPool
from .errors import ClassFormatError, CodeFormatError, CodeTooLargeError
from .frames import Frame, Obj, Uninit
from .model import Attribute, ClassFile, Member, Method

from . import model as _model

_model.CODE_DECODER = Code.decode  # a method's Code attribute decodes on demand (Method.code)

__all__ = [
    "Attribute", "ClassFile", "ClassFormatError", "Code", "CodeFormatError", "CodeTooLargeError",
    "ConstantPool", "Frame", "Handler", "Insn", "Label", "Member", "Method", "Obj", "Switch", "Uninit",
]
