"""The package's version, at the bottom of the layers: every module that names the version imports it from here."""

__version__ = "0.1.0.dev0"
