"""Spy's Word bots (RULES 5): clues, self-role inference, votes and the ghost's guess.

A bot sees one seat's `SpyWordObservation` only (never the state; `require_spyword_observation`
enforces it) and is deterministic given `begin_game(seed)`.

`SpyWordBot` (spec `spyword:use-m3?key=value`):

* **Self-role inference.** The bot weighs "the others hold my word" against "they hold one of my
  word's nearest vocabulary words" (a pack's two words are similar, so the other word is likely
  near mine; a word said as a clue is excluded: a citizen never says its word). A clue is modelled
  as drawn from the vocabulary near the speaker's word, P(clue | x) = exp(beta cos) / Z(x), mixed
  with eps of uniform noise (a spy's or the ghost's clue points elsewhere). The prior of holding
  the minority word is spies / (players - ghost). `belief(obs)` = P(I hold the minority word).
* **Clue.** Believing it is a citizen: the legal, unused vocabulary word most similar to its word
  whose neighbourhood does not give the word away (the word is not among the clue's `reveal`
  nearest vocabulary words), rewarded for specificity (fits my word better than its neighbours)
  when confident, and penalised for it while unsure. Believing it holds the minority word: a clue
  for the estimated majority word (blend in), never that word itself.
* **Vote.** For the candidate whose clues fit the (estimated) majority word least; a bot that
  believes it is the spy votes the same way against the estimated citizens' word: for the likeliest
  other victim, to survive.
* **Ghost.** Clues near the word the clues heard point at; when eliminated, guesses the vocabulary
  word with the highest robust likelihood under all other players' clues (their common point),
  never a word that was said as a clue.

`RandomSpyWordBot` (spec `spyword-random`): random legal unused clues, random votes, a random
vocabulary word as the ghost's guess: the weakened baseline.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from agents.base import Agent
from agents.embeddings import DEFAULT_BACKEND, Embeddings
from agents.spec import AgentSpec, Limit, above, at_least, between, check_params, parse_spec, whole
from engine.spyword import (HOST, PASS, Dismiss, GhostGuess, GiveClue, Ready, SpyWordObservation, StartVote,
                            Vote, recommended_roles)
from engine.spyword.actions import SpyWordAction

from .model import SpyWordModel, norm_key, spyword_model

CLUE_PHASES = ("clues", "duel_clues")
VOTE_PHASES = ("vote", "duel_vote")


def require_spyword_observation(obs: Any) -> None:
    """Bots are handed a seat's observation, never the game state (hidden information)."""
    if not isinstance(obs, SpyWordObservation):
        raise TypeError(f"Spy's Word bots take a SpyWordObservation, not {type(obs).__name__}")


def told_role(obs: SpyWordObservation) -> str | None:
    """The seat's role as far as its screen tells it: `obs.role`, or "citizen" for a player with a
    word and no role shown when the host reveals the role to the spies (RULES 5.1, 5.14: a spy would
    see "spy"); None when it cannot tell."""
    if obs.role is None and obs.word is not None and (obs.settings or {}).get("reveal_spy_role"):
        return "citizen"
    return obs.role


def role_counts(obs: SpyWordObservation) -> tuple[int, bool]:
    """(spies, ghost) from the public settings (RULES 5.2): the host's choice or the recommendation."""
    spies, ghost = recommended_roles(len(obs.seats))
    s = obs.settings or {}
    if s.get("spies") is not None:
        spies = int(s["spies"])
    if s.get("ghost") is not None:
        ghost = bool(s["ghost"])
    return spies, ghost


