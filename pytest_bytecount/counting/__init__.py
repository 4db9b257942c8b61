"""The counting transform: which methods a pattern names (``targets``), where the counters go (``flow``,
``plan``, ``method_plan``) and what code counts and reports them (``emit``, ``transform``, ``inclusive``),
the support classes (``runtime``), and the counts they produce (``counts``). Bytes in; bytes and counter
maps out. Knows nothing of JVMs or pytest."""
