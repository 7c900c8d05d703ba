"""Codenames Duet: the cooperative two-player game (RULES 3)."""

from .config import DuetConfig
from .key import CELL_COUNTS, SEATS, DuetKey, generate_key, other
from .missions import Mission, MissionMap
from .observation import DuetObservation, Event
from .record import DuetRecord, deal_duet, replay_summary
from .state import DuetOutcome, DuetState

__all__ = [
    "CELL_COUNTS", "SEATS", "DuetConfig", "DuetKey", "DuetObservation", "DuetOutcome", "DuetRecord",
    "DuetState", "Event", "Mission", "MissionMap", "deal_duet", "generate_key", "other", "replay_summary",
]
