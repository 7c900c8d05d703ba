"""Word origins for the Korean filter: the Hanja behind a Sino-Korean word, from HanDic.

Kiwi reads spellings; it cannot tell the 산 of 산불 (山, a mountain fire) from the 산 of 산소
(酸素, oxygen), or the 차 of 기차 (汽車, a train: a kind of car) from the 차 of 차례 (次例). HanDic, a
MeCab dictionary of contemporary Korean (the `handic` package), lists each noun with its Hanja
spelling (汽車, 山불, 用돈: a native syllable stays Hangul) and its homographs with a learner's
level (A, B, C). RULES 4.3/4.4 ask for parts by meaning, so a one-syllable word is a part of a
compound exactly when the compound's syllable there has one of the word's common meanings:

* 기차 = 汽車 and 차 is 茶 or 車 (both level A): 차 is a part of 기차; 녹차 (綠茶) too;
* 산소 = 酸素 and 산 is 山 (酸 is not a common meaning of 산 alone): 산 is no part of 산소;
* 불편 = 不便 and 불 (level A) is native: no part; 산불 = 山불: 산 and 불 are both parts;
* 도시락 is native and 도시 is only 都市: no part.

A native syllable in a native word (눈 in 눈썹, 개 in 개구리) says nothing either way: HanDic does
not split native compounds, and the rest of the filter decides. A loanword (HanDic glosses it with
its English source: 블랙홀 = black hole) has the loanwords of its source words as parts (홀), and
no native syllable (턱 in 턱시도 = tuxedo).
"""

from __future__ import annotations

import os
import re
import unicodedata

from engine.clues.types import FilterUnavailable

#: Readings of a word looked at (MeCab's n-best).
NBEST = 16
#: Learner levels that make a homograph a common meaning of the word said alone.
COMMON = ("A", "B")
#: Levels of a word that has a place in the learner's vocabulary at all.
GRADED = ("A", "B", "C")
NOUNS = ("NNG", "NNP")
#: Parts of speech whose Hanja spell a word (XR: the root of 솔직하다, 率直).
SPELLED = ("NNG", "NNP", "XR")
LATIN = re.compile(r"^[A-Za-z][A-Za-z .'&-]*$")
HANGUL_SYLLABLE = re.compile(r"[\uac00-\ud7a3]")


def _tagger():
    from importlib.util import find_spec

    spec = find_spec("handic")   # only its dictionary folder: importing handic needs jamotools
    try:
        import MeCab
    except ImportError:  # pragma: no cover - depends on the installation
        spec = None
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - the installation
        raise FilterUnavailable(
            "the Korean clue filter needs handic and mecab-python3: pip install 'codenames-lab[filter]'")
    d = os.path.join(list(spec.submodule_search_locations)[0], "dicdir")
    return MeCab.Tagger(f'-d "{d}" -r "{os.path.join(d, "mecabrc")}"')


