"""Helpers for the Spy's Word tests (no tests here): hand-made tables, a fake clue checker."""

from __future__ import annotations

from conftest import expect_illegal as _expect_illegal
from conftest import snapshot  # noqa: F401  (the shared copy, re-exported for the rule tests)

from engine.spyword import SpyWordSettings, SpyWordState, action_from_dict

LETTERS = {"c": "citizen", "s": "spy", "g": "ghost"}
# A stand-in for the clue filter and the embedding layer: "parts" and "translations" of the words.
FORBIDDEN = {"apple": {"applepie": "4.4", "manzana": "translation", "사과": "translation"},
             "pear": {"pearl": "4.3", "poire": "translation"}}


def fake_checker(clue, word, language, mode):
    rule = FORBIDDEN.get(word, {}).get(clue.lower())
    return (rule, f"{clue!r} is a part or a translation of the word") if rule else None


def make(roles: str = "ccsgcc", order=None, citizen="apple", spy="pear", seed=0, ready=True, **settings):
    """A table with seats p1..pN whose roles are given by letters (c citizen, s spy, g ghost)."""
    seats = [f"p{i}" for i in range(1, len(roles) + 1)]
    settings.setdefault("spies", roles.count("s"))
    settings.setdefault("ghost", "g" in roles)
    state = SpyWordState(seats, [LETTERS[r] for r in roles], citizen, spy,
                         order=[f"p{i}" for i in order] if order else None,
                         settings=SpyWordSettings(**settings), seed=seed, language="en", clue_checker=fake_checker)
    if ready:
        for s in seats:
            act(state, {"seat": s, "ready": True})
    return state


def act(state, *actions):
    for a in actions:
        state.apply(action_from_dict(a) if isinstance(a, dict) else a)
    return state


_counter = [0]


def clues(state, count=None):
    """Each speaker in turn gives a fresh clue (count: how many; default the whole phase)."""
    n = 0
    while state.speaker and (count is None or n < count):
        _counter[0] += 1
        act(state, {"seat": state.speaker, "clue": f"hint{_counter[0]}"})
        n += 1
    return state


def to_vote(state):
    clues(state)
    return act(state, {"seat": "host", "start_vote": True})


def votes(state, mapping: dict):
    for voter, target in mapping.items():
        act(state, {"seat": voter, "vote": target})
    return state


def eliminate(state, target):
    """Play a round in which every other remaining player votes for `target`."""
    to_vote(state)
    left = state.remaining()
    other = next(s for s in left if s != target)
    return votes(state, {v: (target if v != target else other) for v in left})


def expect_illegal(state, action, rule):
    return _expect_illegal(state, action, rule, apply=lambda a: act(state, a))
