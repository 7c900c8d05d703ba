"""The Ray backend: joining a cluster, a clear error without Ray, loading counted as loading."""

import os
import sys
import types

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from experiments.games.duet.batch import DuetRun, simulate
from experiments.runs import ray_backend
from experiments.runs.ray_backend import cluster_address, init_kwargs

RANDOM = dict(spymaster="random", guesser="random")


# ----- which Ray: a cluster's address, or a fresh local instance -----------------------------------
def test_a_fresh_local_instance_gets_one_cpu_per_worker():
    kwargs = init_kwargs(None, 3)
    assert kwargs["num_cpus"] == 3 and kwargs["address"] == "local"


def test_joining_a_cluster_names_no_resources():
    """Ray refuses num_cpus (and num_gpus) when it connects to an existing cluster."""
    kwargs = init_kwargs("10.0.0.5:6379", 3)
    assert kwargs["address"] == "10.0.0.5:6379"
    assert not {"num_cpus", "num_gpus", "resources", "object_store_memory"} & set(kwargs)


def test_the_address_comes_from_ray_address(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "head.example:6379")
    assert cluster_address() == "head.example:6379"
    monkeypatch.setenv("RAY_ADDRESS", "local")
    assert cluster_address() is None


class _Stop(Exception):
    pass


def _fake_ray(calls: list) -> types.ModuleType:
    """A stand-in for `ray` that records ray.init's arguments and stops there."""
    fake = types.ModuleType("ray")
    fake.is_initialized = lambda: False

    def init(**kwargs):
        calls.append(kwargs)
        raise _Stop

    fake.init = init
    return fake


@pytest.mark.parametrize("env, expected", [({"RAY_ADDRESS": "head.example:6379"}, "head.example:6379"), ({}, None)])
def test_ray_results_joins_the_cluster_at_ray_address_without_num_cpus(monkeypatch, env, expected):
    """With RAY_ADDRESS set it connects without num_cpus (it said "error: When connecting to an
    existing cluster, num_cpus and num_gpus must not be provided"); without, a fresh local Ray."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(ray_backend, "unreachable", lambda address: None)   # head.example is no host
    calls: list = []
    monkeypatch.setitem(sys.modules, "ray", _fake_ray(calls))
    with pytest.raises(_Stop):
        next(iter(ray_backend.ray_results(DuetRun(games=4, seed=0, **RANDOM), list(range(4)), 2)))
    (kwargs,) = calls
    if expected:
        assert kwargs.get("address") == expected and "num_cpus" not in kwargs
    else:
        assert kwargs.get("num_cpus") == 2 and kwargs.get("address") in (None, "local")


def test_an_address_where_nothing_listens_is_refused_before_ray_init(monkeypatch):
    """ray.init retried such an address for minutes; now one ValueError (the CLI's one line) at once."""
    import socket

    with socket.socket() as s:          # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"ray://127.0.0.1:{port}")
    calls: list = []
    monkeypatch.setitem(sys.modules, "ray", _fake_ray(calls))
    with pytest.raises(ValueError, match=f"cannot connect to the Ray cluster at ray://127.0.0.1:{port}: nothing answers"):
        ray_backend.ray_results(DuetRun(games=4, seed=0, **RANDOM), list(range(4)), 2)
    assert calls == []                  # ray.init was never asked


def test_only_host_and_port_addresses_are_probed():
    assert ray_backend.unreachable("auto") is None
    assert ray_backend.unreachable("not an address") is None


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "ray://127.0.0.1:70000", "head.example:http", "127.0.0.1:-1"])
def test_an_address_whose_port_is_no_port_is_refused_before_ray_init(monkeypatch, address):
    """A port out of 0..65535 or not a number: the probe gave up on it (urlsplit's ValueError) and
    ray.init retried the address for minutes (`RAY_ADDRESS=127.0.0.1:99999`: 'Failed to connect to
    GCS' every five seconds). Now one ValueError naming the address, at once."""
    monkeypatch.setenv("RAY_ADDRESS", address)
    calls: list = []
    monkeypatch.setitem(sys.modules, "ray", _fake_ray(calls))
    with pytest.raises(ValueError, match=f"^cannot connect to the Ray cluster at {address}: .*port"):
        ray_backend.ray_results(DuetRun(games=4, seed=0, **RANDOM), list(range(4)), 2)
    assert calls == []


