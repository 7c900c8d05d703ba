"""Hidden information as a security boundary (issue 14): seeds, observations, isolated agents.

The hostile agents of tests/agents/hostile_agent.py try gc, frames, re-dealing and /proc. In one
process the first two reach the state (the controls below: that is why --isolate exists); run
isolated, with a seed secret, every route comes back empty and the games still finish. Slow,
crashing, raising, garbled and cheating agents forfeit with the documented reason.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

import pytest

from agents.registry import make_guesser, make_spymaster
from agents.wordlists import board_words
from engine.duet import deal_duet
from experiments.games.codenames.loop import play_codenames
from experiments.games.codenames.batch import CodenamesRun, simulate_codenames
from experiments.games.codenames.dealing import deal_record
from experiments.games.duet.loop import DuetSeat, play_duet
from experiments.isolation import from_json_dict, to_json_dict
from experiments.isolation import hardening
from experiments.isolation.proxy import child_environment
from experiments.runs.seeds import SECRET_ENV, agent_seed, deal_seed
from experiments.games.duet.batch import DuetRun, format_summary, simulate

HOSTILE = "tests.agents.hostile_agent"


def rows(path: Path) -> list[dict]:
    return sorted((json.loads(l) for l in (path / "games.jsonl").read_text().splitlines()),
                  key=lambda r: r["game_index"])


def records(path: Path) -> list[dict]:
    return [json.loads(l) for l in (path / "records.jsonl").read_text().splitlines()]


def reports(folder: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


# ----- 1. agent seeds -----------------------------------------------------------------------------------
class Recorder:
    """Wraps an agent and keeps every seed it is given."""

    def __init__(self, inner, seeds: list):
        self.inner, self.seeds, self.spec = inner, seeds, inner.spec

    def begin_game(self, seed):
        self.seeds.append(seed)
        self.inner.begin_game(seed)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_agent_seeds_are_keyed_hashes_of_game_seat_and_role():
    a = agent_seed((0, 1), "A", "spymaster")
    assert a == agent_seed([0, 1], "A", "spymaster") and 0 <= a < 2**128  # deterministic
    others = {agent_seed((0, 1), "A", "guesser"), agent_seed((0, 1), "B", "spymaster"),
              agent_seed((0, 2), "A", "spymaster"), agent_seed((1, 1), "A", "spymaster"),
              agent_seed((0, 1), "A", "spymaster", secret="s")}
    assert a not in others and len(others) == 5  # every seat, role, game and secret its own stream
    assert deal_seed(3, 4, secret=b"") == [3, 4]  # without a secret: the deals of every earlier run
    assert deal_seed(3, 4, secret="s")[:2] == [3, 4] and len(deal_seed(3, 4, secret="s")) == 3


def test_no_loop_gives_an_agent_a_seed_that_redeals_its_game(monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    words = board_words("en")
    seeds: list = []
    record = deal_duet(deal_seed(0, 5), words)
    seats = {s: DuetSeat(Recorder(make_spymaster("random"), seeds), Recorder(make_guesser("random"), seeds))
             for s in "AB"}
    play_duet(record, seats, seed=(0, 5))
    cn_record = deal_record(deal_seed(0, 5), variant="two_player")
    agents = {"red-spymaster": Recorder(make_spymaster("random"), seeds),
              "red-guesser": Recorder(make_guesser("random"), seeds)}
    play_codenames(cn_record, agents, seed=(0, 5))
    assert len(seeds) == 6 and all(isinstance(s, int) for s in seeds)
    for s in seeds:   # a 128-bit seed, dealt as numpy reads it ([s] is the seed s; a record holds 64 bits)
        assert deal_duet([s], words).key != record.key and deal_duet([s], words).words != record.words
        assert deal_record([s], variant="two_player").key.letters != cn_record.key.letters
        assert s not in (0, 5)


def test_spyword_bots_get_seeds_that_redeal_nothing(tmp_path, monkeypatch):
    from experiments.games.spyword import batch as spyword_sim

    monkeypatch.delenv(SECRET_ENV, raising=False)
    given: list = []
    original = spyword_sim.play_game

    def spy(record, bots, checker=None):
        given.extend(b.rng.bit_generator.seed_seq.entropy for b in bots.values())
        return original(record, bots, checker)

    monkeypatch.setattr(spyword_sim, "play_game", spy)
    spyword_sim.simulate_spyword(1, 6, 7, "en", "spyword:fake?vocab=300", None, tmp_path, progress=False)
    packs = spyword_sim._LOADED["packs"]
    dealt = spyword_sim.deal_game(spyword_sim._LOADED["run"], 0, packs)
    assert len(given) == 6
    for seed in given:  # a 128-bit hash, not [7, 0, seat] (whose prefix deals the game)
        assert isinstance(seed, int) and seed >= 2**32
    assert dealt.roles == spyword_sim.deal_game(spyword_sim._LOADED["run"], 0, packs).roles  # still seeded


# ----- 2. observations ----------------------------------------------------------------------------------
def _containers(obj, seen: dict, depth: int = 0) -> None:
    """id -> object of every non-empty container, object and text reachable from obj."""
    if depth > 12 or id(obj) in seen or obj is None or isinstance(obj, (bool, int, float)):
        return
    if isinstance(obj, str):
        if len(obj) > 1:
            seen[id(obj)] = obj
        return
    if isinstance(obj, (tuple, list, set, frozenset, dict)) and not obj:
        return  # the empty singletons are shared by everything
    seen[id(obj)] = obj
    items = obj.items() if isinstance(obj, dict) else obj if isinstance(obj, (tuple, list, set, frozenset)) else \
        vars(obj).values() if hasattr(obj, "__dict__") else ()  # attribute names are the class's
    for item in items:
        _containers(item, seen, depth + 1)


def _shared(state, obs) -> list:
    in_state: dict = {}
    _containers(vars(state), in_state)
    in_obs: dict = {}
    for f in dataclasses.fields(obs):
        _containers(getattr(obs, f.name), in_obs)
    assert not any(callable(v) and not isinstance(v, type) for v in in_obs.values())
    return [in_obs[i] for i in set(in_state) & set(in_obs)]


def _played_duet():
    record = deal_duet([1, 2], board_words("en"))
    play_duet(record, {s: DuetSeat(make_spymaster("random"), make_guesser("random")) for s in "AB"}, seed=(1, 2))
    return record


def _played_codenames(variant="teams"):
    record = deal_record([1, 2], variant=variant)
    sm, g = make_spymaster("random"), make_guesser("random")
    play_codenames(record, {seat: sm if seat.endswith("spymaster") else g
                            for seat in ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser")},
                   seed=(1, 2))
    return record


def _played_spyword(tmp_path):
    from engine.spyword import record_from_dict
    from experiments.games.spyword.batch import simulate_spyword

    simulate_spyword(1, 6, 3, "en", "spyword:fake?vocab=300", None, tmp_path / "sw", progress=False)
    return record_from_dict(records(tmp_path / "sw")[0])


def _states(record, seats):
    state = record.new_state()
    yield state
    for action in record.actions:
        state.apply(action)
        yield state


def test_observations_share_no_object_with_the_state_and_round_trip_json(tmp_path):
    cases = [(_played_duet(), ("A", "B")),
             (_played_codenames("teams"), ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser")),
             (_played_codenames("two_player"), ("red-spymaster", "red-guesser")),
             (_played_spyword(tmp_path), None)]
    checked = 0
    for record, seats in cases:
        for state in _states(record, seats):
            for seat in seats or state.seats:
                obs = state.observe(seat)
                assert _shared(state, obs) == [], f"{type(obs).__name__} shares with the state"
                wire = json.loads(json.dumps(to_json_dict(obs)))
                assert from_json_dict(wire) == obs
                checked += 1
    assert checked > 200


# ----- 3. isolated play ----------------------------------------------------------------------------------
def test_the_agents_environment_never_holds_the_secret(monkeypatch):
    monkeypatch.setenv(SECRET_ENV, "hush")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "nope")
    env = child_environment()
    assert SECRET_ENV not in env and "AWS_SECRET_ACCESS_KEY" not in env
    assert env["CNLAB_ISOLATED"] == "1" and "PATH" in env


def test_isolated_play_gives_the_same_games(tmp_path):
    run = DuetRun(games=2, seed=4, spymaster="random", guesser="random")
    simulate(run, out=tmp_path / "plain", progress=False)
    simulate(run, out=tmp_path / "isolated", workers=2, progress=False, isolate=True, move_timeout=30)
    assert rows(tmp_path / "plain") == rows(tmp_path / "isolated")
    assert sorted(map(json.dumps, records(tmp_path / "plain"))) == sorted(map(json.dumps, records(tmp_path / "isolated")))
    assert hardening.is_dumpable() in (True, None)  # restored once the agents are gone


def test_in_one_process_the_hostile_agent_reaches_the_state(tmp_path, monkeypatch):
    """The controls: without --isolate, gc and frames lead to the other side's key, and small seeds
    can be searched when no secret is set. Only the seed the agent is given leads nowhere."""
    from tests.agents.hostile_agent import HostileGuesser, HostileSpymaster
    from agents.spec import parse_spec

    monkeypatch.delenv(SECRET_ENV, raising=False)
    spec = parse_spec(f"{HOSTILE}:HostileGuesser?report={tmp_path}")
    record = deal_duet(deal_seed(0, 0), board_words("en"))
    seats = {"A": DuetSeat(HostileSpymaster(spec), HostileGuesser(spec)),
             "B": DuetSeat(make_spymaster("random"), make_guesser("random"))}
    seats["A"].spymaster.spec = seats["A"].guesser.spec = "hostile"
    play_duet(record, seats, seed=(0, 0))
    found = reports(tmp_path)
    assert len(found) == 2
    for r in found:
        assert r["gc"] and r["frames"]  # in-process isolation is no boundary
        assert r["redeal"]["direct"] == []  # the agent seed itself deals another game
        assert r["redeal"]["search"]  # the documented limit without CNLAB_SEED_SECRET
        assert r["controls"]["frame_sees_a_local"] and isinstance(r["controls"]["own_memory_bytes"], int)


def _hostile_run(tmp_path, game: str):
    folder = tmp_path / "reports"
    spymaster = f"{HOSTILE}:HostileSpymaster?report={folder}"
    guesser = f"{HOSTILE}:HostileGuesser?report={folder}"
    if game == "duet":
        simulate(DuetRun(games=1, seed=0, spymaster=spymaster, guesser=guesser), out=tmp_path / "run",
                 progress=False, isolate=True, move_timeout=120)
    else:
        simulate_codenames(CodenamesRun(games=1, seed=0, spymaster="random", guesser=guesser, variant="two_player"),
                           out=tmp_path / "run", progress=False, isolate=True, move_timeout=120)
    return reports(folder), rows(tmp_path / "run")


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_isolated_hostile_agents_find_nothing(tmp_path, monkeypatch, game):
    monkeypatch.setenv(SECRET_ENV, "a run secret the agents never see")
    found, played = _hostile_run(tmp_path, game)
    assert len(found) == (4 if game == "duet" else 1)
    for r in found:
        assert r["isolated"]
        assert r["gc"] == [] and r["frames"] == [], r
        assert r["redeal"] == {"direct": [], "search": []}, r
        assert r["proc"]["found"] == [], r["proc"]
        # the routes themselves work: the agent reads its own memory, sees its own frames
        assert isinstance(r["controls"]["own_memory_bytes"], int) and r["controls"]["own_memory_bytes"] > 0
        assert r["controls"]["frame_sees_a_local"]
    assert len(played) == 1 and played[0]["status"] != "forfeit"


def test_the_main_process_of_a_run_on_forked_workers_is_closed_to_the_agents(tmp_path):
    """Audit 9: with --workers 2 the agents' parent is a forked worker (non-dumpable while it has agents),
    but the run's main process, their grandparent, stayed dumpable: an agent of the same user read its
    /proc/PID/environ, CNLAB_SEED_SECRET included, and with it could deal every game again."""
    import subprocess
    import sys

    folder = tmp_path / "reports"
    env = {**os.environ, SECRET_ENV: "a run secret the agents never see"}
    done = subprocess.run(
        [sys.executable, "-c", "from experiments.cli import app; app()", "simulate", "duet", "--games", "2",
         "--workers", "2", "--isolate", "--move-timeout", "120", "--spymaster", "random",
         "--guesser", f"{HOSTILE}:HostileGuesser?report={folder}", "--out", str(tmp_path / "run"), "--no-progress"],
        cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    found = reports(folder)
    assert found and all(r["isolated"] for r in found)
    for r in found:
        assert r["proc"]["found"] == [], r["proc"]


def test_the_main_process_is_non_dumpable_while_forked_workers_play(tmp_path, monkeypatch):
    """Audit 9: the same hole where no subprocess of another user is at hand (the test above finds nothing
    as root: an agent without capabilities may not read a root process that has them). The main process
    is non-dumpable whenever a result arrives, and dumpable again after the run."""
    import experiments.runs as runs_package

    seen, original = [], runs_package.game_results

    def watched(*args, **kwargs):
        for result in original(*args, **kwargs):
            seen.append(hardening.is_dumpable())
            yield result

    monkeypatch.setattr(runs_package, "game_results", watched)
    simulate(DuetRun(games=2, seed=4, spymaster="random", guesser="random"), out=tmp_path, workers=2,
             progress=False, isolate=True, move_timeout=30)
    assert seen == [False, False]
    assert hardening.is_dumpable() in (True, None)


FAILING = [
    ("random", f"{HOSTILE}:CrashingGuesser", "forfeit: B guesser: crashed (exit code 3: about to die)"),
    (f"{HOSTILE}:RaisingSpymaster", "random", "forfeit: A spymaster: raised ZeroDivisionError: division by zero"),
    ("random", f"{HOSTILE}:GarbageGuesser", "forfeit: B guesser: answered garbage (a guess is a word of the board "
                                            "or null, not 42)"),
    ("random", f"{HOSTILE}:CheatingGuesser", "forfeit: B guesser: illegal move: "),
]


@pytest.mark.parametrize("spymaster,guesser,reason", FAILING, ids=["crash", "raise", "garbage", "illegal"])
def test_a_failing_agent_forfeits_with_the_reason(tmp_path, spymaster, guesser, reason):
    summary = simulate(DuetRun(games=1, seed=1, spymaster=spymaster, guesser=guesser), out=tmp_path, progress=False,
                       isolate=True, move_timeout=60)
    assert summary["forfeits"] == 1 and "forfeits" in format_summary(summary)  # counted where the win rate is
    (row,) = rows(tmp_path)
    assert row["status"] == "forfeit" and not row["won"] and row["loss_reason"].startswith(reason), row
    (rec,) = records(tmp_path)
    assert rec["forfeit"]["reason"] == row["loss_reason"] and rec["forfeit"]["seat"] in "AB"
    from engine.records import record_from_json

    record_from_json(json.dumps(rec)).replay()  # the moves before the forfeit were legal


def test_an_illegal_answer_of_megabytes_leaves_a_short_reason(tmp_path):
    """The engine's refusal quotes the move; a 3 MB guess (under the line limit) must not fill the row and record."""
    simulate(DuetRun(games=1, seed=1, spymaster="random", guesser=f"{HOSTILE}:CheatingGuesser?size=3000000"),
             out=tmp_path, progress=False, isolate=True, move_timeout=60)
    (row,) = rows(tmp_path)
    assert row["loss_reason"].startswith("forfeit: B guesser: illegal move: ") and row["status"] == "forfeit"
    assert len(row["loss_reason"]) < 700 and "more characters)" in row["loss_reason"]
    (rec,) = records(tmp_path)
    assert rec["forfeit"]["reason"] == row["loss_reason"]


