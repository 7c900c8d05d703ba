"""One isolated agent: `python -m experiments.isolation.worker`, spoken to on stdin/stdout.

Started by `experiments.isolation.proxy` in a fresh interpreter (never a fork: it inherits no
memory of the game). Before it reads which agent to build, it moves the protocol off fds 0/1
(what the agent prints goes to stderr, what it reads is /dev/null) and hardens itself
(`hardening.harden_agent_process`). Then: the hello line names the agent, the agent is built and
prepared, and every request line gets one answer line (experiments/isolation/protocol.py).
"""

from __future__ import annotations

import os
import sys
import traceback


def _private_stdio():
    """The protocol's own pipes; fd 0 becomes /dev/null and fd 1 a copy of stderr."""
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr
    return proto_in, proto_out


def _read(stream) -> bytes:
    """One request line (b"" at the end of input)."""
    return stream.readline()


def _error(exc: BaseException) -> dict:
    def text(s: str) -> str:  # a lone surrogate in the message as "\ud800": the line must be UTF-8
        return s.encode("utf-8", "backslashreplace").decode("utf-8")

    return {"ok": False, "error": text(f"{type(exc).__name__}: {exc}"[:500]),
            "traceback": text("".join(traceback.format_exception(exc))[-2000:])}


def _build(hello: dict):
    role, spec, language = hello.get("role"), hello.get("spec"), hello.get("language", "en")
    if role == "spyword":
        from agents.spyword import make_spyword_bot

        bot = make_spyword_bot(spec, language)
        words = hello.get("prepare_words")
        if words:
            bot.model.prepare(list(words))
        return bot
    from agents.registry import make_guesser, make_spymaster

    if role == "spymaster":
        agent = make_spymaster(spec, language)
    elif role == "guesser":
        agent = make_guesser(spec, language)
    else:
        raise ValueError(f"unknown role {role!r}")
    agent.prepare()
    return agent


def _answer(agent, request: dict, protocol) -> dict:
    op = request.get("op")
    if op == "begin_game":
        agent.begin_game(request.get("seed"))
        return {"ok": True}
    obs = protocol.from_json_dict(request.get("obs"))
    if op == "give_clue":
        from agents.base import ClueDecision

        decision = agent.give_clue(obs)
        if not isinstance(decision, ClueDecision):  # as experiments.games.moves.agent_clue says in one process
            raise TypeError(f"give_clue returns a ClueDecision(word, number), not {type(decision).__name__}")
        decision.intent(0)   # targets that are no words, a score that is no number: refused as in one process
        return {"ok": True, "clue": protocol.clue_to_json(decision)}
    if op == "next_guess":
        return {"ok": True, "guess": agent.next_guess(obs)}
    if op == "choose_cover":
        return {"ok": True, "cover": agent.choose_cover(obs)}
    if op == "act":
        action = agent.act(obs, list(request.get("avoid") or ()))
        beliefs = [float(b) for b in getattr(agent, "belief_history", None) or ()]
        return {"ok": True, "action": None if action is None else action.to_dict(), "beliefs": beliefs}
    raise ValueError(f"unknown request {op!r}")


def main() -> int:
    proto_in, proto_out = _private_stdio()
    from experiments.isolation import hardening, protocol  # trusted code, imported before any agent code runs

    hardened = hardening.harden_agent_process()

    def send(message: dict, request_id) -> None:
        """The answer to the request `request_id` (echoed: the parent takes no other line for it)."""
        try:
            line = protocol.encode_line({**message, "id": request_id})
        except (TypeError, ValueError) as exc:  # an answer that is not JSON (or not Unicode text)
            line = protocol.encode_line({**_error(exc), "id": request_id})
        proto_out.write(line)

    hello_line = _read(proto_in)
    if not hello_line:
        return 0
    hello_id = None
    try:
        hello = protocol.decode_line(hello_line)
        hello_id = hello.get("id")
        agent = _build(hello)
    except BaseException as exc:  # noqa: BLE001 - the parent forfeits the agent with this reason
        send(_error(exc), hello_id)
        return 1
    capabilities = [name for name in ("choose_cover",) if callable(getattr(agent, name, None))]
    send({"ok": True, "ready": True, "capabilities": capabilities, "hardening": hardened,
          "spec": str(getattr(agent, "spec", ""))}, hello_id)
    while True:
        line = _read(proto_in)
        if not line:
            return 0
        request_id = None
        try:
            request = protocol.decode_line(line)
            request_id = request.get("id")
            if request.get("op") == "bye":
                return 0
            send(_answer(agent, request, protocol), request_id)
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which forfeits the agent
            send(_error(exc), request_id)


if __name__ == "__main__":
    sys.exit(main())
