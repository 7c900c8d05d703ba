"""An independent reference model of Codenames Duet's core game (RULES 3.1-3.11, 4.8), written from
the rule text (RULES.md, docs/rules.md, the Korean rulebook seeds/000) without the engine's code,
for the differential test `test_duet_model_diff.py`.

The model knows nothing of the engine: cards are indices, sides are strings of G/X/N, actions are
plain tuples ("clue", seat, word, number) / ("guess", seat, word) / ("stop", seat), and `apply`
raises `ModelIllegal(rule)` before changing anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SEATS = ("A", "B")
MAX_NUMBER = 9      # RULES 3.4: one number; 0 as the expert rule


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


class ModelIllegal(Exception):
    def __init__(self, rule: str, why: str = ""):
        super().__init__(f"RULES {rule}: {why}")
        self.rule = rule


@dataclass
class Model:
    words: list[str]
    a: str                        # side A of the key (what A sees; judges B's guesses)
    b: str
    tokens: int = 9               # RULES 3.3
    mistakes: int | None = None   # RULES 3.10: None = no mistake limit (all bystander side up)
    relaxed: bool = False         # RULES 3.4
    invalid_clue: str = "allow"   # allow | reject | penalize (RULES 4.8)
    judge: object = None          # (word, number, model) -> rule or None

    check: int = 0
    bystander: int = 0
    covered: set = field(default_factory=set)                 # a green agent on it
    marks: list = field(default_factory=lambda: [set() for _ in range(25)])  # guessers marked beige
    phase: str = "clue"           # clue | guess | sudden_death | won | lost
    giver: str | None = None
    clue: tuple | None = None
    correct: int = 0
    givers: list = field(default_factory=list)
    stops: int = 0
    mistakes_made: int = 0        # beige guesses outside sudden death
    sudden: bool = False
    reason: str | None = None

    def __post_init__(self) -> None:
        self.bystander = self.tokens if self.mistakes is None else self.mistakes
        self.check = self.tokens - self.bystander

    # ---- queries ----
    def side(self, seat: str) -> str:
        return self.a if seat == "A" else self.b

    def left(self) -> int:
        return self.check + self.bystander

    def finished(self, seat: str) -> bool:
        """RULES 3.8: all 9 greens of this seat's side are covered."""
        return all(i in self.covered for i, c in enumerate(self.side(seat)) if c == "G")

    def greens(self) -> set:
        return {i for i in range(25) if "G" in (self.a[i], self.b[i])}

    def able_givers(self) -> tuple:
        if self.phase != "clue":
            return ()
        able = [s for s in SEATS if not self.finished(s)]       # 3.8: a finished side gives no clue
        if not self.givers:
            return tuple(able)                                  # 3.4: either gives the first clue
        last = self.givers[-1]
        if self.relaxed:
            if len(self.givers) >= 2 and self.givers[-2] == last:
                want = [s for s in able if s != last]           # a third in a row is refused
            else:
                want = able
        else:
            want = [s for s in able if s != last]               # 3.4: alternate
        return tuple(want or able)                              # 3.8: the partner finished: go on

    def guessers(self) -> tuple:
        if self.phase == "guess":
            return (other(self.giver),)
        if self.phase == "sudden_death":                        # 3.9: who still has greens to find
            return tuple(s for s in SEATS if not self.finished(other(s)))
        return ()

    def to_act(self) -> tuple:
        return self.able_givers() if self.phase == "clue" else self.guessers()

    def can_guess(self, seat: str, i: int) -> bool:
        """3.7: not covered by an agent, not already marked beige in this direction."""
        return i not in self.covered and seat not in self.marks[i]

    def legal_actions(self) -> set:
        acts = set()
        for s in self.guessers():
            acts |= {("guess", s, w) for i, w in enumerate(self.words) if self.can_guess(s, i)}
            if self.phase == "guess" and self.correct > 0:
                acts.add(("stop", s))
        return acts

    def score(self) -> int | None:
        if self.phase != "won" or self.tokens != 9:
            return None
        return 3 * self.left() + self.stops - (1 if self.sudden else 0)

    # ---- moves ----
    def apply(self, a: tuple) -> None:
        kind, seat = a[0], a[1]
        if seat not in SEATS:
            raise ModelIllegal("3.1", "no such seat")
        if self.phase in ("won", "lost"):
            raise ModelIllegal("3.9", "the game is over")
        if kind == "clue":
            self._clue(seat, a[2], a[3])
        elif kind == "guess":
            self._guess(seat, a[2])
        elif kind == "stop":
            self._stop(seat)
        else:
            raise ModelIllegal("?", "not a Duet action")

    def _clue(self, seat, word, number) -> None:
        if self.phase == "sudden_death":
            raise ModelIllegal("3.9", "no clues in sudden death")
        if self.phase != "clue":
            raise ModelIllegal("3.4", "a guess is due")
        if self.finished(seat):
            raise ModelIllegal("3.8", "finished side gives no clue")
        if seat not in self.able_givers():
            raise ModelIllegal("3.4", "not this seat's clue")
        if type(number) is not int or not 0 <= number <= MAX_NUMBER:
            raise ModelIllegal("3.4", "bad number")
        if not isinstance(word, str) or not word.strip():
            raise ModelIllegal("?", "no word")
        bad = self.judge(word, number, self) if (self.judge and self.invalid_clue != "allow") else None
        if bad and self.invalid_clue == "reject":
            raise ModelIllegal(bad, "illegal clue")
        self.givers.append(seat)
        self.giver, self.clue, self.correct, self.phase = seat, (word, number), 0, "guess"
        if bad:                                   # 4.8: discard one token (check side first)
            if self.check:
                self.check -= 1
            elif self.bystander:
                self.bystander -= 1

    def _index(self, seat, word) -> int:
        if word not in self.words:
            raise ModelIllegal("3.1", "not on the board")
        i = self.words.index(word)
        if i in self.covered:
            raise ModelIllegal("3.7", "covered")
        if seat in self.marks[i]:
            raise ModelIllegal("3.7", "already beige in this direction")
        return i

    def _guess(self, seat, word) -> None:
        if self.phase == "clue":
            raise ModelIllegal("3.4", "a clue is due")
        if seat not in self.guessers():
            raise ModelIllegal("3.9" if self.phase == "sudden_death" else "3.4", "not this seat's guess")
        i = self._index(seat, word)
        judge = other(seat)
        colour = self.side(judge)[i]
        if colour == "X":
            self.phase, self.reason = "lost", "assassin"
            return
        if self.phase == "sudden_death":
            if colour == "N":
                self.marks[i].add(seat)
                self.phase, self.reason = "lost", "sudden_death_miss"
                return
            self.covered.add(i)
            self.correct += 1
            if self.greens() <= self.covered:
                self.phase = "won"
            return
        if colour == "G":
            self.covered.add(i)
            self.correct += 1
            if self.greens() <= self.covered:
                if self.left():                   # 3.11: the winning turn takes its token
                    self._take_stop()
                self.phase = "won"                # 3.9: the 15th green wins at once
                return
            if self.finished(judge):              # 3.8: the giver's last green ends the turn
                self._take_stop()
                self._end_turn()
            return
        # beige (3.5, 3.10)
        self.mistakes_made += 1
        if self.bystander:
            self.bystander -= 1
        elif self.check >= 2:
            self.check -= 2
        else:
            self.marks[i].add(seat)               # the card was touched: beige for this direction
            self._lose_tokens()
            return
        self.marks[i].add(seat)
        self._end_turn()

    def _take_stop(self) -> None:
        if self.check:
            self.check -= 1
        elif self.bystander:
            self.bystander -= 1
        else:
            self._lose_tokens()
            return
        self.stops += 1

    def _lose_tokens(self) -> None:
        self.phase, self.reason = "lost", "out_of_tokens"

    def _stop(self, seat) -> None:
        if self.phase == "sudden_death":
            raise ModelIllegal("3.9", "no stopping in sudden death")
        if self.phase != "guess":
            raise ModelIllegal("3.4", "no turn to stop")
        if seat != other(self.giver):
            raise ModelIllegal("3.4", "not the guesser")
        if self.correct == 0:
            raise ModelIllegal("3.6", "stop before a correct guess")
        self._take_stop()
        self._end_turn()

    def _end_turn(self) -> None:
        if self.phase == "lost":
            return
        self.giver, self.clue, self.correct = None, None, 0
        if self.left() == 0:
            self.phase, self.sudden = "sudden_death", True
        else:
            self.phase = "clue"
