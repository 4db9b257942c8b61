"""The JVM session: which JVM (``session.choose_jvm``), starting it once per process through JPype, the
class loaders that hold instrumented classes, reading the counters back, and javac for ``sources``."""
