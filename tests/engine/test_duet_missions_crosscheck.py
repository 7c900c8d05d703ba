"""An independent model of RULES 3.3-3.11 and 4.8, written from the rule text, driven through seeded
random games (legal and illegal actions) next to the engine for every mission supply (T-M), 10 and
11 tokens, the relaxed order and each `invalid_clue` mode; the two must agree at every step: legal
actions, clue givers, acceptance, phase, tokens (check / bystander side), mistakes, loss reason and
score. An illegal action must leave the engine's state unchanged."""

import copy
import random

import numpy as np
import pytest

from engine.actions import Clue, Guess, Stop
from engine.duet import DuetConfig, DuetState, generate_key
from engine.errors import IllegalAction

WORDS = ["apple", "bridge", "castle", "dragon", "engine", "forest", "garden", "hammer", "island", "jungle",
         "knight", "ladder", "magnet", "needle", "orange", "pencil", "queen", "rocket", "saddle", "tiger",
         "umbrella", "violin", "wallet", "yacht", "zebra"]
GOOD, BAD = ["ocean", "music", "planet"], ["badone", "badtwo"]   # the test referee refuses bad*


def referee(word, number, board, covered, language):
    return ("4.1", "a bad clue") if word.startswith("bad") else None


def oth(s):
    return "B" if s == "A" else "A"


class Illegal(Exception):
    pass


class Model:
    def __init__(self, side_a, side_b, T, M, relaxed, mode):
        self.side = {"A": side_a, "B": side_b}
        self.T, self.relaxed, self.mode = T, relaxed, mode
        self.byst = T if M is None else M                   # 3.10: M bystander side up, the rest check side up
        self.check = T - self.byst
        self.cov = [False] * 25
        self.marks = [set() for _ in range(25)]             # "judge>guesser" directions marked bystander (3.7)
        self.phase, self.giver, self.correct = "clue", None, 0
        self.clues, self.stops, self.sd, self.reason, self.mistakes = [], 0, False, None, 0

    def tokens(self):
        return self.check + self.byst

    def finished(self, s):                                   # 3.8: s's nine greens are covered
        return all(self.cov[i] for i in range(25) if self.side[s][i] == "G")

    def givers(self):                                        # 3.4, 3.8
        if self.phase != "clue":
            return set()
        able = [s for s in "AB" if not self.finished(s)]
        if not self.clues:
            return set(able)
        last = self.clues[-1]
        if self.relaxed:
            twice = self.clues[-2:] == [last, last]
            allowed = [s for s in able if not (twice and s == last)]
        else:
            allowed = [s for s in able if s != last]
        return set(allowed or able)

    def guessers(self):                                      # 3.5; 3.9: whoever still has greens to find
        if self.phase == "guess":
            return {oth(self.giver)}
        if self.phase == "sudden_death":
            return {s for s in "AB" if not self.finished(oth(s))}
        return set()

    def guessable(self, seat, i):                            # 3.7
        return not self.cov[i] and len(self.marks[i]) < 2 and f"{oth(seat)}>{seat}" not in self.marks[i]

    def legal(self):
        acts = set()
        for s in self.guessers():
            acts |= {("guess", s, WORDS[i]) for i in range(25) if self.guessable(s, i)}
            if self.phase == "guess" and self.correct:
                acts.add(("stop", s))
        return acts

    def take_stop(self):                                     # 3.6, 3.10: check side first
        if self.check:
            self.check -= 1
        elif self.byst:
            self.byst -= 1
        else:
            return False
        self.stops += 1
        return True

    def lose(self, reason):
        self.phase, self.reason = "lost", reason

    def end_turn(self):
        self.giver, self.correct = None, 0
        self.phase = "clue" if self.tokens() else "sudden_death"   # 3.9
        self.sd = self.sd or self.phase == "sudden_death"

    def clue(self, seat, word):
        if seat not in self.givers():
            raise Illegal
        bad = self.mode != "allow" and word.startswith("bad")
        if bad and self.mode == "reject":
            raise Illegal
        if bad and self.mode == "penalize":                  # 4.8: discard one token (check side first)
            if self.check:
                self.check -= 1
            else:
                self.byst -= 1
        self.clues.append(seat)
        self.giver, self.phase, self.correct = seat, "guess", 0

    def guess(self, seat, word):
        i = WORDS.index(word) if word in WORDS else None
        if i is None or seat not in self.guessers() or not self.guessable(seat, i):
            raise Illegal
        judge = oth(seat)
        colour = self.side[judge][i]
        if colour == "X":
            return self.lose("assassin")
        if self.phase == "sudden_death":
            if colour != "G":
                return self.lose("sudden_death_miss")
            self.cov[i] = True
            if sum(self.cov) == 15:
                self.phase = "won"
            return
        if colour == "G":
            self.cov[i] = True
            self.correct += 1
            if sum(self.cov) == 15:                          # 3.9, 3.11: the winning turn takes its token
                self.phase = "won"
                self.take_stop()
            elif self.finished(judge):                       # 3.8: the turn ends as a stop
                if not self.take_stop():
                    return self.lose("out_of_tokens")
                self.end_turn()
            return
        self.mistakes += 1                                   # beige: 3.5, 3.10
        if self.byst:
            self.byst -= 1
        elif self.check >= 2:
            self.check -= 2
        else:
            return self.lose("out_of_tokens")
        self.marks[i].add(f"{judge}>{seat}")
        self.end_turn()

    def stop(self, seat):
        if self.phase != "guess" or seat not in self.guessers() or not self.correct:
            raise Illegal
        if not self.take_stop():
            return self.lose("out_of_tokens")
        self.end_turn()

    def score(self):                                         # 3.11: won 9-token games only
        if self.phase != "won" or self.T != 9:
            return None
        return 3 * self.tokens() + self.stops - self.sd


