"""Weak reference agents: what a bot's decisions are measured against."""

from __future__ import annotations

from .base import ClueDecision, Spymaster, require_observation
from .spec import AgentSpec, check_params


class RandomSpymaster(Spymaster):
    """A clue drawn at random from the 2,000 commonest vocabulary words not on the board, for one or
    two random own targets. Needs no model; its clues carry no meaning, yet each passes the clue
    filter (RULES 4) on the words still visible, as every bot's does. It takes no parameter;
    backends named in its spec (crossplay gives every spymaster the panel's) are not loaded."""

    name = "random"

    @classmethod
    def models_read(cls, spec):
        return frozenset()   # it reads no model, whatever its spec names
    defaults: dict = {}

    def __init__(self, spec: AgentSpec, language: str = "en"):
        super().__init__()
        check_params(spec, self.defaults, f"{self.name} spymaster")
        from .embeddings.registry import check_backends

        check_backends(spec.backends)   # none is loaded
        from .wordlists import clue_vocabulary

        self.language = language
        self.candidates = clue_vocabulary(language).top(2000)

    def give_clue(self, obs) -> ClueDecision:
        require_observation(obs)
        board = {w.lower() for w in obs.words}
        targets = [obs.words[i] for i in obs.own_targets()]

        def draw() -> str:
            while True:
                word = self.candidates[int(self.rng.integers(len(self.candidates)))]
                if word.lower() not in board:
                    return word

        word = draw()
        k = min(len(targets), int(self.rng.integers(1, 3)))
        chosen = [targets[i] for i in sorted(self.rng.choice(len(targets), size=k, replace=False))]
        legal = self._referee(obs)
        for _ in range(10_000):   # a clue the filter refuses is drawn again (the draws before it unchanged)
            if legal(word, k):
                break
            word = draw()
        return ClueDecision(word, k, tuple(chosen))

    def _referee(self, obs):
        """(word, number) -> whether the clue filter accepts it on this observation's board, judged as
        the engines' referee judges it (RULES 4.5: covered cards no longer block; a Pictures board
        blocks no words, RULES 2.2)."""
        from .clue_problem import problem_from_observation

        try:
            from engine.clues import ClueFilter
        except ImportError:  # the filter's packages are missing: the board check above is all there is
            return lambda word, number: True
        if getattr(obs, "game", None) == "pictures":
            board, covered = [], []
        else:
            problem = problem_from_observation(obs, self.language)
            board, covered = list(problem.visible), list(problem.covered)
        flt = ClueFilter(board=board, language=self.language, covered=covered)
        return lambda word, number: flt.check(word, number).legal

    def choose_cover(self, obs) -> str:
        """Codenames two-player variant (RULES 1.8): a random hidden opponent agent to cover."""
        require_observation(obs)
        letter = "B" if obs.team == "red" else "R"
        cards = [i for i in obs.hidden() if obs.key[i] == letter]
        if not cards:
            raise ValueError("no opponent agent left to cover")
        return obs.words[cards[int(self.rng.integers(len(cards)))]]