class SpyWordAgent(Agent):
    """A Spy's Word seat (role "spyword" in agents.registry): the agents' common base (a seeded
    random stream reset by `begin_game`, `prepare` before workers fork) plus `act(obs)`, which a
    driver calls for whatever the game waits on from this seat."""

    name = "?"
    defaults: dict[str, Any] = {"vocab": 20000}
    limits: dict[str, Limit] = {"vocab": whole(50)}   # what each parameter may be (agents.spec.check_params)

    def __init__(self, spec: AgentSpec | str | None = None, language: str = "en", *,
                 vocabulary: Sequence[str] | None = None, frequencies: Sequence[float] | None = None,
                 embeddings: Mapping[str, Embeddings] | None = None, model: SpyWordModel | None = None):
        spec = parse_spec(spec) if isinstance(spec, str) else (spec or AgentSpec(self.name))
        check_params(spec, self.defaults, f"{self.name} bot", self.limits)
        self.spec = str(spec)
        self.params = {**self.defaults, **spec.params}
        self.language = language
        self.backend = (spec.backends or (DEFAULT_BACKEND,))[0]
        self._model = model
        self._model_args = dict(vocabulary=vocabulary, frequencies=frequencies, embeddings=embeddings)
        super().__init__()
        self.belief_history: list[float] = []

    @property
    def model(self) -> SpyWordModel:
        if self._model is None:
            a = self._model_args
            self._model = spyword_model(self.backend, self.language, int(self.params["vocab"]), words=a["vocabulary"],
                                        frequencies=a["frequencies"], embeddings=a["embeddings"],
                                        **self.model_kwargs())
        return self._model

    def model_kwargs(self) -> dict:
        return {}

    def begin_game(self, seed: Any) -> None:
        super().begin_game(seed)
        self.belief_history = []

    # ----- the driver's entry point ---------------------------------------------------------------
    def act(self, obs: SpyWordObservation, avoid: Iterable[str] = ()) -> SpyWordAction | None:
        """This seat's next action, or None when the game does not wait on it. The discussion is
        the driver's business (it starts the vote); this returns StartVote for the host."""
        require_spyword_observation(obs)
        me = obs.seat
        if me not in obs.to_act:
            return None
        if obs.phase == "ready":
            return Ready(me)
        if obs.phase in CLUE_PHASES:
            return GiveClue(me, self.give_clue(obs, avoid))
        if obs.phase == "discussion":
            return StartVote(HOST if me == obs.host else me)
        if obs.phase in VOTE_PHASES:
            return Vote(me, self.vote(obs))
        if obs.private_screen is not None:
            if obs.private_screen.get("kind") == "ghost_guess":
                return GhostGuess(me, self.ghost_guess(obs))
            return Dismiss(me)
        return None

    # ----- shared helpers ----------------------------------------------------------------------------
    def used_keys(self, obs: SpyWordObservation, avoid: Iterable[str] = ()) -> set[str]:
        return {norm_key(t) for t in obs.clue_texts()} | {norm_key(t) for t in avoid}

    def allowed(self, obs: SpyWordObservation, avoid: Iterable[str] = ()) -> np.ndarray:
        """Vocabulary words this seat may say now: legal for its word (none for the ghost), unused."""
        m = self.model
        ok = m.word_view(obs.word).legal.copy() if obs.word is not None else np.ones(len(m), dtype=bool)
        return ok & ~m.said_mask(self.used_keys(obs, avoid))

    def give_clue(self, obs: SpyWordObservation, avoid: Iterable[str] = ()) -> str:
        raise NotImplementedError

    def vote(self, obs: SpyWordObservation) -> str:
        raise NotImplementedError

    def ghost_guess(self, obs: SpyWordObservation) -> str:
        raise NotImplementedError

    def belief(self, obs: SpyWordObservation) -> float:
        """P(this seat holds the minority word); the prior for bots that do not infer."""
        require_spyword_observation(obs)
        if obs.word is None:
            return 0.0
        if told_role(obs) is not None:
            return 1.0 if obs.role == "spy" else 0.0
        spies, ghost = role_counts(obs)
        return spies / (len(obs.seats) - int(ghost))


class RandomSpyWordBot(SpyWordAgent):
    """The weakened bot: a random legal unused clue, a random vote, a random guess."""

    name = "spyword-random"

    def give_clue(self, obs: SpyWordObservation, avoid: Iterable[str] = ()) -> str:
        require_spyword_observation(obs)
        ok = np.flatnonzero(self.allowed(obs, avoid))
        if not len(ok):
            raise RuntimeError("no legal unused clue left in the vocabulary")
        return self.model.words[int(ok[self.rng.integers(len(ok))])]

    def vote(self, obs: SpyWordObservation) -> str:
        require_spyword_observation(obs)
        cands = [c for c in obs.vote_candidates if c != obs.seat]
        return cands[int(self.rng.integers(len(cands)))]

    def ghost_guess(self, obs: SpyWordObservation) -> str:
        require_spyword_observation(obs)
        return self.model.words[int(self.rng.integers(len(self.model)))]


