"""The Codenames and Codenames Pictures rules (RULES 1, 2): a state that legal actions move forward.

Every check happens before any change: an illegal action raises IllegalAction and leaves the
state exactly as it was.

Seats: `red-spymaster`, `red-guesser`, `blue-spymaster`, `blue-guesser`. In the variants with a
virtual opponent (two_player, three_player with two guessers, single_team) only the playing
team's seats act. In three_player with a shared guesser one person plays both guesser seats
(the engine rules are those of `teams`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..actions import MAX_CLUE_NUMBER, UNLIMITED, Action, Clue, Cover, Guess, Stop
from ..clues.normalize import ClueTextError, normalize_clue
from ..errors import IllegalAction
from ..fresh import text, texts
from ..game import Outcome
from ..record_fields import check_board, shown
from ..refusals import off_board, refusal
from ..referee import Referee, referee_for
from .config import CodenamesConfig
from .key import ASSASSIN, BYSTANDER, TEAM_LETTER, TEAMS, CodenamesKey, other_team
from .observation import CodenamesObservation, Event

SEATS = ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser")
CLUE, GUESS, COVER, SUDDEN_DEATH, FINISHED = "clue", "guess", "cover", "sudden_death", "finished"
# RULES 2.2: what joins two words into one clue: a hyphen (the clue's dashes are read as one) and
# the middle dots (가운뎃점 ·, ‧, ・, ･), word breaks like a space for the clue filter too (RULES 4.7).
WORD_BREAKS = frozenset("-\u00b7\u2027\u30fb\uff65")
COMPETITION_LOSS = 25  # the single-team protocol's score of a lost game


def seat_team(seat: str) -> str:
    return seat.split("-")[0]


def seat_role(seat: str) -> str:
    return seat.split("-")[1]


@dataclass(frozen=True)
class CodenamesOutcome(Outcome):
    """status: "playing" or "finished"; winner: "red", "blue" or None; reason: None, "assassin",
    "opponent_finished", "sudden_death_miss"; score: RULES 1.8, opponent agents left after a
    two-player win; competition_score: the single-team protocol's turns to win, 25 for a loss."""

    turns_used: int = 0
    competition_score: int | None = None

    @property
    def loss_reason(self) -> str | None:
        return self.reason


@dataclass(frozen=True)
class PendingCover:
    seat: str        # the spymaster who must cover
    team: str        # whose agent gets covered
    rule: str        # "1.6" (penalty) or "1.8" (the virtual opponent's turn)


