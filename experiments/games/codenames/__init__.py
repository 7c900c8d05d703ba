"""Codenames' and Codenames Pictures' harness: dealing, bot play, batch runs (Codenames only)."""

from __future__ import annotations

from experiments.games.codenames.loop import play_codenames
from experiments.games.codenames.batch import CodenamesRun, format_summary, simulate_codenames
from experiments.games.codenames.dealing import deal_record

DEAL_OPTIONS = frozenset({"variant", "invalid_clue", "words"})
SIMULATE_OPTIONS = frozenset({"spymaster", "guesser", "variant", "words"})
PLAYABLE = True


def simulate(game: str, games: int, seed: int, lang: str, workers: int = 1, backend: str = "local",
             out=None, progress: bool = True, isolate: bool = False, move_timeout: float = 60.0,
             **options) -> dict:
    if game != "codenames":
        raise ValueError(f"simulate plays Codenames with words; {game} needs picture-reading bots")
    if options.get("words") is not None:   # the file's path, as run.json names it
        options = {**options, "words": str(options["words"])}
    run = CodenamesRun(games=games, seed=seed, lang=lang, **options)
    return simulate_codenames(run, out=out, workers=workers, progress=progress, backend=backend, isolate=isolate,
                              move_timeout=move_timeout)


def open_actions(state, rng, lang: str = "en") -> list:
    """Candidate moves beyond `legal_actions`: clues from the vocabulary and a board word, from
    every seat, and guesses out of turn. The rules decide which apply."""
    from engine.actions import Clue, Guess

    from experiments.games import vocabulary_sample

    words = vocabulary_sample(lang, rng, 3) + [state.words[int(rng.integers(len(state.words)))]]
    acts = [Clue(seat, w, int(rng.integers(0, 4))) for seat in state.seats for w in words]
    acts += [Guess(seat, state.words[int(rng.integers(len(state.words)))]) for seat in state.seats]
    return acts


def hidden_variants(data: dict, seat: str, rng) -> list[dict]:
    """Guessers do not see the key (RULES 1.1): any reshuffle of it among the cards still hidden
    (not guessed, not covered), same counts, same starting team, is the same game to them.
    Spymasters see everything."""
    if seat.endswith("spymaster"):
        return []
    shown = {a.get("guess", a.get("cover")) for a in data.get("actions", ())}
    letters = list(data["key"])
    hidden = [i for i, w in enumerate(data["words"]) if w not in shown]
    for i, c in zip(hidden, rng.permutation([letters[i] for i in hidden])):
        letters[i] = str(c)
    letters = "".join(letters)
    return [{**data, "key": letters}] if letters != data["key"] else []


__all__ = ["DEAL_OPTIONS", "PLAYABLE", "SIMULATE_OPTIONS", "deal_record", "format_summary", "play_codenames",
           "simulate"]
