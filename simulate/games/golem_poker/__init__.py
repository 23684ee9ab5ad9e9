"""The golem-poker package: its numba cache is dropped when a source changes (simulate.jitcache)."""

from simulate.jitcache import drop_stale_cache

drop_stale_cache(__file__)
