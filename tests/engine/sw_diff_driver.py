"""Drive seeded random Spy's Word games through the engine and the reference model
(sw_reference_model) and report the first difference of each game. Used by
test_spyword_model_diff.py and by hand: `python tests/engine/sw_diff_driver.py N` prints the
differences of N games per setup."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from sw_reference_model import CLOCK, HOST, PASS, Model, ModelIllegal  # noqa: E402
from diff_step import step_both  # noqa: E402

from engine.errors import IllegalAction  # noqa: E402
from engine.spyword import (Disconnect, Dismiss, GhostGuess, GiveClue, Kick, Leave, Ready, Reconnect,  # noqa: E402
                            SpyWordSettings, StartVote, Timeout, Vote, deal_spyword, record_from_dict)

PACKS = [{"words": ["mountain", "river"]}, {"words": ["violin", "trumpet"]}, {"words": ["tiger", "eagle"]}]
CLUES = ["alpha", "beta", "gamma", "Alpha", "delta!", "two words", "", "  ", "badword", "epsilon"]
TIMEOUTS = ("speaker", "discussion", "vote", "ghost_guess", "host_notice", "host_replace")


def checker(clue, word, language, mode):
    """Stands in for 5.4's 'part of the word / translation': a clue that starts with 'bad'."""
    return ("5.4", "refused") if clue.strip().startswith("bad") else None


def to_engine(a: tuple):
    k = a[0]
    return {"ready": lambda: Ready(a[1]), "clue": lambda: GiveClue(a[1], a[2]),
            "start_vote": lambda: StartVote(a[1]), "vote": lambda: Vote(a[1], a[2]),
            "ghost_guess": lambda: GhostGuess(a[1], a[2]), "dismiss": lambda: Dismiss(a[1]),
            "leave": lambda: Leave(a[1]), "kick": lambda: Kick(a[1], a[2]),
            "disconnect": lambda: Disconnect(a[1]), "reconnect": lambda: Reconnect(a[1]),
            "timeout": lambda: Timeout(a[1])}[k]()


def from_engine(a) -> tuple:
    if isinstance(a, Timeout):
        return ("timeout", a.kind)
    if isinstance(a, Vote):
        return ("vote", a.seat, a.target)
    if isinstance(a, Kick):
        return ("kick", a.seat, a.target)
    name = {Ready: "ready", StartVote: "start_vote", Dismiss: "dismiss", Leave: "leave",
            Disconnect: "disconnect", Reconnect: "reconnect"}[type(a)]
    return (name, a.seat)



def spyword_rule(e: IllegalAction) -> str | None:
    """What is wrong with a refusal's text: it names no rule of RULES 5."""
    return None if e.rule and "5." in str(e) else "without a rule"