def test_a_slow_agent_forfeits_on_time(tmp_path):
    started = time.monotonic()
    simulate(DuetRun(games=1, seed=1, spymaster="random", guesser=f"{HOSTILE}:SleepyGuesser?sleep=60"),
             out=tmp_path, progress=False, isolate=True, move_timeout=0.5)
    (row,) = rows(tmp_path)
    assert row["loss_reason"] == "forfeit: B guesser: no answer within 0.5 s" and row["status"] == "forfeit"
    assert time.monotonic() - started < 30  # the sleeper was killed, not waited for


def test_codenames_forfeit_loses_for_that_team(tmp_path):
    summary = simulate_codenames(CodenamesRun(games=1, seed=2, spymaster="random", guesser=f"{HOSTILE}:CrashingGuesser",
                                              variant="single_team"),
                                 out=tmp_path, progress=False, isolate=True, move_timeout=60)
    assert summary["forfeits"] == 1
    (row,) = rows(tmp_path)
    assert row["status"] == "forfeit" and not row["won"] and row["competition_score"] == 25
    assert row["loss_reason"].startswith("forfeit: red-guesser: crashed")


def test_cli_isolate_and_move_timeout(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from experiments.cli import app

    monkeypatch.delenv(SECRET_ENV, raising=False)
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "duet", "--games", "1", "--spymaster", "random", "--guesser",
                                 f"{HOSTILE}:SleepyGuesser?sleep=60", "--isolate", "--move-timeout", "0.5",
                                 "--out", str(tmp_path / "sim"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert f"{SECRET_ENV} is not set" in result.stderr
    assert rows(tmp_path / "sim")[0]["loss_reason"] == "forfeit: B guesser: no answer within 0.5 s"
    result = runner.invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random", "--games", "1",
                                 "--isolate", "--no-progress", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    bad = runner.invoke(app, ["simulate", "duet", "--games", "1", "--isolate", "--move-timeout", "0"])
    assert bad.exit_code == 2 and "move-timeout" in bad.stderr


def test_an_isolated_tournament_says_that_earlier_pairings_hold_the_keys_of_its_deals(tmp_path, monkeypatch):
    """What --isolate cannot close (docs/isolation.md): every pairing plays the same deals, so the
    records an earlier pairing wrote hold the keys of the game a later pairing's agent is playing,
    and the agent may read its user's files. With the seed secret set and the game process closed,
    the hostile guesser still finds its own game's key on disk: the command says so before it plays."""
    from typer.testing import CliRunner

    from experiments.cli import app

    monkeypatch.setenv(SECRET_ENV, "a run secret the agents never see")
    report = tmp_path / "found"
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers",
                                      f"random,{HOSTILE}:DiskGuesser?report={report}&search={tmp_path / 't'}", "--games", "1", "--isolate",
                                      "--no-progress", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    found = reports(report)
    assert found and all(r["keys"] and set(r["keys"][0]["key"]) == {"A", "B"} for r in found)  # the control
    assert "same deals" in result.stderr and "docs/isolation.md" in result.stderr, result.stderr
    single = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random", "--games", "1",
                                      "--isolate", "--no-progress"])
    assert single.exit_code == 0 and "same deals" not in single.stderr   # one pairing: no earlier one


