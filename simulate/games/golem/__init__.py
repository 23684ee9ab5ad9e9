"""The Golem (Cranio Creations) package: its numba cache is kept per user and per sources' digest (jitcache).

The rules are in two sub-packages: ``engine`` (numba; its functions are inlined in the kernels of ``play``, so they
are cached with this package's, under one digest) and ``reference`` (plain Python, the readable twin).
"""

from simulate.jitcache import use_cache

use_cache(__file__, subpackages=("engine",))
