"""Reading a model's answer and judging it before it reaches the referee.

Each `parse_*` returns the move or raises `Refusal` with the reason the model is told on its
retry (and that the record keeps). A refusal is one of: the answer is not in the format, a
clue the clue filter refuses (RULES 4, the filter's own message), a card that cannot be guessed
(not on the board, covered, already a bystander for this seat), a stop before the first guess,
a Spy's Word clue that is its own word or was already said, a vote for a seat that cannot be
voted for.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Sequence

from engine.actions import MAX_CLUE_NUMBER, written_number

_KEY = r"^[ \t*`\"'>\[(#-]*"  # a keyword at the start of a line (markup such as ** or > allowed)
_STRIP = " \t\r\n.,;:!?\"'`*_()[]{}<>«»“”‘’「」『』"
# the same marks as East Asian text writes them (a Korean reply: 《하늘》, 사과。, 하늘，2), full-width or CJK
_STRIP += "。、，．：；！？＂＇（）［］｛｝＜＞《》〈〉【】〔〕"
_LIST = r"[,，、]"  # what separates two answers on one line (`GUESS: a, b` plays a)


class Refusal(ValueError):
    """The answer cannot be played; `reason` says why, in words the model is shown."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


def observation_family(obs: Any) -> str:
    from agents.observations import adapter_for

    return adapter_for(obs).family


def clean(word: str) -> str:
    return unicodedata.normalize("NFC", word).strip(_STRIP)


def _find(keyword: str, text: str) -> str | None:
    """What follows the first `KEYWORD:` in the answer (its line), or None."""
    match = re.search(_KEY + keyword + r"\**\s*[:：=]\s*([^\n]*)", text, flags=re.IGNORECASE | re.MULTILINE)
    return match.group(1).strip() if match else None


def _is_stop(text: str) -> bool:
    """A line that is STOP (markup and punctuation aside), as a `GUESS:` line may follow some prose."""
    return any(clean(line).upper() in ("STOP", "멈춤", "그만") for line in text.splitlines())


def parse_clue(text: str) -> tuple[str, int]:
    """`CLUE: word NUMBER` -> (word, number); Refusal if the line is missing or malformed."""
    body = _find("CLUE", text)
    if body is None:
        raise Refusal("the answer has no line 'CLUE: <word> <number>'")
    tokens = [t for t in re.split(r"(?:\s|" + _LIST + ")+", body) if t.strip(_STRIP)]
    if not tokens:
        raise Refusal("'CLUE:' is followed by no word")
    # the number's place: the first token of digits of any script (², ①, ３ too), so that such a
    # number is refused for what it is rather than read as the clue's word
    numbers = [i for i, t in enumerate(tokens) if clean(t).isdigit()]
    if not numbers:
        raise Refusal(f"the clue {_show(clean(tokens[0]))} has no number (CLUE: <word> <number>)")
    where = numbers[0]
    if where == 0 and len(numbers) > 1:  # a clue that is a numeral itself (RULES 4.1: 100 for hundred), then its number
        where = numbers[1]
    words = [clean(t) for t in tokens[:where] if clean(t)]
    if not words:
        raise Refusal("the clue has a number but no word before it (CLUE: <word> <number>)")
    if len(words) > 1:
        raise Refusal(f"a clue is one word, not {_show(' '.join(words))}")
    return words[0], clue_number(clean(tokens[where]))


def clue_number(text: str) -> int:
    """A clue number written with the ASCII digits 0-9 (`engine.actions.written_number`), in
    0..MAX_CLUE_NUMBER; Refusal for anything else."""
    number = written_number(text)
    if number is None:
        raise Refusal(f"write the clue number 0 to {MAX_CLUE_NUMBER} with the digits 0-9, not {_show(text)}")
    if not 0 <= number <= MAX_CLUE_NUMBER:
        raise Refusal(f"the clue number must be 0 to {MAX_CLUE_NUMBER}, not {number}")
    return number


