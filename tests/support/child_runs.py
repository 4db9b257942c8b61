"""What every child pytest the suite starts is given: its tests in the order written.

pytest-randomly is a test extra (tests/plugin/test_other_plugins.py runs it on purpose), and once installed it
autoloads into every pytest of the environment and shuffles its tests; the suite's child runs print outputs the tests
read in order, so they go without it unless a test asks for it."""

NO_RANDOMLY = "-p no:randomly"  # the PYTEST_ADDOPTS of a child pytest
