"""Codenames (RULES 1) and Codenames Pictures (RULES 2): two teams, or one against a virtual opponent."""

from .config import COMPETITION, GAME_VARIANTS, NAMED_CONFIGS, VARIANTS, CodenamesConfig
from .key import ASSASSIN, BLUE, BYSTANDER, RED, TEAMS, CodenamesKey, card_counts, generate_key, other_team
from .observation import CodenamesObservation, Event
from .record import CodenamesRecord, deal_codenames, record_from_dict, replay_summary
from .state import SEATS, CodenamesOutcome, CodenamesState, PendingCover

__all__ = [
    "ASSASSIN", "BLUE", "BYSTANDER", "COMPETITION", "GAME_VARIANTS", "NAMED_CONFIGS", "RED", "SEATS", "TEAMS",
    "VARIANTS", "CodenamesConfig", "CodenamesKey", "CodenamesObservation", "CodenamesOutcome",
    "CodenamesRecord", "CodenamesState", "Event", "PendingCover", "card_counts", "deal_codenames",
    "generate_key", "other_team", "record_from_dict", "replay_summary",
]
