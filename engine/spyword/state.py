"""The Spy's Word rules (RULES 5): a state that legal actions move forward, checked before any change.

Flow of a game: every player presses "got it" (ready) -> round: clues in the round's order ->
discussion -> vote -> (PASS: next round) / (one top player: eliminated) / (a tie: duel clues and a
duel vote, or lots) -> an eliminated ghost guesses the citizens' word; with hidden roles every
eliminated player gets a private screen first -> win check (5.11) -> next round with the same words.

There is no clock: time-outs are `Timeout` actions from the seat "clock" (see `SpyWordSettings`
for the durations). Drawing lots uses the record's seed: lot i is drawn by
`numpy.random.default_rng([seed, i])`, so a replay draws the same lots.

Clue legality (5.4): the engine itself refuses an empty clue, more than one word in one-word
mode, the clue-giver's own word itself, and any repeat of an earlier clue of the game. "A part of
the word" and "a translation of it" need morphology and models: a `clue_checker` is injected.
The default refuses the listed translations of the pack words (`translations`) and uses the
project clue filter (`engine.clues.check_clue`, RULES 4.3/4.4) if present; the agents layer may
inject one that also catches other translations with multilingual embeddings.
The engine imports no model. A clue is judged against the giver's own word only: the ghost has no
word, and judging a spy's clue against the citizens' word would tell the spy that word.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from ..clues.normalize import MAX_CLUE_LENGTH, MAX_SENTENCE_LENGTH, ClueTextError, normalize_clue
from ..errors import IllegalAction, MalformedRecord
from ..fresh import deep, text, texts
from ..game import Outcome
from ..record_fields import board_language, shown, word_problem
from ..refusals import refusal, wording
from .actions import (CLOCK, HOST, PASS, Dismiss, Disconnect, GhostGuess, GiveClue, Kick, Leave, Ready,
                      Reconnect, SpyWordAction, StartVote, Timeout, Vote)
from .matching import ghost_guess_is_right, normalize, same_clue
from .observation import SpyWordObservation
from .settings import UNLIMITED, SpyWordSettings, check_player_count

CITIZEN, SPY, GHOST = "citizen", "spy", "ghost"
ROLES = (CITIZEN, SPY, GHOST)
CITIZENS, SPIES = "citizens", "spies"  # winners: "citizens", "spies" (spies and ghost), "ghost"

READY, CLUES, DISCUSSION, VOTE, DUEL_CLUES, DUEL_VOTE = "ready", "clues", "discussion", "vote", "duel_clues", "duel_vote"
GHOST_GUESS, PRIVATE_SCREEN, FINISHED, ABORTED = "ghost_guess", "private_screen", "finished", "aborted"
PHASES = (READY, CLUES, DISCUSSION, VOTE, DUEL_CLUES, DUEL_VOTE, GHOST_GUESS, PRIVATE_SCREEN, FINISHED, ABORTED)
RESERVED_SEATS = (HOST, CLOCK, PASS)

# A clue checker: (clue, own word, language, clue mode) -> (rule, message) when illegal, else None.
ClueChecker = Callable[[str, str, "str | None", str], "tuple[str, str] | None"]


#: In a sentence, a word ends at a space or at punctuation other than a hyphen or an apostrophe inside
#: it ("It melts…snow": melts, snow; "red_apple": red, apple).
_SENTENCE_BREAK = re.compile(r"[^\w'\u2019-]+|_+")


#: Where one sentence ends and another begins (RULES 5.4, clue mode "one sentence"): "!" or "?" (or a
#: full stop after a word that is no abbreviation or initial), then a space and more words; or a
#: CJK full stop, exclamation or question mark with more words after it. An ellipsis is a pause.
_SENTENCE_END = re.compile(r"(?:(?<![.…])\.(?![.…])|[!?]+)[\"'”’)\]」』»]*\s+(?=\S*\w)|[。！？]+[”’」』)]*\s*(?=\S*\w)")
_ABBREVIATIONS = frozenset("mr mrs ms dr prof st mt jr sr vs etc no vol fig approx".split())


def _sentence_count(clue: str) -> int:
    """How many sentences a clue holds (RULES 5.4): "It is red. It is sweet." is two; "Mr. Brown
    likes it", "J. K. Rowling wrote it", "e.g. snow", "3.5 of them", "wait… snow" are one."""
    count = 1
    for m in _SENTENCE_END.finditer(clue):
        if m.group().lstrip()[:1] == ".":
            before = re.search(r"([\w.]*)$", clue[:m.start()]).group(1)
            if len(before) <= 1 or "." in before or before.casefold() in _ABBREVIATIONS:
                continue
        count += 1
    return count


def _bare(token: str) -> str:
    """A clue word without the punctuation or symbols around it: quotes of any script (“snow”,
    「눈」, «snow»), an ellipsis, a tilde (RULES 5.4: a part of the word in quotes is still a part)."""
    start, end = 0, len(token)
    while start < end and unicodedata.category(token[start])[0] in "PS":
        start += 1
    while end > start and unicodedata.category(token[end - 1])[0] in "PS":
        end -= 1
    return token[start:end]


