"""What every vocabulary-based spymaster shares: spec parameters, the candidate pool, the legal mask."""

from __future__ import annotations

import unicodedata
from typing import Any, Mapping, Sequence

import numpy as np

from agents.base import ClueDecision, Spymaster, require_observation
from agents.clue_problem import BoardSims, CandidatePool, ClueProblem, candidate_pool, problem_from_observation
from agents.embeddings import DEFAULT_BACKEND, Embeddings, get_backend
from agents.spec import AgentSpec, Limit, check_params, whole


class PoolSpymaster(Spymaster):
    """A spymaster that scores every candidate of a precomputed pool at once.

    Common spec parameters: `vocab` (candidate vocabulary size, default 20000; at least 50: with
    fewer, the clue filter can refuse every candidate on a board). `limits` (agents.spec.Limit)
    says what each numeric parameter may be; a value outside them is refused when the agent is built.
    Tests and tools may pass `vocabulary=[words]` (and `frequencies`) and
    `embeddings={"name": Embeddings}` to use a hand-made vocabulary or backend.
    """

    name = "?"
    default_backends = (DEFAULT_BACKEND,)
    defaults: dict[str, Any] = {"vocab": 20000}
    limits: dict[str, Limit] = {"vocab": whole(50)}

    def __init__(self, spec: AgentSpec | None = None, language: str = "en", *,
                 vocabulary: Sequence[str] | None = None, frequencies: Sequence[float] | None = None,
                 embeddings: Mapping[str, Embeddings] | None = None):
        super().__init__()
        spec = spec or AgentSpec(self.name)
        check_params(spec, self.defaults, f"{self.name} spymaster", self.limits)
        self.params = {**self.defaults, **spec.params}
        self.language = language
        self.backend_names = self.models(spec)
        embeddings = embeddings or {}
        self.backends = [embeddings[n] if n in embeddings else get_backend(n) for n in self.backend_names]
        self._vocabulary = list(vocabulary) if vocabulary is not None else None
        self._frequencies = list(frequencies) if frequencies is not None else None
        self._pool: CandidatePool | None = None

    def p(self, key: str) -> Any:
        return self.params[key]

    def models(self, spec: AgentSpec) -> tuple[str, ...]:
        """The backends this spymaster reads, once its parameters and language are set: the spec's."""
        return tuple(spec.backends) or (DEFAULT_BACKEND,)

    def prepare(self) -> None:
        super().prepare()
        self.pool.precompute_boards(self.listed_words(), self.language)  # before any game

    @property
    def pool(self) -> CandidatePool:
        if self._pool is None:
            self._pool = candidate_pool(self.backends, self.language, int(self.p("vocab")),
                                        words=self._vocabulary, frequencies=self._frequencies,
                                        keep=self.candidate_filter())
            if not len(self._pool):
                raise ValueError(f"{self.name} spymaster: no candidate clue is covered by "
                                 f"{'+'.join(self.backend_names)}")
        return self._pool

    def candidate_filter(self):
        """Which of the `vocab` words may be candidates at all (`candidate_pool`'s `keep`): all."""
        return None

    def candidates(self, problem: ClueProblem) -> np.ndarray:
        """Candidates the clue filter accepts on this board and not given before in this game."""
        pool = self.pool
        ok = pool.legal_mask(problem).copy()
        for w in problem.used_clues:   # as it was typed: 'TRY' or a decomposed Korean word is 'try', '사과'
            for form in {w, w.lower(), unicodedata.normalize("NFC", w).lower()}:
                j = pool.index.get(form)
                if j is not None:
                    ok[j] = False
        return ok

    def give_clue(self, obs) -> ClueDecision:
        require_observation(obs)
        problem = problem_from_observation(obs, self.language)
        pool = self.pool
        sims = pool.board_sims(problem.board)
        ok = self.candidates(problem)
        if not ok.any():
            raise RuntimeError(f"{self.name} spymaster: the clue filter refuses every candidate on this board")
        if problem.n_targets == 0:  # nothing to point at (should not be asked): a safe legal word
            j = int(np.flatnonzero(ok)[0])
            return ClueDecision(pool.words[j], 0, (), 0.0, {"reason": "no targets"})
        return self.choose(problem, pool, sims, ok)

    def choose(self, problem: ClueProblem, pool: CandidatePool, sims: BoardSims, ok: np.ndarray) -> ClueDecision:
        raise NotImplementedError

    def choose_cover(self, obs) -> str:
        """Codenames two-player variant (RULES 1.8): which opponent agent to cover after our turn.

        Cover the hidden opponent agent most similar to our remaining agents: it is the
        distractor that would most often stand between our clues and our cards.
        """
        require_observation(obs)
        problem = problem_from_observation(obs, self.language)
        opponent = problem.guessable & ~problem.targets & ~problem.assassin & (problem.avoid >= 2.0)
        opp = np.flatnonzero(opponent)
        if not len(opp):
            raise ValueError("no opponent agent left to cover")
        tidx = np.flatnonzero(problem.targets)
        if not len(tidx):
            return problem.board[int(opp[0])]
        from agents.clue_problem import board_vectors

        emb = self.backends[0]
        if emb.has_vectors:
            vecs = board_vectors(emb, list(problem.board))
            sim = vecs[opp] @ vecs[tidx].T
        else:
            sim = emb.similarity([problem.board[i] for i in opp], [problem.board[i] for i in tidx])
        return problem.board[int(opp[int(np.argmax(sim.max(axis=1)))])]

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def best_index(score: np.ndarray) -> tuple[int, ...]:
        """argmax of an array with -inf for forbidden entries; ties go to the first (most frequent)."""
        flat = int(np.argmax(score))
        return np.unravel_index(flat, score.shape)

    @staticmethod
    def decision(pool: CandidatePool, problem: ClueProblem, j: int, number: int, target_cards: Sequence[int],
                 score: float, **details) -> ClueDecision:
        return ClueDecision(pool.words[j], int(number), tuple(problem.board[i] for i in target_cards),
                            float(score), details)
