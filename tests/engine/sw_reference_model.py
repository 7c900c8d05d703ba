"""An independent reference model of Spy's Word (RULES 5, seed 002), written from the rule text
(RULES.md section 5, the Korean rulebook and docs/spyword.md's decisions) without the engine's
code, for the differential test `test_spyword_model_diff.py`.

Actions are plain tuples: ("ready", seat) ("clue", seat, text) ("start_vote", seat)
("vote", seat, target) ("ghost_guess", seat, word) ("dismiss", seat) ("leave", seat)
("kick", seat, target) ("disconnect", seat) ("reconnect", seat) ("timeout", kind).
`apply` raises `ModelIllegal(rule)` before changing anything. The clue checker of the driver
refuses clues that start with "bad" (standing in for 5.4's part / translation); the model's own
checks are the empty clue, a phrase in one-word mode, the own word and a repeat (5.4).
"""

from __future__ import annotations

import copy
import unicodedata

import numpy as np

HOST, CLOCK, PASS = "host", "clock", "PASS"


class ModelIllegal(Exception):
    def __init__(self, rule: str, why: str = ""):
        super().__init__(f"RULES {rule}: {why}")
        self.rule = rule


def norm(text: str) -> str:
    """Case, accents, punctuation and spacing ignored (5.4 repeats, 5.10 the guess)."""
    t = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in t if ch.isalnum())


