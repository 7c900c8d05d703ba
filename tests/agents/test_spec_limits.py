"""Agent spec parameters are checked when the agent is built (agents.spec.check_params): a known name,
of its default's kind, finite, whole where the default is an int or the agent says so, within the
agent's `limits`. A bad value is one ValueError line naming the agent, the parameter and what it may
be, before any game (docs/agents.md)."""

from __future__ import annotations

import re

import pytest

from agents.registry import check_spec, make_agent
from agents.spec import AgentSpec, between, check_params, whole

BAD = [
    # (role, spec, what the one-line message says)
    ("spymaster", "robust:fake?learn=nan", "robust spymaster: learn=nan must be a finite number >= 0"),
    # float32 sizes: risk=1e308 overflowed to inf, temp=1e-40 made every probability nan, in silence
    ("spymaster", "expected:fake?risk=1e308", "risk=1e+308 must be a finite number >= 0 (0, or of size 1e-06 to 1e+06)"),
    ("spymaster", "robust:fake?ztemp=1e-40", "ztemp=1e-40 must be a finite number > 0 (0, or of size"),
    ("guesser", "duet-bayes:fake?temp=1e-40", "temp=1e-40 must be a finite number >= 0 (0, or of size"),
    ("guesser", "nearest:fake?threshold=-1e7", "threshold=-10000000 must be a finite number (0, or of size"),
    ("spymaster", "robust:fake?learn=inf", "learn=inf must be a finite number >= 0"),
    ("spymaster", "robust:fake?vocab=1.5", "vocab=1.5 must be a whole number >= 50"),
    ("spymaster", "robust:fake?vocab=10", "vocab=10 must be a whole number >= 50"),
    ("spymaster", "expected:fake?kmax=nan", "expected spymaster: kmax=nan must be a whole number >= 1"),
    ("spymaster", "expected:fake?kmax=-1", "kmax=-1 must be a whole number >= 1"),
    ("spymaster", "expected:fake?kmax=2.5", "kmax=2.5 must be a whole number"),
    ("spymaster", "robust:fake?risk=nan", "risk=nan"),
    ("spymaster", "expected:fake?risk=nan", "risk=nan"),
    ("spymaster", "robust:fake?sudden=nan", "sudden=nan must be a number between 0 and 1"),
    ("spymaster", "expected:fake?hazard=1.5", "hazard=1.5 must be a number between 0 and 1"),
    ("spymaster", "expected:fake?pace=5", "pace=5 must be a number between 0 and 4"),
    ("spymaster", "expected:fake?tmin=0", "tmin=0 must be a finite number > 0"),
    ("spymaster", "expected:fake?sharpen=-1", "sharpen=-1"),
    ("spymaster", "expected:fake?cap=0", "cap=0 must be a whole number >= 1"),
    ("spymaster", "expected:fake?adapt=2", "adapt=2 must be one of auto, 0, 1"),
    ("spymaster", "expected:fake?adapt=yes", "adapt=yes must be one of auto, 0, 1"),
    ("spymaster", "expected:fake?score_weight=inf", "score_weight=inf"),
    # a named choice is refused by check_spec too, before a run claims its folder (it was refused only
    # as the agent was built: 'combine is min, mean, bayes')
    ("spymaster", "expected:fake?combine=BAYES", "expected spymaster: combine=BAYES must be one of min, mean, bayes"),
    ("spymaster", "expected:fake?combine=1", "combine=1 must be one of min, mean, bayes"),
    ("spymaster", "robust:fake?combine=bayes", "robust spymaster: combine=bayes must be one of consensus, foreign, min, mean"),
    ("guesser", "duet-bayes:fake?combine=min", "duet-bayes guesser: combine=min must be one of bayes, mean"),
    ("guesser", "nearest:fake?combine=true", "nearest guesser: combine=True must be one of bayes, mean"),
    ("spymaster", "robust:fake?veto=1.5", "veto=1.5 must be a whole number >= 0"),
    ("spymaster", "robust:fake?agree=-0.5", "agree=-0.5 must be a finite number >= 0"),
    ("spymaster", "robust:fake?prior=1.2", "prior=1.2 must be a number between 0 and 1"),
    ("spymaster", "robust:fake?row=nan", "row=nan"),
    ("spymaster", "robust:fake?ztemp=0", "ztemp=0 must be a finite number > 0"),
    ("spymaster", "robust:fake?selftemp=nan", "selftemp=nan"),
    ("spymaster", "robust:fake?quality=-1", "quality=-1"),
    ("spymaster", "robust:fake?nouns=inf", "nouns=inf must be a finite number"),
    ("spymaster", "margin:fake?kmax=0", "margin spymaster: kmax=0 must be a whole number >= 1"),
    # a number is written in ASCII: float() read Arabic-Indic or full-width digits, '1_0' and ' 3'
    ("spymaster", "margin:fake?kmax=\u0663", "margin spymaster: kmax='\\u0663' must be a number"),
    ("spymaster", "margin:fake?kmax=\uff13", "kmax='\\uff13' must be a number"),
    ("spymaster", "margin:fake?kmax=1_0", "kmax='1_0' must be a number"),
    ("spymaster", "margin:fake?kmax= 3", "kmax=' 3' must be a number"),
    ("spymaster", "margin:fake?kmax=3 &alpha=1", "kmax='3 ' must be a number"),
    ("spymaster", "margin:fake?candidates=0.5", "candidates=0.5"),
    ("spymaster", "margin:fake?cap=nan", "cap=nan must be a finite number"),
    ("spymaster", "kim2019:fake?max_group=0", "kim2019 spymaster: max_group=0 must be a whole number >= 1"),
    ("spymaster", "kim2019:fake?threshold=inf", "threshold=inf"),
    ("spymaster", "random?x=1", "random spymaster: unknown parameter(s) x; it takes none"),
    ("spymaster", "random:no-such-model", "unknown embedding backend 'no-such-model'"),
    ("guesser", "nearest:fake?noise=nan", "nearest guesser: noise=nan must be a finite number >= 0"),
    ("guesser", "nearest:fake?noise=inf", "noise=inf"),
    ("guesser", "nearest:fake?threshold=nan", "threshold=nan must be a finite number"),
    ("guesser", "nearest:fake?sd_confidence=2", "sd_confidence=2 must be a number between 0 and 1"),
    ("guesser", "nearest:fake?temp=-1", "temp=-1"),
    ("guesser", "nearest:fake?learn=nan", "learn=nan"),
    ("guesser", "duet-bayes:fake?hub=nan", "duet-bayes guesser: hub=nan must be a number between 0 and 1"),
    ("guesser", "duet-bayes:fake?risk=nan", "risk=nan"),
    ("guesser", "duet-bayes:fake?unsure=1.5", "unsure=1.5"),
    ("guesser", "duet-bayes:fake?spare=1.5", "spare=1.5 must be a whole number >= 0"),
    ("guesser", "memory:fake?spare_confidence=-0.1", "spare_confidence=-0.1"),
    ("guesser", "random?stop=nan", "random guesser: stop=nan must be a number between 0 and 1"),
    ("guesser", "random?x=1", "random guesser: unknown parameter(s) x; known: stop"),
    # a name that looks like a known one is quoted, not printed bare ("unknown parameter(s) stop; known: stop")
    ("guesser", "random? stop=0.5", "random guesser: unknown parameter(s) ' stop'; known: stop"),
    ("guesser", "random?\u0455top=0.5", "random guesser: unknown parameter(s) '\\u0455top'; known: stop"),
    ("guesser", "human:fake?model=nearest&risk=nan", "human guesser: risk=nan"),
    ("guesser", "human:fake?model=nearest&spare=1.5", "spare=1.5 must be a whole number >= 0"),
    ("guesser", "human:fake?model=other", "model=other must be one of fitted, nearest"),
    # a file's path that reads as a number: check_spec ended in a TypeError traceback (expected str, not float)
    ("guesser", "human?weights=3", "human guesser: weights=3 must be a model file's path"),
    ("guesser", "human?weights=true", "human guesser: weights=True must be a model file's path"),
    ("spyword", "spyword:fake?beta=0", "spyword bot: beta=0 must be a finite number > 0"),
    ("spyword", "spyword:fake?eps=nan", "eps=nan"),
    ("spyword", "spyword:fake?neighbours=0", "neighbours=0"),
    ("spyword", "spyword:fake?unsure=0", "unsure=0"),
    ("spyword", "spyword-random:fake?vocab=2.5", "vocab=2.5"),
    ("spymaster", "llm:local?temperature=nan", "llm agent: temperature=nan must be a finite number >= 0"),
    ("guesser", "llm:local?timeout=inf", "timeout=inf"),
    ("spyword", "llm-spyword:local?max_tokens=0", "max_tokens=0 must be a whole number >= 1"),
]


