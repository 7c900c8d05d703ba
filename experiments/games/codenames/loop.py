"""The Codenames game loop: bots on the seats of CodenamesState, through the engine's rules.

Same style as `experiments.games.duet.loop.play_duet`: spymasters give clues, guessers guess (None = stop, never
on the first guess of a turn), spymasters cover (RULES 1.8 virtual opponent, RULES 1.6 penalty).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from agents.base import Guesser, Spymaster
from agents.llm.seat import keep_log
from engine import Clue, Cover, Guess, Stop
from engine.codenames import CodenamesRecord
from engine.codenames.key import TEAM_LETTER
from engine.codenames.state import CLUE, COVER, GUESS, SUDDEN_DEATH, seat_team

from experiments.games.moves import AgentError, agent_clue, apply_agent_action, ask
from experiments.runs.seeds import agent_seed

MAX_ACTIONS = 500  # far beyond any real game: a guard against a looping agent

__all__ = ["AgentError", "MAX_ACTIONS", "play_codenames"]


def play_codenames(record: CodenamesRecord, agents: Mapping[str, Spymaster | Guesser],
                   seed: Sequence[int] = (0,)) -> CodenamesRecord:
    """Play the dealt record to its end; returns it with the actions and the clues' intended targets.

    `agents` maps seats (`red-spymaster`, `red-guesser`, ...) to agents; only seats that act need
    one (single_team and two_player: the starting team's). Agent randomness is seeded from
    `agent_seed(seed, seat)`: an agent object shared by several seats is seeded once, for its first seat.
    """
    from engine.codenames import SEATS

    state = record.new_state()
    seeded: set[int] = set()
    for seat in SEATS:
        agent = agents.get(seat)
        if agent is not None and id(agent) not in seeded:
            ask(agent, "begin_game", agent_seed(seed, seat))  # nothing of the deal (experiments/runs/seeds.py)
            seeded.add(id(agent))
    intents: list[dict] = []

    def agent_for(seat: str):
        agent = agents.get(seat)
        if agent is None:
            raise AgentError(f"no agent on seat {seat}")
        return agent

    def act(action, agent) -> None:
        apply_agent_action(state, record, action, agent)

    while not state.is_terminal() and len(record.actions) < MAX_ACTIONS:
        (seat,) = state.to_act()
        agent = agent_for(seat)
        obs = state.observe(seat)
        if state.phase == CLUE:
            word, number, intent = agent_clue(ask(agent, "give_clue", obs), agent, len(record.actions),
                                              own_cards(record, seat_team(seat), state.revealed))
            intents.append(intent)
            # the number as given, "unlimited" too (RULES 1.2, 1.7): the engine judges it, as in Duet
            act(Clue(seat, word, number), agent)
        elif state.phase in (GUESS, SUDDEN_DEATH):
            word = ask(agent, "next_guess", obs)
            if word is None:
                if state.phase == SUDDEN_DEATH:
                    raise AgentError(f"{agent.spec} may not stop in sudden death: no clues, no stopping, "
                                     "only guesses (RULES 2.3)")
                if state.guesses_this_turn == 0:
                    raise AgentError(f"{agent.spec} must guess at least once per clue (RULES 1.4)")
                act(Stop(seat), agent)
            else:
                act(Guess(seat, word), agent)
        elif state.phase == COVER:
            pending = state.pending[0]
            if pending.team != seat_team(seat) and hasattr(agent, "choose_cover"):
                word = ask(agent, "choose_cover", obs)  # RULES 1.8 / 1.6 in two_player: an opponent agent
            else:
                # RULES 1.6 in `teams`: the penalised team's rival covers one of its own agents;
                # the pool spymasters have no policy for that: the first legal card (deterministic).
                word = state.legal_actions()[0].word
            act(Cover(seat, word), agent)
        else:  # pragma: no cover - the engine has no other phase
            raise AgentError(f"unexpected phase {state.phase!r}")
    record.extra["intents"] = intents
    keep_log(record, agents.values())  # llm agents' moves (agents/llm)
    return record


def own_cards(record: CodenamesRecord, team: str, revealed) -> frozenset[str]:
    """The cards a clue of `team` may mean (its intents' targets): its own agents, and in the assassin
    ending, once they are all found, the assassin (RULES 2.3; docs/codenames.md)."""
    letter = TEAM_LETTER[team]
    cards = {w for w, k in zip(record.words, record.key.letters) if k == letter}
    if record.config.variant == "assassin_ending" and all(r for r, k in zip(revealed, record.key.letters) if k == letter):
        cards |= {w for w, k in zip(record.words, record.key.letters) if k == "X"}
    return frozenset(cards)
