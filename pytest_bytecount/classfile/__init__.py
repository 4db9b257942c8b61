"""The class-file format (JVMS §4): lossless reading and writing, and label-based code editing.

This layer knows nothing of counting. See :class:`ClassFile` and :class:`~.code.Code`.
"""

from .code import Code
from .constant_pool import ConstantPool
from .decode import decode_code
from .errors import ClassFormatError, CodeFormatError, CodeTooLargeError
from .frames import Frame, Obj, Uninit
from .instructions import Handler, Insn, Label, Switch
from .model import Attribute, ClassFile, Member, Method

from . import model as _model

# A method's Code attribute decodes on demand (Method.code). The model cannot import the decoder, which
# builds on it, so the decoder is installed here, where every use of this package starts.
_model.CODE_DECODER = decode_code

__all__ = [
    "Attribute", "ClassFile", "ClassFormatError", "Code", "CodeFormatError", "CodeTooLargeError",
    "ConstantPool", "Frame", "Handler", "Insn", "Label", "Member", "Method", "Obj", "Switch", "Uninit",
]
