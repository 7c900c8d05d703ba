"""Differential test of the Codenames / Pictures engine (RULES 1, 2) against an independent model
written from the rule text (`cn_reference_model.py`): seeded random games of every variant
(teams, two_player 1.8, three_player 1.9 both modes, single_team, Pictures and its assassin
ending 2.3) under allow / reject / penalize (1.6), with random legal and illegal actions. At every
step the legal guesses/stops/covers, whether each action is accepted (a refused one leaves the
state unchanged), whose turn, the phase, the revealed cards, guesses left (1.4, 1.7), the outcome
(winner, reason, 1.8 score, single-team score) and each seat's observation must agree, and each
game's record must replay to the same state. `python tests/engine/cn_diff_driver.py N` runs more."""

from __future__ import annotations

import pytest

from cn_diff_driver import run


def test_engine_agrees_with_the_reference_model_on_seeded_random_games():  # RULES 1.2-1.8, 2.1-2.4
    assert run(6, first_seed=0) == []


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_engine_agrees_with_the_model_under_the_real_clue_filter(lang):  # RULES 1.6, 4.3, 4.5
    """Real board words and clues judged by the project's filter: covered cards stop blocking."""
    assert run(1, first_seed=500, lang=lang) == []
