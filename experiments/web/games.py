"""The web server's one adapter to the engines: dealing from the page's settings, the seats, each
seat's observation as JSON, the page's moves as engine actions, bot turns, outcomes and replays.

Everything game-specific the server does goes through `ADAPTERS` (Duet, Codenames, Pictures);
dealing goes through each game's harness in the registry (`engine.game.GAMES`), like `cnlab deal`.

Hidden information: a seat's JSON (`seat_view`) is built from `state.observe(seat)` and nothing
else of the state, except what the rules make public (the score of a finished game) and, once the
game is over, the whole key (`reveal`). A bot's intended targets (its `ClueDecision.targets`) are
shown only after its clue is resolved, and in Codenames only to the bot's own team.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from agents.defaults import guesser_for_people
from engine import Clue, Cover, Guess, Stop
from engine.actions import UNLIMITED, written_clue_number
from engine.record_fields import MAX_SEED
from engine.refusals import refusal
from experiments.games.moves import clue_number
from experiments.web.messages import refusal_line

PERSON, BOT = "person", "bot"
MAX_CLUE_CHARS = 40
MAX_SPEC_CHARS = 200   # a bot's agent spec from the page
BOT_CLUE_RETRIES = 20   # a bot whose clue the filter refuses draws again, this many times at most
LANGUAGES = ("en", "ko")


class BadSetup(ValueError):
    """Settings of a new game that cannot be played (HTTP 400 with this message). `kind` and `fields`
    go with it, so that a page words it in its own language (app.js, `e_KIND`): the message is English."""

    def __init__(self, message: str, kind: str | None = None, **fields):
        super().__init__(message)
        self.kind, self.fields = kind, fields


class ServerFull(BadSetup):
    """No new game now: the server has as many games in play as it keeps (HTTP 503)."""


class BadMove(ValueError):
    """A message from the page that is not a move of this seat (the state is unchanged). `kind`: its
    line in `messages.REFUSALS` (the message is the English one; `text` words it for a board)."""

    def __init__(self, kind: str, code: str = "bad_move", **fields):
        self.kind, self.fields, self.code = kind, fields, code
        self.message = refusal_line(kind, "en", **fields)
        super().__init__(self.message)

    def text(self, language: str | None) -> str:
        """The refusal in the board's `language`, as `engine.refusals.refusal_text` words the engines'."""
        return refusal_line(self.kind, language, **self.fields)


class Pass:
    """Duet sudden death (RULES 3.9): this seat does not guess now (not an engine action)."""


class PartnerFirst:
    """Duet: the person lets the bot partner give the first clue (not an engine action)."""


# ----- the clue referee ------------------------------------------------------------------------------
def judge_clue(word: str, number, board, covered, language: str | None) -> tuple[str, str] | None:
    """The project's clue filter (RULES 4) on the visible words: (rule, message) or None. Without
    the filter's packages only the plain checks remain (one word, not a visible word), worded in the
    board's language as the filter's verdicts are."""
    try:
        from engine.clues import FilterUnavailable, check_clue
    except ImportError:  # the filter's packages are not installed
        check_clue = None
    if check_clue is not None:
        try:
            verdict = check_clue(word, number, board=list(board), language=language or "en", covered=list(covered))
            return None if verdict.legal else (verdict.rule, verdict.message)
        except (FilterUnavailable, ImportError):  # its morphology model is missing
            pass
    w = word.strip().casefold()
    if len(w.split()) > 1:
        return "4.7", refusal_line("basic_one_word", language, word=word)
    for b in board:
        if b.casefold() in w or w in b.casefold():
            return "4.3", refusal_line("basic_visible", language, word=b)
    return None


#: Verdicts a referee keeps for the engine's call. The engine never asks for one of a clue it refuses
#: first (out of turn, a bad number): without a bound, a page sending such clues grew the server's memory.
MAX_READY = 16


def keep_ready(ready: dict, key, verdict) -> None:
    """Keep `verdict` under `key` for the engine's call, dropping the oldest beyond MAX_READY."""
    ready.pop(key, None)
    ready[key] = verdict
    while len(ready) > MAX_READY:
        ready.pop(next(iter(ready)))


class WebReferee:
    """The engine's clue referee for a game in the browser.

    `trust` (while a record is replayed to resume it): every recorded clue was judged when it was
    given. `prejudge` runs the filter in a worker thread; the engine's call in the server's event
    loop then finds the verdict ready (so a slow first load of the Korean morphology never stalls
    the page).
    """

    def __init__(self) -> None:
        self.trust = True
        self._ready: dict[tuple, tuple[str, str] | None] = {}

    @staticmethod
    def _key(word, number, board, covered, language) -> tuple:
        return (word, number, tuple(board), tuple(covered), language)

    def prejudge(self, word, number, board, covered, language) -> None:
        verdict = judge_clue(word.strip(), number, board, covered, language)
        keep_ready(self._ready, self._key(word.strip(), number, board, covered, language), verdict)

    def __call__(self, word, number, board, covered, language):
        if self.trust:
            return None
        key = self._key(word, number, board, covered, language)
        if key in self._ready:
            return self._ready.pop(key)
        return judge_clue(word, number, board, covered, language)


