"""A third party's agents, named by import path wherever a spec goes (docs/agents.md, "Your own
agent"): whatever their own code does is the agent's error, one line naming it, exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from experiments.cli import app

TOY = "tests.contract.toy_agents"


@pytest.mark.parametrize("game,role,cls", [
    ("duet", "spymaster", "ExitingSpymaster"), ("duet", "guesser", "ExitingGuesser"),
    ("codenames", "spymaster", "ExitingSpymaster"), ("codenames", "guesser", "ExitingGuesser"),
    ("spyword", "bot", "ExitingSpyWordBot")])
def test_an_agent_that_calls_sys_exit_is_named_in_one_line(tmp_path, game, role, cls):
    """SystemExit raised by an agent's own code (sys.exit, exit()) is not an Exception, so `ask` let it
    through: `cnlab simulate` ended at once with the agent's exit code (3) and said nothing. It is the
    agent's error like any other it raises: one line naming the agent and the call, exit 2."""
    if role == "bot":
        agents = ["--bot", f"{TOY}:{cls}", "--players", "4"]
    else:
        other = "guesser" if role == "spymaster" else "spymaster"
        agents = [f"--{role}", f"{TOY}:{cls}", f"--{other}", "random"]
    result = CliRunner().invoke(app, ["simulate", game, "--games", "1", *agents, "--no-progress",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"{TOY}:{cls}" in lines[0] and "raised SystemExit in" in lines[0], lines


@pytest.mark.parametrize("game,first", [("duet", ["--first", "bot"]), ("codenames", ["--role", "guesser"]),
                                        ("pictures", ["--role", "guesser"])])
def test_cnlab_play_keeps_the_game_of_a_bot_that_calls_sys_exit(tmp_path, monkeypatch, game, first):
    """`cnlab play` keeps the game so far when a bot breaks its contract ('bot error: ...' in the record,
    exit 1); a bot spymaster calling sys.exit(3) escaped that (SystemExit is no Exception): the command
    ended with the bot's code 3, the person was told nothing and the record did not say how it ended."""
    import json

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", game, "--lang", "en", "--partner", f"{TOY}:ExitingSpymaster",
                                      "--partner-guesser", "random", *first, "--seed", "1", "--record", str(path)],
                                input="quit\n")
    assert result.exit_code == 1, result.output[-500:]
    ended = json.loads(path.read_text())["play"]["ended"]
    assert ended.startswith("bot error: SystemExit"), ended


@pytest.mark.parametrize("game,option,spec,why", [
    ("duet", "--spymaster", f"{TOY}:BrokenConstructorSpymaster", "building it raised RuntimeError: no model file here"),
    ("codenames", "--guesser", f"{TOY}:ExitingConstructorGuesser", "building it raised SystemExit: 5"),
    ("spyword", "--bot", f"{TOY}:BrokenConstructorSpyWordBot", "building it raised OSError: no such pack"),
    ("duet", "--guesser", "tests.contract.toy_exits_on_import:Guesser", "failed (SystemExit: 4)")])
