"""Differential test of the Duet engine (RULES 3) against an independent model written from the rule
text (`duet_reference_model.py`): seeded random games of the base game, 10/11 tokens, missions T-M
(T-T, Cairo-like 9-5, 11-4, 5-1, 4-0, ...), relaxed order, under allow / reject / penalize (4.8),
with random legal and illegal actions (covered or already-beige cards, clues out of phase or in
sudden death, a third clue in a row, a stop before a correct guess or in sudden death, moves
after the end, unknown seats and words, bad clue numbers). At every step the legal guesses and
stops, whether each action is accepted (a refused one leaves the state unchanged and names its
rule in one line), whose turn, the phase, the supply (check / bystander side), the agents and
bystander tokens on the cards, finished sides (3.8), mistakes, the outcome (winner, loss reason,
3.11 score) and each seat's observation must agree, and each game's record must replay to the
same state. `python tests/engine/duet_diff_driver.py N [SEED] [en|ko]` runs more."""

from __future__ import annotations

import pytest

from duet_diff_driver import run


def test_duet_engine_agrees_with_the_reference_model_on_seeded_random_games():  # RULES 3.3-3.11, 4.8
    assert run(2, first_seed=0) == []


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_duet_engine_agrees_with_the_model_under_the_real_clue_filter(lang):  # RULES 4.5, 3.7
    """Real board words and clues judged by the project's filter: a card with one bystander token
    still blocks clues, one covered by an agent or by tokens from both directions does not."""
    assert run(1, first_seed=700, lang=lang) == []
