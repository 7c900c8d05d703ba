"""Untrusted agents in their own processes (issue 14; docs/isolation.md).

    from experiments.isolation import IsolatedGuesser, IsolatedSpymaster, Forfeit
    seats = {s: DuetSeat(IsolatedSpymaster("margin:use-m3", seat=s), IsolatedGuesser("random", seat=s))
             for s in "AB"}
    play_duet(record, seats, seed)            # raises Forfeit when an agent is slow, dies or cheats

`cnlab simulate --isolate --move-timeout 60` and `cnlab tournament --isolate` do this for every
seat and record a forfeited game as lost ("forfeit: <seat> <role>: <why>").
"""

from experiments.isolation.protocol import ProtocolError, from_json_dict, to_json_dict
from experiments.isolation.proxy import (DEFAULT_MOVE_TIMEOUT, Forfeit, IsolatedAgent, IsolatedGuesser, IsolatedSpymaster,
                    IsolatedSpyWordBot, forfeit_of)

__all__ = ["DEFAULT_MOVE_TIMEOUT", "Forfeit", "IsolatedAgent", "IsolatedGuesser", "IsolatedSpyWordBot",
           "IsolatedSpymaster", "ProtocolError", "forfeit_of", "from_json_dict", "to_json_dict"]
