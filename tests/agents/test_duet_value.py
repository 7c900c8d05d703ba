"""`DuetValue`: the chance to win from a Duet game state, pooled and by side (RULES 3.4, 3.9)."""

from __future__ import annotations

import pytest

from agents.partner_model import DuetValue


def plain() -> DuetValue:
    return DuetValue(pace=1.4, sudden=0.3, hazard=0.0, score_weight=0.0)


def test_what_my_last_clue_leaves_goes_to_sudden_death():
    """RULES 3.4: the players alternate clues. With one token left after my turn the partner gives
    the last clue, for its own greens, and mine go to sudden death (RULES 3.9), where each is found
    with chance `sudden`. The pooled value lets that last turn find any green."""
    v = plain()
    miss = (1 - 1.4 / 4) ** 4                       # the partner's turn finds none of its greens
    assert v.after(2, 1, 1) == pytest.approx((1 - miss) * 0.3 ** 2 + miss * 0.3 ** 3)
    assert v.after(2, 1, 1) < v(3, 1) / 2


@pytest.mark.parametrize("tokens", [0, 1, 2, 5])
@pytest.mark.parametrize("left", [1, 3, 6])
def test_with_one_side_done_the_other_gives_every_clue(left, tokens):
    """RULES 3.8: a player whose greens are all covered gives no more clues, so the other gives
    every one, as the pooled value has it, whichever side is done."""
    v = plain()
    assert v.after(0, left, tokens) == pytest.approx(v(left, tokens))
    assert v.after(left, 0, tokens) == pytest.approx(v(left, tokens))


def test_greens_are_worth_more_on_the_side_with_more_turns_left():
    """After my turn the partner clues first, so with an odd count of tokens left it has one turn
    more than I have: of the same greens left, those on its side are likelier found."""
    v = plain()
    for tokens in (1, 3):
        assert v.after(1, 3, tokens) > v.after(3, 1, tokens)
    assert v.after(2, 2, 2) > v.after(3, 1, 2) == pytest.approx(v.after(1, 3, 2))   # a turn each


def test_the_spymaster_values_a_turn_by_side_as_much_as_sides_says():
    """`sides` weighs V by side against the pooled V in a clue's value: 0 is the pooled value, 1 the
    value by side, 0.5 their mean; near the end they part (two tokens left, two greens of mine and
    one of the partner's)."""
    from types import SimpleNamespace

    import numpy as np

    from agents.partner_model import TurnOutcomes
    from agents.spec import parse_spec
    from agents.spymasters.expected import ExpectedValueSpymaster
    from tests.agents.test_spymasters import VOCAB, make_emb

    rng = np.random.default_rng(0)
    reach = np.concatenate([np.ones((1, 1, 3)), rng.uniform(0, 1, (1, 2, 3))], axis=1).astype(np.float32)
    out = TurnOutcomes(reach=reach, miss=rng.uniform(0, .3, (1, 3, 3)).astype(np.float32),
                       dead=rng.uniform(0, .1, (1, 3, 3)).astype(np.float32))
    problem = SimpleNamespace(game="duet", n_targets=2,
                              state={"greens_left": 3, "tokens_left": 2, "bystander_tokens": 2})

    def values(sides):
        s = ExpectedValueSpymaster(parse_spec(f"expected:fake?sides={sides}"), "en", vocabulary=VOCAB,
                                   embeddings={"fake": make_emb()})
        return s._values(problem, out, 2)

    pooled, split, half = values(0), values(1), values(0.5)
    assert not np.allclose(pooled, split)
    assert np.allclose(half, (pooled + split) / 2)
