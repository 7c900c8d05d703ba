"""The Duet game loop: two seats, each a spymaster + guesser pair, through the engine's rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from agents.base import Guesser, Spymaster
from agents.llm.seat import keep_log
from engine import Clue, Guess, Stop
from engine.duet import SEATS, DuetRecord
from engine.duet.state import CLUE, GUESS, SUDDEN_DEATH, DuetState

from experiments.games.moves import AgentError, agent_clue, apply_agent_action, ask
from experiments.runs.seeds import agent_seed

MAX_ACTIONS = 500  # far beyond any real game: a guard against a looping agent


@dataclass
class DuetSeat:
    spymaster: Spymaster
    guesser: Guesser


def play_duet(record: DuetRecord, seats: Mapping[str, DuetSeat], seed: Sequence[int] = (0,),
              first_giver: str = "A", state: DuetState | None = None) -> DuetRecord:
    """Play the dealt record to its end; returns it with the actions and the clues' intended targets.

    Agent randomness is seeded from `agent_seed(seed, seat, role)`, so a game depends only on its seed,
    and no agent is given the seed the record was dealt from. `state`: the record's new state to play
    on (`record.new_state()` when not given); the caller that passes it reads the game's end from it,
    as the record's replay would give it, without judging every clue again.
    """
    state = record.new_state() if state is None else state
    for seat in SEATS:  # keyed hashes of (seed, seat, role): nothing of the deal (experiments/runs/seeds.py)
        ask(seats[seat].spymaster, "begin_game", agent_seed(seed, seat, "spymaster"))
        ask(seats[seat].guesser, "begin_game", agent_seed(seed, seat, "guesser"))
    intents: list[dict] = []

    def act(action, agent) -> None:
        apply_agent_action(state, record, action, agent)

    while not state.is_terminal() and len(record.actions) < MAX_ACTIONS:
        if state.phase == CLUE:
            givers = state.clue_givers()
            giver = first_giver if not state.clue_seats and first_giver in givers else givers[0]
            agent = seats[giver].spymaster
            own = frozenset(w for w, k in zip(record.words, record.key.side(giver)) if k == "G")   # its greens
            word, number, intent = agent_clue(ask(agent, "give_clue", state.observe(giver)), agent, len(record.actions), own)
            intents.append(intent)
            act(Clue(giver, word, number), agent)
        elif state.phase == GUESS:
            (seat,) = state.guessers()
            agent = seats[seat].guesser
            word = ask(agent, "next_guess", state.observe(seat))
            if word is None:
                if state.correct_this_turn == 0:
                    raise AgentError(f"{agent.spec} must guess at least once per clue (RULES 3.4)")
                act(Stop(seat), agent)
            else:
                act(Guess(seat, word), agent)
        elif state.phase == SUDDEN_DEATH:
            # RULES 3.9: any order, no consulting; a seat may hold back. If nobody guesses, the game
            # stays unfinished in sudden death, which a benchmark counts as a loss.
            for seat in state.guessers():
                word = ask(seats[seat].guesser, "next_guess", state.observe(seat))
                if word is not None:
                    act(Guess(seat, word), seats[seat].guesser)
                    break
            else:
                break
    record.extra["intents"] = intents
    keep_log(record, [a for s in seats.values() for a in (s.spymaster, s.guesser)])  # llm agents' moves
    return record
