"""The cases' test modules run only inside a project that compiles their Java (see this package's
``write_project``), never as part of this repository's own suite."""

collect_ignore_glob = ["cases/*"]