def test_spyword_isolated_gives_the_same_games(tmp_path):
    from experiments.games.spyword.batch import simulate_spyword

    bot = "spyword:fake?vocab=300"
    simulate_spyword(1, 6, 5, "en", bot, None, tmp_path / "plain", progress=False)
    simulate_spyword(1, 6, 5, "en", bot, None, tmp_path / "isolated", progress=False, isolate=True, move_timeout=60)
    assert rows(tmp_path / "plain") == rows(tmp_path / "isolated")
    assert records(tmp_path / "plain") == records(tmp_path / "isolated")


# ----- a hostile agent costs its own game only ---------------------------------------------------------
# The agents below misbehave only when isolated (CNLAB_ISOLATED) and only on the games named in their
# spec, so the same spec played without --isolate gives the games they leave alone, byte for byte.
def raw_records(path: Path) -> dict[int, str]:
    return {json.loads(l)["game_index"]: l for l in (path / "records.jsonl").read_text().splitlines()}


def duet_first_words(seed: int, games: int) -> list[str]:
    return [deal_duet(deal_seed(seed, i), board_words("en")).words[0] for i in range(games)]


def assert_costs_its_own_games(plain: Path, isolated: Path, hit: set[int], reason: str) -> list[dict]:
    """The `hit` games are forfeits with `reason`; every other row and record is the plain run's."""
    plain_rows, isolated_rows = rows(plain), rows(isolated)
    plain_records, isolated_records = raw_records(plain), raw_records(isolated)
    assert [r["game_index"] for r in isolated_rows] == [r["game_index"] for r in plain_rows]
    for row in isolated_rows:
        i = row["game_index"]
        if i in hit:
            why = row.get("loss_reason") or row.get("forfeit")
            assert row["status"] == "forfeit" and why.startswith(reason), row
            assert json.loads(isolated_records[i])["forfeit"]["reason"] == why
        else:
            assert row == plain_rows[i] and isolated_records[i] == plain_records[i], i
    return isolated_rows