# ----- shared helpers --------------------------------------------------------------------------------
def text(kind: str, **fields) -> dict:
    """A server text by kind: {kind, fields}, sent beside its English (how a game ended, a stopped bot, a
    listed game's result) for a page to word in its own language (app.js, s_KIND)."""
    return {"kind": kind, "fields": fields}


def bot_failed(seat: str, exc: BaseException) -> str:
    """What the table (every seat, and the games listing) reads of a bot that failed: the exception's
    type only; its text may name the bot's cards or secret word (the server's log keeps it)."""
    return f"the bot on seat {seat} failed ({type(exc).__name__})"


def deal(game: str, seed: int, lang: str, **options):
    """A new record by the game's harness (`engine.game.GAMES`, as `cnlab deal`)."""
    from experiments.games import harness

    return harness(game).deal_record(seed=seed, lang=lang, game=game, **options)


def _spec_text(spec, name: str) -> str:
    """`spec` stripped, or BadSetup unless it is a string of at most MAX_SPEC_CHARS: a refusal quoting
    a longer one would be as long. Both checks of a page's spec (`check_page_spec`, `_spec`) go here."""
    if not isinstance(spec, str) or len(spec) > MAX_SPEC_CHARS:   # 0, false, [] are no spec (they read as not named)
        raise BadSetup(f"{name}: an agent spec string of at most {MAX_SPEC_CHARS} characters", "spec_long", role=name,
                       most=MAX_SPEC_CHARS)
    return spec.strip()


#: Registered agents a page may not name unless the server runs with `--any-bot`: a language-model
#: bot's spec names the service its seat's observation (the key) is sent to, and the variable holding
#: the service's key (docs/llm_agents.md).
OPERATOR_AGENTS = frozenset({"llm"})


def check_page_spec(spec, role: str) -> None:
    """BadSetup unless a page may name `spec` for a bot: a registered agent (not `OPERATOR_AGENTS`) on
    registered backends, with no free-text parameter (numbers and the agent's named choices only).
    A third-party import path is imported to be checked (its code runs in the server), a backend may
    be a model file of the server's disk and a free-text parameter a file to read (`human?weights=`):
    those are for whoever runs the server (`cnlab serve --any-bot`), never for a page. Checked before
    the spec is imported or built."""
    from agents.embeddings.registry import available_backends, is_registered
    from agents.registry import agent_class, is_import_path
    from agents.spec import parse_spec

    if not isinstance(spec, str) or not spec.strip():
        return   # _spec says what is wrong with it
    spec = _spec_text(spec, role)
    try:
        parsed = parse_spec(spec)
    except ValueError as exc:
        raise BadSetup(f"{role}: {exc}", "spec", role=role, spec=spec[:40]) from None
    if is_import_path(parsed.name) or parsed.name in OPERATOR_AGENTS:
        raise BadSetup(f"{role}: {parsed.name!r} is not offered by this server: third-party and language-model "
                       "bots are for the server's operator (cnlab serve --any-bot)", "spec_operator", role=role,
                       spec=parsed.name[:40])
    try:
        cls = agent_class(parsed, role)   # a registered agent: our own code
    except ValueError as exc:
        raise BadSetup(f"{role}: {exc}", "spec", role=role, spec=spec[:40]) from None
    for backend in parsed.backends:
        if not is_registered(backend):
            raise BadSetup(f"{role}: unknown embedding backend {backend[:40]!r}: use one of "
                           f"{', '.join(available_backends())}", "spec_backend", role=role, backend=backend[:40])
    defaults, limits = getattr(cls, "defaults", None) or {}, getattr(cls, "limits", None) or {}
    for key, value in parsed.params.items():
        limit = limits.get(key)
        if key in defaults and isinstance(value, str) and not (limit is not None and limit.choices):
            raise BadSetup(f"{role}: {key}= takes free text (a file, a model) on this server's disk: "
                           "for the server's operator (cnlab serve --any-bot)", "spec_free_text", role=role, key=key[:40])


def _spec(raw: dict, name: str, default: str, role: str, lang: str) -> str:
    """The spec of a bot seat, checked as `cnlab play` checks it: a backend that does not read the
    board's language (glove-50 on a Korean board) is refused here, not when the bot first moves."""
    from agents.registry import check_spec

    spec = raw.get(name)
    if spec is None or spec == "":   # not named (the page sends its empty field): the default bot
        spec = default
    spec = _spec_text(spec, name)
    try:
        check_spec(spec, role, lang)
    except ValueError as exc:
        raise BadSetup(f"{name}: {exc}", "spec", role=name, spec=spec[:40]) from None
    return spec


def bot_seed(secret: bytes, deal_seed: int | None, seat: str, role: str, game: int = 0) -> int:
    """A web bot's seed (`Agent.begin_game`): a hash of the deal's seed keyed with the server's own
    secret (`create_app(bot_secret=...)`, drawn at start unless given), so no bot (they run in the
    server's process, some named by import path) can deal the game again and read the keys from its
    generator (experiments.runs.seeds). Bots' moves are reproducible within one server."""
    from experiments.runs.seeds import agent_seed, run_secret

    return agent_seed([deal_seed or 0, game], seat, role, secret=run_secret() + secret)


