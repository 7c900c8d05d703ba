"""The partner-robust spymaster (`robust`) on hand-made boards with two fake backends."""

from __future__ import annotations

import numpy as np
import pytest

from agents.clue_problem import StandardSims, duet_problem, standardise
from agents.embeddings import FakeEmbeddings
from agents.spec import parse_spec
from agents.spymasters.robust import (Hypotheses, RobustSpymaster, agreement, agreement_scale, centrality,
                                      combined, consensus_matrix)
from engine.actions import Clue, Guess, Stop
from tests.agents.test_spymasters import BOARD, DIM, HAND, VOCAB, state, vec

# A second mind: it reads "sea" as near the assassin fire too, and "tide" as a school word.
OTHER = dict(HAND, sea=vec(a0=.6, a20=.8, a1=.9), tide=vec(a2=1, a22=.3))
FIRST = dict(HAND, tide=vec(a0=.7, a12=.9))
WORDS = VOCAB + ["tide"]


def robust(spec: str) -> RobustSpymaster:
    embs = {"fk1": FakeEmbeddings(dim=DIM, vectors=FIRST, seed=7),
            "fk2": FakeEmbeddings(dim=DIM, vectors=OTHER, seed=7)}
    return RobustSpymaster(parse_spec(spec), "en", vocabulary=WORDS,
                           frequencies=np.linspace(1e-3, 1e-5, len(WORDS)), embeddings=embs)


@pytest.mark.parametrize("combine", ["consensus", "foreign"])
def test_a_clue_near_the_assassin_under_one_model_is_refused(combine):
    # a sure reading (ztemp 0.4), with which one model alone picks sea; the veto is what is tested
    alone = robust(f"robust:fk1?combine={combine}&ztemp=0.4&row=0").give_clue(state().observe("A"))
    both = robust(f"robust:fk1+fk2?combine={combine}&ztemp=0.4&row=0").give_clue(state().observe("A"))
    assert alone.word == "sea"                 # one model alone: sea is the best clue
    assert both.word != "sea" and both.word not in ("steam", "oceans")   # fk2 puts fire next to sea
    greens = {w for w, c in zip(BOARD, state().key.a) if c == "G"}
    assert both.targets and set(both.targets) <= greens


def test_standardised_similarities_credit_only_what_a_clue_singles_out():
    sp = robust("robust:fk1")
    problem = duet_problem(state().observe("A"), "en")
    sims = sp.pool.board_sims(problem.board)
    z = StandardSims(sims, sp.pool).raw[0]
    assert np.allclose(z.mean(axis=0), 0.0, atol=1e-4)           # every candidate in its own units
    sea = sp.pool.index["sea"]
    assert set(np.argsort(-z[:, sea])[:3]) == {0, 1, 2}          # ocean, water, wave


def test_the_row_reading_puts_each_card_in_its_own_units_too():
    """`row`: a card's cosine to a clue also against its cosines to every candidate, so a card
    near everything (a hub in that model) is not promised to a partner."""
    sp = robust("robust:fk1")
    sims = sp.pool.board_sims(duet_problem(state().observe("A"), "en").board)
    col = StandardSims(sims, sp.pool, 0.0).raw[0]
    row = StandardSims(sims, sp.pool, 1.0).raw[0]
    assert np.allclose(row.mean(axis=1), 0.0, atol=1e-4) and np.allclose(row.std(axis=1), 1.0, atol=1e-3)
    half = StandardSims(sims, sp.pool, 0.5).raw[0]
    assert np.allclose(half, (col + row) / 2, atol=1e-5)
    assert not np.allclose(col, row)


def test_the_partners_guesses_move_the_posterior():
    sp = robust("robust:fk1+fk2")
    s = state()
    s.apply(Clue("A", "tide", 1))
    s.apply(Guess("B", "pencil"))              # fk2's reading of tide; fk1 would have touched wave
    problem = duet_problem(s.observe("A"), "en")
    views = Hypotheses(StandardSims(sp.pool.board_sims(problem.board), sp.pool))
    _, before = sp.partner_posterior(duet_problem(state().observe("A"), "en"), sp.pool, views)
    _, after = sp.partner_posterior(problem, sp.pool, views)
    assert np.allclose(before, [0.6, 0.2, 0.2])                   # consensus, fk1, fk2
    assert after[2] > before[2] and after[2] > after[1]


