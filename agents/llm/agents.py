"""The Codenames-family language-model agents: `llm` spymaster and `llm` guesser (Duet, Codenames,
Pictures), built as `cls(spec, language)` like every agent (agents/registry.py)."""

from __future__ import annotations

from typing import Any, Sequence

from agents.base import ClueDecision, Guesser, Spymaster, require_observation
from agents.spec import AgentSpec

from .parse import judge_clue, observation_family, parse_clue, parse_guess
from .prompts import observation_messages
from .seat import LLMSeat

FALLBACK_SAMPLE = 400   # vocabulary words drawn for a fallback clue
FALLBACK_POOL = 3000    # ... from the language's most frequent clue words


def clue_board(obs: Any) -> tuple[list[str], list[str]]:
    """(words that block clues, covered words) as the referee passes them to the clue filter."""
    n = len(obs.words)
    if observation_family(obs) == "duet":
        gone = [obs.green_covered[i] or len(obs.bystander_marks[i]) == 2 for i in range(n)]
    else:
        if getattr(obs, "game", "codenames") == "pictures":
            return [], []
        gone = [r is not None for r in obs.revealed]
    return [w for w, g in zip(obs.words, gone) if not g], [w for w, g in zip(obs.words, gone) if g]


def clue_text_rule(obs: Any) -> str:
    """The rule a clue's text breaks, as the game's engine cites it: Duet 3.4, Codenames 1.2, Pictures 2.2."""
    if observation_family(obs) == "duet":
        return "3.4"
    return "2.2" if getattr(obs, "game", "codenames") == "pictures" else "1.2"


def used_clues(obs: Any) -> set[str]:
    return {str(e.word).casefold() for e in obs.history if e.kind == "clue" and e.word}


def fallback_clue(obs: Any, language: str, rng) -> str:
    """A legal filler clue for a forfeited move: a frequent vocabulary word the clue filter accepts
    on this board and not given before (drawn with the agent's seeded stream)."""
    from engine.clues import ClueFilter
    from agents.wordlists import clue_vocabulary

    board, covered = clue_board(obs)
    words = clue_vocabulary(language).words[:FALLBACK_POOL]
    picks = [words[int(i)] for i in rng.permutation(len(words))[:FALLBACK_SAMPLE]]
    used = used_clues(obs)
    picks = [w for w in picks if w.casefold() not in used]
    ok = ClueFilter(board=board, language=language, covered=covered).legal_mask(picks)
    for word, legal in zip(picks, ok):
        if legal:
            return word
    raise RuntimeError("no legal fallback clue in the vocabulary sample")  # pragma: no cover


class LLMSpymaster(LLMSeat, Spymaster):
    """`llm:local?...` / `llm:openai?model=...&base_url=...` as a spymaster.

    Answer: `CLUE: word NUMBER`; refused when not in that format, when the number is not 0..9, or
    when the clue filter refuses it (RULES 4, with the filter's message). Forfeit (every attempt
    refused or failed): a legal filler clue, number 1 (`fallback_clue`), with
    `details["forfeit"]` set."""

    def __init__(self, spec: AgentSpec | str | None = None, language: str = "en"):
        Spymaster.__init__(self)
        self.setup_llm(spec, language)

    def give_clue(self, obs) -> ClueDecision:
        require_observation(obs)
        board, covered = clue_board(obs)
        text_rule = clue_text_rule(obs)

        def parse(text: str) -> tuple[str, int]:
            word, number = parse_clue(text)
            judge_clue(word, number, board, covered, self.language, text_rule)
            return word, number

        answer = self.ask(observation_messages(obs, "spymaster", self.language), parse, "fmt_clue",
                          seat=obs.seat, role="spymaster", move="clue")
        if answer.forfeit is None:
            word, number = answer.value
            answer.entry["answer"] = f"{word} {number}"
            return ClueDecision(word, number, details={"llm": answer.entry["prompt_sha"]})
        word = fallback_clue(obs, self.language, self.rng)
        answer.entry["fallback"] = f"{word} 1"
        answer.entry["answer"] = f"{word} 1"
        return ClueDecision(word, 1, details={"forfeit": answer.forfeit})


def guess_rules(obs: Any) -> tuple[Sequence[str], Any, bool]:
    """(board words, can_guess(i), whether None is allowed now) for a guesser's observation."""
    if observation_family(obs) == "duet":
        stop = obs.phase == "sudden_death" or obs.correct_this_turn > 0
        return obs.words, obs.can_guess, stop
    stop = obs.phase == "guess" and obs.guesses_this_turn > 0
    return obs.words, (lambda i: obs.revealed[i] is None), stop


class LLMGuesser(LLMSeat, Guesser):
    """`llm:...` as a guesser.

    Answer: `GUESS: word` or `STOP`; refused when not in that format, when the word is not a card
    that can be guessed now (not on the board, covered, already a bystander for this seat), or a
    stop before the first guess of a clue. Forfeit: stop when stopping is allowed, else (and in
    sudden death, where holding back for good loses anyway) a card drawn uniformly from those that
    can be guessed."""

    def __init__(self, spec: AgentSpec | str | None = None, language: str = "en"):
        Guesser.__init__(self)
        self.setup_llm(spec, language)

    def next_guess(self, obs) -> str | None:
        require_observation(obs)
        words, can_guess, stop_allowed = guess_rules(obs)
        clue = obs.current_clue[0] if obs.current_clue else None
        answer = self.ask(observation_messages(obs, "guesser", self.language),
                          lambda text: parse_guess(text, words, can_guess, stop_allowed, clue), "fmt_guess",
                          seat=obs.seat, role="guesser", move="guess")
        if answer.forfeit is None:
            answer.entry["answer"] = answer.value if answer.value is not None else "STOP"
            return answer.value
        if stop_allowed and obs.phase != "sudden_death":
            answer.entry["fallback"] = answer.entry["answer"] = "STOP"
            return None
        open_cards = [i for i in range(len(words)) if can_guess(i)]
        word = words[open_cards[int(self.rng.integers(len(open_cards)))]]
        answer.entry["fallback"] = answer.entry["answer"] = word
        return word
