"""Running a simulation on a Ray cluster (or a local Ray instance): same games, same rows.

Each actor loads the run's agents once (embedding vectors come from the on-disk cache) and plays
chunks of game indices; results stream back as they finish.

Which Ray: the cluster at `RAY_ADDRESS` (Ray's own variable, e.g. `head:6379` or
`ray://head:10001`; a cluster with token authentication also needs `RAY_AUTH_MODE=token` and its
token, Ray's rule for a named address), else a fresh local instance with one CPU per worker. On a
cluster, `--workers` is the number of actors (at most the cluster's CPUs, so that none waits for a
CPU that never comes).
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from contextlib import contextmanager
from typing import Iterator
from urllib.parse import urlsplit

NEEDS_RAY = "the ray backend needs Ray: pip install 'codenames-lab[dist]'"


def ray_missing() -> str | None:
    """Why the ray backend cannot run here (Ray is not importable), or None; nothing is started."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return NEEDS_RAY
    return None


def cluster_address() -> str | None:
    """The Ray cluster to connect to, `RAY_ADDRESS` when set (`local` asks for a fresh instance),
    or None for a fresh local instance. Only the variable: an address file a `ray start` left
    behind may name a cluster long gone, and `ray.init` would wait on it for minutes."""
    address = os.environ.get("RAY_ADDRESS", "").strip()
    return None if address in ("", "local") else address


def unreachable(address: str, timeout: float = 5.0) -> str | None:
    """Why nothing answers at a `host:port` or `ray://host:port` address, or None (it answers, or the
    address is another form, such as `auto`). Checked before `ray.init`, which would retry an
    address where nothing listens for minutes."""
    try:
        parts = urlsplit(address if "://" in address else f"//{address}")
        host = parts.hostname
    except ValueError:
        return None
    try:
        port = parts.port
    except ValueError:   # out of range or not a number: ray.init would retry it for minutes
        return f"its port is not a number 0..65535 ({parts.netloc.rpartition(':')[2][:20]!r})"
    if not host or port is None:
        return None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        return f"nothing answers at {host}:{port} ({exc.strerror or exc})"
    return None


def cluster_unreachable() -> str | None:
    """Why the cluster at `RAY_ADDRESS` cannot be joined (nothing answers at its host and port), as the
    one line the run stops with, or None (no address, or it answers); nothing is started."""
    address = cluster_address()
    why = unreachable(address) if address else None
    return f"cannot connect to the Ray cluster at {address}: {why}" if why else None


def init_kwargs(address: str | None, workers: int) -> dict:
    """`ray.init`'s arguments: connecting to a cluster takes no resources (Ray refuses num_cpus
    there); a fresh local instance gets one CPU per worker."""
    quiet = dict(log_to_driver=False, configure_logging=False)
    if address:
        return dict(address=address, **quiet)
    return dict(address="local", num_cpus=max(1, workers), include_dashboard=False, **quiet)