def test_learn_tempers_what_the_guesses_say():
    """`learn` is the power of the guesses' likelihood: 0 keeps the prior, a smaller power moves
    the weights less toward the hypothesis that fits, 1 is plain Bayes (the likelihood ratio
    itself)."""
    s = state()
    s.apply(Clue("A", "tide", 1))
    s.apply(Guess("B", "pencil"))
    weights = {}
    for learn in (0, 0.25, 1):
        sp = robust(f"robust:fk1+fk2?learn={learn}")
        problem = duet_problem(s.observe("A"), "en")
        views = Hypotheses(StandardSims(sp.pool.board_sims(problem.board), sp.pool))
        weights[learn] = sp.partner_posterior(problem, sp.pool, views)[1]
    assert np.allclose(weights[0], [0.6, 0.2, 0.2])
    assert 0.2 < weights[0.25][2] < weights[1][2]
    odds = lambda w: np.log(w[2] / w[1])                    # fk2 against fk1, prior odds 1
    assert odds(weights[0.25]) == pytest.approx(0.25 * odds(weights[1]), rel=1e-6)
    with pytest.raises(ValueError, match="learn"):
        robust("robust:fk1+fk2?learn=-1")


def test_the_posterior_resumed_from_an_earlier_turn_is_the_posterior_computed_afresh():
    """The guesses' likelihood is kept with the board's views and resumed on a later turn (and
    started over for another game on the same board): each time it equals a fresh computation."""
    sp = robust("robust:fk1+fk2?adapt=1")
    s = state()
    views = None
    steps = [Clue("A", "tide", 2), Guess("B", "pencil"), Guess("B", "wave"), Stop("B"),
             Clue("B", "sea", 1), Guess("A", "ocean"),              # beige on B's side: the turn ends
             Clue("A", "school", 1), Guess("B", "book"), Stop("B")]
    problems = []
    for action in steps:
        s.apply(action)
        if isinstance(action, (Guess, Stop)):
            problems.append(duet_problem(s.observe("A"), "en"))
    s = state()                                 # another game on the same board
    for action in (Clue("A", "sea", 2), Guess("B", "water")):
        s.apply(action)
        problems.append(duet_problem(s.observe("A"), "en"))
    weights = []
    for problem in problems:
        if views is None:
            views = Hypotheses(StandardSims(sp.pool.board_sims(problem.board), sp.pool))
        kept = sp.partner_posterior(problem, sp.pool, views)
        fresh = sp.partner_posterior(problem, sp.pool, Hypotheses(StandardSims(sp.pool.board_sims(problem.board), sp.pool)))
        assert kept[0] == fresh[0] and np.array_equal(kept[1], fresh[1])
        weights.append(kept[1])
    assert views.__dict__["_guess_likelihood"]
    assert not np.allclose(weights[0], weights[1])      # the guesses move it


def test_the_foreign_reading_is_the_first_hypothesis_and_guesses_weigh_it():
    sp = robust("robust:fk1+fk2?combine=foreign")
    s = state()
    s.apply(Clue("A", "tide", 1))
    s.apply(Guess("B", "pencil"))
    problem = duet_problem(s.observe("A"), "en")
    sims = sp.pool.board_sims(problem.board)
    base = Hypotheses(StandardSims(sims, sp.pool))
    views, ok = sp.foreign_views(problem, sp.pool, base, sp.candidates(problem))
    assert len(views.raw) == 3 and ok.any()
    assert not np.allclose(views.raw[0][:, ok], base.raw[0][:, ok])    # not the consensus
    tide = sp.pool.index["tide"]
    assert np.isfinite(views.raw[0][:, tide]).all() and views.raw[0][:, tide].max() > -30
    _, w = sp.partner_posterior(problem, sp.pool, views)
    assert w[2] > w[1]                          # fk2 explains the pencil guess better than fk1


@pytest.mark.parametrize("combine", ["consensus", "foreign"])
def test_robust_is_deterministic_and_legal(combine):
    a = robust(f"robust:fk1+fk2?combine={combine}").give_clue(state().observe("A"))
    b = robust(f"robust:fk1+fk2?combine={combine}").give_clue(state().observe("A"))
    assert (a.word, a.number, a.targets) == (b.word, b.number, b.targets)
    s = state()
    s.apply(Clue("A", a.word, a.number))       # the engine's referee accepts it
    assert s.phase == "guess"