def _duet_both(tmp_path, monkeypatch, spymaster: str, guesser: str, games: int = 3, seed: int = 1,
               move_timeout: float = 60, workers: int = 1) -> tuple[Path, Path]:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    run = DuetRun(games=games, seed=seed, spymaster=spymaster, guesser=guesser)
    simulate(run, out=tmp_path / "plain", progress=False)
    simulate(run, out=tmp_path / "isolated", progress=False, workers=workers, isolate=True,
             move_timeout=move_timeout)
    return tmp_path / "plain", tmp_path / "isolated"


def test_an_answer_with_a_lone_surrogate_is_garbage(tmp_path, monkeypatch):
    """Audit 3: the agent writes its own answer on the protocol pipe, with "\\ud800" in a text (here its
    error, which the forfeit's reason carries). It passed every check, then writing the record failed
    ('utf-8' codec can't encode) and the run could not end."""
    hit = duet_first_words(1, 3)[1]
    plain, isolated = _duet_both(tmp_path, monkeypatch, f"{HOSTILE}:SurrogateSpymaster?words={hit}", "random",
                                 move_timeout=10)
    assert_costs_its_own_games(plain, isolated, {1}, "forfeit: A spymaster: answered garbage (text that is not "
                                                     "Unicode (a lone surrogate))")
    (isolated / "records.jsonl").read_text(encoding="utf-8")  # the whole file is UTF-8


def test_an_infinite_clue_score_is_garbage_and_every_record_stays_readable(tmp_path, monkeypatch):
    """Audit 8: a clue scored Infinity passed the answer's check (NaN only was refused) and went into the
    record's intents as `Infinity`, which no strict reader takes: `cnlab replay` refused every game of
    that agent (not valid JSON). NaN in analysis details, which no record keeps, is sent as null."""
    from engine.records import record_from_json

    hit = duet_first_words(1, 3)[1]
    plain, isolated = _duet_both(tmp_path, monkeypatch, f"{HOSTILE}:InfiniteScoreSpymaster?words={hit}", "random",
                                 move_timeout=10)
    assert_costs_its_own_games(plain, isolated, {1}, "forfeit: A spymaster: answered garbage (not valid JSON: "
                                                     "Infinity is not a JSON number")
    for line in (isolated / "records.jsonl").read_text(encoding="utf-8").splitlines():
        record_from_json(line)


def test_a_clue_score_too_large_for_a_float_is_garbage(tmp_path, monkeypatch):
    """Audit 9: the agent writes its own answer with a clue scored by a 400-digit integer (strict JSON,
    and finite): `math.isfinite` of it raised OverflowError in the game process, which stopped the whole
    run with a traceback instead of forfeiting the agent's game."""
    hit = duet_first_words(1, 3)[1]
    plain, isolated = _duet_both(tmp_path, monkeypatch, f"{HOSTILE}:HugeScoreSpymaster?words={hit}", "random",
                                 move_timeout=10)
    assert_costs_its_own_games(plain, isolated, {1}, "forfeit: A spymaster: answered garbage (a clue score is a "
                                                     "number")


def test_numbers_too_large_for_a_float_are_garbage():
    """Audit 9: a clue's score or a Spy's Word bot's belief as an integer of hundreds of digits passed
    the answer's checks and raised OverflowError (not a forfeit) where it became a float."""
    from experiments.isolation.protocol import ProtocolError, beliefs_from_json, clue_from_json

    with pytest.raises(ProtocolError):
        clue_from_json({"word": "ocean", "number": 1, "targets": [], "score": 10**400})
    with pytest.raises(ProtocolError):
        beliefs_from_json([0.5, 10**400])
    assert clue_from_json({"word": "ocean", "number": 1, "score": 3}).score == 3.0
    assert beliefs_from_json([0.5, 1, 10**300]) == [0.5, 1.0, 1e300] and beliefs_from_json(None) == []


