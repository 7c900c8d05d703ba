"""The Spy's Word language-model seat: `llm-spyword:local?...` (role "spyword")."""

from __future__ import annotations

from typing import Iterable

from agents.base import Agent
from agents.spec import AgentSpec
from agents.spyword.bots import SpyWordAgent, require_spyword_observation, role_counts

from .parse import Refusal, parse_vote, parse_word
from .prompts import spyword_messages
from .seat import DEFAULTS, LIMITS, LLMSeat

FALLBACK_POOL = 3000


def _engine_checks(text: str, obs, avoid: Iterable[str], language: str) -> None:
    """The referee's clue rules a seat can check from its own view (RULES 5.4): one word, not its
    own word (the project clue filter), not an earlier clue, not one the referee just refused."""
    from engine.clues import ClueTextError, normalize_clue
    from engine.spyword.matching import same_clue
    from engine.spyword.state import default_clue_checker

    try:
        text = normalize_clue(text)
    except ClueTextError as exc:
        raise Refusal(f"RULES 5.4: {exc.describe()}") from None
    if len(text.split()) != 1:
        raise Refusal("RULES 5.4: say one word, not a phrase")
    if obs.word is not None and same_clue(text, obs.word):
        raise Refusal("RULES 5.4: a clue may not be your word itself")
    for earlier in obs.clue_texts():
        if same_clue(text, earlier):
            raise Refusal(f"RULES 5.4: {text!r} repeats an earlier clue")
    for refused in avoid:
        if same_clue(text, refused):
            raise Refusal(f"RULES 5.4: the referee refused {text!r}")
    if obs.word is not None:
        verdict = default_clue_checker(text, obs.word, language, "word")
        if verdict:
            rule, message = verdict
            raise Refusal(f"RULES {rule}: {message}")


def _ghost_word(word: str) -> str:
    """The ghost's guess, Refusal for what the engine would refuse (`check_ghost_guess`, RULES 5.10:
    the game loop has no second try for a guess)."""
    from engine.errors import IllegalAction
    from engine.spyword.state import check_ghost_guess

    try:
        check_ghost_guess(word)
    except IllegalAction as exc:
        raise Refusal(exc.describe()) from None
    return word


class SeatModel:
    """The `model` of an llm Spy's Word seat. The harness prepares a Spy's Word bot's model before its
    games (`model.prepare(words)`: the plain run before workers fork, an isolated seat's process at
    start); for an llm seat that loads the language model once (an endpoint: nothing), so the first
    move is not the one that waits for it. Anything else (`emb`, `vocab`, ...) is an AttributeError
    that says the seat has no embedding model."""

    def __init__(self, seat: "LLMSpyWordBot"):
        self._seat = seat

    def prepare(self, words: Iterable[str] = ()) -> None:
        self._seat.prepare()

    def __getattr__(self, name: str):
        raise AttributeError(f"an llm Spy's Word seat has no embedding model (no {name!r}): "
                             f"it reads no embeddings, its backend is a chat model")


class LLMSpyWordBot(LLMSeat, SpyWordAgent):
    """A Spy's Word seat asking a model for its clue (`CLUE: word`), its vote (`VOTE: seat`) and, as
    the eliminated ghost, its guess (`GUESS: word`). Ready, the vote start and dismissing a role
    screen need no model (SpyWordAgent.act).

    Forfeits: a clue -> a frequent vocabulary word that passes the same checks (seeded draw); a
    vote -> a candidate drawn uniformly; the ghost's guess -> a vocabulary word drawn uniformly.
    When the referee refuses a clue this bot judged legal (the game loop calls again with `avoid`),
    the bot plays the fallback clue at once instead of asking the model again."""

    name = "llm-spyword"
    defaults = dict(DEFAULTS)
    limits = dict(LIMITS)

    def __init__(self, spec: AgentSpec | str | None = None, language: str = "en", **_: object):
        Agent.__init__(self)  # the seeded stream (SpyWordAgent's own set-up is for embedding bots)
        self.setup_llm(spec, language, self.name)
        self.belief_history: list[float] = []
        self._model = None

    @property
    def model(self) -> "SeatModel":
        """What the harness reaches through a Spy's Word bot's `model` (SpyWordAgent's embedding
        model): here only `prepare(words)`, which loads the language model. An llm seat reads no
        embeddings; the run's referee and weakened seats use the default backend (use-m3)."""
        return SeatModel(self)

    def _counts(self, obs) -> tuple[int, bool]:
        return role_counts(obs)

    def _vocabulary(self) -> tuple[str, ...]:
        from agents.wordlists import clue_vocabulary

        return clue_vocabulary(self.language).words[:FALLBACK_POOL]

    def give_clue(self, obs, avoid: Iterable[str] = ()) -> str:
        require_spyword_observation(obs)
        avoid = list(avoid)
        spies, ghost = self._counts(obs)
        if avoid:  # the referee refused the clue this seat judged legal: no second conversation
            entry = self.note(obs.seat, "spyword", "clue", f"the referee refused {avoid[-1]!r}")
            word = self._fallback_clue(obs, avoid)
            entry["fallback"] = entry["answer"] = word
            return word

        def parse(text: str) -> str:
            word = parse_word("CLUE", text)
            _engine_checks(word, obs, avoid, self.language)
            return word

        answer = self.ask(spyword_messages(obs, self.language, "clue", spies, ghost), parse, "fmt_sw_clue",
                          seat=obs.seat, role="spyword", move="clue")
        if answer.forfeit is None:
            answer.entry["answer"] = answer.value
            return answer.value
        word = self._fallback_clue(obs, avoid)
        answer.entry["fallback"] = answer.entry["answer"] = word
        return word

    def _fallback_clue(self, obs, avoid) -> str:
        words = self._vocabulary()
        for i in self.rng.permutation(len(words)):
            try:
                _engine_checks(words[int(i)], obs, avoid, self.language)
            except Refusal:
                continue
            return words[int(i)]
        raise RuntimeError("no legal fallback clue in the vocabulary")  # pragma: no cover

    def vote(self, obs) -> str:
        require_spyword_observation(obs)
        from engine.spyword import PASS

        spies, ghost = self._counts(obs)
        cands = [c for c in obs.vote_candidates if c != obs.seat]
        answer = self.ask(spyword_messages(obs, self.language, "vote", spies, ghost),
                          lambda text: parse_vote(text, cands, obs.pass_allowed, PASS), "fmt_vote",
                          seat=obs.seat, role="spyword", move="vote")
        if answer.forfeit is None:
            answer.entry["answer"] = answer.value
            return answer.value
        pick = cands[int(self.rng.integers(len(cands)))]
        answer.entry["fallback"] = answer.entry["answer"] = pick
        return pick

    def ghost_guess(self, obs) -> str:
        require_spyword_observation(obs)
        spies, ghost = self._counts(obs)
        answer = self.ask(spyword_messages(obs, self.language, "ghost_guess", spies, ghost),
                          lambda text: _ghost_word(parse_word("GUESS", text)), "fmt_ghost",
                          seat=obs.seat, role="spyword", move="ghost_guess")
        if answer.forfeit is None:
            answer.entry["answer"] = answer.value
            return answer.value
        words = self._vocabulary()
        pick = words[int(self.rng.integers(len(words)))]
        answer.entry["fallback"] = answer.entry["answer"] = pick
        return pick
