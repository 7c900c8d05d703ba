"""Build `data/clues/en_accidental_cuts.tsv`: English compound cuts that are not parts by meaning.

    python -m experiments.tools.build_en_parts [--out PATH] [--all]

The English analyser cuts a closed compound into two common words (RAINCOAT = rain + coat), with a
pronunciation guard (CARROT is not car + rot). Letters alone still make accidental cuts whose
sounds fit: CARPET = car + pet, TARGET = tar + get, OFFICE = off + ice, BARGAIN = bar + gain,
CARTON = car + ton. RULES 4.3/4.4: a word that merely contains the letters of another is not made
of it. This tool decides, offline and once, which cuts are accidental; the filter reads only the
table it writes (no model at run time) and drops those cuts (neither part blocks, nor is blocked).

Candidates: every word of the shipped English vocabulary (`data/vocab/en.tsv`) and board words
(`data/words/en.txt`), each cut `EnglishAnalyzer.compound_cuts` makes (without this table), except

* cuts left to their own rules: a left part that is a prefix or combining form (`PREFIXES`,
  `COMBINING_FORMS`: DISCLOSE = dis + close), a right part that is a suffix-like word (able, less,
  ship, man, age ...: AFFORDABLE, FIREMAN, PASSAGE are derivations or reduced heads), a right part
  that is not a common word itself (SKYSCRAPER's scraper, the derived-head rule);
* cuts the pronunciation shows as compounds: both parts keep a stressed vowel in the whole
  (BUT-ter-FLY, KID-NAP, HON-ey-MOON; an accidental part is usually reduced: CAR-pet, OF-fice);
* cuts whose whole the sub-word model reads with a piece of a part (RAIN ##coat, PAN ##cake): its
  similarity would be the shared letters'. A whole it reads as one token (carpet) or as pieces
  that are not the parts (cart ##on for car + ton) is judged.

Score: how close the whole's meaning is to each part, as a z-score against the part's similarity
to 2,000 fixed random vocabulary words, in two embeddings that do not see letters here: glove-50
(context-trained word vectors, no sub-words) and all-mpnet-base-v2 (only for wholes read as above).
A cut is accidental when neither part is tied in either: glove z < `GLOVE_MAX` (2.7) and mpnet z
< `MPNET_MAX` (3.0) for both parts. Chosen on a hand check of the bands (docs/clue_filter.md): below
these nearly every cut is accidental; between 3.0 and 3.5 (mpnet) real compounds appear (HIGHLAND,
ICELAND, MOTORWAY). `--all` writes every judged candidate with its scores instead.
"""

from __future__ import annotations

import argparse
import os
import sys

from experiments.tools.cli import fail, one_line_errors, out_file

GLOVE_MAX = 2.7
MPNET_MAX = 3.0
SEED = 0
REF = 2000
#: right parts that are suffixes or reduced heads: left to the derivation rules (RULES 4.3).
SUFFIX_WORDS = frozenset(
    "able less ship hood ness ful like some ion ions ate ant ent ism ist ity ize ise ally ling ward "
    "wards wise dom man men woman women age ages".split())


def _digits(pron) -> list[str]:
    return [p for p in pron if p.isdigit()]


def stressed_compound(w: str, left: str, right: str) -> bool:
    """Both parts keep a stressed vowel (1 or 2) in some pronunciation of the whole."""
    from engine.clues.pronunciation import table

    t = table()
    if w not in t or left not in t or right not in t:
        return False
    nl = min(len(_digits(p)) for p in t[left])
    nr = min(len(_digits(p)) for p in t[right])
    if not nl or not nr:
        return False
    return any(any(d in "12" for d in dw[:nl]) and any(d in "12" for d in dw[len(dw) - nr:])
               for dw in (_digits(p) for p in t[w]))


def candidates(an, words: list[str]) -> list[tuple[str, str, str]]:
    from engine.clues.english import COMBINING_FORMS, PREFIXES

    out = []
    for w in words:
        if not w.isalpha():
            continue
        for left, right in an.compound_cuts(w):
            if left in PREFIXES or left in COMBINING_FORMS or right in SUFFIX_WORDS:
                continue
            if not (an._common(right) and an.pos(right)):
                continue
            if stressed_compound(w, left, right):
                continue
            out.append((w, left, right))
    return out


