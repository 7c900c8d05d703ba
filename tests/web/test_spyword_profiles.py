"""Spy's Word profiles (docs/spyword_web.md, `experiments/web/profiles.py`): XP, levels, titles and
per-role statistics after scripted games match the documented table, and the SQLite database
survives a server restart.

The table (docs/spyword_web.md): played to the end 10; a win +20; on the spies' side +10; the
ghost's own right guess +20 more; never eliminated +5; each vote of a citizen for a spy or the
ghost +3; left or kicked 0 (a loss). Level n at 25 n (n - 1) XP.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess

import pytest

from experiments.web.profiles import (ProfileError, ProfileStore, SeatResult, clean_name, level_of, level_threshold,
                                      xp_for)

from spyword_harness import SpyServer, act, game, open_room, play, run, sync


def result(role="citizen", outcome="win", eliminated=False, votes=0, right=0, guessed=False, ghost_right=False):
    return SeatResult(role, outcome, eliminated, not eliminated and outcome != "left", votes, right, guessed,
                      ghost_right)


def test_the_xp_table_and_levels():
    assert xp_for(result("citizen", "win", votes=2, right=2)) == 10 + 20 + 5 + 6
    assert xp_for(result("citizen", "loss", eliminated=True, votes=1)) == 10
    assert xp_for(result("spy", "win", eliminated=True)) == 10 + 20 + 10
    assert xp_for(result("spy", "win")) == 10 + 20 + 10 + 5
    assert xp_for(result("ghost", "win", eliminated=True, guessed=True, ghost_right=True)) == 10 + 20 + 10 + 20
    assert xp_for(result("ghost", "win", eliminated=True, guessed=True)) == 10 + 20 + 10  # the spies' win
    assert xp_for(result("citizen", "left", votes=3, right=3)) == 0
    assert [level_threshold(n) for n in range(1, 6)] == [0, 50, 150, 300, 500]
    assert [level_of(xp) for xp in (0, 49, 50, 149, 150, 2250)] == [1, 1, 2, 2, 3, 10]


def test_titles_streaks_and_the_database_file(tmp_path):
    store = ProfileStore(tmp_path / "profiles.sqlite3")
    pid, key = store.create("Streaky")
    assert store.check(pid, key) and not store.check(pid, "wrong") and not store.check("nobody", key)
    gains = [store.record_game(f"g{i}", {"p1": pid}, {"p1": result("citizen", "win")}, finished=1000 + i)["p1"]
             for i in range(3)]
    assert [g["xp"] for g in gains] == [35, 35, 35]
    assert gains[0]["new_titles"] == ["first_game"] and gains[2]["new_titles"] == ["streak_3"]
    assert gains[1]["level_up"] and gains[1]["level"] == 2          # 70 XP >= 50
    # the same game again counts once
    assert store.record_game("g2", {"p1": pid}, {"p1": result("citizen", "win")})["p1"]["xp"] == 0
    store.record_game("g3", {"p1": pid}, {"p1": result("spy", "loss", eliminated=True, votes=1)}, finished=1003)
    p = store.profile(pid)
    assert p["stats"]["streak"] == 0 and p["stats"]["best_streak"] == 3 and p["xp"] == 3 * 35 + 10
    # 35 wins in a row, whatever the roles: the rulebook's title (RULES 5.14)
    roles = ["citizen", "spy", "ghost"]
    for i in range(35):
        role = roles[i % 3]
        r = result(role, "win", eliminated=role == "ghost", guessed=role == "ghost", ghost_right=role == "ghost")
        store.record_game(f"s{i}", {"p1": pid}, {"p1": r}, finished=2000 + i)
    store.close()
    again = ProfileStore(tmp_path / "profiles.sqlite3")  # the file keeps everything
    p = again.profile(pid)
    s = p["stats"]
    assert s["best_streak"] == 35 and s["streak"] == 35 and s["games"] == 39
    earned = [t["id"] for t in p["titles"]]
    assert earned == ["first_game", "streak_3", "survivor", "citizen_10", "disguise_5", "mind_reader", "poltergeist",
                      "streak_10", "legend"]
    assert p["xp"] == 3 * 35 + 10 + 12 * 35 + 12 * 45 + 11 * 60          # citizen, spy, ghost (right guess) wins
    assert p["title"] == "legend" and p["level"] == level_of(p["xp"]) == 8
    assert s["by_role"]["ghost"]["ghost_right"] == 11 and s["by_role"]["spy"]["wins"] == 12
    assert s["by_role"]["spy"]["losses"] == 1 and s["by_role"]["citizen"]["wins"] == 15
    # leaving counts as a loss with no XP, and breaks the streak
    again.record_game("gone", {"p1": pid}, {"p1": result("citizen", "left")}, finished=3000)
    p = again.profile(pid)
    assert p["stats"]["streak"] == 0 and p["stats"]["left"] == 1 and p["stats"]["games"] == 39
    again.close()


def test_scripted_games_match_the_table_and_survive_a_restart(tmp_path):
    names = ["Ann", "Bob", "Cho", "Dan"]
    srv = SpyServer(tmp_path).start()
    try:
        profiles = {n: srv.profile(n) for n in names}
        keys = {n: {"id": p["id"], "key": p["key"]} for n, p in profiles.items()}
        seat_of = {n: f"p{i + 1}" for i, n in enumerate(names)}
        expected = {n: 0 for n in names}
        stats = {n: {} for n in names}

        def add(name, role, **counts):
            s = stats[name].setdefault(role, {"games": 0, "wins": 0, "losses": 0, "eliminated": 0, "survived": 0,
                                              "votes": 0, "votes_right": 0})
            s["games"] += 1
            for k, v in counts.items():
                s[k] += v

        async def scenario():
            # game 1 (4 players: 1 spy, 3 citizens): everyone votes for the spy, the spy for a citizen
            code, clients = await open_room(srv, names, seed=31, profiles=keys)
            roles = dict(srv.room(code).state.roles)
            spy = next(s for s, r in roles.items() if r == "spy")
            first_citizen = next(s for s in roles if roles[s] == "citizen")
            room = await play(clients, vote_for=lambda seat, ch, g: first_citizen if seat == spy else spy)
            assert game(room)["report"]["winner"] == "citizens" and game(room)["report"]["rounds"] == 1
            for name in names:
                seat = seat_of[name]
                if seat == spy:
                    expected[name] += 10                                # played, eliminated, lost
                    add(name, "spy", losses=1, eliminated=1, votes=1)
                else:
                    expected[name] += 10 + 20 + 5 + 3                    # won, survived, 1 vote for the spy
                    add(name, "citizen", wins=1, survived=1, votes=1, votes_right=1)
            assert {n: room["result"][seat_of[n]]["xp"] for n in names} == expected

            # game 2 in the same room: the citizens are fooled; c1 then c2 go, the spy wins (RULES 5.11)
            await act(clients["p1"], type="again")
            await sync(clients.values())
            await act(clients["p1"], type="start")
            await sync(clients.values())
            roles = dict(srv.room(code).state.roles)
            spy = next(s for s, r in roles.items() if r == "spy")
            c1, c2, c3 = [s for s in roles if roles[s] == "citizen"]

            def vote(seat, choices, g):
                target = c1 if g["round"] == 1 else c2
                return spy if seat == target else target
            room = await play(clients, vote_for=vote)
            report = game(room)["report"]
            assert report["winner"] == "spies" and report["rounds"] == 2
            gained = {seat: 0 for seat in roles}
            gained[spy] = 10 + 20 + 10 + 5                               # won on the spies' side, survived
            gained[c1] = 10 + 3                                          # out in round 1, voted for the spy
            gained[c2] = 10 + 3                                          # out in round 2, voted for the spy once
            gained[c3] = 10 + 5                                          # survived, never voted for the spy
            for name in names:
                seat = seat_of[name]
                expected[name] += gained[seat]
                if seat == spy:
                    add(name, "spy", wins=1, survived=1, votes=2)
                elif seat == c1:
                    add(name, "citizen", losses=1, eliminated=1, votes=1, votes_right=1)
                elif seat == c2:
                    add(name, "citizen", losses=1, eliminated=1, votes=2, votes_right=1)
                else:
                    add(name, "citizen", losses=1, survived=1, votes=2)
            assert {seat: room["result"][seat]["xp"] for seat in roles} == gained
            # the badge under each name: level and title, in every frame
            badges = {m["id"]: m["badge"] for m in room["members"]}
            assert all(b["title"] == "first_game" and b["level"] == level_of(expected[n])
                       for n, b in ((n, badges[seat_of[n]]) for n in names))
            for c in clients.values():
                await c.close()

        run(scenario())
        before = {}
        for name in names:
            status, p = srv.get(f"/api/spyword/profiles/{profiles[name]['id']}")
            assert status == 200
            assert p["xp"] == expected[name] and p["level"] == level_of(expected[name])
            assert p["stats"]["games"] == 2 and p["title"] == "first_game"
            for role, s in stats[name].items():
                got = p["stats"]["by_role"][role]
                assert {k: got[k] for k in s} == s, (name, role)
            before[name] = p
        assert (tmp_path / "profiles.sqlite3").exists()
    finally:
        srv.stop()
    # a restart: the database is read again
    srv = SpyServer(tmp_path).start()
    try:
        for name in names:
            status, p = srv.get(f"/api/spyword/profiles/{profiles[name]['id']}")
            assert status == 200 and p == before[name]
        # a profile's key still opens it after the restart
        status, made = srv.post("/api/spyword/rooms", {"name": "Ann", "profile": keys["Ann"]})
        assert status == 200
    finally:
        srv.stop()


def test_profiles_are_capped_and_the_existing_ones_keep_working(tmp_path, monkeypatch):
    """Anyone may POST a profile: MAX_PROFILES bounds the database (a script could fill the disk).
    One more is refused with 503 and adds no row; the existing profiles still open rooms."""
    import experiments.web.profiles as profiles

    monkeypatch.setattr(profiles, "MAX_PROFILES", 3)
    srv = SpyServer(tmp_path).start()
    try:
        made = [srv.profile(n) for n in ("Ann", "Bob", "Cho")]
        status, body = srv.post("/api/spyword/profiles", {"name": "Dan"})
        assert status == 503 and body["code"] == "full" and "3 profiles" in body["error"], body
        db = sqlite3.connect(tmp_path / profiles.DB_NAME)
        assert db.execute("SELECT COUNT(*) FROM profiles").fetchone()[0] == 3
        db.close()
        status, room = srv.post("/api/spyword/rooms", {"name": "Ann", "profile": {"id": made[0]["id"],
                                                                                 "key": made[0]["key"]}})
        assert status == 200, room
    finally:
        srv.stop()


# ----- names and the database file --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "\u115f", "\u1160", "\uffa0", " \u3164 \u2800 ",
                                  "\u0301", "\ufe0f\u3164"])
def test_a_name_needs_a_visible_character(tmp_path, name):
    """Hangul fillers, the blank braille cell and lone combining marks show as nothing."""
    with pytest.raises(ValueError, match="visible character"):
        clean_name(name)
    store = ProfileStore(tmp_path / "profiles.sqlite3")
    with pytest.raises(ProfileError, match="visible character"):
        store.create(name)
    store.close()
    assert clean_name(" Ann  Lee ") == "Ann Lee" and clean_name("\u3164a") == "\u3164a"
    assert clean_name("\ud558\ub298") == "\ud558\ub298"


def _foreign(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE profiles (id INTEGER PRIMARY KEY, username TEXT, email TEXT)")
    db.execute("INSERT INTO profiles VALUES (1, 'ann', 'ann@example.org')")
    db.commit()
    db.close()


def _other_version(path):
    ProfileStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    db.commit()
    db.close()


@pytest.fixture
def read_only(tmp_path):
    """Makes a valid profiles database this process cannot write (as root: the immutable flag)."""
    made = []

    def make(path):
        ProfileStore(path).close()
        os.chmod(path, 0o444)
        if os.geteuid() == 0:
            if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                pytest.skip("root cannot be kept from writing a file here (no chattr +i)")
            made.append(path)

    yield make
    for path in made:
        subprocess.run(["chattr", "-i", str(path)], check=True)


BAD_DATABASES = {
    "damaged": (lambda path: path.write_bytes(os.urandom(5000)), "file is not a database"),
    "foreign": (_foreign, "another program's or another version's: its table 'meta'"),
    "other version": (_other_version, "schema version '0', not '1'"),
    "read-only": (None, "readonly database"),
}


@pytest.mark.parametrize("kind", list(BAD_DATABASES))
def test_a_bad_database_is_refused_at_open_and_left_as_it_is(tmp_path, read_only, kind):
    """A damaged, read-only or foreign file is a ProfileError naming it (not a sqlite traceback at
    the first request, nor an HTTP 500), and is never written."""
    path = tmp_path / "profiles.sqlite3"
    make, message = BAD_DATABASES[kind]
    (make or read_only)(path)
    before = path.read_bytes()
    with pytest.raises(ProfileError, match=re.escape(message)) as caught:
        ProfileStore(path)
    assert str(path) in str(caught.value)
    pytest.importorskip("fastapi")
    from experiments.web.app import create_app

    with pytest.raises(ValueError, match=re.escape(message)):
        create_app(tmp_path)
    assert path.read_bytes() == before


def test_an_empty_file_is_made_a_profiles_database(tmp_path):
    path = tmp_path / "profiles.sqlite3"
    path.write_bytes(b"")
    store = ProfileStore(path)
    pid, _ = store.create("Ann")
    store.close()
    again = ProfileStore(path)
    assert again.profile(pid)["name"] == "Ann"
    again.close()


@pytest.mark.parametrize("kind", list(BAD_DATABASES))
def test_serve_refuses_a_bad_database_before_starting(tmp_path, read_only, monkeypatch, kind):
    """`cnlab serve`: one line, exit 2, before the server starts (uvicorn.run is never reached here,
    so no server listens even on the old code)."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    from typer.testing import CliRunner

    from experiments.cli import app

    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(a))
    path = tmp_path / "profiles.sqlite3"
    make, message = BAD_DATABASES[kind]
    (make or read_only)(path)
    import socket

    with socket.socket() as free:  # a port nobody listens on (the host check binds it)
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    result = CliRunner().invoke(app, ["serve", "--host", "127.0.0.1", "--port", port, "--games-dir", str(tmp_path)])
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert str(path) in lines[0] and "Traceback" not in result.output and not result.stdout.strip()
    assert not started