def snapshot(st):
    return (st.phase, st.check_tokens, st.bystander_tokens, tuple(st.green_covered),
            tuple(frozenset(m) for m in st.marks), st.clue_giver, st.correct_this_turn, tuple(st.clue_seats),
            st.stop_tokens, st.mistakes, st.went_to_sudden_death, st.loss_reason, len(st.history))


def agree(st, m, where):
    legal = {("guess", a.seat, a.word) if isinstance(a, Guess) else ("stop", a.seat) for a in st.legal_actions()}
    assert legal == m.legal(), where
    assert set(st.clue_givers()) == m.givers(), where
    assert (st.phase, st.check_tokens, st.bystander_tokens, st.mistakes) == (m.phase, m.check, m.byst, m.mistakes), where
    assert (st.outcome().reason, st.score(), st.is_terminal()) == (m.reason, m.score(), m.phase in ("won", "lost")), where


def play(seed, T, M, relaxed, mode):
    rng = random.Random(seed)
    key = generate_key(np.random.default_rng(seed))
    cfg = DuetConfig(timer_tokens=T, mistakes=M, relaxed_order=relaxed, invalid_clue=mode,
                     language=None if mode == "allow" else "en")
    st = DuetState(WORDS, key, cfg, referee=None if mode == "allow" else referee)
    m = Model(key.a, key.b, T, M, relaxed, mode)
    for step in range(400):
        agree(st, m, (seed, step))
        if st.is_terminal():
            return m.phase
        legal = sorted(m.legal())
        r = rng.random()
        if m.phase == "clue" and r < 0.9:
            act = ("clue", rng.choice(sorted(m.givers())) if rng.random() < 0.9 else rng.choice("AB"),
                   rng.choice(GOOD) if rng.random() < 0.8 else rng.choice(BAD))
        elif legal and r < 0.85:
            greens = [a for a in legal if a[0] == "guess" and m.side[oth(a[1])][WORDS.index(a[2])] == "G"]
            act = rng.choice(greens) if greens and rng.random() < 0.6 else rng.choice(legal)
        else:
            act = rng.choice([("guess", rng.choice("AB"), rng.choice(WORDS + ["nowhere"])), ("stop", rng.choice("AB")),
                              ("clue", rng.choice("AB"), rng.choice(GOOD + BAD))])
        before, saved = snapshot(st), copy.deepcopy(m)
        try:
            getattr(m, act[0])(*act[1:])
            model_ok = True
        except Illegal:
            model_ok, m = False, saved
        action = {"clue": lambda: Clue(act[1], act[2], rng.randint(0, 9)), "guess": lambda: Guess(act[1], act[2]),
                  "stop": lambda: Stop(act[1])}[act[0]]()
        try:
            st.apply(action)
            engine_ok = True
        except IllegalAction:
            engine_ok = False
            assert snapshot(st) == before, (seed, step, act)
        assert engine_ok == model_ok, (seed, step, act)
    raise AssertionError(f"seed {seed}: no end in 400 actions")


# the rulebook's missions (Prague 9-9, Moscow 8-8, Cairo 9-5, Jakarta 7-7, Singapore 6-6), 10 and 11
# tokens, and supplies a user's map may give (11-3, 9-0: every token check side up, 3-1)
SUPPLIES = [(9, None), (10, None), (11, None), (8, 8), (9, 5), (7, 7), (6, 6), (9, 9), (11, 3), (9, 0), (3, 1)]


@pytest.mark.parametrize("mode", ["allow", "reject", "penalize"])
@pytest.mark.parametrize("relaxed", [False, True])
@pytest.mark.parametrize("T, M", SUPPLIES)
def test_the_engine_agrees_with_an_independent_model_of_the_rules(T, M, relaxed, mode):  # RULES 3.3-3.11, 4.8
    ends = {play(1000 * seed + 10 * T + (M or 0), T, M, relaxed, mode) for seed in range(4)}
    assert ends <= {"won", "lost"}