def _words(clue: str, mode: str) -> list[str]:
    """The words of a clue the checker judges: each word of the sentence in sentence mode; in
    one-word mode the clue itself and, when punctuation joins several words into it ("red,apple",
    "apple/pear"), each of them as well."""
    parts = [_bare(t) for t in _SENTENCE_BREAK.split(clue)]
    if mode == "sentence":
        return parts
    parts = [p for p in parts if p]
    return [_bare(clue)] + (parts if len(parts) > 1 else [])


def _holds_word(clue: str, word: str, mode: str) -> bool:
    """RULES 5.4 built in: the clue is the word itself (case, accents, spacing and punctuation
    ignored), or holds it as one or more consecutive words, split at spaces and punctuation as the
    checker splits a sentence ("red,apple", "I like ice cream" with the word "ice cream")."""
    if same_clue(clue, word):
        return True
    key = normalize(word)
    words = [w for w in (normalize(t) for t in _words(clue, "sentence")) if w]
    return bool(key) and any("".join(words[i:j]) == key for i in range(len(words)) for j in range(i + 1, len(words) + 1))


def clue_tokens(clue: str, mode: str) -> list[str]:
    """What a translation is looked for in (RULES 5.4): the clue without the punctuation around it,
    and each word of it as well (`_words`)."""
    return list(dict.fromkeys([_bare(clue)] + _words(clue, mode)))


def _text_problem(rule: str, exc: ClueTextError, what: str) -> IllegalAction:
    """The clue-text error said of what was written: the shared message calls every text "a clue
    [...] one word", wrong for a sentence clue (5.4) and for the ghost's guess (5.10)."""
    if exc.key == "too_long":
        return refusal(rule, "sw_too_long", what=what, limit=exc.details["limit"], length=exc.details["length"])
    if exc.key == "invisible":
        return refusal(rule, "sw_invisible", what=what, code=exc.details["code"])
    return IllegalAction(rule, exc.describe())


def check_ghost_guess(word) -> None:
    """RULES 5.10: the ghost's one guess names a word, read as a clue's text is (bounded, no invisible
    characters, not empty); IllegalAction otherwise. A bot asks it before it answers (the game has no
    second try for a guess)."""
    if not isinstance(word, str):
        raise refusal("5.10", "sw_guess_text", type=type(word).__name__)
    try:
        guess = normalize_clue(word, MAX_SENTENCE_LENGTH)
    except ClueTextError as exc:
        raise _text_problem("5.10", exc, "the ghost's guess") from None
    if not guess:
        raise refusal("5.10", "sw_guess_empty")


def default_clue_checker(clue: str, word: str, language: str | None, mode: str) -> tuple[str, str] | None:
    """"Not the word, not a part of it" by the project clue filter (RULES 4.3, 4.4, 4.6 variant
    spellings, 4.1 one Korean syllable of the word), if the filter and its morphology are installed.

    The filter judges Codenames boards, so only what the word itself makes illegal counts: a clue
    refused with the word on the board and not refused the same way on an empty board. Its other
    rules (language, invented words, letters) are not Spy's Word rules. In sentence mode every
    word of the sentence is checked. Without the filter only the built-in checks apply.
    A translation of a pack word listed in `translations` is refused first (no filter needed)."""
    from .translations import is_translation, translations_of

    for token in clue_tokens(clue, mode):
        if token and is_translation(token, word):
            return ("5.4", wording("sw_translation", language, token=repr(token)))
    try:
        from ..clues import FilterUnavailable, check_clue
    except ImportError:
        return None
    script = board_language([word])   # Hangul syllables or jamo (a decomposed, NFD word too)
    if language not in ("en", "ko"):
        language = script
    for token in _words(clue, mode):  # a form of a translation ("apples", "사과를") translates it too
        for translation in sorted(translations_of(word)) if token else ():
            try:
                verdict = check_clue(token, 1, board=[translation], language=board_language([translation]))
            except FilterUnavailable:
                return None
            if not verdict.legal and (verdict.blocked_by or {}).get("relation") in ("same", "form"):
                return ("5.4", wording("sw_translation_form", language, token=repr(token),
                                       translation=repr(translation)))
    # a word in the other script (a custom pack's "snowman" in a Korean game) is also read in its own
    # language: the game's refuses any clue of that script alike with the word and without it (4.6),
    # so "snow" passed as no part of "snowman"
    for lang in dict.fromkeys((language, script)):
        for token in _words(clue, mode):
            if not token:
                continue
            try:
                with_word = check_clue(token, 1, board=[word], language=lang)
                if with_word.legal:
                    continue
                alone = check_clue(token, 1, board=[], language=lang)
            except FilterUnavailable:
                return None
            if alone.legal or (alone.rule, alone.message) != (with_word.rule, with_word.message):
                return (str(with_word.rule), with_word.message)
    return None


@dataclass(frozen=True)
class SpyWordOutcome(Outcome):
    """status: "playing", "finished", "aborted"; winner: "citizens", "spies" (spies and ghost
    together), "ghost" or None; reason: "too_few_players" when aborted (RULES 5.12); winners: the
    winning seats, eliminated ones included (5.11)."""

    winners: tuple[str, ...] = ()


