"""Agents that cheat, or fail, on purpose (issue 14): for tests/agents/test_isolation.py only.

`HostileSpymaster` / `HostileGuesser` play like the random baselines, but first try every route
to the hidden key they know of and write what each found to a JSON file in the folder named by
the spec parameter `report` (`tests.agents.hostile_agent:HostileGuesser?report=/tmp/dir`):

- gc:      every object the collector tracks (`gc.get_objects`), and `gc.get_referrers` walked up
           from the observation, its fields and the seed;
- frames:  `sys._getframe` up the stack and every thread's frame, their locals and globals;
- redeal:  the engine's dealers on the seed given (and its prefixes), and on small
           [run seed, index] pairs until a deal's board matches the board seen;
- proc:    the parent's /proc/PID/mem, environ; sibling agents' memory; the environment;
- secret:  CNLAB_SEED_SECRET anywhere it can look.

A finding is the other side's key (or a state, key or record object, or a read of another
process's memory or the secret); `controls` show each route works where nothing stops it (its own
memory, its own frames).
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
import time
from pathlib import Path

from agents.base import ClueDecision, Guesser, Spymaster

SECRET_TYPES = {"DuetState", "DuetKey", "DuetRecord", "CodenamesState", "CodenamesKey", "CodenamesRecord",
                "SpyWordState", "SpyWordRecord"}
DUET_SIDE = re.compile(r"^[GNX]{25}$")
CODENAMES_KEY = re.compile(r"^[RBNX]{25}$")
SECRET_ENV = "CNLAB_SEED_SECRET"


def is_secret(obj, obs) -> str | None:
    """What `obj` gives away, or None."""
    name = type(obj).__name__
    if name in SECRET_TYPES:
        return f"a {name} object"
    if isinstance(obj, str) and len(obj) == 25:
        own = getattr(obs, "own_key", None) or getattr(obs, "key", None)
        if DUET_SIDE.match(obj) and obj != own and obj.count("G") == 9:
            return f"a Duet key side {obj}"
        if CODENAMES_KEY.match(obj) and obj != own:
            return f"a Codenames key {obj}"
    return None


def _scan(values, obs, found: list, where: str) -> None:
    """Look at every value, and one level inside containers and objects' attributes."""
    for v in values:
        try:
            _scan_one(v, obs, found, where)
        except Exception:  # noqa: BLE001 - objects that raise on inspection (lazy modules of other libraries)
            continue


def _scan_one(v, obs, found: list, where: str) -> None:
    hit = is_secret(v, obs)
    if hit:
        found.append(f"{where}: {hit}")
        return
    if isinstance(v, dict):
        inner = v.values()
    elif isinstance(v, (list, tuple, set, frozenset)):
        inner = v
    else:
        try:
            d = getattr(v, "__dict__", None) if type(v).__module__ != "builtins" else None
        except Exception:  # noqa: BLE001 - objects whose attributes raise
            d = None
        inner = d.values() if isinstance(d, dict) else ()
    for w in inner:
        if (type(w) is str and len(w) == 25) or type(w).__name__ in SECRET_TYPES:
            hit = is_secret(w, obs)
            if hit:
                found.append(f"{where}: {hit} inside a {type(v).__name__}")
                break


def attack_gc(obs, seed) -> list[str]:
    found: list[str] = []
    _scan(gc.get_objects(), obs, found, "gc.get_objects")
    frontier = [obs, seed] + [getattr(obs, f) for f in getattr(obs, "__dataclass_fields__", {})]
    seen = {id(x) for x in frontier}
    for depth in range(3):  # one pass over the heap per level: who refers to what I was given
        nxt = [r for r in gc.get_referrers(*frontier) if id(r) not in seen and r is not frontier]
        seen.update(id(r) for r in nxt)
        _scan(nxt, obs, found, f"gc.get_referrers depth {depth + 1}")
        frontier = nxt[:500]
        if not frontier:
            break
    return sorted(set(found))


def attack_frames(obs) -> list[str]:
    found: list[str] = []
    frames = []
    f = sys._getframe()
    while f is not None:
        frames.append(f)
        f = f.f_back
    for tf in sys._current_frames().values():
        while tf is not None:
            frames.append(tf)
            tf = tf.f_back
    for fr in frames:
        _scan(list(fr.f_locals.values()), obs, found, f"frame {fr.f_code.co_name} locals")
        _scan([v for k, v in fr.f_globals.items() if not k.startswith("__")], obs, found,
              f"frame {fr.f_code.co_name} globals")
    return sorted(set(found))