class SpyWordBot(SpyWordAgent):
    """The embedding bot (see the module docstring). Spec parameters:

    vocab        vocabulary size (most frequent clue words covered by the backend), default 20000
    beta         sharpness of a clue's pointer at a word (softmax temperature), default 20
    eps          weight of "this clue points nowhere" in the robust likelihood, default 0.25
    hub          hubness correction of the ghost's shortlist (summed cosine - hub * mean cosine), 1
    neighbours   how many nearest vocabulary words stand for "the other word", default 12
    candidates   clue candidates per word (most similar legal words), default 40
    reveal       a clue is unsafe when my word is among its `reveal` nearest vocabulary words, 3
    spec         weight of specificity (fit to my word minus fit to its nearest neighbour), 0.6
    unsure       belief above which the specificity weight turns negative (generic clues), 0.3
    switch       belief above which the bot plays as the minority (blend in), default 0.5
    rarity       penalty on rare clue words and guesses (0 frequent .. 1 rare), default 0.05
    temp         Gumbel noise on clue scores (variety; seeded), default 0.01
    translation  cross-script cosine above which a clue is a translation of the word, 0.7
    shortlist    the ghost scores this many words (nearest the clues) with the full likelihood, 100
    """

    name = "spyword"
    defaults = {"vocab": 20000, "beta": 20.0, "eps": 0.25, "hub": 1.0, "neighbours": 12, "candidates": 40,
                "reveal": 3, "spec": 0.6, "unsure": 0.3, "switch": 0.5, "rarity": 0.05, "temp": 0.01,
                "translation": 0.7, "shortlist": 100}
    limits = {**SpyWordAgent.limits, "beta": above(0), "eps": between(0, 1), "neighbours": whole(1),
              "candidates": whole(1), "reveal": whole(0), "unsure": above(0), "temp": at_least(0),
              "shortlist": whole(1)}

    def model_kwargs(self) -> dict:
        return {"neighbours": int(self.params["neighbours"]), "candidates": int(self.params["candidates"]),
                "translation_threshold": float(self.params["translation"]), "beta": float(self.params["beta"])}

    def p(self, key: str) -> float:
        return float(self.params[key])

    # ----- what the clues say --------------------------------------------------------------------------
    def clues_by_seat(self, obs: SpyWordObservation, exclude_self: bool = True) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for c in obs.clues:
            if c.get("clue") is None or (exclude_self and c["seat"] == obs.seat):
                continue
            out.setdefault(c["seat"], []).append(c["clue"])
        return out

    def _loglik(self, clue_vectors: np.ndarray, word_vectors: np.ndarray, log_z: np.ndarray) -> np.ndarray:
        """Per clue (rows) and candidate word x (columns): log P(clue | the speaker holds x).

        The bots pick clues near their word, so a clue is modelled as drawn from the vocabulary with
        probability exp(beta * cos(clue, x)) / Z(x), mixed with eps of uniform (a clue that points
        elsewhere: a spy's or the ghost's)."""
        beta, eps = self.p("beta"), self.p("eps")
        s = beta * (clue_vectors @ word_vectors.T).astype(np.float64) - log_z[None, :]
        with np.errstate(divide="ignore"):  # eps 0 or 1: that term is log 0 = -inf, as meant
            return np.logaddexp(np.log(1 - eps) + s, np.log(eps / len(self.model)))

    def majority_posterior(self, obs: SpyWordObservation) -> tuple[list[str], np.ndarray]:
        """Candidate majority words (my word first, then its nearest legal vocabulary words) and
        their posterior from the other players' clues."""
        m = self.model
        view = m.word_view(obs.word)
        # a word said as a clue is nobody's majority word (a citizen never says its word)
        said = m.said_mask({norm_key(t) for t in obs.clue_texts()})
        keep = ~said[view.neighbours]
        nbrs = view.neighbours[keep]
        names = [obs.word] + [m.words[i] for i in nbrs]
        vecs = np.vstack([view.vector[None, :], m.vectors[nbrs]])
        log_z = np.concatenate([view.log_z[:1], view.log_z[1:][keep]])
        spies, ghost = role_counts(obs)
        prior_min = spies / (len(obs.seats) - int(ghost))
        k = max(len(names) - 1, 1)
        logp = np.array([np.log(1 - prior_min)] + [np.log(prior_min / k)] * (len(names) - 1))
        texts = [t for ts in self.clues_by_seat(obs).values() for t in ts]
        if texts:
            logp = logp + self._loglik(m.vecs(texts), vecs, log_z).sum(axis=0)
        post = np.exp(logp - logp.max())
        return names, post / post.sum()

    def belief(self, obs: SpyWordObservation) -> float:
        require_spyword_observation(obs)
        if obs.word is None:
            return 0.0
        if told_role(obs) is not None:  # told (reveal role to spy, or eliminated)
            return 1.0 if obs.role == "spy" else 0.0
        _, post = self.majority_posterior(obs)
        return float(1.0 - post[0])

    def majority_word(self, obs: SpyWordObservation) -> tuple[str, np.ndarray, float]:
        """(estimated majority word, its vector, my belief of holding the minority word)."""
        if obs.word is None:
            word = self._ghost_ranking(obs)[0]
            return word, self.model.vec(word), 0.0
        names, post = self.majority_posterior(obs)
        belief = 1.0 - float(post[0]) if told_role(obs) is None else (1.0 if obs.role == "spy" else 0.0)
        if belief < self.p("switch"):
            return obs.word, self.model.vec(obs.word), belief
        j = 1 + int(np.argmax(post[1:])) if len(names) > 1 else 0
        return names[j], self.model.vec(names[j]), belief

    # ----- clue --------------------------------------------------------------------------------------------
    def _noise(self, n: int) -> np.ndarray:
        return self.p("temp") * self.rng.gumbel(size=n)

    def give_clue(self, obs: SpyWordObservation, avoid: Iterable[str] = ()) -> str:
        require_spyword_observation(obs)
        m = self.model
        ok = self.allowed(obs, avoid)
        if not ok.any():
            raise RuntimeError("no legal unused clue left in the vocabulary")
        if obs.word is None:
            return self._ghost_clue(obs, ok)
        target, target_vec, belief = self.majority_word(obs)
        self.belief_history.append(belief)
        view = m.word_view(obs.word)
        rarity = self.p("rarity") * m.rarity
        if target != obs.word:  # I hold the minority word: clue for the majority word, never say it
            ok = ok & ~m.said_mask({norm_key(target)})
            score = m.vectors @ target_vec + 0.3 * view.sims - rarity + self._noise(len(m))
            return m.words[int(np.argmax(np.where(ok, score, -np.inf)))]
        top = view.top
        safe = ok[top] & (view.reveal_rank >= int(self.p("reveal")))
        if safe.any():
            weight = self.p("spec") * (1.0 - belief / self.p("unsure"))
            score = view.sims[top] + weight * view.specificity - rarity[top] + self._noise(len(top))
            return m.words[int(top[int(np.argmax(np.where(safe, score, -np.inf)))])]
        score = view.sims - rarity + self._noise(len(m))  # every near candidate is used or unsafe
        return m.words[int(np.argmax(np.where(ok, score, -np.inf)))]

    def _ghost_ranking(self, obs: SpyWordObservation, exclude_said: bool = True) -> list[str]:
        """Vocabulary words ranked by how well they explain the other players' clues: a shortlist by
        the summed cosine, then the clue likelihood with each word's own partition function."""
        m = self.model
        texts = [t for ts in self.clues_by_seat(obs).values() for t in ts]
        prior = -self.p("rarity") * self.p("beta") * m.rarity
        ok = np.ones(len(m), dtype=bool)
        if exclude_said:
            ok = ~m.said_mask({norm_key(t) for t in obs.clue_texts()})
        if not texts:
            order = np.flatnonzero(ok)[:10]
            return [m.words[i] for i in order]
        clue_vecs = m.vecs(texts)
        coarse = np.where(ok, (m.vectors @ clue_vecs.T).sum(axis=1) - self.p("hub") * len(texts) * m.hub, -np.inf)
        short = np.argsort(-coarse, kind="stable")[:int(self.p("shortlist"))]
        short = short[np.isfinite(coarse[short])]
        score = prior[short] + self._loglik(clue_vecs, m.vectors[short], m.log_z(short)).sum(axis=0)
        order = short[np.argsort(-score, kind="stable")[:10]]
        return [m.words[i] for i in order]

    def _ghost_clue(self, obs: SpyWordObservation, ok: np.ndarray) -> str:
        m = self.model
        ranking = self._ghost_ranking(obs)
        guess_vec = m.vec(ranking[0])
        heard = m.vecs(list(obs.clue_texts()))
        centre = heard.mean(axis=0) if len(heard) else guess_vec
        score = m.vectors @ guess_vec + 0.5 * (m.vectors @ centre) - self.p("rarity") * m.rarity + self._noise(len(m))
        unsaid = ok & ~m.said_mask({norm_key(w) for w in ranking[:3]})
        if unsaid.any():  # else one of its top guesses: still legal, unused and never refused (`ok`)
            ok = unsaid
        return m.words[int(np.argmax(np.where(ok, score, -np.inf)))]

    # ----- vote and guess ---------------------------------------------------------------------------------------
    def suspicion(self, obs: SpyWordObservation) -> dict[str, float]:
        """Per candidate: minus the mean fit of its clues to the estimated majority word."""
        _, target_vec, _ = self.majority_word(obs)
        clues = self.clues_by_seat(obs)
        fits = {s: float((self.model.vecs(ts) @ target_vec).mean()) for s, ts in clues.items()}
        neutral = float(np.mean(list(fits.values()))) if fits else 0.0
        return {c: -fits.get(c, neutral) for c in obs.vote_candidates if c not in (obs.seat, PASS)}

    def vote(self, obs: SpyWordObservation) -> str:
        require_spyword_observation(obs)
        sus = self.suspicion(obs)
        names = list(sus)
        score = np.array([sus[n] for n in names]) + 1e-6 * self.rng.gumbel(size=len(names))
        return names[int(np.argmax(score))]

    def ghost_guess(self, obs: SpyWordObservation) -> str:
        require_spyword_observation(obs)
        return self._ghost_ranking(obs)[0]