class Hanja:
    """HanDic readings of single words, loaded on first use."""

    def __init__(self) -> None:
        self._tagger = None
        self._cache: dict[str, list] = {}

    @property
    def tagger(self):
        if self._tagger is None:
            self._tagger = _tagger()
        return self._tagger

    def readings(self, word: str) -> list[list[tuple[str, str, str, str, str]]]:
        """The n-best readings of a word: per token (surface, tag, spelling, level, loan), spelling
        the Hanja-Hangul form ('' for a token the dictionary does not know), loan the English
        source word of a loanword ('black hole' for 블랙홀, '' for other words)."""
        got = self._cache.get(word)
        if got is None:
            got = self._cache[word] = self._parse(word)
        return got

    def _parse(self, word: str) -> list:
        tagger = self.tagger
        tagger.parseNBestInit(unicodedata.normalize("NFD", word))
        out: list = []
        for _ in range(NBEST):
            node = tagger.nextNode()
            if node is None:
                break
            reading = []
            while node is not None:
                if node.surface:
                    f = node.feature.split(",")
                    known = node.stat == 0 and len(f) > 10
                    spell = (f[6] if f[7] == "*" else f[7]) if known else ""
                    surface = unicodedata.normalize("NFC", node.surface)
                    reading.append((surface, f[-1] if known else "",
                                    _spelling(surface, unicodedata.normalize("NFC", spell)), f[9] if known else "",
                                    _loan(f[8]) if known else ""))
                node = node.next
            if reading not in out:
                out.append(reading)
        return out

    def nouns(self, word: str) -> list[tuple[str, str, str, str, str]]:
        """The readings of the word whole as one noun (NNG or NNP), as their single tokens."""
        return [r[0] for r in self.readings(word) if len(r) == 1 and r[0][0] == word and r[0][1] in NOUNS]

    def knows(self, word: str) -> bool:
        """Does HanDic know the word: as a noun, or its best reading as known words that are not
        nouns (보일 = 보 + 이 + ㄹ, a verb's form)?"""
        readings = self.readings(word)
        return bool(self.nouns(word)) or bool(readings) and all(
            tag and not tag.startswith("NN") for _, tag, _, _, _ in readings[0])

    def spellings(self, word: str) -> frozenset[str]:
        """The word in Hanja where it is Sino-Korean (기차 -> 汽車, 산불 -> 山불), the word itself where
        HanDic knows it as native or a loanword (눈썹); one per meaning, the graded meanings only
        when there are any (강변: 江邊, not the rare 强辯); empty when HanDic does not know it as a
        noun, or reads it only as pieces that are not all known nouns."""
        graded, single, pieces = set(), set(), set()
        for reading in self.readings(word):
            if not reading or any(tag not in SPELLED or not spell for _, tag, spell, _, _ in reading):
                continue
            spelled = "".join(spell for _, _, spell, _, _ in reading)
            if "".join(s for s, _, _, _, _ in reading) != word or len(spelled) != len(word):
                continue
            if len(reading) > 1:
                pieces.add(spelled)
            elif reading[0][3] in GRADED:
                graded.add(spelled)
            else:
                single.add(spelled)
        return frozenset(graded or single or pieces)

    def senses(self, word: str, graded_too: bool = False) -> frozenset[str]:
        """The meanings of a word said alone, as spellings (차 -> {茶, 車}, 불 -> {불}). A word of two
        syllables or more has all its noun homographs, and its names beside them (the same spelling is
        the same word: 사과문's 謝過 is a 사과, 호주인's 濠洲 a 호주); a one-syllable word only its commonest ones (level A or B, else C) where it
        has any, as nearly every syllable is some rare Sino-Korean noun (산 -> {山}, not 酸; 실 -> {실})."""
        common, graded, every, names = set(), set(), set(), set()
        for _, tag, spell, level, _ in self.nouns(word):
            if not spell or len(spell) != len(word):
                continue
            if tag != "NNG":
                if not HANGUL_SYLLABLE.search(spell):  # in Hanja: a name in Hangul tells no meaning
                    names.add(spell)
                continue
            every.add(spell)
            if level in COMMON:
                common.add(spell)
            elif level in GRADED:
                graded.add(spell)
        if graded_too:
            return frozenset(common | graded)
        if len(word) > 1 and every:  # a name spelled like the common noun is that word too (RULES 4.6:
            every |= names           # 호주인's 濠洲 is a 호주 beside 戶主); a word that is only a name says nothing
        return frozenset(every if len(word) > 1 else common or graded or every)  # graded_too: A, B and C

    def loans(self, word: str) -> frozenset[str]:
        """The English source words of a word that HanDic reads whole only as a loanword (홀 ->
        {hall, hole}); empty for any other word (비전 is also 祕傳)."""
        whole = [loan for *_, loan in self.nouns(word)]
        return frozenset(whole) if whole and all(whole) else frozenset()

    def _one_hanja_noun(self, word: str, spelled: str) -> bool:
        """Is `spelled` HanDic's spelling of the common noun `word` whole as one Hanja syllable at an
        end of a Hangul noun HanDic knows, the syllable not also read there as a suffix (모래城, 羊고기,
        鐘소리; not 참을性, whose 참을 is a verb's form and 性 the suffix -성)? Such a syllable is a noun
        of its own beside a native word, so any graded sense of it counts (城 is level C beside the
        commoner 姓: RULES 4.3/4.4, sixteenth pass)."""
        hanja = [i for i, c in enumerate(spelled) if not HANGUL_SYLLABLE.match(c)]
        if len(hanja) != 1 or not any(tag == "NNG" and spell == spelled for _, tag, spell, _, _ in self.nouns(word)):
            return False
        rest = word[:hanja[0]] + word[hanja[0] + 1:]
        if hanja[0] not in (0, len(word) - 1) or not self.nouns(rest):
            return False  # beside a noun HanDic knows: 참을性's 참을 is a verb's form
        return not any(tag == "XSN" and spell == spelled[hanja[0]]
                       for reading in self.readings(word) for _, tag, spell, _, _ in reading)

    def is_part(self, part: str, word: str) -> bool | None:
        """Is `part` a part of `word` by meaning? True or False where the Hanja decide, None where
        they say nothing (a native syllable in a native word, or a word HanDic does not know)."""
        loans = self.loans(word)
        if loans and len(part) < len(word) and part in word:
            # a loanword's parts are loanwords of its source words (블랙홀 = black hole: 블랙, 홀);
            # a native or Sino-Korean word inside one shares letters only (턱 in 턱시도, tuxedo)
            alone = self.nouns(part)
            mine = {loan for *_, loan in alone if loan}
            if any(_within(m, w) for m in mine for w in loans):
                return True
            # a loanword of another source word shares letters only (타이 = tie in 타이틀 = title,
            # 니스 = nice in 테니스); a part HanDic does not know at all is left to the other rules
            return None if not alone else False
        spellings, senses = self.spellings(word), self.senses(part)
        if not spellings or not senses:
            return None
        at = [i for i in range(len(word) - len(part) + 1) if word[i:i + len(part)] == part]
        if not at:
            return None
        verdict = False
        for spelled in spellings:
            here = senses
            if len(part) == 1 and self._one_hanja_noun(word, spelled):  # 모래城: 성, 羊고기: 양, 鐘소리: 종
                here = senses | {h for h in self.senses(part, graded_too=True) if not HANGUL_SYLLABLE.match(h)}
            if {spelled[i:i + len(part)] for i in at} & here:
                if spelled != word:    # a Hanja match, or a native piece of 山불, 用돈
                    return True
                verdict = None         # a native syllable in a native word
        return verdict