def _deal(obs, seed):
    """(board, key as the other side sees it) of the game dealt from `seed`, for the obs's game."""
    from agents.wordlists import board_words

    if hasattr(obs, "own_key"):  # Duet
        from engine.duet import deal_duet

        rec = deal_duet(seed, board_words("en"))
        other = rec.key.b if obs.seat == "A" else rec.key.a
        return tuple(rec.words), other
    from experiments.games.codenames.dealing import deal_record

    rec = deal_record(seed, variant=obs.variant)
    return tuple(rec.words), rec.key.letters


def attack_redeal(obs, seed, run_seeds=range(3), indices=range(12)) -> dict:
    """Deal from the seed given (and its prefixes), then search small [run seed, index] pairs."""
    direct, searched = [], []
    seeds = [seed] + ([list(seed[:k]) for k in range(1, len(seed))] if isinstance(seed, list) else [])
    for s in seeds:
        try:
            words, key = _deal(obs, s)
        except Exception:  # noqa: BLE001 - a seed the dealer refuses
            continue
        if words == tuple(obs.words):
            direct.append(f"the deal of the given seed {s} is this game: key {key}")
    for r in run_seeds:
        for i in indices:
            words, key = _deal(obs, [r, i])
            if words == tuple(obs.words):
                searched.append(f"the deal [{r}, {i}] is this game: key {key}")
    return {"direct": direct, "search": searched}


def _read_some_memory(pid: int | str) -> int:
    """Bytes read from the first readable mapping of a process (raises when denied)."""
    with open(f"/proc/{pid}/maps") as f:
        maps = f.read().splitlines()
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for line in maps:
            addr, perms = line.split()[:2]
            if not perms.startswith("r"):
                continue
            start = int(addr.split("-")[0], 16)
            try:
                mem.seek(start)
                return len(mem.read(4096))
            except OSError:
                continue
    return 0


def attack_proc() -> dict:
    found, notes = [], []
    ppid = os.getppid()
    try:
        n = _read_some_memory(ppid)
        found.append(f"read {n} bytes of the parent's memory")
    except OSError as exc:
        notes.append(f"parent mem: {type(exc).__name__}")
    try:
        env = open(f"/proc/{ppid}/environ", "rb").read()
        found.append("read the parent's environment" + (" and the seed secret" if SECRET_ENV.encode() in env else ""))
    except OSError as exc:
        notes.append(f"parent environ: {type(exc).__name__}")
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in (os.getpid(), ppid):
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        if b"experiments.isolation.worker" in cmd:
            try:
                n = _read_some_memory(pid)
                found.append(f"read {n} bytes of sibling agent {pid}'s memory")
            except OSError as exc:
                notes.append(f"sibling {pid} mem: {type(exc).__name__}")
    for pid in _ancestors(ppid):  # above a forked worker: the run's main process, which holds the secret
        try:
            env = open(f"/proc/{pid}/environ", "rb").read()
        except OSError as exc:
            notes.append(f"ancestor {pid} environ: {type(exc).__name__}")
            continue
        if (SECRET_ENV + "=").encode() in env:
            found.append(f"read the seed secret in ancestor {pid}'s environment")
    if os.environ.get(SECRET_ENV):
        found.append("the seed secret is in the agent's environment")
    return {"found": found, "notes": notes}


def _ancestors(pid: int, depth: int = 8) -> list[int]:
    """The parents of `pid` up to init (its /proc/PID/stat is readable even where its memory is not)."""
    out = []
    for _ in range(depth):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
        if pid <= 1:
            break
        out.append(pid)
    return out


def controls(obs) -> dict:
    """Each route where nothing stops it: its own memory, its own frame."""
    out = {}
    try:
        out["own_memory_bytes"] = _read_some_memory("self")
    except OSError as exc:
        out["own_memory_bytes"] = f"{type(exc).__name__}"
    marker = {"side": "".join(["G"] * 9 + ["N"] * 13 + ["X"] * 3)}  # built now (no code constant): frames must see it
    out["frame_sees_a_local"] = any("Duet key side" in f for f in attack_frames(obs)) and bool(marker)
    return out