def ray_results(run, todo: list[int], workers: int, simulator: str = "experiments.games.duet.batch"
                ) -> Iterator[tuple[dict, str]]:
    """`simulator`: the game's simulator module, with `load_players(run)` and `play_one(index)`.

    Starts (or joins) Ray and waits for every actor to load its agents before it returns, so that
    the caller's clock counts this as loading; the games are played as the returned iterator is read."""
    try:
        import ray
    except ImportError:
        raise ImportError(NEEDS_RAY) from None

    address, joined = None, ray.is_initialized()   # joined: an earlier pairing's (or the caller's) Ray
    if not joined:
        address = cluster_address()
        why = cluster_unreachable()
        if why:
            raise ValueError(why)
        sigterm = signal.getsignal(signal.SIGTERM)
        try:
            ray.init(**init_kwargs(address, workers))
        except ConnectionError as exc:
            hint = "" if os.environ.get("RAY_AUTH_MODE") else (
                " (a cluster with token authentication needs RAY_AUTH_MODE=token and its token)")
            raise ValueError(f"cannot connect to the Ray cluster at {address}: {exc}{hint}") from None
        # ray.init sets its own SIGTERM handler (a stack dump, then death by the signal) over the run's
        # (execute.stop_on_sigterm: SystemExit 143, the folder closed and unlocked): the run's is kept
        if callable(sigterm) and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, sigterm)
    actors_wanted = max(1, workers)
    if address or joined:   # a tournament's later pairings find the cluster the first one joined
        cpus = int(ray.cluster_resources().get("CPU", 0))
        actors_wanted = max(1, min(actors_wanted, cpus))

    from experiments.runs.seeds import run_secret

    @ray.remote
    class Player:
        def __init__(self, run, simulator, secret):
            import importlib

            from experiments.runs.seeds import SECRET_ENV

            # the driver's run secret (experiments/runs/seeds.py), not what the worker's environment holds:
            # a cluster's workers (or an instance started before it was set) deal other games without it
            if secret:
                os.environ[SECRET_ENV] = secret.decode("utf-8", "surrogateescape")
            else:
                os.environ.pop(SECRET_ENV, None)
            # an agent that fails to load is reported by ready(): an error raised here kills the actor,
            # and the driver would see ActorDiedError, whose text is the actor's whole traceback
            self.failed = None
            try:
                self.simulator = importlib.import_module(simulator)
                self.simulator.load_players(run)
            except Exception as exc:   # noqa: BLE001 - the driver raises it (_task_errors)
                self.failed = exc

        def ready(self) -> bool:
            if self.failed is not None:
                raise self.failed
            return True

        @ray.method(num_returns="streaming")
        def play(self, indices):
            for i in indices:   # each game handed back as it finishes: on disk at once (nothing lost)
                yield self.simulator.play_one(i)

    run_ref = ray.put(run)
    actors = [Player.remote(run_ref, simulator, run_secret()) for _ in range(actors_wanted)]
    with _task_errors(ray):
        ray.get([a.ready.remote() for a in actors])   # every actor has loaded its agents
    return _play(ray, actors, todo)


@contextmanager
def _task_errors(ray) -> Iterator[None]:
    """What fails on an actor, as the local backend reports it: an error raised there (an agent's
    AgentError, a loading error) is raised here as itself, not as RayTaskError, whose text is the
    actor's whole traceback; an actor whose process died (a crash, the OOM killer, a kill) stops the
    run in one line (SystemExit, as a dead local worker does), the games already back kept."""
    try:
        yield
    except ray.exceptions.RayTaskError as exc:
        cause = exc.cause
        if isinstance(cause, Exception) and not isinstance(cause, ray.exceptions.RayError):
            raise cause from exc
        raise
    except ray.exceptions.RayActorError:
        raise SystemExit("error: a Ray actor died while it played (its process ended: a crash, the out-of-memory "
                         "killer, a signal, or its node was lost): the run stops; the games finished before it "
                         "are kept, and a rerun resumes") from None


def _play(ray, actors: list, todo: list[int]) -> Iterator[tuple[dict, str]]:
    with _task_errors(ray):
        yield from _stream(ray, actors, todo)


def _stream(ray, actors: list, todo: list[int]) -> Iterator[tuple[dict, str]]:
    size = max(1, min(16, len(todo) // (len(actors) * 4) or 1))
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    # a chunk's games stream back one by one: a chunk returned whole held its finished games until its
    # last one ended, and a run killed meanwhile lost them
    pending = [actors[n % len(actors)].play.remote(chunk) for n, chunk in enumerate(chunks)]
    while pending:
        ready, _ = ray.wait(pending, num_returns=1)
        for games in ready:
            try:
                ref = next(games)
            except StopIteration:   # the chunk is done
                pending.remove(games)
                continue
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError:
                try:   # the chunk's own end holds the error too: read, Ray does not print it again at exit
                    ray.get(games.completed())
                except ray.exceptions.RayError:
                    pass
                raise
            yield result