def make_spyword_bot(spec: str | AgentSpec, language: str = "en", **kwargs) -> SpyWordAgent:
    """`spyword:use-m3?beta=20` or `spyword-random:use-m3` (the backend gives the vocabulary's legal masks)."""
    from agents.registry import make_agent

    return make_agent("spyword", spec, language, **kwargs)


def check_spyword_spec(spec: str, language: str | None = None) -> AgentSpec:
    """Validate a spec without loading any model (with `language`: its backends read it)."""
    from agents.embeddings.registry import check_language
    from agents.registry import agent_class, check_models, is_import_path

    parsed = parse_spec(spec)
    cls = agent_class(parsed, "spyword")
    check_params(parsed, getattr(cls, "defaults", {}), f"{parsed.name} bot", getattr(cls, "limits", None))
    if not is_import_path(parsed.name):  # an unknown model or llm backend: refused before a run claims its folder
        try:
            check_models(cls, parsed)
            if hasattr(cls, "check_setup"):
                cls.check_setup(parsed, language or "en")
        except ValueError as exc:
            raise ValueError(f"spyword {spec!r}: {exc}") from None
    if language is not None:
        from agents.registry import _check_language

        _check_language("spyword", spec, language)
        try:
            check_language(parsed.backends, language)
        except ValueError as exc:
            raise ValueError(f"spyword {spec!r}: {exc}") from None
    return parsed