def test_decode_line_refuses_what_no_record_can_hold():
    from experiments.isolation.protocol import ProtocolError, decode_line

    for line in (b'{"ok": true, "guess": "\\udc80x"}', b'{"\\ud800": 1}', b"[" * 100_000 + b"]" * 100_000,
                 b'{"a": ' * 100_000 + b"1" + b"}" * 100_000,
                 b'{"score": Infinity}', b'{"score": NaN}', b'{"score": -1e999}'):  # audit 8: no record holds them
        with pytest.raises(ProtocolError):
            decode_line(line)
    assert decode_line('{"guess": "\\ud55c\\uae00 \U0001F600"}'.encode()) == {"guess": "한글 \U0001F600"}


@pytest.mark.parametrize("how", ["echo", "illegal"])
def test_after_a_forfeit_the_next_game_has_a_fresh_process(tmp_path, monkeypatch, how):
    """Audit 3: after an illegal move the agent's process was kept, and a line it had left on its pipe
    was read as its answer in the games after. Now every forfeit kills the agent, the next game starts
    a fresh one, and an answer must echo its request's id."""
    words = duet_first_words(1, 3)
    report = tmp_path / "report"
    guesser = f"{HOSTILE}:RestartProbeGuesser?words={words[1]}&how={how}&report={report}"
    plain, isolated = _duet_both(tmp_path, monkeypatch, "random", guesser)
    reason = "forfeit: B guesser: " + ("answered garbage (a line that is no answer to request" if how == "echo"
                                       else "illegal move: ")
    assert_costs_its_own_games(plain, isolated, {1}, reason)
    played = [line.split() for line in (report / "pids.txt").read_text().splitlines()]  # the isolated run's
    pids = {w: {pid for word, seat, pid in played if word == w and seat == "B"} for w in words}
    assert all(len(p) == 1 for p in pids.values()), pids
    assert pids[words[0]] == pids[words[1]]  # one process until the forfeit
    assert pids[words[2]] != pids[words[1]]  # a fresh one after it


def test_an_agent_that_prints_without_end_forfeits_and_nothing_reaches_the_disk(tmp_path, monkeypatch):
    """Audit 3: the agent's prints went to an unbounded temporary file (1.7 GB in 1.5 s). Now they are
    read from a pipe (the last lines kept), and more than MAX_OUTPUT bytes for one request forfeit."""
    import tempfile

    from experiments.isolation import proxy

    words = duet_first_words(1, 3)
    monkeypatch.setattr(proxy, "MAX_OUTPUT", 2 * 1024 * 1024, raising=False)  # (the old code had none)
    spare = tempfile.gettempdir()
    before = {p.name for p in Path(spare).iterdir()}
    plain, isolated = _duet_both(tmp_path, monkeypatch, "random", f"{HOSTILE}:ChattyGuesser?words={words[1]}&mb=8")
    assert_costs_its_own_games(plain, isolated, {1}, "forfeit: B guesser: wrote more than 2 MiB of output")
    assert {p.name for p in Path(spare).iterdir()} <= before | {tmp_path.name}


