"""Spy's Word's harness: dealing from the word packs, bot play, batch runs."""

from __future__ import annotations

from experiments.games.spyword.dealing import deal_record
from experiments.games.spyword.batch import format_summary, simulate_spyword
from experiments.games.spyword.loop import play_game

DEAL_OPTIONS = frozenset({"players"})
SIMULATE_OPTIONS = frozenset({"players", "bot", "weaken"})
PLAYABLE = False


def simulate(game: str, games: int, seed: int, lang: str, workers: int = 1, backend: str = "local",
             out=None, progress: bool = True, isolate: bool = False, move_timeout: float = 60.0,
             **options) -> dict:
    return simulate_spyword(games, seed=seed, lang=lang, out=out, workers=workers, progress=progress,
                            backend=backend, isolate=isolate, move_timeout=move_timeout, **options)


def open_actions(state, rng, lang: str = "en") -> list:
    """Candidate moves beyond `legal_actions`: the speaker's clue (a vocabulary word, or the
    speaker's own word, RULES 5.7), the ghost's guess, and a clue out of turn."""
    from engine.spyword import GhostGuess, GiveClue

    from experiments.games import vocabulary_sample

    words = vocabulary_sample(lang, rng, 2)
    acts = []
    if state.speaker:
        acts += [GiveClue(state.speaker, w) for w in words]
        own = state.word_of(state.speaker)
        if own:
            acts.append(GiveClue(state.speaker, own))
    pending = getattr(state, "pending", None)
    if pending:
        acts += [GhostGuess(pending, words[0]), GhostGuess(pending, state.citizen_word)]
    acts.append(GiveClue(state.seats[int(rng.integers(len(state.seats)))], words[-1]))
    return acts


def action_weight(action) -> float:
    """Random play's weight of a move: leaving, kicking and disconnecting rarely (they end a
    game by RULES 5.12 within a few moves and would hide every other phase from random play)."""
    return 0.01 if type(action).__name__ in ("Leave", "Kick", "Disconnect") else 1.0


def hidden_variants(data: dict, seat: str, rng) -> list[dict]:
    """What a seat may not see of the others: their roles (RULES 5.1). Swap the roles of two other
    seats that hold different ones (the ghost never first to speak, RULES 5.4) and are still in
    the game (an eliminated or departed seat's role may have been shown, RULES 5.9); none once the
    game is over (the end screen shows every role, RULES 5.13)."""
    roles = data["roles"]
    out = set()
    if data.get("actions"):
        from engine.records import record_from_dict

        state = record_from_dict(data).replay()
        if state.is_terminal():
            return []
        out = set(state.eliminated) | set(state.departed)
    others = [s for s in data["seats"] if s != seat and s not in out]
    pairs = [(a, b) for a in others for b in others if a < b and roles[a] != roles[b]]
    if not pairs:
        return []
    a, b = pairs[int(rng.integers(len(pairs)))]
    swapped = {**roles, a: roles[b], b: roles[a]}
    if swapped[data["order"][0]] == "ghost":
        return []
    return [{**data, "roles": swapped}]


__all__ = ["DEAL_OPTIONS", "PLAYABLE", "SIMULATE_OPTIONS", "action_weight", "deal_record", "format_summary", "play_game",
           "simulate"]
