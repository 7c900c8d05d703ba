"""Drive seeded random Duet games through the engine and the reference model (duet_reference_model)
and report the first difference of each game. Used by test_duet_model_diff.py and by hand:
`python tests/engine/duet_diff_driver.py N [FIRST_SEED]` prints the differences of N games per setup."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from duet_reference_model import SEATS, Model, ModelIllegal  # noqa: E402
from diff_step import report, run_setups, step_both  # noqa: E402

import numpy as np  # noqa: E402

from engine import Clue, Guess, Stop  # noqa: E402
from engine.duet import DuetConfig, DuetRecord, DuetState, generate_key  # noqa: E402
from engine.duet.record import record_from_dict  # noqa: E402
from engine.errors import IllegalAction  # noqa: E402

SETUPS = [  # (timer_tokens, mistakes, relaxed_order)
    (9, None, False), (9, None, True), (10, None, False), (11, None, False), (9, 5, False),
    (8, 8, False), (7, 7, True), (6, 6, False), (11, 4, False), (5, 1, True), (4, 0, False),
    (2, None, False), (1, None, True), (3, 2, False),
]
MODES = ("allow", "reject", "penalize")
CLUE_WORDS = ["alpha", "beta", "bad", "badword", "gamma", "delta"]
RULE_PAIRS: dict = {}



def one_line_rule(e: IllegalAction) -> str | None:
    """What is wrong with a refusal's text: it names no rule, or takes more than one line."""
    return None if "RULES" in str(e) and "\n" not in str(e) else "without naming a rule in one line"


def referee(word, number, board, covered, language):
    return ("4.3", f"{word!r} refused") if word.startswith("bad") else None


def judge(word, number, model):
    return "4.3" if word.startswith("bad") else None


WORDS = {lang: (Path(__file__).parents[2] / "data" / "words" / f"{lang}.txt").read_text(encoding="utf-8").split()
         for lang in ("en", "ko")}


def real_judge(word, number, model):
    """The project's clue filter, shown the board as the model sees it (RULES 4.5: a card covered by
    an agent, or with a token from both directions, no longer blocks; one token keeps it visible)."""
    from engine.referee import default_referee
    gone = {i for i in range(25) if i in model.covered or len(model.marks[i]) == 2}
    visible = [w for i, w in enumerate(model.words) if i not in gone]
    covered = [w for i, w in enumerate(model.words) if i in gone]
    verdict = default_referee(word.strip(), number, visible, covered, model.lang)
    return None if verdict is None else verdict[0]


def to_engine(a: tuple):
    if a[0] == "clue":
        return Clue(a[1], a[2], a[3])
    if a[0] == "guess":
        return Guess(a[1], a[2])
    return Stop(a[1])


def from_engine(a) -> tuple:
    if isinstance(a, Clue):
        return ("clue", a.seat, a.word, a.number)
    if isinstance(a, Guess):
        return ("guess", a.seat, a.word)
    return ("stop", a.seat)




def compare(s: DuetState, m: Model) -> str | None:
    eng = {from_engine(a) for a in s.legal_actions()}
    if eng != m.legal_actions():
        return f"legal actions: engine-only {sorted(eng - m.legal_actions())[:4]} model-only {sorted(m.legal_actions() - eng)[:4]}"
    if tuple(s.to_act()) != m.to_act():
        return f"to_act engine {s.to_act()} model {m.to_act()}"
    if s.phase != m.phase:
        return f"phase engine {s.phase} model {m.phase}"
    if s.is_terminal() != (m.phase in ("won", "lost")):
        return f"terminal engine {s.is_terminal()} model {m.phase}"
    if (s.check_tokens, s.bystander_tokens) != (m.check, m.bystander):
        return f"supply engine {(s.check_tokens, s.bystander_tokens)} model {(m.check, m.bystander)}"
    cov = {i for i, g in enumerate(s.green_covered) if g}
    if cov != m.covered:
        return f"covered engine-only {cov - m.covered} model-only {m.covered - cov}"
    if [set(x) for x in s.marks] != m.marks:
        return f"marks engine {[sorted(x) for x in s.marks]} model {[sorted(x) for x in m.marks]}"
    o = s.outcome()
    over = m.phase in ("won", "lost")
    want = ("players" if m.phase == "won" else None, m.reason, m.score())
    if (o.winner, o.reason, o.score) != want:
        return f"outcome engine {(o.winner, o.reason, o.score)} model {want}"
    if o.status != ("finished" if over else "playing"):
        return f"outcome status {o.status}"
    if (s.stop_tokens if m.phase != "lost" else m.stops) != m.stops or s.went_to_sudden_death != m.sudden:
        return f"stops/sudden engine {(s.stop_tokens, s.went_to_sudden_death)} model {(m.stops, m.sudden)}"
    if (s.mistakes, len(s.clue_seats), s.tokens_left) != (m.mistakes_made, len(m.givers), m.left()):
        return f"mistakes/turns/tokens_left engine {(s.mistakes, len(s.clue_seats), s.tokens_left)} model {(m.mistakes_made, len(m.givers), m.left())}"
    for seat in SEATS:
        if s.side_finished(seat) != m.finished(seat):
            return f"side_finished({seat}) engine {s.side_finished(seat)}"
        ob = s.observe(seat)
        if (ob.phase, ob.to_act, ob.clue_giver, ob.current_clue, ob.correct_this_turn) != (
                m.phase, m.to_act(), m.giver, m.clue, m.correct):
            return (f"observation of {seat}: {(ob.phase, ob.to_act, ob.clue_giver, ob.current_clue, ob.correct_this_turn)}"
                    f" model {(m.phase, m.to_act(), m.giver, m.clue, m.correct)}")
        if (ob.check_tokens, ob.bystander_tokens, ob.greens_found, ob.partner_finished) != (
                m.check, m.bystander, len(m.covered), m.finished(other(seat))):
            return f"observation of {seat}: tokens/greens {(ob.check_tokens, ob.bystander_tokens, ob.greens_found, ob.partner_finished)}"
        if ob.own_key != m.side(seat):
            return f"observation of {seat}: own key"
        if tuple(ob.can_guess(i) for i in range(25)) != tuple(m.can_guess(seat, i) for i in range(25)):
            return f"observation of {seat}: can_guess differs"
    return None


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def random_clue(rng: random.Random, m: Model, seat: str) -> tuple:
    word = rng.choice(m.clue_words)
    number = rng.choice([0, 1, 1, 2, 2, 3, 9] + ([-1, 10, True, "unlimited", 2.0, None, "2"] if rng.random() < 0.1 else []))
    return ("clue", seat, word, number)


