"""The four guessers: nearest, memory, duet-bayes, random."""

from __future__ import annotations

from functools import cache
from typing import Mapping

import numpy as np

from agents.base import Guesser, require_observation
from agents.embeddings import Embeddings
from agents.embeddings.registry import check_backends
from agents.partner_model import DuetValue
from agents.spec import AgentSpec, at_least, between, check_params, whole

from .base import (GuessView, SimilarityGuesser, beige_costs_a_stop, key_posterior, last_clue_for_me,
                   with_key_prior)


class NearestGuesser(SimilarityGuesser):
    """The most similar touchable card; stops after the clue's number or below `threshold`."""

    name = "nearest"


class MemoryGuesser(SimilarityGuesser):
    """Nearest, and with spare guesses returns to the unresolved targets of earlier clues.

    After the current clue's number is reached it takes up to `spare` more guesses, each on the
    card most likely to be an unfound target of an earlier clue, when that chance is at least
    `spare_confidence`.
    """

    name = "memory"
    defaults = {**SimilarityGuesser.defaults, "spare": 1.0, "spare_confidence": 0.6}
    limits = {**SimilarityGuesser.limits, "spare": whole(0), "spare_confidence": between(0, 1)}

    def spare_guess(self, view: GuessView) -> str | None:
        if view.correct - view.number >= int(self.p("spare")):
            return None
        chance = self.target_chances(view, include_current=False)
        if not chance.any():
            return None
        best = int(np.argmax(chance))
        return view.words[best] if chance[best] >= float(self.p("spare_confidence")) else None