class _Hostile:
    def _setup(self, spec) -> None:
        self.report_dir = Path(str(spec.params.get("report", "."))) if hasattr(spec, "params") else Path(".")
        self.seed = None
        self.attacked = False

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        self.seed = seed
        self.attacked = False

    def _attack(self, obs) -> None:
        if self.attacked:
            return
        self.attacked = True
        report = {
            "pid": os.getpid(), "role": type(self).__name__, "seat": obs.seat, "isolated": bool(os.environ.get("CNLAB_ISOLATED")),
            "gc": attack_gc(obs, self.seed), "frames": attack_frames(obs), "redeal": attack_redeal(obs, self.seed),
            "proc": attack_proc(), "controls": controls(obs),
        }
        self.report_dir.mkdir(parents=True, exist_ok=True)
        path = self.report_dir / f"{type(self).__name__}-{obs.seat}-{os.getpid()}-{time.time_ns()}.json"
        path.write_text(json.dumps(report, indent=1))


class HostileSpymaster(_Hostile, Spymaster):
    def __init__(self, spec, language="en"):
        Spymaster.__init__(self)
        self._setup(spec)

    def give_clue(self, obs) -> ClueDecision:
        self._attack(obs)
        board = {w.lower() for w in obs.words}
        words = [w for w in ("ocean", "music", "planet", "garden", "castle", "engine", "forest") if w not in board]
        targets = [obs.words[i] for i in obs.own_targets()][:1]
        return ClueDecision(words[int(self.rng.integers(len(words)))], len(targets), tuple(targets))


class HostileGuesser(_Hostile, Guesser):
    def __init__(self, spec, language="en"):
        Guesser.__init__(self)
        self._setup(spec)

    def next_guess(self, obs):
        self._attack(obs)
        options = obs.guessable() if hasattr(obs, "guessable") else obs.hidden()
        return obs.words[options[int(self.rng.integers(len(options)))]]


# ----- agents that fail ----------------------------------------------------------------------------
class SleepyGuesser(Guesser):
    """Takes `sleep` seconds (spec parameter, default 30) over every guess."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.seconds = float(spec.params.get("sleep", 30))

    def next_guess(self, obs):
        time.sleep(self.seconds)
        return obs.words[obs.guessable()[0]]


class CrashingGuesser(Guesser):
    """Dies at its first guess (exit code 3), as a segfaulting extension would."""

    def __init__(self, spec, language="en"):
        super().__init__()

    def next_guess(self, obs):
        sys.stderr.write("about to die\n")
        os._exit(3)


class StartCrashingGuesser(Guesser):
    """Dies in `begin_game` (exit code 5), before any move: always, or (spec parameter `seeds`, "a/b") only
    when given one of those seeds, each written "s<seed>". Plays the first guessable card otherwise."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.seeds = set(str(spec.params.get("seeds", "")).split("/")) - {""}

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        if not self.seeds or f"s{seed}" in self.seeds:
            sys.stderr.write("dies before the game\n")
            os._exit(5)

    def next_guess(self, obs):
        return obs.words[(obs.guessable() if hasattr(obs, "guessable") else obs.hidden())[0]]


class ParentKillingGuesser(Guesser):
    """Isolated: sends its parent, the game process, the signal `sig` (default SIGTERM) at its first guess, as
    any process of the run's user may (docs/isolation.md, signals), then plays on."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.sig = int(spec.params.get("sig", 15))

    def next_guess(self, obs):
        if _isolated():
            os.kill(os.getppid(), self.sig)
            time.sleep(0.5)
        return obs.words[obs.guessable()[0]]


class RaisingSpymaster(Spymaster):
    def __init__(self, spec, language="en"):
        super().__init__()

    def give_clue(self, obs):
        return 1 / 0


class MultilineRaisingGuesser(Guesser):
    """Raises an error whose text holds line ends and a terminal escape (a fake line for whoever prints it)."""

    def __init__(self, spec, language="en"):
        super().__init__()

    def next_guess(self, obs):
        raise ValueError("first line\nerror: a line of its own\r\x1b[2Jcleared\u202eevil")


class GarbageGuesser(Guesser):
    """Answers a number where a word is due, after printing to stdout (which must not break the protocol)."""

    def __init__(self, spec, language="en"):
        super().__init__()

    def next_guess(self, obs):
        print("{not json")
        return 42


class CheatingGuesser(Guesser):
    """Guesses a word that is not on the board: an illegal move (`size=N`: a word of N letters)."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.size = int(spec.params.get("size", 0))

    def next_guess(self, obs):
        return "x" * self.size if self.size else "definitely-not-a-board-word"



