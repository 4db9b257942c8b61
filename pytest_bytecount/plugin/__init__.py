"""The pytest glue: the hooks, the options and the ``bytecount`` fixture (``hooks``, ``fixture``), one session's
policy (``session``: verdicts, results, the end; ``java``, ``baselines``, ``markers`` its parts), the settings
(``config``) and the end-of-session summary (``summary``)."""
