"""The OpenAI-compatible client (`llm:openai`) against a chat-completions server started here on
127.0.0.1 that answers from the real SmolLM2 model (no canned answers). The server's `mode`:

    normal     the model's reply as an OpenAI chat completion (with usage)
    malformed  the model's reply, its JSON body cut in half (a broken proxy)
    prefill    the model continues an answer that the server starts with a board word (the
               "assistant prefill" that vLLM and llama.cpp's server offer): an illegal clue
    slow       an answer later than the client's time-out

and a port where nothing listens gives a refused connection. Each ends as docs/llm_agents.md says:
refusals with their reasons, retries, then the documented fallback and `forfeit` in the log.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from agents.llm.backends import BackendError, LocalChat, OpenAIChat, load_local_model
from agents.registry import make_guesser, make_spymaster
from engine import Clue
from engine.clues import check_clue
from experiments.games.duet.dealing import deal_duet_record
from tests.agents.test_llm_agents import require_smollm2

pytestmark = pytest.mark.slow


class ModelServer(ThreadingHTTPServer):
    daemon_threads = True
    mode = "normal"
    delay = 3.0

    def __init__(self, model: LocalChat):
        super().__init__(("127.0.0.1", 0), Handler)
        self.model = model
        self.requests: list[dict] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        server: ModelServer = self.server  # type: ignore[assignment]
        if self.path != "/v1/chat/completions":
            self.send_error(404)
            return
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server.requests.append({"body": body, "auth": self.headers.get("Authorization")})
        if server.mode == "slow":
            time.sleep(server.delay)  # past the client's time-out: it has gone, nothing to answer
            return
        if server.mode == "prefill":
            text, n_prompt, n_new = self.prefilled(server, body)
        else:
            reply = server.model.chat(body["messages"], temperature=body.get("temperature", 0.0),
                                      max_tokens=body.get("max_tokens", 16), seed=body.get("seed"))
            text, n_prompt, n_new = reply.text, reply.prompt_tokens, reply.completion_tokens
        data = json.dumps({"id": "cmpl-test", "object": "chat.completion", "model": body.get("model"),
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                        "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": n_prompt, "completion_tokens": n_new,
                                     "total_tokens": n_prompt + n_new}}).encode()
        if server.mode == "malformed":
            data = data[: len(data) // 2]
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (slow mode)
            pass

    @staticmethod
    def prefilled(server: ModelServer, body: dict) -> tuple[str, int, int]:
        """The model continues an assistant turn that starts `CLUE: <first board word> 1`."""
        import torch

        board = re.search(r"Board \(all 25 words\): ([^\n]+)", "\n".join(m["content"] for m in body["messages"]))
        start = f"CLUE: {board.group(1).split(', ')[0]} 1\n"
        tokenizer, model = load_local_model(server.model.folder, server.model.gguf_file)
        enc = tokenizer.apply_chat_template(body["messages"] + [{"role": "assistant", "content": start}],
                                            continue_final_message=True, return_tensors="pt", return_dict=True)
        with torch.inference_mode():
            out = model.generate(**enc, max_new_tokens=int(body.get("max_tokens", 8)), do_sample=False)
        new = out[0, enc["input_ids"].shape[1]:]
        return start + tokenizer.decode(new, skip_special_tokens=True), int(enc["input_ids"].shape[1]), int(len(new))


@pytest.fixture(scope="module")
def server():
    require_smollm2()
    model = LocalChat(threads=1)
    model.load()
    srv = ModelServer(model)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def mode(server):
    def set_mode(name: str) -> str:
        server.mode = name
        return server.base_url

    yield set_mode
    server.mode = "normal"


def board_obs(seed=3, clue=None):
    state = deal_duet_record(seed, "en", invalid_clue="reject").new_state()
    if clue:
        state.apply(Clue("B", clue, 2))
    return state.observe("A")


def legal_fallback(decision, obs) -> bool:
    return decision.number == 1 and check_clue(decision.word, 1, board=list(obs.words), language="en").legal


def test_the_model_answers_through_the_endpoint(mode, server, monkeypatch):
    url = mode("normal")
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test")
    master = make_spymaster(f"llm:openai?model=smollm2&base_url={url}&key_env=TEST_LLM_KEY&max_tokens=10&retries=0",
                            "en")
    master.begin_game(1)
    obs = board_obs()
    decision = master.give_clue(obs)
    (entry,) = master.llm_log
    assert entry["backend"] == "openai" and entry["model"] == "smollm2" and entry["base_url"] == url
    assert isinstance(entry["replies"][0], str) and entry["prompt_tokens"] > 100 and entry["completion_tokens"] > 0
    assert server.requests[-1]["auth"] == "Bearer sk-test"
    sent = server.requests[-1]["body"]
    assert sent["temperature"] == 0.0 and sent["max_tokens"] == 10 and sent["seed"] == entry["seed"]
    assert sent["messages"] == entry["messages"]
    # whatever the small model said, the clue played is legal (its own, or the fallback)
    assert check_clue(decision.word, decision.number, board=list(obs.words), language="en").legal
    # the same answer again: the same seed and greedy decoding reproduce the reply
    master.begin_game(1)
    master.give_clue(obs)
    assert master.llm_log[-1]["replies"] == entry["replies"]


def test_a_malformed_body_is_retried_then_forfeited(mode):
    master = make_spymaster(f"llm:openai?model=smollm2&base_url={mode('malformed')}&max_tokens=6&retries=1", "en")
    master.begin_game(2)
    obs = board_obs()
    decision = master.give_clue(obs)
    entry = master.llm_log[-1]
    assert entry["replies"] == [None, None] and entry["attempts"] == 2
    assert all(r.startswith("backend malformed: the body is not JSON") for r in entry["refusals"])
    assert entry["forfeit"].startswith("no playable answer in 2 attempt(s)") and legal_fallback(decision, obs)


def test_an_illegal_clue_is_refused_with_the_filters_reason_retried_then_forfeited(mode, server):
    url = mode("prefill")
    master = make_spymaster(f"llm:openai?model=smollm2&base_url={url}&max_tokens=4&retries=2", "en")
    master.begin_game(3)
    obs = board_obs()
    decision = master.give_clue(obs)
    entry = master.llm_log[-1]
    assert entry["attempts"] == 3 and len(entry["replies"]) == 3
    assert all(reply.startswith(f"CLUE: {obs.words[0]} 1") for reply in entry["replies"])
    assert all(r.startswith("RULES 4.") for r in entry["refusals"]), entry["refusals"]
    # each retry told the model why: the last request holds both refusals as follow-up messages
    follow_ups = [m["content"] for m in server.requests[-1]["body"]["messages"] if m["role"] == "user"][-2:]
    assert [f.split("\n")[0] for f in follow_ups] == [f"Your answer was refused: {r}" for r in entry["refusals"][:2]]
    assert "RULES 4." in entry["forfeit"] and legal_fallback(decision, obs)
    assert decision.details["forfeit"] == entry["forfeit"]


def test_a_time_out_is_retried_then_forfeited(mode):
    master = make_spymaster(f"llm:openai?model=smollm2&base_url={mode('slow')}&timeout=0.5&retries=1", "en")
    master.begin_game(4)
    obs = board_obs()
    start = time.perf_counter()
    decision = master.give_clue(obs)
    assert time.perf_counter() - start < 2.5  # two attempts of 0.5 s, not the server's 3 s each
    entry = master.llm_log[-1]
    assert [r.split(":")[0] for r in entry["refusals"]] == ["backend timeout"] * 2
    assert entry["forfeit"] and legal_fallback(decision, obs)


def test_a_refused_connection_forfeits_the_move():
    with socket.socket() as sock:  # a free port with nothing listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    obs = board_obs(clue="tiger")
    guesser = make_guesser(f"llm:openai?model=x&base_url={url}&retries=2", "en")
    guesser.begin_game(5)
    word = guesser.next_guess(obs)
    entry = guesser.llm_log[-1]
    assert entry["attempts"] == 3 and all(r.startswith("backend refused") for r in entry["refusals"])
    assert word == entry["fallback"] and obs.can_guess(obs.words.index(word))  # must guess: a card it may touch
    master = make_spymaster(f"llm:openai?base_url={url}&retries=0", "en")
    master.begin_game(5)
    assert legal_fallback(master.give_clue(board_obs()), board_obs())
    with pytest.raises(BackendError) as err:
        OpenAIChat("x", url).chat([{"role": "user", "content": "hi"}], timeout=2)
    assert err.value.kind == "refused"
