"""Agents in their own processes: proxies with the interface of the agents they stand for.

`IsolatedSpymaster` / `IsolatedGuesser` are `agents.base.Spymaster` / `Guesser`, and
`IsolatedSpyWordBot` has a Spy's Word bot's `act`: the game loops use them unchanged. Each proxy
starts its agent lazily (in the process that plays, so forked simulator workers each get their
own) as `python -s -m experiments.isolation.worker` with a scrubbed environment, then sends it
observations and reads its answers (experiments/isolation/protocol.py). The game state never
leaves this process, which turns non-dumpable while agents run (hardening.py).

A move that takes longer than `move_timeout` seconds, an agent that dies or raises, an answer
that is not what the protocol says, more than MAX_OUTPUT bytes of prints: each raises `Forfeit`
(an `AgentError`), whose `reason` is "forfeit: <seat> <role>: <why>" (the seat alone when it names
the role: "red-guesser"), and the agent process is killed, with what it started (the next game
starts a fresh one); an illegal move (`forfeit_of`) kills its agent too. The simulators catch it
and record the game as lost by that side.

What an agent prints (its stdout and stderr, one pipe) is read here while any agent is waited on,
its last lines kept for a crash's reason; nothing of it is written to disk.
"""

from __future__ import annotations

import atexit
import os
import select
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path
from typing import Any, Iterable

from agents.base import Guesser, Spymaster
from agents.spec import parse_spec

from experiments.games.moves import AgentError
from experiments.runs.seeds import SECRET_ENV
from experiments.isolation import hardening
from experiments.isolation.protocol import (MAX_LINE, ProtocolError, beliefs_from_json, clue_from_json, decode_line,
                                            encode_line, jsonable, spyword_action_from_json, to_json_dict,
                                            word_from_json)

DEFAULT_MOVE_TIMEOUT = 60.0
MAX_MOVE_TIMEOUT = 86_400  # seconds, a day a move: an unbounded one (inf, 1e300) overflows the clock that times it
MAX_WHY = 500  # characters of a forfeit's reason kept: an answer (a board-sized guess) may be megabytes
DEFAULT_STARTUP_TIMEOUT = 600.0  # building an agent loads its models: minutes for the big ones
MAX_OUTPUT = 16 * 1024 * 1024  # bytes an agent may print while it starts or answers one request
STRAY_TIMEOUT = 5.0  # seconds to kill and reap what agents left behind
PROJECT_ROOT = Path(__file__).resolve().parents[2]
# What an agent process inherits of the environment: where models and caches are, locale, threads.
PASS_ENV = ("PATH", "HOME", "USER", "LANG", "LANGUAGE", "TZ", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV",
            "CNLAB_CACHE", "HF_HOME", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE",
            "HF_HUB_CACHE", "TRANSFORMERS_CACHE", "SENTENCE_TRANSFORMERS_HOME", "TORCH_HOME", "XDG_CACHE_HOME",
            "XDG_DATA_HOME", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "TF_CPP_MIN_LOG_LEVEL",
            "CUDA_VISIBLE_DEVICES")


def checked_move_timeout(seconds) -> float:
    """A move timeout in seconds, in (0, MAX_MOVE_TIMEOUT]: anything else (NaN, inf, 0) is refused before any
    game, as select() would refuse it mid-game (ValueError)."""
    seconds = float(seconds)
    if not 0 < seconds <= MAX_MOVE_TIMEOUT:
        raise ValueError(f"--move-timeout must be a positive number of seconds, at most {MAX_MOVE_TIMEOUT:,} "
                         f"(a day), not {seconds:g}")
    return seconds


class Forfeit(AgentError):
    """An isolated agent lost its game: too slow, dead, raised, garbage, or an illegal move."""

    def __init__(self, seat: str | None, role: str, spec: str, why: str):
        # one line of text: what the agent wrote (an error, its last words, a quoted answer) may hold line
        # ends and terminal escapes, which a reason printed later must not carry out ("\n" stays visible)
        why = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in why)
        if len(why) > MAX_WHY:  # the reason goes into the row and the record: not an agent's megabytes
            why = f"{why[:MAX_WHY]}... ({len(why) - MAX_WHY:,} more characters)"
        self.seat, self.role, self.spec, self.why = seat or "?", role, spec, why
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        who = self.seat if self.seat.endswith(self.role) else f"{self.seat} {self.role}"  # red-guesser, A guesser
        return f"forfeit: {who}: {self.why}"

    def to_dict(self) -> dict:
        return {"seat": self.seat, "role": self.role, "agent": self.spec, "why": self.why, "reason": self.reason}


