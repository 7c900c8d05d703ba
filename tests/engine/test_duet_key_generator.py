"""The key generator draws uniformly among keys with the exact structure.  RULES 3.2"""

import numpy as np
import pytest
from scipy import stats

from engine.duet import CELL_COUNTS, DuetKey, generate_key
from engine.duet.key import key_problem

N_KEYS = 10_000
PAIRS = list(CELL_COUNTS)


def cell_pair_counts(keys: list[DuetKey]) -> np.ndarray:
    """counts[cell, pair type] over many keys."""
    counts = np.zeros((25, len(PAIRS)), dtype=np.int64)
    index = {p: j for j, p in enumerate(PAIRS)}
    for k in keys:
        for cell, pair in enumerate(zip(k.a, k.b)):
            counts[cell, index[pair]] += 1
    return counts


def uniformity_pvalue(counts: np.ndarray) -> float:
    """Chi-square test that every cell carries each pair type with probability count/25."""
    expected = np.array([CELL_COUNTS[p] for p in PAIRS], dtype=float) / 25 * counts.sum(axis=1, keepdims=True)
    chi2 = ((counts - expected) ** 2 / expected).sum()
    dof = counts.shape[0] * (counts.shape[1] - 1)
    return float(stats.chi2.sf(chi2, dof))


@pytest.fixture(scope="module")
def keys():
    return [generate_key(np.random.default_rng([1234, i])) for i in range(N_KEYS)]


def test_every_generated_key_has_the_exact_structure(keys):  # RULES 3.2
    assert all(key_problem(k.a, k.b) is None for k in keys)
    assert len({(k.a, k.b) for k in keys}) == N_KEYS  # 25!/(3!1!5!1!5!1!1!1!7!) keys: no repeats


def test_cell_frequencies_are_uniform(keys):  # RULES 3.2
    assert uniformity_pvalue(cell_pair_counts(keys)) > 1e-3


def test_the_uniformity_check_catches_a_biased_generator():  # RULES 3.2
    """A generator that keeps the structure but favours putting greens in the first row fails."""
    def biased(rng):
        k = generate_key(rng)
        if rng.random() < 0.15 and k.a[0] != "G":  # swap a green pair into cell 0
            j = next(i for i in range(25) if k.a[i] == "G")
            a, b = list(k.a), list(k.b)
            a[0], a[j], b[0], b[j] = a[j], a[0], b[j], b[0]
            k = DuetKey("".join(a), "".join(b))
        return k

    biased_keys = [biased(np.random.default_rng([99, i])) for i in range(N_KEYS)]
    assert all(key_problem(k.a, k.b) is None for k in biased_keys)
    assert uniformity_pvalue(cell_pair_counts(biased_keys)) < 1e-6


def test_same_seed_same_key():  # RULES 3.2 (reproducibility)
    assert generate_key(np.random.default_rng(5)) == generate_key(np.random.default_rng(5))
