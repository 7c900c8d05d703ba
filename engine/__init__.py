"""Pure rule engines for the Codenames family: no I/O, no printing, no models."""

from .actions import UNLIMITED, Action, Clue, Cover, Guess, Stop
from .errors import IllegalAction, MalformedRecord

__all__ = ["UNLIMITED", "Action", "Clue", "Cover", "Guess", "IllegalAction", "MalformedRecord", "Stop"]
