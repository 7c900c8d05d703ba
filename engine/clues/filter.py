"""The clue filter: the referee of RULES section 4 for every engine, bot and play interface.

`ClueFilter(board, language, covered, options)` precomputes, per visible word, every form and part
it blocks; `check(clue, number)` answers one clue; `legal_mask(candidates)` answers a whole
candidate list at once through an inverted index of the candidates (built once per list and kept
in memory), so a bot can filter tens of thousands of clues per turn.
"""

from __future__ import annotations

import re
import reprlib
import threading
import unicodedata
from collections import OrderedDict
from contextlib import nullcontext
from functools import lru_cache
from numbers import Integral
from typing import Iterable, Sequence

from engine.actions import MAX_CLUE_NUMBER, UNLIMITED, written_clue_number, written_number
from engine.clues.abbreviations import english_initialism, korean_initialism, listed_abbreviation, vowelless_words
from engine.clues.messages import message
from engine.clues.normalize import ClueTextError, normalize_clue
from engine.clues.tables import FULL_WIDTH, normalize, tables
from engine.clues.transliterate import jamo
from engine.clues.types import ClueOptions, ClueVerdict
from engine.clues.wordinfo import WordInfo

LANGUAGES = ("ko", "en")
#: Word breaks: spaces, hyphens and the middle dot that joins words (눈·사람, 남·북: RULES 4.7).
SPLIT = re.compile(r"[\s\-\u00b7\u2027\u30fb\uff65]+")
HANGUL_SYLLABLES = re.compile(r"^[\uac00-\ud7a3]+$")
JAMO = re.compile(r"^[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff]+$")
JAMO_CHAR = re.compile(r"[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff\uffa0-\uffdc]")
HANGUL_OR_JAMO = re.compile(r"^[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff\uffa0-\uffdc]+$")
LATIN_WORD = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)?'?$")


def _latin(word: str) -> bool:
    """Latin letters only (accents allowed), with at most one inner apostrophe (o'clock) or a
    plural possessive's final one (kings')."""
    return bool(LATIN_WORD.match(word)) and all(
        ch == "'" or "LATIN" in unicodedata.name(ch, "") for ch in word
    )
DIGITS = re.compile(r"^[0-9]+$")   # ASCII digits: int() reads them (not ³ or ٣)
#: Two words joined by punctuation or a symbol (배,감, 사과/배, PEAR;PLUM, 눈_사람, ROCK&ROLL): not one
#: word (RULES 4.7). Not an apostrophe (O'CLOCK), a period (U.N.: an abbreviation) or a hyphen (SPLIT).
JOINED = re.compile(r"[^\W\d_]\s*(?:[^\w\s'\u2019.\-]|_)+\s*[^\W\d_]")


@lru_cache(maxsize=None)
def get_analyzer(language: str):
    """The per-language morphological analyser (loaded once per process)."""
    if language == "ko":
        from engine.clues.korean import KoreanAnalyzer

        return KoreanAnalyzer()
    if language == "en":
        from engine.clues.english import EnglishAnalyzer

        return EnglishAnalyzer()
    raise ValueError(f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}")


def _check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}")
    return language


#: consonants a spelling may write plain, aspirated or tensed (RULES 4.6), and the vowels ㅐ / ㅔ
_SERIES = ("ㄱㅋㄲ", "ㄷㅌㄸ", "ㅂㅍㅃ", "ㅈㅊㅉ", "ㅅㅆ", "ㅐㅔ")


def _respelled(a: str, b: str) -> bool:
    """Whether two Hangul syllables differ only in one initial consonant of a series or ㅐ / ㅔ."""
    ja, jb = jamo(a), jamo(b)
    if ja is None or jb is None or ja[2] != jb[2]:
        return False
    diff = [(x, y) for x, y in zip(ja[:2], jb[:2]) if x != y]
    return len(diff) == 1 and any(diff[0][0] in s and diff[0][1] in s for s in _SERIES)


