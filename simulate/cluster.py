"""Playing a run's chunks as tasks on a Dask distributed cluster (``golem simulate --cluster``).

Each chunk is one task: the same pure function of the run spec and chunk index that local
workers run (:func:`simulate.runner.play_chunk_to_parts`), writing its parts atomically to the
run's output location, so the files are the same whatever the backend and number of workers. The
client records each finished chunk in the manifest. A worker that dies loses its task, which the
scheduler runs again elsewhere.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distributed import Client

LOCAL = "local:"


class ClusterError(ValueError):
    """A cluster that cannot be started or reached; one-line message."""


def parse_cluster(text: str) -> tuple[str, Any]:
    """``("local", N)`` for ``local:N``, else ``("scheduler", address)`` for ``tcp://HOST:PORT`` and the like."""
    if text.startswith(LOCAL):
        count = text[len(LOCAL) :]
        if not count.isdigit() or int(count) < 1:
            raise ClusterError(f"--cluster {text}: give local:N with N at least 1 worker processes")
        return "local", int(count)
    if "://" not in text:
        raise ClusterError(f"--cluster {text}: give a scheduler address such as tcp://HOST:8786, or local:N")
    return "scheduler", text


@contextlib.contextmanager
def connect(cluster: str | Client) -> Iterator[Client]:
    """A client of ``cluster``: an existing ``Client``, a scheduler address, or ``local:N`` (started here)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--cluster needs dask.distributed: pip install 'golem-lab[cluster]'") from None
    if not isinstance(cluster, str):
        yield cluster
        return
    kind, value = parse_cluster(cluster)
    if kind == "local":
        with (
            LocalCluster(
                n_workers=value,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,  # the run reports its own failures, in one line
            ) as local,
            Client(local) as client,
        ):
            yield client
        return
    try:
        client = Client(value, timeout="10s")
    except (OSError, TimeoutError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {value}: {e}") from None
    with client:
        yield client


def play_on_cluster(
    client: Client,
    play: Callable[..., dict[str, Any]],
    payload: dict[str, Any],
    out: str,
    rid: str,
    todo: list[tuple[int, int, int]],
) -> Iterator[dict[str, Any]]:
    """Submit ``play(payload, out, rid, k, lo, hi)`` for every chunk; yield their results as they finish.

    On any exception (Ctrl-C included) the chunks not yet finished are cancelled.
    """
    from concurrent.futures import CancelledError

    from distributed import KilledWorker, as_completed

    token = uuid.uuid4().hex[:8]
    futures = [
        client.submit(play, payload, out, rid, k, lo, hi, key=f"golem-{rid}-chunk-{k:05d}-{token}", pure=False)
        for k, lo, hi in todo
    ]
    try:
        for future in as_completed(futures):
            try:
                info = future.result()
            except KilledWorker as e:
                raise ClusterError(f"Dask workers kept dying on a chunk ({e}); finish the run with --resume") from None
            except CancelledError:
                raise ClusterError("the cluster cancelled a chunk; finish the run with --resume") from None
            future.release()
            yield info
    except BaseException:
        client.cancel(futures)
        raise
