"""One agent registry for every role; third-party agents by import path or entry point."""

from __future__ import annotations

import sys
import textwrap

import pytest

from agents.registry import (check_spec, known_agents, make_agent, make_guesser, make_spymaster, register_agent)
from engine.duet import DuetState, generate_key

import numpy as np

THIRD_PARTY = textwrap.dedent('''
    from agents.base import ClueDecision, Guesser, Spymaster

    class FirstWordMaster(Spymaster):
        """Clues 'animal 1' whatever the board; takes a `number` parameter."""
        def __init__(self, spec, language="en"):
            super().__init__()
            self.number = int(spec.params.get("number", 1))
            self.backends_given = spec.backends

        def give_clue(self, obs):
            return ClueDecision("animal", self.number)

    class FirstCardGuesser(Guesser):
        def __init__(self, spec, language="en"):
            super().__init__()

        def next_guess(self, obs):
            open_cards = [w for i, w in enumerate(obs.words) if obs.can_guess(i)]
            return open_cards[0] if obs.correct_this_turn == 0 else None

    class NotAnAgent:
        def __init__(self, spec, language="en"):
            pass

    class NoClueMaster(Spymaster):          # give_clue forgotten: abstract
        def __init__(self, spec, language="en"):
            super().__init__()
''')


@pytest.fixture()
def third_party(tmp_path, monkeypatch):
    pkg = tmp_path / "labbots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bots.py").write_text(THIRD_PARTY)
    (pkg / "typo.py").write_text("def f(:\n")
    (pkg / "raises.py").write_text("raise RuntimeError('no GPU here')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("labbots")]:
        del sys.modules[name]


def _board_state():
    words = [f"w{i}" for i in range(25)]
    return DuetState(words, generate_key(np.random.default_rng(3)))


def test_third_party_spymaster_by_import_path_plays(third_party):
    master = make_spymaster("labbots.bots:FirstWordMaster+use-m3?number=2", "en")
    assert master.spec == "labbots.bots:FirstWordMaster+use-m3?number=2.0"  # canonical spec form
    assert master.number == 2 and master.backends_given == ("use-m3",)
    state = _board_state()
    seat = state.to_act()[0]
    decision = master.give_clue(state.observe(seat))
    assert (decision.word, decision.number) == ("animal", 2)


def test_third_party_guesser_by_import_path(third_party):
    guesser = make_guesser("labbots.bots:FirstCardGuesser", "en")
    assert guesser.next_guess(_board_state().observe("B")) == "w0"


@pytest.mark.parametrize("spec,message", [
    ("labbots.bots:Missing", "has no 'Missing'"),
    ("labbots.nowhere:FirstWordMaster", "cannot import"),
    ("labbots.bots:NotAnAgent", "not a Spymaster subclass"),
    ("labbots.bots:FirstCardGuesser", "not a Spymaster subclass"),
    # a module whose own code fails as it loads was a SyntaxError / RuntimeError traceback
    ("labbots.typo:Mine", r"^spymaster 'labbots.typo:Mine': importing 'labbots.typo' failed \(SyntaxError: "),
    ("labbots.raises:Mine", r"importing 'labbots.raises' failed \(RuntimeError: no GPU here\)$"),
    # an abstract class passed check_spec and failed only as it was built, after a run claimed its folder
    ("labbots.bots:NoClueMaster", "labbots.bots:NoClueMaster does not implement give_clue$"),
])
def test_bad_third_party_specs_are_one_clear_error(third_party, spec, message):
    with pytest.raises(ValueError, match=message) as caught:
        check_spec(spec, "spymaster")
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match=message):
        make_spymaster(spec, "en")


def test_unknown_name_lists_known_and_import_path_form():
    with pytest.raises(ValueError, match=r"unknown guesser 'nobody'; known: .*duet-bayes.*module\.path:ClassName"):
        make_guesser("nobody:fake")


def test_register_agent_adds_a_name_for_its_role_only(third_party):
    register_agent("spymaster", "first-word", "labbots.bots:FirstWordMaster")
    try:
        assert make_spymaster("first-word?number=3").number == 3
        with pytest.raises(ValueError, match="unknown guesser 'first-word'"):
            check_spec("first-word", "guesser")
    finally:
        from agents import registry

        registry._REGISTRY["spymaster"].pop("first-word")


@pytest.mark.parametrize("name", ["a.b", "x:y", "p?q", ""])
def test_register_agent_refuses_names_a_spec_cannot_hold(name):
    with pytest.raises(ValueError):
        register_agent("guesser", name, "m:C")


def test_entry_point_agents_are_found(third_party):
    dist = third_party / "labbots-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: labbots\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[codenames_lab.guesser]\nfirst-card = labbots.bots:FirstCardGuesser\n")
    assert known_agents("guesser")["first-card"] == "labbots.bots:FirstCardGuesser"
    assert make_guesser("first-card").next_guess(_board_state().observe("A")) == "w0"


