"""Simulation side of the Golem balance lab: engines, bots, the runner and the CLI."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("golem-lab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