@pytest.mark.parametrize("workers", [1, 2])
def test_what_an_agent_starts_in_a_session_of_its_own_ends_with_the_run(tmp_path, monkeypatch, workers):
    """Audit 3: a process an agent forked with setsid() (out of its process group) outlived the run. The
    game process is a child subreaper now and kills them; its own children in other sessions, started
    before the run (a bystander), are left alone."""
    import os
    import signal
    import subprocess

    words = duet_first_words(1, 3)
    report = tmp_path / "report"
    bystander = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        _duet_both(tmp_path, monkeypatch, "random",
                   f"{HOSTILE}:ForkingGuesser?words={words[0]}/{words[2]}&report={report}", workers=workers)
        forked = [int(p.name.split("-")[1]) for p in report.glob("forked-*")]
        assert forked  # the agents did start them
        alive = []
        for pid in forked:
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except ProcessLookupError:
                pass
        assert alive == [] and bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
        for p in report.glob("forked-*"):
            try:
                os.kill(int(p.name.split("-")[1]), signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert rows(tmp_path / "isolated") == rows(tmp_path / "plain")


def _spyword_both(tmp_path, monkeypatch, cls: str) -> tuple[Path, Path, int]:
    """Plain and isolated runs of a hostile Spy's Word bot that misbehaves in game 1 only."""
    from experiments.games.spyword.batch import simulate_spyword
    from tests.agents.hostile_agent import spyword_run_singling_out

    monkeypatch.delenv(SECRET_ENV, raising=False)
    seed, first = spyword_run_singling_out(1)
    bot = f"{HOSTILE}:{cls}+fake?vocab=300&first={first}"
    simulate_spyword(3, 6, seed, "en", bot, None, tmp_path / "plain", progress=False)
    simulate_spyword(3, 6, seed, "en", bot, None, tmp_path / "isolated", progress=False, isolate=True, move_timeout=60)
    return tmp_path / "plain", tmp_path / "isolated", 1


def test_a_spyword_bot_acts_for_its_own_seat_only(tmp_path, monkeypatch):
    """Audit 3: a bot that is not the host answered {"seat": "host", "kick": "p3"} and the engine took it."""
    plain, isolated, hit = _spyword_both(tmp_path, monkeypatch, "HostImpostorBot")
    (row,) = [r for r in assert_costs_its_own_games(plain, isolated, {hit}, "forfeit: p2 bot: answered garbage (Kick "
                                                                            "is not a bot's move")
              if r["game_index"] == hit]
    record = json.loads(raw_records(isolated)[hit])
    assert not any("kick" in a for a in record["actions"]) and row["winner"] is not None


def test_spyword_bot_actions_are_its_own_moves_and_the_host_alias_is_the_hosts():
    from engine.spyword.actions import HOST
    from experiments.isolation.protocol import ProtocolError, spyword_action_from_json

    assert spyword_action_from_json({"seat": "p2", "vote": "p3"}, "p2", "p1").seat == "p2"
    assert spyword_action_from_json({"seat": HOST, "start_vote": True}, "p1", "p1").seat == HOST
    for action in ({"seat": HOST, "start_vote": True}, {"seat": HOST, "vote": "p3"}, {"seat": "p3", "vote": "p4"},
                   {"seat": "p2", "disconnect": True}, {"seat": "p2", "reconnect": True}, {"seat": "p2", "leave": True},
                   {"seat": HOST, "kick": "p3"}, {"seat": "clock", "timeout": "vote"}):
        with pytest.raises(ProtocolError):
            spyword_action_from_json(action, "p2", "p1")
    with pytest.raises(ProtocolError):
        spyword_action_from_json({"seat": HOST, "kick": "p3"}, "p1", "p1")  # the host's bot does not kick either


def test_a_spyword_bot_that_stalls_the_game_forfeits_it(tmp_path, monkeypatch):
    """Audit 3: Disconnect and Reconnect of itself in turns kept the game going until the loop's action
    limit, and the run crashed (RuntimeError, exit 1, nothing written)."""
    plain, isolated, hit = _spyword_both(tmp_path, monkeypatch, "FlappingBot")
    assert_costs_its_own_games(plain, isolated, {hit}, "forfeit: p2 bot: answered garbage (Disconnect is not a bot's move")
    assert json.loads((isolated / "summary.json").read_text())["forfeits"] == 1   # counted beside the win rates


def test_an_unlimited_clue_is_a_codenames_clue_played_alike_plain_and_isolated(tmp_path):
    """RULES 1.2, 1.7: a Codenames clue number is 0..9 or "unlimited". Before: the plain loop crashed on
    int("unlimited") (ValueError) and an isolated agent's unlimited clue was its forfeit ("answered garbage")."""
    run = CodenamesRun(games=2, seed=3, spymaster=f"{HOSTILE}:NumberSpymaster?how=unlimited", guesser="random")
    simulate_codenames(run, out=tmp_path / "plain", progress=False)
    simulate_codenames(run, out=tmp_path / "isolated", progress=False, isolate=True, move_timeout=60)
    assert rows(tmp_path / "plain") == rows(tmp_path / "isolated")
    assert records(tmp_path / "plain") == records(tmp_path / "isolated")
    assert all(r["status"] == "finished" for r in rows(tmp_path / "plain"))
    clues = [a for rec in records(tmp_path / "plain") for a in rec["actions"] if "clue" in a]
    assert clues and all(a["number"] == "unlimited" for a in clues), clues


@pytest.mark.parametrize("how", ["float", "text", "bool"])
def test_a_clue_number_the_rules_refuse_is_refused_in_codenames_as_in_duet(tmp_path, how):
    """RULES 1.2 (3.4 in Duet): a clue number is an integer 0..9 (or "unlimited"). Before: the Codenames loop
    made 2.0, "2" and True numbers with int() and played them, where Duet and an isolated agent refused them."""
    from experiments.games.moves import AgentError

    for game, number_rule in (("codenames", "RULES 1.2"), ("duet", "RULES 3.4")):
        spec = f"{HOSTILE}:NumberSpymaster?how={how}"
        with pytest.raises(AgentError, match=f"illegal move .*{number_rule}: a .*clue number is 0..9"):
            if game == "codenames":
                simulate_codenames(CodenamesRun(games=1, seed=3, spymaster=spec, guesser="random"),
                                   out=tmp_path / game, progress=False)
            else:
                simulate(DuetRun(games=1, seed=3, spymaster=spec, guesser="random"), out=tmp_path / game,
                         progress=False)


@pytest.mark.parametrize("game", ["codenames", "duet"])
def test_a_numpy_integer_clue_number_plays_as_that_integer_plain_and_isolated(tmp_path, game):
    """A spymaster's number as a numpy integer (an argmax) is that number, as an isolated agent's answer
    arrives. Before: plain Duet refused np.int64(1) as "not 0..9" while the isolated run played it."""
    spec = f"{HOSTILE}:NumberSpymaster?how=numpy"
    for name, isolate in (("plain", False), ("isolated", True)):
        if game == "codenames":
            simulate_codenames(CodenamesRun(games=1, seed=3, spymaster=spec, guesser="random"), out=tmp_path / name,
                               progress=False, isolate=isolate, move_timeout=60)
        else:
            simulate(DuetRun(games=1, seed=3, spymaster=spec, guesser="random"), out=tmp_path / name,
                     progress=False, isolate=isolate, move_timeout=60)
    assert rows(tmp_path / "plain") == rows(tmp_path / "isolated")
    assert records(tmp_path / "plain") == records(tmp_path / "isolated")
    assert rows(tmp_path / "plain")[0]["status"] != "forfeit"


@pytest.mark.parametrize("how", ["none", "text", "pair", "score", "targets", "word", "indices", "nan", "text_score"])
@pytest.mark.parametrize("game", ["codenames", "duet"])
def test_a_spymaster_answer_that_is_no_clue_decision_is_the_agents_error(tmp_path, game, how):
    """give_clue returns a ClueDecision (agents/base.py). Before: None, a text or a tuple crashed the loop with
    AttributeError ('NoneType' object has no attribute 'intent'), a score that is no number or targets None
    with ValueError / TypeError in ClueDecision.intent; now one AgentError naming the agent (the CLI's one
    line, exit 2), and under --isolate the agent's forfeit saying the same. Targets that are not words
    were kept as they came: "dog" as ['d', 'o', 'g'], numpy card numbers crashed the record's JSON
    (TypeError after the game), a nan target wrote a record no JSON reader takes; a score "0.5" was read
    as a number. Now each is that same one line."""
    from experiments.games.moves import AgentError

    spec = f"{HOSTILE}:NoClueSpymaster?how={how}"

    def play(out, isolate):
        if game == "codenames":
            simulate_codenames(CodenamesRun(games=1, seed=3, spymaster=spec, guesser="random"), out=out,
                               progress=False, isolate=isolate, move_timeout=60)
        else:
            simulate(DuetRun(games=1, seed=3, spymaster=spec, guesser="random"), out=out, progress=False,
                     isolate=isolate, move_timeout=60)

    what = "gave no clue: give_clue returns a ClueDecision" if how in ("none", "text", "pair") else \
        "gave a ClueDecision whose targets are no list of words or whose score is no number"
    with pytest.raises(AgentError, match=f"^{spec.replace('?', '[?]')} {what}"):
        play(tmp_path / "plain", False)
    play(tmp_path / "isolated", True)
    (row,) = rows(tmp_path / "isolated")
    assert row["status"] == "forfeit" and "spymaster: " in row["loss_reason"], row
    if how in ("none", "text", "pair"):
        assert "give_clue returns a ClueDecision(word, number), not" in row["loss_reason"], row


@pytest.mark.parametrize("how,fault", [
    ("none", "NoneType is not a bot's move"), ("number", "int is not a bot's move"),
    ("leave", "Leave is not a bot's move"), ("kick", "Kick is not a bot's move"),
    ("other", "p2 answered an action for seat 'p3'"),
    ("early", "made an illegal move Vote\\(seat='p2', target='p3'\\): RULES 5.6")])
def test_a_spyword_bot_in_one_process_plays_its_own_moves_only(tmp_path, how, fault):
    """A bot plays its own seat's moves (agents.spyword.SpyWordAgent.act), in one process as isolated. Before:
    the plain loop handed any answer to the engine: None or 42 was refused as "RULES 5.1: unknown seat None"
    (naming neither the bot nor its fault), an illegal move raised the engine's IllegalAction, and a Leave, a Kick
    as "host" or another seat's move was played. Now one AgentError naming the bot and its seat."""
    from experiments.games.moves import AgentError
    from experiments.games.spyword.batch import simulate_spyword

    spec = f"{HOSTILE}:WrongMoveBot?how={how}"
    with pytest.raises(AgentError, match=f"^{spec.replace('?', '[?]')} \\(p2\\) .*{fault}"):
        simulate_spyword(1, 6, 1, "en", spec, None, tmp_path / "plain", progress=False)


def test_a_spyword_bot_in_one_process_that_kicks_is_one_line_of_the_cli(tmp_path):
    from typer.testing import CliRunner

    from experiments.cli import app

    result = CliRunner().invoke(app, ["simulate", "spyword", "--games", "1", "--bot", f"{HOSTILE}:WrongMoveBot?how=kick",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    (line,) = [l for l in result.stderr.splitlines() if l.startswith("error:")]
    assert "WrongMoveBot?how=kick (p2) made no move of its own: Kick is not a bot's move" in line
    assert "Traceback" not in result.output


@pytest.mark.parametrize("how", ["capabilities", "hardening"])
def test_a_forged_ready_message_is_the_agents_forfeit_not_the_runs_crash(tmp_path, how):
    """An agent can write on its protocol pipe itself, its ready line too. Before: capabilities 5 (or hardening
    "xy") in it crashed the game process with TypeError (ValueError), a traceback that ended the whole run; now
    each game the agent starts in is its forfeit, 'answered garbage (a ready message ...)'."""
    simulate(DuetRun(games=2, seed=1, spymaster="random", guesser=f"{HOSTILE}:ForgedReadyGuesser?how={how}"),
             out=tmp_path, progress=False, isolate=True, move_timeout=30)
    played = rows(tmp_path)
    assert len(played) == 2
    for row in played:
        assert row["status"] == "forfeit" and row["loss_reason"].startswith(
            "forfeit: A guesser: answered garbage (a ready message holds a list of capabilities"), row


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), 1e300, 0.0, -1.0])
def test_a_move_timeout_that_is_no_number_of_seconds_is_refused_before_any_game(tmp_path, timeout):
    """The Python API refuses what `--move-timeout` refuses. Before: NaN and infinity passed the proxies' check
    (`<= 0`) and crashed mid-game in select() (ValueError "Invalid value NaN", OverflowError "timestamp out of
    range"); now one ValueError naming the option before any agent starts."""
    with pytest.raises(ValueError, match="^--move-timeout must be a positive number of seconds, at most 86,400"):
        simulate(DuetRun(games=1, seed=1, spymaster="random", guesser="random"), out=tmp_path, progress=False,
                 isolate=True, move_timeout=timeout)
    assert not (tmp_path / "games.jsonl").exists() or not (tmp_path / "games.jsonl").read_text()