def test_the_assassin_veto_kept_with_the_board_agrees_with_a_fresh_count():
    """The veto's per-board counts (`memo`) minus the cards no longer touchable must give what a
    fresh count over the touchable cards gives, on any subset of candidates."""
    from types import SimpleNamespace

    from agents.spymasters.robust import assassin_clear

    rng = np.random.default_rng(5)
    views = [rng.normal(size=(25, 300)).astype(np.float32) for _ in range(2)]
    black = np.zeros(25, bool)
    black[[3, 11, 20]] = True
    memo: dict = {}
    # one game's turns, then another game on the same board (the memo is kept with the board)
    for covered in ([], [0, 4], [0, 4, 5, 9, 17], [6], [6, 7], [6, 7]):
        guessable = np.ones(25, bool)
        guessable[covered] = False
        problem = SimpleNamespace(assassin=black, guessable=guessable)
        cols = np.sort(rng.choice(300, 120, replace=False))
        fresh = np.ones(300, bool)
        for z in views:
            worst = z[black].max(axis=0)
            fresh &= (z[guessable] > worst).sum(axis=0) >= 2
        assert np.array_equal(assassin_clear(views, problem, 2, cols, memo), fresh[cols])
        assert np.array_equal(assassin_clear(views, problem, 2), fresh)
    assert len(memo) == 2          # one count per view, reused on every later turn


def test_the_nearest_card_veto_from_the_prefilters_maxima_is_the_counted_veto():
    """`passing(..., nearest_from=k)` judges `veto` 1 from the maxima the prefilter takes anyway (the
    avoided cards split into bystanders and assassins): the same candidates as `assassin_clear`'s
    count of cards above the nearest assassin, under every view from k on, and the same prefilter."""
    from types import SimpleNamespace

    from agents.clue_problem import passing
    from agents.spymasters.robust import assassin_clear

    rng = np.random.default_rng(7)
    for trial in range(20):
        views = [rng.normal(size=(25, 400)).astype(np.float32) for _ in range(3)]
        if trial % 2:             # ties: a bystander exactly as near as the assassin is not nearer
            views[1][4] = views[1][3]
        guessable = rng.random(25) < 0.8
        roles = rng.choice(3, 25, p=[0.4, 0.45, 0.15])        # target, bystander, assassin
        assassin = guessable & (roles == 2)
        if trial == 0:
            assassin[:] = False                                 # no assassin left: every clue clear
        targets = guessable & (roles == 0)
        targets[0] = guessable[0] = True
        assassin[0] = False
        avoid = np.where(assassin, 4.0, np.where(guessable & ~targets, 1.0, 0.0))
        problem = SimpleNamespace(targets=targets, avoid=avoid, assassin=assassin, guessable=guessable)
        sims = SimpleNamespace(raw=views, scale=[1.0] * 3)
        ok = rng.random(400) < 0.9
        floors = [-0.5, -0.8, -0.8]
        keep, gap = passing(sims, problem, ok, floors)
        keep2, gap2, clear = passing(sims, problem, ok, floors, nearest_from=1)
        assert np.array_equal(keep, keep2) and np.array_equal(gap, gap2)
        assert np.array_equal(clear, assassin_clear(views[1:], problem, 1)), trial


def test_the_fast_helpers_match_numpy():
    from agents.partner_model import top_rows
    from agents.spymasters.expected import cumulative

    rng = np.random.default_rng(6)
    w = rng.random((9, 500)).astype(np.float32)
    for rows, k in ((9, 4), (4, 4), (5, 3), (4, 1), (1, 1)):
        assert np.array_equal(top_rows(w[:rows], k), -np.sort(-w[:rows], axis=0)[:k]), (rows, k)
    short = top_rows(w[:2], 4)             # fewer rows than slots: the rest are zeros
    assert np.array_equal(short[:2], -np.sort(-w[:2], axis=0)) and not short[2:].any()
    assert np.array_equal(cumulative(w[:4]), np.cumsum(w[:4], axis=0))


