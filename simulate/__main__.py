"""`python -m simulate` runs the `golem` command line."""

from simulate.cli import entry

if __name__ == "__main__":  # not when a spawned worker process (e.g. a Dask worker) imports this module
    entry()
