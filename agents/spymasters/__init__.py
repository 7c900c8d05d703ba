"""Spymasters: `kim2019` (the published baseline), `margin`, `expected` (see docs/agents.md)."""

from .base import PoolSpymaster
from .expected import ExpectedValueSpymaster
from .kim2019 import Kim2019Spymaster
from .margin import MarginSpymaster

__all__ = ["PoolSpymaster", "Kim2019Spymaster", "MarginSpymaster", "ExpectedValueSpymaster"]