def test_spyword_bots_share_the_registry():
    bot = make_agent("spyword", "spyword-random:fake", "en")
    assert type(bot).__name__ == "RandomSpyWordBot"
    with pytest.raises(ValueError, match="unknown spyword 'margin'"):
        check_spec("margin:fake", "spyword")


@pytest.mark.parametrize("role, spec", [("spymaster", "margin:fake?vocab=300"), ("guesser", "nearest:fake"),
                                        ("spymaster", "random"), ("guesser", "random"), ("spyword", "spyword:fake")])
@pytest.mark.parametrize("language", ["fr", "EN", "", "ko "])
def test_a_language_no_game_has_is_refused_before_any_game(role, spec, language):
    """Word lists (and games) exist for en and ko. A spymaster built for 'fr' or 'EN' failed only at its
    first clue, mid-game ('unknown language'), the random guesser not at all, and check_spec passed
    every one. Now one line naming the spec, from check_spec and make_agent alike."""
    with pytest.raises(ValueError, match=f"^{role} '.*': unknown language {language!r}: en or ko$"):
        check_spec(spec, role, language)
    with pytest.raises(ValueError, match=f"unknown language {language!r}: en or ko$"):
        make_agent(role, spec, language)
    if role == "spyword":
        from agents.spyword.bots import check_spyword_spec

        with pytest.raises(ValueError, match=f"^spyword 'spyword:fake': unknown language {language!r}"):
            check_spyword_spec(spec, language)


@pytest.mark.parametrize("role, spec", [("spymaster", "robust:glove+glove-50"), ("guesser", "duet-bayes:use-m3+use"),
                                        ("guesser", "human:glove-50+glove?model=nearest"),
                                        ("spymaster", "random:glove+glove-50")])
def test_one_model_named_twice_is_refused_by_make_agent_too(role, spec):
    """check_spec refused one model under two names (an alias and its backend); make_agent built it,
    the model counted twice in an ensemble or a guesser's mean (or loaded for nothing). Now both say
    it, before any model loads."""
    for call in (lambda: check_spec(spec, role, "en"), lambda: make_agent(role, spec, "en")):
        with pytest.raises(ValueError, match="named again \\(one model, named once\\)$"):
            call()


@pytest.mark.parametrize("role, spec", [("spymaster", "robust:glove-50"), ("guesser", "duet-bayes:use-m3+minilm"),
                                        ("spymaster", "random:glove-50"), ("guesser", "human?model=nearest")])
def test_a_backend_that_cannot_read_the_language_is_refused_by_make_agent_too(role, spec):
    """check_spec refused glove-50 on a Korean board; make_agent built the agent (loading the model),
    which then read every card as a stranger. Now both refuse it before any model loads."""
    for call in (lambda: check_spec(spec, role, "ko"), lambda: make_agent(role, spec, "ko")):
        with pytest.raises(ValueError, match="does not cover language 'ko' \\(it covers en\\)$"):
            call()


@pytest.mark.parametrize("name, shown", [("r\u043ebust", "'r\\u043ebust'"), ("robust\u200b", "'robust\\u200b'"),
                                         ("ROBUST", "'ROBUST'")])
def test_an_unknown_agent_name_that_looks_like_a_known_one_is_shown_escaped(name, shown):
    """'unknown spymaster 'rоbust'; known: ..., robust' (a Cyrillic o, or a zero-width space after it) did
    not tell the bad name from the known one; now it is escaped, as an unknown parameter's name is."""
    for call in (lambda: check_spec(name, "spymaster"), lambda: make_spymaster(name)):
        with pytest.raises(ValueError) as caught:
            call()
        assert str(caught.value).startswith(f"unknown spymaster {shown}; known: "), str(caught.value)


@pytest.mark.parametrize("value", ["labbots.bots", "labbots.bots:FirstCardGuesser:x", "labbots.bots:First Card"])
def test_an_entry_point_that_names_no_class_is_one_clear_error(third_party, value):
    """An installed package's entry point (group codenames_lab.guesser) whose value is no 'module:Class'
    (a module alone, as entry points allow) failed as it was named with 'not enough values to unpack
    (expected 2, got 1)', naming neither the agent nor the entry point. Now one line saying both."""
    dist = third_party / "labbots-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: labbots\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[codenames_lab.guesser]\nbroken-card = {value}\n")
    for call in (lambda: check_spec("broken-card", "guesser"), lambda: make_guesser("broken-card")):
        with pytest.raises(ValueError, match=r"^guesser 'broken-card' names .* not a 'module:Class'") as caught:
            call()
        assert "\n" not in str(caught.value)