def hash_token(token: str) -> str:
    """What a saved game or room keeps of a join link's secret: its SHA-256, never the secret."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_token_hash(digest: Any) -> bool:
    """Whether a saved file's token hash is one `hash_token` writes: any other text no link opens."""
    return isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest) is not None


def draw_seed() -> int:
    """A deal seed the server draws (games, Spy's Word rooms): one of 2^63, too many deals to search by
    matching a board."""
    return secrets.randbelow(2**63)


def _seed(raw: dict) -> int:
    seed = raw.get("seed")
    if seed in (None, ""):
        return draw_seed()
    if isinstance(seed, str):   # the page's seed field sends its text
        seed = int(seed) if re.fullmatch(r"\s*-?[0-9]{1,25}\s*", seed) else None
    if isinstance(seed, bool) or not isinstance(seed, int):   # true, 1.5, 1e400 (inf): no seed
        raise BadSetup("seed: a whole number", "seed_number")
    if not 0 <= seed <= MAX_SEED:   # every seed `cnlab deal` takes and the server draws (draw_seed)
        raise BadSetup("seed: 0 .. 2^64-1", "seed_range")
    return seed


def _lang(raw: dict) -> str:
    lang = raw.get("lang", "en")
    if lang not in LANGUAGES:
        raise BadSetup(f"lang: en or ko, not {str(lang)[:30]!r}", "lang")
    return lang


def _card(msg: dict, words) -> str:
    card = msg.get("card")
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(words):
        raise BadMove("card", last=len(words) - 1)
    return words[card]


def _clue(msg: dict, seat: str, unlimited: bool) -> Clue:
    word, number = msg.get("word"), msg.get("number")
    if not isinstance(word, str) or not word.strip():
        raise BadMove("clue_word", code="bad_clue")
    if len(word) > MAX_CLUE_CHARS:
        raise BadMove("clue_long", code="bad_clue", most=MAX_CLUE_CHARS)
    if isinstance(number, str):   # as a person writes it (Unlimited, 무제한); Duet's engine refuses it (3.4)
        number = written_clue_number(number)
    if not ((isinstance(number, int) and not isinstance(number, bool)) or number == UNLIMITED):
        raise BadMove("clue_number_unlimited" if unlimited else "clue_number", code="bad_clue")
    return Clue(seat, word.strip(), number)


def resolved_intents(record, state, intents: list[dict], found: Callable[[int], bool],
                     guessing: bool, show: Callable[[str], bool], label: Callable[[int], str | None],
                     over: bool = True) -> list[dict]:
    """The bot clues whose guessing turn is over, with the cards the bot meant; `show(seat)`: may
    this viewer see the intents of that bot seat. A target is `found` on its clue when it was
    guessed before the next clue, `later` when it is covered now. Until the game is `over`, a target
    still face down is only counted (`hidden`): naming it would tell the bot's key (RULES 3.12). Of an
    UNLIMITED clue not even that (`uncounted`): it does not tell how many cards it is for (RULES 1.7)."""
    actions = record.actions
    clue_indexes = [n for n, a in enumerate(actions) if isinstance(a, Clue)]
    current = clue_indexes[-1] if guessing and clue_indexes else None
    words = list(record.words)
    out = []
    for item in intents:
        k = item.get("action")
        if not isinstance(k, int) or k >= len(actions) or k == current or not isinstance(actions[k], Clue):
            continue
        clue = actions[k]
        if not show(clue.seat):
            continue
        later = [n for n in clue_indexes if n > k]
        end = later[0] if later else len(actions)
        guessed = {a.word for a in actions[k + 1:end] if isinstance(a, Guess)}
        targets, hidden = [], 0
        for t in item.get("targets", []):
            if t in words:
                i = words.index(t)
                if not over and not found(i):
                    hidden += 1
                    continue
                targets.append({"i": i, "word": t, "label": label(i), "found": t in guessed,
                                "later": found(i) and t not in guessed})
        uncounted = clue.number == UNLIMITED and not over
        out.append({"action": k, "seat": clue.seat, "clue": clue.word, "number": clue.number, "targets": targets,
                    "hidden": 0 if uncounted else hidden, "uncounted": uncounted})
    return out


@dataclass
class BotJob:
    """One bot move to compute in a worker thread: only the seat's observation goes there."""

    seat: str
    kind: str                     # "clue", "guess", "sudden", "cover"
    obs: Any
    extra: dict = field(default_factory=dict)


