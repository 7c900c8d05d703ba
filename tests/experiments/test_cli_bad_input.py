"""Bad input to any command is one line on stderr and exit 2, never a traceback, and nothing is
written; the limits it is refused at (games, workers, seeds, folds, pauses) are named constants."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from experiments.cli import MAX_CV_FOLDS, app
from experiments.runs.execute import MAX_GAMES, MAX_WORKERS, MissingGames

RANDOM = ["--spymaster", "random", "--guesser", "random", "--no-progress"]
PLAY = ["play", "duet", "--partner", "random", "--partner-guesser", "random", "--first", "me"]
BIG_SEED = str(10**29)


def one_line_exit_2(args, message, cwd=None):
    """Run the command; it must refuse with exit 2 and one `error: ...` line naming `message`."""
    runner = CliRunner()
    if cwd is not None:
        old = os.getcwd()
        os.chdir(cwd)
    try:
        result = runner.invoke(app, args)
    finally:
        if cwd is not None:
            os.chdir(old)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0], lines[0]
    assert "Traceback" not in result.output and not result.stdout.strip()
    return lines[0]


@pytest.fixture
def deep(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    return path


# 1. check-clue --cases
def test_check_clue_cases_nested_too_deeply(deep):
    one_line_exit_2(["check-clue", "--cases", str(deep)], "nested too deeply")


def test_check_clue_cases_not_utf8(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_bytes(b'{"clue": "river"}\n{"clue": "\xff"}\n')
    line = one_line_exit_2(["check-clue", "--cases", str(path)], "not UTF-8")
    assert "cases.jsonl:2" in line


# 2. --missions-file
@pytest.mark.parametrize("command", [["deal", "duet"], ["simulate", "duet", "--games", "1", *RANDOM], PLAY])
def test_a_missions_file_nested_too_deeply(tmp_path, deep, command):
    one_line_exit_2([*command, "--missions-file", str(deep), "--mission", "cairo"], "nested too deeply", cwd=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.json"]  # no record, no run folder


@pytest.mark.parametrize("what", ["missing", "folder", "not json", "wrong shape"])
def test_a_missions_file_that_is_no_map_is_refused(tmp_path, what):
    path = tmp_path / "map.json"
    if what == "folder":
        path.mkdir()
    elif what == "not json":
        path.write_text("{")
    elif what == "wrong shape":
        path.write_text('{"missions": [1], "start": "a"}')
    one_line_exit_2(["deal", "duet", "--missions-file", str(path), "--mission", "a"], "mission map")


@pytest.mark.parametrize("edit, says", [
    (lambda m: m["missions"][0].update(timer_tokens="9"), "whole number"),    # RULES 3.10: counts of tokens
    (lambda m: m["missions"][0].update(timer_tokens=9.5), "whole number"),
    (lambda m: m["missions"][0].update(mistakes=True), "whole number"),
    (lambda m: m["missions"].append(dict(m["missions"][0])), "given twice"),
])
def test_a_mission_map_with_loose_counts_or_twin_missions_is_refused(tmp_path, edit, says):
    from engine.paths import data_path

    missions = json.loads(data_path("duet", "missions.json").read_text(encoding="utf-8"))
    edit(missions)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(missions), encoding="utf-8")
    one_line_exit_2(["deal", "duet", "--missions-file", str(path), "--mission", "prague"], says)
    path.write_text(json.dumps(missions["missions"]), encoding="utf-8")   # a list, not a map
    one_line_exit_2(["deal", "duet", "--missions-file", str(path), "--mission", "prague"], "a JSON object")


@pytest.mark.parametrize("command", [["deal", "duet"], ["simulate", "duet", "--games", "1", *RANDOM], PLAY])
def test_a_missions_file_without_a_mission_is_refused(tmp_path, command):
    one_line_exit_2([*command, "--missions-file", str(tmp_path / "nope.json")], "--missions-file needs --mission",
                    cwd=tmp_path)


# 3. play --record
@pytest.mark.parametrize("record", ["", "FOLDER", "newdir/", "x\udcff.json", "FIFO"])
def test_play_record_must_be_a_file_name(tmp_path, record):
    if record == "FIFO":   # not a file (as /dev/null): its STEM-2 would be made beside it
        fifo = tmp_path.parent / f"{tmp_path.name}.fifo"
        os.mkfifo(fifo)
        record = str(fifo)
    record = str(tmp_path) if record == "FOLDER" else record
    one_line_exit_2([*PLAY, "--record", record], "--record", cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert not (tmp_path.parent / f"{tmp_path.name}-2").exists()



@pytest.mark.parametrize("game", ["duet", "codenames", "pictures"])
@pytest.mark.parametrize("record", ["x\nb.json", "a\tb.json", "\x1b[31mred.json", "new\r/game.json", " ", "  \t"])
def test_play_record_with_a_control_character_or_a_blank_name_is_refused(tmp_path, game, record):
    """The screen shows the record's path at the start, after every game and in 'cnlab replay PATH': a
    name with a newline or an escape code (x\\nb.json) was saved to, and shown as two lines or as a
    colour; a blank name ' ' made the file ' ' and 'Replay it with: cnlab replay  '. Now refused before
    the game, one line (the name escaped), exit 2, nothing written."""
    args = ["play", game, "--partner", "random", "--partner-guesser", "random", "--seed", "3",
            *(["--first", "me"] if game == "duet" else ["--role", "guesser"])]
    line = one_line_exit_2([*args, "--record", record], "--record", cwd=tmp_path)
    assert line.isprintable()
    assert list(tmp_path.iterdir()) == []

# 4. serve, play --pause
@pytest.mark.parametrize("args, message", [
    (["--games-dir", "FILE"], "is a file"),
    (["--games-dir", "FILE/sub"], "cannot create --games-dir"),
    (["--host", ""], "--host is empty"),
    (["--host", "no such host!"], "--host 'no such host!'"),
    (["--bot-delay", "nan"], "--bot-delay must be"),
    (["--bot-delay", "inf"], "--bot-delay must be"),
    (["--bot-delay", "-1"], "--bot-delay must be"),
    (["--bot-timeout", "0"], "--bot-timeout must be a positive number"),
    (["--bot-timeout", "-5"], "--bot-timeout must be a positive number"),
    (["--bot-timeout", "nan"], "--bot-timeout must be a positive number"),
    (["--bot-timeout", "inf"], "--bot-timeout must be a positive number"),
])
def test_serve_checks_its_options_before_starting(tmp_path, args, message):
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    (tmp_path / "FILE").write_text("x")
    args = [str(tmp_path / a) if a.startswith("FILE") else a for a in args]
    import socket

    with socket.socket() as free:  # a port nobody listens on, open to any user (the host check binds it)
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    one_line_exit_2(["serve", "--port", port, *args], message, cwd=tmp_path)


@pytest.mark.parametrize("args, message", [
    (["serve", "--port", "PORT", "--games-dir", ""], "--games-dir is empty"),
    (["eval-human", "--data", ""], "--data is empty"),
])
def test_an_empty_folder_option_is_refused_not_taken_for_the_current_folder(tmp_path, monkeypatch, args, message):
    """`--games-dir ""` (an unset shell variable) was Path(""), the current folder: the server saved
    every game there; `--data ""` read the current folder. Refused as `--out ""` is."""
    if args[0] == "serve":
        uvicorn = pytest.importorskip("uvicorn")
        pytest.importorskip("fastapi")
        monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the server started"))
        import socket

        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            args = [str(free.getsockname()[1]) if a == "PORT" else a for a in args]
    one_line_exit_2(args, message, cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, message", [
    (["simulate", "duet", "--games", "1", *RANDOM, "--seat-b-spymaster", ""], "an agent spec is"),
    (["simulate", "duet", "--games", "1", *RANDOM, "--seat-b-guesser", ""], "an agent spec is"),
    (["play", "duet", "--partner", "", "--partner-guesser", "random", "--first", "me"], "an agent spec is"),
    (["play", "duet", "--partner", "random", "--partner-guesser", "", "--first", "me"], "an agent spec is"),
    (["simulate", "spyword", "--games", "1", "--bot", "spyword-random", "--no-progress", "--weaken", ""],
     "--weaken must be citizens or infiltrators"),
    (["deal", "codenames", "--variant", ""], "config.variant of codenames must be one of"),
])
def test_an_option_given_empty_is_refused_not_read_as_its_default(tmp_path, args, message):
    """An empty value is a bad value, as `--spymaster ""`, `--mission ""` or `simulate --variant ""`
    are: seat B's empty spec played seat A's agents, `play --partner ""` the default partner,
    `--weaken ""` an unweakened run and `deal codenames --variant ""` the teams variant."""
    one_line_exit_2(args, message, cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []



def test_a_variant_of_another_game_is_refused_naming_this_games_variants(tmp_path):  # RULES 2.3
    """The refusal of a variant no Codenames game has listed every game's variants, the Pictures-only
    assassin_ending (RULES 2.3) among Codenames' own; now it names the game and its own variants."""
    one_line_exit_2(["deal", "codenames", "--variant", "nope"],
                    "config.variant of codenames must be one of 'teams', 'two_player', 'three_player', "
                    "'single_team', not 'nope'", cwd=tmp_path)
    one_line_exit_2(["deal", "codenames", "--variant", "assassin_ending"], "not 'assassin_ending'", cwd=tmp_path)