class SpyWordState:
    """A Spy's Word game. `apply` either raises IllegalAction (state unchanged) or moves on."""

    def __init__(self, seats: Sequence[str], roles: Mapping[str, str] | Sequence[str], citizen_word: str,
                 spy_word: str, order: Sequence[str] | None = None,
                 settings: SpyWordSettings = SpyWordSettings(), host: str | None = None, seed: int = 0,
                 language: str | None = None, pictures: Sequence[str | None] = (None, None),
                 clue_checker: ClueChecker | None = None, clue_filter: bool = True):
        seats = tuple(seats)
        if not all(isinstance(s, str) and s.strip() for s in seats) or len(set(seats)) != len(seats):
            raise MalformedRecord("seats must be distinct non-empty strings (RULES 5.1)")
        if set(seats) & set(RESERVED_SEATS):
            raise MalformedRecord(f"a seat may not be named {', '.join(RESERVED_SEATS)}")
        try:
            check_player_count(len(seats))
        except ValueError as exc:
            raise MalformedRecord(str(exc)) from None
        if not isinstance(roles, Mapping):
            roles = dict(zip(seats, roles)) if len(roles) == len(seats) else {}
        if set(roles) != set(seats) or not all(r in ROLES for r in roles.values()):
            raise MalformedRecord("roles must give each seat one of citizen, spy, ghost (RULES 5.1)")
        spies = sum(r == SPY for r in roles.values())
        ghosts = sum(r == GHOST for r in roles.values())
        if ghosts > 1:
            raise MalformedRecord("RULES 5.2: at most one ghost")
        try:
            expected = settings.role_counts(len(seats))
        except ValueError as exc:
            raise MalformedRecord(str(exc)) from None
        if (spies, bool(ghosts)) != expected:
            raise MalformedRecord(f"RULES 5.2: the roles give {spies} spies and {ghosts} ghost, the settings "
                                  f"{expected[0]} spies and {int(expected[1])} ghost")
        for w in (citizen_word, spy_word):
            if not isinstance(w, str) or not w.strip():
                raise MalformedRecord("RULES 5.3: both words must be non-empty strings")
            problem = word_problem(w)  # as a record holds it: the ghost must be able to name it (5.10)
            if problem is not None:
                raise MalformedRecord(f"RULES 5.3: the word {shown(w)} {problem}")
        if same_clue(citizen_word, spy_word):
            raise MalformedRecord("RULES 5.3: the two words of a pack must differ")
        order = tuple(seats if order is None else order)
        if sorted(order) != sorted(seats):
            raise MalformedRecord("RULES 5.4: the clue order must list every seat once")
        if roles[order[0]] == GHOST:
            raise MalformedRecord("RULES 5.4: the ghost never speaks first in round 1")
        host = seats[0] if host is None else host
        if host not in seats:
            raise MalformedRecord(f"the host {host!r} is not a seat (RULES 5.12)")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise MalformedRecord("the seed must be an integer")

        self.seats = seats
        self.roles = dict(roles)
        self.citizen_word, self.spy_word = citizen_word, spy_word
        self.pictures = tuple(pictures) if pictures else (None, None)  # (citizens', spies')
        self.order = order
        self.settings = settings
        self.seed = seed
        self.language = language
        self._checker = clue_checker if clue_checker is not None else (default_clue_checker if clue_filter else None)
        self.host = host
        self.phase = READY
        self.round = 0
        self.round_first: str | None = None
        self.round_order: tuple[str, ...] = ()
        self.speakers: list[str] = []
        self.ready: set[str] = set()
        self.eliminated: list[str] = []
        self.eliminations: list[dict] = []
        self.departed: list[str] = []
        self.disconnected: set[str] = set()
        self.host_notice_given = False
        self.clues: list[dict] = []
        self.voters: tuple[str, ...] = ()
        self.candidates: tuple[str, ...] = ()
        self.votes: dict[str, str] = {}
        self.vote_pass_allowed = False
        self.duel: tuple[str, ...] = ()
        self.pass_blocked = False
        self.vote_log: list[dict] = []
        self.lots_drawn = 0
        self.pending: str | None = None
        self.ghost_guesses: list[dict] = []
        self.host_changes: list[dict] = []
        self.winner: str | None = None

    # ----- queries -------------------------------------------------------------------------
    def word_of(self, seat: str) -> str | None:
        role = self.roles[seat]
        return None if role == GHOST else (self.citizen_word if role == CITIZEN else self.spy_word)

    def picture_of(self, seat: str) -> str | None:
        role = self.roles[seat]
        return None if role == GHOST else self.pictures[0 if role == CITIZEN else 1]

    def in_room(self, seat: str) -> bool:
        return seat in self.roles and seat not in self.departed

    def remaining(self) -> tuple[str, ...]:
        """Players still in the game (not eliminated, not departed), in seat order."""
        return tuple(s for s in self.seats if s not in self.eliminated)

    def room(self) -> tuple[str, ...]:
        """Everyone still in the room, eliminated spectators included (RULES 5.12)."""
        return tuple(s for s in self.seats if s not in self.departed)

    @property
    def speaker(self) -> str | None:
        return self.speakers[0] if self.phase in (CLUES, DUEL_CLUES) and self.speakers else None

    def is_terminal(self) -> bool:
        return self.phase in (FINISHED, ABORTED)

    def status(self) -> str:
        return {FINISHED: "finished", ABORTED: "aborted"}.get(self.phase, "playing")

    def winners(self) -> tuple[str, ...]:
        if self.winner == CITIZENS:
            return tuple(s for s in self.seats if self.roles[s] == CITIZEN)
        if self.winner == SPIES:  # eliminated spies and ghost included (5.11)
            return tuple(s for s in self.seats if self.roles[s] in (SPY, GHOST))
        if self.winner == GHOST:
            return tuple(s for s in self.seats if self.roles[s] == GHOST)
        return ()

    def outcome(self) -> SpyWordOutcome:
        return SpyWordOutcome(self.status(), self.winner, "too_few_players" if self.phase == ABORTED else None,
                              None, winners=self.winners())

    def to_act(self) -> tuple[str, ...]:
        """Seats the game waits on now (clues and the ghost's guess are open-ended text)."""
        if self.phase == READY:
            return tuple(s for s in self.room() if s not in self.ready)
        if self.phase in (CLUES, DUEL_CLUES):
            return (self.speaker,) if self.speaker else ()
        if self.phase == DISCUSSION:
            return (self.host,) if self.settings.multi_device else self.room()
        if self.phase in (VOTE, DUEL_VOTE):
            return tuple(v for v in self.voters if v not in self.votes)
        if self.phase in (GHOST_GUESS, PRIVATE_SCREEN):
            return (self.pending,)
        return ()

    def pass_allowed_now(self) -> bool:
        return self.phase == VOTE and self.vote_pass_allowed

    def legal_actions(self) -> list[SpyWordAction]:
        """Every legal action except the open-ended texts: the speaker's `GiveClue` (see
        `speaker`) and the ghost's `GhostGuess` (see `pending`)."""
        if self.is_terminal():
            return []
        acts: list[SpyWordAction] = []
        multi = self.settings.multi_device
        online = [s for s in self.room() if s not in self.disconnected]
        if self.phase == READY:
            acts += [Ready(s) for s in online if s not in self.ready]
        elif self.phase in (CLUES, DUEL_CLUES):
            if multi:
                acts.append(Timeout("speaker"))
        elif self.phase == DISCUSSION:
            if multi:
                if self.host not in self.disconnected:
                    acts.append(StartVote(HOST))
            else:
                acts += [StartVote(s) for s in online]
            if self.settings.discussion_seconds != UNLIMITED:
                acts.append(Timeout("discussion"))
        elif self.phase in (VOTE, DUEL_VOTE):
            for v in self.voters:
                if v in self.votes or v in self.disconnected:
                    continue
                acts += [Vote(v, c) for c in self.candidates if c != v]
                if self.pass_allowed_now():
                    acts.append(Vote(v, PASS))
            if multi:
                acts.append(Timeout("vote"))
        elif self.phase in (GHOST_GUESS, PRIVATE_SCREEN):
            if self.roles[self.pending] != GHOST and self.pending not in self.disconnected:
                acts.append(Dismiss(self.pending))
            if multi:
                acts.append(Timeout("ghost_guess"))
        if multi:
            acts += [Leave(s) for s in self.room()]
            if self.host not in self.disconnected:
                acts += [Kick(HOST, t) for t in self.room() if t != self.host]
            acts += [Disconnect(s) for s in online]
            acts += [Reconnect(s) for s in self.room() if s in self.disconnected]
            if self.host in self.disconnected and (not self.host_notice_given
                                                   or self._next_host(connected_only=True) is not None):
                acts.append(Timeout("host_replace" if self.host_notice_given else "host_notice"))
        return acts

    # ----- observation and reports -----------------------------------------------------------
    def _public_votes(self) -> tuple[dict, ...]:
        out = []
        for entry in self.vote_log:
            shown = dict(entry)
            if self.settings.vote_display == "counts":
                shown.pop("votes", None)
            out.append(shown)
        return tuple(out)

    def _public_elimination(self, e: dict) -> dict:
        shown = {k: e[k] for k in ("seat", "round", "by")}
        if self.settings.reveal_eliminated_role or self.is_terminal():
            shown["role"] = self.roles[e["seat"]]
        return shown

    def _public_ghost_guesses(self, viewer: str | None) -> tuple[dict, ...]:
        """RULES 5.10: a wrong guess is public only when eliminated roles are revealed; the right
        word is not revealed before the end."""
        if self.is_terminal():
            return tuple(self.ghost_guesses)
        return tuple({k: v for k, v in g.items() if k != "right"} for g in self.ghost_guesses
                     if self.settings.reveal_eliminated_role or g["seat"] == viewer)

    def observe(self, seat: str) -> SpyWordObservation:
        if seat not in self.roles:
            raise ValueError(f"unknown seat {seat!r}")
        role = self.roles[seat]
        out = seat in self.eliminated
        if role == GHOST or self.is_terminal() or out:
            told = role
        elif role == SPY and self.settings.reveal_spy_role:
            told = SPY
        else:
            told = None
        screen = None
        if self.pending == seat and self.phase in (GHOST_GUESS, PRIVATE_SCREEN):
            screen = {"kind": "ghost_guess"} if role == GHOST else {"kind": "role", "role": role}
        voting = self.phase in (VOTE, DUEL_VOTE)
        # Every container (and text) is a new object: nothing here leads back to the state (issue 14).
        return SpyWordObservation(
            seat=text(seat), word=text(self.word_of(seat)), picture=text(self.picture_of(seat)), role=text(told),
            is_spectator=out, phase=text(self.phase), round=self.round, host=text(self.host),
            seats=texts(self.seats), order=texts(self.round_order or self.order),
            to_act=texts(self.to_act()), clues=tuple([deep(c) for c in self.clues]),
            eliminated=tuple([deep(self._public_elimination(e)) for e in self.eliminations]),
            departed=texts(self.departed), votes=deep(self._public_votes()),
            voted=texts(v for v in self.voters if v in self.votes) if voting else (),
            my_vote=text(self.votes.get(seat)) if voting else None,
            vote_candidates=texts(self.candidates) if voting else (),
            pass_allowed=self.pass_allowed_now(), duel=texts(self.duel), private_screen=deep(screen),
            ghost_guesses=deep(self._public_ghost_guesses(seat)), settings=deep(self.settings.to_dict()),
            report=deep(self.end_report()) if self.is_terminal() else None,
        )

    def end_report(self) -> dict:
        """RULES 5.13: the winning side, both words, every role, the vote record of each round
        (who voted for whom when the vote display is public, else the counts)."""
        return {
            "status": self.status(), "winner": self.winner, "winners": list(self.winners()),
            "citizen_word": self.citizen_word, "spy_word": self.spy_word,
            "citizen_picture": self.pictures[0], "spy_picture": self.pictures[1],
            "roles": {s: self.roles[s] for s in self.seats}, "rounds": self.round,
            "votes": [dict(v) for v in self._public_votes()],
            "eliminated": [dict(e) | {"role": self.roles[e["seat"]]} for e in self.eliminations],
            "departed": list(self.departed), "ghost_guesses": [dict(g) for g in self.ghost_guesses],
        }

    # ----- moves ---------------------------------------------------------------------------
    def apply(self, action: SpyWordAction) -> None:
        seat = getattr(action, "seat", None)
        if self.is_terminal():
            rule = "5.12" if self.phase == ABORTED else "5.11"
            raise refusal(rule, "sw_over", result=self.status())
        if isinstance(action, Timeout):
            if seat != CLOCK:
                raise refusal("5.4", "sw_clock_timeouts")
            return self._timeout(action.kind)
        if seat == CLOCK:
            raise refusal("5.4", "sw_clock_only")
        actor = self.host if seat == HOST else seat
        if not isinstance(actor, str) or actor not in self.roles:
            raise refusal("5.1", "sw_unknown_seat", seat=repr(seat))
        if actor in self.departed:
            raise refusal("5.12", "sw_departed", actor=actor)
        if actor in self.disconnected and not isinstance(action, (Reconnect, Leave)):
            raise refusal("5.12", "sw_disconnected", actor=actor)
        handler = {Ready: self._ready, GiveClue: self._clue, StartVote: self._start_vote, Vote: self._vote,
                   GhostGuess: self._ghost_guess, Dismiss: self._dismiss, Leave: self._leave, Kick: self._kick,
                   Disconnect: self._disconnect, Reconnect: self._reconnect}.get(type(action))
        if handler is None:
            raise refusal("5.4", "sw_not_an_action", action=type(action).__name__)
        handler(actor, action)

    # start (5.4)
    def _ready(self, actor: str, a: Ready) -> None:
        if self.phase != READY:
            raise refusal("5.4", "sw_started")
        if actor in self.ready:
            raise refusal("5.4", "sw_confirmed", actor=actor)
        self.ready.add(actor)
        self._maybe_start()

    def _maybe_start(self) -> None:
        if self.phase == READY and all(s in self.ready for s in self.room()):
            self._new_round()

    # clues (5.4, 5.7)
    def _clue(self, actor: str, a: GiveClue) -> None:
        if self.phase not in (CLUES, DUEL_CLUES):
            raise refusal("5.4", "sw_no_clues", phase=self.phase)
        if actor in self.eliminated:
            raise refusal("5.9", "sw_spectator_clue", actor=actor)
        if actor != self.speaker:
            if self.phase == DUEL_CLUES and actor not in self.duel:
                raise refusal("5.7", "sw_duel_clue")
            raise refusal("5.4", "clue_turn", givers=self.speaker)
        if not isinstance(a.text, str):  # None, 7 or a list is no clue (and not an empty one)
            raise refusal("5.4", "sw_clue_text", type=type(a.text).__name__)
        try:  # NFC, dashes as "-", bounded length, no invisible characters (engine.clues.normalize)
            limit = MAX_CLUE_LENGTH if self.settings.clue_mode == "word" else MAX_SENTENCE_LENGTH
            text = normalize_clue(a.text, limit)
        except ClueTextError as exc:
            what = "a one-word clue" if self.settings.clue_mode == "word" else "a sentence clue"
            raise _text_problem("5.4", exc, what) from None
        if not text:
            raise refusal("5.4", "sw_clue_empty")
        if self.settings.clue_mode == "word" and len(text.split()) != 1:
            raise refusal("5.4", "sw_one_word")
        if self.settings.clue_mode == "sentence" and _sentence_count(text) > 1:
            raise refusal("5.4", "sw_one_sentence")
        own = self.word_of(actor)
        if own is not None and _holds_word(text, own, self.settings.clue_mode):
            raise refusal("5.4", "sw_own_word")
        for earlier in self.clues:
            if earlier["clue"] is not None and same_clue(text, earlier["clue"]):
                raise refusal("5.4", "sw_repeat", text=repr(text), seat=earlier["seat"], round=earlier["round"])
        if own is not None and self._checker is not None:
            verdict = self._checker(text, own, self.language, self.settings.clue_mode)
            if verdict:
                rule, message = verdict   # the message in the game's language: so is its citation
                cited = "규칙" if self.language == "ko" else "RULES"
                raise refusal("5.4", "sw_checked", message=message, cited=cited, section=rule)
        self.clues.append({"round": self.round, "seat": actor, "clue": text, "duel": self.phase == DUEL_CLUES})
        self.speakers.pop(0)
        self._after_speaker()

    def _after_speaker(self) -> None:
        if self.speakers:
            return
        if self.phase == CLUES:
            self.phase = DISCUSSION
        else:
            self._open_vote(duel=True)

    # discussion (5.5)
    def _start_vote(self, actor: str, a: StartVote) -> None:
        if self.phase != DISCUSSION:
            raise refusal("5.5", "sw_vote_not_yet", phase=self.phase)
        if self.settings.multi_device and actor != self.host:
            raise refusal("5.5", "sw_host_starts_vote", host=self.host)
        self._open_vote(duel=False)

    def _open_vote(self, duel: bool) -> None:
        if duel:
            self.phase = DUEL_VOTE
            self.candidates = self.duel
            self.voters = tuple(s for s in self.remaining() if s not in self.duel)
            self.vote_pass_allowed = False  # 5.6: no PASS in a duel vote
            if not self.voters:  # 5.7: nobody can vote: lots among the tied
                self._log_vote(outcome="lots", tied=self.duel, lot=self._draw(self.duel))
                return self._eliminate(self.vote_log[-1]["eliminated"], "lots")
        else:
            self.phase = VOTE
            self.voters = self.candidates = self.remaining()
            self.vote_pass_allowed = self.settings.allow_pass and not self.pass_blocked
        self.votes = {}

    # votes (5.6, 5.7)
    def _vote(self, actor: str, a: Vote) -> None:
        if self.phase not in (VOTE, DUEL_VOTE):
            raise refusal("5.6", "sw_no_vote", phase=self.phase)
        if actor in self.eliminated:
            raise refusal("5.9", "sw_spectator_vote", actor=actor)
        if actor not in self.voters:
            raise refusal("5.7", "sw_duel_voters")
        if actor in self.votes:
            raise refusal("5.6", "sw_voted", actor=actor)
        target = a.target
        if target == PASS:
            if self.phase == DUEL_VOTE:
                raise refusal("5.6", "sw_duel_pass")
            if not self.settings.allow_pass:
                raise refusal("5.6", "sw_pass_off")
            if not self.vote_pass_allowed:
                raise refusal("5.6", "sw_pass_again")
        elif target == actor:
            raise refusal("5.6", "sw_self_vote")
        elif target not in self.candidates:
            if self.phase == DUEL_VOTE:
                raise refusal("5.7", "sw_duel_tied", tied=", ".join(self.duel))
            raise refusal("5.6", "sw_not_remaining", target=repr(target))
        self.votes[actor] = target
        if all(v in self.votes for v in self.voters):
            self._resolve_vote()

    def _log_vote(self, outcome: str, tied: Iterable[str] = (), lot: str | None = None,
                  eliminated: str | None = None) -> None:
        counts = {c: 0 for c in self.candidates}
        for t in self.votes.values():
            if t != PASS:
                counts[t] += 1
        entry = {"round": self.round, "kind": "duel" if self.phase == DUEL_VOTE else "vote",
                 "votes": dict(self.votes), "counts": counts,
                 "pass": sum(t == PASS for t in self.votes.values()) if self.vote_pass_allowed else None,
                 "outcome": outcome, "tied": list(tied), "eliminated": lot or eliminated}
        if entry["pass"] is None:
            del entry["pass"]
        self.vote_log.append(entry)

    def _resolve_vote(self) -> None:
        duel = self.phase == DUEL_VOTE
        counts = {c: 0 for c in self.candidates}
        passes = 0
        for t in self.votes.values():
            if t == PASS:
                passes += 1
            else:
                counts[t] += 1
        if not self.votes:  # 5.6 (nobody voted in time) / 5.7 (duel): lots among all candidates
            pool = self.candidates
            self._log_vote("lots", tied=pool, lot=self._draw(pool))
            self.pass_blocked = False
            return self._eliminate(self.vote_log[-1]["eliminated"], "lots")
        top = max(counts.values())
        if not duel and self.vote_pass_allowed and passes >= top:  # 5.6: PASS wins ties
            self._log_vote("pass")
            self.pass_blocked = True
            self.votes, self.voters, self.candidates = {}, (), ()
            return self._new_round()
        self.pass_blocked = False
        tied = tuple(c for c in self.candidates if counts[c] == top)
        if len(tied) == 1:
            self._log_vote("eliminated", eliminated=tied[0])
            return self._eliminate(tied[0], "vote")
        no_duel_voter = all(s in tied for s in self.remaining())
        if duel or self.settings.tie_break == "lottery" or no_duel_voter:  # 5.7: lots
            self._log_vote("lots", tied=tied, lot=self._draw(tied))
            return self._eliminate(self.vote_log[-1]["eliminated"], "lots")
        self._log_vote("duel", tied=tied)
        self.duel = tuple(s for s in self.round_order if s in tied)
        self.votes, self.voters, self.candidates = {}, (), ()
        self.phase = DUEL_CLUES
        self.speakers = list(self.duel)

    def _draw(self, pool: Sequence[str]) -> str:
        """Draw lots (5.6, 5.7): reproducible from the seed and the number of lots drawn."""
        pool = [s for s in self.seats if s in pool]
        i = int(np.random.default_rng([self.seed, self.lots_drawn]).integers(len(pool)))
        self.lots_drawn += 1
        return pool[i]

    # elimination (5.9) and the ghost (5.10)
    def _eliminate(self, seat: str, by: str) -> None:
        self.eliminated.append(seat)
        self.eliminations.append({"seat": seat, "round": self.round, "by": by})
        self.votes, self.voters, self.candidates, self.duel = {}, (), (), ()
        if self.roles[seat] == GHOST:
            self.pending = seat
            self.phase = GHOST_GUESS if self.settings.reveal_eliminated_role else PRIVATE_SCREEN
            return
        if self._check_win():
            return
        if not self.settings.reveal_eliminated_role:  # 5.9: a private screen for every eliminated player
            self.pending = seat
            self.phase = PRIVATE_SCREEN
            return
        self._new_round()

    def _ghost_guess(self, actor: str, a: GhostGuess) -> None:
        if self.phase not in (GHOST_GUESS, PRIVATE_SCREEN) or actor != self.pending:
            raise refusal("5.10", "sw_guess_who")
        if self.roles[actor] != GHOST:
            raise refusal("5.10", "sw_not_ghost", actor=actor)
        check_ghost_guess(a.word)  # refused, the guess kept (it was spent as a wrong guess)
        self._resolve_guess(actor, a.word, timed_out=False)

    def _resolve_guess(self, seat: str, guess: str | None, timed_out: bool = False, left: bool = False) -> None:
        right = guess is not None and ghost_guess_is_right(guess, self.citizen_word, self.spy_word)
        entry = {"seat": seat, "round": self.round, "guess": guess, "right": right}
        if timed_out:
            entry["timed_out"] = True
        if left:
            entry["left"] = True
        self.ghost_guesses.append(entry)
        self.pending = None
        if right:  # 5.11: the ghost alone wins at once
            self._finish(GHOST)
            return
        if not left and not self._check_win():
            self._new_round()

    def _dismiss(self, actor: str, a: Dismiss) -> None:
        if self.phase != PRIVATE_SCREEN or actor != self.pending:
            raise refusal("5.9", "sw_no_screen")
        if self.roles[actor] == GHOST:
            raise refusal("5.10", "sw_ghost_screen")
        self.pending = None
        self._new_round()

    # win (5.11)
    def _check_win(self) -> bool:
        """RULES 5.11 in order (the ghost's right guess is handled where it happens)."""
        left = self.remaining()
        if not any(self.roles[s] in (SPY, GHOST) for s in left):
            self._finish(CITIZENS)
        elif sum(self.roles[s] == CITIZEN for s in left) <= 1:
            self._finish(SPIES)
        return self.is_terminal()

    def _finish(self, winner: str | None) -> None:
        self.winner = winner
        self.phase = FINISHED if winner else ABORTED
        self.pending = None
        self.speakers, self.votes, self.voters, self.candidates, self.duel = [], {}, (), (), ()

    def _new_round(self) -> None:
        """5.4: round 1 starts at the first of the shuffled order (never the ghost); each later round
        at the next remaining player after the previous round's first speaker.

        When the first of the order left before round 1, its first speaker is drawn by lot among the
        remaining players but the ghost: the next one in the order, skipping the ghost, would show
        everyone who had seen the order which player was skipped (a host could kick the first
        player to learn whether the second is the ghost)."""
        left = set(self.remaining())
        n = len(self.order)
        if self.round_first is None:
            first = self.order[0]  # never the ghost (the deal's order)
            if first not in left:
                first = self._draw([s for s in self.order if s in left and self.roles[s] != GHOST])
            start = self.order.index(first)
        else:
            start = (self.order.index(self.round_first) + 1) % n
            while self.order[start] not in left:
                start = (start + 1) % n
        self.round += 1
        self.round_first = self.order[start]
        self.round_order = tuple(self.order[(start + k) % n] for k in range(n) if self.order[(start + k) % n] in left)
        self.speakers = list(self.round_order)
        self.votes, self.voters, self.candidates, self.duel = {}, (), (), ()
        self.phase = CLUES

    # time-outs
    def _timeout(self, kind: str) -> None:
        multi = self.settings.multi_device
        if kind == "speaker":
            if self.phase not in (CLUES, DUEL_CLUES):
                raise refusal("5.4", "sw_t_speaker")
            if not multi:
                raise refusal("5.4", "sw_t_speaker_single")
            self.clues.append({"round": self.round, "seat": self.speakers[0], "clue": None,
                               "duel": self.phase == DUEL_CLUES, "timed_out": True})
            self.speakers.pop(0)
            return self._after_speaker()
        if kind == "discussion":
            if self.phase != DISCUSSION:
                raise refusal("5.5", "sw_t_discussion")
            if self.settings.discussion_seconds == UNLIMITED:
                raise refusal("5.5", "sw_t_unlimited")
            return self._open_vote(duel=False)
        if kind == "vote":
            if self.phase not in (VOTE, DUEL_VOTE):
                raise refusal("5.6", "sw_t_vote")
            if not multi:
                raise refusal("5.6", "sw_t_vote_single")
            return self._resolve_vote()  # 5.6: who did not vote cast no vote
        if kind == "ghost_guess":
            if self.phase not in (GHOST_GUESS, PRIVATE_SCREEN):
                raise refusal("5.10", "sw_t_screen")
            if not multi:
                raise refusal("5.10", "sw_t_guess_single")
            if self.roles[self.pending] == GHOST:
                return self._resolve_guess(self.pending, None, timed_out=True)  # time out = wrong
            self.pending = None
            return self._new_round()
        if kind in ("host_notice", "host_replace"):
            if self.host not in self.disconnected:
                raise refusal("5.12", "sw_t_host_connected")
            if kind == "host_notice":
                if self.host_notice_given:
                    raise refusal("5.12", "sw_t_host_told")
                self.host_notice_given = True
                return
            if not self.host_notice_given:
                raise refusal("5.12", "sw_t_host_early")
            new = self._next_host(connected_only=True)
            if new is None:
                raise refusal("5.12", "sw_t_no_heir")
            return self._set_host(new, "disconnected")
        raise refusal("5.4", "sw_t_unknown", timeout=repr(kind))

    # the room (5.12)
    def _next_host(self, connected_only: bool) -> str | None:
        i = self.seats.index(self.host)
        n = len(self.seats)
        after = [self.seats[(i + k) % n] for k in range(1, n)]
        room = [s for s in after if s not in self.departed]
        online = [s for s in room if s not in self.disconnected]
        if online:
            return online[0]
        return None if connected_only or not room else room[0]

    def _set_host(self, new: str, why: str) -> None:
        self.host_changes.append({"from": self.host, "to": new, "why": why, "round": self.round})
        self.host = new
        self.host_notice_given = False

    def _disconnect(self, actor: str, a: Disconnect) -> None:
        if not self.settings.multi_device:
            raise refusal("5.12", "sw_connections")
        self.disconnected.add(actor)
        if actor == self.host:
            self.host_notice_given = False

    def _reconnect(self, actor: str, a: Reconnect) -> None:
        if actor not in self.disconnected:
            raise refusal("5.12", "sw_connected", actor=actor)
        self.disconnected.discard(actor)
        if actor == self.host:
            self.host_notice_given = False

    def _kick(self, actor: str, a: Kick) -> None:
        if not self.settings.multi_device:
            raise refusal("5.12", "sw_kick_single")
        if actor != self.host:
            raise refusal("5.12", "sw_kick_host", host=self.host)
        if a.target == actor:
            raise refusal("5.12", "sw_kick_self")
        if not isinstance(a.target, str) or not self.in_room(a.target):
            raise refusal("5.12", "sw_not_in_room", target=repr(a.target))
        self._depart(a.target, "kick")

    def _leave(self, actor: str, a: Leave) -> None:
        if not self.settings.multi_device:
            raise refusal("5.12", "sw_leave_single")
        self._depart(actor, "leave")

    def _depart(self, seat: str, how: str) -> None:
        """5.12: who leaves or is kicked counts as eliminated; a ghost who leaves gets no guess;
        fewer than 4 in the room ends the game with no winner unless the departure decided one."""
        self.departed.append(seat)
        self.disconnected.discard(seat)
        self.ready.discard(seat)
        was_playing = seat not in self.eliminated
        if was_playing:
            self.eliminated.append(seat)
            self.eliminations.append({"seat": seat, "round": self.round, "by": how})
        if seat == self.host:
            new = self._next_host(connected_only=False)
            if new is not None:
                self._set_host(new, how)
        if seat in self.speakers:
            self.speakers.remove(seat)
        # a player's departure during a vote voids every vote cast, and everyone votes again
        # (docs/spyword.md): voiding only the votes for the departed would show, in `voted` and
        # `to_act`, who cast them
        if was_playing:
            self.votes = {}
        self.voters = tuple(v for v in self.voters if v != seat)
        self.candidates = tuple(c for c in self.candidates if c != seat)
        duel_broken = seat in self.duel
        self.duel = tuple(s for s in self.duel if s != seat)
        pending_left = seat == self.pending
        if pending_left:
            if self.roles[seat] == GHOST:
                self._resolve_guess(seat, None, left=True)
            self.pending = None
        elif not was_playing:
            # a spectator takes no side with them: the phase goes on as it was, an eliminated ghost's
            # pending guess included (5.10, 5.11: the win check waits for it)
            if len(self.room()) < 4:
                self._finish(None)
            return
        if self._check_win():
            return
        if len(self.room()) < 4:
            return self._finish(None)
        # the phase goes on without the departed player
        if self.phase == READY:
            self._maybe_start()
        elif pending_left:
            self._new_round()
        elif self.phase in (CLUES, DUEL_CLUES):
            if duel_broken and len(self.duel) < 2:
                return self._new_round()  # the departure decided the duel
            self._after_speaker()
        elif self.phase == DUEL_VOTE:
            if duel_broken and len(self.duel) < 2:
                self.vote_log.append({"round": self.round, "kind": "duel", "votes": {}, "counts": {},
                                      "outcome": "departed", "tied": [seat], "eliminated": None})
                return self._new_round()
            if not self.voters:
                self._log_vote("lots", tied=self.candidates, lot=self._draw(self.candidates))
                return self._eliminate(self.vote_log[-1]["eliminated"], "lots")
            if all(v in self.votes for v in self.voters):
                self._resolve_vote()
        elif self.phase == VOTE:
            if all(v in self.votes for v in self.voters):
                self._resolve_vote()
