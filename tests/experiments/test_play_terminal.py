"""`cnlab play duet` end to end: a scripted person drives the real program through a pseudo-terminal
(80x24, TERM=xterm) against the random bot, and the saved records replay with `cnlab replay`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from experiments.games.duet.dealing import deal_duet_record  # noqa: E402

from experiments.play.prompts import coordinate  # noqa: E402
from test_play_helpers import Person, find_winning_seed, legal_clue  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CNLAB = Path(sys.executable).with_name("cnlab")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\r")
PROMPT = r"(Who gives the first clue\?|Your clue:|Bot's clue|SUDDEN DEATH:)[^\n]*\? = help\) >"
KO_PROMPT = r"(누가 첫 힌트를 줄까요\?|내 힌트:|봇의 힌트|서든 데스:)[^\n]*\? = 도움말\) >"
SAVED = r"Record saved to (?P<path>\S+)\n"


class Terminal:
    """The program in a pseudo-terminal; `expect` matches on the text with colour codes removed."""

    def __init__(self, *args: str):
        env = dict(os.environ, TERM="xterm", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
        env.pop("NO_COLOR", None)
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.child = pexpect.spawn(sys.executable, ["-m", "experiments.play", *args], cwd=str(ROOT), env=env,
                                   dimensions=(24, 80), encoding="utf-8", timeout=90)
        self.raw = ""
        self.pos = 0

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw)

    def expect(self, pattern: str, timeout: float = 90) -> re.Match:
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > deadline or not self.child.isalive() and not self._pending():
                raise AssertionError(f"no {pattern!r} on the screen; it ends with:\n{self.text[-2000:]}")
            self._read()

    def _read(self) -> None:
        try:
            self.raw += self.child.read_nonblocking(65536, timeout=0.5)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            time.sleep(0.05)

    def _pending(self) -> bool:
        before = len(self.raw)
        self._read()
        return len(self.raw) > before

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def exit_status(self) -> int:
        self.child.expect(pexpect.EOF, timeout=90)
        self.raw += self.child.before or ""
        self.child.close()
        return self.child.exitstatus


def play(term: Terminal, person: Person) -> str:
    """Answer every prompt until the record is saved; returns the saved path."""
    for _ in range(200):
        m = term.expect(f"{PROMPT}|{SAVED}")
        if m.group(0).startswith("Record saved"):
            return m.group("path")
        term.send(person.answer(m.group(0)))
    raise AssertionError("the game did not end")


def replay(path) -> dict:
    out = subprocess.run([str(CNLAB), "replay", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def intent_text(saved: dict, intent: dict, found: set, reveal: bool = True) -> str:
    """The line that explains a resolved bot clue: `Bot meant OCEAN 2 for: wave ✓, ship (not found)`
    at the end (`reveal`); during the game a target still face down is only counted."""
    clue = saved["actions"][intent["action"]]
    shown = [t for t in intent["targets"] if reveal or t in found]
    marks = [f"{t} ✓" if t in found else f"{t} (not found)" for t in shown]
    if len(shown) < len(intent["targets"]):
        marks.append(f"{len(intent['targets']) - len(shown)} more not found yet (shown at the end)")
    return f"Bot meant {clue['clue'].upper()} {clue['number']} for: {', '.join(marks)}"


def result_line(text: str) -> dict:
    m = re.search(r"Result: (\S+) · score (\S+) · agents (\d+)/15 · tokens left (\d+)", text)
    assert m, text[-1500:]
    return {"status": m.group(1), "score": None if m.group(2) == "-" else int(m.group(2)),
            "greens_found": int(m.group(3)), "tokens_left": int(m.group(4))}


def test_a_person_wins_a_whole_game_after_an_illegal_clue_is_refused(tmp_path):
    seed = find_winning_seed(tmp_path)
    record = deal_duet_record(seed, "en")
    person = Person(record, legal_clue(record.words), illegal_first=True)
    path = tmp_path / "win.json"
    term = Terminal("duet", "--partner", "random", "--partner-guesser", "random", "--seed", str(seed),
                    "--pause", "0", "--record", str(path))
    assert play(term, person) == str(path)
    assert term.exit_status() == 0
    text = term.text
    # the illegal clue (a visible board word) was refused with its rule, and the person retyped
    refusal = text.index("Refused (RULES 4.3)")
    # the refusal (more than 80 columns) wraps at the terminal's width: nothing of it is cut
    flat = " ".join(text[refusal:].split())
    assert flat.startswith(f"Refused (RULES 4.3): A visible code word may not be the clue: {person.visible_word}. "
                           "Type another clue.")
    assert f"{person.visible_word} 2" in text[:refusal]
    assert f"{person.clue} 9" in person.sent[person.sent.index(f"{person.visible_word} 2") + 1:]
    assert "You won!" in text
    # hidden information: the bot's side shows only in the final reveal
    reveal = text.index("Both sides (")
    assert record.key.b not in text[:reveal] and f"Side B (bot): {record.key.b}" in text[reveal:]
    assert f"Side A (you): {record.key.a}" in text[reveal:]
    # what the bot meant: once its clue is resolved (the person's last guess on it), and at the end
    saved = json.loads(path.read_text(encoding="utf-8"))
    intents = saved["intents"]  # the bot gives only the first clue: the person then finds all its agents
    assert [saved["actions"][i["action"]]["seat"] for i in intents] == ["B"]
    assert all(record.key.b[record.words.index(t)] == "G" for t in intents[0]["targets"])
    meant = text.index(intent_text(saved, intents[0], found=set(intents[0]["targets"])))
    ninth = text.index(f"You: guess {record.words[[i for i, c in enumerate(record.key.b) if c == 'G'][8]]} ")
    assert "Bot meant" not in text[:ninth] and ninth < meant  # shown once the clue is resolved
    end = text.index("The bot's clues and what it meant")
    assert meant < end < reveal and intent_text(saved, intents[0], set(intents[0]["targets"])) in text[end:reveal]
    shown = result_line(text)
    assert shown["status"] == "won" and shown["score"] is not None
    summary = replay(path)
    assert {k: summary[k] for k in shown} == shown


def test_a_person_loses_on_an_assassin_guessed_by_coordinate(tmp_path):
    seed = 3
    record = deal_duet_record(seed, "en")
    assassin = record.key.b.index("X")
    coord = "ABCDE"[assassin % 5].lower() + str(assassin // 5 + 1)
    path = tmp_path / "loss.json"
    term = Terminal("duet", "--partner", "random", "--partner-guesser", "random", "--seed", str(seed),
                    "--pause", "0", "--record", str(path))
    term.expect(r"Who gives the first clue\?.*>")
    term.send("help")
    term.expect(r"'me' \(or Enter\) to give the first clue")
    term.expect(r"Who gives the first clue\?.*>")
    term.send("bot")
    term.expect(r"Bot's clue .*>")
    assert record.key.b not in term.text
    term.send(coord)
    term.expect(rf"You: guess {re.escape(record.words[assassin])} \({coord.upper()}\): THE ASSASSIN")
    term.expect("You lost: an assassin was touched")
    term.expect(SAVED)
    assert term.exit_status() == 0
    shown = result_line(term.text)
    assert shown["status"] == "lost" and shown["score"] is None
    summary = replay(path)
    assert summary["loss_reason"] == "assassin"
    assert {k: summary[k] for k in shown} == shown


def test_ctrl_c_saves_the_record_so_far_in_a_korean_game(tmp_path):
    """A Korean board: every prompt, notice, refusal and the result line in Korean."""
    seed = 4
    record = deal_duet_record(seed, "ko")
    path = tmp_path / "ko.json"
    term = Terminal("duet", "--lang", "ko", "--partner", "random", "--partner-guesser", "random",
                    "--seed", str(seed), "--pause", "0", "--record", str(path), "--first", "me")
    term.expect(r"내 힌트: 단어 숫자 \(\? = 도움말\) > ", timeout=120)
    term.send("도움말")
    term.expect(r"힌트 주기: 단어 숫자")
    term.expect(r"내 힌트:.*> ")
    term.send(f"{record.words[3]} 1")  # a visible code word: refused (RULES 4.3), in Korean
    term.expect(r"거절 \(규칙 4\.3\): 공개된 코드네임은 힌트로 줄 수 없습니다")
    term.expect(r"내 힌트:.*>")
    term.send("우주 2")
    term.expect(r"나: 힌트 우주 2")
    term.expect(KO_PROMPT)
    while term._pending():   # the screen drawn whole: Ctrl-C at the prompt waiting for input, as a person
        pass                 # presses it (in one CI run of the full suite it met the screen half drawn)
    term.child.sendintr()
    term.expect(r"게임을 끝내지 않고 나갔습니다 \(중단됨\)")
    m = term.expect(r"기록을 저장했습니다: (?P<path>\S+)\n")
    assert m.group("path") == str(path)
    assert term.exit_status() == 130
    text = term.text
    assert record.key.b not in text  # no reveal when the person leaves mid-game
    for english in ("Your clue", "Refused", "You: clue", "Bot's clue", "Game left", "Result:", "Record saved",
                    "Agents found", "Who gives"):
        assert english not in text, english
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["actions"][0] == {"seat": "A", "clue": "우주", "number": 2}
    assert saved["play"]["ended"] == "interrupted"  # the record keeps the engine's words
    summary = replay(path)
    assert summary["status"] == "playing"
    shown = re.search(r"결과: [^(\n]+\((\S+)\) · 점수 (\S+) · 요원 (\d+)/15 · 남은 토큰 (\d+)", text)
    assert shown, text[-1500:]
    assert (shown.group(1), int(shown.group(3)), int(shown.group(4))) == (
        summary["status"], summary["greens_found"], summary["tokens_left"])


def test_line_editing_arrow_keys_and_history(tmp_path):
    """At a terminal the prompts read through readline: the up arrow recalls the refused line, the
    left arrow moves in it, and the edited line is what the game gets."""
    seed = 3
    record = deal_duet_record(seed, "en")
    clue = legal_clue(record.words)
    path = tmp_path / "edit.json"
    term = Terminal("duet", "--partner", "random", "--partner-guesser", "random", "--seed", str(seed),
                    "--pause", "0", "--record", str(path), "--first", "me")
    term.expect(r"Your clue:.*> ")
    term.send(f"{clue} 12")
    term.expect(r"Refused \(RULES 3\.4\)")
    term.expect(r"Your clue:.*> ")
    up, left, backspace = "\x1b[A", "\x1b[D", "\x7f"
    # recall "CLUE 12", delete "12", type "1"; then go left past "1" and the space and type "x" ...
    term.child.send(up + backspace * 2 + "1" + left * 2 + "x")
    term.child.send(backspace + "\r")  # ... and take it back: the line is "CLUE 1"
    term.expect(rf"You: clue {clue.upper()} 1\.")
    term.expect(PROMPT)
    term.send("quit")
    term.expect(SAVED)
    assert term.exit_status() == 0
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["actions"][0] == {"seat": "A", "clue": clue, "number": 1}


def test_a_person_guesses_a_codenames_two_player_game_to_a_win(tmp_path):
    from experiments.games.codenames.dealing import deal_record

    seed = 7
    record = deal_record(seed, "en", game="codenames", variant="two_player")
    ours = record.key.starts[0].upper()
    todo = [w for w, c in zip(record.words, record.key.letters) if c == ours]
    path = tmp_path / "cn.json"
    term = Terminal("codenames", "--partner", "random", "--partner-guesser", "random", "--seed", str(seed),
                    "--pause", "0", "--record", str(path))
    term.expect(r"Play as guesser or spymaster\?.*>")
    term.send("guesser")
    for _ in range(40):
        m = term.expect(r"Clue \S+ \d+ \(.*\): guess or stop \(\? = help\) >|Record saved to (?P<path>\S+)\n")
        if m.group("path"):
            break
        word = todo.pop(0)
        term.send(word if len(todo) % 2 else coordinate(record.words.index(word)))
    assert term.exit_status() == 0
    assert "You won!" in term.text and not todo
    summary = replay(path)
    assert summary["status"] == "finished" and summary["winner"] == record.key.starts
    assert f"score {summary['score']} · turns {summary['turns_used']}" in term.text
    # every bot clue is explained once its guessing turn is over, and all of them again at the end
    text, saved = term.text, json.loads(path.read_text(encoding="utf-8"))
    actions, intents = saved["actions"], saved["intents"]
    clues = [n for n, a in enumerate(actions) if "clue" in a]
    assert [i["action"] for i in intents] == clues and len(clues) == summary["turns_used"]
    end = text.index("The bot's clues and what it meant")
    pos = 0
    for k, intent in enumerate(intents):
        assert all(record.key.letters[record.words.index(t)] == ours for t in intent["targets"])
        turn = actions[intent["action"] + 1:clues[k + 1] if k + 1 < len(clues) else None]
        guessed = [a["guess"] for a in turn if "guess" in a]
        line = intent_text(saved, intent, found=set(guessed), reveal=False)
        last = text.index(f"You: guess {guessed[-1]}: ", pos)
        assert line not in text[pos:last]  # not before the clue is resolved
        pos = text.index(line, last)       # a target still face down is not named during the game
        assert intent_text(saved, intent, found=set(guessed)) in text[end:]   # all of them at the end