def test_a_seed_secret_that_is_not_utf8_is_a_secret_like_any_other(tmp_path, monkeypatch):
    """CNLAB_SEED_SECRET is any text, its bytes as the environment holds them: bytes that are not UTF-8
    made `cnlab simulate` fail with a line naming no input ("'utf-8' codec can't encode ...") and
    `cnlab play` with a traceback. Now they play, dealt from the secret's bytes."""
    from experiments.runs.seeds import SECRET_ENV, deal_seed, run_secret

    monkeypatch.setenv(SECRET_ENV, "a\udcff")   # the environment's b"a\xff"
    assert run_secret() == b"a\xff" and deal_seed(0, 0) != deal_seed(0, 0, secret=b"a")
    result = CliRunner().invoke(app, ["simulate", "duet", "--games", "2", *RANDOM, "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, [*PLAY, "--seed", "3", "--record", str(tmp_path / "game.json")], input="")
    assert result.exit_code == 0 and (tmp_path / "game.json").exists(), result.output


@pytest.mark.parametrize("pause", ["nan", "1e12", "-1", "inf"])
def test_play_pause_is_a_sane_number_of_seconds(tmp_path, pause):
    one_line_exit_2([*PLAY, "--pause", pause], "--pause must be 0..60", cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []


# 5. counts
@pytest.mark.parametrize("command, option", [
    (["simulate", "duet", *RANDOM], "--games"),
    (["tournament", "--spymasters", "random", "--guessers", "random", "--no-progress"], "--games"),
    (["crossplay", "--spymasters", "random", "--panel", "a,b", "--no-human", "--no-progress"], "--games"),
    (["deal", "duet"], "--count"),
])
def test_counts_above_the_bound_are_refused(tmp_path, command, option):
    one_line_exit_2([*command, option, str(MAX_GAMES + 1), *(["--out", str(tmp_path / "o")] if command[0] != "deal" else [])],
                    f"{option} must be at most {MAX_GAMES:,}")
    assert not (tmp_path / "o").exists()


def test_deal_prints_records_as_it_deals_them():
    result = CliRunner().invoke(app, ["deal", "duet", "--count", "3", "--seed", "5"])
    assert result.exit_code == 0
    assert [json.loads(line)["seed"] for line in result.stdout.splitlines()] == [5, 6, 7]


def test_the_games_still_to_play_are_not_built_as_a_list():
    todo = MissingGames(MAX_GAMES, {0, 2, 5})
    assert len(todo) == MAX_GAMES - 3 and todo[0] == 1 and todo[1] == 3 and todo[2] == 4 and todo[3] == 6
    assert todo[-1] == MAX_GAMES - 1 and todo[1:4] == [3, 4, 6]
    assert list(MissingGames(7, {0, 2, 6, 9})) == [1, 3, 4, 5]
    assert not MissingGames(2, {0, 1})


# 6. workers
@pytest.mark.parametrize("workers", ["0", "-3", str(MAX_WORKERS + 1)])
def test_workers_out_of_range_are_refused(tmp_path, workers):
    one_line_exit_2(["simulate", "duet", "--games", "2", "--workers", workers, *RANDOM, "--out", str(tmp_path / "o")],
                    "--workers must be")
    assert not (tmp_path / "o").exists()


def test_more_workers_than_games_play_the_same_games(tmp_path):
    for name, workers in (("one", "1"), ("many", str(MAX_WORKERS))):
        result = CliRunner().invoke(app, ["simulate", "duet", "--games", "2", "--seed", "1", "--workers", workers,
                                          *RANDOM, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    for file in ("games.jsonl", "records.jsonl"):
        assert (tmp_path / "one" / file).read_bytes() == (tmp_path / "many" / file).read_bytes()


# 7. eval-human --cv
@pytest.mark.parametrize("cv", ["1", "0", str(MAX_CV_FOLDS + 1), "10000"])
def test_eval_human_cv_is_a_small_number_of_folds(tmp_path, cv):
    one_line_exit_2(["eval-human", "--data", str(tmp_path), "--cv", cv], f"--cv must be 2..{MAX_CV_FOLDS}")


# 8. seeds
@pytest.mark.parametrize("args, message", [
    (["deal", "duet", "--seed", BIG_SEED], "--seed must be at most 2**64-1"),
    (["deal", "duet", "--seed", str(2**64 - 1), "--count", "2"], "would pass 2**64-1"),
    (["simulate", "duet", "--games", "1", *RANDOM, "--seed", BIG_SEED], "--seed must be at most 2**64-1"),
    (["tournament", "--spymasters", "random", "--guessers", "random", "--seed", BIG_SEED], "--seed must be at most"),
    ([*PLAY, "--seed", BIG_SEED], "--seed must be at most 2**64-1"),
])
def test_seeds_a_record_cannot_hold_are_refused(tmp_path, args, message):
    one_line_exit_2(args, message, cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_largest_seed_is_dealt_and_replays(tmp_path):
    result = CliRunner().invoke(app, ["deal", "duet", "--seed", str(2**64 - 1)])
    assert result.exit_code == 0
    (tmp_path / "r.json").write_text(result.stdout)
    assert CliRunner().invoke(app, ["replay", str(tmp_path / "r.json")]).exit_code == 0


# 9. tokens
@pytest.mark.parametrize("command", [
    ["deal", "duet"], ["simulate", "duet", "--games", "1", *RANDOM], PLAY,
    ["tournament", "--spymasters", "random", "--guessers", "random", "--games", "1", "--no-progress"],
])
@pytest.mark.parametrize("tokens", ["0", "5", "12"])
def test_tokens_are_9_10_or_11(tmp_path, command, tokens):
    one_line_exit_2([*command, "--tokens", tokens], "--tokens must be 9, 10 or 11", cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_tokens_0_is_no_duet_option_in_codenames(tmp_path):
    one_line_exit_2(["play", "codenames", "--tokens", "0"], "are Duet options", cwd=tmp_path)


@pytest.mark.parametrize("tokens", [9, 10, 11])
def test_the_tokens_the_help_names_are_dealt(tokens):
    result = CliRunner().invoke(app, ["deal", "duet", "--tokens", str(tokens)])
    assert result.exit_code == 0 and json.loads(result.stdout)["config"]["timer_tokens"] == tokens


# 10. --out
@pytest.mark.parametrize("out, message", [("", "--out is empty"), ("o\udcff", "is not a UTF-8 path")])
def test_out_must_be_a_utf8_folder_name(tmp_path, out, message):
    one_line_exit_2(["simulate", "duet", "--games", "1", *RANDOM, "--out", out], message, cwd=tmp_path)
    assert list(tmp_path.iterdir()) == []


# 11. a folder of something else
def test_a_foreign_folder_is_not_a_results_folder(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "summary.json").write_text('{"mine": true}')
    one_line_exit_2(["simulate", "duet", "--games", "1", *RANDOM, "--out", str(folder)], "is not a results folder")
    assert sorted(p.name for p in folder.iterdir()) == ["summary.json"]  # not even a lock file
    assert (folder / "summary.json").read_text() == '{"mine": true}'


def test_a_results_folder_still_resumes_and_a_new_empty_one_is_used(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / ".lock").write_text("")  # what a run killed before its run.json leaves
    for games in ("1", "2", "2"):
        result = CliRunner().invoke(app, ["simulate", "duet", "--games", games, *RANDOM, "--out", str(folder)])
        assert result.exit_code == 0, result.output
    assert len((folder / "games.jsonl").read_text().splitlines()) == 2


# 14. what the parser itself refuses: an unknown command or option, a value it cannot read
@pytest.mark.parametrize("args, message", [
    (["simulate", "duet", "--seed", "1e29", "--games", "1"], " simulate: Invalid value for '--seed'"),
    (["deal", "duet", "--count", "three"], " deal: Invalid value for '--count'"),
    (["simulate", "duet", "--no-such-option"], "No such option: --no-such-option"),
    (["no-such-command"], "No such command 'no-such-command'"),
    (["replay"], " replay: Missing argument"),
    (["eval-human", "--cv", "many"], " eval-human: Invalid value for '--cv'"),
])
def test_what_the_parser_refuses_is_one_line(args, message):
    line = one_line_exit_2(args, message)
    assert line.startswith("error: ") and "--help" in line


def test_the_command_alone_still_prints_its_help_once():
    result = CliRunner().invoke(app, [])
    assert result.exit_code == 2
    assert result.output.count("Usage: ") == 1 and "simulate" in result.output


@pytest.mark.parametrize("args", [
    ["simulate", "duet", "--lang", "ko", "--games", "2", "--guesser", "nearest:glove-50", "--no-progress"],
    ["simulate", "codenames", "--lang", "ko", "--games", "2", "--spymaster", "robust:use-m3+minilm", "--no-progress"],
    ["simulate", "spyword", "--lang", "ko", "--games", "2", "--bot", "spyword:glove-50", "--no-progress"],
    ["tournament", "--lang", "ko", "--games", "2", "--spymasters", "robust:mpnet", "--guessers", "random", "--no-progress"],
    ["play", "duet", "--lang", "ko", "--partner", "robust:glove-50", "--seed", "1"],
    # `human` names no backend: it reads use-m3+glove-50+minilm by default (English only)
    ["play", "duet", "--lang", "ko", "--partner-guesser", "human", "--seed", "1"],
    ["play", "codenames", "--lang", "ko", "--partner-guesser", "human", "--seed", "1"],
    ["simulate", "duet", "--lang", "ko", "--games", "2", "--guesser", "human", "--no-progress"],
])
def test_a_backend_that_cannot_read_the_boards_language_is_refused_before_play(tmp_path, args):
    """An English-only model on a Korean board reads every card as a stranger (0% wins, or a bot
    error mid-game): refused before any model loads, as crossplay does."""
    line = one_line_exit_2(args, "does not cover language 'ko'", cwd=tmp_path)
    assert not any(tmp_path.iterdir())
    # the line names the spec it refuses (a run names a spymaster and a guesser, each perhaps on glove-50)
    spec = next(a for a in args if ":" in a or a == "human")
    assert f"{spec!r}" in line, line


@pytest.mark.parametrize("args", [
    ["simulate", "duet", "--games", "1", "--spymaster", "random", "--guesser", "GUESSER", "--out", "runs/x"],
    ["simulate", "codenames", "--games", "1", "--spymaster", "random", "--guesser", "GUESSER", "--out", "runs/x"],
    ["tournament", "--games", "1", "--spymasters", "random", "--guessers", "random,GUESSER", "--out", "runs/x"],
    ["crossplay", "--games", "1", "--spymasters", "random", "--panel", "fake", "--no-leave-one-out", "--noise", "none",
     "--human-spec", "GUESSER", "--out", "runs/x"],
], ids=["simulate-duet", "simulate-codenames", "tournament", "crossplay"])
def test_an_agent_whose_model_file_cannot_serve_is_refused_before_the_folder_is_made(tmp_path, args):
    """A spec whose parameters are fine but whose model file has no fit for it (`human:fake`) was refused
    only once the agent was built, after the run had claimed its folder: a rerun with a mended spec on
    the same --out was then refused as another experiment's. Now nothing is written, and it runs."""
    bad = [a.replace("GUESSER", "human:fake") for a in args] + ["--no-progress"]
    one_line_exit_2(bad, "no fitted model for backends fake", cwd=tmp_path)
    assert not any(tmp_path.iterdir())
    mended = [a.replace("GUESSER", "human:fake?model=nearest") for a in args] + ["--no-progress"]
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(app, mended)
    finally:
        os.chdir(old)
    assert result.exit_code == 0, (result.output, result.exception)


# the output, not the input: a full disk is one line; a reader that has gone ends the command quietly
def _cnlab() -> str:
    import sys
    from pathlib import Path

    return str(Path(sys.executable).parent / "cnlab")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["deal", "duet", "--count", "3"], ["replay", "RECORDS"],
                                  ["check-clue", "--board", "snow", "ice"]])
def test_a_full_output_is_one_line_that_blames_the_output(tmp_path, args):
    import subprocess

    records = tmp_path / "records.jsonl"
    records.write_text(subprocess.run([_cnlab(), "deal", "duet", "--count", "5"], capture_output=True, text=True,
                                      check=True).stdout)
    args = [str(records) if a == "RECORDS" else a for a in args]
    with open("/dev/full", "w") as full:
        proc = subprocess.run([_cnlab(), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "error: cannot write the output: No space left on device"], proc.stderr


def test_a_reader_that_stops_early_ends_replay_quietly(tmp_path):
    import subprocess

    records = tmp_path / "records.jsonl"
    records.write_text(subprocess.run([_cnlab(), "deal", "duet", "--count", "3000"], capture_output=True,
                                      text=True, check=True).stdout)
    proc = subprocess.Popen([_cnlab(), "replay", str(records)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()                      # `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == "" and first.startswith(b"{")


def test_a_trusted_bot_that_stalls_a_game_is_one_line_and_the_run_resumes(tmp_path, monkeypatch):
    """A trusted Spy's Word bot (no --isolate) that keeps a game going: the loop's action limit was a
    RuntimeError traceback. Now one line naming the bot, exit 2, the games before it kept: its first
    Disconnect is refused (the room's move, not a bot's), as an isolated bot's is."""
    from experiments.runs.seeds import SECRET_ENV
    from tests.agents.hostile_agent import spyword_run_singling_out

    monkeypatch.delenv(SECRET_ENV, raising=False)
    seed, first = spyword_run_singling_out(2)
    bot = f"tests.agents.hostile_agent:StallingBot+fake?vocab=300&first={first}"
    args = ["simulate", "spyword", "--games", "3", "--seed", str(seed), "--bot", bot, "--no-progress",
            "--out", str(tmp_path / "run")]
    line = one_line_exit_2(args, "(p2) made no move of its own: Disconnect is not a bot's move")
    assert "StallingBot" in line and "--isolate" in line
    games = (tmp_path / "run" / "games.jsonl").read_text().splitlines()
    assert [json.loads(g)["game_index"] for g in games] == [0, 1]


@pytest.mark.parametrize("args", [
    ["simulate", "duet", "--games", "1", "--spymaster", "random", "--guesser", "GUESSER", "--out", "runs/x"],
    ["simulate", "codenames", "--games", "1", "--spymaster", "random", "--guesser", "GUESSER", "--out", "runs/x"],
    ["tournament", "--games", "1", "--spymasters", "random", "--guessers", "random,GUESSER", "--out", "runs/x"],
    ["simulate", "spyword", "--games", "1", "--bot", "SPYWORD", "--out", "runs/x"],
], ids=["simulate-duet", "simulate-codenames", "tournament", "simulate-spyword"])
@pytest.mark.parametrize("backend, message", [
    ("nosuchmodel", "unknown embedding backend 'nosuchmodel'"),
    ("/dev/null", "neither a vectors file nor a sentence-transformers folder"),
    ("EMPTY", "is empty"),
    ("FOLDER", "holds no sentence-transformers model"),
    ("LLM", "unknown llm backend 'nosuch'"),
])
def test_an_unknown_model_or_backend_is_refused_before_the_folder_is_made(tmp_path, args, backend, message):
    """`duet-bayes:nosuchmodel`, a model path that is /dev/null, an empty file or a folder without a
    model, `llm:nosuch`: refused only as the agent was built, after the run had claimed its folder, so
    the rerun with a mended spec on the same --out was refused as another run's. Now nothing is written."""
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "folder").mkdir()
    path = {"EMPTY": str(tmp_path / "empty.txt"), "FOLDER": str(tmp_path / "folder")}.get(backend, backend)
    guesser, bot = (("llm:nosuch", "llm:nosuch") if backend == "LLM"
                    else (f"nearest:{path}", f"spyword:{path}"))
    bad = [a.replace("GUESSER", guesser).replace("SPYWORD", bot) for a in args] + ["--no-progress"]
    one_line_exit_2(bad, message, cwd=work)
    assert not any(work.iterdir())


@pytest.mark.parametrize("command", [["simulate", "duet", "--games", "1", *RANDOM],
                                     ["tournament", "--games", "1", "--spymasters", "random", "--guessers", "random",
                                      "--no-progress"]])
@pytest.mark.parametrize("timeout", ["inf", "1e300", "nan", "0", "86401"])
def test_move_timeout_is_a_sane_number_of_seconds(tmp_path, command, timeout):
    """--move-timeout inf (or 1e300) passed the check and overflowed the clock that times a move: a traceback."""
    one_line_exit_2([*command, "--isolate", "--move-timeout", timeout, "--out", str(tmp_path / "o")],
                    "--move-timeout must be a positive number of seconds, at most 86,400")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("noise", ["nan", "0.04,nan", "inf", "-1"])
def test_crossplay_noise_is_a_finite_standard_deviation(tmp_path, noise):
    """--noise nan was dropped unsaid (the run went on as --noise none); inf was refused only as the
    partner's spec, naming a parameter the user never wrote."""
    one_line_exit_2(["crossplay", "--games", "1", "--spymasters", "random", "--panel", "fake", "--no-leave-one-out",
                     "--no-human", "--noise", noise, "--no-progress", "--out", str(tmp_path / "o")],
                    f"--noise values are standard deviations (finite numbers >= 0), not '{noise}'")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args", [["deal", "duet", "--count", "100000"], ["check-clue", "--cases", "CASES"]])
def test_a_reader_that_stops_early_ends_any_command_quietly(tmp_path, args):
    """`cnlab deal duet --count 100000 | head -1`: typer's own main ended a command that prints with
    typer.echo (deal, check-clue, the tables) with exit 1 when the reader went; replay's emit with 0,
    as output_failed says. Every command now ends as replay does: exit 0, nothing on stderr."""
    import subprocess
    import sys

    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"clue": "river", "board": ["snow"]}\n' * 3000)
    args = [str(cases) if a == "CASES" else a for a in args]
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()                      # `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == "" and first.startswith(b"{")


@pytest.mark.parametrize("args", [["--help"], ["simulate", "--help"], ["crossplay", "--help"], ["check-clue", "--help"],
                                  ["--version"], []])
def test_a_reader_gone_before_the_help_ends_it_quietly(args):
    """`cnlab --help | head -1`: rich's help (and click's echo of --version) met the closed pipe while the
    parser wrote, and exited 1. The reader is gone before anything is written here (a pipe whose read
    end is closed), so every write fails: exit 0, nothing on stderr, as for a command's own output."""
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)                           # `| head -1`, gone before the first line
    try:
        proc = subprocess.run([sys.executable, "-m", "experiments.cli", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert proc.returncode == 0 and proc.stderr == "", (proc.returncode, proc.stderr)


@pytest.mark.parametrize("args", [
    ["simulate", "duet", "--games", "1", "--isolate", "--spymaster", "nope", "--no-progress"],
    ["simulate", "duet", "--games", "1", "--isolate", "--backend", "ray", *RANDOM],
    ["simulate", "codenames", "--games", "1", "--isolate", "--guesser", "nope", "--no-progress"],
    ["simulate", "duet", "--games", "1", "--isolate", "--out", "FILE", *RANDOM],
    ["tournament", "--spymasters", "nope", "--guessers", "random", "--games", "1", "--isolate", "--no-progress"],
])
def test_bad_input_with_isolate_is_still_one_line(tmp_path, monkeypatch, args):
    """With --isolate and no seed secret, the note on public seeds was printed before the run's input
    was checked: a bad spec, --backend ray or an --out that is a file gave two lines on stderr. The
    note now comes when isolated play starts, after every check."""
    from experiments.runs.seeds import SECRET_ENV

    monkeypatch.delenv(SECRET_ENV, raising=False)
    (tmp_path / "file").write_text("x")
    args = [str(tmp_path / "file") if a == "FILE" else a for a in args]
    line = one_line_exit_2(args, "")
    assert line.startswith("error: ") and SECRET_ENV not in line


def test_an_isolated_tournament_says_the_seed_note_once(tmp_path, monkeypatch):
    """The note on public seeds now comes as isolated play starts: once for a tournament's pairings."""
    from experiments.runs.seeds import SECRET_ENV

    monkeypatch.delenv(SECRET_ENV, raising=False)
    result = CliRunner().invoke(app, ["tournament", "--spymasters", "random", "--guessers", "random,random?stop=1",
                                      "--games", "1", "--isolate", "--no-progress", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    assert result.stderr.count(f"{SECRET_ENV} is not set") == 1, result.stderr


@pytest.mark.parametrize("command", [["simulate", "duet", "--games", "1", *RANDOM],
                                     ["tournament", "--games", "1", "--spymasters", "random", "--guessers", "random",
                                      "--no-progress"]])
@pytest.mark.parametrize("timeout", ["-5", "5"])
def test_move_timeout_without_isolate_is_refused(tmp_path, command, timeout):
    """--move-timeout without --isolate was ignored, whatever its value (-5 too), and the run played:
    an option that does not apply is refused, not ignored (experiments.games.check_options)."""
    one_line_exit_2([*command, "--move-timeout", timeout, "--out", str(tmp_path / "o")],
                    "--move-timeout applies with --isolate only")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("record", ["FILE/game.json", "FILE/sub/game.json"])
def test_play_record_under_a_file_is_refused_before_the_game(tmp_path, record):
    """--record under a file (not a folder): refused only once the partner had loaded, blaming
    "File exists". Now refused first, as any --record that cannot be a file: one line naming it."""
    (tmp_path / "FILE").write_text("x")
    line = one_line_exit_2([*PLAY, "--record", str(tmp_path / record)], "is a file, not a folder")
    assert str(tmp_path / "FILE") in line
    assert (tmp_path / "FILE").read_text() == "x"


@pytest.mark.parametrize("args", [["river"], ["--board", "snow,ice"], ["--covered", "snow"], ["--number", "3"],
                                  ["--cases", "CASES"]])
def test_check_clue_warm_takes_no_clue_to_judge(tmp_path, monkeypatch, args):
    """`check-clue river --warm` warmed the store for a minute and judged nothing: the clue, board,
    number or cases given with --warm were ignored. Refused instead, before any work."""
    import experiments.clue_cli as clue_cli

    monkeypatch.setattr(clue_cli, "_warm", lambda lang: pytest.fail("warmed"))
    (tmp_path / "cases.jsonl").write_text('{"clue": "river"}\n')
    args = [str(tmp_path / "cases.jsonl") if a == "CASES" else a for a in args]
    one_line_exit_2(["check-clue", "--warm", *args], "--warm")


@pytest.mark.parametrize("args", [["--board", "river,snow"], ["--covered", "snow"], ["--number", "3"]])
def test_check_clue_cases_take_their_board_from_the_file(tmp_path, args):
    """--board, --covered and --number with --cases were ignored (each case's own fields, else an
    empty board, were judged): `--cases f --board river` judged "river" legal. Refused instead."""
    (tmp_path / "cases.jsonl").write_text('{"clue": "river"}\n')
    one_line_exit_2(["check-clue", "--cases", str(tmp_path / "cases.jsonl"), *args], "--cases")


def test_crossplay_human_spec_without_the_human_partner_is_refused(tmp_path):
    """`--no-human --human-spec human:glove-50` ignored the spec and played without it: refused."""
    one_line_exit_2(["crossplay", "--no-human", "--human-spec", "human:glove-50", "--games", "1", "--no-progress",
                     "--out", str(tmp_path / "o")], "--human-spec")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args", [["duet", "--seed", "abc"], ["duet", "--bogus"], ["chess"]])
def test_python_m_experiments_play_refuses_as_cnlab_play_does(args):
    """docs/play.md: `python -m experiments.play duet ...` is the same program as `cnlab play`; its
    parser errors were typer's usage box (several lines), not cnlab's one line."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "experiments.play", *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert not proc.stdout


@pytest.mark.parametrize("what", ["big", "/dev/zero"])
def test_a_missions_file_larger_than_any_map_is_refused_unread(tmp_path, what):
    """--missions-file was read whole: /dev/zero (or any endless stream) filled the memory until the
    process was killed. A mission map is small: more than MAX_MAP_BYTES is refused, read no further."""
    from experiments.games.duet.missions import MAX_MAP_BYTES

    if what == "big":
        path = tmp_path / "map.json"
        path.write_text('{"start": "a", "missions": [], "pad": "' + "x" * MAX_MAP_BYTES + '"}')
    elif not os.path.exists(what):
        pytest.skip("needs /dev/zero")
    else:
        path = what
    one_line_exit_2(["deal", "duet", "--missions-file", str(path), "--mission", "a"], "not a mission map")


def test_check_clue_cases_are_json_lines_split_at_newlines_only(tmp_path):
    """A JSON line may hold U+2028, U+0085 or a form feed inside a string (json.dumps with
    ensure_ascii=False writes them raw): the file was split with str.splitlines, which breaks there,
    so a well-formed case was 'malformed JSON'. JSON lines end at \\n (\\r\\n too). Each case below is
    read whole: its clue judged (4.7: not one word), its board word refused for the character it holds
    (no card shows one), never 'malformed JSON' on a line cut in two."""
    path = tmp_path / "cases.jsonl"
    cases = [{"clue": "ri\u2028ver\x85", "board": ["snow", "ice"]}, {"clue": "ra\x0cin", "board": ["ab"]}]
    path.write_text("\r\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check-clue", "--cases", str(path)])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["rule"] for line in result.stdout.splitlines()] == ["4.7", "4.7"]
    path.write_text(json.dumps({"clue": "river", "board": ["snow\u2028man", "ice"]}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["check-clue", "--cases", str(path)])
    assert result.exit_code == 2 and "cases.jsonl:1: the board word" in result.output and "U+2028" in result.output


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_check_clue_cases_from_an_endless_stream_is_refused(tmp_path):
    """--cases /dev/zero was read whole: the memory filled until the process was killed. Each line
    is read up to a bound; a longer one is refused naming its line."""
    one_line_exit_2(["check-clue", "--cases", "/dev/zero"], "/dev/zero:1: a line of more than")


@pytest.mark.parametrize("args", [["--data", "DATA", "--limit", "x"], ["--data", "DATA", "--cv", "51"], ["--bogus"]])
def test_python_m_eval_human_refuses_as_cnlab_eval_human_does(tmp_path, args):
    """`python -m experiments.evaluation.eval_human` (docs/eval_human.md) ran the command under its own
    typer app: a bad value was typer's multi-line usage box, and cnlab's --cv bound (2..50) was missing."""
    import subprocess
    import sys

    args = [str(tmp_path) if a == "DATA" else a for a in args]
    proc = subprocess.run([sys.executable, "-m", "experiments.evaluation.eval_human", *args], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert not proc.stdout


def test_a_missions_file_with_a_byte_order_mark_is_read(tmp_path):
    """A mission map saved with a UTF-8 byte-order mark (Notepad) was refused as 'not JSON (Unexpected
    UTF-8 BOM)', while replay and check-clue --cases drop the mark: it is read like them."""
    from engine.paths import data_path

    path = tmp_path / "map.json"
    path.write_bytes(b"\xef\xbb\xbf" + data_path("duet", "missions.json").read_bytes())
    plain = CliRunner().invoke(app, ["deal", "duet", "--mission", "cairo", "--seed", "3"])
    result = CliRunner().invoke(app, ["deal", "duet", "--mission", "cairo", "--seed", "3", "--missions-file", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["config"] == json.loads(plain.stdout)["config"]


def test_replay_from_a_closed_stdin_is_one_line():
    """`cnlab replay - <&-`: with standard input closed (sys.stdin None) the reader fell into its
    text-stream branch and raised AttributeError: a traceback. Now one line naming stdin, exit 2."""
    import subprocess
    import sys

    proc = subprocess.run(["sh", "-c", '"$0" -m experiments.cli replay - <&-', sys.executable], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "error: cannot read -: standard input is closed"], proc.stderr


@pytest.mark.parametrize("args", [["deal", "duet", "--count", "3"], ["check-clue", "river"]])
def test_a_closed_stdout_is_one_line_not_output_lost(args):
    """`cnlab deal duet --count 3 >&-`: with standard output closed (sys.stdout None) click's echo
    writes nothing and says nothing: the records were lost and the command exited 0. Now one line."""
    import subprocess
    import sys

    proc = subprocess.run(["sh", "-c", '"$0" -m experiments.cli "$@" >&-', sys.executable, *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "error: cannot write the output: standard output is closed"], proc.stderr


def test_a_closed_stderr_loses_neither_the_run_nor_the_output(tmp_path):
    """`cnlab simulate ... 2>&-` (sys.stderr None): the progress bar raised AttributeError, exit 1 and
    no game played, and the notes ("loading the agents ...") and errors went to standard output, into
    the summary (print's file=None is stdout). Now standard error is /dev/null: the run plays, stdout
    holds only its output, and bad input still exits 2."""
    import subprocess
    import sys

    out = tmp_path / "run"
    run = ["simulate", "duet", "--games", "3", "--spymaster", "random", "--guesser", "random", "--out", str(out)]
    proc = subprocess.run(["sh", "-c", '"$0" -m experiments.cli "$@" 2>&-', sys.executable, *run],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("games"), proc.stdout
    assert "loading" not in proc.stdout and len((out / "games.jsonl").read_text().splitlines()) == 3
    proc = subprocess.run(["sh", "-c", '"$0" -m experiments.cli deal duet --seed -1 2>&-', sys.executable],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout


def test_play_with_a_closed_stdin_is_one_line_before_the_game(tmp_path):
    """`cnlab play duet <&-` (sys.stdin None): the game was dealt and saved, then the first prompt's
    input() raised "lost sys.stdin", reported as "The bot failed: RuntimeError ..." (exit 1). Now it
    is refused before the game, as `replay -` is: one line, exit 2, no record file."""
    import subprocess
    import sys

    proc = subprocess.run(["sh", "-c", '"$0" -m experiments.cli "$@" <&-', sys.executable, *PLAY, "--seed", "9",
                           "--record", str(tmp_path / "game.json")], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
        "error: cannot read your moves: standard input is closed"], proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("env, message", [({"CNLAB_CLUE_CACHE": "off"}, "CNLAB_CLUE_CACHE=off turns off"),
                                          ({"CNLAB_CACHE": "FILE"}, "cannot create --warm's store folder")])
def test_check_clue_warm_without_a_store_it_can_write_is_refused(tmp_path, monkeypatch, env, message):
    """The filter takes a turned-off or unwritable store as memory only, so --warm analysed the
    language's words (a minute), stored nothing, printed its line and exited 0. Now refused first."""
    (tmp_path / "FILE").write_text("x")
    monkeypatch.delenv("CNLAB_CLUE_CACHE", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, str(tmp_path / value) if value == "FILE" else value)
    one_line_exit_2(["check-clue", "--warm", "--lang", "en"], message)


@pytest.mark.parametrize("args, message", [
    (["simulate", "duet", "--games", "1", *RANDOM, "--out", "LONG"], "--out"),
    (["tournament", "--spymasters", "random", "--guessers", "random", "--games", "1", "--out", "LONG"], "--out"),
    (["crossplay", "--spymasters", "random", "--panel", "fake", "--no-leave-one-out", "--no-human", "--games", "1",
      "--out", "LONG"], "--out"),
    ([*PLAY, "--record", "LONG"], "--record"),
    (["serve", "--games-dir", "LONG"], "--games-dir"),
    (["eval-human", "--data", "LONG"], "--data"),
    (["simulate", "duet", "--games", "1", "--spymaster", "expected:LONG", "--guesser", "random"], "embedding backend"),
    (["crossplay", "--panel", "LONG", "--games", "1", "--out", "out"], "embedding backend"),
])
def test_a_path_too_long_for_the_file_system_is_one_line(tmp_path, args, message):
    """A file name longer than the file system takes (ENAMETOOLONG) made Path.exists() raise, not say
    False: --out, --record, --games-dir, --data and a model path ended in a traceback. Now one line."""
    long = str(tmp_path / ("x" * 300))
    line = one_line_exit_2([a.replace("LONG", long) for a in args], message, cwd=tmp_path)
    assert "File name too long" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("case, field", [({"clue": "river", "board": ["snow"], "covred": ["snow"]}, "covred"),
                                         ({"clue": "첫눈", "board": ["눈사람"], "language": "en"}, "language"),
                                         ({"clue": "river", "nmber": 3}, "nmber")])
def test_check_clue_a_case_with_an_unknown_field_is_refused_not_dropped(tmp_path, case, field):
    """A case line's misspelt field was dropped and its default judged: `"covred": ["snow"]` judged the
    clue against a board with nothing covered (RULES 4.5), `"language"` left the board's script to
    choose the language. Refused naming the field, as a record's or a mission map's unknown field is."""
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(case, ensure_ascii=False) + "\n", encoding="utf-8")
    line = one_line_exit_2(["check-clue", "--cases", str(path)], field)
    assert "cases.jsonl:1" in line
