"""The pytest glue: options, the marker and the ``bytecount`` fixture (``hooks``), the settings from
``[tool.bytecount]`` (``config``) and the end-of-session summary (``summary``)."""
