"""What a person types at a prompt, parsed into one command.

Forms (case does not matter for the keywords):

- a clue: ``clue WORD N`` or ``WORD N`` (N = 0..9);
- a guess: ``guess WORD``, ``WORD``, a unique beginning of a board word (the board abbreviates long
  words), or a coordinate: the column letter then the row number, ``B3`` or ``b3`` = column B,
  row 3 (columns A-E from the left, rows 1-5 from the top);
- ``stop`` or ``end`` (end the turn after a correct guess), ``pass`` or ``skip`` (sudden death: let
  the partner guess); when such a keyword is also a card, the person is asked to say which (and
  offered a keyword of the same meaning that is not a card);
  ``cover WORD`` (Codenames two-player: the virtual opponent's agent you cover),
- ``help`` or ``?``, ``quit``.

A board word that is also a keyword is guessed with ``guess WORD``. Korean boards take the same
forms, and Korean keywords too (``힌트``, ``추측``, ``그만``, ``패스``, ``덮기``, ``도움말``, ``종료``).

Pictures (``keywords``): a guess or a cover may be one or more words of a card's description (or,
on Korean boards, its Korean name): the card is the one uncovered card whose description has them
all; when several have, the person is told which (coordinates and descriptions).

Every error is worded in the board's language (`lang`, see text.py).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from engine.actions import written_clue_number
from experiments.play.text import say

COLUMNS = "ABCDE"
COORDINATE = re.compile(r"^([A-Ea-e])([1-9])$")
HELP_WORDS = {"help", "?", "h", "도움말", "도움"}
QUIT_WORDS = {"quit", "exit", "q", "종료", "나가기"}
STOP_WORDS = {"stop", "end", "그만", "멈춤"}
PASS_WORDS = {"pass", "skip", "wait", "패스", "넘김"}
CLUE_HEADS = {"clue", "힌트"}
GUESS_HEADS = {"guess", "추측"}
COVER_HEADS = {"cover", "덮기"}
#: The keywords offered instead of one that is also a card, in this order (sudden: pass; guess: stop).
ALIASES = {"sudden": ("pass", "skip", "wait", "패스", "넘김"),
           "guess": ("stop", "end", "그만", "멈춤", "pass", "skip", "wait", "패스", "넘김")}
FIRST_ME = {"", "me", "m", "i", "1", "a", "나", "내가", "저"}
FIRST_BOT = {"bot", "b", "partner", "2", "봇"}
ROLE_GUESSER = {"guesser", "g", "1", "", "요원", "추측", "현장요원"}
ROLE_SPYMASTER = {"spymaster", "s", "2", "스파이마스터", "스파이", "힌트"}
# words of a description that name no card ("a red apple": red, apple)
STOPWORDS = {"a", "an", "the", "of", "with", "and", "in", "on", "from", "its", "to", "for", "at", "or"}
SHOWN_CANDIDATES = 6
SAID_BACK = 40     # the most characters of a line said back in an error


@dataclass(frozen=True)
class Command:
    kind: str                    # clue, guess, stop, pass, cover, help, quit, me, bot, error
    word: str | None = None
    number: int | None = None
    index: int | None = None     # the board index of a guessed / covered card
    error: str | None = None     # for kind == "error": what to tell the person


def coordinate(index: int, columns: int = 5) -> str:
    """The coordinate of a board index: 0 -> A1, 7 -> C2."""
    return f"{COLUMNS[index % columns]}{index // columns + 1}"


def _norm(text: str) -> str:
    """As a name or a keyword is matched: compatibility forms folded (full-width ＣＯＡＣＨ, Ｂ３, ？ as
    the clue filter reads them, RULES 4.6), case ignored."""
    return unicodedata.normalize("NFKC", text).strip().casefold()


def words_of(text: str) -> set[str]:
    """The words of a description, as a guess is matched against them."""
    return set(re.findall(r"\w+", _norm(text)))


def resolve_card(text: str, words: Sequence[str], columns: int = 5, labels: Sequence[str] | None = None,
                 lang: str = "en", keywords: Sequence[set[str]] | None = None,
                 covered: Sequence[bool] | None = None) -> tuple[int | None, str | None]:
    """(board index, None) for a word, a unique prefix or a coordinate; (None, why) otherwise.

    `labels` (for Pictures: the descriptions shown) are matched like words; `keywords` (Pictures:
    the words of each card's description) let one or more description words name the one uncovered
    card (`covered`) that has them all. A Pictures card's word is its catalogue id, which the screen
    never shows: typed whole it is one more candidate beside the descriptions, never ahead of them."""
    text = unicodedata.normalize("NFC", text.strip())
    if not text:
        return None, say(lang, "err_name_card")
    said = text if len(text) <= SAID_BACK else text[:SAID_BACK] + "…"   # a pasted screenful is said back clipped
    m = COORDINATE.match(unicodedata.normalize("NFKC", text))   # Ｂ３ too
    n_rows = (len(words) + columns - 1) // columns
    if m and text not in words:
        col, row = COLUMNS.index(m.group(1).upper()), int(m.group(2))
        if col >= columns or row > n_rows:
            return None, say(lang, "err_off_board", text=said, last=COLUMNS[columns - 1], rows=n_rows)
        return (row - 1) * columns + col, None
    if text in words and not keywords:
        return words.index(text), None
    names = [[] if keywords else [_norm(w)] for w in words]
    if labels:
        for n, label in zip(names, labels):
            n.append(_norm(label))
    key = _norm(text)
    exact = [i for i, n in enumerate(names) if key in n]
    if len(exact) == 1:
        return exact[0], None

    def name(i: int) -> str:
        return f"{coordinate(i, columns)} {labels[i]}" if labels else words[i]

    def several(ids: list[int]) -> str:
        shown = [name(i) for i in ids[:SHOWN_CANDIDATES]]
        if len(ids) > SHOWN_CANDIDATES:
            shown.append(say(lang, "and_more", count=len(ids) - SHOWN_CANDIDATES))
        return ", ".join(shown)

    content: list[str] = []
    if keywords:
        tokens = re.findall(r"\w+", key)
        content = [t for t in tokens if t not in STOPWORDS] or tokens
        is_open = [not (covered and covered[i]) for i in range(len(words))]
        hits = [i for i in range(len(words)) if content and all(t in keywords[i] for t in content)
                or _norm(words[i]) == key]
        open_hits = [i for i in hits if is_open[i]]
        if len(open_hits) == 1:
            return open_hits[0], None
        if len(open_hits) > 1:
            return None, say(lang, "err_several", text=said, count=len(open_hits), cards=several(open_hits))
        if hits:
            return None, say(lang, "err_covered_only", text=said, cards=several(hits))
    prefix = [i for i, n in enumerate(names) if any(x.startswith(key) for x in n)]
    if len(prefix) == 1:
        return prefix[0], None
    if keywords and content:  # the beginnings of description words: "gorill"
        hits = [i for i in range(len(words)) if is_open[i]
                and all(any(k.startswith(t) for k in keywords[i]) for t in content)]
        if len(hits) == 1:
            return hits[0], None
        if len(hits) > 1:
            return None, say(lang, "err_several", text=said, count=len(hits), cards=several(hits))
    if len(prefix) > 1:
        return None, say(lang, "err_ambiguous", text=said, cards=", ".join(name(i) for i in prefix[:4]))
    return None, say(lang, "err_not_on_board", text=said)


def parse(text: str, mode: str, words: Sequence[str] = (), columns: int = 5,
          labels: Sequence[str] | None = None, lang: str = "en", keywords: Sequence[set[str]] | None = None,
          covered: Sequence[bool] | None = None, *, unlimited: bool = False) -> Command:
    """Parse one line typed at a prompt of `mode`: first, clue, guess, sudden, cover, role.
    `unlimited`: the game's clue number may be UNLIMITED (Codenames, RULES 1.2), so its errors say so."""
    line = unicodedata.normalize("NFC", text).strip()
    low = _norm(line)   # the keywords full-width too (？, ｑｕｉｔ); a clue's word stays as typed
    if low in HELP_WORDS:
        return Command("help")
    if low in QUIT_WORDS:
        return Command("quit")
    parts = line.split()
    head = _norm(parts[0]) if parts else ""
    if mode == "first":
        if low in FIRST_ME:
            return Command("me")
        if low in FIRST_BOT:
            return Command("bot")
        return Command("error", error=say(lang, "err_first"))
    if mode == "role":
        if low in ROLE_GUESSER:
            return Command("me", word="guesser")
        if low in ROLE_SPYMASTER:
            return Command("bot", word="spymaster")
        return Command("error", error=say(lang, "err_role"))
    if not parts:
        return Command("error", error=say(lang, "err_empty"))

    def card(rest: list[str]) -> tuple[int | None, str | None]:
        return resolve_card(" ".join(rest), words, columns, labels, lang, keywords, covered)

    if mode == "clue":
        if head in CLUE_HEADS:
            parts = parts[1:]
        a_guess = head in GUESS_HEADS and not (len(parts) == 2 and written_clue_number(parts[1]) is not None)
        if a_guess or (len(parts) == 1 and parts[0].casefold() in STOP_WORDS | PASS_WORDS):
            return Command("error", error=say(lang, "err_clue_turn"))
        if len(parts) < 2:
            return Command("error", error=say(lang, "err_clue_form"))
        # never int(): it fails on 4,301 digits and on ³; UNLIMITED is Codenames' expert number (RULES 1.2;
        # Duet refuses it, 3.4)
        number = written_clue_number(parts[-1])
        if number is None:   # said back clipped: a pasted run of digits is no screenful
            shown = parts[-1] if len(parts[-1]) <= 12 else parts[-1][:12] + "…"
            return Command("error", error=say(lang, "err_cn_clue_number" if unlimited else "err_clue_number",
                                              number=shown))
        return Command("clue", word=" ".join(parts[:-1]), number=number)
    if mode == "cover":
        if head in COVER_HEADS:
            parts = parts[1:]
        index, why = card(parts)
        if index is None:
            return Command("error", error=why)
        return Command("cover", word=words[index], index=index)
    # guess / sudden
    kinds = PASS_WORDS if mode == "sudden" else STOP_WORDS | PASS_WORDS
    if mode == "sudden" and len(parts) == 1 and head in STOP_WORDS and all(_norm(w) != head for w in words):
        return Command("stop")   # the engine refuses it, citing RULES 3.9 (no stopping in sudden death)
    if len(parts) == 1 and head in kinds:
        on_board = [w for w in words if _norm(w) == head]
        if not on_board:
            return Command("pass" if mode == "sudden" else "stop")
        # a keyword that is also a card (SKIP): ask which one, never guess it unasked (in sudden death a
        # miss loses), and offer a keyword of the same meaning that is not a card of this board
        board = {_norm(w) for w in words}
        offered = sorted(ALIASES[mode], key=lambda k: k.isascii() == (lang == "ko"))   # the board's language first
        alias = next((k for k in offered if k != head and k not in board), None)
        what = say(lang, "what_pass" if mode == "sudden" else "what_stop")
        if alias is None:   # every such keyword is a card: only 'guess WORD' is unambiguous
            return Command("error", error=say(lang, "err_keyword_card_only", line=line, card=on_board[0]))
        return Command("error", error=say(lang, "err_keyword_card", line=line, card=on_board[0],
                                          alias=alias, what=what))
    if head in GUESS_HEADS:
        parts = parts[1:]
    elif head in CLUE_HEADS or (len(parts) >= 2 and re.fullmatch(r"\d+", parts[-1])):
        if mode == "sudden":   # the engine refuses it, citing RULES 3.9 (no clues in sudden death)
            rest = parts[1:] if head in CLUE_HEADS else parts
            return Command("clue", word=" ".join(rest[:-1]) or " ".join(rest), number=written_clue_number(rest[-1])
                           if len(rest) > 1 else None)
        return Command("error", error=say(lang, "err_not_clue_turn"))
    index, why = card(parts)
    if index is None:
        return Command("error", error=why)
    return Command("guess", word=words[index], index=index)
