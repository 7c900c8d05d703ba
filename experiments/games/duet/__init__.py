"""Codenames Duet's harness: dealing from the word lists and mission map, bot play, batch runs."""

from __future__ import annotations

from experiments.games.duet.dealing import deal_duet_record as deal_record
from experiments.games.duet.loop import DuetSeat, play_duet
from experiments.games.duet.batch import DuetRun, format_summary
from experiments.games.duet.batch import simulate as _simulate

DEAL_OPTIONS = frozenset({"mission", "missions_file", "tokens", "invalid_clue", "words"})
SIMULATE_OPTIONS = frozenset({"spymaster", "guesser", "seat_b_spymaster", "seat_b_guesser", "mission",
                              "missions_file", "tokens", "words"})
PLAYABLE = True


def simulate(game: str, games: int, seed: int, lang: str, workers: int = 1, backend: str = "local",
             out=None, progress: bool = True, isolate: bool = False, move_timeout: float = 60.0,
             **options) -> dict:
    run = DuetRun(games=games, seed=seed, lang=lang, spymaster=options.get("spymaster"),
                  **{k: v for k, v in dict(guesser=options.get("guesser"), spymaster_b=options.get("seat_b_spymaster"),
                                           guesser_b=options.get("seat_b_guesser"), mission=options.get("mission"),
                                           tokens=options.get("tokens"),
                                           missions_file=str(options["missions_file"]) if options.get("missions_file")
                                           else None,
                                           words=str(options["words"]) if options.get("words") is not None
                                           else None).items() if v is not None})
    run.validate()
    return _simulate(run, out=out, workers=workers, backend=backend, progress=progress, isolate=isolate,
                     move_timeout=move_timeout)


def open_actions(state, rng, lang: str = "en") -> list:
    """Candidate moves beyond `legal_actions` for random play and the contract suite: clues from
    the clue vocabulary (and a visible board word, illegal when the game referees clues), from
    every seat, legal or not. The rules, not this list, decide which apply."""
    from engine.actions import Clue, Guess

    from experiments.games import vocabulary_sample

    words = vocabulary_sample(lang, rng, 3) + [state.words[int(rng.integers(len(state.words)))]]
    acts = [Clue(seat, w, int(rng.integers(0, 4))) for seat in state.seats for w in words]
    acts.append(Clue(state.seats[int(rng.integers(2))], words[0], 12))           # RULES 3.4: numbers 0-9
    acts += [Guess(seat, state.words[int(rng.integers(len(state.words)))]) for seat in state.seats]
    return acts


def hidden_variants(data: dict, seat: str, rng) -> list[dict]:
    """Records that differ from `data` only in what `seat` may not see: the other side's key,
    reshuffled among the cards that carry the same letter on this seat's side (RULES 3.2's
    pair counts stay, so the key stays valid) and that this seat has not guessed (its guesses
    showed the other side there)."""
    mine, theirs = ("A", "B") if seat == "A" else ("B", "A")
    own, other = data["key"][mine], list(data["key"][theirs])
    guessed = {a.get("guess") for a in data.get("actions", ()) if a.get("seat") == mine}
    for letter in set(own):
        cells = [i for i, c in enumerate(own) if c == letter and data["words"][i] not in guessed]
        values = [other[i] for i in cells]
        for i, v in zip(cells, rng.permutation(values)):
            other[i] = str(v)
    variant = {**data, "key": {mine: own, theirs: "".join(other)}}
    return [variant] if variant["key"] != data["key"] else []


__all__ = ["DEAL_OPTIONS", "PLAYABLE", "SIMULATE_OPTIONS", "DuetSeat", "deal_record", "format_summary",
           "play_duet", "simulate"]
