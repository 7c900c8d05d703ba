"""The Duet rules (RULES 3): a state that legal actions move forward, checked before any change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..actions import MAX_CLUE_NUMBER, Action, Clue, Guess, Stop
from ..clues.normalize import ClueTextError, normalize_clue
from ..errors import IllegalAction
from ..fresh import text, texts
from ..game import Outcome
from ..record_fields import check_board, shown
from ..refusals import off_board, refusal
from ..referee import Referee, referee_for
from .config import DuetConfig
from .key import ASSASSIN, BOARD_SIZE, GREEN, SEATS, TOTAL_GREENS, DuetKey, other
from .observation import DuetObservation, Event

CLUE, GUESS, SUDDEN_DEATH, WON, LOST = "clue", "guess", "sudden_death", "won", "lost"


@dataclass(frozen=True)
class DuetOutcome(Outcome):
    """status: "playing"/"finished"; winner: "players" on a win (the game is cooperative);
    reason: None, "assassin", "sudden_death_miss", "out_of_tokens"; score: RULES 3.11, won games
    only; phase: Duet's own word for where the game stands ("playing", "sudden_death", "won", "lost")."""

    phase: str = "playing"

    @property
    def loss_reason(self) -> str | None:
        return self.reason


class DuetState:
    """A Duet game in progress. `apply` either raises IllegalAction (state unchanged) or moves on."""

    def __init__(self, words: Sequence[str], key: DuetKey, config: DuetConfig = DuetConfig(),
                 referee: Referee | None = None):
        words = tuple(check_board(tuple(words), BOARD_SIZE, "3.1", "a Duet board"))
        self.words = words
        self.key = key
        self.config = config
        self._referee = referee_for(config, referee)
        self._index = {w: i for i, w in enumerate(words)}
        self._greens = key.green_cells()
        self.check_tokens = config.check_tokens
        self.bystander_tokens = config.bystander_tokens
        self.green_covered = [False] * BOARD_SIZE
        self.marks: list[set[str]] = [set() for _ in range(BOARD_SIZE)]
        self.phase = CLUE
        self.clue_giver: str | None = None
        self.current_clue: tuple[str, int] | None = None
        self.correct_this_turn = 0
        self.clue_seats: list[str] = []
        self.stop_tokens = 0        # turns ended by taking a token after a correct guess (3.11)
        self.mistakes = 0           # bystander guesses outside sudden death
        self.tokens_on_cards = 0    # bystander tokens placed on cards (a stack of two counts 2)
        self.tokens_discarded = 0   # tokens discarded as a penalty (RULES 4.8)
        self.went_to_sudden_death = False
        self.loss_reason: str | None = None
        self.history: list[Event] = []

    # ----- queries -------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def tokens_left(self) -> int:
        return self.check_tokens + self.bystander_tokens

    @property
    def greens_found(self) -> int:
        return sum(self.green_covered)

    def is_terminal(self) -> bool:
        return self.phase in (WON, LOST)

    def side_finished(self, seat: str) -> bool:
        """All nine greens of this seat's side are covered (RULES 3.8)."""
        side = self.key.side(seat)
        return all(self.green_covered[i] for i in range(BOARD_SIZE) if side[i] == GREEN)

    def covered_for_both(self, i: int) -> bool:
        return self.green_covered[i] or len(self.marks[i]) == 2

    def visible_words(self) -> list[str]:
        """Words that still block clues (RULES 4.5: one Duet token keeps a card visible)."""
        return [w for i, w in enumerate(self.words) if not self.covered_for_both(i)]

    def clue_givers(self) -> tuple[str, ...]:
        """Seats allowed to give the next clue (RULES 3.4, 3.8)."""
        if self.phase != CLUE:
            return ()
        able = [s for s in SEATS if not self.side_finished(s)]
        if not self.clue_seats:
            return tuple(able)
        last = self.clue_seats[-1]
        if self.config.relaxed_order:
            twice = len(self.clue_seats) >= 2 and self.clue_seats[-2] == last
            allowed = [s for s in able if not (twice and s == last)]
        else:
            allowed = [s for s in able if s == other(last)]
        return tuple(allowed or able)

    def guessers(self) -> tuple[str, ...]:
        if self.phase == GUESS:
            return (other(self.clue_giver),)
        if self.phase == SUDDEN_DEATH:  # RULES 3.9: whoever still has greens to find
            return tuple(s for s in SEATS if not self.side_finished(other(s)))
        return ()

    def to_act(self) -> tuple[str, ...]:
        return self.clue_givers() if self.phase == CLUE else self.guessers()

    def legal_actions(self) -> list[Action]:
        """Every legal guess and stop. Clues are open-ended: see `clue_givers()`."""
        actions: list[Action] = []
        for seat in self.guessers():
            actions += [Guess(seat, w) for i, w in enumerate(self.words) if self._guessable(seat, i)]
            if self.phase == GUESS and self.correct_this_turn > 0:
                actions.append(Stop(seat))
        return actions

    def outcome(self) -> DuetOutcome:
        phase = {CLUE: "playing", GUESS: "playing"}.get(self.phase, self.phase)
        return DuetOutcome(status="finished" if self.is_terminal() else "playing",
                           winner="players" if self.phase == WON else None, reason=self.loss_reason,
                           score=self.score(), phase=phase)

    def score(self) -> int | None:
        """RULES 3.11: +3 per token left, +1 per stop token, -1 after sudden death; won games of a
        9-token supply only (the rulebook scores the 9-token game; Berlin's 11 tokens or Moscow's 8
        have no score to compare)."""
        if self.phase != WON or not self.config.scored:
            return None
        return 3 * self.tokens_left + self.stop_tokens - (1 if self.went_to_sudden_death else 0)

    def observe(self, seat: str) -> DuetObservation:
        if seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}; Duet seats are A and B")
        # Every container (and text) is a new object: nothing here leads back to the state (issue 14).
        clue = self.current_clue
        return DuetObservation(
            seat=seat, words=texts(self.words), own_key=text(self.key.side(seat)),
            green_covered=tuple(self.green_covered),
            bystander_marks=tuple([frozenset(m) for m in self.marks]),
            check_tokens=self.check_tokens, bystander_tokens=self.bystander_tokens,
            timer_tokens=self.config.timer_tokens, mistakes_allowed=self.config.mistakes,
            phase=text(self.phase), clue_giver=self.clue_giver, to_act=tuple(self.to_act()),
            current_clue=None if clue is None else (text(clue[0]), clue[1]),
            correct_this_turn=self.correct_this_turn,
            greens_found=self.greens_found, partner_finished=self.side_finished(other(seat)),
            history=tuple([e.copy() for e in self.history]),
        )

    # ----- moves ---------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        if getattr(action, "seat", None) not in SEATS:
            raise refusal("3.1", "unknown_seat", seat=shown(getattr(action, "seat", None)),
                          seats="Duet seats are A and B")
        if self.is_terminal():
            raise refusal("3.9", "over", result=self.phase)
        if isinstance(action, Clue):
            self._clue(action)
        elif isinstance(action, Guess):
            self._guess(action)
        elif isinstance(action, Stop):
            self._stop(action)
        else:
            raise refusal("3.4", "not_an_action", action=type(action).__name__, game="Duet",
                          moves=" (clue, guess, stop)")

    def _clue(self, a: Clue) -> None:
        if self.phase == SUDDEN_DEATH:
            raise refusal("3.9", "sudden_death_clue")
        if self.phase == GUESS:
            raise refusal("3.6", "guessing", guesser=other(self.clue_giver))
        if a.seat not in self.clue_givers():
            if self.side_finished(a.seat):
                raise refusal("3.8", "side_done_clue", seat=a.seat)
            raise refusal("3.4", "clue_turn", givers=tuple(self.clue_givers()))
        if isinstance(a.number, bool) or not isinstance(a.number, int) or not 0 <= a.number <= MAX_CLUE_NUMBER:
            raise refusal("3.4", "duet_number", most=MAX_CLUE_NUMBER, number=shown(a.number))
        if not isinstance(a.word, str):  # None, 7 or a list is no word (it was played as its str())
            raise refusal("3.4", "clue_text", type=type(a.word).__name__)
        try:  # one reading of the text for every rule below (NFC, dashes, length, invisible characters)
            word = normalize_clue(a.word)
        except ClueTextError as exc:
            raise IllegalAction("3.4", exc.describe(self.config.language)) from None  # as the filter
        if not word:
            raise refusal("3.4", "clue_empty")
        penalty = None
        if self.config.invalid_clue != "allow":
            covered = [w for i, w in enumerate(self.words) if self.covered_for_both(i)]
            penalty = self._referee(word, a.number, self.visible_words(), covered, self.config.language)
            if penalty and self.config.invalid_clue == "reject":
                raise IllegalAction(*penalty)
        self.clue_seats.append(a.seat)
        self.history.append(Event("clue", a.seat, word, a.number))
        self.phase, self.clue_giver = GUESS, a.seat
        self.current_clue, self.correct_this_turn = (word, a.number), 0
        if penalty:  # RULES 4.8: one token is discarded, then the guesser still guesses
            self.history.append(Event("penalty", a.seat, result=f"RULES {penalty[0]}"))
            before = self.tokens_left
            self._take_tokens(check=1)
            self.tokens_discarded += before - self.tokens_left

    def _guessable(self, seat: str, i: int) -> bool:
        return not self.green_covered[i] and seat not in self.marks[i]

    def _guess(self, a: Guess) -> None:
        if self.phase == CLUE:
            if self.side_finished(other(a.seat)):  # e.g. just after the turn that covered them ended itself
                raise refusal("3.8", "side_done_guess", other=other(a.seat), seat=a.seat)
            raise refusal("3.4", "guess_first")
        if a.seat not in self.guessers():
            if self.phase == GUESS:
                raise refusal("3.5", "duet_guesser", giver=self.clue_giver, guesser=other(self.clue_giver))
            raise refusal("3.9", "sudden_death_done", seat=a.seat)
        i = self._index.get(a.word) if isinstance(a.word, str) else None  # a list is no card (and unhashable)
        if i is None:
            raise off_board("3.1", a.word, self.words, "a word of the board")
        if self.green_covered[i]:
            raise refusal("3.7", "covered_agent", word=repr(a.word))
        if len(self.marks[i]) == 2:
            raise refusal("3.7", "covered_both", word=repr(a.word))
        if a.seat in self.marks[i]:
            raise refusal("3.7", "known_bystander", word=repr(a.word), seat=a.seat)
        identity = self.key.side(other(a.seat))[i]  # RULES 3.5: judged by the clue-giver's side
        if identity == GREEN:
            self.history.append(Event("guess", a.seat, a.word, result="green"))
            self.green_covered[i] = True
            self.correct_this_turn += 1
            if self.greens_found == TOTAL_GREENS:
                if self.phase == GUESS and self.tokens_left:  # the final turn takes its token (3.11)
                    self._take_tokens(check=1)
                    self.stop_tokens += 1
                self.phase = WON
            elif self.phase == GUESS and self.side_finished(self.clue_giver):
                self._end_turn_with_stop()  # RULES 3.8
        elif identity == ASSASSIN:
            self.history.append(Event("guess", a.seat, a.word, result="assassin"))
            self._lose("assassin")
        else:
            self.history.append(Event("guess", a.seat, a.word, result="bystander"))
            self.marks[i].add(a.seat)
            if self.phase == SUDDEN_DEATH:
                self._lose("sudden_death_miss")
                return
            self.mistakes += 1
            before = self.tokens_left
            self._take_tokens(bystander=1)  # RULES 3.5, 3.10
            self.tokens_on_cards += before - self.tokens_left
            self._end_turn()

    def _stop(self, a: Stop) -> None:
        if self.phase == SUDDEN_DEATH:
            raise refusal("3.9", "sudden_death_stop")
        if self.phase != GUESS:
            raise refusal("3.6", "stop_no_turn")
        if a.seat != other(self.clue_giver):
            raise refusal("3.6", "duet_stopper", guesser=other(self.clue_giver))
        if self.correct_this_turn == 0:
            raise refusal("3.6", "duet_stop_early")
        self._end_turn_with_stop()

    # ----- tokens and turn ends --------------------------------------------------------------
    def _take_tokens(self, check: int = 0, bystander: int = 0) -> None:
        """Take a turn's token (RULES 3.6, 3.10); a supply that cannot pay loses at once."""
        if self.phase in (WON, LOST):
            return
        if check:  # a stop: check side, else bystander side
            if self.check_tokens:
                self.check_tokens -= 1
            elif self.bystander_tokens:
                self.bystander_tokens -= 1
            else:
                self._lose("out_of_tokens")
        elif bystander:  # a bystander: bystander side, else two check-side tokens stacked
            if self.bystander_tokens:
                self.bystander_tokens -= 1
            elif self.check_tokens >= 2:
                self.check_tokens -= 2
            else:
                self._lose("out_of_tokens")

    def _end_turn_with_stop(self) -> None:
        self.history.append(Event("stop", other(self.clue_giver)))
        self._take_tokens(check=1)
        self.stop_tokens += 1
        self._end_turn()

    def _end_turn(self) -> None:
        if self.phase == LOST:
            return
        self.clue_giver, self.current_clue, self.correct_this_turn = None, None, 0
        if self.tokens_left == 0:  # RULES 3.9
            self.phase = SUDDEN_DEATH
            self.went_to_sudden_death = True
        else:
            self.phase = CLUE

    def _lose(self, reason: str) -> None:
        self.phase, self.loss_reason = LOST, reason
