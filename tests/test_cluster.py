"""The Dask backend: the same files as local workers, for every game, on a cluster of several worker processes."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import fsspec
import pytest
from distributed import Client, LocalCluster, get_task_stream

from analysis.summary import summarize
from simulate.integrity import verify_run
from simulate.lineup import parse_lineup
from simulate.registry import available_games, make
from simulate.runformat import RunFormatError, read_table
from simulate.runner import RunError, RunSpec, run

MASTER_SEED = 8786
WORKERS = 3


@pytest.fixture(scope="module")
def cluster():
    """A scheduler with several worker processes, reached by its tcp:// address like a remote one."""
    with (
        LocalCluster(
            n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as local,
        Client(local) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def threads():
    """An in-process cluster (worker threads), which shares this process's memory:// filesystem."""
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as local,
        Client(local, set_as_default=False) as client,
    ):
        yield client


def spec(name: str = "century", num_games: int = 600, chunk_size: int = 150) -> RunSpec:
    game = make(name)
    players = max(2, game.info.min_players)
    lineup = parse_lineup(game, [next(iter(game.info.bots))], players)
    return RunSpec(name, players, num_games, MASTER_SEED, lineup, chunk_size=chunk_size)


def parts(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*.parquet"))}


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


@pytest.mark.parametrize("name", list(available_games()))
def test_cluster_run_writes_the_files_of_a_local_run(cluster: Client, tmp_path: Path, name: str) -> None:
    local = run(spec(name), tmp_path / "local", workers=1, progress=False)
    address = cluster.scheduler.address
    with get_task_stream(cluster) as stream:
        remote = run(spec(name), tmp_path / "cluster", cluster=address, progress=False)
    assert parts(local) == parts(remote) and len(parts(remote)) == 12
    assert manifest(local)["chunks"] == manifest(remote)["chunks"]
    assert manifest(local)["run_id"] == manifest(remote)["run_id"]
    env = manifest(remote)["environment"]
    assert env["cluster"] == address and env["workers"] == WORKERS
    chunk_tasks = [t for t in stream.data if "chunk" in str(t["key"])]
    assert len(chunk_tasks) == 4
    verify_run(remote)


def test_chunks_are_spread_over_the_worker_processes(cluster: Client, tmp_path: Path) -> None:
    with get_task_stream(cluster) as stream:
        run(spec(num_games=1200, chunk_size=100), tmp_path / "r", cluster=cluster.scheduler.address, progress=False)
    workers = {t["worker"] for t in stream.data if "chunk" in str(t["key"])}
    assert len(workers) > 1


def test_file_url_output_is_the_same_run(cluster: Client, tmp_path: Path) -> None:
    local = run(spec(), tmp_path / "local", workers=1, progress=False)
    url = f"file://{tmp_path}/url"
    assert run(spec(), url, cluster=cluster.scheduler.address, progress=False) == Path(f"{tmp_path}/url")
    assert parts(local) == parts(tmp_path / "url")


def test_memory_url_run_resumes_and_reads_back(threads: Client, tmp_path: Path) -> None:
    """An fsspec output that is not a directory: written, verified, read, summarized and resumed."""
    local = run(spec(), tmp_path / "local", workers=1, progress=False)
    url = "memory://golem-test/run"
    fs = fsspec.filesystem("memory")
    assert run(spec(), url, cluster=threads, progress=False) == url
    remote = {rel: fs.cat_file(f"/golem-test/run/{rel}") for rel in parts(local)}
    assert remote == parts(local)
    assert verify_run(url)["status"] == "complete"
    assert len(read_table(url, "seats")) == 600 * 2
    assert "win rate by seat" in summarize(url)
    # lose a part and the manifest's record of another, as a killed run would
    m = json.loads(fs.cat_file("/golem-test/run/manifest.json"))
    fs.rm("/golem-test/run/games/part-00001.parquet")
    del m["chunks"]["2"]
    m["status"] = "interrupted"
    fs.pipe_file("/golem-test/run/manifest.json", json.dumps(m).encode())
    with pytest.raises(RunFormatError, match="interrupted"):
        verify_run(url)
    run(spec(), url, cluster=threads, progress=False, resume=True)
    assert {rel: fs.cat_file(f"/golem-test/run/{rel}") for rel in parts(local)} == parts(local)
    assert not fs.exists("/golem-test/run/.lock")
    fs.rm("/golem-test", recursive=True)


def test_url_output_needs_a_cluster() -> None:
    with pytest.raises(RunError, match="needs --cluster"):
        run(spec(), "memory://golem-test/local", workers=1, progress=False)


@pytest.mark.filterwarnings("ignore:The inplace keyword")  # dask's own use of a pandas 3.1 deprecation
def test_readers_of_the_readme_agree(tmp_path: Path) -> None:
    """pandas, pyarrow datasets and dask.dataframe read the same seats table."""
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow.dataset as ds

    out = run(spec(), tmp_path / "r", workers=1, progress=False)
    seats = pd.read_parquet(out / "seats", columns=["seat", "bot", "win"])
    expected = seats.groupby(["bot", "seat"], observed=True)["win"].mean()
    lazy = dd.read_parquet(str(out / "seats"), columns=["seat", "bot", "win"])
    got = lazy.groupby(["bot", "seat"], observed=True)["win"].mean().compute()
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index(), check_dtype=False)
    first = ds.dataset(out / "seats", format="parquet").to_table(columns=["win"], filter=ds.field("seat") == 1)
    assert first.num_rows == 600 and first["win"].to_numpy().sum() == seats[seats["seat"] == 1]["win"].sum()