class Model:
    def __init__(self, seats, roles, citizen_word, spy_word, order, settings, host, seed):
        self.seats = list(seats)
        self.roles = dict(roles)
        self.cw, self.sw = citizen_word, spy_word
        self.order = list(order)
        self.s = settings
        self.multi = settings.device == "multi"
        self.host = host
        self.seed = seed
        self.phase = "ready"
        self.ready: set = set()
        self.eliminated: list = []       # seats, in order
        self.departed: set = set()
        self.disconnected: set = set()
        self.notice = False
        self.round = 0
        self.first = None
        self.speakers: list = []
        self.clues: list = []
        self.votes: dict = {}
        self.voters: list = []
        self.cands: list = []
        self.pass_now = False
        self.last_pass = False
        self.duel: list = []
        self.round_order: list = []
        self.pending = None
        self.lots = 0
        self.winner = None
        self.log: list = []              # finished votes: (round, kind, {voter: target}, eliminated or None)

    # ----- views -----------------------------------------------------------------------------
    def remaining(self):
        return [s for s in self.seats if s not in self.eliminated]

    def room(self):
        return [s for s in self.seats if s not in self.departed]

    def online(self):
        return [s for s in self.room() if s not in self.disconnected]

    def over(self):
        return self.phase in ("finished", "aborted")

    def to_act(self):
        p = self.phase
        if p == "ready":
            return tuple(s for s in self.room() if s not in self.ready)
        if p in ("clues", "duel_clues"):
            return tuple(self.speakers[:1])
        if p == "discussion":
            return (self.host,) if self.multi else tuple(self.room())
        if p in ("vote", "duel_vote"):
            return tuple(v for v in self.voters if v not in self.votes)
        if p in ("ghost_guess", "private_screen"):
            return (self.pending,)
        return ()

    def legal(self) -> set:
        if self.over():
            return set()
        acts = set()
        p = self.phase
        if p == "ready":
            acts |= {("ready", s) for s in self.online() if s not in self.ready}
        elif p in ("clues", "duel_clues"):
            if self.multi:
                acts.add(("timeout", "speaker"))
        elif p == "discussion":
            if self.multi:
                if self.host not in self.disconnected:
                    acts.add(("start_vote", HOST))
            else:
                acts |= {("start_vote", s) for s in self.online()}
            if self.s.discussion_seconds != "unlimited":
                acts.add(("timeout", "discussion"))
        elif p in ("vote", "duel_vote"):
            for v in self.voters:
                if v in self.votes or v in self.disconnected:
                    continue
                acts |= {("vote", v, c) for c in self.cands if c != v}
                if self.pass_now:
                    acts.add(("vote", v, PASS))
            if self.multi:
                acts.add(("timeout", "vote"))
        elif p in ("ghost_guess", "private_screen"):
            if self.roles[self.pending] != "ghost" and self.pending not in self.disconnected:
                acts.add(("dismiss", self.pending))
            if self.multi:
                acts.add(("timeout", "ghost_guess"))
        if self.multi:
            acts |= {("leave", s) for s in self.room()}
            if self.host not in self.disconnected:
                acts |= {("kick", HOST, t) for t in self.room() if t != self.host}
            acts |= {("disconnect", s) for s in self.online()}
            acts |= {("reconnect", s) for s in self.room() if s in self.disconnected}
            if self.host in self.disconnected:
                if not self.notice:
                    acts.add(("timeout", "host_notice"))
                elif self.next_host(True) is not None:
                    acts.add(("timeout", "host_replace"))
        return acts

    # ----- apply -----------------------------------------------------------------------------
    def apply(self, a: tuple) -> None:
        kind, seat = a[0], a[1]
        if self.over():
            raise ModelIllegal("5.11", "the game is over")
        if kind == "timeout":
            return self._timeout(a[1])
        if seat == CLOCK:
            raise ModelIllegal("5.4", "the clock only times out")
        actor = self.host if seat == HOST else seat
        if actor not in self.roles:
            raise ModelIllegal("5.1", "no such seat")
        if actor in self.departed:
            raise ModelIllegal("5.12", "left the room")
        if kind in ("leave", "kick", "disconnect", "reconnect") and not self.multi:
            raise ModelIllegal("5.12", "many devices only")
        if kind == "leave":
            return self._depart(actor)
        if kind == "reconnect":
            if actor not in self.disconnected:
                raise ModelIllegal("5.12", "not disconnected")
            self.disconnected.discard(actor)
            return
        if actor in self.disconnected:
            raise ModelIllegal("5.12", "disconnected")
        if kind == "disconnect":
            self.disconnected.add(actor)
            if actor == self.host:    # a new disconnection: a new notice first
                self.notice = False
            return
        if kind == "kick":
            if actor != self.host:
                raise ModelIllegal("5.12", "only the host kicks")
            t = a[2]
            if t not in self.roles or t in self.departed or t == self.host:
                raise ModelIllegal("5.12", "bad kick target")
            return self._depart(t)
        if kind == "ready":
            if self.phase != "ready" or actor in self.ready:
                raise ModelIllegal("5.4", "not the time to be ready")
            self.ready.add(actor)
            if all(s in self.ready for s in self.room()):
                self._start_round(first=True)
            return
        if kind == "clue":
            return self._clue(actor, a[2])
        if kind == "start_vote":
            if self.phase != "discussion":
                raise ModelIllegal("5.5", "no discussion")
            if self.multi and actor != self.host:
                raise ModelIllegal("5.5", "only the host")
            self._open_vote(duel=False)
            return
        if kind == "vote":
            return self._vote(actor, a[2])
        if kind == "ghost_guess":
            if self.phase not in ("ghost_guess", "private_screen") or actor != self.pending \
                    or self.roles[actor] != "ghost":
                raise ModelIllegal("5.10", "no guess now")
            w = a[2]
            if not isinstance(w, str) or not w.strip():
                raise ModelIllegal("5.10", "empty guess")
            return self._resolve_guess(norm(w) == norm(self.cw))
        if kind == "dismiss":
            if self.phase not in ("ghost_guess", "private_screen") or actor != self.pending \
                    or self.roles[actor] == "ghost":
                raise ModelIllegal("5.9", "no screen")
            self.pending = None
            self._new_round()
            return
        raise ModelIllegal("?", "unknown")

    def _clue(self, actor, text):
        if self.phase not in ("clues", "duel_clues") or not self.speakers or self.speakers[0] != actor:
            raise ModelIllegal("5.4", "not your turn")
        t = text.strip()
        if not t:
            raise ModelIllegal("5.4", "empty")
        if self.s.clue_mode == "word" and len(t.split()) > 1:
            raise ModelIllegal("5.4", "one word")
        own = self.cw if self.roles[actor] == "citizen" else (self.sw if self.roles[actor] == "spy" else None)
        if own is not None and any(norm(w) == norm(own) for w in t.split()):
            raise ModelIllegal("5.4", "own word")
        if any(norm(c) == norm(t) for c in self.clues):
            raise ModelIllegal("5.4", "repeat")
        if t.startswith("bad") and own is not None:
            raise ModelIllegal("5.4", "checker")
        self.clues.append(t)
        self.speakers.pop(0)
        self._after_speaker()

    def _after_speaker(self):
        if self.speakers:
            return
        if self.phase == "clues":
            self.phase = "discussion"
        else:
            self._open_vote(duel=True)

    def _open_vote(self, duel):
        self.votes = {}
        if duel:
            self.phase = "duel_vote"
            self.voters = [s for s in self.remaining() if s not in self.duel]
            self.cands = [s for s in self.seats if s in self.duel]
            self.pass_now = False
        else:
            self.phase = "vote"
            self.voters = self.remaining()
            self.cands = self.remaining()
            self.pass_now = self.s.allow_pass and not self.last_pass

    def _vote(self, actor, target):
        if self.phase not in ("vote", "duel_vote"):
            raise ModelIllegal("5.6", "no vote")
        if actor not in self.voters:
            raise ModelIllegal("5.6" if self.phase == "vote" else "5.7", "not a voter")
        if actor in self.votes:
            raise ModelIllegal("5.6", "voted")
        if target == PASS:
            if not self.pass_now:
                raise ModelIllegal("5.6", "no pass")
        elif target == actor:
            raise ModelIllegal("5.6", "self")
        elif target not in self.cands:
            raise ModelIllegal("5.6" if self.phase == "vote" else "5.7", "not a candidate")
        self.votes[actor] = target
        if all(v in self.votes for v in self.voters):
            self._resolve()

    def _draw(self, pool):
        pool = [s for s in self.seats if s in pool]
        i = int(np.random.default_rng([self.seed, self.lots]).integers(len(pool)))
        self.lots += 1
        return pool[i]

    def _resolve(self):
        entry = [self.round, "duel" if self.phase == "duel_vote" else "vote", dict(self.votes), None]
        self.log.append(entry)
        gone = len(self.eliminated)
        self._count()
        if len(self.eliminated) > gone:
            entry[3] = self.eliminated[gone]

    def _count(self):
        duel = self.phase == "duel_vote"
        counts = {}
        passes = 0
        for v in self.votes.values():
            if v == PASS:
                passes += 1
            else:
                counts[v] = counts.get(v, 0) + 1
        if duel:
            self.last_pass = False
            if not self.votes:
                return self._eliminate(self._draw(self.cands))
            top = max(counts.values())
            tied = [c for c in self.cands if counts.get(c, 0) == top]
            return self._eliminate(tied[0] if len(tied) == 1 else self._draw(tied))
        if not self.votes:   # 5.6: nobody voted: lots among all remaining
            self.last_pass = False
            return self._eliminate(self._draw(self.remaining()))
        top = max(counts.values()) if counts else 0
        if passes and passes >= top:
            self.last_pass = True
            return self._new_round()
        self.last_pass = False
        tied = [c for c in self.seats if counts.get(c, 0) == top and c in counts]
        if len(tied) == 1:
            return self._eliminate(tied[0])
        if self.s.tie_break == "lottery":
            return self._eliminate(self._draw(tied))
        if not [s for s in self.remaining() if s not in tied]:
            return self._eliminate(self._draw(tied))
        self.duel = tied
        self.phase = "duel_clues"
        self.speakers = [s for s in self.round_order if s in tied]

    def _eliminate(self, seat):
        self.duel = []
        self.eliminated.append(seat)
        if self.roles[seat] == "ghost":
            self.pending = seat
            self.phase = "ghost_guess" if self.s.reveal_eliminated_role else "private_screen"
            return
        if self._check_win():
            return
        if not self.s.reveal_eliminated_role:
            self.pending = seat
            self.phase = "private_screen"
            return
        self._new_round()

    def _resolve_guess(self, right):
        self.pending = None
        if right:
            return self._finish("ghost")
        if not self._check_win():
            self._new_round()

    def _check_win(self):
        rem = [s for s in self.remaining() if s not in self.departed]
        if not any(self.roles[s] in ("spy", "ghost") for s in rem):
            self._finish("citizens")
            return True
        if sum(self.roles[s] == "citizen" for s in rem) == 1:
            self._finish("spies")
            return True
        return False

    def _finish(self, w):
        self.winner = w
        self.phase = "finished" if w else "aborted"
        self.speakers = []
        self.pending = None
        self.duel = []

    def _start_round(self, first=False):
        rem = self.remaining()
        if first:
            self.round = 1
            self.first = self.order[0]      # never the ghost (the deal)
            if self.first not in rem:       # left before round 1: lots among the others but the ghost
                self.first = self._draw([x for x in self.order if x in rem and self.roles[x] != "ghost"])
        else:
            self.round += 1
            i = self.order.index(self.first)
            n = len(self.order)
            self.first = next(self.order[(i + k) % n] for k in range(1, n + 1) if self.order[(i + k) % n] in rem)
        i = self.order.index(self.first)
        rot = self.order[i:] + self.order[:i]
        self.round_order = [s for s in rot if s in rem]
        self.speakers = list(self.round_order)
        self.phase = "clues"
        self.votes = {}
        self.voters = []
        self.cands = []
        self.duel = []

    def _new_round(self):
        self._start_round()

    def _timeout(self, kind):
        p = self.phase
        if not self.multi and kind != "discussion" and kind != "ghost_guess":
            raise ModelIllegal("5.4", "no timer on one device")
        if kind == "speaker":
            if p not in ("clues", "duel_clues"):
                raise ModelIllegal("5.4", "nobody speaking")
            self.speakers.pop(0)
            return self._after_speaker()
        if kind == "discussion":
            if p != "discussion" or self.s.discussion_seconds == "unlimited":
                raise ModelIllegal("5.5", "no discussion timer")
            return self._open_vote(duel=False)
        if kind == "vote":
            if p not in ("vote", "duel_vote"):
                raise ModelIllegal("5.6", "no vote")
            return self._resolve()
        if kind == "ghost_guess":
            if p not in ("ghost_guess", "private_screen") or not self.multi:
                raise ModelIllegal("5.10", "no guess timer")
            if self.roles[self.pending] == "ghost":
                return self._resolve_guess(False)
            self.pending = None
            return self._new_round()
        if kind == "host_notice":
            if self.host not in self.disconnected or self.notice:
                raise ModelIllegal("5.12", "no notice")
            self.notice = True
            return
        if kind == "host_replace":
            if self.host not in self.disconnected or not self.notice or self.next_host(True) is None:
                raise ModelIllegal("5.12", "no replace")
            self._set_host(self.next_host(True))
            return
        raise ModelIllegal("?", "timer")

    def next_host(self, connected_only):
        i = self.seats.index(self.host)
        n = len(self.seats)
        for k in range(1, n):
            s = self.seats[(i + k) % n]
            if s in self.departed or (connected_only and s in self.disconnected):
                continue
            return s
        return None

    def _set_host(self, new):
        self.host = new
        self.notice = False

    def _depart(self, seat):
        playing = seat not in self.eliminated
        was_host = seat == self.host
        self.departed.add(seat)
        self.disconnected.discard(seat)
        self.ready.discard(seat)
        if was_host:
            new = self.next_host(True) or self.next_host(False)
            if new is not None:
                self._set_host(new)
        if playing:
            self.eliminated.append(seat)
        if seat == self.pending:   # a ghost who leaves gets no guess; a role screen closes
            self.pending = None
            if self.roles[seat] == "ghost":
                if self._check_win():
                    return
                if len(self.room()) < 4:
                    return self._finish(None)
            elif len(self.room()) < 4:
                return self._finish(None)
            return self._new_round()
        if playing and self._check_win():
            return
        if len(self.room()) < 4:
            return self._finish(None)
        if not playing:
            return
        p = self.phase
        if p == "ready":
            if all(s in self.ready for s in self.room()):
                self._start_round(first=True)
        elif p in ("clues", "duel_clues"):
            if seat in self.speakers:
                self.speakers.remove(seat)
            if p == "duel_clues" and seat in self.duel:
                self.duel.remove(seat)
                if len(self.duel) < 2:
                    return self._new_round()
            if not self.speakers:
                self._after_speaker()
        elif p == "vote":
            self.votes = {}
            self.voters = [v for v in self.voters if v != seat]
            self.cands = [c for c in self.cands if c != seat]
        elif p == "duel_vote":
            self.votes = {}
            self.voters = [v for v in self.voters if v != seat]
            self.cands = [c for c in self.cands if c != seat]
            if seat in self.duel:
                self.duel.remove(seat)
            if len(self.cands) < 2:   # the departure broke the duel: logged, nobody eliminated
                self.log.append([self.round, "duel", {}, None])
                return self._new_round()
            if not self.voters:
                return self._eliminate(self._draw(self.cands))

    def snapshot(self):
        return copy.deepcopy({k: v for k, v in vars(self).items() if k != "s"})