@pytest.mark.parametrize("name", ["\U0001f469\u200d\U0001f4bb", "Ann \U0001f468\u200d\U0001f469\u200d\U0001f467",
                                  "\U0001f3f3\ufe0f\u200d\U0001f308", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"])
def test_a_name_may_hold_the_joiners_of_emoji_and_scripts(tmp_path, name):
    """A zero-width joiner inside an emoji sequence (👩‍💻, a family, the rainbow flag) or a
    zero-width non-joiner inside a word (Persian) is part of what shows, not an invisible character:
    such names were refused ('a name may not hold control or invisible characters'). A joiner that
    joins nothing (at an end, beside a space or another joiner) is still refused."""
    assert clean_name(name) == name
    store = ProfileStore(tmp_path / "profiles.sqlite3")
    pid, _ = store.create(name)
    assert store.profile(pid)["name"] == name
    store.close()
    for bad in ("\u200dAnn", "Ann\u200d", "Ann \u200d Lee", "A\u200d\u200dB", "\u200c", "A\u200b\u200dB"):
        with pytest.raises(ValueError, match="invisible"):
            clean_name(bad)


def _counts_game(display: str, votes: dict[str, str]):
    """Five players (p5 the spy), one round of clues, then `votes`: p5 is voted out, the citizens win."""
    from engine.spyword import GiveClue, Ready, SpyWordSettings, StartVote, Vote
    from engine.spyword.state import SpyWordState

    seats = ["p1", "p2", "p3", "p4", "p5"]
    roles = {s: "citizen" for s in seats} | {"p5": "spy"}
    state = SpyWordState(seats, roles, "apple", "pear", seats, SpyWordSettings(spies=1, ghost=False,
                         vote_display=display), host="p1", seed=1, clue_filter=False)
    for seat in seats:
        state.apply(Ready(seat))
    for k, seat in enumerate(list(state.speakers)):
        state.apply(GiveClue(seat, f"clue{k}"))
    state.apply(StartVote("host"))
    for voter, target in votes.items():
        state.apply(Vote(voter, target))
    assert state.winner == "citizens"
    return state


def test_a_counts_only_game_tells_nobody_through_xp_or_profiles_who_voted_for_whom(tmp_path):  # RULES 5.8
    """With "counts only" the votes of a game stay secret, even at its end (its end report shows the
    counts, its record is not served). The attack: two such games with the same counts, where p1 voted
    for the spy in one and for a citizen in the other. p1's XP (+3 for a citizen's vote for the spy,
    in the end screen's results) and public profile ("votes_right") told which: they must not differ.
    With public votes the vote is shown anyway and is counted as before."""
    from experiments.web.profiles import seat_results

    spy_first = {"p1": "p5", "p2": "p5", "p3": "p4", "p4": "p5", "p5": "p4"}
    spy_later = {"p1": "p4", "p2": "p5", "p3": "p5", "p4": "p5", "p5": "p4"}   # the same counts: p5 3, p4 2
    a, b = _counts_game("counts", spy_first), _counts_game("counts", spy_later)
    assert a.observe("p2").report == b.observe("p2").report      # nothing public tells the games apart
    assert seat_results(a) == seat_results(b)
    store = ProfileStore(tmp_path / "profiles.sqlite3")
    pids = [store.create(name)[0] for name in ("Ann", "Bob")]
    gains = [store.record_game(f"g{k}", {"p1": pid}, seat_results(s))["p1"]
             for k, (pid, s) in enumerate(zip(pids, (a, b)))]
    assert gains[0]["xp"] == gains[1]["xp"] == 10 + 20 + 5
    assert store.profile(pids[0])["stats"] == store.profile(pids[1])["stats"]
    store.close()
    public = _counts_game("public", spy_first)
    assert seat_results(public)["p1"].votes_right == 1 and xp_for(seat_results(public)["p1"]) == 10 + 20 + 5 + 3