def _letter_key(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def _tied_key(w: str, rules: "_Rules") -> str | None:
    """The key under which a letter or a position word may be tied to a visible word's meaning
    (RULES 4.1: vitamin C, ㅅ for 사이, MIDDLE for AGES): None for any other word. A Korean word
    pointing at a position through a position word (위에, 맨위: `WordInfo.position`) has its key."""
    if len(w) > 1 and len(set(w)) == 1 and (JAMO.match(w) or _letter_form(w)):
        return _letter_key(w[0])  # one letter written again and again: ㅠㅠ (crying) for 눈물, ㅋㅋ for 웃음
    if _is_letter(w):
        return _letter_key(w)
    return rules.position(w)  # also a form of one: CORNERS for KICK, EDGES for KNIFE


def number_ok(number) -> bool:
    """RULES 1.2/4.2: the clue number is 0..MAX_CLUE_NUMBER or UNLIMITED."""
    if isinstance(number, bool):
        return False
    if isinstance(number, Integral):  # int, numpy integers
        return 0 <= int(number) <= MAX_CLUE_NUMBER
    if isinstance(number, str):
        value = written_clue_number(number)
        return value == UNLIMITED or (value is not None and 0 <= value <= MAX_CLUE_NUMBER)
    return False


def _number_value(tables, w: str, info: WordInfo | None):
    """(is a number word or numeral, its value or None) for RULES 4.1's number words."""
    if DIGITS.match(w):
        return True, int(w)
    values = tables.number_values or {}
    if w in values and (w not in tables.numeral_only or (info is not None and info.number)):
        return True, values[w]
    if info is not None and info.number:
        held = [p for p in info.parts if p in values and w.startswith(p) and p != w]  # 둘이: 둘 + 이
        return True, (values[max(held, key=len)] if held else None)
    return False, None


def _number_word_value(tables, info: WordInfo):
    """The value of a number word written in letters (TEN, 십: RULES 4.3, a visible 10 written in
    words), or None: not for digits, nor a word tied to its number by meaning only (DOZEN)."""
    if DIGITS.match(info.word) or info.word in (tables.meaning_numbers or {}):
        return None
    is_number, value = _number_value(tables, info.word, info)
    return value if is_number else None


def _letters(word: str, language: str) -> int:
    """How many letters (Korean: syllables) a code word has, as a letter-count clue would count."""
    if language == "ko":
        return sum(1 for ch in word if HANGUL_SYLLABLES.match(ch))
    return sum(1 for ch in word if ch.isalpha())


def _is_letter(w: str) -> bool:
    """One letter or jamo (RULES 4.1). A Hanja (a CJK ideograph: 山, 江) is a word of another script,
    judged by the script rule (4.6), as a Hangul syllable is judged as a word."""
    if JAMO.match(w):
        return True
    return (len(w) == 1 and w.isalpha() and not HANGUL_SYLLABLES.match(w)
            and not unicodedata.name(w, "").startswith("CJK"))


#: A Latin letter's plural or possessive (x's, A's, Bs'), or one letter written again and again (LL, XX).
_LETTER_FORM = re.compile(r"^(?:([^\W\d_])(?:'s|s'|')|([^\W\d_])\2+)$")


def _letter_form(w: str) -> bool:
    """RULES 4.1: an English clue that names a letter in another form: its plural or possessive with
    an apostrophe (X'S, A's), or the letter repeated (LL, KK, XXX), unless a word of
    `en_vowelless_words.txt` (ZZZ, MMM)."""
    m = _LETTER_FORM.match(w)
    return bool(m) and _latin((m.group(1) or m.group(2))) and w not in vowelless_words()


def _hangul_joined(w: str) -> str | None:
    """A Korean clue read without its spaces (첫째 줄: 첫째줄), or None when that is not Hangul syllables."""
    joined = SPLIT.sub("", w)
    return joined if joined and HANGUL_SYLLABLES.fullmatch(joined) else None


class _Rules:
    """Board-independent rules (4.1 letters/positions/numbers, 4.6 script/loanwords, 4.7)."""

    def __init__(self, language: str, options: ClueOptions) -> None:
        self.language = language
        self.options = options
        self.analyzer = get_analyzer(language)
        self.tables = tables(language)
        self.allowed = frozenset(_letter_key(w) for w in options.allowed_clues)
        self.vocabulary = frozenset(normalize(w, language) for w in options.vocabulary)

    def msg(self, key: str, **kw) -> str:
        return message(key, self.language, **kw)

    def _script_ok(self, piece: str) -> bool:
        if DIGITS.match(piece):
            return True
        if _letter_key(piece) in self.allowed:
            return True
        if self.language == "ko":
            if HANGUL_SYLLABLES.match(piece):
                return True
            return (self.options.allow_abbreviations and piece.isascii() and piece.isalpha() and piece.isupper()
                    and 2 <= len(piece) <= 6 and self._latin_acronym(piece))
        return _latin(piece)

    @staticmethod
    def _latin_acronym(piece: str) -> bool:
        """Capitals on a Korean board that may be an agreed abbreviation (RULES 4.6/4.7: CIA, UN, NASA,
        KBS, NGO), not an English word written in capitals (APPLE, DOG, RIVER): an initialism said
        letter by letter, a listed acronym, two letters, or no word the English lemmatiser knows
        (acronyms spelled like words are lost with them: WHO, LED, PIN)."""
        low = piece.casefold()
        if len(piece) <= 2 or english_initialism(low) or listed_abbreviation(low, "en"):
            return True
        return not get_analyzer("en").lemmas(low)

    def early(self, raw: str, w: str):
        """4.7 one word, 4.1 letters/positions/numbers, 4.6 script: (rule, message) or None."""
        if not w:
            return "4.7", self.msg("empty")
        multi = bool(SPLIT.search(w))
        if (multi and not self.options.allow_multiword) or JOINED.search(w):
            return "4.7", self.msg("one_word", clue=raw)
        pieces = [p for p in SPLIT.split(w) if p] if multi else [w]
        if not pieces:
            return "4.7", self.msg("empty")
        if not multi and _letter_key(w) not in self.allowed:
            if _is_letter(w) or _is_letter(raw.strip()):  # ß, ﬁ: one letter that case folding makes two
                return "4.1", self.msg("letter", clue=raw)
            if self.language == "en" and _letter_form(w):  # x's, LL
                return "4.1", self.msg("letter", clue=raw)
            if self.language == "ko" and JAMO_CHAR.search(w) and HANGUL_OR_JAMO.match(w):  # ㄱ자, ㅋ웃음
                return "4.1", self.msg("letter", clue=raw)
        for p in pieces:
            if not self._script_ok(p if self.language == "en" else raw_piece(raw, p)):
                return "4.6", self.msg("script_ko" if self.language == "ko" else "script_en", clue=raw)
        if multi and self.language == "en" and (hit := self._letter_piece(pieces, raw)):  # no letter: PLAN B
            return hit
        if _letter_key(w) not in self.allowed:
            info = None
            if self.letter_word(w) is not None:
                return "4.1", self.msg("letter_word", clue=raw)
            if self.position(w) is not None:
                return "4.1", self.msg("position", clue=raw)
            if self.options.forbid_number_words:
                info = info or self.analyzer.info(w)
                if info.number:
                    return "4.1", self.msg("number_word", clue=raw)
        return None

    def _letter_piece(self, pieces: list[str], raw: str):
        """RULES 4.1 for the words of an English multi-word clue (RULES 4.7 options): a letter (B in
        PLAN B; the words A and I are no letters there), a letter's form (X'S) or a letter word (ZEE,
        VOWEL) makes the phrase point at letters, unless `allowed_clues` lists it: (rule, message) or None."""
        for p in pieces:
            if _letter_key(p) in self.allowed or p in ("a", "i"):
                continue
            if _is_letter(p) or _letter_form(p):
                return "4.1", self.msg("letter", clue=raw)
            if self.letter_word(p) is not None:
                return "4.1", self.msg("letter_word", clue=raw)
        return None

    def letter_word(self, w: str) -> str | None:
        """The letter word (`{lang}_letters.txt`) a clue names (RULES 4.1), or None: the word itself, or
        a Korean reading of one (글자로, 기역이, 세음절: `WordInfo.letter`; a clue with spaces, allowed
        as a compound, read joined: 세 글자)."""
        if w in self.tables.letter_words:
            return w
        if self.language == "en":  # a plural or possessive of one (ZEDS, DEES, AITCHES, ZED'S, VOWEL'S)
            stem = w[:-2] if w.endswith(("'s", "s'")) else w[:-1] if w.endswith("'") else w
            for base in (stem, stem[:-1] if stem.endswith("s") else None,
                         stem[:-2] if stem.endswith("es") else None):
                if base and base in self.tables.letter_words:
                    return base
            return None
        joined = _hangul_joined(w)
        if joined is None:
            return None
        return joined if joined in self.tables.letter_words else (self.analyzer.info(joined).letter or None)

    def position(self, w: str) -> str | None:
        """The position word (`{lang}_positions.txt`) a clue points at (RULES 4.1), or None: the
        word itself, an English form of one (CORNERS), a Korean form or reading of one (가까움,
        위에, 첫째줄: `WordInfo.position`; a Korean clue with spaces, allowed as a compound, read
        joined: 첫째 줄)."""
        if self.language == "en":  # the shortest such word, the one tied to meanings (CORNERS: corner, for KICK)
            if w.endswith(("ing", "ed")) and w not in self.tables.positions:
                return None  # a verb's participle (TOPPING, ROWING, LOWERED) points at no position
            hit = ({w} | self.analyzer.info(w).forms) & self.tables.positions
            return min(hit, key=lambda h: (len(h), h)) if hit else None
        if w in self.tables.positions:
            return w
        joined = _hangul_joined(w)
        if joined is None:
            return None
        return joined if joined in self.tables.positions else (self.analyzer.info(joined).position or None)

    def _initialism(self, w: str) -> str | None:
        """The letters a clue spells out (FBI, 유엔 = UN): an abbreviation (RULES 4.7 option)."""
        if self.language == "en":
            return w.upper() if english_initialism(w) else None
        return korean_initialism(w)

    def late(self, raw: str, w: str, info: WordInfo):
        """4.6 loanword table, 4.7 real word: (rule, message) or None."""
        loan = self.tables.loanwords.get(w) or self.tables.loanwords.get(self.tables.variants.get(w, w))  # (4.6)
        if loan is not None and loan.refused:
            return "4.6", self.msg("loanword", clue=raw, native=loan.native or "?")
        if w in self.vocabulary or info.number or _letter_key(w) in self.allowed:
            return None
        if not self.options.allow_abbreviations:
            if initialism := self._initialism(w):
                return "4.7", self.msg("abbreviation", clue=raw, initialism=initialism)
            if full := listed_abbreviation(w, self.language):
                return "4.7", self.msg("listed_abbreviation", clue=raw, full=full)
        if not SPLIT.search(w) and (lang := self.analyzer.foreign(w)):
            if self.language == "ko":   # 삭스: socks written in Hangul
                return "4.6", self.msg("transliteration", clue=raw, source=lang)
            return "4.6", self.msg("foreign", clue=raw, lang=lang)  # chien, perro: another language
        if SPLIT.search(w):
            pieces = [p for p in SPLIT.split(w) if p]
            if all(p in self.vocabulary for p in pieces):
                return None
            if self.language == "en" and not self.options.allow_abbreviations:  # no abbreviation: FBI AGENT
                for p in pieces:
                    if p in self.vocabulary or _letter_key(p) in self.allowed:
                        continue
                    if initialism := self._initialism(p):
                        return "4.7", self.msg("abbreviation", clue=raw, initialism=initialism)
                    if full := listed_abbreviation(p, self.language):
                        return "4.7", self.msg("listed_abbreviation", clue=raw, full=full)
            piece_infos = self.analyzer.info_many(pieces)
            if not all(i.real or p in self.vocabulary for p, i in zip(pieces, piece_infos)):
                return "4.7", self.msg("invented", clue=raw)
            if self.options.allow_multiword_proper_nouns and (
                    self.language != "ko" or any(self.analyzer.name(p) for p in pieces)):
                return None
            if self.language == "ko" and not self.options.allow_multiword_compounds:  # 냉동 식품: no name
                return "4.7", self.msg("one_word", clue=raw)
            if self.language == "ko" and not self.analyzer.info("".join(pieces)).real:
                return "4.7", self.msg("invented_compound", clue=raw)
            return None
        if not info.real:
            if self.language == "ko" and self.options.allow_abbreviations and w.isascii() and w.isalpha():
                if get_analyzer("en").known(w.casefold()):  # a common Latin acronym (CIA)
                    return None
            return "4.7", self.msg("invented", clue=raw)
        return None


def raw_piece(raw: str, piece: str) -> str:
    # Script checks run on the normalised piece; kept as a hook for case-sensitive acronyms.
    for p in SPLIT.split(unicodedata.normalize("NFC", raw).translate(FULL_WIDTH).strip()):
        if p and normalize(p, "ko") == piece:
            return p
    return piece


class _CandidateIndex:
    """Board-independent analysis of one candidate list, inverted for fast board lookups."""

    def __init__(self, rules: _Rules, candidates: Sequence[str]) -> None:
        import numpy as np

        lang = rules.language
        # as `check` reads a clue (normalize_clue): NFC, so a decomposed 바다 (jamo) is 바다
        candidates = [unicodedata.normalize("NFC", c) if isinstance(c, str) else c for c in candidates]
        norm = [normalize(c, lang) for c in candidates]
        self.size = len(norm)
        intrinsic = np.ones(self.size, dtype=bool)
        if lang == "en":  # the English early rules read each word's forms: analyse them in one batch
            rules.analyzer.info_many([w for w in norm if w])
        else:  # the Korean position rule reads each word's analysis (`_Rules.position`)
            rules.analyzer.info_many(sorted({j for w in norm if (j := _hangul_joined(w)) is not None}))
        early = [rules.early(c, w) for c, w in zip(candidates, norm)]
        ok_idx = [i for i, e in enumerate(early) if e is None]
        for i, e in enumerate(early):
            if e is not None:
                intrinsic[i] = False
        infos = rules.analyzer.info_many([norm[i] for i in ok_idx])
        by_form: dict[str, list[int]] = {}
        by_part: dict[str, list[int]] = {}
        by_strong: dict[str, list[int]] = {}
        by_single: dict[str, list[int]] = {}
        by_shared: dict[str, list[int]] = {}
        by_tied: dict[str, list[int]] = {}
        by_number: dict = {}  # number words (RULES 4.1) by value: legal, undecidable or tied per board
        by_numeral: dict[int, list[int]] = {}  # numerals by value (RULES 4.3: 10 is TEN in digits)
        by_numword: dict[int, list[int]] = {}  # number words by value (RULES 4.3: TEN is 10 in words)
        for i, e in enumerate(early):
            if e is not None and e[0] == "4.1" and (key := _tied_key(norm[i], rules)) is not None:
                by_tied.setdefault(key, []).append(i)
        batch = getattr(rules.analyzer, "batch", None)
        with batch() if batch is not None else nullcontext():
            late = [rules.late(candidates[i], norm[i], info) for i, info in zip(ok_idx, infos)]
        def board_keys(i: int, info: WordInfo) -> None:  # what the board rules look up
            for f in info.forms:
                by_form.setdefault(f, []).append(i)
            for p, strong in info.parts.items():
                by_part.setdefault(p, []).append(i)
                if strong is not None:
                    by_shared.setdefault(p, []).append(i)
                if strong:
                    by_strong.setdefault(p, []).append(i)
            if lang == "ko" and len(info.word) == 1:
                by_single.setdefault(info.word, []).append(i)

        for i, info, refused in zip(ok_idx, infos, late):
            if refused is not None:
                intrinsic[i] = False
                continue
            is_number, value = _number_value(rules.tables, norm[i], info)
            if is_number and _letter_key(norm[i]) not in rules.allowed:
                by_number.setdefault(value, []).append(i)
            if DIGITS.match(norm[i]):
                by_numeral.setdefault(int(norm[i]), []).append(i)
            elif (value := _number_word_value(rules.tables, info)) is not None:
                by_numword.setdefault(value, []).append(i)
            board_keys(i, info)
        # a letter or position word tied to a visible word is still judged by the board rules
        # (`check`): 줄 with 거미줄 visible is a part of it (4.4) although 거미 would tie it
        tied_idx = sorted(i for idx in by_tied.values() for i in idx)
        for i, info in zip(tied_idx, rules.analyzer.info_many([norm[i] for i in tied_idx])):
            board_keys(i, info)
        self.intrinsic = intrinsic
        self.by_form, self.by_part, self.by_strong, self.by_single = by_form, by_part, by_strong, by_single
        self.by_shared, self.by_tied, self.by_number = by_shared, by_tied, by_number
        self.by_numeral, self.by_numword = by_numeral, by_numword


class _Recent:
    """The values built for the last `size` keys (least recently used out first), safe across
    threads: the web server judges clues on several."""

    def __init__(self, size: int) -> None:
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key, build):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
                return value
        value = build()
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