def test_a_spyword_folder_holding_a_forfeit_resumes_and_extends(tmp_path, monkeypatch):
    """docs/architecture.md, results folders: the same run resumes. A Spy's Word forfeit's row carries
    `forfeit` (docs/isolation.md), which the other rows do not: the row check took that for a hand edit,
    so a rerun of the same command into a folder holding a forfeit said the folder was damaged."""
    from experiments.games.spyword.batch import simulate_spyword
    from tests.agents.hostile_agent import spyword_run_singling_out

    _, isolated, hit = _spyword_both(tmp_path, monkeypatch, "HostImpostorBot")
    seed, first = spyword_run_singling_out(1)
    bot = f"{HOSTILE}:HostImpostorBot+fake?vocab=300&first={first}"
    before = (isolated / "games.jsonl").read_text()
    assert "forfeit" in rows(isolated)[hit]
    again = simulate_spyword(3, 6, seed, "en", bot, None, isolated, progress=False, isolate=True, move_timeout=60)
    assert again["games"] == 3 and (isolated / "games.jsonl").read_text() == before
    more = simulate_spyword(4, 6, seed, "en", bot, None, isolated, progress=False, isolate=True, move_timeout=60)
    assert more["games"] == 4 and (isolated / "games.jsonl").read_text().startswith(before)


