"""A researcher's own board word list (`--words FILE` of `cnlab deal | simulate`, `tournament`,
`crossplay`): read as the shipped lists are (agents.wordlists: UTF-8, one card word a line, blank
lines and `#` comments ignored) and checked as a record's words are (engine.record_fields), so a
list that could deal a board the engine refuses is refused first, naming the file and its line.

    words = load_word_file("cards.txt", "en")    # a tuple of the words, in file order
    words_digest(words)                          # what a run's fingerprint holds of the list
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from engine.record_fields import board_language, shown, word_key, word_problem

#: The cards a board needs: 25 words (RULES 1.1 Codenames, 3.1 Duet).
BOARD_SIZE = 25
#: A word list larger than this is not one (a few thousand words are a few dozen KiB).
MAX_WORDS_BYTES = 4 * 2**20
_LANGUAGE_NAMES = {"en": "English", "ko": "Korean"}


def load_word_file(path: str | Path, lang: str) -> tuple[str, ...]:
    """`read_word_file`, kept while the file is unchanged (its size and modification time): a run
    reads its list for every check and fingerprint, and a crossplay for each of its pairings."""
    import os

    try:
        stat = os.stat(path)
        key = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    except (OSError, ValueError):
        return read_word_file(path, lang)   # says why, as reading it would
    return _kept(str(path), lang, key)


@lru_cache(maxsize=8)
def _kept(path: str, lang: str, _stat: tuple) -> tuple[str, ...]:
    return read_word_file(path, lang)


def read_word_file(path: str | Path, lang: str) -> tuple[str, ...]:
    """The words of a list file for boards of `lang` ("en" or "ko"), in file order. ValueError, one
    line naming the file (and the first bad line), for a file that cannot be read or is not UTF-8, a
    word no card can show (`word_problem`), a word of the other language than `lang` (a board reads
    Korean when a word holds Hangul: `board_language`), a word the list already holds (`word_key`:
    case and Unicode form aside, which the dealer would drop silently), or fewer than BOARD_SIZE words."""
    if lang not in _LANGUAGE_NAMES:
        raise ValueError(f"unknown language {lang!r}: en or ko")
    where = f"--words {path}"
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_WORDS_BYTES + 1)
    except (OSError, ValueError) as exc:   # ValueError: a NUL in the path
        raise ValueError(f"{where}: cannot read it: {getattr(exc, 'strerror', None) or exc}") from None
    if len(raw) > MAX_WORDS_BYTES:
        raise ValueError(f"{where}: more than {MAX_WORDS_BYTES // 2**20} MiB, not a word list (one card word a line)")
    if raw.startswith(b"\xef\xbb\xbf"):   # a byte-order mark, as an editor may write it
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"{where}: line {line}: not UTF-8 text (byte 0x{raw[exc.start]:02x})") from None
    words: list[str] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(text.split("\n"), 1):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        problem = word_problem(word)
        if problem is not None:
            raise ValueError(f"{where}: line {n}: {shown(word)} {problem}; a word list gives one card word a line")
        if board_language([word]) != lang:
            why = "a Korean word holds Hangul" if lang == "ko" else "a word with Hangul makes a Korean board"
            raise ValueError(f"{where}: line {n}: {shown(word)} is not a{'' if lang == 'ko' else 'n'} "
                             f"{_LANGUAGE_NAMES[lang]} word (--lang {lang}): {why}")
        first = seen.setdefault(word_key(word), n)
        if first != n:
            raise ValueError(f"{where}: line {n}: {shown(word)} is the word of line {first} again (case and "
                             "Unicode form aside); a board's cards are distinct words")
        words.append(word)
    if len(words) < BOARD_SIZE:
        raise ValueError(f"{where}: {len(words)} words; a board needs {BOARD_SIZE} distinct words")
    return tuple(words)


def words_digest(words: Sequence[str]) -> str:
    """The list as a run's fingerprint and run.json hold it: a hash of its words in order (a comment
    or a blank line edited in the file changes no game, and so no run)."""
    return hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:16]


def board_list(words: str | None, lang: str) -> tuple[str, ...]:
    """The words a run's boards are dealt from: its `--words` file's, checked (`load_word_file`), or
    with none the shipped list of `lang` (agents.wordlists.board_words)."""
    if words is None:
        from agents.wordlists import board_words

        return board_words(lang)
    return load_word_file(words, lang)