def test_turn_outcomes_of_several_models_in_one_pass_equal_one_call_each():
    from agents.partner_model import turn_outcomes

    rng = np.random.default_rng(8)
    views = [rng.standard_normal((25, 300)).astype(np.float32) for _ in range(3)]
    # the columns are gathered by flat index: views in any memory layout give the same cells
    views[1] = np.asfortranarray(views[1])
    views[2] = rng.standard_normal((25, 600)).astype(np.float32)[:, ::2]
    targets = np.zeros(25, bool)
    targets[:6] = True
    bystanders = np.zeros(25, bool)
    bystanders[8:20] = True
    assassins = np.zeros(25, bool)
    assassins[21] = True
    cols = np.sort(rng.choice(300, 40, replace=False))
    temps = [0.3, 0.5, 0.9]
    both = turn_outcomes(views, targets, bystanders, assassins, temps, 4, cols)
    for h, (view, t) in enumerate(zip(views, temps)):
        one = turn_outcomes([view[:, cols]], targets, bystanders, assassins, [t], 4)
        for field in ("reach", "miss", "dead"):
            assert np.array_equal(getattr(both, field)[h], getattr(one, field)[0]), (h, field)
    # the turn ends one way or another: stops, misses and the assassin sum to one per candidate
    total = both.reach[:, 4] + both.miss[:, :4].sum(axis=1) + both.dead[:, :4].sum(axis=1)
    assert np.allclose(total, 1.0, atol=1e-5)


def test_human_agreement_reads_the_fits_and_fills_a_backend_without_one():
    from agents.partner_model import human_agreement

    params = {"fits": {"human|a": {"top1_accuracy": 0.6}, "human|b": {"top1_accuracy": 0.2}}}
    assert np.allclose(human_agreement(["a", "b", "c"], params), [0.6, 0.2, 0.4])
    assert np.allclose(human_agreement(["x", "y"], {"fits": {}}), [1.0, 1.0])
    shipped = human_agreement(["use-m3", "glove-50"])          # the shipped fits
    assert shipped[0] > shipped[1] > 0


def test_the_consensus_weighs_the_models_people_read_clues_like_more():
    from agents.partner_model import human_agreement
    from agents.spymasters.robust import consensus_weights

    acc = human_agreement(["use-m3", "glove-50"])
    w = consensus_weights(["use-m3", "glove-50"], "en", 2.0)
    assert np.isclose(w.sum(), 1.0) and w[0] > w[1]
    assert np.isclose(w[0] / w[1], (acc[0] / acc[1]) ** 2)
    assert consensus_weights(["use-m3", "glove-50"], "en", 0.0) is None     # the plain mean
    assert consensus_weights(["use-m3", "glove-50"], "ko", 2.0) is None     # no Korean human data
    assert consensus_weights(["use-m3"], "en", 2.0) is None


def test_a_weighted_consensus_leans_to_the_model_people_agree_with(monkeypatch):
    import agents.spymasters.robust as robust_module

    monkeypatch.setattr(robust_module, "human_agreement",
                        lambda backends: np.array([0.9 if b == "fk1" else 0.1 for b in backends]))
    plain, weighted = robust("robust:fk1+fk2?quality=0"), robust("robust:fk1+fk2?quality=2")
    assert plain.consensus_weights() is None
    assert np.allclose(weighted.consensus_weights(), [0.81 / 0.82, 0.01 / 0.82])
    problem = duet_problem(state().observe("A"), "en")
    sims = weighted.pool.board_sims(problem.board)
    standard = StandardSims(sims, weighted.pool)
    even = Hypotheses(standard).raw[0]
    leaning = Hypotheses(standard, weighted.consensus_weights()).raw[0]
    assert np.allclose(even, np.mean(standard.raw, axis=0))
    z1, z2 = standard.raw
    assert np.abs(leaning - z1).mean() < np.abs(even - z1).mean() < np.abs(leaning - z2).mean()
    a, b = weighted.give_clue(state().observe("A")), weighted.give_clue(state().observe("A"))
    assert (a.word, a.number, a.targets) == (b.word, b.number, b.targets)