def compare(s, m: Model) -> str | None:
    eng = {from_engine(a) for a in s.legal_actions()}
    ml = m.legal()
    if eng != ml:
        return f"legal: engine-only {sorted(eng - ml)[:4]} model-only {sorted(ml - eng)[:4]}"
    if s.phase != m.phase:
        return f"phase engine {s.phase} model {m.phase}"
    if tuple(s.to_act()) != m.to_act():
        return f"to_act engine {s.to_act()} model {m.to_act()}"
    if tuple(s.remaining()) != tuple(x for x in m.remaining()):
        return f"remaining engine {s.remaining()} model {m.remaining()}"
    if tuple(s.room()) != tuple(m.room()):
        return f"room engine {s.room()} model {m.room()}"
    if s.host != m.host:
        return f"host engine {s.host} model {m.host}"
    if s.speaker != (m.speakers[0] if m.phase in ("clues", "duel_clues") and m.speakers else None):
        return f"speaker engine {s.speaker} model {m.speakers[:1]}"
    if s.round != m.round:
        return f"round engine {s.round} model {m.round}"
    o = s.outcome()
    if o.winner != m.winner or s.is_terminal() != m.over():
        return f"outcome engine {o.winner} {o.status} model {m.winner} {m.phase}"
    if m.phase == "finished":
        want = {"citizens": ("citizen",), "spies": ("spy", "ghost"), "ghost": ("ghost",)}[m.winner]
        if tuple(o.winners) != tuple(x for x in m.seats if m.roles[x] in want):
            return f"winners engine {o.winners}"
    shown_votes = s.observe(m.seats[0]).votes
    if len(shown_votes) != len(m.log):
        return f"vote record engine {len(shown_votes)} votes, model {len(m.log)}"
    for e, (rnd, kind, votes, out) in zip(shown_votes, m.log):
        counts = {c: n for c, n in e["counts"].items() if n}
        want = {}
        for t in votes.values():
            if t != PASS:
                want[t] = want.get(t, 0) + 1
        if (e["round"], e["kind"], e["eliminated"], counts) != (rnd, kind, out, want) \
                or e.get("pass", 0) != sum(t == PASS for t in votes.values()):
            return f"vote record engine {e} model {(rnd, kind, votes, out)}"
        if ("votes" in e) != (m.s.vote_display == "public") or e.get("votes", votes) != votes:
            return f"vote record engine {e} under {m.s.vote_display}"
    for seat in m.seats:
        ob = s.observe(seat)
        if ob.phase != m.phase or tuple(ob.to_act) != m.to_act():
            return f"observation of {seat}: phase {ob.phase} to_act {ob.to_act}"
        voting = m.phase in ("vote", "duel_vote")
        if (ob.pass_allowed, set(ob.duel), ob.my_vote, set(ob.voted), set(ob.vote_candidates)) != (
                m.phase == "vote" and m.pass_now, set(m.duel), m.votes.get(seat) if voting else None,
                {v for v in m.voters if v in m.votes} if voting else set(), set(m.cands) if voting else set()):
            return f"observation of {seat}: vote view {(ob.pass_allowed, ob.duel, ob.my_vote, ob.voted, ob.vote_candidates)}"
        own = None if m.roles[seat] == "ghost" else (m.cw if m.roles[seat] == "citizen" else m.sw)
        if ob.word != own:
            return f"observation of {seat}: word {ob.word}"
        role = m.roles[seat]
        told = role if (role == "ghost" or m.over() or seat in m.eliminated
                        or (role == "spy" and m.s.reveal_spy_role)) else None
        if ob.role != told:
            return f"observation of {seat}: role {ob.role} want {told} ({role})"
        if not m.over():
            for e in ob.eliminated:
                if ("role" in e) != m.s.reveal_eliminated_role and e["seat"] != seat:
                    return f"observation of {seat}: eliminated entry {e}"
                if "role" in e and e["role"] != m.roles[e["seat"]]:
                    return f"observation of {seat}: eliminated role {e}"
            if ob.ghost_guesses and not m.s.reveal_eliminated_role and role != "ghost":
                return f"observation of {seat}: a ghost's guess shown with roles hidden {ob.ghost_guesses}"
            shown = json.dumps([ob.eliminated, ob.votes, ob.private_screen])
            others = {m.cw, m.sw} - {own}
            if any(f'"{w}"' in shown for w in others):
                return f"observation of {seat}: another word shown before the end"
    if m.over():
        rep = s.end_report()
        if (rep["winner"], rep["citizen_word"], rep["spy_word"], rep["roles"]) != (m.winner, m.cw, m.sw, m.roles):
            return f"end report {rep}"
        if len(rep["votes"]) != len(m.log):
            return "end report: the vote record"
    return None


def random_illegal(rng: random.Random, m: Model) -> tuple:
    seat = rng.choice(m.seats + [HOST, CLOCK, "nobody"])
    kind = rng.choice(["ready", "clue", "start_vote", "vote", "ghost_guess", "dismiss", "leave", "kick",
                       "disconnect", "reconnect", "timeout"])
    if kind == "timeout":
        return ("timeout", rng.choice(TIMEOUTS))
    if kind in ("vote", "kick"):
        return (kind, seat, rng.choice(m.seats + [PASS, "nobody", HOST]))
    if kind == "clue":
        return ("clue", seat, random_clue(rng, m, seat))
    if kind == "ghost_guess":
        return (kind, seat, rng.choice([m.cw, m.sw, "zebra", ""]))
    return (kind, seat)


