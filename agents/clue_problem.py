"""The game-neutral scoring core shared by every spymaster.

A *clue problem* is what a spymaster has to solve on its turn, whatever the game: the board words,
which of them are targets, which must be avoided and how badly (assassin heavy, bystanders light,
an opponent's agents in between), which cards the guesser can still touch, which words still block
clues (RULES 4.5), the clues already given, and a few numbers about the game state. Duet and
Codenames observations are two small adapters (`duet_problem`, `codenames_problem`).

The numeric side is precomputed once per game and per visible set:

* `CandidatePool`: the candidate clue words (the most frequent words of the language's clue
  vocabulary that *every* backend of the agent covers) and their unit vectors per backend;
* `BoardSims`: board x candidates cosine matrices (one matmul per backend per game);
* the legal mask of the clue filter, cached per (pool, visible set, covered set).

So a clue is a handful of vectorised numpy operations on (cards x candidates) arrays.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from agents.embeddings import Embeddings, get_backend

# Avoid-weights: how bad touching a card is, relative to a bystander (RULES 1.3, 3.5).
W_BYSTANDER = 1.0
W_OPPONENT = 2.0
W_ASSASSIN = 4.0


@dataclass(frozen=True)
class ClueProblem:
    """One spymaster turn, game-neutral.

    Arrays are indexed like `board`. `guessable` marks the cards the guesser may touch;
    `targets` ⊆ guessable are the cards the clue should lead to; `avoid` gives every other
    guessable card a weight (0 for targets and untouchable cards); `assassin` marks the cards
    whose touch loses at once.
    """

    game: str                          # "duet" or "codenames"
    language: str
    board: tuple[str, ...]
    targets: np.ndarray                # bool
    guessable: np.ndarray              # bool
    avoid: np.ndarray                  # float weights
    assassin: np.ndarray               # bool
    visible: tuple[str, ...]           # words that still block clues (RULES 4.5)
    covered: tuple[str, ...]
    used_clues: frozenset[str] = frozenset()
    state: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n_targets(self) -> int:
        return int(self.targets.sum())


# ---------------------------------------------------------------------------------------------
# adapters
# ---------------------------------------------------------------------------------------------
def duet_problem(obs, language: str = "en") -> ClueProblem:
    """A Duet spymaster's problem from its seat's observation (RULES 3).

    The partner guesses, judged by *my* side (3.5): my greens not yet covered are the targets,
    my blacks are assassins, my beiges cost the turn. A card the partner already marked as a
    bystander is known beige for its direction and cannot be guessed again (3.7).
    """
    seat = obs.seat
    partner = "B" if seat == "A" else "A"
    n = len(obs.words)
    key = obs.own_key
    guessable = np.array([not obs.green_covered[i] and partner not in obs.bystander_marks[i]
                          for i in range(n)], dtype=bool)
    targets = guessable & np.array([c == "G" for c in key], dtype=bool)
    assassin = guessable & np.array([c == "X" for c in key], dtype=bool)
    bystander = guessable & np.array([c == "N" for c in key], dtype=bool)
    avoid = np.where(assassin, W_ASSASSIN, np.where(bystander, W_BYSTANDER, 0.0))
    covered_both = [obs.green_covered[i] or len(obs.bystander_marks[i]) == 2 for i in range(n)]
    visible = tuple(w for w, c in zip(obs.words, covered_both) if not c)
    covered = tuple(w for w, c in zip(obs.words, covered_both) if c)
    used = frozenset(e.word for e in obs.history if e.kind == "clue" and e.word)
    mistakes_left = (math.inf if obs.mistakes_allowed is None else obs.bystander_tokens)
    state = {
        "tokens_left": obs.tokens_left,
        "greens_left": 15 - obs.greens_found,
        "my_targets_left": int(targets.sum()),
        "mistakes_left": mistakes_left,
        "check_tokens": obs.check_tokens,
        "bystander_tokens": obs.bystander_tokens,
        "partner_finished": obs.partner_finished,
        "seat": seat,
        "history": obs.history,
    }
    return ClueProblem("duet", language, tuple(obs.words), targets, guessable, avoid, assassin,
                       visible, covered, used, state)


def codenames_problem(obs, language: str = "en") -> ClueProblem:
    """A Codenames spymaster's problem (RULES 1) from engine.codenames' CodenamesObservation.

    `key` holds a letter per card (R, B, N bystander, X assassin; spymasters only), `revealed` the
    letter shown on each revealed card or None. Targets: my team's hidden agents (in the assassin
    ending, once they are all found, the assassin: RULES 2.3); to avoid: the assassin (heavy), the
    opponent's agents (they also end the turn and help the other team), bystanders (light).
    """
    words = tuple(obs.words)
    key = getattr(obs, "key", None)
    if key is None:
        raise ValueError("a Codenames spymaster needs the key in its observation (RULES 1.1)")
    mine = "R" if obs.team == "red" else "B"
    guessable = np.array([r is None for r in obs.revealed], dtype=bool)
    kind = np.array(list(key))
    targets = guessable & (kind == mine)
    assassin = guessable & (kind == "X")
    if getattr(obs, "variant", None) == "assassin_ending" and not targets.any():
        # RULES 2.3: a team whose agents are all found wins by touching the assassin, and no other way
        targets, assassin = assassin, np.zeros_like(assassin)
    bystander = guessable & (kind == "N")
    opponent = guessable & ~targets & ~assassin & ~bystander
    avoid = np.where(assassin, W_ASSASSIN, np.where(opponent, W_OPPONENT, np.where(bystander, W_BYSTANDER, 0.0)))
    used = frozenset(e.word for e in obs.history if e.kind == "clue" and e.word)
    state = {"my_targets_left": int(targets.sum()), "opponent_left": int(opponent.sum()),
             "seat": obs.seat, "history": ()}
    visible = tuple(w for w, g in zip(words, guessable) if g)
    covered = tuple(w for w, g in zip(words, guessable) if not g)
    return ClueProblem("codenames", language, words, targets, guessable, avoid, assassin,
                       visible, covered, used, state)


def problem_from_observation(obs, language: str) -> ClueProblem:
    """The clue problem of any registered observation type (agents.observations)."""
    from .observations import adapter_for

    return adapter_for(obs).problem(obs, language)


# ---------------------------------------------------------------------------------------------
# candidates, board similarities, legality
# ---------------------------------------------------------------------------------------------
class CandidatePool:
    """Candidate clue words every backend covers, with frequencies and per-backend unit vectors.

    `words` keeps the frequency order of the vocabulary (most frequent first), so a candidate's
    index is its frequency rank among the candidates.
    """

    def __init__(self, backends: Sequence[Embeddings], words: Sequence[str], frequencies: Sequence[float] | None = None):
        self.backends = list(backends)
        freq_of: dict[str, float] = {}
        for i, w in enumerate(words):
            if isinstance(w, str) and w.strip() and w not in freq_of:
                freq_of[w] = 1.0 if frequencies is None else float(frequencies[i])
        words = list(freq_of)
        freq = np.array([freq_of[w] for w in words], dtype=np.float64)
        mask = np.ones(len(words), dtype=bool)
        for emb in self.backends:
            mask &= emb.covers(words)
        self.words: list[str] = [w for w, ok in zip(words, mask) if ok]
        self.frequencies = np.maximum(freq[mask], 1e-12)
        self.index = {w: i for i, w in enumerate(self.words)}
        # rarity in [0, 1]: 0 for the most frequent candidate, 1 for the rarest (log-frequency scale)
        lf = np.log10(self.frequencies)
        span = max(float(lf.max() - lf.min()), 1e-9) if len(lf) else 1.0
        self.rarity = ((lf.max() - lf) / span).astype(np.float32) if len(lf) else np.zeros(0, np.float32)
        self.vectors: list[np.ndarray | None] = []
        for emb in self.backends:
            if emb.has_vectors:
                from agents.embeddings import embedded_vocabulary

                ev = embedded_vocabulary(emb, self.words, cache=not emb.name.startswith("fake"))
                assert ev.words == self.words
                self.vectors.append(ev.vectors)
            else:
                self.vectors.append(None)
        self._legal: "OrderedDict[tuple, np.ndarray]" = OrderedDict()
        self._boards: "OrderedDict[tuple, BoardSims]" = OrderedDict()
        self.board_rows: dict[str, int] = {}
        self.board_matrix: list[np.ndarray | None] = [None] * len(self.backends)
        # per backend, each candidate's mean and spread of similarity over the whole board list
        self.column_stats: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(self.backends)
        # and each listed word's mean and spread of similarity over every candidate
        self.row_stats: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(self.backends)
        self.board_language: str | None = None
        self._shared: dict[tuple, np.ndarray] = {}   # `shared` arrays of the board list
        self.base_legal: np.ndarray | None = None   # legal on an empty board
        # blocks[r]: the candidates listed word r alone forbids, as bits (np.packbits: a board's rows
        # are an eighth of the memory a bool matrix's would be, and OR-ed a byte at a time)
        self.blocks: np.ndarray | None = None
        self.grants: dict[int, np.ndarray] = {}      # listed word r -> which of `tied` it alone makes legal
        self.tied = np.zeros(0, int)                  # every such candidate (RULES 4.1: TOP beside HAT)
        self.tied_blocks: np.ndarray | None = None    # tied_blocks[r, k]: listed word r forbids tied[k]

    def precompute_boards(self, board_words: Sequence[str], language: str) -> None:
        """Per word of the board list, once: its similarity to every candidate and the candidates it
        forbids (RULES 4.1/4.3/4.4 judge each visible word on its own). A game's board then takes
        rows by indexing, and forked workers share the arrays."""
        words = list(dict.fromkeys(board_words))
        if list(self.board_rows) == words and self.board_language == language:
            return
        for b, (emb, vecs) in enumerate(zip(self.backends, self.vectors)):
            if vecs is not None:
                self.board_matrix[b] = (board_vectors(emb, words) @ vecs.T).astype(np.float32)
        self.column_stats = [None if m is None else column_stats(m) for m in self.board_matrix]
        self.row_stats = [None if m is None else column_stats(m.T) for m in self.board_matrix]
        self.base_legal = legal_mask(self.words, [], [], language)
        alone = [legal_mask(self.words, [w], [], language) for w in words]
        self.blocks = np.packbits(np.stack([self.base_legal & ~m for m in alone]), axis=1)
        # RULES 4.1: a position word tied to a listed word's meaning (TOP beside HAT) is legal only
        # with that word visible, and still subject to every visible word's blocks (`tied_blocks`)
        gained = [np.flatnonzero(m & ~self.base_legal) for m in alone]
        granting = {r: g for r, g in enumerate(gained) if len(g)}
        self.tied = np.unique(np.concatenate(list(granting.values()))) if granting else np.zeros(0, int)
        self.grants = {r: np.isin(self.tied, g) for r, g in granting.items()}
        if len(self.tied):   # what each listed word forbids of them by the other rules (4.3/4.4)
            from engine.clues import ClueOptions

            tied = [self.words[i] for i in self.tied]
            agreed = ClueOptions(allowed_clues=frozenset(tied))
            self.tied_blocks = np.stack([~legal_mask(tied, [w], [], language, agreed) for w in words])
        self.board_rows = {w: i for i, w in enumerate(words)}
        self.board_language = language
        self._shared = {}

    def listed_legal(self, rows: Sequence[int]) -> np.ndarray:
        """Which candidates are legal on a board of listed words (their rows, every one visible),
        from the precomputed arrays: what `legal_mask` gives for those words."""
        blocked = np.unpackbits(np.bitwise_or.reduce(self.blocks[rows], axis=0), count=len(self.words))
        mask = self.base_legal & ~blocked.view(bool)
        granted = [self.grants[r] for r in rows if r in self.grants]
        if granted:   # tied to a visible word, and forbidden by none
            tied = np.logical_or.reduce(granted)
            mask[self.tied] = tied & ~self.tied_blocks[rows].any(axis=0)
        return mask

    def standard_matrix(self, b: int, row: float = 0.0) -> np.ndarray:
        """Backend b's board-list similarities in each candidate's own units, as `StandardSims`
        reads a listed board (`standardise` with the list's column and row stats): computed once
        per `row`, read-only, so a board's views are rows of it and forked workers share it."""
        return self.shared((b, float(row)), lambda: standardise(
            self.board_matrix[b], *self.column_stats[b], row, *self.row_stats[b]))

    def shared(self, key: tuple, build) -> np.ndarray:
        """An array derived from the board list, built once by `build()` and kept read-only (so
        forked workers share it and no board can alter it); forgotten when the list changes."""
        z = self._shared.get(key)
        if z is None:
            z = build()
            z.flags.writeable = False
            self._shared[key] = z
        return z

    def __len__(self) -> int:
        return len(self.words)

    # -- board similarities, one matmul per backend, cached per board ----------------------
    def board_sims(self, board: Sequence[str]) -> "BoardSims":
        key = tuple(board)
        sims = self._boards.get(key)
        if sims is None:
            sims = BoardSims(self, key)
            self._boards[key] = sims
            while len(self._boards) > 8:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        return sims

    # -- legality, cached per visible set -------------------------------------------------
    def legal_mask(self, problem: ClueProblem) -> np.ndarray:
        key = (problem.language, problem.visible, problem.covered)
        mask = self._legal.get(key)
        rows = [self.board_rows.get(w) for w in problem.visible]
        if mask is None and problem.language == self.board_language and None not in rows:
            mask = self.listed_legal(rows)
        elif mask is None:
            mask = legal_mask(self.words, problem.board, problem.covered, problem.language)
            self._legal[key] = mask
            while len(self._legal) > 64:
                self._legal.popitem(last=False)
        else:
            self._legal.move_to_end(key)
        return mask


def backend_memo(emb: Embeddings, name: str, *key) -> dict:
    """A memo kept on the backend object itself, per its version and `key`: a process-wide table keyed
    by id(emb) handed a model's vectors to the next model built at the same address once the first was
    gone (a user's own backend keeps version "0")."""
    return vars(emb).setdefault(name, {}).setdefault((emb.version, *key), {})


def board_vectors(emb: Embeddings, words: Sequence[str]) -> np.ndarray:
    """Unit vectors of board words, memoised per backend (boards reuse a few hundred words)."""
    memo = backend_memo(emb, "_board_vector_memo")
    missing = [w for w in dict.fromkeys(words) if w not in memo]
    if missing:
        ok = emb.covers(missing)
        good = [w for w, c in zip(missing, ok) if c]
        if good:
            for w, v in zip(good, emb.vectors(good)):
                memo[w] = v
        for w, c in zip(missing, ok):
            if not c:
                memo[w] = np.zeros(emb.dim, dtype=np.float32)
    return np.stack([memo[w] for w in words]) if words else np.zeros((0, emb.dim), np.float32)


class BoardSims:
    """`raw[b]` = cosine(board card, candidate) for backend b, shape (cards, candidates), float32.

    `scale[b]` is the standard deviation of that matrix: margins divided by it are comparable
    across backends (glove's cosines spread wider than use-m3's). Computed when first read (the
    spymasters that read z-scores never do).
    """

    def __init__(self, pool: CandidatePool, board: tuple[str, ...]):
        self.board = board
        self.pool = pool
        self._raw: list[np.ndarray] | None = None
        self._scale: list[float] | None = None
        rows = [pool.board_rows.get(w) for w in board]
        # the board's rows of the pool's board list, when every card is listed (else None)
        self.rows: list[int] | None = rows if None not in rows else None

    @property
    def raw(self) -> list[np.ndarray]:
        """Built when first read: a spymaster that reads the pool's standardised rows of a listed
        board (`StandardSims`) never copies the cosines."""
        if self._raw is None:
            pool, board = self.pool, self.board
            self._raw = []
            for emb, vecs, pre in zip(pool.backends, pool.vectors, pool.board_matrix):
                if pre is not None and self.rows is not None:
                    m = pre[self.rows]
                elif vecs is not None:
                    m = (board_vectors(emb, list(board)) @ vecs.T).astype(np.float32)
                else:
                    ok = emb.covers(list(board))
                    m = np.zeros((len(board), len(pool.words)), np.float32)
                    if ok.any():
                        m[ok] = emb.similarity([w for w, c in zip(board, ok) if c], pool.words)
                self._raw.append(m)
        return self._raw

    @property
    def scale(self) -> list[float]:
        if self._scale is None:
            self._scale = [float(m.std()) or 1.0 for m in self.raw]
        return self._scale


def column_stats(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate (column): the mean and standard deviation of its similarity to the cards."""
    mu = matrix.mean(axis=0, dtype=np.float64).astype(np.float32)
    sd = np.maximum(matrix.std(axis=0, dtype=np.float64), 1e-3).astype(np.float32)
    return mu, sd


class StandardSims:
    """Board similarities in each candidate's own units: z = (cosine - mu) / sd, with mu and sd the
    candidate's mean and spread over the board list (over this board when the list is unknown).

    Why: a rare or vague word sits close to everything in some models (a hub: 0.4-0.5 to unrelated
    cards in use-m3) and far from everything in others; raw cosines then promise a partner links
    that only one model sees. In z units a clue counts only for the cards it singles out, which is
    what different models (and people) tend to agree on. Same interface as `BoardSims`.
    """

    def __init__(self, sims: BoardSims, pool: CandidatePool, row: float = 0.0):
        self.board = sims.board
        self.pool, self.row = pool, row
        rows = sims.rows
        self.raw = []
        for b in range(len(pool.backends)):
            if rows is not None and pool.board_matrix[b] is not None:     # rows of the list's matrix
                self.raw.append(pool.standard_matrix(b, row)[rows])
            else:
                m = sims.raw[b]
                self.raw.append(standardise(m, *(pool.column_stats[b] or column_stats(m)), row))
        # the board's rows of the list when every view is read from it (else None)
        self.rows = rows if rows is not None and all(m is not None for m in pool.board_matrix) else None
        self.scale = [1.0] * len(self.raw)


def standardise(m: np.ndarray, mu: np.ndarray, sd: np.ndarray, row: float = 0.0,
                mu_r: np.ndarray | None = None, sd_r: np.ndarray | None = None) -> np.ndarray:
    """(cosine - mu) / sd per candidate (column); with `row` > 0 blended with the card's own units
    (its cosine to the clue against its cosines to every candidate: mu_r, sd_r per card, from `m`
    when not given), so a card that sits near everything (a hub card) is not promised:
    (1 - row) (m - mu) / sd + row (m - mu_r) / sd_r, as m * a - c in one pass."""
    if row <= 0:
        return (m - mu[None, :]) / sd[None, :]
    if mu_r is None:
        mu_r, sd_r = column_stats(m.T)
    a = ((1.0 - row) / sd)[None, :] + (row / sd_r)[:, None]
    c = ((1.0 - row) * mu / sd)[None, :] + (row * mu_r / sd_r)[:, None]
    return m * a - c


def _fallback_legal_mask(words: Sequence[str], visible: Sequence[str], language: str) -> np.ndarray:
    """Used only when engine.clues is not importable: the plain RULES 4.3/4.4 substring checks."""
    vis = [v.lower() for v in visible]
    out = np.ones(len(words), dtype=bool)
    for j, w in enumerate(words):
        lw = w.lower()
        if not lw.isalpha():
            out[j] = False
            continue
        for v in vis:
            if lw == v or (len(v) >= 3 and v in lw) or (len(lw) >= 3 and lw in v) or \
                    (language == "ko" and len(lw) == 1 and lw in v):
                out[j] = False
                break
    return out


def legal_mask(words: Sequence[str], board: Sequence[str], covered: Sequence[str], language: str,
               options=None) -> np.ndarray:
    """Which candidates the project's clue filter accepts on this board (RULES 4; `options`: the
    filter's `ClueOptions`)."""
    try:
        from engine.clues import ClueFilter
    except ImportError:
        gone = set(covered)
        return _fallback_legal_mask(words, [w for w in board if w not in gone], language)
    flt = ClueFilter(board=list(board), language=language, covered=list(covered), options=options)
    return np.asarray(flt.legal_mask(list(words)), dtype=bool)


# ---------------------------------------------------------------------------------------------
# pools per (backends, language, size), process-wide
# ---------------------------------------------------------------------------------------------
_POOLS: "OrderedDict[tuple, CandidatePool]" = OrderedDict()


def candidate_pool(backends: Sequence[Embeddings | str], language: str, size: int = 20000,
                   words: Sequence[str] | None = None, frequencies: Sequence[float] | None = None,
                   keep: Callable[[Sequence[str], str], np.ndarray] | None = None) -> CandidatePool:
    """The shared pool for these backends: the `size` most frequent vocabulary words they all cover
    (or `words`); with `keep`, only those of them it marks (`keep(words, language)`, a mask)."""
    embs = [get_backend(b) for b in backends]
    if words is None:
        from agents.wordlists import clue_vocabulary

        vocab = clue_vocabulary(language)
        words, frequencies = list(vocab.words), list(vocab.frequencies)
        # keep `size` candidates after the coverage filter
        mask = np.ones(len(words), dtype=bool)
        for e in embs:
            mask &= e.covers(words)
        keep_covered = np.flatnonzero(mask)[:size]
        words = [words[i] for i in keep_covered]
        frequencies = [frequencies[i] for i in keep_covered]
    if keep is not None:
        marked = np.asarray(keep(list(words), language), dtype=bool)
        frequencies = None if frequencies is None else [f for f, k in zip(frequencies, marked) if k]
        words = [w for w, k in zip(words, marked) if k]
    # the frequencies too: two agents on one word list with other frequencies (a tool's `frequencies=`)
    # score rarity apart; the first one's pool made the second's clues
    key = (tuple((id(e), e.version) for e in embs), language, tuple(words),
           None if frequencies is None else tuple(map(float, frequencies)))
    pool = _POOLS.get(key)
    if pool is None:
        pool = CandidatePool(embs, words, frequencies)
        _POOLS[key] = pool
        while len(_POOLS) > 6:
            _POOLS.popitem(last=False)
    return pool


# ---------------------------------------------------------------------------------------------
# vectorised scoring helpers
# ---------------------------------------------------------------------------------------------
def top_targets(sims: np.ndarray, targets: np.ndarray, kmax: int) -> tuple[np.ndarray, np.ndarray]:
    """For every candidate, its `kmax` most similar target cards, best first.

    Returns (values, card indices), both shape (kmax, candidates).
    """
    tidx = np.flatnonzero(targets)
    kmax = min(kmax, len(tidx))
    t = sims[tidx]                                   # (T, V)
    order = np.argsort(-t, axis=0, kind="stable")[:kmax]
    vals = np.take_along_axis(t, order, axis=0)
    return vals, tidx[order]


def danger(sims: np.ndarray, avoid: np.ndarray, bias: np.ndarray | float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """For every candidate, the highest (similarity + bias) among cards to avoid, and which card."""
    aidx = np.flatnonzero(avoid > 0)
    if len(aidx) == 0:
        v = sims.shape[1]
        return np.full(v, -np.inf, np.float32), np.full(v, -1)
    b = np.broadcast_to(np.asarray(bias, dtype=np.float32), avoid.shape)[aidx][:, None]
    a = sims[aidx] + b
    j = np.argmax(a, axis=0)
    return a[j, np.arange(a.shape[1])], aidx[j]


def prefilter(sims: "BoardSims", problem: ClueProblem, ok: np.ndarray, floors: Sequence[float],
              cap: int = 4000) -> np.ndarray:
    """Indices of the candidates worth scoring: legal, and for every backend b the best target at
    least `floors[b]` above the most similar card to avoid (a clue failing this cannot win: every
    k-th target margin is at most the first). At most `cap`, the best first-target margins kept."""
    keep, gap = passing(sims, problem, ok, floors)
    return best_of(keep, gap, cap)


def passing(sims: "BoardSims", problem: ClueProblem, ok: np.ndarray, floors: Sequence[float],
            nearest_from: int | None = None):
    """`prefilter` without the cap: the passing candidates' indices and their margins over the floor.

    With `nearest_from`, also, over every candidate, whether under each view from that one on the
    touchable card nearest to it is no assassin (an assassin veto on the nearest card, from the same
    maxima: no pass over the rows of its own): (keep, gap, clear)."""
    gap = None
    clear = None if nearest_from is None else np.ones(len(ok), dtype=bool)
    avoid = problem.avoid > 0
    tidx = np.flatnonzero(problem.targets)
    if nearest_from is None:
        parts = (np.flatnonzero(avoid),)
    else:           # the avoided cards in two parts: max over both is the same number
        parts = (np.flatnonzero(avoid & ~problem.assassin), np.flatnonzero(avoid & problem.assassin))
    for v, (raw, floor, scale) in enumerate(zip(sims.raw, floors, sims.scale)):
        best = row_max(raw, tidx)
        maxima = [row_max(raw, rows) if len(rows) else None for rows in parts]
        known = [m for m in maxima if m is not None]
        worst = (known[0] if len(known) == 1 else np.maximum(*known)) if known else np.full_like(best, -np.inf)
        g = (best - worst - floor) / scale
        gap = g if gap is None else np.minimum(gap, g)
        if clear is not None and v >= nearest_from and maxima[1] is not None:
            near = best if maxima[0] is None else np.maximum(best, maxima[0])
            clear &= near > maxima[1]
    keep = np.flatnonzero(ok & (gap >= 0))
    return (keep, gap[keep]) if clear is None else (keep, gap[keep], clear)


def row_max(matrix: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The column-wise maximum of the listed rows, row by row (no copy of the rows)."""
    out = matrix[rows[0]].copy()
    for r in rows[1:]:
        np.maximum(out, matrix[r], out=out)
    return out


def best_of(keep: np.ndarray, gap: np.ndarray, cap: int) -> np.ndarray:
    """The `cap` indices of `keep` with the largest `gap`, in index order."""
    if len(keep) > cap:
        keep = keep[np.argpartition(-gap, cap - 1)[:cap]]
        keep.sort()
    return keep