def test_a_solo_codenames_forfeit_is_the_playing_teams_loss_whoever_starts(tmp_path):
    """Audit 12: a Codenames forfeit went to the team of the proxy's seat, which before its first move of a game
    is the seat it was built for (red): in two_player with blue starting, a guesser that died in begin_game made
    red lose, and the row said `won: true` (the starting team won). One team plays a solo variant (its agents
    cover for the virtual opponent too, RULES 1.8): every forfeit is its loss."""
    simulate_codenames(CodenamesRun(games=2, seed=0, spymaster="random", guesser=f"{HOSTILE}:StartCrashingGuesser",
                                    variant="two_player"),
                       out=tmp_path, progress=False, isolate=True, move_timeout=60)
    played = rows(tmp_path)
    assert [r["status"] for r in played] == ["forfeit", "forfeit"]
    starts = [json.loads(line)["starts"] for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert "blue" in starts  # (seed 0: game 0 is blue's)
    for row in played:
        assert row["won"] is False and row["winner"] != starts[row["game_index"]], row
        assert row["loss_reason"].startswith("forfeit: red-guesser: crashed (exit code 5: dies before the game)")


def test_a_forfeit_before_the_first_move_names_the_seat_seeded_whatever_the_game_before(tmp_path, monkeypatch):
    """Audit 12: a shared Codenames proxy kept the seat of its last move, so an agent that died in begin_game
    forfeited for the seat the previous game had ended on (seed 2, teams: game 0 ends on blue-guesser, game 1
    was blue's loss), another team than when the same game is played first (a second worker, a resume). The
    loop seeds a shared agent for its first seat (red-guesser): that seat forfeits, whatever came before."""
    from experiments.runs.seeds import agent_seed

    monkeypatch.delenv(SECRET_ENV, raising=False)
    crash = f"s{agent_seed((2, 1), 'red-guesser')}"  # (a text: a number parameter would be a float)
    run = CodenamesRun(games=2, seed=2, spymaster="random", guesser=f"{HOSTILE}:StartCrashingGuesser?seeds={crash}",
                       variant="teams")
    simulate_codenames(run, out=tmp_path, progress=False, isolate=True, move_timeout=60)
    first, second = rows(tmp_path)
    assert first["status"] != "forfeit"
    assert second["loss_reason"].startswith("forfeit: red-guesser: crashed (exit code 5"), second
    assert second["winner"] == "blue"


@pytest.mark.parametrize("how", ["clue", "none"])
def test_an_answer_without_the_field_its_request_asks_for_is_garbage(tmp_path, monkeypatch, how):
    """Audit 12: a guesser's answer with no "guess" (another role's answer, a clue; or only {"ok": true}) was read
    as null, a stop, and the game played on: the protocol's answer to next_guess is {"ok": true, "guess": WORD |
    null}. Now an answer that lacks its request's field is garbage, and the agent forfeits there."""
    monkeypatch.delenv(SECRET_ENV, raising=False)
    started = time.monotonic()  # (seed 0: B's first guess is right, its second the forged answer)
    simulate(DuetRun(games=1, seed=0, spymaster="random", guesser=f"{HOSTILE}:WrongFieldGuesser?how={how}"),
             out=tmp_path, progress=False, isolate=True, move_timeout=3)
    (row,) = rows(tmp_path)
    assert row["status"] == "forfeit" and row["loss_reason"] == (
        'forfeit: B guesser: answered garbage (an answer to next_guess holds "guess": a word of the board or null)'), row
    assert time.monotonic() - started < 30


def test_a_forfeit_reason_is_one_line_whatever_the_agent_wrote(tmp_path):
    """Audit 12: the reason quoted the agent's error text as it was, line ends and terminal escapes included,
    so a row's and a record's `forfeit: <seat> <role>: <why>` (docs/isolation.md) could be several lines, or
    clear the screen of whoever prints it. Now what is no printable character is written as its escape."""
    simulate(DuetRun(games=1, seed=1, spymaster="random", guesser=f"{HOSTILE}:MultilineRaisingGuesser"),
             out=tmp_path, progress=False, isolate=True, move_timeout=60)
    (row,) = rows(tmp_path)
    assert row["loss_reason"] == ("forfeit: B guesser: raised ValueError: first line\\nerror: a line of its own"
                                  "\\r\\x1b[2Jcleared\\u202eevil"), row
    assert row["loss_reason"].isprintable() and records(tmp_path)[0]["forfeit"]["reason"] == row["loss_reason"]


@pytest.mark.parametrize("sig", [15, 9])
def test_a_run_whose_forked_worker_an_agent_kills_stops_instead_of_hanging(tmp_path, sig):
    """Audit 12: with --workers 2 an agent's parent is a forked worker; an agent that killed it (SIGTERM, SIGKILL:
    its user may signal it, docs/isolation.md) left the pool waiting for that game forever: the run hung (a worker
    the OOM killer takes, the same). Now a worker that dies stops the run with one line, no traceback, the games
    finished before it kept for a rerun."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "from experiments.cli import app; app()", "simulate", "duet", "--games", "4",
         "--workers", "2", "--isolate", "--move-timeout", "20", "--spymaster", "random",
         "--guesser", f"{HOSTILE}:ParentKillingGuesser?sig={sig}", "--out", str(tmp_path / "run"), "--no-progress"],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    (line,) = [l for l in done.stderr.splitlines() if not l.startswith("note: ")]
    assert line.startswith("error: a worker process died (killed by signal ") and "Traceback" not in done.stderr
    assert "a rerun resumes" in line


@pytest.mark.parametrize("weaken", [None, "citizens"])
def test_a_spyword_bot_by_import_path_plays_alike_plain_and_isolated(tmp_path, monkeypatch, weaken):
    """Audit 12: for a bot named by import path (`module.path:Class+fake`) the plain run took the class name for
    the referee's embedding backend, and so did the weakened seats' spec: the first clue the translation check
    read ended the plain run (ValueError: unknown embedding backend 'ForeignClueBot'), a weakened run was refused,
    while the isolated run (which skipped the class) played. Both read the backends after the class now."""
    from experiments.games.spyword.batch import simulate_spyword

    monkeypatch.delenv(SECRET_ENV, raising=False)
    bot = f"{HOSTILE}:ForeignClueBot+fake?vocab=300"
    simulate_spyword(1, 6, 5, "en", bot, weaken, tmp_path / "plain", progress=False)
    simulate_spyword(1, 6, 5, "en", bot, weaken, tmp_path / "isolated", progress=False, isolate=True, move_timeout=60)
    assert rows(tmp_path / "plain") == rows(tmp_path / "isolated")
    assert records(tmp_path / "plain") == records(tmp_path / "isolated")
    assert rows(tmp_path / "plain")[0]["status"] == "finished" and rows(tmp_path / "plain")[0]["clue_refusals"] > 0


def test_an_agent_that_dies_after_its_answer_forfeits_at_its_next_move(tmp_path, monkeypatch):
    """Audit 12: an agent process that died between two requests (after its answer was written) was started
    again at its next move, mid-game, silently, with no begin_game (so unseeded), as often as it died. A
    process that dies is the agent's crash (docs/isolation.md): its next move forfeits the game, and the
    record holds the one clue it gave."""
    monkeypatch.delenv(SECRET_ENV, raising=False)
    simulate(DuetRun(games=1, seed=0, spymaster=f"{HOSTILE}:AnswerThenExitSpymaster", guesser="random"),
             out=tmp_path, progress=False, isolate=True, move_timeout=20)
    (row,) = rows(tmp_path)
    assert row["status"] == "forfeit" and row["loss_reason"] == (
        "forfeit: A spymaster: crashed (exit code 0: gone after my answer)"), row
    (rec,) = records(tmp_path)
    assert sum(1 for a in rec["actions"] if a.get("seat") == "A" and "clue" in a) == 1, rec["actions"]
