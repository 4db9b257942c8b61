"""What code goes there: the counting code emitted into a method (``emit``) and the support classes it reports to, assembled from text (``runtime``: Counters.jasm, Report.jasm)."""