def random_clue(rng, m: Model, seat) -> str:
    pool = CLUES + [m.cw, m.sw, m.cw.upper() + "s", f"{m.cw} x"] + [f"c{rng.randrange(10 ** 6)}"] * 12
    return rng.choice(pool)


SETUPS = [  # (players, settings kwargs)
    (4, {}), (5, {"ghost": True}), (6, {}), (6, {"allow_pass": True}), (7, {"spies": 2, "ghost": False}),
    (8, {"reveal_eliminated_role": False}), (9, {"allow_pass": True, "tie_break": "lottery"}),
    (10, {"clue_mode": "sentence", "reveal_spy_role": True}), (12, {"spies": 3}),
    (6, {"device": "single"}), (9, {"device": "single", "allow_pass": True, "reveal_eliminated_role": False}),
    (5, {"ghost": True, "reveal_eliminated_role": False, "discussion_seconds": "unlimited"}),
    (7, {"allow_pass": True, "vote_display": "counts"}),
]


def play(seed: int, players: int, kw: dict) -> str | None:
    rng = random.Random(seed)
    settings = SpyWordSettings(**kw)
    rec = deal_spyword(seed, PACKS, players, settings)
    s = rec.new_state(clue_checker=checker)
    m = Model(rec.seats, rec.roles, rec.citizen_word, rec.spy_word, rec.order, settings, rec.host, rec.seed)
    p_illegal = rng.choice([0.05, 0.2])
    p_social = rng.choice([0.0, 0.02, 0.08, 0.3])   # leave / kick / disconnect among legal ones
    trail: list = []
    done: list = []
    name = f"seed {seed} {players}p {kw}"
    for step in range(600):
        d = compare(s, m)
        if d:
            return f"{name} step {step}: {d}; trail {trail[-10:]}"
        if m.over() and rng.random() < 0.7:
            break
        legal = sorted(m.legal() | {from_engine(a) for a in s.legal_actions()})
        social = [x for x in legal if x[0] in ("leave", "kick", "disconnect", "reconnect")]
        plain = [x for x in legal if x not in social]
        if m.disconnected and rng.random() < 0.5:
            plain = [x for x in social if x[0] == "reconnect"] or plain
        if rng.random() < p_illegal or m.over():
            a = random_illegal(rng, m)
        elif m.phase in ("clues", "duel_clues") and m.speakers and m.speakers[0] not in m.disconnected \
                and rng.random() < 0.9:
            a = ("clue", m.speakers[0], random_clue(rng, m, m.speakers[0]))
        elif m.phase in ("ghost_guess", "private_screen") and m.roles.get(m.pending) == "ghost" \
                and m.pending not in m.disconnected and rng.random() < 0.8:
            a = ("ghost_guess", m.pending, rng.choice([m.cw, m.cw.title() + "!", m.sw, "zebra", " "]))
        elif social and rng.random() < p_social:
            a = rng.choice(social)
        elif plain:
            a = rng.choice(plain)
        else:
            a = random_illegal(rng, m)
        d = step_both(name, step, a, m, s, model_illegal=ModelIllegal, to_engine=to_engine,
                      trail=trail, done=done, refusal_problem=spyword_rule, model_snapshot=Model.snapshot, shown=10)
        if d:
            return d
    back = record_from_dict(json.loads(json.dumps({**rec.to_dict(), "actions": [x.to_dict() for x in done]})))
    r = back.replay(clue_checker=checker)
    if (r.phase, r.outcome(), r.remaining(), r.host) != (s.phase, s.outcome(), s.remaining(), s.host):
        return f"{name}: the record does not replay to the same state"
    return None


def run(games: int, first_seed: int = 0) -> list[str]:
    diffs = []
    for g in range(games):
        for j, (players, kw) in enumerate(SETUPS):
            d = play(first_seed + g * 100 + j, players, kw)
            if d:
                diffs.append(d)
    return diffs


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    out = run(n, int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    for d in out:
        print(d)
    print(len(out), "differences in", n * len(SETUPS), "games")
