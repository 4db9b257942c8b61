"""Access flags (JVMS §4.1 table 4.1-B, §4.5 table 4.5-A, §4.6 table 4.6-A): the one place they are spelled.

Plain ints, not an IntFlag: flags are written into class files as u2 values, and the same bit means
different things for classes and methods (0x0020 is ACC_SUPER on a class, ACC_SYNCHRONIZED on a method).
"""

ACC_PUBLIC = 0x0001
ACC_PRIVATE = 0x0002
ACC_PROTECTED = 0x0004
ACC_STATIC = 0x0008
ACC_FINAL = 0x0010
ACC_SUPER = 0x0020  # classes
ACC_SYNCHRONIZED = 0x0020  # methods
ACC_VOLATILE = 0x0040  # fields
ACC_TRANSIENT = 0x0080  # fields
ACC_NATIVE = 0x0100
ACC_INTERFACE = 0x0200
ACC_ABSTRACT = 0x0400
ACC_SYNTHETIC = 0x1000
