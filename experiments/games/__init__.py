"""Each registered game's harness (named by `engine.game.GAMES[name].harness`): how to deal it from
the project's data, how bots play it, how a batch of it is simulated. The CLI and every tool that
works on "a game" go through `harness(name)` instead of branching on the game's name.

A harness module offers:
  deal_record(seed, lang, game, **options) -> record       `cnlab deal`
  DEAL_OPTIONS, SIMULATE_OPTIONS: the game's own options    (others are refused, not ignored)
  simulate(game, games, seed, lang, workers, backend, out, progress, **options) -> summary
  format_summary(summary) -> str                            `cnlab simulate`
  PLAYABLE: whether `cnlab play` has a terminal session for it
  open_actions(state, rng, lang) -> candidate moves beyond legal_actions (clues, guesses of words)
  hidden_variants(record_dict, seat, rng) -> records that differ only in what `seat` may not see
                                                           (of a played record: what its moves have not shown)
  action_weight(action) -> float (optional): how often random play picks a move
"""

from __future__ import annotations

from types import ModuleType

from engine.game import GAMES, game_spec


def harness(game: str) -> ModuleType:
    """The harness module of a registered game; ValueError (one line) for an unknown game."""
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return game_spec(game).harness_module()


def check_options(game: str, command: str, allowed: frozenset[str], given: dict) -> dict:
    """The options given (not None) that apply to this game; ValueError naming the first that does not."""
    given = {k: v for k, v in given.items() if v is not None}
    wrong = sorted(set(given) - allowed)
    if wrong:
        names = ", ".join("--" + w.replace("_", "-") for w in wrong)
        raise ValueError(f"{names} {'does' if len(wrong) == 1 else 'do'} not apply to `{command} {game}`")
    return given


def vocabulary_sample(lang: str, rng, k: int) -> list[str]:
    """k words of the clue vocabulary's most frequent 500: candidate clues for random play."""
    from agents.wordlists import clue_vocabulary

    words = list(clue_vocabulary(lang).words[:500])
    return [words[int(i)] for i in rng.choice(len(words), size=k, replace=False)]
