"""An independent reference model of Codenames (RULES 1) and Codenames Pictures (RULES 2), written
from the rule text (RULES.md, docs/rules.md, docs/codenames.md's rules decisions) without the
engine's code, for the differential test `test_codenames_model_diff.py`.

The model knows nothing of the engine: cards are indices, actions are plain tuples
("clue", seat, word, number) / ("guess", seat, word) / ("stop", seat) / ("cover", seat, word),
and `apply` raises `ModelIllegal(rule)` before changing anything.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

UNLIMITED = "unlimited"
TEAM_LETTER = {"red": "R", "blue": "B"}


def _joins(ch: str) -> bool:
    """RULES 2.2: one word, so no space, no hyphen (any dash) and no middle dot (RULES 4.7)."""
    return ch.isspace() or unicodedata.category(ch) == "Pd" or ch in "\u2212\u00b7\u2027\u30fb\uff65"


def other(team: str) -> str:
    return "blue" if team == "red" else "red"


class ModelIllegal(Exception):
    def __init__(self, rule: str, why: str = ""):
        super().__init__(f"RULES {rule}: {why}")
        self.rule = rule


@dataclass
class Model:
    words: list[str]
    key: str                     # R/B/N/X per card
    starts: str
    game: str = "codenames"      # codenames | pictures
    variant: str = "teams"       # teams | two_player | three_player | single_team | assassin_ending
    three_player_mode: str = "shared_guesser"
    invalid_clue: str = "allow"  # allow | reject | penalize
    judge: object = None         # (word, number, model) -> rule or None (the referee; None = no objection)
    multiword_ok: bool = False   # clue_options allow multi-word clues (2.2)

    covered: set = field(default_factory=set)
    phase: str = "clue"          # clue | guess | cover | over
    team: str = ""
    number: object = None
    guesses: int = 0
    covers_owed: list = field(default_factory=list)   # [(seat, team whose agent is covered)]
    sudden_death: bool = False
    turns_used: int = 0
    winner: str | None = None
    reason: str | None = None
    score: int | None = None

    def __post_init__(self) -> None:
        self.team = self.starts

    # ----- derived -------------------------------------------------------------------------------
    @property
    def cooperative(self) -> bool:       # RULES 1.8, 1.9 (two guessers = the two-player rules)
        return self.variant == "two_player" or (self.variant == "three_player"
                                                and self.three_player_mode == "two_guessers")

    @property
    def ours(self) -> str:
        return self.starts

    def agents(self, team: str) -> list[int]:
        return [i for i, c in enumerate(self.key) if c == TEAM_LETTER[team]]

    def left(self, team: str) -> int:
        return sum(1 for i in self.agents(team) if i not in self.covered)

    def index(self, word: object) -> int | None:
        return self.words.index(word) if word in self.words else None

    def to_act(self) -> tuple[str, ...]:
        if self.phase == "over":
            return ()
        if self.phase == "cover":
            return (self.covers_owed[0][0],)
        return (f"{self.team}-{'spymaster' if self.phase == 'clue' else 'guesser'}",)

    def limit(self) -> int | None:
        if self.sudden_death or self.number is None or self.number == 0 or self.number == UNLIMITED:
            return None
        return self.number + 1

    def legal_actions(self) -> set[tuple]:
        """Every legal action but clues (open-ended)."""
        out: set[tuple] = set()
        if self.phase == "guess":
            seat = self.to_act()[0]
            out |= {("guess", seat, self.words[i]) for i in range(len(self.words)) if i not in self.covered}
            if self.guesses >= 1 and not self.sudden_death:
                out.add(("stop", seat))
        elif self.phase == "cover":
            seat, team = self.covers_owed[0]
            out |= {("cover", seat, self.words[i]) for i in self.agents(team) if i not in self.covered}
        return out

    # ----- apply ---------------------------------------------------------------------------------
    def apply(self, a: tuple) -> None:
        if self.phase == "over":
            raise ModelIllegal("1.5", "over")
        kind, seat = a[0], a[1]
        if kind == "clue":
            return self._clue(seat, a[2], a[3])
        if a not in self.legal_actions():
            raise ModelIllegal("?", "not legal")
        if kind == "guess":
            self._guess(self.index(a[2]))
        elif kind == "stop":
            self._end_turn()
        else:
            self._cover(self.index(a[2]))

    def _clue(self, seat, word, number) -> None:
        if self.phase != "clue" or seat != self.to_act()[0]:
            raise ModelIllegal("1.2", "not this seat's clue")
        if isinstance(number, bool) or not (number == UNLIMITED or (isinstance(number, int) and 0 <= number <= 9)):
            raise ModelIllegal("1.2", "number")
        if not isinstance(word, str) or not word.strip():
            raise ModelIllegal("1.2", "empty")
        rule = None
        if self.game == "pictures" and not self.multiword_ok and any(_joins(ch) for ch in word.strip()):
            rule = "2.2"
            if self.invalid_clue != "penalize":
                raise ModelIllegal(rule, "one word")
        if rule is None and self.invalid_clue != "allow" and self.judge is not None:
            rule = self.judge(word, number, self)
            if rule is not None and self.invalid_clue == "reject":
                raise ModelIllegal(rule, "referee")
        self.turns_used += 1
        if rule is not None:          # RULES 1.6 penalize: turn ends, the other spymaster covers
            self._end_turn(penalty=True)
            return
        self.number, self.guesses, self.phase = number, 0, "guess"

    def _win(self, team: str, reason: str | None = None) -> None:
        self.winner, self.reason, self.phase = team, reason, "over"
        if self.cooperative and team == self.ours:
            self.score = self.left(other(self.ours))

    def _lose(self, team: str, reason: str) -> None:
        self._win(other(team), reason)

    def _check_finished(self, mover: str) -> bool:
        """RULES 1.5 after a card of some team is covered: that team wins (not in 2.3)."""
        if self.variant == "assassin_ending":
            return False
        for t in (mover, other(mover)):
            if self.left(t) == 0:
                self._win(t, "opponent_finished")   # the loser's reason: the winner's agents are all found
                return True
        return False

    def _guess(self, i: int) -> None:
        t = self.team
        c = self.key[i]
        self.covered.add(i)
        self.guesses += 1
        if c == "X":
            if self.variant == "assassin_ending":
                if self.sudden_death:          # cannot happen: the assassin is found once
                    raise AssertionError
                if self.left(t) == 0:
                    self._win(t, "opponent_finished")
                else:
                    self.sudden_death = True  # RULES 2.3: keep guessing, no limit
                return
            self._lose(t, "assassin")
            return
        if c == TEAM_LETTER[t]:
            if self.sudden_death:
                if self.left(t) == 0:
                    self._win(t, "opponent_finished")
                return
            if self._check_finished(t):
                return
            lim = self.limit()
            if lim is not None and self.guesses >= lim:
                self._end_turn()
            return
        # a miss
        if self.sudden_death:
            self._lose(t, "sudden_death_miss")
            return
        if c != "N" and self._check_finished(t):
            return
        self._end_turn()

    def _end_turn(self, penalty: bool = False) -> None:
        t = self.team
        self.number, self.guesses = None, 0
        owed = []
        if self.variant == "single_team":
            pass
        elif self.cooperative:
            if penalty:
                owed.append((f"{self.ours}-spymaster", other(self.ours)))
            owed.append((f"{self.ours}-spymaster", other(self.ours)))
        else:
            o = other(t)
            self.team = o
            if penalty and self.left(o) > 0:
                owed.append((f"{o}-spymaster", o))
        self.covers_owed = owed
        self.phase = "cover" if owed else "clue"

    def _cover(self, i: int) -> None:
        seat, team = self.covers_owed.pop(0)
        self.covered.add(i)
        if self._check_finished(team):
            return
        if self.covers_owed and self.left(self.covers_owed[0][1]) == 0:
            self.covers_owed.clear()
        self.phase = "cover" if self.covers_owed else "clue"