@pytest.mark.parametrize("row", [0.0, 0.5])
def test_a_listed_boards_views_are_rows_of_the_lists_matrices_and_equal_a_direct_computation(row):
    """The board list's z-scores and consensus are computed once (shared by forked workers); a
    board's views read rows of them, which must be the numbers computed from its own cosines."""
    sp = robust("robust:fk1+fk2")
    sp.prepare()
    pool = sp.pool
    board = tuple(list(pool.board_rows)[3:28])                     # 25 words of the board list
    rows = [pool.board_rows[w] for w in board]
    sims = pool.board_sims(board)
    standard = StandardSims(sims, pool, row)
    assert standard.rows == rows
    for b, m in enumerate(sims.raw):
        (mu, sd), (mu_r, sd_r) = pool.column_stats[b], pool.row_stats[b]
        assert np.allclose(standard.raw[b], standardise(m, mu, sd, row, mu_r[rows], sd_r[rows]), atol=1e-5)
        assert not pool.standard_matrix(b, row).flags.writeable
    weights = np.array([0.7, 0.3])
    views = Hypotheses(standard, weights)
    assert np.allclose(views.raw[0], combined(standard.raw, weights), atol=1e-5)
    assert not np.allclose(views.raw[0], combined(standard.raw, None))
    with pytest.raises(ValueError):
        consensus_matrix(pool, row, weights)[0, 0] = 1.0           # a board cannot alter the list's


def test_an_unlisted_board_is_standardised_from_its_own_cosines():
    sp = robust("robust:fk1+fk2")
    sp.prepare()
    board = duet_problem(state().observe("A"), "en").board        # card00... are not listed
    assert any(w not in sp.pool.board_rows for w in board)
    sims = sp.pool.board_sims(board)
    standard = StandardSims(sims, sp.pool, 0.5)
    assert standard.rows is None
    for b, m in enumerate(sims.raw):
        assert np.allclose(standard.raw[b], standardise(m, *sp.pool.column_stats[b], 0.5), atol=1e-5)


def test_the_consensus_is_surer_of_the_clues_my_models_read_alike():
    """`agree`: the two fake models read every word alike but sea (fk2 puts it near fire too) and,
    far more, tide (a sea word in fk1, a school word in fk2). Their agreement over the board list
    says so, and the consensus is sharpened where they agree and flattened where they part, on a
    listed board and on an unlisted one alike."""
    sp = robust("robust:fk1+fk2")
    sp.prepare()
    pool = sp.pool
    alike = [pool.index[w] for w in ("school", "zebra", "violin")]
    a = agreement(pool, 0.5)      # near 1, not 1: sea and tide are listed words too, which fk2 moves
    assert a[alike].min() > 0.95 and a[pool.index["tide"]] < 0.2 < a[pool.index["sea"]] < 0.9
    scale = agreement_scale(pool, 0.5, 0.5)
    assert agreement_scale(pool, 0.5, 0.0) is None
    assert scale[pool.index["tide"]] < scale[pool.index["sea"]] < 1.0 < scale[alike[0]]
    assert np.allclose(scale, np.clip(np.maximum(a, 1e-3) / a.mean(), 0.2, 2.0) ** 0.5)
    plain, surer = consensus_matrix(pool, 0.5, None, 0.0), consensus_matrix(pool, 0.5, None, 0.5)
    assert np.allclose(surer, plain * scale[None, :])
    board = duet_problem(state().observe("A"), "en").board          # card00...: an unlisted board
    standard = StandardSims(pool.board_sims(board), pool, 0.5)
    surer_views = Hypotheses(standard, None, 0.5).raw[0]
    assert np.allclose(surer_views, combined(standard.raw, None) * scale[None, :])
    assert np.allclose(Hypotheses(standard, None, 0.0).raw[0], combined(standard.raw, None))
    one = robust("robust:fk1")
    one.prepare()
    assert agreement(one.pool, 0.5) is None                         # one model: nothing to agree


def test_a_model_that_reads_unlike_the_others_counts_less_in_the_consensus():
    """`central`: fk1 and fk2 read nearly every word alike; fk3 is another mind altogether. Its
    correlation with the others' mean is the lowest, and its weight in the consensus drops with it."""
    embs = {"fk1": FakeEmbeddings(dim=DIM, vectors=FIRST, seed=7), "fk2": FakeEmbeddings(dim=DIM, vectors=OTHER, seed=7),
            "fk3": FakeEmbeddings(dim=DIM, seed=99)}

    def three(spec):
        sp = RobustSpymaster(parse_spec(spec), "en", vocabulary=WORDS,
                             frequencies=np.linspace(1e-3, 1e-5, len(WORDS)), embeddings=embs)
        sp.prepare()
        return sp

    sp = three("robust:fk1+fk2+fk3?quality=0&central=1")
    c = centrality(sp.pool, 0.5)
    assert c[2] < 0.5 < min(c[0], c[1])
    assert np.allclose(sp.consensus_weights(), c / c.sum())
    assert three("robust:fk1+fk2+fk3?quality=0&central=0").consensus_weights() is None   # the plain mean
    two = robust("robust:fk1+fk2?quality=0&central=1")
    two.prepare()
    assert centrality(two.pool, 0.5) is None and two.consensus_weights() is None   # two models: nothing to rank