def test_a_third_party_agent_that_cannot_be_built_is_one_line_naming_it(tmp_path, game, option, spec, why):
    """A class named by import path whose module calls sys.exit as it loads, or whose constructor raises
    anything but ValueError/TypeError (RuntimeError, OSError, SystemExit), ended `cnlab simulate` in a
    traceback (exit 1) or silently with the agent's own exit code. Like a missing module or class, it is
    one line naming the spec and what failed, exit 2, before any game."""
    result = CliRunner().invoke(app, ["simulate", game, "--games", "1", option, spec, "--no-progress",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output[-800:]
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and spec in lines[0] and why in lines[0], lines


@pytest.mark.parametrize("game", ["duet", "codenames"])
def test_an_agent_whose_prepare_raises_is_named_in_one_line(tmp_path, game):
    """`prepare()` (agents.base.Agent: load what every game needs, before workers fork) was called bare:
    a third-party agent whose prepare raised ended `cnlab simulate` in a traceback (exit 1), where a
    raise in give_clue / next_guess / begin_game is one line naming the agent. Now prepare is too."""
    spec = f"{TOY}:BrokenPrepareGuesser"
    result = CliRunner().invoke(app, ["simulate", game, "--games", "1", "--spymaster", "random", "--guesser", spec,
                                      "--no-progress", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output[-800:]
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"{spec} raised RuntimeError in prepare: the index did not load" in lines[0], lines


@pytest.mark.parametrize("name,target", [
    (" pad ", "agents.baselines:RandomSpymaster"),    # a spec is stripped: ' pad ' was never reached
    ("a,b", "agents.baselines:RandomSpymaster"),      # a tournament's list splits it into 'a' and 'b'
    ("one card", "agents.baselines:RandomSpymaster"),
    ("", "agents.baselines:RandomSpymaster"),
    (5, "agents.baselines:RandomSpymaster"),          # TypeError: argument of type 'int' is not iterable
    ("x", "a:b:c"),                                   # failed only when used: 'too many values to unpack'
    ("x", ":Cls"), ("x", "agents.baselines:"), ("x", "agents..baselines:Cls"), ("x", 5)])
def test_register_agent_refuses_a_name_or_target_no_spec_can_use(monkeypatch, name, target):
    """docs/agents.md: `register_agent(role, name, "module:Class")` gives a third party's class a short
    name. A name no spec reaches (spaces around it, a ',' of a tournament's list) or a target that is no
    'module:Class' was registered all the same and failed, if at all, only when named, in words that
    did not say why. It is refused where it is registered, in one line, and nothing is registered."""
    from agents import registry

    monkeypatch.setattr(registry, "_REGISTRY", {role: dict(table) for role, table in registry._REGISTRY.items()})
    before = {role: dict(table) for role, table in registry._REGISTRY.items()}
    with pytest.raises(ValueError, match="agent name|agent target") as info:
        registry.register_agent("spymaster", name, target)
    assert "\n" not in str(info.value) and registry._REGISTRY == before


def test_register_agent_gives_a_third_party_class_a_short_name(monkeypatch):
    from agents import registry

    monkeypatch.setattr(registry, "_REGISTRY", {role: dict(table) for role, table in registry._REGISTRY.items()})
    registry.register_agent("spymaster", "exiting", f"{TOY}:ExitingSpymaster")
    registry.register_agent("guesser", "one-card_2", f"{TOY}:ExitingGuesser")
    assert registry.agent_class("exiting", "spymaster").__name__ == "ExitingSpymaster"
    assert registry.agent_class("one-card_2", "guesser").__name__ == "ExitingGuesser"


def test_clue_targets_given_as_a_set_are_recorded_in_one_order_whatever_the_hash_seed():
    """A spymaster may give ClueDecision(targets=...) any collection of board words; a set's order is
    the process's string hash seed's, so the record's intents (records.jsonl) held the same clue's
    targets in another order in each run of the same seed: the same game, other bytes. A set's
    targets are recorded sorted."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("from agents.base import ClueDecision; "
            "print(ClueDecision('animal', 3, targets={'dog', 'cat', 'horse', 'owl', 'bee'}).intent(0)['targets'])")
    root = str(Path(__file__).resolve().parents[2])
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                           env={"PYTHONHASHSEED": str(h), "PYTHONPATH": root}).stdout for h in range(6)}
    assert seen == {"['bee', 'cat', 'dog', 'horse', 'owl']\n"}, seen


@pytest.mark.parametrize("belief,shown", [("nan", "nan"), ("inf", "inf"), ("word", "'high'"), ("huge", "1000")])
def test_a_spyword_bot_whose_belief_is_no_finite_number_is_named_in_one_line(tmp_path, belief, shown):
    """A Spy's Word bot's `belief_history` (docs/spyword_bots.md: P(I hold the minority word)) is averaged
    into each game's row. A trusted bot's NaN or Infinity went into games.jsonl as NaN / Infinity (no
    JSON a strict reader takes) and summary.json; a text ended the run in a numpy traceback (exit 1). An
    isolated bot's is refused already; in one process it is the bot's error, one line, exit 2."""
    spec = f"{TOY}:BadBeliefSpyWordBot?belief={belief}"
    result = CliRunner().invoke(app, ["simulate", "spyword", "--games", "1", "--players", "5", "--bot", spec,
                                      "--no-progress", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output[-800:]
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "gave a belief that is no finite number: " + shown in lines[0], lines


@pytest.mark.parametrize("game,first", [("duet", ["--first", "bot"]), ("codenames", ["--role", "guesser"])])
def test_cnlab_play_referees_a_bot_partners_clue_like_a_persons(tmp_path, monkeypatch, game, first):
    """RULES 4.3: a visible code word may not be the clue. `cnlab play` judged the person's clues by the
    clue filter but played the bot partner's as given (the game is dealt 'allow'; simulate and the web
    referee bots' clues): a third-party spymaster clueing a card on the board had it played against the
    person. It is the bot's error now, naming the rule, and nothing is played."""
    import json

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", game, "--lang", "en", "--partner", f"{TOY}:BoardWordSpymaster",
                                      "--partner-guesser", "random", *first, "--seed", "1", "--record", str(path)],
                                input="quit\n")
    assert result.exit_code == 1, result.output[-500:]
    saved = json.loads(path.read_text())
    assert saved["play"]["ended"].startswith("bot error") and "RULES 4.3" in saved["play"]["ended"], saved["play"]
    assert not any("clue" in a for a in saved["actions"]), saved["actions"]


def test_crossplay_names_a_failing_agent_without_pointing_at_an_option_it_lacks(tmp_path):
    """The one line for an agent that fails said "with --isolate an agent that fails forfeits its game
    instead" after every command, crossplay too, which has no --isolate (it is refused there)."""
    result = CliRunner().invoke(app, ["crossplay", "--spymasters", f"{TOY}:ExitingSpymaster", "--panel", "fake",
                                      "--no-leave-one-out", "--noise", "none", "--no-human", "--games", "1",
                                      "--no-progress", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"{TOY}:ExitingSpymaster" in lines[0] and "--isolate" not in lines[0], lines
    simulate = CliRunner().invoke(app, ["simulate", "duet", "--games", "1", "--spymaster", f"{TOY}:ExitingSpymaster",
                                        "--guesser", "random", "--no-progress", "--out", str(tmp_path / "sim")])
    assert simulate.exit_code == 2 and "with --isolate" in simulate.output   # simulate has it: said there
