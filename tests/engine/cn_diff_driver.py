"""Drive seeded random games through the engine and the reference model (cn_reference_model) and
report the first difference of each game. Used by test_codenames_model_diff.py and by hand:
`python tests/engine/cn_diff_driver.py N` prints the differences of N games per variant."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from cn_reference_model import UNLIMITED, Model, ModelIllegal  # noqa: E402
from diff_step import report, run_setups, step_both  # noqa: E402

from engine import Clue, Cover, Guess, Stop  # noqa: E402
from engine.codenames import CodenamesConfig, CodenamesRecord, CodenamesState, generate_key, record_from_dict  # noqa: E402

import numpy as np  # noqa: E402

SEATS = ("red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser")
SETUPS = [  # (game, variant, three_player_mode)
    ("codenames", "teams", "shared_guesser"),
    ("codenames", "two_player", "shared_guesser"),
    ("codenames", "three_player", "shared_guesser"),
    ("codenames", "three_player", "two_guessers"),
    ("codenames", "single_team", "shared_guesser"),
    ("pictures", "teams", "shared_guesser"),
    ("pictures", "two_player", "shared_guesser"),
    ("pictures", "three_player", "two_guessers"),
    ("pictures", "assassin_ending", "shared_guesser"),
]
MODES = ("allow", "reject", "penalize")
WORDS = {lang: (Path(__file__).parents[2] / "data" / "words" / f"{lang}.txt").read_text(encoding="utf-8").split()
         for lang in ("en", "ko")}
CLUE_WORDS = ["alpha", "beta", "bad", "badword", "two words", "hy-phen", "gamma", "", " ", "badx-y",
              "ice\u00b7cream", "en\u2013dash", "tab\tbed", " padded "]


RULE_PAIRS: dict = {}


def referee(word, number, board, covered, language):
    return ("4.3", f"{word!r} refused") if word.startswith("bad") else None


def judge(word, number, model):
    return "4.3" if word.startswith("bad") else None


def real_judge(word, number, model):
    """The project's clue filter, shown the board as the model sees it (RULES 4.5: covered cards
    no longer block; Pictures: no words on the board)."""
    from engine.referee import default_referee
    pictures = model.game == "pictures"
    visible = [] if pictures else [w for i, w in enumerate(model.words) if i not in model.covered]
    covered = [] if pictures else [w for i, w in enumerate(model.words) if i in model.covered]
    verdict = default_referee(word, number, visible, covered, model.lang)
    return None if verdict is None else verdict[0]


def to_engine(a: tuple):
    kind = a[0]
    if kind == "clue":
        return Clue(a[1], a[2], a[3])
    if kind == "guess":
        return Guess(a[1], a[2])
    if kind == "stop":
        return Stop(a[1])
    return Cover(a[1], a[2])


def from_engine(a) -> tuple:
    if isinstance(a, Clue):
        return ("clue", a.seat, a.word, a.number)
    if isinstance(a, Guess):
        return ("guess", a.seat, a.word)
    if isinstance(a, Stop):
        return ("stop", a.seat)
    return ("cover", a.seat, a.word)


def compare(s: CodenamesState, m: Model) -> str | None:
    eng = {from_engine(a) for a in s.legal_actions() if not isinstance(a, Clue)}
    if eng != m.legal_actions():
        return f"legal actions: engine-only {sorted(eng - m.legal_actions())[:4]} model-only {sorted(m.legal_actions() - eng)[:4]}"
    if tuple(s.to_act()) != m.to_act():
        return f"to_act engine {s.to_act()} model {m.to_act()}"
    if s.is_terminal() != (m.phase == "over"):
        return f"terminal engine {s.is_terminal()} model {m.phase}"
    cov = {i for i, r in enumerate(s.revealed) if r}
    if cov != m.covered:
        return f"covered engine-only {cov - m.covered} model-only {m.covered - cov}"
    o = s.outcome()
    if (o.winner, o.reason, o.score) != ((m.winner, m.reason, m.score) if m.phase == "over" else (None, None, None)):
        return f"outcome engine {(o.winner, o.reason, o.score)} model {(m.winner, m.reason, m.score)}"
    lim = m.limit()
    if s.guesses_left() != (None if lim is None or m.phase != "guess" else lim - m.guesses):
        return f"guesses_left engine {s.guesses_left()} model {lim} - {m.guesses}"
    phase = "finished" if m.phase == "over" else ("sudden_death" if m.sudden_death else m.phase)
    for seat in SEATS:
        ob = s.observe(seat)
        if ob.phase != phase or ob.to_act != m.to_act() or ob.winner != (m.winner if m.phase == "over" else None):
            return f"observation of {seat}: phase {ob.phase} to_act {ob.to_act} winner {ob.winner}; model {phase}"
        if (ob.key is not None) != seat.endswith("spymaster") or (ob.key is not None and ob.key != m.key):
            return f"observation of {seat}: key {ob.key}"
        want = tuple(m.key[i] if i in m.covered else None for i in range(len(m.words)))
        if ob.revealed != want:
            return f"observation of {seat}: revealed {ob.revealed} model {want}"
        if dict(ob.agents_left) != {"red": m.left("red"), "blue": m.left("blue")}:
            return f"observation of {seat}: agents_left {ob.agents_left}"
    if s.turns_used != m.turns_used:
        return f"turns_used engine {s.turns_used} model {m.turns_used}"
    if m.variant == "single_team" and m.phase == "over":
        want = m.turns_used if m.winner == "red" else 25
        if o.competition_score != min(want, 25):   # a win never scores worse than a loss
            return f"competition_score engine {o.competition_score} model {want}"
    return None


def random_clue(rng: random.Random, m: Model, seat: str) -> tuple:
    word = rng.choice(m.clue_words + [rng.choice(m.words)] * 5)
    number = rng.choice([0, 1, 1, 2, 2, 3, 9, UNLIMITED, UNLIMITED] + ([-1, 10, True, "many", 2.0, None, "2", "Unlimited"] if rng.random() < 0.1 else []))
    return ("clue", seat, word, number)


def random_illegal(rng: random.Random, m: Model) -> tuple:
    seat = rng.choice(SEATS)
    kind = rng.choice(["clue", "guess", "stop", "cover"])
    if kind == "clue":
        return random_clue(rng, m, seat)
    if kind == "stop":
        return ("stop", seat)
    word = rng.choice(m.words + ["nowhere"])
    return (kind, seat, word)


def play(seed: int, game: str, variant: str, mode3: str, invalid: str, lang: str | None = None) -> str | None:
    """`lang`: None = the fake referee and w00.. words; 'en'/'ko' = the real clue filter, real words."""
    rng = random.Random(seed)
    bias = rng.choice([0.0, 0.5, 0.9])
    key = generate_key(np.random.default_rng(seed), game, variant)
    n = len(key.letters)
    words = [f"w{i:02d}" for i in range(n)] if game == "codenames" else None
    if lang and game == "codenames":
        words = rng.sample(WORDS[lang], n)
    if words is None:
        from engine.codenames.pictures import card_ids
        words = rng.sample(sorted(card_ids()), n)
    cfg = CodenamesConfig(game=game, variant=variant, three_player_mode=mode3, invalid_clue=invalid,
                          language=None if invalid == "allow" else (lang or "en"))
    s = CodenamesState(words, key, cfg, referee=None if lang else referee)
    m = Model(list(words), key.letters, key.starts, game=game, variant=variant, three_player_mode=mode3,
              invalid_clue=invalid, judge=real_judge if lang else judge)
    m.lang = lang   # the driver's own fields on the model: the referee's language, the clues to try
    m.clue_words = (CLUE_WORDS if not lang else
                    WORDS[lang][:40] + [w + ("s" if lang == "en" else "이") for w in WORDS[lang][:20]] + ["two words"])
    trail: list = []
    done: list = []
    name = f"seed {seed} {game}/{variant}/{mode3}/{invalid}"
    return _loop(rng, s, m, trail, done, bias, name) or (
        None if _roundtrip_ok(s, done, None if lang else referee) else f"{name}: the record does not replay to the same state")


def _roundtrip_ok(s: CodenamesState, done: list, ref) -> bool:
    """The game's record, through JSON, replays (refereed alike) to the same state."""
    rec = CodenamesRecord(words=list(s.words), key=s.key, config=s.config, actions=done)
    back = record_from_dict(json.loads(json.dumps(rec.to_dict()))).replay(referee=ref)
    return (list(back.revealed), back.phase, back.outcome(), back.to_act()) == (list(s.revealed), s.phase, s.outcome(), s.to_act())


