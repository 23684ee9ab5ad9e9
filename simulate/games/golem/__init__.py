"""The Golem (Cranio Creations) package: its numba cache is kept per user and per sources' digest (jitcache)."""

from simulate.jitcache import use_cache

use_cache(__file__)
