"""Counting, one class at a time: which methods a pattern names (``targets``), the counts format and what
each counter stands for (``counts``), where the counters go (``flow``), what code goes there (``instr``),
how calls link for inclusive counts (``links``), and the pipeline of a class as its loader asks for it
(``pipeline``). The groups import only downwards, in that order. Bytes in; bytes and counter maps out.
Knows nothing of JVMs or pytest."""