def _loop(rng, s, m, trail, done, bias, name) -> str | None:
    for step in range(400):
        d = compare(s, m)
        if d:
            return f"{name} step {step}: {d}; trail {trail[-8:]}"
        if m.phase == "over" and rng.random() < 0.7:
            return None
        legal = sorted(m.legal_actions() | {from_engine(a) for a in s.legal_actions()})
        if rng.random() < 0.25:
            a = random_illegal(rng, m)
        elif m.phase in ("clue", "over"):
            a = random_clue(rng, m, (m.to_act() or ("red-spymaster",))[0])
        else:
            own = [x for x in legal if x[0] == "guess" and m.key[m.words.index(x[2])] == ("R" if m.team == "red" else "B")]
            if m.phase == "guess" and own and rng.random() < bias:
                a = rng.choice(own)   # a guesser who reads the clue well: long turns, limits, finishes
            else:
                a = rng.choice(legal) if legal else random_illegal(rng, m)
        d = step_both(name, step, a, m, s, model_illegal=ModelIllegal, to_engine=to_engine,
                      trail=trail, done=done, rule_pairs=RULE_PAIRS)
        if d:
            return d
    return None


def run(games: int, first_seed: int = 0, lang: str | None = None) -> list[str]:
    return run_setups(play, SETUPS, MODES, games, first_seed, lang)


if __name__ == "__main__":
    report(run, len(SETUPS) * len(MODES), RULE_PAIRS, sys.argv)
