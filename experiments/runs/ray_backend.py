"""Running a simulation on a Ray cluster (or a local Ray instance): same games, same rows.

Each actor loads the run's agents once (embedding vectors come from the on-disk cache) and plays
chunks of game indices; results stream back as they finish.
"""

from __future__ import annotations

from typing import Iterator


def ray_results(run, todo: list[int], workers: int, simulator: str = "experiments.games.duet.batch"
                ) -> Iterator[tuple[dict, str]]:
    """`simulator`: the game's simulator module, with `load_players(run)` and `play_one(index)`."""
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'codenames-lab[dist]'") from None

    if not ray.is_initialized():
        ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False,
                 configure_logging=False)

    @ray.remote
    class Player:
        def __init__(self, run, simulator):
            import importlib

            self.simulator = importlib.import_module(simulator)
            self.simulator.load_players(run)

        def play(self, indices):
            return [self.simulator.play_one(i) for i in indices]

    run_ref = ray.put(run)
    actors = [Player.remote(run_ref, simulator) for _ in range(max(1, workers))]
    size = max(1, min(16, len(todo) // (len(actors) * 4) or 1))
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    pending = {actors[n % len(actors)].play.remote(chunk): n for n, chunk in enumerate(chunks)}
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            pending.pop(ref)
            yield from ray.get(ref)