class CodenamesState:
    """A Codenames or Pictures game in progress."""

    def __init__(self, words: Sequence[str], key: CodenamesKey, config: CodenamesConfig = CodenamesConfig(),
                 referee: Referee | None = None):
        self.board_rule = "1.1" if config.game == "codenames" else "2.1"
        words = tuple(check_board(tuple(words), config.board_size, self.board_rule,
                                  "a Codenames board" if config.game == "codenames" else "a Pictures board",
                                  "words" if config.game == "codenames" else "picture card ids"))
        key.validate(config.game, config.variant)
        self.words = words
        self.key = key
        self.config = config
        self._referee = referee_for(config, referee)
        self._index = {w: i for i, w in enumerate(words)}
        self.revealed = [False] * len(words)
        self.phase = CLUE
        self.team = key.starts
        self.current_clue: tuple[str, int | str] | None = None
        self.guesses_this_turn = 0
        self.pending: list[PendingCover] = []
        self.turns: list[str] = []          # the team of each clue given (penalised ones included)
        self.sudden_death_team: str | None = None
        self.winner: str | None = None
        self.loss_reason: str | None = None
        self.history: list[Event] = []

    # ----- queries -------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def ours(self) -> str:
        """The playing team in the variants against a virtual opponent: the starting team."""
        return self.key.starts

    @property
    def solo(self) -> bool:
        """Only one team gives clues (RULES 1.8, 1.9, the single-team protocol)."""
        return self.config.cooperative or self.config.single_team

    @property
    def turns_used(self) -> int:
        return len(self.turns)

    def agents_left(self, team: str) -> int:
        letter = TEAM_LETTER[team]
        return sum(1 for i, c in enumerate(self.key.letters) if c == letter and not self.revealed[i])

    def is_terminal(self) -> bool:
        return self.phase == FINISHED

    def visible_words(self) -> list[str]:
        """Words still face up: they block clues (RULES 4.3-4.5). Pictures block no words."""
        if self.config.game == "pictures":
            return []
        return [w for i, w in enumerate(self.words) if not self.revealed[i]]

    def covered_words(self) -> list[str]:
        if self.config.game == "pictures":
            return []
        return [w for i, w in enumerate(self.words) if self.revealed[i]]

    def guess_limit(self) -> int | None:
        """RULES 1.4: number + 1 for 1..9; no limit for 0, unlimited (1.7) and sudden death (2.3)."""
        if self.phase == SUDDEN_DEATH or self.current_clue is None:
            return None
        number = self.current_clue[1]
        return number + 1 if isinstance(number, int) and number >= 1 else None

    def guesses_left(self) -> int | None:
        limit = self.guess_limit()
        return None if limit is None else limit - self.guesses_this_turn

    def to_act(self) -> tuple[str, ...]:
        if self.phase == CLUE:
            return (f"{self.team}-spymaster",)
        if self.phase in (GUESS, SUDDEN_DEATH):
            return (f"{self.team}-guesser",)
        if self.phase == COVER:
            return (self.pending[0].seat,)
        return ()

    def clue_giver(self) -> str | None:
        return f"{self.team}-spymaster" if self.phase == CLUE else None

    def legal_actions(self) -> list[Action]:
        """Every legal guess, stop and cover. Clues are open-ended: see `clue_giver()`."""
        if self.phase == COVER:
            p = self.pending[0]
            letter = TEAM_LETTER[p.team]
            return [Cover(p.seat, w) for i, w in enumerate(self.words)
                    if not self.revealed[i] and self.key.letters[i] == letter]
        if self.phase in (GUESS, SUDDEN_DEATH):
            seat = f"{self.team}-guesser"
            actions: list[Action] = [Guess(seat, w) for i, w in enumerate(self.words) if not self.revealed[i]]
            if self.phase == GUESS and self.guesses_this_turn >= 1:
                actions.append(Stop(seat))
            return actions
        return []

    def outcome(self) -> CodenamesOutcome:
        return CodenamesOutcome(
            status="finished" if self.phase == FINISHED else "playing", winner=self.winner,
            reason=self.loss_reason, turns_used=self.turns_used, score=self.score(),
            competition_score=self.competition_score(),
        )

    def score(self) -> int | None:
        """RULES 1.8: after a two-player win, the opponent agents still uncovered."""
        if not self.config.cooperative or self.phase != FINISHED or self.winner != self.ours:
            return None
        return self.agents_left(other_team(self.ours))

    def competition_score(self) -> int | None:
        """Single-team protocol: turns used to find all 8; a loss (assassin, 7 opponent cards) = 25."""
        if not self.config.single_team or self.phase != FINISHED:
            return None
        return min(self.turns_used, COMPETITION_LOSS) if self.winner == self.ours else COMPETITION_LOSS

    def observe(self, seat: str) -> CodenamesObservation:
        if seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}; seats are {', '.join(SEATS)}")
        spymaster = seat_role(seat) == "spymaster"
        clue = self.current_clue
        # Every container (and text) is a new object: nothing here leads back to the state (issue 14).
        return CodenamesObservation(
            seat=text(seat), role=seat_role(seat), team=seat_team(seat), game=text(self.config.game),
            variant=text(self.config.variant), words=texts(self.words), grid=tuple([*self.config.grid]),
            key=text(self.key.letters) if spymaster else None, starts=text(self.key.starts),
            revealed=tuple([self.key.letters[i] if r else None for i, r in enumerate(self.revealed)]),
            agents_left=tuple([(text(t), self.agents_left(t)) for t in TEAMS]), phase=text(self.phase),
            turn_team=None if self.phase == FINISHED else text(self.team), to_act=texts(self.to_act()),
            current_clue=None if clue is None else (text(clue[0]), text(clue[1])),
            guesses_this_turn=self.guesses_this_turn, guesses_left=self.guesses_left(),
            history=tuple([e.copy() for e in self.history]), winner=text(self.winner),
        )

    # ----- moves ---------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        seat = getattr(action, "seat", None)
        if seat not in SEATS:
            raise refusal(self.board_rule, "unknown_seat", seat=repr(seat), seats=f"seats are {', '.join(SEATS)}")
        if self.is_terminal():
            raise refusal("2.3" if self.config.assassin_ending else "1.5", "over_won", team=self.winner)
        if isinstance(action, Clue):
            self._clue(action)
        elif isinstance(action, Guess):
            self._guess(action)
        elif isinstance(action, Stop):
            self._stop(action)
        elif isinstance(action, Cover):
            self._cover(action)
        else:
            raise refusal("1.2", "not_an_action", action=type(action).__name__, game="Codenames", moves="")

    def _past_the_limit(self, seat: str) -> IllegalAction | None:
        """RULES 1.4: `seat`'s turn ended by itself after its last allowed guess (number + 1), and no
        clue came since: the last event is a guess of that seat that found its own agent (any other
        own-agent guess keeps the turn going or wins)."""
        last = self.history[-1] if self.history else None
        if (self.phase in (CLUE, COVER) and last is not None and last.kind == "guess" and last.seat == seat
                and last.result == TEAM_LETTER.get(seat_team(seat))):
            return refusal("1.4", "past_the_limit", team=seat_team(seat))
        return None

    def _wrong_phase(self, what: str) -> IllegalAction:
        if self.phase == COVER:
            p = self.pending[0]
            return refusal(p.rule, "must_cover", seat=p.seat, team=p.team)
        if self.phase == SUDDEN_DEATH:
            return refusal("2.3", "team_sudden_death", team=self.team)
        if self.phase == CLUE:
            return refusal("1.2", "needs_clue", what=what, giver=f"{self.team}-spymaster")
        return refusal("1.2", "guessing", guesser=f"{self.team}-guesser")

    def _clue(self, a: Clue) -> None:
        if self.phase != CLUE:
            raise self._wrong_phase("a clue")
        if a.seat != f"{self.team}-spymaster":
            rule = "1.8" if self.solo and seat_team(a.seat) != self.ours else "1.2"
            raise refusal(rule, "clue_turn_not", giver=f"{self.team}-spymaster", seat=a.seat)
        number = a.number
        if not (number == UNLIMITED or (isinstance(number, int) and not isinstance(number, bool)
                                        and 0 <= number <= MAX_CLUE_NUMBER)):
            raise refusal("1.2", "codenames_number", most=MAX_CLUE_NUMBER, number=shown(number))
        text_rule = "2.2" if self.config.game == "pictures" else "1.2"
        if not isinstance(a.word, str):  # None, 7 or a list is no word (it was played as its str())
            raise refusal(text_rule, "clue_text", type=type(a.word).__name__)
        try:  # one reading of the text for every rule below (NFC, dashes, length, invisible characters)
            word = normalize_clue(a.word)
        except ClueTextError as exc:
            raise IllegalAction(text_rule, exc.describe(self.config.language)) from None  # as the filter
        if not word:
            raise refusal("1.2", "clue_empty")
        verdict = two_words = None
        multiword = any(o.startswith("multiword") for o in self.config.clue_options)  # RULES 4.7, agreed
        if self.config.game == "pictures" and not multiword and any(ch.isspace() or ch in WORD_BREAKS for ch in word):
            two_words = refusal("2.2", "not_one_word", word=repr(word))
            verdict = (two_words.rule, two_words.message)
        if verdict is None and self.config.invalid_clue != "allow":
            verdict = self._referee(word, number, self.visible_words(), self.covered_words(),
                                    self.config.language)
        if verdict and self.config.invalid_clue != "penalize":
            raise two_words or IllegalAction(*verdict)
        self.turns.append(self.team)
        self.history.append(Event("clue", a.seat, word, number))
        self.current_clue, self.guesses_this_turn = (word, number), 0
        if verdict:  # RULES 1.6: the turn ends at once; the other spymaster covers one own agent first
            self.history.append(Event("penalty", a.seat, word, result=f"RULES {verdict[0]}"))
            self._end_turn(penalised=True)
        else:
            self.phase = GUESS

    def _guess(self, a: Guess) -> None:
        if self.phase not in (GUESS, SUDDEN_DEATH):
            raise self._past_the_limit(a.seat) or self._wrong_phase("a guess")
        if a.seat != f"{self.team}-guesser":
            raise refusal("1.2", "team_guesser", guesser=f"{self.team}-guesser", team=self.team, seat=a.seat)
        i = self._index.get(a.word) if isinstance(a.word, str) else None  # a list is no card (and unhashable)
        if i is None:
            raise off_board(self.board_rule, a.word, self.words, "a card of the board")
        if self.revealed[i]:
            raise refusal("1.3", "already_covered", word=repr(a.word))
        letter = self.key.letters[i]
        self.history.append(Event("guess", a.seat, a.word, result=letter))
        self.revealed[i] = True
        self.guesses_this_turn += 1
        team, opponent = self.team, other_team(self.team)
        if letter == TEAM_LETTER[team]:                       # RULES 1.3: own agent
            if self.agents_left(team) == 0 and (not self.config.assassin_ending or self.phase == SUDDEN_DEATH):
                self._finish(team, "opponent_finished")          # RULES 1.5, 2.3
            elif self.guesses_left() == 0:                       # RULES 1.4: the last allowed guess
                self._end_turn()
        elif letter == ASSASSIN:                              # RULES 1.3, 2.3
            if not self.config.assassin_ending:
                self._finish(opponent, "assassin")
            elif self.agents_left(team) == 0:
                self._finish(team, "opponent_finished")
            else:
                self.phase, self.sudden_death_team = SUDDEN_DEATH, team
        elif self.phase == SUDDEN_DEATH:                      # RULES 2.3: any miss loses
            self._finish(opponent, "sudden_death_miss")
        elif letter == BYSTANDER:
            self._end_turn()
        else:                                                 # the opponent's agent
            if self.agents_left(opponent) == 0 and not self.config.assassin_ending:
                self._finish(opponent, "opponent_finished")      # RULES 1.5, 1.8
            else:
                self._end_turn()

    def _stop(self, a: Stop) -> None:
        if self.phase != GUESS:
            raise self._past_the_limit(a.seat) or self._wrong_phase("stopping")
        if a.seat != f"{self.team}-guesser":
            raise refusal("1.4", "team_stopper", guesser=f"{self.team}-guesser", team=self.team)
        if self.guesses_this_turn == 0:
            raise refusal("1.4", "team_stop_early")
        self.history.append(Event("stop", a.seat))
        self._end_turn()

    def _cover(self, a: Cover) -> None:
        if self.phase != COVER:
            raise refusal("1.6", "nothing_to_cover")
        p = self.pending[0]
        if a.seat != p.seat:
            raise refusal(p.rule, "cover_turn", seat=p.seat, mover=a.seat)
        i = self._index.get(a.word) if isinstance(a.word, str) else None  # a list is no card (and unhashable)
        if i is None:
            raise off_board(self.board_rule, a.word, self.words, "a card of the board")
        if self.revealed[i]:
            raise refusal("1.3", "already_covered", word=repr(a.word))
        if self.key.letters[i] != TEAM_LETTER[p.team]:
            raise refusal(p.rule, "not_their_agent", word=repr(a.word), team=p.team)
        self.history.append(Event("cover", a.seat, a.word, result=self.key.letters[i]))
        self.revealed[i] = True
        self.pending.pop(0)
        if self.agents_left(p.team) == 0 and not self.config.assassin_ending:
            self._finish(p.team, "opponent_finished")  # RULES 1.5 (a cooperative game is lost, 1.8)
            return
        self._next_phase()

    # ----- turn ends -----------------------------------------------------------------------
    def _end_turn(self, penalised: bool = False) -> None:
        self.current_clue, self.guesses_this_turn = None, 0
        if self.config.single_team:
            pass  # nobody plays the opponent: red gives the next clue (a penalty costs the turn)
        elif self.solo:  # RULES 1.8: the virtual opponent's turn, played by our spymaster
            seat = f"{self.ours}-spymaster"
            self.pending.append(PendingCover(seat, other_team(self.ours), "1.8"))
            if penalised:  # RULES 1.6: the other team covers one of its own agents too
                self.pending.append(PendingCover(seat, other_team(self.ours), "1.6"))
        else:
            self.team = other_team(self.team)
            if penalised:
                self.pending.append(PendingCover(f"{self.team}-spymaster", self.team, "1.6"))
        self._next_phase()

    def _next_phase(self) -> None:
        # A team with nothing left to cover (assassin ending, after finishing) owes no cover.
        self.pending = [p for p in self.pending if self.agents_left(p.team) > 0]
        self.phase = COVER if self.pending else CLUE

    def _finish(self, winner: str, loss_reason: str) -> None:
        self.phase, self.winner, self.loss_reason = FINISHED, winner, loss_reason
        self.current_clue, self.pending = None, []