# ----- Duet ------------------------------------------------------------------------------------------
class DuetAdapter:
    game = "duet"
    title = "Codenames Duet"
    seat_names = ("A", "B")
    #: The settings of a new game (POST /api/games); another is refused, not dropped (`check_settings`).
    settings = ("game", "lang", "seed", "mode", "seat", "first", "tokens", "mission", "spymaster", "guesser")

    def setup(self, raw: dict):
        """(record, seats, first) from the page's settings."""
        from agents.registry import default_spymaster

        lang, seed = _lang(raw), _seed(raw)
        mission = raw.get("mission")
        mission = None if mission == "" else mission   # the page's empty choice; 0, false, [] are no mission id
        tokens = raw.get("tokens")   # 0 is no number of tokens: refused, never the default
        if tokens is not None:
            if isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= 11:
                raise BadSetup("tokens: 1..11 timer tokens", "tokens")
        if mission is not None and (not isinstance(mission, str) or len(mission) > 40):   # no id is that long:
            raise BadSetup("mission: a mission id", "mission")                           # never quoted whole
        if mission is not None and tokens is not None:   # RULES 3.10: the mission's T-M sets the supply
            raise BadSetup("tokens: a mission sets its own timer tokens; name tokens or a mission, not both",
                           "tokens_and_mission")
        try:
            record = deal(self.game, seed, lang, mission=mission, tokens=None if mission else tokens,
                          invalid_clue="reject")
        except (KeyError, ValueError) as exc:
            raise BadSetup(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc), "deal") from None
        mode = raw.get("mode", "bot")
        if mode not in ("bot", "people"):
            raise BadSetup("mode: bot (a person with a bot partner) or people (two people)", "mode")
        me = "A" if raw.get("seat") is None else raw["seat"]   # checked in either mode: a bad value is
        if me not in self.seat_names:
            raise BadSetup("seat: A or B", "seat")
        first = "me" if raw.get("first") is None else raw["first"]   # ... never dropped without a word
        if first not in ("me", "partner"):
            raise BadSetup("first: me or partner", "first")
        if mode == "people":
            return record, {"A": {"kind": PERSON}, "B": {"kind": PERSON}}, None
        bot = {"kind": BOT, "spymaster": _spec(raw, "spymaster", default_spymaster(lang), "spymaster", lang),
               "guesser": _spec(raw, "guesser", guesser_for_people("duet", lang), "guesser", lang)}
        seats = {me: {"kind": PERSON}, ("B" if me == "A" else "A"): bot}
        return record, seats, ("bot" if first == "partner" else "person")

    def new_state(self, record, referee):
        from engine.duet import DuetState

        return DuetState(record.words, record.key, record.config, referee=referee)

    def seats_in_order(self, record) -> tuple[str, ...]:
        return self.seat_names

    # ----- what a seat sees -------------------------------------------------------------------------
    def over(self, t) -> bool:
        return t.state.is_terminal() or t.ended is not None

    def may_act(self, t, seat: str) -> dict:
        s = t.state
        if self.over(t) or t.error:
            return {}
        obs_to_act = s.to_act()
        flags = {}
        if s.phase == "clue" and seat in obs_to_act:
            bot_first = not s.clue_seats and t.first == "bot" and any(t.is_bot(x) for x in obs_to_act)
            flags["clue"] = not bot_first
            if not s.clue_seats and t.first != "bot" and any(t.is_bot(x) for x in self.seat_names):
                flags["partner_first"] = True
        elif s.phase == "guess" and seat in obs_to_act:
            flags["guess"] = True
            flags["stop"] = s.correct_this_turn > 0
        elif s.phase == "sudden_death" and seat in obs_to_act and seat not in t.passes:
            flags["guess"] = flags["pass"] = True
        return flags

    def seat_view(self, t, seat: str) -> dict:
        obs = t.state.observe(seat)
        view = self._view(obs)
        view["you"] = self.may_act(t, seat)
        view["intents"] = self.intents(t, lambda _seat: True)
        view["passed"] = sorted(t.passes)
        if self.over(t):
            view["reveal"] = {"A": t.record.key.a, "B": t.record.key.b}
        view["outcome"] = self.outcome(t)
        return view

    @staticmethod
    def _view(obs) -> dict:
        history = [e.to_dict() for e in obs.history]
        mistakes = sum(1 for e in obs.history if e.kind == "guess" and e.result == "bystander")
        return {
            "game": "duet", "seat": obs.seat, "grid": [5, 5],
            "cards": [{"i": i, "word": w, "mine": obs.own_key[i], "agent": obs.green_covered[i],
                       "marks": sorted(obs.bystander_marks[i]), "guessable": obs.can_guess(i)}
                      for i, w in enumerate(obs.words)],
            "tokens": {"check": obs.check_tokens, "bystander": obs.bystander_tokens, "timer": obs.timer_tokens,
                       "left": obs.tokens_left, "mistakes_allowed": obs.mistakes_allowed, "mistakes": mistakes},
            "phase": obs.phase, "clue_giver": obs.clue_giver, "to_act": list(obs.to_act),
            "current_clue": None if obs.current_clue is None else
            {"word": obs.current_clue[0], "number": obs.current_clue[1]},
            "correct_this_turn": obs.correct_this_turn, "greens_found": obs.greens_found, "greens_total": 15,
            "partner_finished": obs.partner_finished, "history": history,
        }

    def intents(self, t, show) -> list[dict]:
        s, over = t.state, self.over(t)
        # The table shows a card green on the bot's side only when a person's guess covered it (RULES 3.5:
        # a guess is judged by the clue giver's side). A target the bot covered itself is green on the
        # person's side: until the end it is only counted, naming it would tell the bot's side (RULES 3.12).
        green_for_bot = {e.word for e in s.history if e.kind == "guess" and e.result == "green"
                         and not t.is_bot(e.seat)}

        def found(i: int) -> bool:
            return s.green_covered[i] and (over or s.words[i] in green_for_bot)

        return resolved_intents(t.record, s, t.intents, found, s.phase == "guess" and not over, show,
                                lambda i: None, over)

    def outcome(self, t) -> dict:
        s = t.state
        status = s.phase if s.phase in ("won", "lost", "sudden_death") else "playing"
        if t.ended and not s.is_terminal():
            status = "unfinished"
        return {"status": status, "score": s.score(), "loss_reason": s.loss_reason, "ended": t.ended,
                "ended_kind": t.ended_kind,
                "greens_found": s.greens_found, "tokens_left": s.tokens_left, "turns": len(s.clue_seats),
                "over": self.over(t)}

    def result_text(self, t) -> str:
        o = self.outcome(t)
        if o["status"] == "won":   # RULES 3.11 scores the 9-token game only
            return "won" if o["score"] is None else f"won, score {o['score']}"
        if o["status"] == "lost":
            return f"lost ({o['loss_reason']})"
        if o["status"] == "unfinished":
            return f"unfinished ({o['ended']})"
        return f"{o['status']}, {o['greens_found']}/15 agents"

    def result_kind(self, t) -> dict:
        """`result_text` by kind and fields (app.js words it from its table, s_KIND)."""
        o = self.outcome(t)
        if o["status"] == "won":
            return text("won_unscored") if o["score"] is None else text("won", score=o["score"])
        if o["status"] == "lost":
            return text("lost", reason=o["loss_reason"])
        if o["status"] == "unfinished":
            return text("unfinished", ended=o["ended"], ended_kind=o["ended_kind"])
        return text("duet_playing", status=o["status"], found=o["greens_found"])

    def spectator(self, record, state, intents) -> dict:
        """The whole table, for replays of finished games: both key sides."""
        view = self._view(state.observe("A"))
        for c in view["cards"]:
            c.pop("mine"), c.pop("guessable")
        view.update(seat=None, reveal={"A": record.key.a, "B": record.key.b},
                    intents=resolved_intents(record, state, intents, lambda i: state.green_covered[i],
                                             state.phase == "guess", lambda _s: True, lambda i: None))
        return view

    # ----- moves from the page ----------------------------------------------------------------------
    def parse(self, t, seat: str, msg: dict):
        kind = msg.get("type")
        if kind == "clue":
            clue = _clue(msg, seat, unlimited=False)
            if not t.state.clue_seats and t.first == "bot" and t.state.phase == "clue":
                raise refusal("3.4", "bot_first")
            return clue
        if kind == "guess":
            return Guess(seat, _card(msg, t.record.words))
        if kind == "stop":
            return Stop(seat)
        if kind == "pass":
            s = t.state
            if s.phase != "sudden_death":
                raise refusal("3.9", "hold_back_outside")
            if seat not in s.guessers():
                raise refusal("3.9", "sudden_death_done", seat=seat)
            if seat in t.passes:
                raise refusal("3.9", "hold_back_again", seat=seat)
            return Pass()
        if kind == "first":
            if t.state.clue_seats or t.state.phase != "clue":
                raise BadMove("first_given")
            if not any(t.is_bot(x) for x in self.seat_names):
                raise BadMove("no_bot_partner")
            if t.first == "bot":
                raise BadMove("bot_first_already")
            return PartnerFirst()
        raise BadMove("unknown_move", type=repr(str(kind)[:20]), game="Duet", moves="clue, guess, stop, pass, first")

    def apply_special(self, t, seat: str, move) -> None:
        if isinstance(move, PartnerFirst):
            t.first = "bot"
        elif isinstance(move, Pass):
            t.passes.add(seat)
            self._check_all_passed(t)

    def _check_all_passed(self, t) -> None:
        if set(t.state.guessers()) <= t.passes:
            both = len(t.state.guessers()) > 1
            t.ended = "both held back in sudden death" if both else "held back in sudden death"
            t.ended_kind = {"kind": "both_held_back" if both else "held_back", "fields": {}}

    def after_action(self, t, action) -> None:
        if isinstance(action, Guess):
            t.passes.clear()

    # ----- bots -------------------------------------------------------------------------------------
    def bot_job(self, t) -> BotJob | None:
        s = t.state
        if self.over(t):
            return None
        if s.phase == "clue":
            givers = s.clue_givers()
            bots = [x for x in givers if t.is_bot(x)]
            if not bots:
                return None
            if any(not t.is_bot(x) for x in givers) and not (not s.clue_seats and t.first == "bot"):
                return None
            seat = bots[0]
            covered = [w for i, w in enumerate(s.words) if s.covered_for_both(i)]
            return BotJob(seat, "clue", s.observe(seat), {"board": s.visible_words(), "covered": covered,
                                                          "language": s.config.language})
        if s.phase == "guess":
            (seat,) = s.guessers()
            return BotJob(seat, "guess", s.observe(seat)) if t.is_bot(seat) else None
        if s.phase == "sudden_death":
            seats = s.guessers()
            if any(not t.is_bot(x) and x not in t.passes for x in seats):
                return None
            bots = [x for x in seats if t.is_bot(x) and x not in t.passes]
            return BotJob(bots[0], "sudden", s.observe(bots[0])) if bots else None
        return None

    def make_agents(self, t, seat: str, secret: bytes):
        from agents.registry import make_guesser, make_spymaster

        info, lang = t.seats[seat], t.record.config.language or "en"
        spymaster, guesser = make_spymaster(info["spymaster"], lang), make_guesser(info["guesser"], lang)
        spymaster.begin_game(bot_seed(secret, t.record.seed, seat, "spymaster"))
        guesser.begin_game(bot_seed(secret, t.record.seed, seat, "guesser"))
        return {"spymaster": spymaster, "guesser": guesser}

    def run_job(self, job: BotJob, agents: dict, referee: WebReferee, rng):
        """In a worker thread: the bot's decision from its observation only."""
        if job.kind == "clue":
            decision = agents["spymaster"].give_clue(job.obs)
            referee.prejudge(decision.word, clue_number(decision.number), job.extra["board"], job.extra["covered"],
                             job.extra["language"])
            return decision
        return agents["guesser"].next_guess(job.obs)

    def bot_action(self, t, job: BotJob, result):
        """The engine action (or Pass) for a bot's decision, and the intent to record with it."""
        if job.kind == "clue":
            return Clue(job.seat, result.word, clue_number(result.number)), result
        if job.kind == "sudden":
            return (Pass() if result is None else Guess(job.seat, result)), None
        if result is None:
            if t.state.correct_this_turn == 0:
                raise RuntimeError(f"the bot guesser {t.seats[job.seat]['guesser']} gave no guess on a new clue "
                                   "(RULES 3.4)")
            return Stop(job.seat), None
        return Guess(job.seat, result), None