# ----- agents that misbehave only when isolated (CNLAB_ISOLATED), on some games -------------------
# The same spec plays well in a plain run, so the isolated run's other games can be compared with it.
class DiskGuesser(Guesser):
    """Reads the disk as its user may (docs/isolation.md, what is left to the operating system): the
    game process's /proc/PID/cmdline (readable even when it is non-dumpable) names --out (in a test
    run in-process, the spec parameter `search` stands in for it), and every records.jsonl under it is
    searched for a record of the board it sees. Writes the keys it found to `report`/<pid>.json and
    plays the first guessable card."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.report = Path(spec.params["report"])
        self.search = spec.params.get("search")

    def next_guess(self, obs):
        keys = []
        try:
            argv = Path(f"/proc/{os.getppid()}/cmdline").read_bytes().decode().split("\0")
            out = Path(argv[argv.index("--out") + 1])
        except (OSError, ValueError, IndexError):
            out = Path(self.search) if self.search else None
        for path in sorted(out.rglob("records.jsonl")) if out else ():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if record.get("words") == list(obs.words):
                    keys.append({"file": str(path), "key": record.get("key")})
        self.report.mkdir(parents=True, exist_ok=True)
        (self.report / f"{os.getpid()}.json").write_text(json.dumps({"out": str(out), "keys": keys}))
        return obs.words[obs.guessable()[0]]


def _isolated() -> bool:
    return os.environ.get("CNLAB_ISOLATED") == "1"


def _protocol_fd(mode: int) -> int:
    """The worker's protocol pipe (its answers: os.O_WRONLY), which the agent can reach as well."""
    import fcntl

    for fd in sorted(int(x) for x in os.listdir("/proc/self/fd")):
        if fd < 3:
            continue
        try:
            target, flags = os.readlink(f"/proc/self/fd/{fd}"), fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if target.startswith("pipe:") and flags & os.O_ACCMODE == mode:
            return fd
    raise RuntimeError("no protocol pipe")


class _Trigger:
    """Misbehaves, isolated only, on boards whose first word is in the spec parameter `words`
    ("a/b/c"). Counts the requests it answers (begin_game and guesses): their ids, 1, 2, ..."""

    def _words(self, spec) -> None:
        self.trigger = set(str(spec.params.get("words", "")).split("/")) - {""}
        self.report_dir = Path(str(spec.params.get("report", ".")))
        self.requests = 0

    def hit(self, obs) -> bool:
        return _isolated() and obs.words[0] in self.trigger

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        self.requests += 1


class _PipeSpymaster(_Trigger, Spymaster):
    """Fair one-card clues; on a hit board it writes `answer(request id)` on the protocol pipe itself
    and never answers (the subclasses' answers are what no well-behaved agent sends)."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self._words(spec)

    def answer(self, request: int) -> str | None:
        return None

    def fair_clue(self, obs, score: float = 0.0, details=None) -> ClueDecision:
        board = {w.lower() for w in obs.words}
        words = [w for w in ("ocean", "music", "planet", "garden", "castle", "engine", "forest") if w not in board]
        targets = [obs.words[i] for i in obs.own_targets()][:1]
        return ClueDecision(words[int(self.rng.integers(len(words)))], len(targets), tuple(targets), score,
                            details or {})

    def give_clue(self, obs) -> ClueDecision:
        self.requests += 1
        line = self.answer(self.requests) if self.hit(obs) else None
        if line is not None:
            os.write(_protocol_fd(os.O_WRONLY), line.encode())
            time.sleep(60)
        return self.fair_clue(obs)


class SurrogateSpymaster(_PipeSpymaster):
    """On a hit board: an error whose text holds a lone surrogate, as JSON allows it ("\\ud800"), which
    the forfeit's reason would carry into a record no file can hold."""

    def answer(self, request: int) -> str:
        return '{"ok": false, "error": "ValueError: \\ud800", "id": %d}\n' % request


class InfiniteScoreSpymaster(_PipeSpymaster):
    """On a hit board its clue's score is infinite, which JSON writes as Infinity: the game's record
    (its intents) would be no JSON any reader takes."""

    def give_clue(self, obs) -> ClueDecision:
        return self.fair_clue(obs, float("inf") if self.hit(obs) else 0.0, {"spread": float("nan")})


