"""The seeds agents are given: deterministic, but no way back to the deal (issue 14).

A game is dealt from its game seed (`[run seed, game index]` in the simulators, the record's seed
in `cnlab play`). If an agent were handed that seed, or anything it is a prefix of, it could deal
the game again and read every key: `deal_duet([run_seed, index], ...)`. So every loop gives its
agents `agent_seed(game, seat, role)` instead: a 128-bit BLAKE2b MAC of the game seed, the seat
and the role, keyed with a project constant (domain separation: it is never a numpy seed
sequence of the deal) and, when set, a run secret.

- Deterministic: the same game seed, seat and role give the same agent seed in any process, on
  any worker count, so seeded runs stay reproducible.
- Not invertible: nothing of the game seed can be computed back from an agent seed.
- Distinct: each seat and role gets its own stream, and none is the deal's stream.

One limit, by design of any deterministic scheme: run seeds and game indices are small numbers.
Without a secret, an agent that knows the dealer can deal game (0, 0), (0, 1), ... until a board
matches the one it sees (a few thousand deals take seconds), or try (run seed, index) pairs until
one gives its own agent seed, and read the key of the deal it found. For untrusted agents set
the environment variable `CNLAB_SEED_SECRET` (any text; keep it to reproduce the run): then
`deal_seed` mixes it into every deal and `agent_seed` into every agent seed, so neither can be
searched. `cnlab simulate --isolate` keeps the variable out of the agents' processes and out of
their reach (docs/isolation.md). Without the secret, deals and agent seeds are what they always
were for a given run seed; with one, the deals are other (equally reproducible) games, so all
rows of one results folder must be played with the same secret, or none.
"""

from __future__ import annotations

import hashlib
import os
from typing import Sequence, Union

SEED_KEY = b"codenames-lab/agent-seed/v1"
DEAL_KEY = b"codenames-lab/deal-seed/v1"
SECRET_ENV = "CNLAB_SEED_SECRET"

GameSeed = Union[int, Sequence[int]]


def run_secret() -> bytes:
    """The run secret from `CNLAB_SEED_SECRET`, or b"" when it is not set: the variable's bytes as the
    environment holds them (UTF-8 text as before; bytes that are not UTF-8 are a secret too)."""
    return os.environ.get(SECRET_ENV, "").encode("utf-8", "surrogateescape")


def agent_seed(game: GameSeed, seat: str | int, role: str = "", secret: bytes | str | None = None) -> int:
    """The seed of one seat's agent in one game: a 128-bit int for `Agent.begin_game`.

    `game`: what the game was dealt from, e.g. `(run_seed, index)` or a record's seed.
    `seat`: the seat ("A", "red-guesser", "p3", or its index); `role`: "spymaster", "guesser",
    "bot" (an agent playing two roles gets one seed per role). `secret`: the run secret; by
    default `CNLAB_SEED_SECRET` (see the module docstring)."""
    parts = [game] if isinstance(game, int) else list(game)
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
        raise TypeError(f"a game seed is an int or a sequence of ints, not {game!r}")
    if secret is None:
        secret = run_secret()
    elif isinstance(secret, str):
        secret = secret.encode("utf-8")
    key = hashlib.blake2b(SEED_KEY + b"\x00" + secret, digest_size=32).digest()  # <= 64 bytes, any secret
    message = "/".join(str(p) for p in parts) + f"|{seat}|{role}"
    digest = hashlib.blake2b(message.encode("utf-8"), key=key, digest_size=16,
                             person=b"cnlab-agent-seed").digest()
    return int.from_bytes(digest, "big")


def deal_seed(run_seed: int, index: int, secret: bytes | str | None = None) -> list[int]:
    """What game `index` of a run is dealt from: `[run_seed, index]`, plus a 128-bit word made
    from the run secret when one is set (by default `CNLAB_SEED_SECRET`)."""
    if secret is None:
        secret = run_secret()
    elif isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not secret:
        return [run_seed, index]
    word = hashlib.blake2b(secret, key=DEAL_KEY, digest_size=16, person=b"cnlab-deal-seed").digest()
    return [run_seed, index, int.from_bytes(word, "big")]
