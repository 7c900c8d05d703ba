"""The foreign-partner model (agents/foreign_model.py) and its fit (experiments/tools/fit_foreign_model.py)."""

from __future__ import annotations

import numpy as np

from agents.foreign_model import FEATURES, features, load_weights, utility, weights_for
from experiments.tools.fit_foreign_model import PICKS, evaluate, fit


def _arrays(rng, backends=3, cards=25, cols=40):
    z = [rng.normal(size=(cards, cols)).astype(np.float32) for _ in range(backends)]
    rev = [-np.log1p(rng.integers(0, 5000, size=(cards, cols))).astype(np.float32) for _ in range(backends)]
    return z, rev


def test_features_do_not_depend_on_the_order_of_the_backends():
    rng = np.random.default_rng(0)
    z, rev = _arrays(rng)
    touch = rng.random(25) < 0.7
    a = features(z, rev, touch)
    b = features(z[::-1], rev[::-1], touch)
    assert a.shape == (len(FEATURES), 25, 40)
    assert np.allclose(a, b)


def test_a_card_every_model_singles_out_beats_one_that_a_single_model_likes():
    cards = 6
    touch = np.ones(cards, dtype=bool)
    z = [np.zeros((cards, 1), np.float32) for _ in range(3)]
    for m in z:
        m[0, 0] = 2.0                 # card 0: near the clue under every model
    z[1][1, 0] = 3.5                  # card 1: only model 1 sees it, more strongly
    rev = [np.full((cards, 1), -8.0, np.float32) for _ in range(3)]
    for r in rev:
        r[0, 0] = -1.0                # and the clue is among card 0's own associates
    u = utility(weights_for("en", ["a", "b", "c"]), features(z, rev, touch))[:, 0]
    assert u[0] > u[1] > u[2]


def test_weights_for_a_panel_less_one_model_are_fitted_without_that_partner():
    table = load_weights()["languages"]["en"]
    panel = table["panel"]
    held = panel[-1]
    w = weights_for("en", [m for m in panel if m != held])
    assert np.allclose(w, table["leave_out"][held]["weights"], atol=1e-5)
    assert not np.allclose(w, table["all"]["weights"], atol=1e-5)
    assert np.allclose(weights_for("en", panel), table["all"]["weights"], atol=1e-5)
    assert np.allclose(weights_for("en", ["use-m3"]), table["all"]["weights"], atol=1e-5)


def test_the_plackett_luce_fit_recovers_the_weights_that_made_the_picks():
    rng = np.random.default_rng(3)
    true = np.array([1.5, -0.5, 0.8])
    n, cards = 3000, 8
    X = rng.normal(size=(n, 3, cards))
    T = np.ones((n, cards), dtype=bool)
    T[:, -1] = rng.random(n) < 0.5          # some cards not touchable
    u = np.einsum("f,nfc->nc", true, X)
    # sample PICKS picks without replacement from the softmax (Gumbel trick), touchable only
    g = np.where(T, u + rng.gumbel(size=u.shape), -np.inf)
    P = np.argsort(-g, axis=1)[:, :PICKS]
    w = fit([(X, T, P)], lam=0.0)
    assert np.allclose(w, true, atol=0.12)
    assert evaluate(w, (X, T, P))["loglik"] > evaluate(np.zeros(3), (X, T, P))["loglik"]
