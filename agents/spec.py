"""Agent spec strings: `name:backend[+backend...][?key=value&...]`, e.g. `expected:use-m3?risk=0.3`."""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class AgentSpec:
    name: str
    backends: tuple[str, ...] = ()
    params: dict[str, float | str | bool] = field(default_factory=dict)

    def __str__(self) -> str:
        text = self.name + (":" + "+".join(self.backends) if self.backends else "")
        if self.params:
            text += "?" + "&".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return text


#: a number as a spec writes it: ASCII digits, a sign, a point, an exponent; or nan/inf (refused by
#: check_params as not finite). float() alone also read '٣' or '３' as 3, '1_0' as 10 and ' 3' as 3.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:nan|inf|infinity)", re.ASCII | re.IGNORECASE)


def _value(text: str) -> float | str | bool:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return float(text) + 0.0 if _NUMBER.fullmatch(text) else text   # + 0.0: -0 is 0 (one spec, one name)


def parse_spec(spec: str) -> AgentSpec:
    """Parse a spec string; raise ValueError with the expected shape on anything malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("an agent spec is `name:backend?key=value`, e.g. margin:use-m3")
    head, ask, query = spec.strip().partition("?")
    name, colon, backends = head.partition(":")
    if not name:
        raise ValueError(f"agent spec {spec!r} has no agent name")
    if colon and not backends:   # margin: read as margin on its default backend, what was left out unsaid
        raise ValueError(f"agent spec {spec!r}: an empty backend name (nothing after ':')")
    if ask and not query:
        raise ValueError(f"agent spec {spec!r}: no parameter after '?' (key=value)")
    params = {}
    for item in query.split("&") if query else []:
        key, eq, value = item.partition("=")
        if not key or not eq or not value:
            raise ValueError(f"agent spec {spec!r}: parameter {item!r} needs a value (key=value)")
        if key in params:
            raise ValueError(f"agent spec {spec!r}: parameter {key!r} is given twice")
        params[key] = _value(value)
    parts = tuple(backends.split("+")) if backends else ()
    if "" in parts:
        raise ValueError(f"agent spec {spec!r}: an empty backend name (a stray '+')")
    twice = sorted({b for b in parts if parts.count(b) > 1})
    if twice:
        raise ValueError(f"agent spec {spec!r}: backend {twice[0]!r} is named twice")
    return AgentSpec(name, parts, params)


@dataclass(frozen=True)
class Limit:
    """What one numeric parameter may be, beyond a finite number: at least `low` (above it when
    `open_low`), at most `high`, a whole number (`whole`), or else one of `choices`."""

    low: float | None = None
    high: float | None = None
    whole: bool = False
    open_low: bool = False
    choices: tuple = ()

    def admits(self, value) -> bool:
        if self.choices:
            return any(isinstance(value, str) == isinstance(c, str) and value == c for c in self.choices)
        v = float(value)
        return (in_size(v) and (not self.whole or v.is_integer())
                and (self.low is None or (v > self.low if self.open_low else v >= self.low))
                and (self.high is None or v <= self.high))

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(_show(c) for c in self.choices)
        kind = "a whole number" if self.whole else "a number"
        if self.low is not None and self.high is not None:
            return f"{kind} between {_show(self.low)} and {_show(self.high)}"
        if self.low is not None:
            return f"{'a finite number' if not self.whole else kind} {'>' if self.open_low else '>='} {_show(self.low)}"
        return kind if self.whole else "a finite number"


SIZES = (1e-6, 1e6)   # of a parameter other than 0: the agents score in float32, where 1e308 is inf


def in_size(v: float) -> bool:
    """Finite, and 0 or of a size the agents' float32 arithmetic keeps (`SIZES`): `risk=1e308`
    overflowed to inf and `temp=1e-40` made every probability nan, each in silence."""
    return math.isfinite(v) and (v == 0 or SIZES[0] <= abs(v) <= SIZES[1])


def whole(low: int = 0) -> Limit:
    """A count: a whole number, at least `low`."""
    return Limit(low=low, whole=True)


def at_least(low: float) -> Limit:
    return Limit(low=low)


def above(low: float) -> Limit:
    """Above `low` (a temperature, a divisor: above 0)."""
    return Limit(low=low, open_low=True)


def between(low: float, high: float) -> Limit:
    """From `low` to `high`, both included (a probability, a blend weight: 0 and 1)."""
    return Limit(low=low, high=high)


def one_of(*choices) -> Limit:
    return Limit(choices=choices)


def _show(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str) and not (value.isascii() and value.isprintable() and " " not in value):
        return ascii(value)   # 'kmax=' 3'', 'kmax='\u0663'': the bad input told apart from a number
    return str(value)


def _text(value) -> str:
    """A value refused as no number, shown: a text that reads as one quoted ('3', not 3: 'kmax=3 must be
    a number' said nothing)."""
    if isinstance(value, str):
        try:
            float(value)
            return ascii(value)
        except ValueError:
            pass
    return _show(value)


def check_params(spec: AgentSpec, defaults: dict, who: str, limits: dict[str, Limit] | None = None) -> None:
    """Every parameter of `spec` is one `defaults` knows, of its default's kind, within its limits;
    ValueError (one line naming `who`, the parameter and what it may be) for the first that is not.

    The rule: true/false where the default is a boolean; where it is a number, a finite number (0,
    or of a size in `SIZES`), a whole one where the default is an int, and within `limits[name]`
    where the agent sets one (a count's minimum, a probability's 0..1, a temperature above 0); one
    of `limits[name].choices` where those are given (whatever the default's kind)."""
    limits = limits or {}
    unknown = set(spec.params) - set(defaults)
    if unknown:
        # a name with a space, an unprintable or a non-ASCII letter is quoted: ' stop' or '\u0455top'
        # (a Cyrillic s) printed bare read "unknown parameter(s) stop; known: stop"
        shown = (k if k.isascii() and k.isprintable() and " " not in k else ascii(k) for k in sorted(unknown))
        raise ValueError(f"{who}: unknown parameter(s) {', '.join(shown)}; "
                         + (f"known: {', '.join(sorted(defaults))}" if defaults else "it takes none"))
    for key, value in spec.params.items():
        default, limit = defaults[key], limits.get(key)
        if limit is not None and limit.choices:
            if not limit.admits(value):
                raise ValueError(f"{who}: {key}={_show(value)} must be {limit.describe()}")
            continue
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"{who}: {key}={_show(value)} must be true or false")
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            # a numpy number in an AgentSpec built by hand (a sweep over np.arange) is a number too
            if isinstance(value, bool) or not isinstance(value, numbers.Real):   # np.bool_ is no Real
                raise ValueError(f"{who}: {key}={_text(value)} must be a number")
            value = float(value)
            limit = limit or Limit()
            if isinstance(default, int) and not limit.whole:
                limit = replace(limit, whole=True)
            if not limit.admits(value):
                size = ("" if not math.isfinite(value) or in_size(value)
                        else f" (0, or of size {SIZES[0]:g} to {SIZES[1]:g})")
                raise ValueError(f"{who}: {key}={_show(value)} must be {limit.describe()}{size}")