# ----- Korean: the reader of syllables (`form`) ------------------------------------------------------
KO_BOARD = ["바다", "강물", "파도", "연필", "책", "소방관"] + [
    "사자", "호랑이", "기린", "코끼리", "원숭이", "거북", "낙타", "치즈", "우유", "빵", "라면", "김치",
    "시계", "거울", "의자", "우산", "장갑", "양말", "안경"]
KO_HAND = {"바다": vec(a0=1, a10=.2), "강물": vec(a0=1, a11=.2), "파도": vec(a0=1, a12=.25),
           "연필": vec(a2=1, a14=.2), "책": vec(a2=1, a15=.2), "소방관": vec(a1=1, a13=.2),
           "소금": vec(a0=.6, a20=.8),   # near the sea cards only, but it shares 소 with the assassin 소방관
           "모래": vec(a0=.5, a21=.8)}   # a little less near them, and shares no syllable with any card
KO_WORDS = ["소금", "모래", "학교", "구름", "노래", "나무"]


def korean_robust(spec: str) -> RobustSpymaster:
    from agents.embeddings import get_backend

    embs = {"fk1": FakeEmbeddings(dim=DIM, vectors=KO_HAND, seed=7), "syllables": get_backend("syllables")}
    return RobustSpymaster(parse_spec(spec), "ko", vocabulary=KO_WORDS,
                           frequencies=np.linspace(1e-3, 1e-5, len(KO_WORDS)), embeddings=embs)


def test_the_syllable_reader_compares_sets_of_syllables():
    from agents.embeddings import get_backend

    s = get_backend("syllables")
    got = s.similarity(["개구리", "병원", "나무", "바다"], ["구리", "병실", "하늘", "바다"])
    assert np.allclose(got, [[2 / np.sqrt(6), 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]], atol=1e-6)
    assert s.covers(["소금", ""]).tolist() == [True, False] and s.languages == ("ko",)
    with pytest.raises(NotImplementedError):
        s.vectors(["소금"])


def test_a_korean_robust_spymaster_reads_syllables_only_when_asked():
    """RULES 4.1: clues by meaning. The reader of shared syllables steers clues to the letters they share
    with their targets, so it is an opt-in (`form` > 0), never the default."""
    pytest.importorskip("kiwipiepy")
    assert korean_robust("robust:fk1").backend_names == ("fk1",)
    assert korean_robust("robust:fk1?form=1").backend_names == ("fk1", "syllables")
    assert korean_robust("robust:fk1+syllables?form=1").backend_names == ("fk1", "syllables")  # not twice
    assert robust("robust:fk1?form=1").backend_names == ("fk1",)               # English: meaning only
    assert korean_robust("robust:fk1?form=1").consensus_weights() is None     # form 1: the plain mean
    assert np.allclose(korean_robust("robust:fk1?form=0.5").consensus_weights(), [2 / 3, 1 / 3])
    assert korean_robust("robust:fk1+syllables").consensus_weights() is None  # named, it counts as a model
    with pytest.raises(ValueError, match="form"):
        korean_robust("robust:fk1?form=-1")


def test_a_korean_clue_sharing_a_syllable_with_the_assassin_is_refused():
    """소금 is the best clue for the sea cards by meaning, but a reader of syllables goes from it to
    the assassin 소방관 (RULES 4.4 lets a shared syllable pass, so the clue is legal)."""
    pytest.importorskip("kiwipiepy")
    from engine.clues import check_clue
    from engine.duet import DuetState
    from tests.agents.test_spymasters import key_for_board

    assert check_clue("소금", 1, board=KO_BOARD, language="ko").legal
    obs = DuetState(KO_BOARD, key_for_board()).observe("A")
    meaning_only = korean_robust("robust:fk1?ztemp=0.4&row=0").give_clue(obs)
    with_form = korean_robust("robust:fk1?form=1&ztemp=0.4&row=0").give_clue(obs)
    assert meaning_only.word == "소금"
    assert with_form.word == "모래" and set(with_form.targets) <= {"바다", "강물", "파도"}