def glove_vectors(vocab: list[str]):
    """glove-50's unit vectors (float64), its index, and the rows of `REF` fixed random vocabulary
    words (seed `SEED`): what a part's cosines are standardised against."""
    import numpy as np
    from agents.embeddings.registry import get_backend

    kv = get_backend("glove-50").kv           # the raw vectors, normalised here in float64
    gix = kv.key_to_index
    G = kv.vectors.astype(np.float64)
    G /= np.linalg.norm(G, axis=1, keepdims=True)
    pool = sorted({w for w in vocab if w.isalpha() and w in gix})
    ref = sorted(np.random.default_rng(SEED).choice(pool, REF, replace=False).tolist())
    return G, gix, ref


class PartZ:
    """How close a whole is to a part in one embedding: their cosine as a z-score against the part's
    cosines to the reference words (each part's mean and spread computed once)."""

    def __init__(self, E, ix: dict, ref: list[str]) -> None:
        self.E, self.ix, self.R, self.base = E, ix, E[[ix[r] for r in ref]], {}

    def __call__(self, w: str, p: str) -> float:
        if p not in self.base:
            b = self.R @ self.E[self.ix[p]]
            self.base[p] = (b.mean(), b.std())
        m, s = self.base[p]
        return (float(self.E[self.ix[w]] @ self.E[self.ix[p]]) - m) / s


def score(cands, vocab: list[str]):
    import numpy as np
    from agents.embeddings.registry import get_backend

    G, gix, ref = glove_vectors(vocab)
    mp = get_backend("mpnet")
    tok = mp.model.tokenizer

    def pieces(w):
        return {p.lstrip("#") for p in tok.tokenize(w)}

    judged = [(w, l, r) for w, l, r in cands if {w, l, r} <= gix.keys()
              and not (pieces(w) & (pieces(l) | pieces(r)))]
    ws = sorted({x for c in judged for x in c} | set(ref))
    M = np.asarray(mp._encode(ws), dtype=np.float64)
    M /= np.linalg.norm(M, axis=1, keepdims=True)
    gz, mz = PartZ(G, gix, ref), PartZ(M, {w: i for i, w in enumerate(ws)}, ref)
    return [(w, l, r, max(gz(w, l), gz(w, r)), max(mz(w, l), mz(w, r))) for w, l, r in judged]


@one_line_errors
def main(argv=None) -> int:
    os.environ["CNLAB_CLUE_CACHE"] = "off"  # cuts without this table, never stored
    from agents.wordlists import board_words, clue_vocabulary
    from engine.clues.english import EnglishAnalyzer
    from engine.paths import data_path

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="default: data/clues/en_accidental_cuts.tsv (not with --all)")
    ap.add_argument("--all", action="store_true", help="write every judged candidate with its scores (needs --out)")
    args = ap.parse_args(argv)
    if args.all and not args.out:  # the dump is not the table the filter reads
        fail("--all writes every candidate, not the filter's table: give --out FILE")
    out = out_file(args.out or data_path("clues", "en_accidental_cuts.tsv"))
    vocab = list(clue_vocabulary("en").words)
    words = sorted(set(vocab) | set(board_words("en")))
    an = EnglishAnalyzer(accidental_cuts=False)
    an.freq.preload()
    an._lemma_table.preload()
    cands = candidates(an, words)
    scored = score(cands, vocab)
    kept = [r for r in scored if args.all or (r[3] < GLOVE_MAX and r[4] < MPNET_MAX)]
    lines = [
        "# English compound cuts that are not parts by meaning (RULES 4.3/4.4): the filter drops them.",
        "# Built by experiments/tools/build_en_parts.py (accidental: glove z < %.1f and mpnet z < %.1f"
        % (GLOVE_MAX, MPNET_MAX),
        "# for both parts). word<TAB>left part<TAB>right part<TAB>glove z<TAB>mpnet z (the parts' best)",
    ]
    lines += [f"{w}\t{l}\t{r}\t{g:.2f}\t{m:.2f}" for w, l, r, g, m in sorted(kept)]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(cands)} candidates, {len(scored)} judged, {len(kept)} written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