@pytest.mark.parametrize("role, spec, says", BAD, ids=[spec for _, spec, _ in BAD])
def test_a_bad_parameter_is_refused_when_the_agent_is_built(role, spec, says):
    with pytest.raises(ValueError) as caught:
        make_agent(role, spec, "en")
    message = str(caught.value)
    assert says in message and "\n" not in message
    if not spec.startswith("random:"):        # the check without building (a backend name is checked when built)
        with pytest.raises(ValueError, match=re.escape(says.split(": ")[-1])):
            check_spec(spec, role)


@pytest.mark.parametrize("role, spec", [
    ("spymaster", "robust:fake?learn=0.5&kmax=4&vocab=50&veto=0&adapt=1&prior=1&row=0"),
    ("spymaster", "expected:fake?kmax=3.0&adapt=auto&risk=0.3&sudden=0&hazard=1&temp=0"),
    ("spymaster", "margin:fake?cap=2.5&candidates=100&assassin=-1"),
    ("spymaster", "random:fake"),       # crossplay gives every spymaster the panel's backends
    ("guesser", "duet-bayes:fake?hub=1&spare=2&unsure=0.6&noise=0.06"),
    ("guesser", "random?stop=0.5"),
    ("spyword", "spyword:fake?beta=10&vocab=300"),
    ("spymaster", "llm:local?temperature=0.5&retries=0"),
])
def test_good_parameters_still_build(role, spec):
    assert make_agent(role, spec, "en").spec