class DuetBayesGuesser(MemoryGuesser):
    """Similarity and the key card's structure (RULES 3.2), for Duet.

    My side says what the partner's side can be: of my 9 greens 3 are green for the partner, of my
    3 blacks 1 is green, 1 black, 1 beige, of my 13 beiges 5 are green; what I have found so far
    updates those counts (`agents.partner_model.duet_partner_prior`). The partner points at its
    greens, so a card's similarity to the clue is evidence for green:

        P(green | clue) = pG e / (pG e + pX + pN),   e = exp((s - s_ref) / temp)

    with s_ref the median touchable similarity. A card that may be a still-unfound target of an
    earlier clue is green for that reason too: with r = `recall` x its chance of being one
    (`target_chances` of the earlier clues), P(green) becomes 1 - (1 - P(green)) (1 - r) and
    P(black) becomes P(black) (1 - r): of two cards the clue reads alike, the one an earlier clue
    also points at goes first. `recall` < 1, for those clues are unresolved: my reading of them
    has failed once already. A guess is ranked by P(green) - `risk` P(black).
    It stops after the clue's number, and takes spare guesses (earlier clues) only when their
    posterior chance is at least `spare_confidence`, except on the last clue its partner gives
    before sudden death (`last_clue_for_me`): there a beige only ends the turn, as a stop does
    (RULES 3.6), where in sudden death it loses (3.9), so it guesses on past the number, the card
    sudden death would take first, while its chance is at least `last` (0; 1 = stop as on any
    clue). On any other clue it guesses on past the number while the card is worth the risk
    (`worth_going_on`, `beyond`). Codenames observations fall back to nearest.
    """

    name = "duet-bayes"
    defaults = {**MemoryGuesser.defaults, "risk": 1.0, "unsure": 0.0, "hub": 0.75, "recall": 0.5, "last": 0.0,
                "beyond": 0.5}
    limits = {**MemoryGuesser.limits, "risk": at_least(0), "unsure": between(0, 1), "recall": between(0, 1), "last": between(0, 1),
              "beyond": at_least(0)}

    def posterior(self, view: GuessView, evidence: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(P(green), P(black)) per card from the key structure and a likelihood ratio `evidence`."""
        return key_posterior(view, evidence)

    def _evidence(self, view: GuessView, clue: str) -> np.ndarray:
        s = self.similarities(view.words, clue)
        ref = median(s[view.touchable]) if view.touchable.any() else 0.0
        return np.exp(np.clip((s - ref) / self.temperature, -50, 50))

    def current_posterior(self, view: GuessView) -> tuple[np.ndarray, np.ndarray]:
        """(P(green), P(black)) per card for the clue on the table, earlier clues recalled."""
        pg, px = self.posterior(view, self._evidence(view, view.clue))
        recall = float(self.p("recall"))
        if recall > 0:
            old = recall * self.target_chances(view, include_current=False)
            pg = 1.0 - (1.0 - pg) * (1.0 - old)
            px = px * (1.0 - old)
        return pg, px

    def card_scores(self, view: GuessView) -> np.ndarray:
        if not view.duet:
            return super().card_scores(view)
        pg, px = self.current_posterior(view)
        return pg - float(self.p("risk")) * px

    def next_guess(self, obs) -> str | None:
        word = super().next_guess(obs)
        unsure = float(self.p("unsure"))
        if word is None or unsure <= 0:
            return word
        view = GuessView(obs)
        if not view.duet or view.sudden_death or view.correct == 0 or view.correct >= view.number:
            return word
        # stop when unsure (Duet: a stop costs nothing a bystander would not, the assassin costs the game)
        pg, _ = self.current_posterior(view)
        return word if pg[view.words.index(word)] >= unsure else None

    def green_chances(self, view: GuessView) -> np.ndarray:
        if not view.duet:
            return super().green_chances(view)
        return with_key_prior(view, self.target_chances(view))

    def spare_guess(self, view: GuessView) -> str | None:
        if not view.duet:
            return super().spare_guess(view)
        if beige_costs_a_stop(view.obs):
            best, chance = self.likeliest_green(view)
            last = float(self.p("last"))
            if last < 1 and last_clue_for_me(view.obs):
                # no clue will come after this one: what is left goes to sudden death, where a beige
                # loses; here it only ends the turn, as a stop would
                return view.words[best] if chance[best] >= last else None
            if self.worth_going_on(view, best, float(chance[best])):
                return view.words[best]
        if view.correct - view.number >= int(self.p("spare")):
            return None
        old = self.target_chances(view, include_current=False)
        if not old.any():
            return None
        chance = with_key_prior(view, old)
        best = int(np.argmax(chance))
        return view.words[best] if chance[best] >= float(self.p("spare_confidence")) else None

    def worth_going_on(self, view: GuessView, card: int, chance: float) -> bool:
        """Past the number, is the card worth a guess? A beige ends the turn for the token a stop
        takes (RULES 3.6), a green is one more found, the assassin loses the game (3.5). With V(g)
        the chance to win with g greens left after this turn (`game_value`, `robust`'s plan), go
        on while chance x (V(g - 1) - V(g)) >= `beyond` x P(black) x V(g): seldom while the tokens
        are many for the greens left, nearly always when they are few. P(black) is the key
        structure's share of the card's chance not to be green. `beyond` 0: stop, as before."""
        beyond = float(self.p("beyond"))
        if beyond <= 0:
            return False
        prior = view.partner_prior[card]
        black = (1.0 - chance) * prior[1] / max(prior[1] + prior[2], 1e-9)
        value = game_value()
        tokens, greens = view.obs.tokens_left - 1, 15 - view.obs.greens_found
        v = value(greens, tokens)
        return chance * (value(greens - 1, tokens) - v) >= beyond * black * v


@cache
def game_value() -> DuetValue:
    """The chance to win from (greens left, tokens left) with `robust`'s default `pace` 1.4,
    `hazard` 0.02 and `sudden` 0.3 (the plan its clues are chosen by), built once."""
    return DuetValue(pace=1.4, hazard=0.02, sudden=0.3)


def median(x: np.ndarray) -> float:
    """np.median of a short 1-D array, the same value at a fraction of its overhead."""
    x = np.sort(x)
    n = len(x)
    return float(x[n // 2]) if n % 2 else float((x[n // 2 - 1] + x[n // 2]) / 2)


class RandomGuesser(Guesser):
    """A uniformly random touchable card each time; stops after the clue's number (a floor to compare with)."""

    name = "random"

    @classmethod
    def models_read(cls, spec):
        return frozenset()   # it reads no model, whatever its spec names
    defaults = {"stop": 0.0}
    limits = {"stop": between(0, 1)}   # the chance of stopping after each correct guess

    def __init__(self, spec: AgentSpec | None = None, language: str = "en", *,
                 embeddings: Mapping[str, Embeddings] | None = None):
        super().__init__()
        self.language = language
        spec = spec or AgentSpec(self.name)
        check_params(spec, self.defaults, f"{self.name} guesser", self.limits)
        check_backends(spec.backends)   # none is loaded
        self.stop = float(spec.params.get("stop", 0.0))

    def next_guess(self, obs) -> str | None:
        require_observation(obs)
        view = GuessView(obs)
        cards = np.flatnonzero(view.touchable)
        if not len(cards) or (view.clue is None and not view.sudden_death):   # no clue to guess on: as every guesser
            return None
        if not view.sudden_death and (view.correct >= view.number or (view.correct and self.rng.random() < self.stop)):
            return None
        return view.words[int(self.rng.choice(cards))]