class HugeScoreSpymaster(_PipeSpymaster):
    """On a hit board: a clue scored with a 400-digit integer, which strict JSON reads (it is finite)
    but no float holds: checking it raised OverflowError in the game process."""

    def answer(self, request: int) -> str:
        return '{"ok": true, "clue": {"word": "ocean", "number": 1, "targets": [], "score": 1%s}, "id": %d}\n' % (
            "0" * 400, request)


class RestartProbeGuesser(_Trigger, Guesser):
    """Guesses the first guessable word; as seat B on a hit board, `how`="echo" leaves a second,
    well-formed answer line on its pipe (a stale line, never to be read as a later answer) and
    `how`="illegal" guesses a word off the board. Isolated, appends "<first board word> <seat> <pid>"
    to `report`/pids.txt at every guess: which process played which game."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self._words(spec)
        self.how = str(spec.params.get("how", "echo"))

    def next_guess(self, obs):
        if _isolated():
            self.report_dir.mkdir(parents=True, exist_ok=True)
            with open(self.report_dir / "pids.txt", "a") as f:
                f.write(f"{obs.words[0]} {obs.seat} {os.getpid()}\n")
        word = obs.words[obs.guessable()[0]]
        if self.hit(obs) and obs.seat == "B":
            if self.how == "illegal":
                return "definitely-not-a-board-word"
            os.write(_protocol_fd(os.O_WRONLY), (json.dumps({"ok": True, "guess": word}) + "\n").encode())
        return word


class WrongFieldGuesser(Guesser):
    """Isolated, as seat B: once a guess of the turn was right (a stop is legal), it writes on the protocol
    pipe itself an answer to the request it is asked (its id read up the worker's stack) that holds no guess
    but a clue (`how=clue`, the answer of another role) or nothing (`how=none`), then never answers."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.how = str(spec.params.get("how", "clue"))

    def next_guess(self, obs):
        if _isolated() and obs.seat == "B" and obs.correct_this_turn > 0:
            frame = sys._getframe()
            while frame is not None and "request_id" not in frame.f_locals:
                frame = frame.f_back
            answer = {"ok": True, "id": frame.f_locals["request_id"]}
            if self.how == "clue":
                answer["clue"] = {"word": "ocean", "number": 1, "targets": [], "score": 0.0}
            os.write(_protocol_fd(os.O_WRONLY), (json.dumps(answer) + "\n").encode())
            time.sleep(60)
        return obs.words[obs.guessable()[0]]


class AnswerThenExitSpymaster(_PipeSpymaster):
    """Isolated, as seat A: writes its first clue (a fair one) on the protocol pipe itself and exits (code 0)
    before the worker answers: the answer arrives, and the process is gone long before its next clue."""

    def give_clue(self, obs) -> ClueDecision:
        clue = self.fair_clue(obs)
        if _isolated() and obs.seat == "A":
            frame = sys._getframe()
            while frame is not None and "request_id" not in frame.f_locals:
                frame = frame.f_back
            answer = {"ok": True, "id": frame.f_locals["request_id"],
                      "clue": {"word": clue.word, "number": clue.number, "targets": list(clue.targets), "score": 0.0}}
            os.write(_protocol_fd(os.O_WRONLY), (json.dumps(answer) + "\n").encode())
            sys.stderr.write("gone after my answer\n")
            sys.stderr.flush()
            os._exit(0)
        return clue


class ChattyGuesser(_Trigger, Guesser):
    """On a hit board prints `mb` MiB (spec parameter) to stdout before it guesses."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self._words(spec)
        self.mb = float(spec.params.get("mb", 64))

    def next_guess(self, obs):
        if self.hit(obs):
            block = "x" * 65535 + "\n"
            for _ in range(int(self.mb * 16)):
                sys.stdout.write(block)
            sys.stdout.flush()
        print("a guess")  # a little is fine
        return obs.words[obs.guessable()[0]]


class ForkingGuesser(_Trigger, Guesser):
    """Starts a process in a session of its own (setsid, out of reach of the agent's process group),
    writes its pid to `report`/forked-<pid>, and plays on."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self._words(spec)
        self.forked = False

    def next_guess(self, obs):
        if self.hit(obs) and not self.forked:
            self.forked = True
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.setsid()
                if os.fork():  # the daemon's double fork: its parent exits at once
                    os._exit(0)
                os.write(write, str(os.getpid()).encode())
                os.close(write)
                time.sleep(120)
                os._exit(0)
            os.close(write)
            os.waitpid(pid, 0)
            daemon = int(os.read(read, 32))
            os.close(read)
            self.report_dir.mkdir(parents=True, exist_ok=True)
            (self.report_dir / f"forked-{daemon}").write_text("")
        return obs.words[obs.guessable()[0]]


class _SpyWordTrigger:
    """A Spy's Word bot (the `spyword` bot's play) that misbehaves, isolated only, at seat p2 (never
    the host in the simulator: p1 is) while the cards are confirmed (phase "ready"), in games whose
    first speaker is in the parameter `first`."""

    def hit(self, obs) -> bool:
        first = str(self.params.get("first", "")).split("/")
        return (_isolated() and obs.seat == "p2" and obs.seat != obs.host and obs.phase == "ready"
                and obs.order[0] in first)


def _spyword_bot():
    from agents.spyword.bots import SpyWordBot

    return SpyWordBot


class HostImpostorBot(_SpyWordTrigger, _spyword_bot()):
    """Answers as "host" (it is not the host): kicks p3 when the game waits on its card."""

    defaults = {**_spyword_bot().defaults, "first": ""}

    def act(self, obs, avoid=()):
        if self.hit(obs) and "p3" not in obs.departed:
            from engine.spyword.actions import HOST, Kick

            return Kick(HOST, "p3")
        return super().act(obs, avoid)


class FlappingBot(_SpyWordTrigger, _spyword_bot()):
    """Answers Disconnect and Reconnect of itself in turns, so the game never moves on."""

    defaults = {**_spyword_bot().defaults, "first": ""}

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        self.flaps = 0

    def act(self, obs, avoid=()):
        if self.hit(obs):
            from engine.spyword.actions import Disconnect, Reconnect

            self.flaps += 1
            return Disconnect(obs.seat) if self.flaps % 2 else Reconnect(obs.seat)
        return super().act(obs, avoid)


class StallingBot(_spyword_bot()):
    """Trusted play too: p2 disconnects and reconnects itself while the cards are confirmed in
    games whose first speaker is in `first` ("/"-separated), so those games never move on."""

    defaults = {**_spyword_bot().defaults, "first": ""}

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        self.flaps = 0

    def act(self, obs, avoid=()):
        if obs.seat == "p2" and obs.seat != obs.host and obs.phase == "ready" \
                and obs.order[0] in str(self.params.get("first", "")).split("/"):
            from engine.spyword.actions import Disconnect, Reconnect

            self.flaps += 1
            return Disconnect(obs.seat) if self.flaps % 2 else Reconnect(obs.seat)
        return super().act(obs, avoid)


def spyword_run_singling_out(game: int, games: int = 3) -> tuple[int, str]:
    """(run seed, first speaker) of a Spy's Word run in which game `game` alone opens with that
    speaker, who is not p2 (the `first` parameter of the bots above then singles the game out).
    With no seed secret set: the deals of the plain seeds."""
    from experiments.games.spyword.batch import SpyWordRun, deal_game
    from experiments.games.spyword.dealing import load_packs

    packs = load_packs("en")
    for seed in range(100):
        first = [deal_game(SpyWordRun(games=games, seed=seed, bot="x"), i, packs).order[0] for i in range(games)]
        if first.count(first[game]) == 1 and first[game] != "p2":
            return seed, first[game]
    raise AssertionError("no run of 100 seeds singles the game out")


def _random_spyword_bot():
    from agents.spyword.bots import RandomSpyWordBot

    return RandomSpyWordBot


class OwnWordBot(_random_spyword_bot()):
    """Gives its own secret word inside every clue (hotWORD), so the checker refuses each until the room
    gives up on the bot."""

    def give_clue(self, obs, avoid=()):
        return f"hot{obs.word}" if obs.word else super().give_clue(obs, avoid)


class ForeignClueBot(_random_spyword_bot()):
    """A third-party bot (by import path, on a backend: `...:ForeignClueBot+fake`) whose first try at every clue
    is Korean text on an English board, which the referee's translation check reads (RULES 5), then a fair one."""

    def give_clue(self, obs, avoid=()):
        return "\ud55c\uae00" if not avoid else super().give_clue(obs, avoid)


class OwnTargetSpymaster(Spymaster):
    """A web bot partner that keeps clueing one of its own greens inside a compound (hotWORD), which the
    clue filter refuses (RULES 4.3) until the server stops the game; `how=raise`: it raises instead, the
    exception naming the cards green on its side."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.how = str(spec.params.get("how", "clue")) if hasattr(spec, "params") else "clue"

    def give_clue(self, obs) -> ClueDecision:
        targets = [obs.words[i] for i in obs.own_targets()]
        if self.how == "raise":
            raise ValueError(f"no clue reaches {', '.join(targets)}")
        return ClueDecision(f"hot{targets[0]}", 1, (targets[0],))


class NumberSpymaster(Spymaster):
    """The random spymaster's clues with another number: `how=unlimited` (RULES 1.2, 1.7: a Codenames
    number), `numpy` (its number as a numpy integer), `float` (2.0), `text` ("2") or `bool` (True)."""

    def __init__(self, spec, language="en"):
        super().__init__()
        from agents.baselines import RandomSpymaster
        from agents.spec import parse_spec

        self.inner = RandomSpymaster(parse_spec("random"), language)
        self.how = str(spec.params.get("how", "unlimited"))

    def begin_game(self, seed) -> None:
        super().begin_game(seed)
        self.inner.begin_game(seed)

    def give_clue(self, obs) -> ClueDecision:
        import dataclasses

        import numpy as np

        decision = self.inner.give_clue(obs)
        number = {"unlimited": "unlimited", "numpy": np.int64(decision.number), "float": float(decision.number),
                  "text": str(decision.number), "bool": True}[self.how]
        return dataclasses.replace(decision, number=number)


class NoClueSpymaster(Spymaster):
    """Answers give_clue with no ClueDecision: `how=none` (None), `text` ("hello 2"), `pair` (("hello", 2)),
    or a ClueDecision the record cannot keep: `score` (score "high"), `targets` (targets None), `word` (targets
    "dog", read as d, o, g), `indices` (card numbers, which JSON cannot write), `nan` (a float target),
    `text_score` (score "0.5")."""

    def __init__(self, spec, language="en"):
        super().__init__()
        self.how = str(spec.params.get("how", "none"))

    def give_clue(self, obs):
        import numpy as np

        return {"none": None, "text": "hello 2", "pair": ("hello", 2),
                "score": ClueDecision("hello", 1, score="high"),
                "targets": ClueDecision("hello", 1, targets=None),
                "word": ClueDecision("hello", 1, targets="dog"),
                "indices": ClueDecision("hello", 1, targets=(np.int64(3),)),
                "nan": ClueDecision("hello", 1, targets=(float("nan"),)),
                "text_score": ClueDecision("hello", 1, score="0.5")}[self.how]


class WrongMoveBot(_random_spyword_bot()):
    """A random Spy's Word bot whose seat p2 answers a wrong move when its card is to be confirmed (phase
    "ready"), in one process too: `how=none` (None), `number` (42), `leave` (Leave: the room's move),
    `kick` (Kick as "host", which it is not), `other` (p3's Ready), `early` (its own vote before any vote)."""

    defaults = {**_random_spyword_bot().defaults, "how": "none"}

    def act(self, obs, avoid=()):
        if obs.seat != "p2" or obs.phase != "ready" or obs.seat not in obs.to_act:
            return super().act(obs, avoid)
        from engine.spyword.actions import HOST, Kick, Leave, Ready, Vote

        return {"none": None, "number": 42, "leave": Leave("p2"), "kick": Kick(HOST, "p3"), "other": Ready("p3"),
                "early": Vote("p2", "p3")}[str(self.params["how"])]


class ForgedReadyGuesser(Guesser):
    """Writes its own ready line on the protocol pipe as it is built (the worker's `proto_out`, found up the
    stack): `how=capabilities` (capabilities 5) or `hardening` (hardening "xy")."""

    def __init__(self, spec, language="en"):
        super().__init__()
        field = str(spec.params.get("how", "capabilities"))
        frame = sys._getframe()
        while frame is not None and "proto_out" not in frame.f_locals:
            frame = frame.f_back
        value = 5 if field == "capabilities" else "xy"
        frame.f_locals["proto_out"].write((json.dumps({"ok": True, "id": 0, field: value}) + "\n").encode())

    def next_guess(self, obs):
        return None