# ----- Codenames and Pictures ------------------------------------------------------------------------
WEB_VARIANTS = ("two_player", "teams")


class CodenamesAdapter:
    title = "Codenames"
    seat_names = ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser")
    settings = ("game", "lang", "seed", "variant", "seats", "spymaster", "guesser")

    def __init__(self, game: str = "codenames"):
        self.game = game
        self.title = "Codenames Pictures" if game == "pictures" else "Codenames"

    def setup(self, raw: dict):
        from agents.registry import default_spymaster

        lang, seed = _lang(raw), _seed(raw)
        variant = raw.get("variant", "two_player")
        if variant not in WEB_VARIANTS:
            raise BadSetup(f"variant: {' or '.join(WEB_VARIANTS)}", "variant")
        record = deal(self.game, seed, lang, variant=variant, invalid_clue="reject")
        kinds = raw.get("seats")
        kinds = {} if kinds is None else kinds   # 0, false, "", [] are no seats (they read as none named)
        if not isinstance(kinds, dict):
            raise BadSetup("seats: an object of seat: person or bot", "seats")
        names = ("spymaster", "guesser") if variant == "two_player" else self.seat_names
        unknown = [str(k)[:30] for k in kinds if k not in names]
        if unknown:   # a misspelt seat was a bot
            raise BadSetup(f"seats: unknown seat {unknown[0]!r}; the {variant} seats are {', '.join(names)}",
                           "unknown_seat", seat=unknown[0])
        if variant == "two_player":  # RULES 1.8: the starting team against a virtual opponent
            team = record.key.starts
            roles = {"spymaster": kinds.get("spymaster", PERSON), "guesser": kinds.get("guesser", BOT)}
            wanted = {f"{team}-{role}": kind for role, kind in roles.items()}
        else:
            wanted = {seat: kinds.get(seat, BOT) for seat in self.seat_names}
        if any(k not in (PERSON, BOT) for k in wanted.values()):
            raise BadSetup("seats: each seat is person or bot", "seat_kind")
        if PERSON not in wanted.values():
            raise BadSetup("seats: at least one seat is a person (bot self-play: cnlab simulate)", "no_person")
        bot = {"kind": BOT, "spymaster": _spec(raw, "spymaster", default_spymaster(lang), "spymaster", lang),
               "guesser": _spec(raw, "guesser", guesser_for_people(self.game, lang), "guesser", lang)}
        seats = {seat: ({"kind": PERSON} if kind == PERSON else dict(bot)) for seat, kind in wanted.items()}
        return record, seats, None

    def new_state(self, record, referee):
        return record.new_state(referee=referee)

    def seats_in_order(self, record) -> tuple[str, ...]:
        """The seats the variant plays: two_player (RULES 1.8) the starting team's two, teams all four."""
        variant = getattr(record.config, "variant", None)
        if variant not in WEB_VARIANTS:
            raise ValueError(f"variant {str(variant)[:30]!r} is not played here ({' or '.join(WEB_VARIANTS)})")
        if variant == "two_player":
            return tuple(s for s in self.seat_names if s.startswith(f"{record.key.starts}-"))
        return self.seat_names

    def over(self, t) -> bool:
        return t.state.is_terminal() or t.ended is not None

    def may_act(self, t, seat: str) -> dict:
        s = t.state
        if self.over(t) or t.error or seat not in s.to_act():
            return {}
        if s.phase == "clue":
            return {"clue": True}
        if s.phase == "cover":
            return {"cover": True}
        return {"guess": True, "stop": s.phase == "guess" and s.guesses_this_turn > 0}

    def _label(self, i: int, words) -> dict:
        if self.game != "pictures":
            return {}
        from engine.codenames.pictures import describe

        card = describe(words[i])
        return {"img": f"/pictures/{card.file}", "label": card.description,
                "label_ko": ", ".join(card.tags_ko[:2]) if card.tags_ko else card.description}

    def _view(self, obs, state) -> dict:
        pending = state.pending[0] if state.phase == "cover" and state.pending else None  # public (RULES 1.6, 1.8)
        return {
            "game": self.game, "variant": obs.variant, "seat": obs.seat, "role": obs.role, "team": obs.team,
            "grid": list(obs.grid), "starts": obs.starts,
            "cards": [{"i": i, "word": w, "revealed": obs.revealed[i], "key": obs.key[i] if obs.key else None,
                       **self._label(i, obs.words)} for i, w in enumerate(obs.words)],
            "agents_left": dict(obs.agents_left), "phase": obs.phase, "turn_team": obs.turn_team,
            "to_act": list(obs.to_act),
            "current_clue": None if obs.current_clue is None else
            {"word": obs.current_clue[0], "number": obs.current_clue[1]},
            "guesses_this_turn": obs.guesses_this_turn, "guesses_left": obs.guesses_left,
            "history": [e.to_dict() for e in obs.history], "winner": obs.winner,
            "pending": None if pending is None else {"seat": pending.seat, "team": pending.team, "rule": pending.rule},
        }

    def seat_view(self, t, seat: str) -> dict:
        from engine.codenames.state import seat_team

        obs = t.state.observe(seat)
        view = self._view(obs, t.state)
        view["you"] = self.may_act(t, seat)
        team = seat_team(seat)
        view["intents"] = self.intents(t, lambda bot_seat: seat_team(bot_seat) == team)
        if self.over(t):
            view["reveal"] = {"key": t.record.key.letters}
        view["outcome"] = self.outcome(t)
        return view

    def intents(self, t, show) -> list[dict]:
        s, words = t.state, t.record.words
        label = (lambda i: self._label(i, words).get("label")) if self.game == "pictures" else (lambda i: None)
        return resolved_intents(t.record, s, t.intents, lambda i: s.revealed[i],
                                s.phase == "guess" and not self.over(t), show, label, self.over(t))

    def outcome(self, t) -> dict:
        from engine.codenames.labels import two_player_label

        s = t.state
        score = s.score()
        status = "finished" if s.is_terminal() else ("unfinished" if t.ended else "playing")
        return {"status": status, "winner": s.winner, "loss_reason": s.loss_reason, "score": score,
                "score_label": two_player_label(score), "turns": s.turns_used, "ended": t.ended,
                "ended_kind": t.ended_kind,
                "ours": s.ours if s.solo else None, "over": self.over(t),
                "agents_left": {team: s.agents_left(team) for team in ("red", "blue")}}

    def result_text(self, t) -> str:
        o = self.outcome(t)
        if o["status"] == "finished":
            if o["ours"]:
                return f"won, score {o['score']}" if o["winner"] == o["ours"] else f"lost ({o['loss_reason']})"
            return f"{o['winner']} won ({o['loss_reason']})"
        return o["status"] if not o["ended"] else f"unfinished ({o['ended']})"

    def result_kind(self, t) -> dict:
        """`result_text` by kind and fields (app.js words it from its table, s_KIND)."""
        o = self.outcome(t)
        if o["status"] == "finished":
            if o["ours"]:
                return (text("won", score=o["score"]) if o["winner"] == o["ours"]
                        else text("lost", reason=o["loss_reason"]))
            return text("team_won", team=o["winner"], reason=o["loss_reason"])
        return text(o["status"]) if not o["ended"] else text("unfinished", ended=o["ended"], ended_kind=o["ended_kind"])

    def spectator(self, record, state, intents) -> dict:
        obs = state.observe(f"{record.key.starts}-spymaster")
        view = self._view(obs, state)
        view.update(seat=None, role=None, reveal={"key": record.key.letters},
                    intents=resolved_intents(record, state, intents, lambda i: state.revealed[i],
                                             state.phase == "guess", lambda _s: True, lambda i: None))
        return view

    def parse(self, t, seat: str, msg: dict):
        kind = msg.get("type")
        words = t.record.words
        if kind == "clue":
            return _clue(msg, seat, unlimited=True)
        if kind == "guess":
            return Guess(seat, _card(msg, words))
        if kind == "stop":
            return Stop(seat)
        if kind == "cover":
            return Cover(seat, _card(msg, words))
        raise BadMove("unknown_move", type=repr(str(kind)[:20]), game="Codenames", moves="clue, guess, stop, cover")

    def apply_special(self, t, seat, move) -> None:  # pragma: no cover - Codenames has none
        raise BadMove("not_codenames")

    def after_action(self, t, action) -> None:
        pass

    def bot_job(self, t) -> BotJob | None:
        s = t.state
        if self.over(t) or not s.to_act():
            return None
        (seat,) = s.to_act()
        if not t.is_bot(seat):
            return None
        kind = {"clue": "clue", "cover": "cover"}.get(s.phase, "guess")
        extra = {}
        if kind == "clue":
            extra = {"board": s.visible_words(), "covered": s.covered_words(), "language": s.config.language}
        elif kind == "cover":
            extra = {"team": s.pending[0].team}
        return BotJob(seat, kind, s.observe(seat), extra)

    def make_agents(self, t, seat: str, secret: bytes):
        from agents.registry import make_guesser, make_spymaster
        from engine.codenames.state import seat_role

        info, lang = t.seats[seat], t.record.config.language or "en"
        role = seat_role(seat)
        agent = make_spymaster(info["spymaster"], lang) if role == "spymaster" else make_guesser(info["guesser"], lang)
        agent.begin_game(bot_seed(secret, t.record.seed, seat, role))
        return {role: agent}

    def run_job(self, job: BotJob, agents: dict, referee: WebReferee, rng):
        obs = job.obs
        if job.kind == "clue":
            decision = agents["spymaster"].give_clue(obs)
            referee.prejudge(decision.word, clue_number(decision.number), job.extra["board"], job.extra["covered"],
                             job.extra["language"])
            return decision
        if job.kind == "cover":
            spymaster = agents["spymaster"]
            if job.extra["team"] != obs.team and hasattr(spymaster, "choose_cover"):
                return spymaster.choose_cover(obs)  # RULES 1.8: an agent of the virtual opponent
            letter = "R" if job.extra["team"] == "red" else "B"
            cards = [i for i in obs.hidden() if obs.key[i] == letter]
            return obs.words[cards[int(rng.integers(len(cards)))]]
        return agents["guesser"].next_guess(obs)

    def bot_action(self, t, job: BotJob, result):
        if job.kind == "clue":
            return Clue(job.seat, result.word, clue_number(result.number)), result
        if job.kind == "cover":
            return Cover(job.seat, result), None
        if result is None:
            if t.state.phase == "sudden_death" or t.state.guesses_this_turn == 0:
                raise RuntimeError(f"the bot guesser {t.seats[job.seat]['guesser']} made no guess (RULES 1.4)")
            return Stop(job.seat), None
        return Guess(job.seat, result), None