_INDEXES = _Recent(4)     # a bot's candidate lists (`legal_mask`)
_FILTERS = _Recent(64)    # a game's board states (`check_clue`: its referee, then its record's replay)


class ClueFilter:
    """The referee for one board state. Precomputes what every visible word blocks.

    board: the code words; covered: the covered ones (words, or indices into board) -- RULES 4.5:
    a covered card no longer blocks clues; a Duet card with one bystander token is still visible,
    so only pass cards covered by an agent or by tokens from both sides.
    """

    def __init__(
        self,
        board: Iterable[str],
        language: str = "ko",
        covered: Iterable = (),
        options: ClueOptions | None = None,
    ) -> None:
        self.language = _check_language(language)
        self.options = options or ClueOptions()
        self.rules = _Rules(self.language, self.options)
        self.analyzer = self.rules.analyzer
        for name, words in (("board", board), ("covered", covered)):  # a string would be read as one word per letter
            if isinstance(words, (str, bytes)):
                raise TypeError(f"{name} must be a list of code words, not a string: {reprlib.repr(words)}")
        board = [str(w) for w in board]
        covered_words = set()
        for c in covered or ():
            if isinstance(c, Integral) and not isinstance(c, bool):
                if not 0 <= int(c) < len(board):  # RULES 4.5: a covered card is a card of the board
                    raise ValueError(f"covered card {int(c)} is not an index of the board (0..{len(board) - 1})")
                covered_words.add(normalize(board[int(c)], self.language))
            else:
                covered_words.add(normalize(str(c), self.language))
        self.board = [normalize(w, self.language) for w in board]
        self.visible = [w for w in self.board if w and w not in covered_words]
        self.visible_infos = self.analyzer.info_many(self.visible)
        tables_ = self.rules.tables
        self._tied = frozenset(_letter_key(t) for v in self.visible for t in tables_.tied.get(v, ()))
        # RULES 4.1 / 4.2: numbers that go with a visible word's meaning (문어: 8), and the letter
        # counts of the visible words (a number word may count them).
        self._meaning_numbers: dict[int, tuple[str, str]] = {}
        for v in self.visible:
            for n, why in (tables_.meaning_numbers or {}).get(v, ()):
                self._meaning_numbers.setdefault(n, (v, why))
        self._number_cards: dict[int, str] = {}  # visible words that are numbers themselves
        # RULES 4.3 / 4.6: the visible number words a numeral reads as (10 is TEN, 십 or 열 written
        # in digits); not a word tied to its number by meaning only (DOZEN: 12, the meanings table)
        self._numerals: dict[int, str] = {}
        self._digit_cards: dict[int, str] = {}  # and the reverse: visible numerals (TEN for a visible 10)
        self._lengths: dict[int, str] = {}
        for v in self.visible_infos:
            self._lengths.setdefault(_letters(v.word, self.language), v.word)
            is_number, value = _number_value(tables_, v.word, v)
            if is_number and value is not None:
                self._number_cards.setdefault(value, v.word)
                if not DIGITS.match(v.word) and v.word not in (tables_.meaning_numbers or {}):
                    self._numerals.setdefault(value, v.word)
                elif DIGITS.match(v.word):
                    self._digit_cards.setdefault(value, v.word)
        self._vform: dict[str, list[WordInfo]] = {}
        self._vpart: dict[str, list[tuple[WordInfo, bool]]] = {}
        self._vsyl: dict[str, WordInfo] = {}
        # a Latin card on a Korean board: PIANO is piano (피아노's source word, RULES 4.3/4.6)
        self._visible_forms = [v.forms | {f.casefold() for f in v.forms} if self.language == "ko" else v.forms
                               for v in self.visible_infos]
        for v, forms in zip(self.visible_infos, self._visible_forms):
            for f in forms:
                self._vform.setdefault(f, []).append(v)
            for p, strong in v.parts.items():
                self._vpart.setdefault(p, []).append((v, strong))
            if self.language == "ko":
                for s in v.word:
                    if HANGUL_SYLLABLES.match(s):
                        self._vsyl.setdefault(s, v)

    @property
    def doubtful_numbers(self) -> frozenset[int]:
        """Clue numbers (1..9) that may carry part of the hint on this board (RULES 4.2): a visible
        word's meaning goes with them (무지개: 7, OCTOPUS: 8) or a visible word is that number. A clue
        with such a number is undecidable; a bot choosing its number should prefer another."""
        return frozenset(n for n in (*self._meaning_numbers, *self._number_cards) if 1 <= n <= 9)

    # -- board rules -----------------------------------------------------------------------------
    def _board(self, raw: str, c: WordInfo):
        """The first board rule the clue breaks: (rule, message, blocked_by) or None."""
        m = self.rules.msg

        def by(v: WordInfo, relation: str, **piece) -> dict:
            return {"visible": v.word, "relation": relation, **piece}

        for v in self._vform.get(c.word, ()):  # 4.3: the visible word itself
            if v.word == c.word:
                return "4.3", m("visible", clue=raw), by(v, "same", form=c.word, of=v.word)
        if DIGITS.match(c.word) and (n := self._numerals.get(int(c.word))) is not None:  # 4.3: 10 for TEN
            return "4.3", m("numeral", clue=raw, visible=n), {"visible": n, "relation": "same", "form": c.word, "of": n}
        if self._digit_cards and (n := self._digit_cards.get(_number_word_value(self.rules.tables, c))) is not None:
            return "4.3", m("numeral_word", clue=raw, visible=n), {"visible": n, "relation": "same", "form": c.word, "of": n}
        for v in self._vform.get(c.canon, ()):  # same word: a variant spelling (4.6) ...
            if c.canon == v.canon and c.word != v.word:
                return "4.6", m("variant", clue=raw, visible=v.word), by(v, "variant", form=c.word, of=v.word)
        for f in sorted(c.forms):  # ... or an inflection (4.3); sorted: the verdict is the same in every process
            for v in self._vform.get(f, ()):
                return "4.3", m("inflection", clue=raw, visible=v.word), by(v, "form", form=c.word, of=v.word)
        for p in c.parts:  # 4.3: contains the visible word as a part
            for v in self._vform.get(p, ()):
                return "4.3", m("contains", clue=raw, visible=v.word), by(v, "contains", part=p, of=c.word)
        for f in c.forms:  # 4.4: is a part of a visible compound
            for v, strong in self._vpart.get(f, ()):
                # a one-syllable weak part is a letter of the word (4.1), unless it is not spelled
                # there (촛불's 초, 쇠고기's 소 by way of 소고기) or is a word of its own there (이슬비 =
                # 이슬 + 비, 떡국 = 떡 + 국, 연날리기 = 연 + 날리기): then it is a part by meaning
                if (strong or self.language == "en" or len(c.word) > 1 or f not in v.word
                        or f in v.syllable_words):  # a word of its own there (이슬비's 비, 떡국's 국)
                    return "4.4", m("part", clue=raw, visible=v.word), by(v, "part", part=f, of=v.word)
                return "4.1", m("syllable", clue=raw, visible=v.word), by(v, "syllable", part=f, of=v.word)
        for p, cstrong in c.parts.items():  # 4.4: shares a standalone part with a visible compound
            for v, vstrong in self._vpart.get(p, ()):
                if cstrong is None or vstrong is None:  # a name's part (카네기홀's 홀) is not shared
                    continue
                if cstrong or vstrong:
                    return "4.4", m("shares", clue=raw, visible=v.word, part=p), by(v, "shares", part=p, of=v.word)
        if self.language == "ko" and len(c.word) == 1 and c.word in self._vsyl:  # 4.1 syllable pointer
            v = self._vsyl[c.word]
            return "4.1", m("syllable", clue=raw, visible=v.word), by(v, "syllable", part=c.word, of=v.word)
        return None

    def _respelling(self, raw: str, w: str):
        """RULES 4.6 for a Korean clue no dictionary knows (else 4.7, invented) that is a visible word
        spelled with one consonant plain, aspirated or tensed instead (나침판 for 나침반)
        or ㅐ for ㅔ: the same word in another spelling. Illegal either way; only the rule named changes."""
        for v in self.visible_infos:
            if len(v.word) != len(w) or v.word == w:
                continue
            diff = [(a, b) for a, b in zip(w, v.word) if a != b]
            if len(diff) == 1 and _respelled(*diff[0]):
                return "4.6", self.rules.msg("variant", clue=raw, visible=v.word), {
                    "visible": v.word, "relation": "variant", "form": raw, "of": v.word}
        return None

    def _split_form(self, raw: str, w: str):
        """A clue refused as not one word (4.7) that is also a visible word written with a space
        or hyphen (snow-man, rain coat), or a form of one: reported as a form of that word."""
        joined = SPLIT.sub("", w)
        if not joined:
            return None
        info = self.analyzer.info(joined)
        split = self.analyzer.info(w)  # the pieces' forms and parts (MOTHER-IN-LAW holds mother)
        for f in sorted(info.forms | split.forms):  # X-RAYS: a form of X-RAY (its head's plural)
            for v in self._vform.get(f, ()):
                return "4.3", self.rules.msg("not_one_word_form", clue=raw, visible=v.word), {
                    "visible": v.word, "relation": "form", "form": raw, "of": v.word}
        return self._board(raw, info) or self._board(raw, split)

    def _number_word(self, raw: str, w: str, info: WordInfo):
        """RULES 4.1 for a number word or numeral that passed every other rule: a verdict (legal
        when a visible word's meaning goes with it, undecidable when a visible word has that many
        letters or its value is unknown), or None (legal: no visible word has that many letters)."""
        is_number, value = _number_value(self.rules.tables, w, info)
        if not is_number or _letter_key(w) in self.rules.allowed:
            return None
        m = self.rules.msg
        if value in self._meaning_numbers:
            v, why = self._meaning_numbers[value]
            return ClueVerdict(True, None, m("number_meaning", clue=raw, visible=v, why=why or value), "legal",
                               {"visible": v, "relation": "number", "number": value})
        if value is None:
            return self._undecidable("4.1", m("undecidable_number_word", clue=raw), None)
        if value in self._lengths:
            v = self._lengths[value]
            return self._undecidable("4.1", m("undecidable_count", clue=raw, value=value, visible=v),
                                     {"visible": v, "relation": "letters", "letters": value})
        return None

    def _number_doubt(self, number):
        """RULES 4.2: the clue number may carry part of the hint (an undecidable verdict) or None."""
        if isinstance(number, str):
            number = written_number(number)
        if number is None or not 1 <= int(number) <= MAX_CLUE_NUMBER:
            return None
        n = int(number)
        if n in self._meaning_numbers:
            v, why = self._meaning_numbers[n]
        elif n in self._number_cards:
            v, why = self._number_cards[n], str(n)
        else:
            return None
        return self._undecidable("4.2", self.rules.msg("undecidable_number", number=n, visible=v, why=why),
                                 {"visible": v, "relation": "number", "number": n})

    def _undecidable(self, rule: str, text: str, blocked_by) -> ClueVerdict:
        return ClueVerdict(not self.options.refuse_undecidable, rule, text, "undecidable", blocked_by)

    # -- public ----------------------------------------------------------------------------------
    def check(self, clue: str, number=1) -> ClueVerdict:
        """Judge one clue + number (RULES 4.1-4.7): legal, illegal, or undecidable (see ClueVerdict)."""
        m = self.rules.msg
        if not number_ok(number):
            return ClueVerdict(False, "4.2", m("number", number=reprlib.repr(number)))
        try:  # NFC, dashes as "-", bounded length, no invisible characters, before any rule
            raw = normalize_clue("" if clue is None else str(clue))
        except ClueTextError as exc:
            return ClueVerdict(False, "4.7", exc.describe(self.language))
        raw = raw.strip()
        w = normalize(raw, self.language)
        hit = self.rules.early(raw, w)
        tied = _tied_key(w, self.rules) in self._tied
        if hit is not None and hit[0] == "4.1" and tied:
            hit = None  # RULES 4.1: ㅅ for 사이 (사이시옷), MIDDLE for AGES relate to a visible word's meaning
        if (hit is not None and (hit[0] == "4.7" or (hit[0] == "4.1" and self.language == "en"))
                and SPLIT.search(w)):  # X RAY with X-RAY visible: 4.3, the visible word named
            hit = self._split_form(raw, w) or hit
        info = None
        if (hit is not None and hit[1] in (m("position", clue=raw), m("letter_word", clue=raw))
                and not SPLIT.search(w)):
            # a visible word, or a form of one, that is also a position or letter word (TOP or TOPS with
            # TOP visible, 가까이 with 가깝다) or another spelling of one (CENTRE with CENTER visible, 4.6):
            # the board rule names what it is; illegal either way
            info = self.analyzer.info(w)
            board = self._board(raw, info)
            if board is not None and (board[0] in ("4.3", "4.6") or (
                    self.language == "ko" and w not in self.rules.tables.positions)):
                hit = board
        if hit is None:
            info = self.analyzer.info(w)
            hit = self._board(raw, info) or (None if tied else self.rules.late(raw, w, info))
        if (hit is not None and hit[0] == "4.7" and self.language == "ko" and info is not None
                and not info.real and hit[1] == m("invented", clue=raw)):
            hit = self._respelling(raw, w) or hit
        if hit is not None:
            return ClueVerdict(False, hit[0], hit[1], "illegal", hit[2] if len(hit) > 2 else None)
        verdict = self._number_word(raw, w, info)
        if verdict is not None and verdict.status == "undecidable":
            return verdict
        return self._number_doubt(number) or verdict or ClueVerdict(True, None, m("ok"))

    def legal_mask(self, candidates: Sequence[str]):
        """Legality of every candidate clue as a numpy bool array: True only for status "legal"
        (an undecidable clue, such as a number word that may count letters, is False: bots avoid
        what a referee might refuse). The number is not judged: see `doubtful_numbers`.

        The candidate list's analysis is cached in memory (per language, options and list), so a
        bot reusing its vocabulary pays only the per-board lookups.
        """
        import numpy as np

        index = self._index(candidates)
        blocked: list[list[int]] = []
        for v, forms in zip(self.visible_infos, self._visible_forms):
            for f in forms:
                blocked.append(index.by_form.get(f, ()))
                blocked.append(index.by_part.get(f, ()))
            for p, strong in v.parts.items():
                blocked.append(index.by_form.get(p, ()))
                if strong is None:
                    continue
                blocked.append(index.by_strong.get(p, ()))
                if strong:
                    blocked.append(index.by_shared.get(p, ()))
        if self.language == "ko":
            for s in self._vsyl:
                blocked.append(index.by_single.get(s, ()))
        for value in self._numerals:  # RULES 4.3: a visible number word written in digits
            blocked.append(index.by_numeral.get(value, ()))
        for value in self._digit_cards:  # RULES 4.3: a visible numeral written in words
            blocked.append(index.by_numword.get(value, ()))
        for value, idx in index.by_number.items():  # RULES 4.1: number words
            if value not in self._meaning_numbers and (value is None or value in self._lengths):
                blocked.append(idx)
        mask = index.intrinsic.copy()
        for key in self._tied:  # RULES 4.1: a letter or position word tied to a visible word's meaning
            for i in index.by_tied.get(key, ()):
                mask[i] = True
        idx = [i for lst in blocked if lst for i in lst]
        if idx:
            mask[np.fromiter(idx, dtype=np.intp, count=len(idx))] = False
        return mask

    def filter(self, candidates: Sequence[str]) -> list[str]:
        """The legal candidates, in order."""
        mask = self.legal_mask(candidates)
        return [c for c, ok in zip(candidates, mask) if ok]

    def _index(self, candidates: Sequence[str]) -> _CandidateIndex:
        key = (self.language, self.options, tuple(candidates))
        return _INDEXES.get(key, lambda: _CandidateIndex(self.rules, list(key[2])))


def check_clue(
    clue: str,
    number=1,
    board: Iterable[str] = (),
    language: str = "ko",
    covered: Iterable = (),
    options: ClueOptions | None = None,
) -> ClueVerdict:
    """Judge one clue against a board (RULES section 4). See `ClueFilter`.

    A referee judges each clue of a game against the board as it then stands, and a replay judges
    them again, so the last few filters are kept (keyed by everything they are built from)."""
    if isinstance(board, (str, bytes)) or isinstance(covered, (str, bytes)):  # refused by the filter, uncached
        return ClueFilter(board, language=language, covered=covered, options=options).check(clue, number)
    board, covered = tuple(board), tuple(covered or ())
    key = (language, options, board, covered)
    build = lambda: ClueFilter(board, language=language, covered=covered, options=options)  # noqa: E731
    try:
        hash(key)
    except TypeError:  # an unhashable covered entry: no cache
        return build().check(clue, number)
    return _FILTERS.get(key, build).check(clue, number)
