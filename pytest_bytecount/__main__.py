"""``python -m pytest_bytecount``: see :mod:`pytest_bytecount.cli`."""

import sys

from .cli import main

sys.exit(main())
