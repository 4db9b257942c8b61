"""The pytest glue: the hooks, the options and the ``bytecount`` fixture (``hooks``, ``fixture``), one session's
state (``session``: the settings read once, collection, the results; ``java``, ``baselines``, ``markers``,
``verdicts`` its parts), one pytest plugin per concern (``hooks``' counted tests, ``recording``, ``outputs``,
``jvm_guard``), the settings (``config``) and the end-of-session summary (``ending``, ``summary``)."""