# ----- without Ray: one line, exit 2, no folder ------------------------------------------------------
#: every batch command, as `--backend` takes it: simulate per game, tournament and crossplay
BATCH_COMMANDS = {
    "duet": ["simulate", "duet"], "codenames": ["simulate", "codenames"], "spyword": ["simulate", "spyword"],
    "tournament": ["tournament", "--spymasters", "random", "--guessers", "random"],
    "crossplay": ["crossplay", "--spymasters", "random", "--panel", "fake", "--no-leave-one-out", "--no-human"],
}


@pytest.mark.parametrize("game", list(BATCH_COMMANDS))
def test_the_ray_backend_without_ray_is_one_error_line_before_the_folder(tmp_path, monkeypatch, game):
    monkeypatch.setitem(sys.modules, "ray", None)   # `import ray` raises ImportError
    result = CliRunner().invoke(app, [*BATCH_COMMANDS[game], "--games", "2", "--backend", "ray", "--no-progress",
                                      "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "error: the ray backend needs Ray: pip install 'codenames-lab[dist]'"
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("game", list(BATCH_COMMANDS))
def test_a_ray_address_where_nothing_answers_is_one_error_line_before_the_folder(tmp_path, monkeypatch, game):
    """Like a missing Ray, an unreachable RAY_ADDRESS is bad input: refused before any folder or agent
    exists (the folder was created, run.json and empty rows written, and only then the address tried)."""
    import socket

    with socket.socket() as s:          # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    result = CliRunner().invoke(app, [*BATCH_COMMANDS[game], "--games", "2", "--backend", "ray", "--no-progress",
                                      "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().startswith(f"error: cannot connect to the Ray cluster at 127.0.0.1:{port}: nothing answers")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("game", list(BATCH_COMMANDS))
def test_an_unknown_backend_is_one_error_line_before_the_folder(tmp_path, game):
    """tournament and crossplay had no --backend at all: their pairings played on this machine only."""
    result = CliRunner().invoke(app, [*BATCH_COMMANDS[game], "--games", "2", "--backend", "dask",
                                      "--no-progress", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "error: unknown backend 'dask': local or ray"
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("game", ["duet", "codenames", "tournament"])
def test_isolated_agents_on_ray_are_one_error_line_before_the_folder(tmp_path, game):
    """An isolated agent is a process of this machine: --isolate with --backend ray is refused before
    the tournament's table and folders are claimed, as simulate refuses it."""
    result = CliRunner().invoke(app, [*BATCH_COMMANDS[game], "--games", "2", "--backend", "ray", "--isolate",
                                      "--no-progress", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == "error: --isolate runs on the local backend"
    assert not (tmp_path / "x").exists()


# ----- tournament and crossplay on Ray: the same rows, records, tables and figures ---------------------
def _run_files(out) -> dict:
    """Every pairing's rows and records (bytes) and summary figures (less what says how they were played:
    speed, loading, workers and backend), and the experiment's table, by path under `out`."""
    import json

    from experiments.runs.execute import _PROVENANCE

    files = {}
    for path in sorted(out.rglob("*")):
        name = str(path.relative_to(out))
        if path.name in ("games.jsonl", "records.jsonl", "tournament.csv", "crossplay.csv"):
            files[name] = path.read_bytes()
        elif path.name == "summary.json":
            files[name] = {k: v for k, v in json.loads(path.read_text()).items() if k not in _PROVENANCE}
    return files


def test_tournament_and_crossplay_on_ray_play_what_local_workers_play_and_resume_alike(tmp_path, monkeypatch):
    """`cnlab tournament` and `cnlab crossplay` had no --backend: a cross-play of thousands of games a
    pairing could not go past one machine. Now they run each pairing on the Ray actors as simulate
    does: the same seed gives byte-identical rows, records and tables, and the same summary figures,
    on 1 local worker, 2 local workers and Ray; a folder begun on one backend resumes on the other."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))
    tour = ["tournament", "--spymasters", "random,margin:fake?vocab=300", "--guessers", "duet-bayes:fake?noise=0.05"]
    cross = ["crossplay", "--spymasters", "margin?vocab=300", "--panel", "fake", "--no-leave-one-out",
             "--noise", "0.05", "--no-human"]

    def run(args, out, games, workers, backend="local"):
        result = CliRunner().invoke(app, [*args, "--games", str(games), "--seed", "3", "--workers", str(workers),
                                          "--backend", backend, "--no-progress", "--out", str(tmp_path / out)])
        assert result.exit_code == 0, (result.output, result.exception)
        return result.stdout

    printed = {}
    for name, args in (("t", tour), ("c", cross)):
        printed[name, "w1"] = run(args, f"{name}-w1", 4, 1)
        run(args, f"{name}-w2", 4, 2)
    ray.init(**ray_backend.init_kwargs(None, 2))   # a small local Ray: two actors a pairing
    try:
        for name, args in (("t", tour), ("c", cross)):
            printed[name, "ray"] = run(args, f"{name}-ray", 4, 2, "ray")
        run(tour, "t-ray-then-local", 2, 2, "ray")
        run(tour, "t-local-then-ray", 2, 2)
        run(tour, "t-local-then-ray", 4, 2, "ray")   # resumed on Ray: games 2 and 3
    finally:
        ray.shutdown()
    run(tour, "t-ray-then-local", 4, 1)               # resumed here: games 2 and 3
    for name in ("t", "c"):
        expected = _run_files(tmp_path / f"{name}-w1")
        assert len([k for k in expected if k.endswith("records.jsonl")]) == 2 and expected
        for other in ("w2", "ray"):
            assert _run_files(tmp_path / f"{name}-{other}") == expected, (name, other)
        assert printed[name, "ray"] == printed[name, "w1"]
    for resumed in ("t-ray-then-local", "t-local-then-ray"):
        assert _run_files(tmp_path / resumed) == _run_files(tmp_path / "t-w1"), resumed


# ----- timing: starting Ray and the actors is loading -------------------------------------------------
def test_a_ray_run_counts_starting_ray_and_the_actors_as_loading(tmp_path):
    """load_seconds covers ray.init and every actor's loading; games_per_second the games only (it
    said load_seconds 0.001 and counted Ray's start as game time)."""
    ray = pytest.importorskip("ray")
    started_here = not ray.is_initialized()
    try:
        summary = simulate(DuetRun(games=4, seed=2, **RANDOM), out=tmp_path / "r", backend="ray", workers=2,
                           progress=False)
    finally:
        if started_here:
            ray.shutdown()
    assert summary["games"] == 4
    game_seconds = 4 / summary["games_per_second"]
    assert summary["load_seconds"] > 0.2            # new actor processes, at the least
    assert game_seconds < summary["load_seconds"]   # four random games on loaded actors: far less


def test_ray_actors_deal_with_the_drivers_seed_secret(tmp_path, monkeypatch):
    """CNLAB_SEED_SECRET mixes into every deal (experiments/runs/seeds.py). Ray workers that did not
    inherit it (a cluster's, or an instance started before it was set) dealt the public games while
    run.json's fingerprint named the secret: other games than a local run of the same folder."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():   # an earlier test's local instance (the full suite): this test starts its own
        ray.shutdown()
    monkeypatch.delenv("CNLAB_SEED_SECRET", raising=False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ray.init(**ray_backend.init_kwargs(None, 2))
    try:
        monkeypatch.setenv("CNLAB_SEED_SECRET", "audit")   # after the workers' environment was fixed
        run = DuetRun(games=4, seed=2, **RANDOM)
        simulate(run, out=tmp_path / "ray", backend="ray", workers=2, progress=False)
    finally:
        ray.shutdown()
    simulate(run, out=tmp_path / "local", progress=False)
    assert (tmp_path / "ray" / "records.jsonl").read_text() == (tmp_path / "local" / "records.jsonl").read_text()
    assert (tmp_path / "ray" / "games.jsonl").read_text() == (tmp_path / "local" / "games.jsonl").read_text()


_HELD_SIMULATOR = '''
import os, time

def load_players(run):
    return {}

def play_one(index):
    """Game 3 waits (at most 5 s) until the driver has received game 0; every other game is instant."""
    released = None
    if index == 3:
        flag, deadline = os.environ["HELD_FLAG"], time.monotonic() + 5
        while not os.path.exists(flag) and time.monotonic() < deadline:
            time.sleep(0.02)
        released = os.path.exists(flag)
    return {"game_index": index, "released": released}, "{}"
'''


def test_a_game_an_actor_finished_reaches_the_driver_before_its_next_game_ends(tmp_path, monkeypatch):
    """Nothing lost (docs/architecture.md, results folders): an actor played its games up to 16 at a
    time and returned them only with the last of the chunk, so a run killed meanwhile lost games
    finished long before. Now each game streams back as it finishes."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():   # an earlier test's local instance (the full suite): this test starts its own
        ray.shutdown()
    from experiments.runs.execute import MissingGames

    (tmp_path / "held_simulator.py").write_text(_HELD_SIMULATOR)
    flag = tmp_path / "game-0-arrived"
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("HELD_FLAG", str(flag))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    monkeypatch.syspath_prepend(str(tmp_path))
    got = {}
    try:
        for row, _ in ray_backend.ray_results(DuetRun(games=40, **RANDOM), MissingGames(40, []), 1, "held_simulator"):
            got[row["game_index"]] = row
            if row["game_index"] == 0:
                flag.touch()
    finally:
        ray.shutdown()
    assert sorted(got) == list(range(40))
    assert got[3]["released"], "game 0 came back only with game 3, a later game of its chunk"


# ----- a game that fails on an actor: one line, as on the local backend ---------------------------
_FAILING_SIMULATOR = '''
import os, time

from experiments.games.moves import AgentError

def load_players(run):
    if os.environ["FAIL_MODE"] == "load":
        raise ValueError("guesser 'my.pkg:Guesser': cannot load its model")
    return {}

def play_one(index):
    if index == 2:
        if os.environ["FAIL_MODE"] == "raise":
            raise AgentError("my.pkg:Guesser raised ZeroDivisionError in next_guess: division by zero")
        if os.environ["FAIL_MODE"] == "die":
            time.sleep(0.5)   # games 0 and 1 reach the driver first
            os._exit(3)
    return {"game_index": index}, "{}"
'''


def _failing_run(tmp_path, monkeypatch, mode: str, got: dict | None = None) -> dict:
    """Games 0..5 of the failing simulator on one Ray actor: the rows that came back (in `got`), then the error."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    from experiments.runs.execute import MissingGames

    (tmp_path / "failing_simulator.py").write_text(_FAILING_SIMULATOR)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("FAIL_MODE", mode)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.syspath_prepend(str(tmp_path))
    got = {} if got is None else got
    try:
        for row, _ in ray_backend.ray_results(DuetRun(games=6, **RANDOM), MissingGames(6, []), 1, "failing_simulator"):
            got[row["game_index"]] = row
    finally:
        ray.shutdown()
    return got


def test_an_agent_error_on_a_ray_actor_is_the_agents_error_not_rays(tmp_path, monkeypatch):
    """An agent that raised on an actor came back as RayTaskError, whose text is the actor's whole
    traceback (`ray::Player.play() (pid=..., actor_id=...)` and every frame): `cnlab simulate --backend
    ray` printed it all where the local backend prints one line. Now the agent's own error is raised."""
    from experiments.games.moves import AgentError

    with pytest.raises(AgentError) as info:
        _failing_run(tmp_path, monkeypatch, "raise")
    assert str(info.value) == "my.pkg:Guesser raised ZeroDivisionError in next_guess: division by zero"


def test_agents_that_fail_to_load_on_a_ray_actor_are_one_error_not_a_dead_actor(tmp_path, monkeypatch):
    """An agent that failed to load on an actor killed the actor in its creation task: ActorDiedError,
    a traceback of every frame (the local backend: `error: guesser '...': ...`, exit 2). Now the
    loading error itself is raised (a ValueError: one line, exit 2)."""
    with pytest.raises(ValueError) as info:
        _failing_run(tmp_path, monkeypatch, "load")
    assert str(info.value) == "guesser 'my.pkg:Guesser': cannot load its model"


def test_a_ray_actor_that_dies_stops_the_run_in_one_line(tmp_path, monkeypatch):
    """An actor whose process died (a crashing extension, the OOM killer, a kill) raised ActorDiedError,
    a traceback and a paragraph of Ray's advice; now the run stops as on local workers: SystemExit with
    one line, the games that came back before it kept (a rerun resumes)."""
    got: dict = {}
    with pytest.raises(SystemExit) as info:
        _failing_run(tmp_path, monkeypatch, "die", got)
    message = str(info.value.code)
    assert "\n" not in message and "a Ray actor died" in message and "a rerun resumes" in message
    assert sorted(got) == [0, 1]


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_cnlab_simulate_on_ray_names_an_agent_that_raises_in_one_line(tmp_path, monkeypatch, game):
    """`--backend ray` says what the local backend says of an agent that raised: one line, exit 2
    (it printed the actor's traceback, and at times Ray's 'Unhandled error' of the chunk after it)."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))
    try:
        result = CliRunner().invoke(app, ["simulate", game, "--games", "4", "--workers", "2", "--backend", "ray",
                                          "--spymaster", "tests.agents.hostile_agent:RaisingSpymaster", "--guesser",
                                          "random", "--no-progress", "--out", str(tmp_path / "run")])
    finally:
        ray.shutdown()
    assert result.exit_code == 2, result.output
    (line,) = [l for l in result.stderr.splitlines() if "Token authentication" not in l]   # Ray's own note
    assert line.startswith("error: tests.agents.hostile_agent:RaisingSpymaster raised ZeroDivisionError in give_clue")


_SIGTERM_RUN = '''
import sys
from experiments.games.duet.batch import DuetRun, simulate
simulate(DuetRun(games=3000, seed=1, spymaster="random", guesser="random"), out=sys.argv[1], backend="ray",
         workers=1, progress=False)
'''


def test_sigterm_ends_a_ray_run_as_it_ends_a_local_one(tmp_path):
    """SIGTERM ends a run as Ctrl-C does (execute.stop_on_sigterm): SystemExit 143, the folder closed and
    unlocked. ray.init put its own SIGTERM handler over it: the driver printed Ray's stack dump
    ('*** SIGTERM received ... PC: @ ... fsync', twice) and died by the signal. Now the run's handler
    is kept; the games finished are kept and resume."""
    import signal
    import subprocess
    import time

    pytest.importorskip("ray")
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")])}
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.Popen([sys.executable, "-c", _SIGTERM_RUN, str(out)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if (out / "games.jsonl").exists() and (out / "games.jsonl").stat().st_size:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143, err
    assert "SIGTERM received" not in err
    from experiments.runs.folder import in_use

    assert not in_use(out)
