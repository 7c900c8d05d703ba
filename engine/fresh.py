"""Fresh copies for observations: containers (and texts) that share no object with a game state.

An observation built from the state's own tuples, lists or dicts would let an agent walk from
what it was given to what it was not (`gc.get_referrers(obs.words)` finds the state's words
tuple, then the state). `observe()` therefore copies every container, and the longer texts, into
new objects. Shared immutable constants (None, small ints, one-letter strings, the literal
strings of the code) cannot be copied: in one process, `gc` still reaches everything from them.
Untrusted agents run in their own process (`cnlab simulate --isolate`, docs/isolation.md).
"""

from __future__ import annotations

from typing import Any, Iterable


def text(s: Any) -> Any:
    """A new str object equal to `s` (strings of one letter are shared singletons in CPython)."""
    if isinstance(s, str) and len(s) > 1:
        return s[:1] + s[1:]
    return s


def texts(items: Iterable[Any]) -> tuple:
    """A new tuple of new strings."""
    return tuple(map(text, items))


def deep(obj: Any) -> Any:
    """A deep copy of plain data: dicts, lists, tuples, sets and frozensets become new ones, texts
    new strings; numbers, bools and None are immutable and kept."""
    if isinstance(obj, dict):
        return {text(k): deep(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [deep(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple([deep(v) for v in obj])
    if isinstance(obj, frozenset):
        return frozenset(deep(v) for v in obj)
    if isinstance(obj, set):
        return {deep(v) for v in obj}
    return text(obj)
