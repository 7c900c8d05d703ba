"""Korean morphology for the clue filter (RULES 4.3/4.4/4.7), on kiwipiepy.

Parts of a word come from the analyser, never from raw substrings: the best analyses Kiwi gives
for the word (top 5, within a score margin of the best) that read it as nouns (NNG/NNP/XR) with
only a determiner/prefix before, noun suffixes (XSN) after, and an optional particle or
derivational ending (거북이 = 거북+이, 거북함 = 거북+하+ㅁ). 눈사람 -> 눈+사람, 한강 -> 한+강,
블랙홀 -> 블랙+홀, while 강아지 has no such reading (강+아+이+지 is rejected) and 전투기's 기 is a
suffix (XSN). A Hangul proper noun of three or more syllables whose last syllable is a noun on its
own (두만강, 서울역) is read as name + that noun.

Second pass (RULES 4.3/4.4):
* Predicates: a reading of a verb or adjective stem with endings only (먹었다, 가셨다, 아름다운,
  달리기) gives the form stem + 다, so every conjugated form of a visible 먹다 shares a form with it;
  a noun followed by a verb (춤추다, 빛나다) has the noun as a part.
* A word Kiwi reads as one lexical noun keeps its alternative split readings only within
  `LEX_MARGIN`, and not a one-syllable noun + suffix reading (강당 is not 강 + 당).
* Dictionary split, when Kiwi's readings give no parts: a lexical noun of three syllables or more
  cut where one side is a noun of two syllables or more that Kiwi reads alone and the other side
  stands on its own too, or is a short head's modifier (종이접기 = 종이 + 접기, 버드나무 -> 나무,
  외할아버지 -> 할아버지, 북극곰 -> 북극, 곰). A one-syllable side is a part only beside a standalone
  noun of two syllables or more (개구리 is not 개 + 구리's 개).
* 사이시옷 undone: a syllable with a final ㅅ followed by more syllables is read without it (바닷가 =
  바다 + 가, 햇빛 = 해 + 빛, 나뭇잎 = 나무 + 잎) when both sides stand on their own, so 바다 and
  바닷가 block each other both ways.
* Parts of a reading with a proper-noun piece (카네기/NNP + 홀) are weak: the name's parts make
  "contains the visible word" but do not make it share a part with another compound (카네기홀
  and 블랙홀 share only the spelling of 홀, RULES 4.4).
* Parts by meaning of native nouns neither Kiwi nor HanDic splits (눈썹 = 눈 + 썹, 참새, 팔꿈치):
  the table data/clues/ko_meaning_parts.tsv, built offline from Kiwi's morpheme embedding by
  experiments/tools/build_ko_parts.py (docs/clue_filter.md); a listed part is strong. A noun or
  adverb in -이 of an adjective (높이, 넓이) has the adjective as a form; so do the adverbs of
  하다, -스럽다 and ㅂ-irregular adjectives (조용히, 깨끗이, 자연스레, 가까이: `_derivation_bases`).
* Seventh pass: -리 adverbs of 르-irregular and ㄹ-stem adjectives (빨리, 달리, 멀리: `_ri_bases`);
  nouns made from a verb's stem with -개, -보, -이 (지우개, 울보, 놀이: `_noun_bases`, with the
  offline check data/clues/ko_derived_nouns.tsv); a name's Sino-Korean head word (세종대왕 = 세종 +
  대왕: 왕, `_name_head`); a HanDic loanword's English source word as a form and the English bases
  of a derived source word as parts (피아니스트 = pianist: piano, `_english_bases`).
* Tenth pass: suffixes that drop a noun's ㄹ (따님, 바느질: `_l_cuts`), noun + 지다 predicates
  (멋지다, 기름진: `_ji_noun`), native noun suffixes (가난뱅이, 사냥꾼; -꾸러기 is no shared part:
  `NATIVE_SUFFIXES`), the two one-syllable sides of a native 사이시옷 compound as parts by meaning
  (햇빛 = 해 + 빛: `_siot_compound`), and no 사이시옷 undone in a predicate (멋지다, 짓다); a
  kinship word's honorific in -님 (할머님), a pronoun with its particles (우린 of 우리), and a
  Sino-Korean word before its bound suffix however Kiwi cuts the whole (대학교 = 大學 + 校).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from engine.clues.hanja import Hanja
from engine.clues.store import InfoStore, Lookup, StoredForeign, analyser_fingerprint
from engine.clues.tables import normalize, tables
from engine.clues.types import FilterUnavailable
from engine.clues.wordinfo import WordInfo

#: Analyses scoring more than this below the best reading are not considered (log-probability).
MARGIN = 10.0
#: A lexical noun's alternative split readings count only within this margin (강변 +3; 불안 +8).
LEX_MARGIN = 6.5
#: A noun + verb reading (춤/NNG 추/VV 다) counts only within this margin of the best reading.
VERB_MARGIN = 6.0
#: An adnominal + noun reading (어린아이 = 어리/VA + ㄴ + 아이, +0.6) counts within this margin of the
#: best reading (클램프 = 클 + 램프 is +2.9).
ADNOMINAL_MARGIN = 1.0
SIOT = 19  # index of the final consonant ㅅ in a Hangul syllable
#: A compound of several known nouns is an established word when Kiwi's language model scores
#: the whole at least this much better than its pieces said alone (열대우림 +15, 음력생선 +5).
COMPOUND_GAIN = 8.0
#: Endings that make a noun of a verb (달리기, 걸음, 그림, 먹이): Kiwi tags them ETN, EF or EC.
NOMINAL_ENDINGS = {"기", "음", "\u11b7", "이"}
#: The endings a visible predicate is conjugated with (RULES 4.3: tense, honorific, connective,
#: adnominal and nominal endings), as Kiwi morphemes.
ENDINGS = tuple(tuple(tuple(m.split("/")) for m in e.split()) for e in (
    "는/ETM", "\u11ab/ETM", "\u11af/ETM", "던/ETM", "고/EC", "어/EC", "어서/EC", "어도/EC", "면/EC", "며/EC",
    "지만/EC", "니/EC", "니까/EC", "게/EC", "지/EC", "도록/EC", "기/ETN", "\u11b7/ETN", "다/EF", "\u11ab다/EF",
    "어요/EF", "\u11b8니다/EF", "자/EF", "어라/EF", "었/EP 다/EF", "었/EP 어요/EF", "었/EP 던/ETM",
    "었/EP 고/EC", "었/EP 지만/EC", "었/EP \u11b8니다/EF", "시/EP 다/EF", "시/EP 었/EP 다/EF",
    "시/EP 어요/EF", "시/EP 는/ETM", "시/EP \u11b8니다/EF", "겠/EP 다/EF"))
#: A one-syllable part is bound when said alone it is rarer than this times the words ending in it.
BOUND_RATIO = 0.17
#: wordfreq frequency at which an analyser-unknown Hangul string still counts as a known word.
WORDFREQ_MIN = 1e-6

CONTENT = {"NNG", "NNP", "XR"}
HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+$")
HANGUL_SYLLABLE = re.compile(r"[\uac00-\ud7a3]")
#: Word breaks: spaces, hyphens and the middle dot that joins words (눈·사람, 남·북: RULES 4.7).
SPLIT = re.compile(r"[\s\-\u00b7\u2027\u30fb\uff65]+")


#: Kiwi's options. The multi-word dictionary (entries with spaces, 12 MB) is not loaded: a clue is
#: one word, and it costs about half of Kiwi's start-up (docs/clue_filter.md, Speed).
KIWI_OPTIONS = dict(load_multi_dict=False)
#: A batch of at least this many new words loads the whole frequency list in memory.
PRELOAD = 64


def _kiwi_missing() -> None:
    from importlib.util import find_spec

    if find_spec("kiwipiepy") is None:  # pragma: no cover - depends on the installation
        raise FilterUnavailable("the Korean clue filter needs kiwipiepy: pip install 'codenames-lab[filter]'")


def _kiwi():
    try:
        from kiwipiepy import Kiwi
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise FilterUnavailable(
            "the Korean clue filter needs kiwipiepy: pip install 'codenames-lab[filter]'"
        ) from exc
    workers = max(1, min(4, os.cpu_count() or 1))
    return Kiwi(num_workers=workers, **KIWI_OPTIONS)


def _wordfreq_ko() -> dict:
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return {}
    try:
        return dict(get_frequency_dict("ko"))
    except Exception:  # pragma: no cover - a broken wordfreq data install
        return {}


_FORKED_AWAY: list = []


class KoreanAnalyzer(StoredForeign):
    language = "ko"

    def __init__(self, meaning_parts: bool = True, derived_nouns: bool = True) -> None:
        _kiwi_missing()
        self._kiwi, self._kiwi_pid = None, None  # loaded on the first word the store does not hold
        self.freq = Lookup("wordfreq-ko", ("wordfreq",), _wordfreq_ko)
        self.tables = tables("ko")
        #: parts by meaning of native nouns (data/clues/ko_meaning_parts.tsv); off only for the tool
        #: that builds that table (experiments/tools/build_ko_parts.py), which turns the store off
        self.meaning_parts = (self.tables.meaning_parts or {}) if meaning_parts else {}
        #: the derived nouns' embedding check (data/clues/ko_derived_nouns.tsv); off likewise for
        #: `build_ko_parts.py --derived`
        self.derived_nouns = (self.tables.derived_nouns or {}) if derived_nouns else {}
        self.hanja = Hanja()
        self.store = InfoStore("ko", analyser_fingerprint(
            "ko", ("kiwipiepy", "kiwipiepy_model", "wordfreq", "handic", "mecab-python3"), repr(sorted(KIWI_OPTIONS.items()))))
        self._info: dict[str, WordInfo] = {}
        self._single: dict[str, tuple] = {}
        self._tokens: dict[str, tuple] = {}  # form said alone -> its best reading's (form, tag, oov)
        self._stems: dict[str, tuple] = {}  # form said alone with a verb/adjective stem + 다 reading -> (stem, tag)
        self._paradigms: dict[str, frozenset] = {}  # such a form -> its conjugated forms (`_conjugate`)
        self._endings: dict[str, float] | None = None  # syllable -> wordfreq of the words ending in it
        self.noun_words = True  # HanDic's nouns as 사이시옷 sides (`_noun_word`); off only to measure it

    @property
    def kiwi(self):
        """The analyser of this process, loaded on first use: a forked child gets its own (the
        parent's thread pool does not survive a fork, and a batch analysis there would hang)."""
        if self._kiwi is None:
            self._kiwi, self._kiwi_pid = _kiwi(), os.getpid()
        elif self._kiwi_pid != os.getpid():
            _FORKED_AWAY.append(self._kiwi)  # never freed here: its destructor would wait for threads
            self._kiwi, self._kiwi_pid = _kiwi(), os.getpid()
        return self._kiwi

    # -- low level -----------------------------------------------------------------------------
    def _analyze_many(self, words: list[str]) -> list:
        if not words:
            return []
        if len(words) == 1:
            return [self.kiwi.analyze(words[0], top_n=5)]
        return list(self.kiwi.analyze(words, top_n=5))

    def _singles(self, forms) -> None:
        """Cache the best single reading of forms said alone: (score, tag, oov, n_tokens, form)."""
        todo = sorted({f for f in forms if f and f not in self._single})
        for form, res in zip(todo, self._analyze_many(todo)):
            toks, score = res[0][0], res[0][1]
            t0 = toks[0] if toks else None
            stem = _verb_reading(form, res)  # a verb or adjective reading (지우다 = 지우/VV + 다)
            if stem is not None:
                self._stems[form] = stem  # its stem and Kiwi's tag (짓/VV-I: ㅅ-irregular)
            self._tokens[form] = tuple((t.form, t.tag, t.oov) for t in toks)
            self._single[form] = (
                score,
                t0.tag if t0 is not None else "",
                any(t.oov for t in toks),
                len(toks),
                t0.form if t0 is not None else "",
            )

    def name(self, word: str) -> bool:
        """Is `word` a name (RULES 4.7, multi-word proper nouns): Kiwi reads it alone as one proper
        noun (뉴욕, 이순신, 다빈치; not 냉동, 음력)?"""
        self._singles({word})
        return self._known_alone(word, ("NNP",))

    def _known_alone(self, form: str, tags=("NNG", "NNP")) -> bool:
        score, tag, oov, n, f = self._single[form]
        return n == 1 and not oov and tag in tags and f == form

    def _nominal(self, form: str) -> bool:
        """A verb's nominal form read alone (접기 = 접 + 기)."""
        score, tag, oov, n, f = self._single[form]
        return n == 2 and not oov and tag[:2] in ("VV", "VA") and form[-1] in "기음"

    def _noun_word(self, x: str) -> bool:
        """A common noun of two syllables or more that HanDic lists (not as a loanword) and Kiwi
        reads, alone, with no unknown piece: 세배 (歲拜), which Kiwi reads best as 세/MM + 배 and
        wordfreq does not list, so that 세뱃돈 = 세배 + 돈 (RULES 4.3, fourteenth pass)."""
        if not self.noun_words or len(x) < 2:
            return False
        self._singles({x})
        return (not self._single[x][2] and not self.hanja.loans(x)
                and any(tag == "NNG" and spell for _, tag, spell, _, _ in self.hanja.nouns(x)))

    @staticmethod
    def _cuts(w: str):
        """(left, right, sai-siot undone) cut points of a word for the dictionary split."""
        out = []
        for i in range(1, len(w)):
            out.append((w[:i], w[i:], False))
            code = ord(w[i - 1]) - 0xAC00
            if 0 <= code < 11172 and code % 28 == SIOT:
                out.append((w[: i - 1] + chr(ord(w[i - 1]) - SIOT), w[i:], True))
        return out

    def _siot_compound(self, w: str, at: int) -> bool:
        """Are the two one-syllable sides of a 사이시옷 cut parts by meaning (햇빛 = 해 + 빛, 깻잎 =
        깨 + 잎, 콧물 = 코 + 물)? When the ㅅ syllable (`w[at]`) is no word of its own in any part of
        speech (not 빗물's 빗, 첫눈's 첫, 잇몸's 잇), HanDic knows the word, not as a loanword (엣지,
        닛산), and writes that syllable in Hangul: a native one (숫자 = 數字 and 찻잔 = 茶盞 share a
        Sino-Korean syllable only, RULES 4.4)."""
        head = w[at]
        self._singles({head})
        _, _, oov, n, form = self._single[head]
        return ((n > 1 or oov or form != head) and not self.hanja.loans(w)
                and any(len(s) == len(w) and s[at] == head for s in self.hanja.spellings(w)))

    def _invented(self, w: str, best) -> bool:
        """Is `w` a word no dictionary knows, of four syllables or more, that Kiwi does not read as
        one token: HanDic lacks it and wordfreq does not list it (감기대회, 개구리가게)?"""
        return (len(w) >= 4 and len(best) >= 2 and HANGUL_WORD.match(w) is not None
                and not self.hanja.nouns(w) and self.freq.get(w, 0) < WORDFREQ_MIN)

    def _invented_cuts(self, w: str, best) -> tuple:
        """The cuts of an unknown word (`_invented`) into two nouns of two syllables or more that
        Kiwi reads alone: such a word is made of both, whatever reading Kiwi makes up for it (감기대회
        = 감/VV + 기 + 대회, 개구리가게 = 개구리 + 가/JKS + 게/EC), so it contains each (RULES 4.3)."""
        if not self._invented(w, best):
            return ()
        return tuple((left, right) for left, right, siot in self._cuts(w)
                     if not siot and len(left) >= 2 and len(right) >= 2
                     and self._known_alone(left) and self._known_alone(right))

    def _h_nouns(self, w: str, best) -> tuple[str, ...]:
        """The nouns of a compound whose first word once ended in ㅎ, which aspirates the next
        consonant (한글 맞춤법 31항, 표준어 규정 7항: 수탉 = 수 + 닭, 암퇘지 = 암 + 돼지, 수캉아지 = 수 +
        강아지, 살코기 = 살 + 고기, 안팎 = 안 + 밖): the word is one common noun
        to Kiwi, known or not, and no loanword; the rest as written is no common noun (탉, 퇘지, 캐; 코기
        is a name) while with its plain consonant it is a common noun Kiwi reads alone; and HanDic does
        not spell the whole with a Hanja prefix (수평선 = 水平線 holds no 병선)."""
        if len(best) != 1 or best[0].tag != "NNG" or best[0].form != w or self.hanja.loans(w):
            return ()
        out = []
        for prefix, rest, noun in _h_cuts(w):
            if (rest in self._single and noun in self._single and not self._known_alone(rest, ("NNG",))
                    and self._known_alone(noun, ("NNG",))
                    and not any(spell and not HANGUL_SYLLABLE.match(spell[0]) for _, _, spell, _, _ in self.hanja.nouns(w))):
                out.append(noun)
        return tuple(out)

    def _dictionary_parts(self, w: str, siot_only: bool = False) -> dict:
        """Parts of a lexical noun Kiwi does not split (see the module doc)."""
        parts: dict[str, bool] = {}
        def alone(x: str) -> bool:  # a one-syllable name reading (다리미's 미/NNP) is no part
            return self._known_alone(x, ("NNG",) if len(x) == 1 else ("NNG", "NNP"))

        for left, right, siot in self._cuts(w):
            if siot:
                known = lambda x: alone(x) or self.freq.get(x, 0) >= WORDFREQ_MIN or self._noun_word(x)
                if known(left) and known(right):
                    strong = len(left) >= 2 or len(right) >= 2 or self._siot_compound(w, len(left) - 1)
                    parts[left] = parts.get(left, False) or strong
                    parts[right] = parts.get(right, False) or strong
                continue
            if len(w) < 3 or siot_only:
                continue
            if len(right) >= 2 and alone(right) and (alone(left) or self._nominal(left) or len(left) <= 2):
                parts[right] = True
                if len(left) >= 2 and alone(left):
                    parts[left] = True
            if len(left) >= 2 and alone(left) and (alone(right) or self._nominal(right)):
                parts[left] = True
                if alone(right):
                    parts[right] = True
        parts.pop(w, None)
        return parts

    # -- public --------------------------------------------------------------------------------
    def info(self, word: str) -> WordInfo:
        return self.info_many([word])[0]

    def info_many(self, words) -> list[WordInfo]:
        norm = [normalize(w, "ko") for w in words]
        todo = sorted({w for w in norm if w not in self._info})
        if todo:
            self._info.update(self.store.get_many(todo))
            todo = [w for w in todo if w not in self._info]
        if todo:
            if len(todo) >= PRELOAD:
                self.freq.preload()
            before = set(self._info)
            self._build_many(todo)
            self.store.put_many(self._info[w] for w in self._info.keys() - before)
        return [self._info[w] for w in norm]

    def _build_many(self, todo: list[str]) -> None:
        multi = [w for w in todo if SPLIT.search(w)]
        pieces = sorted({p for w in multi for p in SPLIT.split(w) if p} | {w.replace(" ", "").replace("-", "") for w in multi})
        simple = [w for w in todo if not SPLIT.search(w)]
        simple_all = sorted(set(simple) | {p for p in pieces if p not in self._info})
        # a listed variant spelling has its canonical spelling's parts too (쇠고기 = 소고기 = 소 + 고기;
        # not the loanword rule's spellings, which need not be words: 모자이크 -> 모자익)
        canons = {w: c for w in simple_all if (c := self.tables.variants.get(w, w)) != w}
        simple_all = sorted(set(simple_all) | {c for c in canons.values() if c not in self._info})
        hangul = [w for w in simple_all if HANGUL_WORD.match(w)]
        results = dict(zip(hangul, self._analyze_many(hangul)))
        # Forms whose stand-alone score or reading the rules need.
        need = set()
        for w, res in results.items():
            best = res[0][0]
            content = [t.form for t in best if t.tag in CONTENT or t.tag == "NR"]
            if len(content) >= 2:
                need.update(content)
            if len(best) == 1 and best[0].tag == "NNP" and len(w) >= 3:
                need.update((w[:-1], w[-1]))
            invented = self._invented(w, best)
            for left, right, siot in self._cuts(w):
                if siot or (len(best) == 1 and best[0].tag in ("NNG", "NNP")) or invented:
                    need.update((left, right))
            need.update(_derivation_bases(w, best))
            need.update(_ri_bases(w, best))
            need.update(_colour_bases(w, best))
            need.update(_noun_bases(w, best))
            need.update(noun for _, noun, _ in _l_cuts(w))
            need.update(x for _, rest, noun in _h_cuts(w) for x in (rest, noun))
            if len(w) >= 3:
                need.add(w[:-1])
            need.update(w[: -len(x)] for x in NATIVE_SUFFIXES if w.endswith(x) and len(w) > len(x))
            if w.endswith("님"):
                need.update((w[:-1] + "니", w[:-1] + "지"))
            if ji := _ji_noun(w, best):
                need.add(ji)
            if held := _held_noun(w, best):
                need.add(held)
        conj = {w: self._conjugate(res[0][0]) for w, res in results.items() if _predicate(w, res[0][0])}
        for w, res in results.items():  # a predicate Kiwi reads best as a name or noun (붓다/NNP, 푸다)
            if w not in conj and (stem := _verb_reading(w, res)) is not None:
                conj[w] = self._conjugate([stem, None])
        irregular = {w: _irregular_bases(w) for w in results}
        need.update(d for bases in irregular.values() for d in bases)
        self._singles(need | {f for forms in conj.values() for f in forms})
        irregular = {w: self._irregular_of(w, bases, results[w][0][0]) for w, bases in irregular.items() if bases}
        # a noun with particles, the copula or a suffix in its best reading (등산을, 눈사람이다,
        # 등산하다) holds what the noun holds (RULES 4.3: an inflection of a word containing 산)
        heads = {w: c[0] for w, res in results.items() if w not in self._info
                 and (c := self._accept(res[0][0], w, short_noun_particle=True))
                 and len(c) == 1 and c[0] != w and len(c[0]) >= 2 and HANGUL_WORD.match(c[0])}
        # the noun a word is with particles or the copula only (공주만, 사기가, 태양이다: its form) or
        # derived from (안경적인, 목성하다: a part)
        inflected = {w: h for w, res in results.items() if w not in self._info and (h := _particle_head(w, res))[0]}
        missing = sorted({h for h, _ in inflected.values()} | set(heads.values()))
        missing = [h for h in missing if h not in self._info and h not in results]
        if missing:
            self._build_many(missing)
        for w in simple_all:
            if w in self._info:
                continue
            if w in results:
                info = self._build(w, results[w])
                if conj.get(w):  # a verb's own forms, even those Kiwi reads otherwise (우는 of 울다)
                    more = {f for f in conj[w] if self._single[f][3] > 1}  # not a word of its own (산)
                    more.add(HOMOGRAPH + w)  # but the same word as its homographs (지은 of 짓다, below)
                    info = replace(info, forms=info.forms | more)
                if irregular.get(w):  # an irregular form of a predicate by the paradigm (지은, 논, 추위)
                    info = replace(info, forms=info.forms | irregular[w])
                self._info[w] = info
            else:
                self._info[w] = self._plain(w)
        for w, h in [*heads.items(), *((w, h) for w, (h, _) in inflected.items())]:
            info = self._info[w]
            more = {p: strong for p, strong in self._info[h].parts.items() if p not in info.parts and p != w}
            if more:
                self._info[w] = replace(info, parts={**info.parts, **more})
        for w, (h, derived) in inflected.items():  # RULES 4.3, whatever the Hanja of the whole say
            info = self._info[w]
            if derived:
                self._info[w] = replace(info, parts={**info.parts, h: True})
            else:  # with the loanword's source word: 피아노를 is piano's form as 피아노 is (PIANO visible)
                source = {f for f in self._info[h].forms if not HANGUL_WORD.match(f) and HOMOGRAPH not in f}
                self._info[w] = replace(info, forms=info.forms | {h} | source)
        for w, c in canons.items():
            info, canon = self._info[w], self._info[c]
            parts = {**canon.parts, **info.parts}
            self._info[w] = replace(info, parts=parts)
        for w in simple_all:  # every spelling the variant table lists is a word (RULES 4.6/4.7: 쵸콜렛, 수퇘지)
            if w in self.tables.variants and not self._info[w].real:
                self._info[w] = replace(self._info[w], real=True)
        for w in multi:
            self._info[w] = self._build_multi(w)

    def _sino_head(self, w: str) -> bool:
        """Is `w` a Sino-Korean noun of three syllables or more closed by a Hanja syllable (신호등 =
        信號燈, 냉장고 = 冷藏庫) that cannot be cut after its first syllable instead (동시대 = 동 + 시대,
        명장면 = 명 + 장면, 수요일 = 수 + 요일: the rest is a noun Kiwi reads alone)?"""
        if not _sino_last(self.hanja.spellings(w), w):
            return False
        self._singles({w[1:]})
        return not self._known_alone(w[1:], ("NNG",))

    def _bound(self, syllable: str) -> bool:
        """Is a one-syllable part mostly a bound Sino-Korean syllable (RULES 4.4: 관 of 도서관 and
        미술관, 장, 사, 복) rather than a word of its own (밥 of 김밥, 홀 of 블랙홀, 꽃, 집)? Listed in
        the suffix table (data/clues/ko_bound.txt), or in wordfreq: the syllable said alone is
        rarer than `BOUND_RATIO` times the words of two to four syllables that end with it."""
        if syllable in self.tables.bound:
            return True
        table = self._endings
        if table is None:
            table = {}
            for word, f in self.freq.items():
                if 2 <= len(word) <= 4 and HANGUL_WORD.match(word):
                    table[word[-1]] = table.get(word[-1], 0.0) + f
            self._endings = table
        ending = table.get(syllable, 0.0)
        return ending > 0 and self.freq.get(syllable, 0.0) < BOUND_RATIO * ending

    def _by_origin(self, w: str, parts: dict, lexical: bool, keep: str = "") -> None:
        """Parts by meaning where the Hanja tell (`engine.clues.hanja`): a part whose syllables
        there mean something else goes (산소 = 酸素 has no 산, 도시락 no 도시), and a one-syllable
        word the Hanja show inside a lexical noun comes in as a weak part (기차 = 汽車: 차). `keep`,
        the name a proper noun is made of (화성 of 화성시, 華城), stays whatever its Hanja: a name
        spelled like a word is that word (RULES 4.6)."""
        for p in list(parts):
            if p != keep and self.hanja.is_part(p, w) is False:
                del parts[p]
        if lexical and len(w) >= 2:
            for syllable in dict.fromkeys(w):
                if syllable not in parts and self.hanja.is_part(syllable, w):
                    parts[syllable] = False

    def _one_name(self, w: str) -> bool:
        """Does HanDic know `w` whole only as a name spelled all in Hangul (a transliteration: 멕시코,
        모로코, 필리핀, 브라질), not ending in a place unit (논현동)? Such a name is one word: RULES
        4.3, it holds no 코, 핀 or 브라 (두만강 = 豆滿江, 아마존강 = 아마존江, 동유럽 = 東유럽 keep theirs)."""
        names = [spell for _, tag, spell, _, _ in self.hanja.nouns(w) if tag == "NNP" and spell]
        return (bool(names) and w[-1] not in PLACE_UNITS
                and all(len(HANGUL_SYLLABLE.findall(spell)) == len(spell) for spell in names))

    def _place_name(self, w: str, best, lexical: bool) -> str:
        """The name a Sino-Korean place name is made of before its unit (화성 of 화성시, 부산 of
        부산역), when Kiwi knows it alone; "" otherwise (보르도 has no Hanja, 청계천 no unit)."""
        if (lexical and best.tag == "NNP" and len(w) >= 3 and w[-1] in PLACE_UNITS
                and self._known_alone(w[:-1], ("NNG", "NNP")) and self.hanja.spellings(w) - {w}):
            return w[:-1]
        return ""

    def _accidental_derivation(self, noun: str, verb: str) -> bool:
        """Does data/clues/ko_derived_nouns.tsv (built offline by experiments/tools/build_ko_parts.py
        --derived) score the tie of this `_noun_bases` pair below `DERIVED_Z_MIN` (고개 / 고다)?"""
        z = self.derived_nouns.get((noun, verb))
        return z is not None and z < DERIVED_Z_MIN

    def _name_head(self, w: str, best) -> str:
        """The common noun a proper noun ends with in HanDic's or Kiwi's best reading, when it is a
        Sino-Korean word of two syllables or more (세종대왕 = 세종/NNP + 대왕/NNG, 大王; 광개토대왕 =
        광개토/NNP + 대왕/NNG in Kiwi), else "" (a person's name such as 정준하 ends in no common noun;
        한라산 is one name, read by the name + noun rule)."""
        readings = self.hanja.readings(w)
        if readings and len(readings[0]) >= 2:
            surface, tag, spell, _, loan = readings[0][-1]
            if tag == "NNG" and len(surface) >= 2 and w.endswith(surface) and not loan and spell and spell != surface:
                return surface
        if len(best) >= 2 and best[-1].tag == "NNG" and len(best[-1].form) >= 2 and w.endswith(best[-1].form):
            head = best[-1].form
            if any(sp != head for sp in self.hanja.spellings(head)) and not self.hanja.loans(head):
                return head
        return ""

    def _find_foreign(self, w: str) -> str:
        """The English word a Hangul clue transliterates (RULES 4.6: 삭스 for socks), or "": only
        for a word HanDic does not know (its loanwords, and the loanword table's, are judged as
        words) and that HanDic does not read as a form of known words (보일 = 보 + 이 + ㄹ). Nor for
        another spelling of such a word (the variant table's 케잌 of 케이크, `loan_canon`'s 쥬스 of 주스):
        the same word (RULES 4.6), judged as it is."""
        if not HANGUL_WORD.match(w) or w in self.tables.loanwords or self.hanja.knows(w):
            return ""
        if w in self.tables.variants:  # a listed spelling of a known word or loanword (케잌 of 케이크)
            canon = self.tables.variants[w]
            if canon != w and (canon in self.tables.loanwords or self.hanja.knows(canon)):
                return ""
        elif len(canon := loan_canon(w)) == len(w) and canon != w and (
                canon in self.tables.loanwords and not self.tables.loanwords[canon].refused or self.hanja.loans(canon)):
            return ""  # a loanword with its y after ㅈ/ㅊ (쥬스 of 주스); not a final 트/크/프 (클리프 is no 클립)
        from engine.clues.transliterate import source

        return source(w, loan_canon(w))

    def _canon(self, w: str) -> str:
        """The spelling that stands for all of a word's spellings (RULES 4.6): the variant table's,
        else the loanword spelling rule's (`loan_canon`: 로보트 = 로봇)."""
        return self.tables.variants.get(w) or loan_canon(w)

    def _conjugate(self, best) -> set[str]:
        """The common conjugated forms of a dictionary-form verb or adjective (RULES 4.3), made by
        Kiwi itself, irregular stems included (울다: 우는, 웁니다; 걷다: 걸어, 걸음). `best` is its
        reading, or [(stem, tag), None]."""
        stem = [t if isinstance(t, tuple) else (t.form, t.tag) for t in best[:-1]]
        out = set()
        for ending in ENDINGS:
            try:
                out.add(self.kiwi.join([*stem, *ending]))
            except (ValueError, RuntimeError):  # pragma: no cover - an ending Kiwi cannot attach
                continue
        return out

    def _paradigm(self, base: str) -> frozenset:
        """The conjugated forms (`_conjugate`) of a dictionary form Kiwi reads alone as a predicate,
        made from that reading's stem and tag (짓/VV-I: 지은, 지어; 벗/VV-R: 벗은, 벗어)."""
        if base not in self._paradigms:
            stem = self._stems.get(base)
            self._paradigms[base] = frozenset(self._conjugate([stem, None])) if stem else frozenset()
        return self._paradigms[base]

    def _irregular_of(self, w: str, bases, best) -> frozenset:
        """RULES 4.3 (inflection) and 4.6 (words spelled the same are the same word): the forms that
        tie `w` to the predicates of `_irregular_bases` whose paradigm, made by Kiwi from the
        predicate's own reading (its irregular class: 짓/VV-I, 벗/VV-R), has `w` spelled with the
        stem changed (지은, 지어 of 짓다; 논, 노는 of 놀다; 걸어 of 걷다; 파래 of 파랗다; 써 of 쓰다),
        or that `w` is the -위 noun of (추위 of 춥다, an ㅂ-irregular adjective: 추워). A word that is
        not a word of its own, or a -위 noun, gets the predicate as a form (both ways: 춥다 blocks
        추위 and 추위 blocks 춥다, like 높이); a word of its own spelled like such a form (지은, a
        name; 논, 노래) gets only the predicate's homograph mark, which it shares with the predicate
        alone: 논 is the same word as 놀다 but not as 놀았다, and 놀다 does not contain the 논 of 논밭."""
        out = set()
        alone = len(best) == 1
        for base in bases:
            if base not in self._stems:
                continue
            if base.endswith("다") and w.endswith("위") and len(w) >= 2 and alone and best[0].tag == "NNG":
                if self._stems[base][1].startswith("VA") and w[:-1] + "워" in self._paradigm(base):
                    out.add(base)  # 추위 of 춥다 (추워), 더위 of 덥다
                continue
            if w in self._paradigm(base) and not _spells(base[:-1], w):
                out.add(HOMOGRAPH + base if alone else base)
        return frozenset(out)

    def _plain(self, w: str) -> WordInfo:
        canon = self._canon(w)
        return WordInfo(w, canon, frozenset({w, canon}), {}, bool(self.freq.get(w, 0) >= WORDFREQ_MIN), w.isdigit())

    def _build_multi(self, w: str) -> WordInfo:
        pieces = [p for p in SPLIT.split(w) if p]
        joined = "".join(pieces)
        parts: dict[str, bool] = {}
        for p in pieces:
            info = self._info[p]
            parts[p] = True
            for q, strong in info.parts.items():
                parts[q] = parts.get(q, False) or strong
        real = all(self._info[p].real for p in pieces)
        canon = self._canon(w)
        return WordInfo(w, canon, frozenset({w, joined, canon}), parts, real, False)

    @staticmethod
    def _accept(tokens, word: str, short_noun_particle: bool = False):
        """Noun pieces of one analysis, or None when the analysis is not a noun reading.

        A particle after a one-syllable noun counts only in the word's best reading
        (`short_noun_particle`) or when the particles make two syllables or more (강에서, 산에:
        강 + 에서, 산 + 에; not 차이, whose best reading is the noun 차이)."""
        content: list[str] = []
        i, n = 0, len(tokens)
        if n and tokens[0].tag in ("MM", "XPN"):
            i = 1
        while i < n:
            t = tokens[i]
            if t.tag in CONTENT:
                if t.oov or t.form not in word:
                    return None
                content.append(t.form)
            elif t.tag == "XSN" and content:
                pass
            elif t.tag.startswith("J") and content and (
                len(content[-1]) >= 2 or short_noun_particle
                or sum(len(HANGUL_SYLLABLE.findall(x.form)) for x in tokens[i:]) >= 2
            ):
                if not all(x.tag.startswith("J") for x in tokens[i:]):
                    return None
                break
            elif t.tag == "VCP" and content and short_noun_particle:
                # the copula 이다 with its endings, in the word's best reading only (사람이다,
                # 사과다, 학교였다: the noun said as a predicate; 사이다 is the noun 사이다)
                if not all(x.tag.startswith("E") for x in tokens[i + 1:]):
                    return None
                break
            elif _predicate_tag(t.tag) and content:
                # XSA-I: Kiwi marks an irregular conjugation (사랑스럽다 = 사랑 + 스럽 + 다)
                if not all(x.tag.startswith("E") for x in tokens[i + 1:]):
                    return None
                if getattr(t, "len", 1) == 0:  # a suffix the word does not spell: 입다 is no 입 + 하다
                    return None
                break
            else:
                return None
            i += 1
        return content or None

    def _native_derivations(self, w: str, best, parts: dict, lexical: bool) -> None:
        """Parts of native derivations Kiwi reads whole (tenth pass, RULES 4.3/4.4): a noun before a
        suffix that dropped its ㄹ (따님 of 딸, 바느질 of 바늘) or in Kiwi's own cut there (소나무 =
        솔 + 나무, not 소), a noun before a native noun suffix (가난뱅이, 사냥꾼), a kinship word
        before its honorific -님 (할머님 of 할머니, 아버님 of 아버지), and the noun of a noun + 지다
        predicate in any form (멋지다, 멋진, 기름지다)."""
        native = lexical and self.hanja.spellings(w) == {w} and not self.hanja.loans(w)
        for letters, noun, rest in _l_cuts(w) if native else ():
            if not self._known_alone(noun, ("NNG",)):
                continue
            if rest in L_DROP_SUFFIXES:
                parts[noun] = bool(parts.get(noun)) or len(noun) >= 2
            elif (len(rest) >= 2 and letters in parts and rest in parts
                  and self.freq.get(noun, 0) >= L_DROP_RATIO * self.freq.get(letters, 0)):
                # not where the ㄹ noun is far rarer than Kiwi's own piece (배나무 = 배, not 밸 + 나무)
                del parts[letters]
                parts[noun] = len(noun) >= 2 or len(rest) >= 2
        for suffix in NATIVE_SUFFIXES if lexical else ():
            rest = w[: -len(suffix)]
            if w.endswith(suffix) and rest in self._single and self._known_alone(rest, ("NNG",)):
                parts[rest] = bool(parts.get(rest)) or len(rest) >= 2
                break
        if lexical and w.endswith("님") and len(w) >= 3:  # 할머님, 어머님 of 할머니, 어머니; 아버님 of 아버지
            for base in (w[:-1] + "니", w[:-1] + "지"):
                if base in self._single and self._known_alone(base, ("NNG",)) and self.hanja.nouns(base):
                    parts[base] = True
        held = _held_noun(w, best)  # 맛있다, 재미없는: noun + 있다/없다 read as one adjective
        if held and held in self._single and self._known_alone(held, ("NNG",)):
            parts[held] = bool(parts.get(held)) or len(held) >= 2
        ji = _ji_noun(w, best)
        if (ji and ji in self._single and self._known_alone(ji, ("NNG",)) and self.hanja.spellings(ji) == {ji}
                and not self.hanja.loans(ji) and (len(ji) >= 2 or best[0].tag.startswith("VA"))):
            parts[ji] = bool(parts.get(ji)) or len(ji) >= 2

    def _build(self, w: str, analyses) -> WordInfo:
        best_tokens, best_score = analyses[0][0], analyses[0][1]
        parts: dict[str, bool] = {}
        affixes: set[str] = set()
        lemmas: set[str] = set()
        named_parts: set[str] = set()
        words: dict[str, str] = {}  # one-syllable words of their own here -> a part they need beside them
        lexical = len(best_tokens) == 1 and best_tokens[0].tag in ("NNG", "NNP") and best_tokens[0].form == w
        # a 사이시옷 is undone in nouns only: 멋지다 is no 머 + 지다, 짓다 no 지 + 다
        noun_reading = not any(_predicate_tag(t.tag) for t in best_tokens)
        if (len(best_tokens) >= 2 and best_tokens[0].tag == "NP" and w.startswith(best_tokens[0].form[:-1])
                and all(t.tag.startswith("J") for t in best_tokens[1:])):
            lemmas.add(best_tokens[0].form)  # a pronoun with its particles: 우린, 우리가 of 우리; 난 of 나
        for tokens, score in analyses:
            gap = best_score - score
            if gap >= MARGIN:
                continue
            affixes.update(t.form for t in tokens if t.tag in ("XSN", "XPN") and len(t.form) == 1)
            if (
                gap < VERB_MARGIN
                and tokens
                and tokens[0].tag[:2] in ("VV", "VA")
                and not tokens[0].oov
                and all(t.tag.startswith("E") for t in tokens[1:])
                # a lexical noun is a verb's form only as its nominal form (달리기), not by a
                # reading it merely allows (오리 is a duck, not 오 + 리 of 오다)
                and (not lexical or gap == 0 or tokens[-1].form in NOMINAL_ENDINGS)
            ):
                lemmas.add(tokens[0].form + "다")  # 먹었다, 아름다운, 달리기 -> 먹다, 아름답다, 달리다
            if (gap < VERB_MARGIN and len(tokens) >= 3 and tokens[0].tag in ("NNG", "XR", "MAG")
                    and tokens[1].tag.split("-")[0] in ("XSV", "XSA") and tokens[1].form == "하"
                    and getattr(tokens[1], "len", 1) > 0  # spelled: 심다 is no 심 + 하다
                    and all(t.tag.startswith("E") for t in tokens[2:])):
                lemmas.add(tokens[0].form + "하다")  # 청소했다, 조용한 -> 청소하다, 조용하다
            content = self._accept(tokens, w, short_noun_particle=gap == 0)
            if not content or content == [w]:
                continue
            if gap > 0 and not _refines(tokens, best_tokens):
                continue  # a reading that cuts across the best one's pieces (고기압 is 고 + 기압)
            if gap >= VERB_MARGIN and any(t.tag[:2] in ("VV", "VA") for t in tokens):
                continue
            if lexical and len(w) == 2 and len(content) == 2 and gap >= LEX_MARGIN:
                if not all(c in self._single and self._known_alone(c, ("NNG",)) for c in content):
                    continue  # 불안 is not 불 + 안, 별명 not 별 + 명; 눈물 is 눈 + 물
            if lexical and len(content) == 1 and len(content[0]) == 1 and any(t.tag == "XSN" for t in tokens):
                continue  # 강당 is not 강 + 당
            if lexical and any(t.tag == "NNP" and len(t.form) == 1 for t in tokens):
                continue  # a one-syllable name in a lexical noun is a surname reading (강/NNP 당)
            named = any(t.tag == "NNP" for t in tokens if t.form in content) and len(content) > 1
            if named:
                named_parts.update(c for c in content if c != w)
            long_sibling = len(content) > 1 and any(len(c) >= 2 for c in content)
            for c in content:
                if c == w:
                    continue
                strong = (len(c) >= 2 or long_sibling) and not named
                parts[c] = parts.get(c, False) or strong
                if len(c) == 1 and not named:  # a word of its own here (이슬 + 비, 연 + 날리기, 떡 + 국): 4.4
                    if long_sibling or _before_long_verb(tokens, c):
                        words[c] = ""
                    elif len(w) == 2 and len(content) == 2 and _not_sino(self.hanja.spellings(w)):
                        words.setdefault(c, w.replace(c, "", 1))  # if the other syllable stays a part too
        one_name = len(best_tokens) == 1 and best_tokens[0].tag == "NNP" and self._one_name(w)
        if len(best_tokens) == 1 and best_tokens[0].tag == "NNP" and len(w) >= 3 and not one_name:
            head, last = w[:-1], w[-1]
            if self._known_alone(last):
                parts.setdefault(last, False)
                if self._known_alone(head):
                    parts[head] = True
        for p in named_parts:  # parts of a name: never shared with another compound (카네기홀)
            if parts.get(p) is False:
                parts[p] = None
        if lexical and not parts and len(w) >= 2 and not one_name:  # (no 모로 + 코 in 모로코)
            parts = self._dictionary_parts(w)
        elif noun_reading and any(left != w[: len(left)] for left, _, _ in self._cuts(w)):  # a 사이시옷
            # not in a prefix the best reading has (헛기침 = 헛/XPN + 기침: no 허 + 기침)
            prefix = len(best_tokens[0].form) if best_tokens and best_tokens[0].tag == "XPN" else 0
            for p, strong in self._dictionary_parts(w, siot_only=True).items():
                if prefix and len(p) == prefix and w.startswith(p[:-1]) and p not in parts:
                    continue
                parts[p] = bool(parts.get(p)) or strong
        for p in list(parts):  # a part with a 사이시옷 of its own: 귓속말 = 귓속 + 말, 귓속 = 귀 + 속
            if len(p) >= 2 and p != w and any(siot for _, _, siot in self._cuts(p)):
                self._singles({x for left, right, siot in self._cuts(p) if siot for x in (left, right)})
                for q, strong in self._dictionary_parts(p, siot_only=True).items():
                    if q != w and q not in parts:
                        parts[q] = strong if parts[p] else parts[p]
        for c in _clause_nouns(w, best_tokens):  # 사과를먹다, 눈물이나: a noun said with its verb (RULES 4.3)
            parts[c] = bool(parts.get(c)) or len(c) >= 2
        for left, right in self._invented_cuts(w, best_tokens):  # 감기대회, 개구리가게 (RULES 4.3)
            parts[left] = parts[right] = True
        for noun in self._h_nouns(w, best_tokens):  # 수탉, 암퇘지, 수캉아지, 살코기, 안팎 (RULES 4.3/4.4)
            parts[noun] = bool(parts.get(noun)) or len(noun) >= 2  # 암캐's 개 shares nothing with 개구리's
        self._native_derivations(w, best_tokens, parts, lexical)
        for p in list(parts):
            if parts[p] and (p in NATIVE_SUFFIXES or len(p) == 1 and (p in affixes or self._bound(p))):
                parts[p] = False  # a suffix (꾸러기), or a syllable used mostly inside words (도서관's 관)
        self._by_origin(w, parts, lexical, keep=self._place_name(w, best_tokens[0], lexical))
        if (noun := _adnominal_noun(w, analyses)) and parts.get(noun, False) is not None:
            parts[noun] = True  # an adjective or verb's adnominal form before it: 어린아이, 큰사과 (RULES 4.3)
        head = w[:-1]
        if (len(w) >= 3 and head not in parts and noun_reading and head in self._single
                and not any(t.tag == "NNP" for t in best_tokens)
                and self._known_alone(head, ("NNG",)) and not self.hanja.loans(w)
                and (self._bound(w[-1]) or self._sino_head(w))
                and self.hanja.is_part(head, w)):
            # a Sino-Korean word before its bound suffix (大學 + 校) or a Sino-Korean syllable (信號 +
            # 燈, 冷藏 + 庫), however Kiwi cuts
            parts[head] = True
        for p in self.meaning_parts.get(w, ()):  # a part by meaning of a native noun (눈썹: 눈)
            if p != w and parts.get(p, False) is not None:
                parts[p] = True
        for base in _derivation_bases(w, best_tokens):  # 높이, 조용히, 깨끗이, 가까이, 자연스레
            root = _adjective(base, self._tokens.get(base, ()))
            if root is None:
                continue
            lemmas.add(base)  # RULES 4.3: a form of the adjective (and of everything it is made of)
            if root and root != w and parts.get(root, False) is not None:
                parts[root] = bool(parts.get(root)) or len(root) >= 2  # 자연 in 자연스레, as in 자연스럽다
        for base in _ri_bases(w, best_tokens):  # 빨리, 달리, 게을리 of 빠르다, 다르다, 게으르다; 멀리
            if _adjective(base, self._tokens.get(base, ())) is not None:
                lemmas.add(base)
                break
        for base in _colour_bases(w, best_tokens):  # 빨강, 노랑, 파랑 of 빨갛다, 노랗다, 파랗다
            if _adjective(base, self._tokens.get(base, ())) == "" and self.hanja.spellings(w) == {w}:
                lemmas.add(base)   # a native word only: 허영 (虛榮) is no 허옇다
        derived = _noun_bases(w, best_tokens) if lexical else ()
        if derived and self.hanja.spellings(w) == {w} and not self.hanja.loans(w):
            for base in derived:  # 지우개, 덮개, 베개, 놀이, 울보 of a native stem
                if (base in self._stems and w[-1] not in self.meaning_parts.get(w, ())
                        and not self._accidental_derivation(w, base)):
                    lemmas.add(base)
                    for p in (w[:-1], w[-1]):  # the stem and the suffix are no nouns here (지우개's 개)
                        if p not in self.meaning_parts.get(w, ()):
                            parts.pop(p, None)
        if len(w) >= 3 and w[-1] not in parts and any(t.tag == "NNP" for t in best_tokens):
            head = self._name_head(w, best_tokens)
            if head and self.hanja.is_part(w[-1], head):
                parts[w[-1]] = False  # a name's Sino-Korean head word: 세종대왕 = 세종 + 대왕 (大王): 왕
        for gloss in self.hanja.loans(w):  # RULES 4.6/4.3: the loanword's English source word
            lemmas.add(gloss)  # 재킷 = jacket, so two spellings of it are one word
            for base in _english_bases(gloss):
                parts.setdefault(base, True)  # 피아니스트 = pianist, built on piano (피아노)
        for p, strong in list(parts.items()):  # a loanword part's source word: 피아노학원 holds piano
            if strong and p != w and len(p) >= 2 and HANGUL_WORD.match(p):  # (PIANO visible), as 피아노
                for gloss in self.hanja.loans(p):
                    parts.setdefault(gloss, True)
        numbers = self.tables.number_values or {}
        if (len(best_tokens) >= 2 and any(t.tag == "NR" for t in best_tokens)
                and all(t.tag in ("NR", "NNB", "XSN") or t.tag.startswith("J") for t in best_tokens)):
            for t in best_tokens:  # RULES 4.3: a numeral with a counter or -째 holds the number word
                if t.tag == "NR" and t.form != w and t.form in numbers:  # (일곱째, 일곱번째, 백번, 열둘)
                    parts[t.form] = bool(parts.get(t.form)) or len(t.form) >= 2
        elif (len(best_tokens) == 1 and best_tokens[0].tag == "NR" and w.endswith("째")
                and w[:-1] in numbers):
            parts[w[:-1]] = bool(parts.get(w[:-1])) or len(w) >= 3  # 둘째, 다섯째: one token NR
        oov = any(t.oov for t in best_tokens)
        content_tokens = [t for t in best_tokens if t.tag in CONTENT or t.tag == "NR"]
        if oov:
            real = self.freq.get(w, 0) >= WORDFREQ_MIN
        elif len(content_tokens) <= 1:
            real = True
        else:
            alone = sum(self._single[t.form][0] for t in content_tokens)
            real = (best_score - alone >= COMPOUND_GAIN) or self.freq.get(w, 0) >= WORDFREQ_MIN
        number = len(best_tokens) == 1 and best_tokens[0].tag == "NR"
        head = best_tokens[0].form if best_tokens else ""
        if (len(best_tokens) >= 2 and best_tokens[0].tag == "NR"
                and (head in numbers or head.endswith("째") and (head[:-1] in numbers or head == "첫째"))
                and head not in self.tables.numeral_only and _number_particles(best_tokens[1:])):
            number = True  # RULES 4.1: a native number word with particles (둘이, 셋으로, 하나로) is that number,
            # also with 이 counting people (둘이서), the copula (둘이야, 하나예요) or as an ordinal (둘째로)
        canon = self._canon(w)
        lemmas.discard(w)
        words = frozenset(c for c, other in words.items() if parts.get(c) is False and (not other or other in parts))
        position = _position_reading(w, best_tokens, lemmas, self.tables.positions,
                                     lambda p: self.hanja.is_part(p, w) is not False)
        letter = _letter_reading(w, best_tokens, self.tables.letter_words)
        return WordInfo(w, canon, frozenset({w, canon} | lemmas), parts, real, number, words, position, letter)


#: One-syllable units a place's name is followed by (화성시, 강화도, 마포구, 부산역, 고려대): the name
#: before them is a word of its own.
PLACE_UNITS = frozenset("시군구도동읍면역항대")

#: The final consonant ㅂ (index 17), which ㅂ-irregular adjectives drop before -이 (가깝다: 가까이).
BIEUP = 17
#: The final consonant ㄹ (index 8), which a noun drops before ㄴ, ㄷ, ㅅ and ㅈ (initial consonant
#: indices 2, 3, 9, 12: 따님 of 딸, 소나무 of 솔).
RIEUL = 8
_L_DROP_BEFORE = (2, 3, 9, 12)


#: A form mark: HOMOGRAPH + 짓다 is a form of 짓다 and of the words of their own spelled like its
#: irregular forms (지은), and of nothing else (`KoreanAnalyzer._irregular_of`).
HOMOGRAPH = "="

#: Jamo indices: final consonants (ㄹ 8, ㅅ 19, ㄷ 7, ㅂ 17, ㅎ 27) that irregular stems change or
#: drop, and contracted vowels -> the stem's vowel: ㅓ 4 -> ㅡ 18, ㅜ 13 (써, 퍼); ㅏ 0 -> ㅡ (바빠);
#: ㅐ 1, ㅔ 5, ㅒ 3 -> ㅏ 0, ㅓ 4, ㅑ 2 with ㅎ (파래, 누레, 하얘); ㅘ 9, ㅝ 14, ㅕ 6, ㅙ 10 -> ㅗ, ㅜ, ㅣ, ㅚ.
_IRREGULAR_FINALS = (0, 8, 19, 7, 17, 27)
_CONTRACTED = {4: (18, 13), 0: (18,), 1: (0,), 5: (4,), 3: (2,), 9: (8,), 14: (13,), 6: (20,), 10: (11,)}


def _particle_head(word: str, analyses) -> tuple[str, bool]:
    """The noun of two syllables or more that `word` is with particles, the plural 들 or the copula
    only, or derived from with -적, 하다, 되다, 스럽다, -님 or 씨 (RULES 4.3: an inflection of the
    noun, or a word containing it), and whether it is derived (a part, not a form: 노래 is a part of
    노래하다), or ("", False). The best reading must end in a particle, the copula or such a
    suffix's endings (Kiwi may read its start otherwise: 사기가 = 사/VV + 기/ETN + 가/JKS; 태양이다 =
    태양 + 이/JKS + 다/MAG; 온천하다 = 온/MM + 천하 + 이다), and a reading within `MARGIN` must be that
    noun + them (사기/NNG + 가/JKS); a word Kiwi reads as one token (사이다, 제대로) or as a verb's form
    (사라지, 피해야) has none. A reading of the noun + 하다, 되다 or 스럽다 with endings only counts
    whatever the best reading ends in (온천하는 = 온/MM + 천하 + 는/JX; 온천하기 ... + 기/XSN). The
    polite 요 after a particle (사과를요, 사과처럼요: Kiwi tags it an ending or a determiner) is read
    as a particle too."""
    analyses = [(_polite_yo(tokens), score) for tokens, score in analyses]
    best, top = analyses[0]
    if len(best) < 2:
        return "", False
    last = best[-1]
    particles = (last.tag.startswith("J") or (last.tag, last.form) in (
                     ("MAG", "다"), ("XSN", "들"), ("XSN", "적"), ("XSN", "님"), ("XSN", "씨"), ("NNB", "씨"))
                 or last.tag.startswith("E") and any(t.tag == "VCP" or _derives(t) for t in best))
    for tokens, score in analyses:
        if top - score >= MARGIN or len(tokens) < 2 or tokens[0].tag not in ("NNG", "NNP") or tokens[0].oov:
            continue
        head, rest = tokens[0].form, tokens[1:]
        if len(head) < 2 or len(head) >= len(word) or not word.startswith(head) or not HANGUL_WORD.match(head):
            continue
        derived = False
        if rest and (rest[0].form, rest[0].tag) in (("님", "XSN"), ("씨", "NNB"), ("씨", "XSN")):
            rest, derived = rest[1:], True  # an honorific or a title: 목수님, 목수씨 (목수님이, 목수씨가)
        for suffix in ("들", "적"):  # the plural (수성들, 학생들이) and -적 (안경적, 안경적인)
            if rest and (rest[0].tag, rest[0].form) == ("XSN", suffix):
                rest, derived = rest[1:], derived or suffix == "적"
        if particles and (all(t.tag.startswith("J") for t in rest) or rest[0].tag == "VCP" and all(
                t.tag.startswith("E") and (derived or t.tag != "ETM") for t in rest[1:])):
            return head, derived  # (not the adnominal 지구인: 이 + ㄴ, a compound with 인)
        if (len(rest) >= 2 and _derives(rest[0])  # with its endings (과부하 is no 과부 + 하)
                and all(t.tag.startswith("E") for t in rest[1:])):  # 목성하다, best 목/NNG + 성하/VA + 다
            return head, True
    return "", False


def _number_particles(tokens) -> bool:
    """Are the tokens after a number word particles only: case and other particles, 이 counting
    people (둘이서 = 둘 + 이/XSN + 서), or the copula with its endings (둘이야, 하나예요)?"""
    rest = [t for t in tokens if not (t.tag == "XSN" and t.form == "이")]
    if rest and rest[0].tag == "VCP":
        return all(t.tag.startswith("E") and t.tag != "ETM" for t in rest[1:])
    return bool(rest) and all(t.tag.startswith("J") or (t.tag, t.form) == ("MAG", "다") for t in rest)


def _polite_yo(tokens):
    """The tokens without a final polite 요 that follows a particle (사과+를+요/EF, 사과+만+요/MM:
    사과를요 is 사과를 said politely, RULES 4.3), else the tokens as they are."""
    if len(tokens) >= 3 and tokens[-1].form == "요" and tokens[-2].tag.startswith("J"):
        return tokens[:-1]
    return tokens


def _clause_nouns(word: str, best) -> tuple[str, ...]:
    """The nouns of a clause written as one word (사과를먹다 = 사과 + 를 + 먹다, 눈물이나 = 눈물 + 이 +
    나다, 학교에간다): Kiwi's best reading is nouns, then case particles, then a verb or adjective with
    its endings only. The clue holds each noun as a part (RULES 4.3: with 사과 visible, 사과를먹다
    contains it, as 사과나무 does); a noun + verb without a particle (춤추다) is read elsewhere."""
    i = 0
    while i < len(best) and best[i].tag in ("NNG", "NNP") and not best[i].oov and best[i].form in word:
        i += 1
    j = i
    while j < len(best) and best[j].tag.startswith("JK"):
        j += 1
    if (i == 0 or j == i or j >= len(best) or best[j].tag.split("-")[0] not in ("VV", "VA", "VX")
            or not all(t.tag.startswith("E") for t in best[j + 1:])):
        return ()
    return tuple(t.form for t in best[:i] if t.form != word)


def _adnominal_noun(word: str, analyses) -> str:
    """The noun of two syllables or more that ends `word` after an adjective or verb's adnominal
    form in ㄴ (어린아이 = 어리/VA + ㄴ + 아이, 큰사과 = 크/VA + ㄴ + 사과), in a reading within
    `ADNOMINAL_MARGIN` of the best, or "" (클램프 +2.9 is no 클 + 램프; 할수록, in ㄹ, no 수록)."""
    top = analyses[0][1]
    for tokens, score in analyses:
        if (top - score < ADNOMINAL_MARGIN and len(tokens) == 3 and tokens[0].tag in ("VA", "VV")
                and tokens[1].tag == "ETM" and tokens[1].form in ("ᆫ", "은", "는")
                and tokens[2].tag in ("NNG", "NNP") and not tokens[2].oov
                and len(tokens[2].form) >= 2 and word.endswith(tokens[2].form)):
            return tokens[2].form
    return ""


def _derives(token) -> bool:
    """Is the token a spelled verb or adjective suffix of a noun: 하, 되, 스럽 (청소하다, 장화되다)?"""
    return (token.tag.split("-")[0] in ("XSV", "XSA") and token.form in ("하", "되", "스럽")
            and getattr(token, "len", 1) > 0)


def _before_long_verb(tokens, noun: str) -> bool:
    """Is the one-syllable noun followed in this reading by a verb or adjective stem of two syllables
    or more (연/NNG + 날리/VV + 기: 연날리기 = 연 + 날리기, a noun and a word of its own)?"""
    for i, t in enumerate(tokens[:-1]):
        if t.form == noun and t.tag in CONTENT:
            nxt = tokens[i + 1]
            return _predicate_tag(nxt.tag) and not nxt.tag.startswith("XS") and len(nxt.form) >= 2
    return False


def _sino_last(spellings, word: str) -> bool:
    """Does HanDic spell the word's last syllable in Hanja in every meaning (신호등 = 信號燈)?"""
    return bool(spellings) and all(len(s) == len(word) and not HANGUL_SYLLABLE.match(s[-1]) for s in spellings)


def _not_sino(spellings) -> bool:
    """Does HanDic spell the word with a Hangul syllable in every meaning (떡국, 산불 = 山불), so that
    it is no Sino-Korean word of two bound syllables (은행 = 銀行, 기차 = 汽車: RULES 4.1)?"""
    return bool(spellings) and all(HANGUL_SYLLABLE.search(s) for s in spellings)


def _syllable(lead: int, vowel: int, tail: int) -> str:
    return chr(0xAC00 + lead * 588 + vowel * 28 + tail)


def _spells(stem: str, word: str) -> bool:
    """Does `word` spell `stem` unchanged at its start (jamo by jamo: 가 in 간, 벗 in 벗어; not 짓 in
    지은, 놀 in 논, 쓰 in 써)? A regular form does; an irregular one changes or drops a jamo."""
    if not stem or len(word) < len(stem) or word[: len(stem) - 1] != stem[:-1]:
        return False
    a, b = ord(stem[-1]) - 0xAC00, ord(word[len(stem) - 1]) - 0xAC00
    if not (0 <= a < 11172 and 0 <= b < 11172) or a // 28 != b // 28:
        return False
    return a % 28 == 0 or a % 28 == b % 28


def _irregular_bases(word: str) -> tuple[str, ...]:
    """Dictionary forms `word` may be an irregular form of, by the spelling changes of the standard
    irregular classes (candidates only: `_irregular_of` keeps those whose paradigm has the word):
    a stem's last syllable in the word's last three with its final consonant changed or restored
    (ㅅ: 지은 -> 짓다; ㄷ: 걸어 -> 걷다; ㅂ: 도와 -> 돕다; ㅎ: 파란 -> 파랗다; ㄹ: 논, 노는 -> 놀다),
    a contracted 아/어 vowel undone (써 -> 쓰다, 퍼 -> 푸다, 파래 -> 파랗다, 하얘 -> 하얗다), 르
    restored before 라/러 (불러 -> 부르다), and the -위 noun of an ㅂ-irregular adjective (추위 ->
    춥다)."""
    n = len(word)
    if not 1 <= n <= 6 or not HANGUL_WORD.match(word):
        return ()
    out = []
    for k in range(max(1, n - 2), n + 1):
        base, code = word[: k - 1], ord(word[k - 1]) - 0xAC00
        lead, vowel, tail = code // 588, (code // 28) % 21, code % 28
        for t in _IRREGULAR_FINALS:
            if t != tail:
                out.append(base + _syllable(lead, vowel, t) + "다")
        for v in _CONTRACTED.get(vowel, ()):  # 써 -> 쓰, 퍼 -> 푸, 파래 -> 파랗, 봐 -> 보
            for t in (0, 27) if vowel in (1, 3, 5) else (0,):
                out.append(base + _syllable(lead, v, t) + "다")
        if tail == 8 and k < n and word[k] in "라러랐렀":  # 불러 -> 부르다, 골랐다 -> 고르다
            out.append(base + _syllable(lead, vowel, 0) + "르다")
    if n >= 2 and word[-1] == "위":  # 추위 -> 춥다
        code = ord(word[-2]) - 0xAC00
        if code % 28 == 0:
            out.append(word[:-2] + chr(ord(word[-2]) + BIEUP) + "다")
    return tuple(d for d in dict.fromkeys(out) if d != word)


def _verb_reading(word: str, analyses):
    """(stem, tag) of a reading within `VERB_MARGIN` of the best that reads a dictionary form as a
    verb or adjective stem + 다 (붓다 = 붓/VV-I + 다, though Kiwi's best is a name), else None."""
    best = analyses[0][1]
    for tokens, score in analyses:
        if (best - score < VERB_MARGIN and len(tokens) == 2 and tokens[0].tag[:2] in ("VV", "VA")
                and not tokens[0].oov and tokens[1].form == "다" and word == tokens[0].form + "다"):
            return (tokens[0].form, tokens[0].tag)
    return None


def _derivation_bases(word: str, best) -> tuple[str, ...]:
    """The adjectives a word may be derived from as an adverb or noun (RULES 4.3: a form of the
    visible word), by the regular derivations of Korean grammar; `_build` keeps those that Kiwi
    reads alone as adjectives (`_adjective`). The word must be read whole as one token, an adverb
    (MAG; a noun, NNG, too for the -이 nouns of the first rule):

    * -이 after a stem with a final consonant: 높이, 넓이, 길이, 많이 of 높다, 넓다, 길다, 많다;
    * -히 or -이 of a 하다 adjective: 조용히, 솔직히, 급히 of 조용하다, 솔직하다, 급하다; 깨끗이,
      따뜻이 of 깨끗하다, 따뜻하다 (-이 after a final consonant, as the spelling rules have it);
    * -이 of an ㅂ-irregular adjective, which drops its ㅂ: 가까이, 반가이, 새로이, 자유로이 of
      가깝다, 반갑다, 새롭다, 자유롭다 (-롭다 words);
    * -스레 of a -스럽다 adjective: 자연스레, 조심스레 of 자연스럽다, 조심스럽다.

    A word that merely ends in 히 or 이 has no such adjective (오이: 오 has no final consonant and
    no 옵다; 고양이 is a noun, not an adverb of 고양하다)."""
    if (len(best) == 2 and best[0].tag in ("NNG", "XR", "MAG") and best[1].tag == "XSM" and best[1].form in ("히", "이")
            and word == best[0].form + best[1].form):
        adverb = True  # Kiwi's own adverb suffix (행복히 = 행복 + 히/XSM)
    elif len(word) < 2 or len(best) != 1 or best[0].form != word or best[0].tag not in ("NNG", "MAG"):
        return ()
    else:
        adverb = best[0].tag == "MAG"
    stem, last = word[:-1], word[-1]
    code = ord(stem[-1]) - 0xAC00
    if not 0 <= code < 11172:
        return ()
    out = []
    if last == "이" and code % 28:
        out.append(stem + "다")
    if adverb and (last == "히" or last == "이" and code % 28):
        out.append(stem + "하다")
    if adverb and last == "이" and code % 28 == 0:
        out.append(stem[:-1] + chr(ord(stem[-1]) + BIEUP) + "다")
    if adverb and word.endswith("스레") and len(word) >= 3:
        out.append(word[:-2] + "스럽다")
    return tuple(out)


def _ri_bases(word: str, best) -> tuple[str, ...]:
    """The adjectives an adverb in -리 may come from, in order (RULES 4.3): a 르-irregular one, whose
    르 becomes ㄹ + 리 (빨리, 달리, 게을리, 섣불리 of 빠르다, 다르다, 게으르다, 섣부르다), else an
    ㄹ-stem one (멀리 of 멀다). The word is one adverb (MAG) ending in 리 after a final ㄹ; `_build`
    keeps the first that Kiwi reads alone as an adjective (달리 is of 다르다, not of 달다). 일찍 (of no
    이르다) does not end so."""
    if len(word) < 2 or len(best) != 1 or best[0].form != word or best[0].tag != "MAG" or word[-1] != "리":
        return ()
    code = ord(word[-2]) - 0xAC00
    if not 0 <= code < 11172 or code % 28 != 8:  # ㄹ
        return ()
    return (word[:-2] + chr(ord(word[-2]) - 8) + "르다", word[:-1] + "다")


def _colour_bases(word: str, best) -> tuple[str, ...]:
    """The ㅎ-irregular adjective a colour noun in ㅇ is the noun of (RULES 4.3): 빨강, 노랑, 파랑
    of 빨갛다, 노랗다, 파랗다 (the final ㅇ for the stem's ㅎ). The word is one common noun; `_build`
    keeps the base only for a native word that Kiwi reads alone as a simple adjective (사랑 is of
    no 사랗다, 허영 no 허옇다)."""
    if len(word) < 2 or len(best) != 1 or best[0].form != word or best[0].tag != "NNG":
        return ()
    code = ord(word[-1]) - 0xAC00
    if not 0 <= code < 11172 or code % 28 != 21:  # ㅇ
        return ()
    return (word[:-1] + chr(ord(word[-1]) + 6) + "다",)   # ㅇ (21) -> ㅎ (27)


#: Suffixes that make a noun of a verb's stem (RULES 4.3): -개 (지우개, 덮개, 베개), -보 (울보), -이
#: after a final consonant (놀이, 먹이, 풀이). -기 and -음/-ㅁ are Kiwi's nominal endings already.
NOUN_SUFFIXES = ("개", "보", "이")


#: A derived noun whose tie to its verb scores below this (Kiwi's morpheme embedding, z against the
#: verb's similarities to reference words) is an accident of letters (고개 is not of 고다).
DERIVED_Z_MIN = 1.0


def _noun_bases(word: str, best) -> tuple[str, ...]:
    """The verb or adjective a native noun may be made from with a noun suffix of `NOUN_SUFFIXES`;
    `_build` keeps it when the word is native (HanDic spells it in Hangul: not 품질, 매개, 오보),
    its last syllable is no part of it by meaning (the meaning-part table: 들개 = 들 + 개, a dog),
    Kiwi reads the stem + 다 alone as a verb or adjective (지우다, 덮다, 베다; not 안개's 안다, 오이's
    오다), and the offline embedding check does not call it an accident (`_accidental_derivation`:
    고개 / 고다)."""
    if len(word) < 2 or len(best) != 1 or best[0].form != word or best[0].tag != "NNG":
        return ()
    stem, last = word[:-1], word[-1]
    code = ord(stem[-1]) - 0xAC00
    if last not in NOUN_SUFFIXES or not 0 <= code < 11172 or last == "이" and code % 28 == 0:
        return ()
    return (stem + "다",)


#: English derivational endings of loanwords' source words (pianist of piano, drummer of drum).
_EN_SUFFIXES = ("ist", "er", "ian", "ism", "ing")


def _english_bases(gloss: str) -> tuple[str, ...]:
    """English words a loanword's source word may be derived from (RULES 4.3: 피아니스트 = pianist,
    built on piano): the word less a suffix of `_EN_SUFFIXES`, with a final vowel or e restored or
    a doubled consonant undone (pian + o, danc + e, drumm - m), when it is a common English noun of
    four letters or more (the transliteration table's words: not butte of butter, man of manner).
    They count only where a visible word is a loanword of that source word."""
    if not gloss.isalpha():
        return ()
    from engine.clues.transliterate import english_nouns

    nouns = english_nouns()
    out = []
    for suf in _EN_SUFFIXES:
        stem = gloss[: -len(suf)]
        if gloss.endswith(suf) and len(stem) >= 4:
            out += [stem, stem + "o", stem + "e", stem + "a"]
            if len(stem) >= 5 and stem[-1] == stem[-2]:
                out.append(stem[:-1])
    return tuple(b for b in dict.fromkeys(out) if b in nouns and b != gloss)


def _adjective(word: str, tokens) -> str | None:
    """Is a dictionary form an adjective, by Kiwi's best reading of it alone (`tokens`: (form, tag,
    oov))? Its root noun when it is one (자연 of 자연스럽다, 조용 of 조용하다), "" for a simple one
    (높다), None when it is not an adjective (a verb, an unknown word)."""
    if any(oov for _, _, oov in tokens) or not tokens or tokens[-1][0] != "다":
        return None
    if len(tokens) == 2 and tokens[0][1].split("-")[0] == "VA" and word == tokens[0][0] + "다":
        return ""
    if (len(tokens) == 3 and tokens[0][1] in ("NNG", "XR", "MAG") and tokens[1][1].split("-")[0] == "XSA"
            and word == tokens[0][0] + tokens[1][0] + "다"):
        return tokens[0][0]
    return None


def _refines(tokens, best) -> bool:
    """Does a reading keep every cut of the best one (it may cut finer)? A best reading of one
    token keeps no cut, so every reading refines it."""
    cuts = {t.start for t in tokens}
    return all(t.start in cuts for t in best)


def _predicate_tag(tag: str) -> bool:
    """A verb or adjective stem, or a suffix that makes one (청소/NNG 하/XSV)."""
    return tag[:2] in ("VV", "VA") or tag.split("-")[0] in ("XSV", "XSA")


#: Native suffixes that make a noun of a noun (RULES 4.3/4.4: 장난꾸러기, 가난뱅이, 막내둥이, 사냥꾼);
#: Kiwi reads some as nouns (꾸러기), but they are no part two such words share.
NATIVE_SUFFIXES = ("꾸러기", "투성이", "뱅이", "둥이", "쟁이", "장이", "꾼")

#: Suffixes that drop a noun's final ㄹ (따님 = 딸 + 님, 바느질 = 바늘 + 질, 하느님 = 하늘 + 님).
L_DROP_SUFFIXES = ("님", "질")
#: The ㄹ noun of Kiwi's own cut must be at least this share as frequent (wordfreq) as the piece it
#: replaces: 솔 / 소 0.2 (소나무 = 솔 + 나무), but 밸 / 배 0.02 (배나무, 배다리 hold 배).
L_DROP_RATIO = 0.05


def _l_cuts(word: str) -> tuple[tuple[str, str, str], ...]:
    """(letters, noun, rest) cuts of a word after an open syllable before ㄴ, ㄷ, ㅅ or ㅈ, where a
    noun's final ㄹ may have dropped (RULES 4.3/4.4: 따님 = 딸 + 님, 바느질 = 바늘 + 질, 소나무 = 솔 +
    나무): the letters before the cut, the same read with ㄹ, and the rest. Candidates only:
    `_build` keeps a noun Kiwi reads alone before a suffix of `L_DROP_SUFFIXES`, or in place of
    Kiwi's own cut there (소 + 나무); read so before any noun, 고사리, 모서리 and 사다리 would hold
    골, 몰 and 살."""
    out = []
    for i in range(len(word) - 1):
        code, nxt = ord(word[i]) - 0xAC00, ord(word[i + 1]) - 0xAC00
        if 0 <= code < 11172 and 0 <= nxt < 11172 and code % 28 == 0 and nxt // 588 in _L_DROP_BEFORE:
            out.append((word[: i + 1], word[:i] + chr(ord(word[i]) + RIEUL), word[i + 1:]))
    return tuple(out)


#: Words that once ended in ㅎ and aspirate the consonant after them in a compound (수탉, 암캐,
#: 살코기, 안팎; not 머리, whose 머리카락 is a part Kiwi gives already), and the plain consonant of each aspirated one (initial indices: ㅋ -> ㄱ,
#: ㅌ -> ㄷ, ㅍ -> ㅂ).
H_PREFIXES = ("수", "암", "살", "안")
_ASPIRATED = {15: 0, 16: 3, 17: 7}


def _h_cuts(word: str) -> tuple[tuple[str, str, str], ...]:
    """(prefix, rest, noun) of a word after a prefix of `H_PREFIXES` whose next syllable starts with
    ㅋ, ㅌ or ㅍ: the rest as written and with its plain consonant (수탉: 수, 탉, 닭). Candidates only:
    `KoreanAnalyzer._h_nouns` keeps the nouns."""
    out = []
    for prefix in H_PREFIXES:
        if word.startswith(prefix) and len(word) > len(prefix):
            code = ord(word[len(prefix)]) - 0xAC00
            if 0 <= code < 11172 and code // 588 in _ASPIRATED:
                rest = word[len(prefix):]
                plain = chr(ord(rest[0]) - (code // 588 - _ASPIRATED[code // 588]) * 588)
                out.append((prefix, rest, plain + rest[1:]))
    return tuple(out)


def _ji_noun(word: str, best) -> str:
    """The noun of a noun + 지다 predicate (RULES 4.3: 멋지다 and 멋진 of 멋, 기름지다 of 기름), by
    Kiwi's reading of one stem in 지 with endings only; "" otherwise. `_build` keeps a native noun
    Kiwi reads alone, of one syllable only in an adjective (멋지다, 값지다; not 터지다)."""
    if (len(best) >= 2 and best[0].tag.split("-")[0] in ("VA", "VV") and len(best[0].form) >= 2
            and best[0].form.endswith("지") and word.startswith(best[0].form)
            and all(t.tag.startswith("E") for t in best[1:])):
        return best[0].form[:-1]
    return ""


#: Determiners and prefixes that only narrow a position (맨위, 윗칸, 한가운데: RULES 4.1).
POSITION_MODIFIER_TAGS = ("MM", "XPN")
#: Bound nouns that name a position word's side (옆쪽, 왼쪽편: RULES 4.1).
POSITION_SIDES = ("쪽", "편")
#: Nouns that make an ordinal of a row or cell word after them (마지막줄, 끝칸, 처음줄 as 첫줄: RULES 4.1).
POSITION_ORDINALS = ("마지막", "끝", "처음")


def _position_reading(word: str, best, lemmas, positions, by_meaning=lambda p: True) -> str:
    """The position word (`ko_positions.txt`) a word points at as a board position (RULES 4.1,
    "가까움, 3" in the Pictures rulebook) without being it, or "": a form of one (가까움, 가까이,
    가까운 of 가깝다), or Kiwi's best reading made only of position words, ordinals (첫째, 셋째:
    NR in 째) and determiners or prefixes (맨, 윗), with particles after them and a position word
    last (위에, 왼쪽에, 맨위에, 첫째줄, 셋째칸, 가운데줄, 왼쪽위), also with a case particle and a verb
    after them (왼쪽에있는, 위에있다: the card there). Not a copula (위인 = 위 + 이 + ㄴ, a
    great man), a lexical noun Kiwi reads whole (위층, 옆구리, 밑바닥), nor a word whose Hanja give the
    position word's syllables another meaning (`by_meaning`, `Hanja.is_part`: 위로 = 慰勞,
    consolation, not 위 + 로; 동위 = 同位)."""
    if word in positions:
        return ""
    for lemma in sorted(lemmas):
        if lemma in positions:
            return lemma
    tokens = list(best)
    while tokens and tokens[-1].tag.startswith("E"):  # a place said with its verb: 왼쪽에있는, 위에있다
        tokens.pop()
    if (len(tokens) >= 3 and _predicate_tag(tokens[-1].tag) and not tokens[-1].tag.startswith("XS")
            and tokens[-2].tag.startswith("JK")):
        tokens.pop()
    elif len(tokens) < len(best):
        tokens = list(best)
    while tokens and tokens[-1].tag.startswith("J"):
        tokens.pop()
    if not tokens or (len(tokens) == 1 and len(tokens) == len(best)) or any(t.oov for t in best):
        return ""
    stem = word[:tokens[-1].start + tokens[-1].len]
    if stem != word and stem in positions and by_meaning(stem):
        return stem  # a listed position word with particles, however Kiwi cuts it (아랫줄에 = 아랫 + 줄 + 에)
    if (len(tokens) >= 2 and tokens[-1].form in POSITION_SIDES and tokens[-1].tag in ("NNB", "NNG")
            and tokens[-2].tag.startswith("NN") and tokens[-2].form in positions):
        tokens.pop()  # a position word's side: 옆쪽, 왼쪽편 (as 위쪽, 왼편 are listed)
    if not (tokens[-1].tag.startswith("NN") and tokens[-1].form in positions):
        return ""
    if any(t.tag.startswith("NN") and t.form in positions and not by_meaning(t.form) for t in tokens):
        return ""
    for t in tokens[:-1]:
        if t.tag.startswith("NN") and t.form in positions:
            continue
        if t.tag in POSITION_MODIFIER_TAGS or (t.tag == "NR" and t.form.endswith("째")):
            continue
        if t.tag == "XSN" and t.form == "째":   # 첫/MM + 째/XSN
            continue
        if t.tag == "NNB" and t.form in ("번", "번째"):  # an ordinal in 번째: 두번째줄, 첫번째칸
            continue
        if t.tag == "NNG" and t.form in POSITION_ORDINALS:  # the last row or cell: 마지막줄, 끝칸
            continue
        return ""
    return tokens[-1].form


#: Words that place a letter in a word (RULES 4.1: 마지막글자, 끝음절, 앞글자 point at letters).
LETTER_PLACES = frozenset(("첫", "끝", "마지막", "처음", "앞", "뒤", "뒷", "가운데", "중간", "맨"))


def _letter_reading(word: str, best, letter_words) -> str:
    """The letter word (`ko_letters.txt`) a word names without being it (RULES 4.1: letters, jamo and
    letter counts), or "": in Kiwi's best reading, the word less its particles and a plural 들 is a
    letter word (글자로, 초성으로, 받침이, 기역으로, 자음들, 첫글자가, 글자수가, 세글자로), or the reading is
    numbers, determiners or a place in the word before a letter word (세음절, 두음절로, 여섯글자: a
    letter count; 마지막글자, 끝음절), or a letter's name with 자 (기역자, as ㄱ자). Not a
    copula (모음이다) nor a noun Kiwi reads whole (모음집, 철자법, 받침대)."""
    if word in letter_words:
        return ""
    if names := _letter_names(word, letter_words):
        return names[0]  # letters named one after another: 기역니은, 시옷이응 (as ㄱㄴ)
    if any(t.oov for t in best):
        return ""
    tokens = list(best)
    while tokens and (tokens[-1].tag.startswith("J") or (tokens[-1].tag == "XSN" and tokens[-1].form == "들")):
        tokens.pop()
    if not tokens:
        return ""
    stem = word[:tokens[-1].start + tokens[-1].len]
    if stem != word and stem in letter_words:
        return stem
    if names := _letter_names(stem, letter_words):
        return names[0]  # the same with particles: 기역니은이, 니은디귿으로
    if (len(tokens) >= 2 and tokens[-1].tag.startswith("NN") and tokens[-1].form in letter_words
            and all(t.tag in ("MM", "NR") or t.form in LETTER_PLACES for t in tokens[:-1])):
        return tokens[-1].form
    if (len(tokens) == 2 and tokens[0].form in letter_words and tokens[0].tag.startswith("NN")
            and tokens[1].form == "자" and tokens[1].tag in ("NNG", "NNB", "XSN")):
        return tokens[0].form  # the letter named with 자 (字): 기역자, 시옷자 (as ㄱ자)
    return ""


def _letter_names(word: str, letter_words) -> tuple[str, ...]:
    """`word` cut into two letter words or more written together (기역니은 = 기역 + 니은, 시옷이응), or
    () (RULES 4.1: letters named one after another point at letters, as ㄱㄴ does). None of the
    Korean vocabulary and wordfreq words is such a chain."""
    ends: dict[int, tuple[str, ...]] = {0: ()}
    for i in range(len(word)):
        if i in ends:
            for j in range(i + 1, len(word) + 1):
                if word[i:j] in letter_words and j not in ends:
                    ends[j] = ends[i] + (word[i:j],)
    names = ends.get(len(word), ())
    return names if len(names) >= 2 else ()


def _held_noun(word: str, best) -> str:
    """The noun of a noun + 있다/없다 adjective Kiwi reads as one stem (RULES 4.3: 맛있다, 맛있는 of
    맛; 재미없다 of 재미), in any form; "" otherwise. `_build` keeps a common noun Kiwi reads alone."""
    if (len(best) >= 2 and best[0].tag.split("-")[0] == "VA" and len(best[0].form) >= 2
            and best[0].form[-1] in "있없" and word.startswith(best[0].form)
            and all(t.tag.startswith("E") for t in best[1:])):
        return best[0].form[:-1]
    return ""


def _predicate(word: str, best) -> bool:
    """A verb or adjective in its dictionary form: one stem (울다 = 울/VV + 다) or a noun + 하
    (청소하다 = 청소/NNG + 하/XSV + 다)."""
    if len(best) == 3 and best[0].tag in ("NNG", "XR", "MAG") and best[1].form == "하" \
            and best[1].tag.split("-")[0] in ("XSV", "XSA"):
        return best[2].form == "다" and word == best[0].form + "하다"
    return (len(best) == 2 and best[0].tag[:2] in ("VV", "VA") and not best[0].oov
            and best[1].form == "다" and word == best[0].form + "다")


#: Syllables of a loanword written out with ㅡ that are also written as the previous syllable's
#: final consonant (로보트 / 로봇, 케이크 / 케익): initial consonant index -> final consonant index.
_LOAN_FINALS = {16: 19, 15: 1, 17: 17}          # 트 -> ㅅ, 크 -> ㄱ, 프 -> ㅂ
#: ㅈ/ㅊ before a y-vowel, which loanword spelling writes without the y (쥬스 / 주스, 텔레비젼 / 텔레비전).
_Y_VOWELS = {2: 0, 6: 4, 12: 8, 17: 13}         # ㅑ -> ㅏ, ㅕ -> ㅓ, ㅛ -> ㅗ, ㅠ -> ㅜ


def loan_canon(word: str) -> str:
    """One spelling for a loanword's spelling variants (RULES 4.6: different spellings of the same
    word are the same word): a final 트/크/프 after an open syllable becomes that syllable's final
    consonant in words of three syllables or more (native words do not end so; 마트 is not 맛), and
    쟈/죠/쥬 (and with ㅊ; 져 in words of three syllables or more) lose the y. Other words are
    returned as they are."""
    if len(word) < 2 or not HANGUL_WORD.match(word):
        return word
    codes = [ord(ch) - 0xAC00 for ch in word]
    out = []
    for i, code in enumerate(codes):
        lead, vowel, tail = code // 588, (code // 28) % 21, code % 28
        if lead in (12, 14) and vowel in _Y_VOWELS and (vowel != 6 or len(codes) >= 3):
            vowel = _Y_VOWELS[vowel]        # 쥬 -> 주 (져/쳐 only in long words: 가져 is a verb form)
        if (len(codes) >= 3 and i == len(codes) - 1 and lead in _LOAN_FINALS and vowel == 18 and tail == 0 and out
                and out[-1] % 28 == 0):
            out[-1] += _LOAN_FINALS[lead]  # 로보 + 트 -> 로봇
            continue
        out.append(lead * 588 + vowel * 28 + tail)
    return "".join(chr(0xAC00 + c) for c in out)