def test_the_rule_reads_the_default_kind_and_the_limits():
    spec = AgentSpec("x", (), {"n": 3.0, "p": 0.5, "flag": True})
    check_params(spec, {"n": 1, "p": 0.0, "flag": False}, "x agent", {"p": between(0, 1)})
    for params, says in [({"n": 2.5}, "n=2.5 must be a whole number"), ({"p": float("nan")}, "p=nan"),
                         ({"n": "many"}, "n=many must be a number"), ({"flag": 1.0}, "flag=1 must be true or false"),
                         ({"n": -1.0}, "n=-1 must be a whole number >= 2")]:
        with pytest.raises(ValueError, match=says):
            check_params(AgentSpec("x", (), params), {"n": 1, "p": 0.0, "flag": False}, "x agent",
                         {"p": between(0, 1), "n": whole(2)})


@pytest.mark.parametrize("spec, says", [
    ("robust:use-m3?learn=1&learn=2", "given twice"),     # which one would it use?
    ("robust:use-m3+", "stray '+'"),
    ("robust:+use-m3", "stray '+'"),
    ("robust:use-m3++glove-50", "stray '+'"),
    ("robust:use-m3+use-m3", "named twice"),
    # an empty part: 'robust:' played robust on its default backend, 'robust?' took no parameter, in silence
    ("robust:", "an empty backend name (nothing after ':')"),
    ("robust:?learn=1", "nothing after ':'"),
    ("my_lab.bots:", "nothing after ':'"),
    ("robust?", "no parameter after '?'"),
    ("robust:use-m3?", "no parameter after '?'"),
])
def test_a_spec_that_says_one_thing_twice_or_nothing_is_refused(spec, says):
    from agents.spec import parse_spec

    with pytest.raises(ValueError, match=re.escape(says)):
        parse_spec(spec)
    assert parse_spec("robust:use-m3+glove-50?learn=1").backends == ("use-m3", "glove-50")
    assert parse_spec("random").backends == ()


def test_a_number_is_read_as_written_in_ascii():
    """'+3', '3.', '.5', '3e0', '1E-3', 'NaN' and 'inf' are numbers (nan and inf then refused by
    check_params); '-0' is 0, so the spec has one name ('alpha=0.0', not 'alpha=-0.0')."""
    from agents.spec import parse_spec

    params = parse_spec("x?a=+3&b=3.&c=.5&d=3e0&e=1E-3&f=-0&g=NaN&h=-inf&i=auto&j=TRUE").params
    assert {k: v for k, v in params.items() if k not in "gh"} == {
        "a": 3.0, "b": 3.0, "c": 0.5, "d": 3.0, "e": 0.001, "f": 0.0, "i": "auto", "j": True}
    assert params["g"] != params["g"] and params["h"] == float("-inf")
    assert str(parse_spec("x?f=-0")) == "x?f=0.0" == str(parse_spec("x?f=0"))
    assert parse_spec("x?a=\u0663").params == {"a": "\u0663"}


def test_a_hand_built_spec_takes_numpy_numbers_and_quotes_a_number_in_text():
    """An AgentSpec built by hand (a sweep over np.arange) with kmax=np.int64(3) was refused as 'kmax=3
    must be a number', and kmax='3' the same: neither said what was wrong. Now a numpy number is a
    number and a text that reads as one is quoted."""
    import numpy as np

    assert make_agent("spymaster", AgentSpec("margin", ("fake",), {"kmax": np.int64(3), "alpha": np.float32(0.5)}))
    with pytest.raises(ValueError, match="margin spymaster: kmax=np.int64\\(0\\) must be|kmax=0 must be a whole number >= 1"):
        make_agent("spymaster", AgentSpec("margin", ("fake",), {"kmax": np.int64(0)}))
    with pytest.raises(ValueError, match="margin spymaster: kmax='3' must be a number$"):
        make_agent("spymaster", AgentSpec("margin", ("fake",), {"kmax": "3"}))
    with pytest.raises(ValueError, match="kmax=True must be a number$"):
        make_agent("spymaster", AgentSpec("margin", ("fake",), {"kmax": np.bool_(True)}))
