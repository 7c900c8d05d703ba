"""Agent spec strings: `name:backend[+backend...][?key=value&...]`, e.g. `expected:use-m3?risk=0.3`."""

from __future__ import annotations

from dataclasses import dataclass, field


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


def _value(text: str) -> float | str | bool:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return float(text)
    except ValueError:
        return text


def parse_spec(spec: str) -> AgentSpec:
    """Parse a spec string; raise ValueError with the expected shape on anything malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("an agent spec is `name:backend?key=value`, e.g. margin:use-m3")
    head, _, query = spec.strip().partition("?")
    name, _, backends = head.partition(":")
    if not name:
        raise ValueError(f"agent spec {spec!r} has no agent name")
    params = {}
    for item in query.split("&") if query else []:
        key, eq, value = item.partition("=")
        if not key or not eq or not value:
            raise ValueError(f"agent spec {spec!r}: parameter {item!r} needs a value (key=value)")
        params[key] = _value(value)
    return AgentSpec(name, tuple(b for b in backends.split("+") if b), params)


def check_params(spec: AgentSpec, defaults: dict, who: str) -> None:
    """Every parameter of `spec` is one `defaults` knows, of its default's kind (a number where the
    default is a number, true/false where it is a boolean); ValueError naming the first that is not."""
    unknown = set(spec.params) - set(defaults)
    if unknown:
        raise ValueError(f"{who}: unknown parameter(s) {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(sorted(defaults))}")
    for key, value in spec.params.items():
        default = defaults[key]
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"{who}: {key}={value} must be true or false")
        if isinstance(default, (int, float)) and not isinstance(default, bool) and (
                isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(f"{who}: {key}={value} must be a number")