class _Failure(Exception):
    """What went wrong with an agent process, in words (the proxy adds the seat)."""


_LAST_MOVER: dict[int, "IsolatedAgent"] = {}  # per process: the proxy that answered last


def forfeit_of(exc: BaseException) -> Forfeit:
    """The forfeit an agent error means in isolated play: a `Forfeit` as it is (its process is
    gone); any other `AgentError` (an illegal move, no guess where one is due) is the last mover's,
    whose process is killed here: after any forfeit the agent's next game starts a fresh one."""
    if isinstance(exc, Forfeit):
        return exc
    last = _LAST_MOVER.get(os.getpid())
    if last is None:
        return Forfeit(None, "agent", "?", f"illegal move: {exc}")
    last.close(kill=True)
    return Forfeit(last.seat, last.role, last.spec, f"illegal move: {exc}")


# ----- the game process's side -------------------------------------------------------------------------
class _Guard:
    """Keeps this process non-dumpable while it has agent processes; restores it after."""

    def __init__(self) -> None:
        self.live = 0
        self.saved: bool | None = None
        self.reaper: bool | None = None
        self.pid = os.getpid()

    def acquire(self) -> None:
        if self.pid != os.getpid():  # a forked worker: its own count
            self.live, self.saved, self.reaper, self.pid = 0, None, None, os.getpid()
        if self.live == 0:
            self.saved = hardening.is_dumpable()
            hardening.protect_game_process()
            self.reaper = start_reaping()
        self.live += 1

    def release(self) -> None:
        if self.pid != os.getpid() or self.live == 0:
            return
        self.live -= 1
        if self.live == 0 and self.saved:
            hardening.set_dumpable(True)
        if self.live == 0:
            stop_reaping(self.reaper)


_GUARD = _Guard()
_PROCESSES: "weakref.WeakSet[AgentProcess]" = weakref.WeakSet()


def _outputs() -> dict[int, "AgentProcess"]:
    """The print pipes of this process's agents still to be read: fd -> agent process."""
    return {p.stderr.fileno(): p for p in list(_PROCESSES)
            if p.owner == os.getpid() and p.stderr is not None and not p.overflow}


_BEFORE: dict[int, set[int]] = {}  # per process that reaps: its children in other sessions before it did


def start_reaping() -> bool | None:
    """Make this process a child subreaper, so that what its agents start and leave (a process in a
    session of its own) comes back to it once its parent is gone; returns whether it was one."""
    was = hardening.is_child_subreaper()
    if os.getpid() not in _BEFORE:
        _BEFORE[os.getpid()] = set(hardening.children_in_other_sessions())
    hardening.set_child_subreaper(True)
    return was


def stop_reaping(was: bool | None) -> None:
    if was is False:
        hardening.set_child_subreaper(False)
        _BEFORE.pop(os.getpid(), None)


def reap_strays(timeout: float = STRAY_TIMEOUT) -> list[int]:
    """Kill and reap what agents left behind: children of this (reaping) process in another session
    than its own that are none of its live agents and were not there before it reaped (an agent and
    all it starts are outside this session, and come back here once their parent is gone). Returns
    their pids."""
    deadline, reaped = time.monotonic() + timeout, []
    while os.getpid() in _BEFORE and time.monotonic() < deadline:
        keep = _BEFORE[os.getpid()] | {p.proc.pid for p in list(_PROCESSES)
                                       if p.owner == os.getpid() and p.proc is not None}
        strays = [pid for pid in hardening.children_in_other_sessions() if pid not in keep]
        if not strays:
            break
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in strays:
            while time.monotonic() < deadline:
                try:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        break
                except ChildProcessError:
                    break
                time.sleep(0.005)
        reaped += strays
    return reaped


