"""Codenames batch self-play: full games, determinism across workers, resume, replayable records."""

import json
from pathlib import Path

import pytest

from engine.codenames import COMPETITION
from experiments.games.moves import AgentError
from experiments.games.codenames.loop import play_codenames
from experiments.games.codenames.batch import CodenamesRun, format_summary, simulate_codenames
from experiments.games.codenames.dealing import deal_record

RANDOM = dict(spymaster="random", guesser="random")


def rows(path: Path) -> list[dict]:
    return sorted((json.loads(l) for l in (path / "games.jsonl").read_text().splitlines()),
                  key=lambda r: r["game_index"])


def agents(spymaster="random", guesser="random"):
    from agents.registry import make_guesser, make_spymaster

    s, g = make_spymaster(spymaster), make_guesser(guesser)
    return {"red-spymaster": s, "red-guesser": g, "blue-spymaster": s, "blue-guesser": g}


def test_a_single_team_game_runs_to_the_end():
    record = deal_record([4, 0], variant="single_team")
    assert record.config.variant == COMPETITION.variant
    assert sorted(record.key.letters.count(c) for c in "RBNX") == [1, 7, 8, 9]  # 8 own, 7, 9, 1
    play_codenames(record, agents(), seed=(4, 0))
    state = record.replay()
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.competition_score == (outcome.turns_used if outcome.winner == "red" else 25)
    assert len(record.extra["intents"]) == outcome.turns_used
    assert all(a.seat.startswith("red") for a in record.actions)


def test_two_player_games_cover_and_finish():
    for i in range(3):
        record = play_codenames(deal_record([2, i], variant="two_player"), agents(), seed=(2, i))
        state = record.replay()
        assert state.is_terminal()
        assert any(type(a).__name__ == "Cover" for a in record.actions) or state.turns_used <= 1


def test_a_guesser_that_will_not_guess_is_an_agent_error():
    class Silent:
        spec = "silent"

        def begin_game(self, seed):
            pass

        def next_guess(self, obs):
            return None

    team = agents()
    team["red-guesser"] = Silent()
    with pytest.raises(AgentError, match="at least once"):
        play_codenames(deal_record([1, 1], variant="single_team"), team)


def test_one_and_two_workers_give_identical_rows(tmp_path):
    run = CodenamesRun(games=16, seed=3, **RANDOM)
    s1 = simulate_codenames(run, out=tmp_path / "w1", workers=1, progress=False)
    simulate_codenames(run, out=tmp_path / "w2", workers=2, progress=False)
    assert rows(tmp_path / "w1") == rows(tmp_path / "w2")
    records = lambda p: sorted((p / "records.jsonl").read_text().splitlines())
    assert records(tmp_path / "w1") == records(tmp_path / "w2")
    assert s1["games"] == 16 and s1["mean_competition_score"] is not None
    assert "mean_competition_score" in format_summary(s1)


def test_every_record_replays_to_its_row(tmp_path):
    from engine.records import record_from_json, replay_summary

    simulate_codenames(CodenamesRun(games=8, seed=1, **RANDOM), out=tmp_path, progress=False)
    by_index = {r["game_index"]: r for r in rows(tmp_path)}
    lines = (tmp_path / "records.jsonl").read_text().splitlines()
    assert len(lines) == 8
    for line in lines:
        record = record_from_json(line)
        summary = replay_summary(record)
        row = by_index[record.extra["game_index"]]
        assert summary["status"] == "finished"
        assert len(record.extra["intents"]) == row["clues"]  # the records keep what each clue meant
        for k in ("winner", "loss_reason", "turns_used", "competition_score", "score"):
            assert summary[k] == row[k], k


def test_resume_after_a_torn_write_loses_and_duplicates_nothing(tmp_path):
    run = CodenamesRun(games=10, seed=5, **RANDOM)
    simulate_codenames(run, out=tmp_path / "clean", progress=False)
    partial = tmp_path / "partial"
    simulate_codenames(run, out=partial, progress=False)
    lines = (partial / "games.jsonl").read_text().splitlines()
    (partial / "games.jsonl").write_text("\n".join(lines[:4]) + "\n" + lines[4][:17])
    played = []
    simulate_codenames(run, out=partial, progress=False, on_result=played.append)
    assert len(played) == 6
    assert rows(partial) == rows(tmp_path / "clean")
    assert len((partial / "records.jsonl").read_text().splitlines()) == 10


def test_a_different_run_in_the_same_folder_is_refused(tmp_path):
    simulate_codenames(CodenamesRun(games=2, seed=0, **RANDOM), out=tmp_path, progress=False)
    with pytest.raises(ValueError, match="different run"):
        simulate_codenames(CodenamesRun(games=2, seed=0, variant="two_player", **RANDOM), out=tmp_path,
                           progress=False)
    with pytest.raises(ValueError, match="variant"):
        simulate_codenames(CodenamesRun(games=2, variant="duet", **RANDOM), progress=False)