ADAPTERS = {"duet": DuetAdapter(), "codenames": CodenamesAdapter("codenames"),
            "pictures": CodenamesAdapter("pictures")}

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,80}$")


def check_settings(adapter, raw: dict) -> None:
    """BadSetup naming a setting the game does not have: a misspelt one (`tokns`, `varient`) would
    otherwise be dropped and its default dealt."""
    unknown = [str(k)[:30] for k in raw if k not in adapter.settings]
    if unknown:
        raise BadSetup(f"unknown setting {unknown[0]!r} for {adapter.game}; its settings are "
                       f"{', '.join(adapter.settings)}", "unknown_setting", setting=unknown[0])


def adapter_for(game: Any):
    if not isinstance(game, str) or game not in ADAPTERS:  # a list or object is no key (unhashable)
        raise BadSetup(f"game: one of {', '.join(ADAPTERS)}", "game")
    return ADAPTERS[game]


def page_config() -> dict:
    """What the new-game page offers: games, defaults, missions, the pictures' credit."""
    import json

    from agents.registry import default_spymaster
    from engine.paths import data_path

    missions = json.loads(data_path("duet", "missions.json").read_text(encoding="utf-8"))["missions"]
    cards = json.loads(data_path("pictures", "cards.json").read_text(encoding="utf-8"))
    return {
        "games": [{"id": k, "title": a.title} for k, a in ADAPTERS.items()],
        "languages": list(LANGUAGES),
        "defaults": {lang: {game: {"spymaster": default_spymaster(lang), "guesser": guesser_for_people(game, lang)}
                            for game in ADAPTERS} for lang in LANGUAGES},
        "missions": [{"id": m["id"], "name": m["name"], "name_ko": m.get("name_ko", m["name"]),
                      "timer_tokens": m["timer_tokens"], "mistakes": m["mistakes"]}
                     for m in missions if m.get("mistakes") is not None],
        "pictures_credit": {"text": cards.get("credit", ""), "license_url": cards.get("license_url", "")},
        "bot_examples": {"spymaster": ["robust:use-m3+glove-50", "expected:use-m3", "margin:use-m3", "random"],
                         "guesser": ["duet-bayes:use-m3+glove-50+minilm", "duet-bayes:use-m3", "nearest:use-m3", "human",
                                     "random"]},
    }
