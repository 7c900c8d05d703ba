"""What every similarity-based guesser shares: its backend, its seeded consistent noise, game views."""

from __future__ import annotations

import hashlib
from functools import cached_property
from typing import Any, Mapping

import numpy as np

from agents.base import Guesser, require_observation
from agents.clue_problem import backend_memo, board_vectors
from agents.embeddings import DEFAULT_BACKEND, Embeddings, get_backend
from agents.embeddings.backoff import backoff_vector
from agents.observations import adapter_for
from agents.partner_model import duet_partner_prior, partner_temperature
from agents.spec import AgentSpec, Limit, at_least, between, check_params, one_of


def _stable_int(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def unresolved_target_chances(view: "GuessView", pick, include_current: bool = True,
                              cap: float = 1.0, score=None, both: bool = False):
    """Chance that each card is a still-unfound target of some clue this seat received: per clue,
    its unresolved count times `pick(clue)` (the chance of each card being picked for it), capped
    at `cap`; combined over clues as independent chances.

    A green found on a clue's turn counts for that clue, or with `score(clue)` (how strongly the
    clue points at each card, comparable across clues) for whichever clue still open then points
    at it most: a guess that recalled an earlier clue's target, or a spare guess, resolves that
    clue, not the one on the table, which keeps its own target open. Without `score` a turn's
    greens count for its clue, up to its number. With `both`: (with the clue on the table, without
    it), from one pass."""
    miss = np.ones(len(view.words))
    turns = view.turn_finds()
    if score is None:
        left = [number - min(len(found), number) for _, number, found in turns]
    else:
        left = [number for _, number, _ in turns]
        scores: dict[int, np.ndarray] = {}
        for t, (_, _, found) in enumerate(turns):
            for c in found:
                cands = [j for j in [t] + list(range(t)) if left[j] > 0]
                if len(cands) > 1:
                    for j in cands:
                        if j not in scores:
                            scores[j] = score(turns[j][0])
                    cands = [max(cands, key=lambda j: scores[j][c])]
                if cands:
                    left[cands[0]] -= 1
    current = bool(turns) and view.clue is not None and not view.sudden_death   # the last is on the table
    earlier = len(turns) - 1 if current else len(turns)
    for (clue, _, _), k in zip(turns[:earlier], left[:earlier]):
        if k > 0:
            miss *= 1.0 - np.minimum(cap, k * pick(clue))
    without = np.where(view.touchable, 1.0 - miss, 0.0)
    if not (both or include_current):
        return without
    if current and left[-1] > 0:
        miss *= 1.0 - np.minimum(cap, left[-1] * pick(turns[-1][0]))
    with_current = np.where(view.touchable, 1.0 - miss, 0.0)
    return (with_current, without) if both else with_current


def key_posterior(view: "GuessView", evidence: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P(green), P(black)) per card on the partner's side: the key structure (RULES 3.2,
    `GuessView.partner_prior`) times a likelihood ratio `evidence` for green (the clue points at it)."""
    prior = view.partner_prior
    g = prior[:, 0] * evidence
    den = g + prior[:, 1] + prior[:, 2]
    den = np.where(den > 0, den, 1.0)
    return g / den, prior[:, 1] / den


def with_key_prior(view: "GuessView", chance: np.ndarray) -> np.ndarray:
    """A clue-based chance of green (which assumed one green in three) combined, as odds, with what
    the key structure says of each card (RULES 3.2, `GuessView.partner_prior`); 0 where untouchable."""
    prior = view.partner_prior[:, 0]
    odds = (chance / np.maximum(1 - chance, 1e-9)) * (prior / np.maximum(1 - prior, 1e-9)) / 0.5
    return np.where(view.touchable, odds / (1 + odds), 0.0)


def may_hold_back(obs) -> bool:
    """Duet sudden death (RULES 3.9): may this seat wait for its partner to guess first?

    If both seats wait the game is lost, so the seat with more cards left to find waits and the
    other guesses, a rule both compute from their own side alone: my partner must find my
    uncovered greens (exactly `own_targets`), I must find about the rest (`15 - found - mine`,
    short by the unknown green-green cards). Ties: seat A guesses. Both seats can never wait
    together (with g >= 0 unknown shared greens, `b - g > a` and `a - g >= b` exclude each other).
    """
    if len(obs.to_act) <= 1:
        return False
    partner_left = len(obs.own_targets())
    mine_left = 15 - obs.greens_found - partner_left
    return mine_left > partner_left or (mine_left == partner_left and obs.seat == "B")


def beige_costs_a_stop(obs) -> bool:
    """Does a beige guess cost what a stop costs, one token that ends the turn (RULES 3.6)? So in
    the base game, every token bystander side up; under a mission's check-side tokens a beige
    takes a mistake a stop would not (3.10)."""
    return obs.check_tokens == 0 and obs.bystander_tokens >= 1


def last_clue_for_me(obs) -> bool:
    """Is the clue on the table the last my partner gives before sudden death, with a beige costing
    what a stop costs (`beige_costs_a_stop`)?

    The givers alternate (RULES 3.4; the relaxed order is not in the observation and is read as
    strict) and a side with no green left gives no clue (3.8), so after this turn's token my partner
    clues on every other turn, or on every turn once my own greens are all covered."""
    if not beige_costs_a_stop(obs):
        return False
    t = obs.tokens_left                       # this turn's token not yet taken
    mine_done = not obs.own_targets()         # I give no more clues: my partner gives every one
    later = t - 1 if mine_done else (t - 1) // 2
    return later <= 0


class GuessView:
    """The few things a guesser needs, from a Duet or a Codenames observation."""

    def __init__(self, obs):
        self.obs = obs
        self.words = tuple(obs.words)
        self.duet = adapter_for(obs).family == "duet"
        if self.duet:
            seat = obs.seat   # obs.can_guess for every card, in one pass (RULES 3.7)
            self.touchable = np.array([not c and seat not in m for c, m in zip(obs.green_covered, obs.bystander_marks)],
                                      dtype=bool)
            self.correct = obs.correct_this_turn
            self.sudden_death = obs.phase == "sudden_death"
            self.received = obs.clues_received()
        else:
            self.touchable = np.array([r is None for r in obs.revealed], dtype=bool)
            self.correct = obs.guesses_this_turn
            self.sudden_death = obs.phase == "sudden_death"
            self.received = obs.clues_received()
        self.memo: dict = {}   # what a guesser derives from this view once (`target_chances`)
        self.clue = obs.current_clue[0] if obs.current_clue else None
        number = obs.current_clue[1] if obs.current_clue else 0
        # 0 (RULES 1.7, 3.4) and UNLIMITED still ask for at least one guess
        self.number = number if isinstance(number, int) and number > 0 else (1 if number == 0 else 9)
        # RULES 1.7: 0 says none of the giver's cards relates to the clue (`zero_clue_pick`)
        self.zero = isinstance(number, int) and not isinstance(number, bool) and number == 0
        if not self.duet and getattr(obs, "guesses_left", None) is not None:
            self.number = min(self.number, self.correct + obs.guesses_left)

    @cached_property
    def partner_prior(self) -> np.ndarray:
        """(cards, 3): G / X / N on the partner's side by my side and my finds (Duet,
        `duet_partner_prior`), once per view: a guess reads it several times. Not to be written."""
        return duet_partner_prior(self.obs)

    def turn_guesses(self) -> list[tuple[str, int, list[tuple[int, bool]]]]:
        """(clue, number, my guesses on its own turn as (card, found a green of mine to find)) for
        every clue this seat received."""
        obs = self.obs
        out: list[list] = []
        mine = obs.seat
        index = {w: i for i, w in enumerate(self.words)}
        for e in obs.history:
            if e.kind == "clue":
                out.append([e.word, e.number, [], e.seat != mine and (self.duet or e.seat.startswith(getattr(obs, "team", "")))])
            elif e.kind == "guess" and out and e.seat == mine and e.word in index:
                good = e.result == "green" if self.duet else e.result == getattr(obs, "team", "?")[:1].upper()
                out[-1][2].append((index[e.word], good))
        # a 0 clue (RULES 1.7) points at none of the giver's cards: it leaves no target to find
        return [(w, n if isinstance(n, int) and n > 0 else (0 if n == 0 else 1), g) for w, n, g, received in out
                if received]

    def turn_finds(self) -> list[tuple[str, int, list[int]]]:
        """(clue, number, the cards whose guess found a green on its own turn) for every clue this seat received."""
        return [(w, n, [c for c, good in g if good]) for w, n, g in self.turn_guesses()]


def zero_clue_pick(view: GuessView, s: np.ndarray, chance: np.ndarray, temperature: float) -> int:
    """The guess owed on a 0 clue (RULES 1.7: "none of ours relates to this"; at least one guess):
    the card an earlier clue still points at (`chance`), less the chance the 0 clue points at it
    (`s`, the clue's similarities, as a softmax at `temperature`); with no earlier clue to go on,
    the card the clue relates to least. Never the nearest card: a 0 clue is how a spymaster warns
    off a card, often the assassin."""
    t = view.touchable
    z = np.where(t, (s - s[t].max()) / max(temperature, 1e-9), -np.inf)
    pick = np.exp(z)
    pick = pick / pick.sum()
    score = chance * (1.0 - pick) if (chance[t] > 0).any() else -s
    return int(np.argmax(np.where(t, score, -np.inf)))


def card_stats(emb: Embeddings, words: tuple[str, ...], language: str) -> tuple[np.ndarray, np.ndarray]:
    """Per card: the mean and spread of its cosine over the 10,000 most frequent clue words,
    memoised per backend and language."""
    from agents.clue_problem import candidate_pool

    known = backend_memo(emb, "_card_stats_memo", language)
    missing = [w for w in words if w not in known]
    if missing:
        ref = candidate_pool([emb], language, 10000).vectors[0]
        cos = board_vectors(emb, missing) @ ref.T
        for w, c in zip(missing, cos):
            known[w] = (float(c.mean()), float(c.std()) or 1.0)
    mu, sd = np.array([known[w] for w in words]).T
    return mu, sd


class ListedCards:
    """One backend's view of the board list: the cards' unit vectors and (with `stats`) their
    `card_stats`, as arrays. A game's board is rows of them: the numbers `board_vectors` and
    `card_stats` give, for under half the work every game pays (once per backend and seat)."""

    def __init__(self, emb: Embeddings, words: tuple[str, ...], language: str, stats: bool):
        self.index = {w: i for i, w in enumerate(words)}
        # the stats first: their reference pool seeds an encoder's memo from the disk cache, so a
        # card's vector does not depend on the batch that first met it (Embeddings.vectors)
        self.stats = np.array(card_stats(emb, words, language)) if stats else None   # (2, words): mu, sd
        self.vectors = board_vectors(emb, list(words))
        self.known = self.vectors.any(axis=1)   # a card the model does not know has a zero vector

    def board(self, words: tuple[str, ...]) -> tuple[np.ndarray, tuple | None] | None:
        """(vectors, (mu, sd, mean sd, mean mu) or None) of these cards; None when one is off the list."""
        index = self.index
        if not all(w in index for w in words):
            return None
        rows = [index[w] for w in words]
        if self.stats is None:
            return self.vectors[rows], None
        mu, sd = self.stats[:, rows]
        known = self.known[rows]         # an unknown card has no cosines to count in the board's means
        if not known.any():
            known[:] = True
        return self.vectors[rows], (mu, sd, sd[known].mean(), mu[known].mean())


def card_units(row: np.ndarray, mu: np.ndarray, sd: np.ndarray, sd_mean: float, mu_mean: float) -> np.ndarray:
    """Similarities in each card's own units, rescaled to cosines: (s - mu_c) / sd_c with the
    card's `card_stats`, times their mean spread plus their mean (kept with the board). A card that
    sits near everything (a hub in this model) then needs a clue that singles it out."""
    return (row - mu) / sd * sd_mean + mu_mean


class SimilarityGuesser(Guesser):
    """A guesser reading clues through one embedding backend (or the mean of several).

    Spec parameters: `noise` (sigma of a seeded Gaussian added to its similarities, the same for a
    given (clue, card) within a game: an imperfect partner), `threshold` (stop below this
    similarity after the first correct guess; -1 = off), `sd_confidence` (in Duet's sudden death,
    guess only when the best card's chance is at least this, or when nobody else can guess),
    `combine` (several backends: `bayes`, each in units of its temperature and, in Duet, weighted
    by how well it explains my guesses' results so far (`model_weights`, power `learn`), so the
    guesser comes to read clues with the model the spymaster thinks like; or the plain `mean` of
    their cosines).
    """

    name = "?"
    default_backends = (DEFAULT_BACKEND,)
    defaults: dict[str, Any] = {"noise": 0.0, "threshold": -1.0, "sd_confidence": 0.35, "temp": 0.0,
                                "hub": 0.0, "combine": "bayes", "learn": 0.25}
    # noise: a standard deviation; sd_confidence: a chance; hub: a blend weight; learn: a power
    limits: dict[str, Limit] = {"noise": at_least(0), "sd_confidence": between(0, 1), "temp": at_least(0),
                                "hub": between(0, 1), "learn": at_least(0), "combine": one_of("bayes", "mean")}

    def __init__(self, spec: AgentSpec | None = None, language: str = "en", *,
                 embeddings: Mapping[str, Embeddings] | None = None):
        super().__init__()
        spec = spec or AgentSpec(self.name)
        check_params(spec, self.defaults, f"{self.name} guesser", self.limits)
        self.params = {**self.defaults, **spec.params}
        self.language = language
        self.backend_names = tuple(spec.backends) or (DEFAULT_BACKEND,)
        embeddings = embeddings or {}
        self.backends = [embeddings[n] if n in embeddings else get_backend(n) for n in self.backend_names]
        if self.params["combine"] not in ("mean", "bayes"):
            raise ValueError(f"{self.name} guesser: combine is mean or bayes, not {self.params['combine']!r}")
        t = float(self.params["temp"])
        self._temps = [t if t > 0 else partner_temperature(n, emb, language)
                       for n, emb in zip(self.backend_names, self.backends)]
        self.temperature = float(np.mean(self._temps))
        self._weights = np.ones(len(self.backends)) / len(self.backends)
        self._noise_key = 0
        self._cache: dict[tuple, np.ndarray] = {}
        self._listed: list[ListedCards | None] = [None] * len(self.backends)   # set by prepare
        self._clue_vectors: dict[tuple[int, str], np.ndarray | bool | None] = {}   # kept across games

    def p(self, key: str) -> Any:
        return self.params[key]

    def prepare(self) -> None:
        super().prepare()
        # every listed card's vectors and own units, once, before workers fork
        words = tuple(self.listed_words())
        hub = float(self.p("hub")) > 0
        self._listed = [ListedCards(emb, words, self.language, hub) if emb.has_vectors else None
                        for emb in self.backends]

    def begin_game(self, seed: Any) -> None:
        super().begin_game(seed)
        self._noise_key = int(self.rng.integers(2**62))
        self._cache = {}
        self._weights = np.ones(len(self.backends)) / len(self.backends)

    # -- similarities ----------------------------------------------------------------------
    def similarities(self, words: tuple[str, ...], clue: str) -> np.ndarray:
        """This guesser's (noisy) similarity of the clue to every board card, memoised per game.
        Several backends: their mean (`combine=mean`), or with `combine=bayes` their mixture weighted
        by `model_weights` (each row in units of its backend's temperature, back in the guesser's)."""
        rows = self._rows(words, clue)
        bayes = self.p("combine") == "bayes" and len(self.backends) > 1
        key = (words, clue) + (tuple(self._weights),) if bayes else (words, clue)
        s = self._cache.get(key)
        if s is not None:
            return s
        known = [b for b, r in enumerate(rows) if r is not None]

        def noise_rng():
            return np.random.default_rng([self._noise_key, _stable_int(clue)])

        if known:
            if bayes:
                w = np.array([self._weights[b] for b in known])
                w = w / w.sum()
                s = self.temperature * sum(wb * rows[b] / self._temps[b] for wb, b in zip(w, known))
            else:
                s = rows[known[0]] if len(known) == 1 else np.mean([rows[b] for b in known], axis=0)
            s = s.astype(np.float64)
            sigma = float(self.p("noise"))
            if sigma > 0:
                s = s + noise_rng().normal(0.0, sigma, len(words))
        else:  # a word this guesser does not know: a blind (but seeded) guess
            s = noise_rng().normal(0.0, 0.05, len(words))
        self._cache[key] = s
        return s

    def _rows(self, words: tuple[str, ...], clue: str) -> list[np.ndarray | None]:
        """Each backend's similarity of the clue to the cards (None where it does not know the
        clue), with `hub`: memoised per game."""
        key = ("rows", words, clue)
        rows = self._cache.get(key)
        if rows is None:
            rows = []
            hub = float(self.p("hub"))
            for b, emb in enumerate(self.backends):
                vector = self._clue_vector(b, clue)
                if vector is None:
                    rows.append(None)
                elif emb.has_vectors:
                    vectors, stats = self._board(b, words)
                    row = vectors @ vector
                    rows.append((1.0 - hub) * row + hub * card_units(row, *stats) if hub > 0 else row)
                else:
                    rows.append(emb.similarity(list(words), [clue])[:, 0])
            self._cache[key] = rows
        return rows

    def _clue_vector(self, b: int, clue: str) -> np.ndarray | bool | None:
        """Backend b's unit vector of the clue (True for a backend without vectors), kept across
        games: the same clue words come back game after game. A word the backend does not know is
        read through words it does (`backoff_vector`: `scoreboard` as score + board), else None."""
        memo = self._clue_vectors
        key = (b, clue)
        if key not in memo:
            emb = self.backends[b]
            if len(memo) >= 100_000:      # a long-lived guesser (the web server) keeps a bounded memo
                memo.clear()
            if not emb.has_vectors:
                memo[key] = True if emb.covers([clue])[0] else None
            elif emb.covers([clue])[0]:
                memo[key] = emb.vectors([clue])[0]
            else:
                memo[key] = backoff_vector(emb, clue, self.language)
        return memo[key]

    def model_weights(self, view: "GuessView") -> np.ndarray:
        """`combine=bayes`: which of my backends reads clues like this spymaster? Each backend's
        weight is the likelihood, to the power `learn`, of what my guesses on the clues I received
        have shown: a guess that found the giver's green is a card its clue pointed at (the
        backend's softmax over the cards touchable then), a miss one it did not point at (1 - that
        chance). The cards touchable then are taken as those touchable now plus those guessed
        since the clue. `learn` < 1 tempers the likelihood: a few guesses should not hand the game
        to one backend when none thinks like the spymaster (docs/agents.md)."""
        n = len(self.backends)
        loglik = np.zeros(n)
        words = view.words
        read = [(self._scaled_rows(words, clue), guesses) for clue, _, guesses in view.turn_guesses() if guesses]
        read = [(bs, scaled, guesses) for (bs, scaled), guesses in read if bs]
        if not read:
            return np.full(n, 1.0 / n)
        # every turn and backend at once (softmax over the cards touchable then, row by row: the same numbers)
        live = np.repeat(view.touchable[None, :], len(read), axis=0)
        for t, (_, _, guesses) in enumerate(read):
            live[t, [c for c, _ in guesses]] = True
        if all(len(bs) == n for bs, _, _ in read):
            z = np.where(live[:, None, :], np.stack([scaled for _, scaled, _ in read]), -np.inf)
            p = np.exp(z - z.max(axis=2, keepdims=True))
            p = p / p.sum(axis=2, keepdims=True)
            turn = [t for t, (_, _, guesses) in enumerate(read) for _ in guesses]
            picked = p[turn, :, [c for _, _, guesses in read for c, _ in guesses]]      # (guesses, backends)
            good = np.array([g for _, _, guesses in read for _, g in guesses])[:, None]
            for term in np.log(np.maximum(np.where(good, picked, 1.0 - picked), 1e-9)):
                loglik += term          # guess by guess: the sums in the order they were played
        else:                           # a backend lacks a clue: turn by turn
            for t, (bs, scaled, guesses) in enumerate(read):
                z = np.where(live[t], scaled, -np.inf)
                p = np.exp(z - z.max(axis=1, keepdims=True))
                p = p / p.sum(axis=1, keepdims=True)
                for c, g in guesses:
                    loglik[bs] += np.log(np.maximum(p[:, c] if g else 1.0 - p[:, c], 1e-9))
        loglik *= float(self.p("learn"))
        w = np.exp(loglik - loglik.max())
        return w / w.sum()

    def _scaled_rows(self, words: tuple[str, ...], clue: str) -> tuple[list[int], np.ndarray | None]:
        """The backends that know the clue, and their `_rows` in units of their temperatures, one row
        each: memoised per game (`model_weights` reads every received clue at every guess)."""
        key = ("scaled", words, clue)
        kept = self._cache.get(key)
        if kept is None:
            known = [(b, row) for b, row in enumerate(self._rows(words, clue)) if row is not None]
            kept = self._cache[key] = ([b for b, _ in known],
                                       np.array([row / self._temps[b] for b, row in known]) if known else None)
        return kept

    def _board(self, b: int, words: tuple[str, ...]) -> tuple[np.ndarray, tuple | None]:
        """Backend b's unit vectors of the cards and, with `hub`, their `card_stats`: once per game
        (every clue reads them)."""
        key = ("board", b, words)
        kept = self._cache.get(key)
        if kept is None:
            listed = self._listed[b]
            kept = listed.board(words) if listed is not None else None
            if kept is None:     # a board off the list (or no prepare): its own, the same numbers
                kept = ListedCards(self.backends[b], words, self.language, float(self.p("hub")) > 0).board(words)
            self._cache[key] = kept
        return kept

    # -- the turn --------------------------------------------------------------------------
    def next_guess(self, obs) -> str | None:
        require_observation(obs)
        view = GuessView(obs)
        if not view.touchable.any():
            return None
        if self.p("combine") == "bayes" and len(self.backends) > 1 and view.duet:
            self._weights = self.model_weights(view)
        if view.sudden_death:
            return self.sudden_death_guess(view)
        if view.clue is None:
            return None
        if view.zero and view.correct == 0:
            chance = self.green_chances(view)
            return view.words[zero_clue_pick(view, self.similarities(view.words, view.clue), chance, self.temperature)]
        if view.correct >= view.number:
            return self.spare_guess(view)
        scores = self.card_scores(view)
        best = int(np.argmax(np.where(view.touchable, scores, -np.inf)))
        if view.correct >= 1 and self.similarities(view.words, view.clue)[best] < float(self.p("threshold")):
            return None
        return view.words[best]

    def card_scores(self, view: GuessView) -> np.ndarray:
        return self.similarities(view.words, view.clue)

    def spare_guess(self, view: GuessView) -> str | None:
        """After the clue's number: stop (the memory guesser returns to older clues here)."""
        return None

    # -- memory of clues ---------------------------------------------------------------------
    def target_chances(self, view: GuessView, include_current: bool = True) -> np.ndarray:
        """Chance that each card is a still-unfound target of some received clue.

        Per clue: its unresolved count times a softmax over the touchable cards (capped at 1);
        combined over clues as independent chances. Each green found is credited to the open clue
        whose similarities (z-scored over the board) point at it most. Both variants come from one
        pass, kept on the view.
        """
        key = ("targets", id(self))
        kept = view.memo.get(key)
        if kept is None:
            kept = view.memo[key] = self._target_chances(view)
        return kept[0] if include_current else kept[1]

    def _target_chances(self, view: GuessView) -> tuple[np.ndarray, np.ndarray]:
        def pick(clue: str) -> np.ndarray:
            s = self.similarities(view.words, clue)
            w = np.exp(np.where(view.touchable, (s - s[view.touchable].max()) / self.temperature, -np.inf))
            return w / w.sum()

        def score(clue: str) -> np.ndarray:
            s = self.similarities(view.words, clue)
            return (s - s.mean()) / (s.std() or 1.0)

        return unresolved_target_chances(view, pick, score=score, both=True)

    def sudden_death_guess(self, view: GuessView) -> str | None:
        """RULES 3.9: one guess at a time, any miss loses; hold back unless confident."""
        best, chance = self.likeliest_green(view)
        if chance[best] >= float(self.p("sd_confidence")) or not may_hold_back(view.obs):
            return view.words[best]
        return None

    def likeliest_green(self, view: GuessView) -> tuple[int, np.ndarray]:
        """The touchable card likeliest green by every clue received (`green_chances`), and the chances."""
        chance = self.green_chances(view)
        return int(np.argmax(np.where(view.touchable, chance, -np.inf))), chance

    def green_chances(self, view: GuessView) -> np.ndarray:
        return self.target_chances(view)