def test_cnlab_simulate_codenames(tmp_path):
    from typer.testing import CliRunner

    from experiments.cli import app

    args = ["simulate", "codenames", "--games", "4", "--spymaster", "random", "--guesser", "random",
            "--out", str(tmp_path / "cn"), "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "mean_competition_score" in result.stdout
    bad = CliRunner().invoke(app, args[:2] + ["--variant", "chess", "--spymaster", "random", "--guesser", "random"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error:")


@pytest.mark.parametrize("game,variant", [("codenames", "teams"), ("codenames", "single_team"),
                                          ("codenames", "two_player"), ("pictures", "two_player")])
def test_intents_point_at_clues_and_name_cards_of_the_clue_givers_team(game, variant):
    from engine import Clue
    from engine.codenames.key import TEAM_LETTER
    from engine.records import record_from_json, record_to_json, replay_summary

    for i in range(3):
        record = play_codenames(deal_record([6, i], game=game, variant=variant), agents(), seed=(6, i))
        intents = record.extra["intents"]
        clues = [n for n, a in enumerate(record.actions) if isinstance(a, Clue)]
        assert [x["action"] for x in intents] == clues
        state = record.new_state()
        for n, action in enumerate(record.actions):
            if n in clues:
                (intent,) = [x for x in intents if x["action"] == n]
                team = action.seat.split("-")[0]
                cards = [record.words.index(t) for t in intent["targets"]]
                assert cards and len(cards) == action.number  # the random spymaster's number
                assert all(record.key.letters[c] == TEAM_LETTER[team] and not state.revealed[c] for c in cards)
            state.apply(action)
        text = record_to_json(record)
        restored = record_from_json(text)
        assert restored.extra["intents"] == intents and record_to_json(restored) == text
        assert json.loads(text)["intents"] == intents  # plain JSON
        assert replay_summary(restored)["status"] == "finished"


@pytest.mark.parametrize("game", ["codenames", "duet"])
@pytest.mark.parametrize("stray", ["banana", "opponent"])
def test_intents_naming_no_own_agent_of_the_clue_giver_are_the_agents_error(game, stray):
    """A record's intents name the clue giver's own agents only (docs/codenames.md: "targets: cards of the
    clue giver's team"; Duet: its greens). Before: a spymaster's ClueDecision targets were kept as they came,
    so a record's intents could name a word that is no card ('banana') or the other team's agent (Duet: a card
    not green on the giver's side). Now one AgentError naming the agent, as for targets that are no words."""
    from agents.base import ClueDecision, Spymaster
    from agents.registry import make_guesser, make_spymaster
    from experiments.games.duet.dealing import deal_duet_record
    from experiments.games.duet.loop import DuetSeat, play_duet

    class Stray(Spymaster):
        spec = "stray"

        def __init__(self):
            super().__init__()
            self.inner = make_spymaster("random")

        def give_clue(self, obs):
            d = self.inner.give_clue(obs)
            if stray == "banana":
                return ClueDecision(d.word, d.number, ("banana",))
            mine = obs.own_key if game == "duet" else obs.key
            letter = "G" if game == "duet" else ("R" if obs.team == "red" else "B")
            other = next(w for w, k in zip(obs.words, mine) if k != letter)
            return ClueDecision(d.word, d.number, d.targets[:-1] + (other,))

        def choose_cover(self, obs):
            return self.inner.choose_cover(obs)

    with pytest.raises(AgentError, match="^stray gave a ClueDecision whose targets are not its own agents' cards"):
        if game == "duet":
            play_duet(deal_duet_record(5), {s: DuetSeat(Stray(), make_guesser("random")) for s in "AB"})
        else:
            team = agents()
            team["red-spymaster"] = team["blue-spymaster"] = Stray()
            play_codenames(deal_record([5, 0], variant="teams"), team)


def test_the_ray_backend_plays_codenames_too(tmp_path):
    """Ray is not a Duet-only backend: the same rows as a local run (issue 13)."""
    pytest.importorskip("ray")
    run = CodenamesRun(games=6, seed=2, **RANDOM)
    simulate_codenames(run, out=tmp_path / "local", progress=False)
    simulate_codenames(run, out=tmp_path / "ray", workers=2, progress=False, backend="ray")
    assert rows(tmp_path / "ray") == rows(tmp_path / "local")


def test_an_illegal_clue_is_refused_not_played(tmp_path):
    """Audit 3: the games were dealt with `invalid_clue: allow`, so nothing judged a bot's clue: a
    spymaster clueing its own board word inside a compound (hotWORD, RULES 4.3) played every game
    and won. The referee refuses it: the agent's error (one line from `cnlab simulate`), and under
    --isolate a forfeit of the game; the records say they were refereed."""
    spec = "tests.agents.hostile_agent:OwnTargetSpymaster"
    with pytest.raises(AgentError, match=r"illegal move .*RULES 4\.3"):
        simulate_codenames(CodenamesRun(games=2, seed=0, spymaster=spec, guesser="random"), out=tmp_path / "a",
                           progress=False)
    simulate_codenames(CodenamesRun(games=2, seed=0, **RANDOM), out=tmp_path / "b", progress=False)
    for line in (tmp_path / "b" / "records.jsonl").read_text().splitlines():
        assert json.loads(line)["config"]["invalid_clue"] == "reject"


def test_a_games_row_counts_its_unlimited_clues():  # RULES 1.7
    """`clues` counts every clue given (the mean clue number is over the numbered ones: an UNLIMITED
    clue has none). The row left UNLIMITED clues out of the count."""
    from engine import Clue, Guess
    from engine.actions import UNLIMITED
    from experiments.games.codenames.batch import game_row

    record = deal_record(3, variant="two_player")
    team = record.key.starts
    own = [w for w, c in zip(record.words, record.key.letters) if c == team[0].upper()]
    record.actions = [Clue(f"{team}-spymaster", "zebra", UNLIMITED), Guess(f"{team}-guesser", own[0]),
                      Guess(f"{team}-guesser", own[1])]
    row = game_row(0, record)
    assert (row["clues"], row["mean_clue_number"]) == (1, None)   # no number to average


def test_a_guesser_that_stops_in_sudden_death_is_an_agent_error_naming_rules_2_3():
    """RULES 2.3: a team that touches the assassin before finishing keeps guessing, no clue, no
    stopping. A guesser answering None there was told it 'must guess at least once per clue (RULES
    1.4)', a rule about clues when there is none; now the error names the sudden death's rule."""
    record = deal_record(5, game="pictures", variant="assassin_ending")
    assassin = record.words[record.key.letters.index("X")]

    class ThenStops:
        spec = "then-stops"

        def begin_game(self, seed):
            pass

        def next_guess(self, obs):
            return assassin if obs.phase != "sudden_death" else None

    team = agents()
    team[f"{record.key.starts}-guesser"] = ThenStops()
    with pytest.raises(AgentError, match=r"then-stops may not stop in sudden death.*RULES 2\.3"):
        play_codenames(record, team)


def test_simulate_help_names_the_codenames_default_agents():
    """`cnlab simulate --help` gave the Duet defaults (robust:..., duet-bayes:...) as the spymaster's
    and 'the variant's own' as the guesser's, while `simulate codenames` plays margin:use-m3 /
    nearest:use-m3 in every variant unless told otherwise: the help names what a run plays."""
    import typer

    from experiments.cli import app

    command = typer.main.get_command(app).commands["simulate"]
    helps = {p.name: " ".join((getattr(p, "help", None) or "").split()) for p in command.params}
    run = CodenamesRun(games=1)
    assert f"{run.spymaster} (Codenames)" in helps["spymaster"]
    assert f"{run.guesser} (Codenames)" in helps["guesser"]
    assert "variant's own" not in helps["guesser"]


def test_a_game_of_unlimited_clues_has_no_clue_number_to_average():  # RULES 1.7
    """An UNLIMITED clue has no number (the guessers are not told how many). A game whose clues were
    all UNLIMITED had 'mean_clue_number' 0.0 in its row, as if its clues had been 0s, and since its
    'clues' count is not 0 the run's mean took that 0.0 in: one such game beside a game of 2s gave
    a mean clue number of 1.0. Its row now has none (null), and the run's mean is over the games
    that gave a number."""
    from engine import Clue, Guess
    from engine.actions import UNLIMITED
    from experiments.games.codenames.batch import game_row, summarize

    def game(number):
        record = deal_record(3, variant="two_player")
        team = record.key.starts
        own = [w for w, c in zip(record.words, record.key.letters) if c == team[0].upper()]
        record.actions = [Clue(f"{team}-spymaster", "zebra", number), Guess(f"{team}-guesser", own[0])]
        return record

    unlimited, two = game_row(0, game(UNLIMITED)), game_row(1, game(2))
    assert (unlimited["clues"], unlimited["mean_clue_number"]) == (1, None)
    assert (two["clues"], two["mean_clue_number"]) == (1, 2.0)
    run = CodenamesRun(games=2, variant="two_player", **RANDOM)
    assert summarize([unlimited, two], run)["mean_clue_number"] == 2.0
    assert summarize([unlimited], run)["mean_clue_number"] is None
    zero = game_row(2, game(0))
    assert zero["mean_clue_number"] == 0.0 and summarize([zero, two], run)["mean_clue_number"] == 1.0


def test_games_parquet_types_its_columns_alike_in_every_variant(tmp_path):
    """A column one variant leaves empty (the competition score two_player's, the score single_team's)
    was an untyped null column in that run's games.parquet and an integer one in the other's: every
    run's file now has the same types."""
    import pyarrow.parquet as pq

    types = {}
    for variant in ("single_team", "two_player"):
        simulate_codenames(CodenamesRun(games=2, seed=1, variant=variant, **RANDOM), out=tmp_path / variant,
                           progress=False)
        types[variant] = {f.name: str(f.type) for f in pq.read_schema(tmp_path / variant / "games.parquet")}
    assert types["single_team"] == types["two_player"]
    assert types["single_team"]["score"] == types["single_team"]["competition_score"] == "double"
