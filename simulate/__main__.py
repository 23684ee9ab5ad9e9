"""`python -m simulate` runs the `golem` command line."""

from simulate.cli import entry

entry()