def _spelling(surface: str, spell: str) -> str:
    """HanDic's spelling of a token with its Hangul syllables as the token spells them: a Hangul
    syllable of a spelling stands for itself, so one that differs is an error of the dictionary
    (고래 spelled 동물, 파킨슨병 파킽슨病), and the token's own syllable is kept there."""
    if len(spell) != len(surface):
        return spell
    return "".join(s if HANGUL_SYLLABLE.match(c) else c for s, c in zip(surface, spell))


def _loan(gloss: str) -> str:
    """HanDic's gloss when it is an English source word (loanwords), lower-cased; else ''."""
    gloss = gloss.strip('"').strip()
    return gloss.lower() if LATIN.match(gloss) else ""


def _within(part: str, whole: str) -> bool:
    """Are the words of `part` a run of the words of `whole` ('hole' in 'black hole'), or is it a
    head or tail of three letters or more of a closed compound ('cup' in 'cupcake')?"""
    p, w = part.split(), whole.replace("-", " ").split()
    if w and w[-1].endswith("s") and w[-1][:-1] == p[-1]:
        w[-1] = w[-1][:-1]  # a plural source word: 티셔츠 = t-shirts, built on shirt
    if any(w[i:i + len(p)] == p for i in range(len(w) - len(p) + 1)):
        return True
    p, w = "".join(p), "".join(w)
    return len(p) >= 3 and len(w) > len(p) and (w.startswith(p) or w.endswith(p))