def child_environment() -> dict[str, str]:
    """The agent's environment: PASS_ENV only (never the seed secret), the project importable."""
    env = {k: v for k, v in os.environ.items() if k in PASS_ENV or k.startswith("LC_")}
    env.pop(SECRET_ENV, None)
    paths = [str(PROJECT_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env.update(PYTHONPATH=os.pathsep.join(dict.fromkeys(paths)), PYTHONHASHSEED="0",
               PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1", CNLAB_ISOLATED="1")
    return env


class AgentProcess:
    """One agent's interpreter and the line protocol to it, every read and write under a deadline."""

    def __init__(self, hello: dict):
        self.hello = hello
        self.owner = os.getpid()
        self.proc: subprocess.Popen | None = None
        self.buffer = b""
        self.sequence = 0  # the id of the last request (the hello is 0): its answer must echo it
        self.stderr = None  # the read end of the agent's prints (stdout and stderr), non-blocking
        self.tail = b""
        self.output = 0  # bytes printed since the last request was sent
        self.overflow = False
        self.ready: dict = {}
        self.launched = False
        self.error: _Failure | None = None
        self.deadline = 0.0
        self.timeout = 0.0

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def usable(self) -> bool:
        return bool(self.ready) and self.alive

    @property
    def pending(self) -> bool:
        """Launched, not yet ready, not closed: `wait_ready` tells how it went."""
        return self.launched and not self.ready and (self.proc is not None or self.error is not None)

    def launch(self, timeout: float) -> None:
        """Start the interpreter and send the hello; do not wait (agents start side by side)."""
        self.launched, self.timeout = True, timeout
        self.deadline = time.monotonic() + timeout
        _GUARD.acquire()  # before the child exists: it never sees this process dumpable
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-s", "-m", "experiments.isolation.worker"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_environment(), close_fds=True,
                start_new_session=True, bufsize=0)
        except OSError as exc:
            _GUARD.release()
            self.error = _Failure(f"could not be started ({exc})")
            return
        self.stderr = self.proc.stderr
        _PROCESSES.add(self)
        os.set_blocking(self.proc.stdin.fileno(), False)
        os.set_blocking(self.stderr.fileno(), False)
        try:
            self._write(encode_line({"op": "hello", "id": 0, **self.hello}), self.deadline, timeout, "started")
        except _Failure as exc:
            self.error = exc

    def wait_ready(self) -> dict:
        """The agent's ready message, within the startup time; _Failure otherwise."""
        if self.error is not None:
            raise self.error
        line = self._read_line(self.deadline, self.timeout, "started")
        ready = self._answer(line)
        if not ready.get("ok"):
            raise _Failure(f"failed to start: {ready.get('error', 'no reason given')}")
        capabilities, hardened = ready.get("capabilities") or [], ready.get("hardening") or {}
        if not (isinstance(capabilities, list) and all(isinstance(c, str) for c in capabilities)
                and isinstance(hardened, dict)):  # the agent can write this line itself
            raise _Failure(f"answered garbage (a ready message holds a list of capabilities and an object of "
                           f"hardening steps: {line[:60]!r})")
        self.ready = ready
        return ready

    def request(self, message: dict, timeout: float, starting: bool = False) -> dict:
        deadline = time.monotonic() + timeout
        what = "started" if starting else "answered"
        self._check_output()
        self.sequence += 1
        self.output = 0
        self._write(encode_line({**message, "id": self.sequence}), deadline, timeout, what)
        return self._answer(self._read_line(deadline, timeout, what))

    def _answer(self, line: bytes) -> dict:
        """The answer to the last request; _Failure when the line is not one, or answers another."""
        try:
            answer = decode_line(line)
        except ProtocolError as exc:
            raise _Failure(f"answered garbage ({exc})") from None
        if answer.get("id") != self.sequence or isinstance(answer.get("id"), bool):
            raise _Failure(f"answered garbage (a line that is no answer to request {self.sequence}: "
                           f"{line[:60]!r})")
        return answer

    def _check_output(self) -> None:
        if self.overflow:
            raise _Failure(f"wrote more than {MAX_OUTPUT // 2**20} MiB of output (stdout, stderr) for one request")

    def _take_output(self) -> None:
        """Read what the agent printed (no wait): keep its last lines, count the bytes."""
        if self.stderr is None:
            return
        try:
            chunk = os.read(self.stderr.fileno(), 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:  # everyone holding the pipe closed it
            self.stderr.close()
            self.stderr = None
            return
        self.tail = (self.tail + chunk)[-8192:]
        self.output += len(chunk)
        self.overflow = self.overflow or self.output > MAX_OUTPUT

    def _select(self, read: list[int], write: list[int], left: float) -> tuple[list[int], list[int]]:
        """select() on the protocol pipe, reading every agent's prints meanwhile."""
        outputs = _outputs()
        readable, writable, _ = select.select(read + list(outputs), write, [], left)
        for fd in readable:
            if fd in outputs:
                outputs[fd]._take_output()
        self._check_output()
        return readable, writable

    def _late(self, timeout: float, what: str) -> _Failure:
        return _Failure(f"no answer within {timeout:g} s" if what == "answered"
                        else f"not started within {timeout:g} s")

    def _write(self, data: bytes, deadline: float, timeout: float, what: str) -> None:
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._late(timeout, what)
            _, ready = self._select([], [fd], left)
            if fd not in ready:
                continue
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise self._died() from None

    def _read_line(self, deadline: float, timeout: float, what: str) -> bytes:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._late(timeout, what)
            ready, _ = self._select([fd], [], left)
            if fd not in ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._died()
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                raise _Failure(f"answered garbage (more than {MAX_LINE} bytes without a line end)")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _died(self) -> _Failure:
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail()
        how = "closed its output" if code is None else (
            f"killed by signal {-code}" if code < 0 else f"exit code {code}")
        return _Failure(f"crashed ({how}{': ' + tail if tail else ''})")

    def stderr_tail(self, limit: int = 300) -> str:
        """The last line the agent wrote on stderr (where its prints go too)."""
        for _ in range(64):  # what is left in the pipe (a dead agent's last words), 4 MiB at most
            if self.stderr is None:
                break
            before = self.output
            self._take_output()
            if self.output == before:
                break
        lines = [l.strip() for l in self.tail.decode("utf-8", "replace").splitlines() if l.strip()]
        return lines[-1][:limit] if lines else ""

    def close(self, kill: bool = False) -> None:
        """Say goodbye (or kill at once), reap the process group, release the guard."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if not kill and proc.poll() is None:
                try:
                    os.write(proc.stdin.fileno(), encode_line({"op": "bye"}))
                    proc.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the agent and anything it started
            except (ProcessLookupError, PermissionError, OSError):
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    stream.close()
                except (OSError, AttributeError):
                    pass
        finally:
            self.stderr = None
            _PROCESSES.discard(self)
            reap_strays()  # what it started in sessions of its own (setsid), orphaned by the kill
            _GUARD.release()


@atexit.register
def _close_all() -> None:
    for process in list(_PROCESSES):
        process.close(kill=True)
    reap_strays()


# ----- the proxies -----------------------------------------------------------------------------------
class IsolatedAgent:
    """What the three proxies share: a lazily started agent process and forfeits on failure."""

    role = "agent"

    def _setup(self, spec: str, language: str, seat: str | None, move_timeout: float,
               startup_timeout: float | None, hello: dict | None = None) -> None:
        try:  # the spec as the in-process agent names itself (agents.registry.make_agent)
            self.spec = str(parse_spec(spec)) if isinstance(spec, str) else str(spec)
        except ValueError:
            self.spec = str(spec)
        self.language = language
        self.seat = self.first_seat = seat  # a shared Codenames agent moves for several seats; seeded for its first
        self.move_timeout = checked_move_timeout(move_timeout)
        self.startup_timeout = float(startup_timeout or max(DEFAULT_STARTUP_TIMEOUT, self.move_timeout))
        self._hello = {"role": self.role, "spec": self.spec, "language": language, **(hello or {})}
        self._process: AgentProcess | None = None
        self._owner: int | None = None
        self.group: list[IsolatedAgent] = [self]  # agents started together (`start_together`)
        self.capabilities: tuple[str, ...] = ()
        self.hardening: dict = {}

    def prepare(self) -> None:
        """Nothing to load here: the agent process prepares itself when it starts."""

    def _forfeit(self, why: str) -> Forfeit:
        return Forfeit(self.seat, self.role, self.spec, why)

    def _owned(self) -> AgentProcess | None:
        return self._process if self._process is not None and self._owner == os.getpid() else None

    def _launch(self) -> None:
        """Start this agent's process here, unless one is running or starting (a fork never
        reuses its parent's: it starts its own)."""
        process = self._owned()
        if process is not None and (process.usable or process.pending or process.ready):
            return  # (one that died after it started is its agent's crash: `_channel` forfeits it)
        if process is not None:
            process.close(kill=True)
        self._process, self._owner = AgentProcess(self._hello), os.getpid()
        self._process.launch(self.startup_timeout)

    def _channel(self) -> AgentProcess:
        process = self._owned()
        if process is not None and process.ready and not process.alive:  # it died since its last answer
            failure = process._died()
            self.close(kill=True)
            raise self._forfeit(str(failure))
        if process is None or not (process.usable or process.pending):
            for peer in self.group:  # the run's other agents start meanwhile
                peer._launch()
            process = self._owned()
        if not process.ready:
            try:
                ready = process.wait_ready()
            except _Failure as exc:
                self.close(kill=True)
                raise self._forfeit(str(exc)) from None
            self.capabilities = tuple(ready.get("capabilities") or ())
            self.hardening = dict(ready.get("hardening") or {})
        return process

    def _call(self, message: dict, seat: str | None = None) -> dict:
        if seat is not None:
            self.seat = seat
        process = self._channel()
        try:
            reply = process.request(message, self.move_timeout)
        except _Failure as exc:
            self.close(kill=True)
            raise self._forfeit(str(exc)) from None
        if not reply.get("ok"):
            self.close(kill=True)
            raise self._forfeit(f"raised {reply.get('error', 'an error')}")
        _LAST_MOVER[os.getpid()] = self
        return reply

    def _garbage(self, exc: Exception) -> Forfeit:
        self.close(kill=True)
        return self._forfeit(f"answered garbage ({exc})")

    def begin_game(self, seed: Any) -> None:
        # the seat it is seeded for (the loops seed a shared agent for its first seat), never the seat of its
        # last move in an earlier game: a forfeit here would name the seat that game left
        self._call({"op": "begin_game", "seed": jsonable(seed)}, self.first_seat)

    def close(self, kill: bool = False) -> None:
        if self._process is not None and self._owner == os.getpid():
            self._process.close(kill=kill)
        self._process = None

    def __getstate__(self):  # never pickle a live process handle
        state = dict(self.__dict__)
        state.update(_process=None, _owner=None)
        return state


def start_together(agents: Iterable[IsolatedAgent]) -> None:
    """When one of these agents is first needed in a process, all of them start side by side."""
    group = list({id(a): a for a in agents}.values())
    for agent in group:
        agent.group = group


class IsolatedSpymaster(IsolatedAgent, Spymaster):
    """A spymaster in its own process (same interface as agents.base.Spymaster)."""

    role = "spymaster"

    def __init__(self, spec: str, language: str = "en", seat: str | None = None,
                 move_timeout: float = DEFAULT_MOVE_TIMEOUT, startup_timeout: float | None = None):
        Spymaster.__init__(self)
        self._setup(spec, language, seat, move_timeout, startup_timeout)

    def give_clue(self, obs):
        reply = self._call({"op": "give_clue", "obs": to_json_dict(obs)}, obs.seat)
        try:
            return clue_from_json(reply.get("clue"))
        except ProtocolError as exc:
            raise self._garbage(exc) from None

    def _choose_cover(self, obs) -> str:
        reply = self._call({"op": "choose_cover", "obs": to_json_dict(obs)}, obs.seat)
        try:
            return word_from_json(reply.get("cover"), False, "cover")
        except ProtocolError as exc:
            raise self._garbage(exc) from None

    def __getattr__(self, name: str):
        # `hasattr(agent, "choose_cover")` (the Codenames loop) is true when the agent has one
        if name == "choose_cover" and name in self.__dict__.get("capabilities", ()):
            return self._choose_cover
        raise AttributeError(name)


class IsolatedGuesser(IsolatedAgent, Guesser):
    """A guesser in its own process (same interface as agents.base.Guesser)."""

    role = "guesser"

    def __init__(self, spec: str, language: str = "en", seat: str | None = None,
                 move_timeout: float = DEFAULT_MOVE_TIMEOUT, startup_timeout: float | None = None):
        Guesser.__init__(self)
        self._setup(spec, language, seat, move_timeout, startup_timeout)

    def next_guess(self, obs):
        reply = self._call({"op": "next_guess", "obs": to_json_dict(obs)}, obs.seat)
        if "guess" not in reply:  # null is a stop: an answer without one (another role's) is none
            raise self._garbage(ProtocolError('an answer to next_guess holds "guess": a word of the board or null'))
        try:
            return word_from_json(reply.get("guess"), True, "guess")
        except ProtocolError as exc:
            raise self._garbage(exc) from None


class IsolatedSpyWordBot(IsolatedAgent):
    """A Spy's Word seat's bot in its own process: `act(obs, avoid)` and `belief_history`."""

    role = "bot"

    def __init__(self, spec: str, language: str = "en", seat: str | None = None,
                 move_timeout: float = DEFAULT_MOVE_TIMEOUT, startup_timeout: float | None = None,
                 prepare_words: Iterable[str] = ()):
        self._setup(spec, language, seat, move_timeout, startup_timeout,
                    hello={"role": "spyword", "prepare_words": list(prepare_words)})
        self.belief_history: list[float] = []

    def begin_game(self, seed: Any) -> None:
        self.belief_history = []
        super().begin_game(seed)

    def act(self, obs, avoid: Iterable[str] = ()):
        reply = self._call({"op": "act", "obs": to_json_dict(obs), "avoid": list(avoid)}, obs.seat)
        if "action" not in reply:
            raise self._garbage(ProtocolError('an answer to act holds "action": an action as in a record, or null'))
        try:
            action = spyword_action_from_json(reply.get("action"), obs.seat, obs.host)
            beliefs = beliefs_from_json(reply.get("beliefs"))
        except ProtocolError as exc:
            raise self._garbage(exc) from None
        self.belief_history = beliefs
        return action