def _show(text: str, limit: int = 40) -> str:
    """`text` quoted for a refusal (the model sees it on its retry and the record keeps it), cut short."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def judge_clue(word: str, number: int, board: Sequence[str], covered: Sequence[str], language: str,
               text_rule: str = "3.4") -> None:
    """Refusal with the clue filter's rule and message when it refuses the clue (RULES 4); a text
    that is no clue at all (an invisible character, too long) cites `text_rule`, the game's rule for
    a clue's text as its engine cites it (Duet 3.4, Codenames 1.2, Pictures 2.2)."""
    from engine.clues import ClueTextError, check_clue, normalize_clue

    try:
        normalize_clue(word)
    except ClueTextError as exc:
        raise Refusal(f"RULES {text_rule}: {exc.describe(language)}") from None  # as the engine and the filter
    verdict = check_clue(word, number, board=list(board), language=language, covered=list(covered))
    if not verdict.legal:
        raise Refusal(f"RULES {verdict.rule}: {verdict.message}")


def match_card(answer: str, words: Sequence[str]) -> int | None:
    """The index of the board word the answer names, or None: the same word as the records and the
    engine's board check call it (`engine.record_fields.word_key`: case, Unicode form, full-width
    letters and runs of whitespace ignored)."""
    from engine.record_fields import word_key

    target = word_key(clean(answer))
    for i, w in enumerate(words):
        if word_key(w) == target:
            return i
    return None


def parse_guess(text: str, words: Sequence[str], can_guess, stop_allowed: bool, clue: str | None = None) -> str | None:
    """`GUESS: word` -> the board word; `STOP` -> None (when allowed). `can_guess(i)` says
    whether card i may be touched now."""
    body = _find("GUESS", text)
    if body is None and not _is_stop(text):
        raise Refusal("the answer has no line 'GUESS: <word>' (or STOP)")
    answer = "STOP" if body is None else clean(re.split(_LIST, body)[0])
    if answer.upper() == "STOP":
        if not stop_allowed:
            raise Refusal("you cannot stop now: guess at least one card on this clue")
        return None
    index = match_card(answer, words)
    if index is None:
        first = clean(answer.split()[0]) if answer.split() else ""
        index = match_card(first, words) if first else None
    if index is None:
        first = clean(answer.split()[0]).casefold() if answer.split() else ""
        if clue and first == clean(clue).casefold():
            raise Refusal(f"{_show(clean(clue))} is the clue, not a card: answer with one of the cards you can guess")
        raise Refusal(f"{_show(answer)} is not a card on the board: answer with one of the cards you can guess")
    if not can_guess(index):
        raise Refusal(f"{words[index]!r} cannot be guessed: it is covered or already a bystander for you")
    return words[index]


def parse_word(keyword: str, text: str) -> str:
    """`KEYWORD: word` -> the one word (Spy's Word clues and the ghost's guess)."""
    body = _find(keyword, text)
    if body is None:
        raise Refusal(f"the answer has no line '{keyword}: <one word>'")
    tokens = [clean(t) for t in body.split() if clean(t)]
    if not tokens:
        raise Refusal(f"'{keyword}:' is followed by no word")
    if len(tokens) > 1:
        raise Refusal(f"one word, not {_show(' '.join(tokens))}")
    return tokens[0]


def parse_vote(text: str, candidates: Sequence[str], pass_allowed: bool, pass_token: str) -> str:
    body = _find("VOTE", text)
    if body is None:
        raise Refusal("the answer has no line 'VOTE: <seat>'")
    answer = clean(body.split()[0]) if body.split() else ""
    if answer.casefold() == "pass":
        if not pass_allowed:
            raise Refusal("passing is not allowed in this vote: vote for a player")
        return pass_token
    for c in candidates:
        if c.casefold() == answer.casefold():
            return c
    raise Refusal(f"{_show(answer)} cannot be voted for: vote for one of {', '.join(candidates)}")