def random_illegal(rng: random.Random, m: Model) -> tuple:
    seat = rng.choice(SEATS + ("C",)) if rng.random() < 0.05 else rng.choice(SEATS)
    kind = rng.choice(["clue", "guess", "guess", "stop"])
    if kind == "clue":
        return random_clue(rng, m, seat)
    if kind == "stop":
        return ("stop", seat)
    return ("guess", seat, rng.choice(m.words + ["nowhere"]))


def play(seed: int, tokens: int, mistakes, relaxed: bool, invalid: str, lang: str | None = None) -> str | None:
    """`lang`: None = the fake referee and w00.. words; 'en'/'ko' = the real clue filter, real words."""
    rng = random.Random(seed)
    bias = rng.choice([0.3, 0.7, 0.95])
    key = generate_key(np.random.default_rng(seed))
    words = rng.sample(WORDS[lang], 25) if lang else [f"w{i:02d}" for i in range(25)]
    cfg = DuetConfig(timer_tokens=tokens, mistakes=mistakes, relaxed_order=relaxed, invalid_clue=invalid,
                     language=None if invalid == "allow" else (lang or "en"))
    s = DuetState(words, key, cfg, referee=None if lang else referee)
    m = Model(list(words), key.a, key.b, tokens=tokens, mistakes=mistakes, relaxed=relaxed,
              invalid_clue=invalid, judge=real_judge if lang else judge)
    m.lang = lang   # the driver's own fields on the model: the referee's language, the clues to try
    m.clue_words = (CLUE_WORDS if not lang else
                    [w for w in words] + [w + ("s" if lang == "en" else "이") for w in words] + WORDS[lang][:20])
    name = f"seed {seed} {tokens}-{mistakes} relaxed={relaxed} {invalid}"
    done: list = []
    trail: list = []
    for step in range(300):
        d = compare(s, m)
        if d:
            return f"{name} step {step}: {d}; trail {trail[-8:]}"
        if m.phase in ("won", "lost") and rng.random() < 0.7:
            break
        legal = sorted(m.legal_actions() | {from_engine(a) for a in s.legal_actions()})
        if rng.random() < 0.2:
            a = random_illegal(rng, m)
        elif m.phase in ("clue", "won", "lost"):
            a = random_clue(rng, m, rng.choice(m.to_act() or SEATS))
        else:
            good = [x for x in legal if x[0] == "guess" and m.side(other(x[1]))[m.words.index(x[2])] == "G"]
            if good and rng.random() < bias:
                a = rng.choice(good)
            else:
                a = rng.choice(legal) if legal else random_illegal(rng, m)
        d = step_both(name, step, a, m, s, model_illegal=ModelIllegal, to_engine=to_engine,
                      trail=trail, done=done, rule_pairs=RULE_PAIRS, refusal_problem=one_line_rule)
        if d:
            return d
    if invalid == "allow" or lang:   # the record (through JSON) replays to the same state
        rec = DuetRecord(words=list(words), key=key, config=cfg, actions=done)
        back = record_from_dict(json.loads(json.dumps(rec.to_dict()))).replay()
        if (back.phase, back.outcome(), back.green_covered, back.marks) != (s.phase, s.outcome(), s.green_covered, s.marks):
            return f"{name}: the record does not replay to the same state"
    return None


def run(games: int, first_seed: int = 0, lang: str | None = None) -> list[str]:
    return run_setups(play, SETUPS, MODES, games, first_seed, lang)


if __name__ == "__main__":
    report(run, len(SETUPS) * len(MODES), RULE_PAIRS, sys.argv)
