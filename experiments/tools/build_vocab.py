"""Build the candidate clue vocabularies `data/vocab/{en,ko}.tsv` from registry packages.

    python -m experiments.tools.build_vocab [--lang en|ko|all] [--out DIR]

Sources (pinned in pyproject's `vocab` and `filter` extras, so a rebuild is byte-identical):

* word frequencies: wordfreq 3.1.1 (`get_frequency_dict`), data CC-BY-SA 4.0;
* English lemmas: lemminflect 0.2.3 (`getAllLemmas`);
* Korean nouns: kiwipiepy 0.24.1 with kiwipiepy_model 0.24.0.

English: lower-case alphabetic words of 2+ letters that lemminflect knows and that are their
own noun, verb or adjective lemma ("bat", not "bats", "ran" or "quickly"); words lemminflect
does not know at all (mostly names: "paris", "amazon", "egypt") are kept when they have 3+
letters, a Zipf frequency of at least 3.5, and are not just the plural of a more frequent word.
Korean: Hangul-only words that Kiwi reads as one common or proper noun (NNG/NNP) and that are
not also a verb or adjective stem (Kiwi reads "<word>다" as a verb: "보이", "다니"); a
one-syllable word only if it is on `data/vocab/ko_monosyllables.txt`.
Both: stopwords (`stopwords_{lang}.txt`) and offensive words (`offensive_{lang}.txt`) are
removed; every board word (`data/words/{lang}.txt`) is kept, added back if a filter dropped it
(with wordfreq's frequency, or the smallest frequency in wordfreq's list if wordfreq does not
list the word: Korean compounds such as 눈사람 that wordfreq's MeCab tokenizer split).

Output: TSV with header `word<TAB>frequency`, frequency as wordfreq's float with 6 significant
digits, rows sorted by frequency descending, then word.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path

from engine.paths import data_path

LANGUAGES = ("en", "ko")
MAX_WORDS = 50_000
EN_WORD = re.compile(r"[a-z]{2,}")
EN_OOV_MIN_ZIPF = 3.5
EN_OOV_MIN_LEN = 3
EN_LEMMA_POS = ("NOUN", "VERB", "ADJ")
KO_WORD = re.compile(r"[가-힣]+")
KO_NOUN_TAGS = ("NNG", "NNP")
KO_STEM_TAGS = ("VV", "VA", "VX")


def read_list(path: Path) -> list[str]:
    """Non-empty, non-comment lines of a word-list file, stripped, in file order."""
    words = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            words.append(line)
    return words


def _zipf(freq: float) -> float:
    return math.log10(freq) + 9 if freq > 0 else 0.0


def english_candidates(freqs: dict[str, float]) -> list[str]:
    """English words that pass the lemma test (before stopword/offensive filtering)."""
    from lemminflect import getAllLemmas

    shape_ok = [w for w in freqs if EN_WORD.fullmatch(w)]
    pool = set(shape_ok)
    kept = []
    for w in shape_ok:
        lemmas = getAllLemmas(w)
        if lemmas:
            if any(w in lemmas.get(pos, ()) for pos in EN_LEMMA_POS):
                kept.append(w)
            continue
        # Unknown to lemminflect: names, places, brands, new words.
        if len(w) < EN_OOV_MIN_LEN or _zipf(freqs[w]) < EN_OOV_MIN_ZIPF:
            continue
        if w.endswith("s") and any(
            s in pool and freqs[s] >= freqs[w] for s in (w[:-1], w[:-2] if w.endswith("es") else "")
        ):
            continue  # "americans", "muslims": plural of a more frequent word
        kept.append(w)
    return kept


def korean_candidates(freqs: dict[str, float]) -> list[str]:
    """Korean words that pass the noun test (before stopword/offensive filtering)."""
    from kiwipiepy import Kiwi

    kiwi = Kiwi()
    mono = set(read_list(data_path("vocab", "ko_monosyllables.txt")))
    kept = []
    for w in freqs:
        if not KO_WORD.fullmatch(w):
            continue
        if len(w) == 1 and w not in mono:
            continue
        if not is_korean_noun(kiwi, w):
            continue
        if len(w) > 1 and is_korean_stem(kiwi, w):
            continue
        kept.append(w)
    return kept


def is_korean_noun(kiwi, word: str) -> bool:
    """True if Kiwi reads `word` alone as exactly one NNG/NNP morpheme."""
    tokens = kiwi.tokenize(word)
    return len(tokens) == 1 and tokens[0].form == word and tokens[0].tag in KO_NOUN_TAGS


def is_korean_stem(kiwi, word: str) -> bool:
    """True if Kiwi reads `word + "다"` as a verb/adjective stem plus ending."""
    first = kiwi.tokenize(word + "다")[0]
    return first.form == word and first.tag.startswith(KO_STEM_TAGS)


def build(lang: str) -> list[tuple[str, float]]:
    """The vocabulary rows (word, frequency) for `lang`, sorted as written."""
    import wordfreq

    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGUAGES}")
    freqs = wordfreq.get_frequency_dict(lang)
    candidates = english_candidates(freqs) if lang == "en" else korean_candidates(freqs)
    banned = set(read_list(data_path("vocab", f"stopwords_{lang}.txt")))
    banned |= set(read_list(data_path("vocab", f"offensive_{lang}.txt")))
    rows = sorted(
        ((w, freqs[w]) for w in candidates if w not in banned), key=lambda r: (-r[1], r[0])
    )[:MAX_WORDS]
    present = {w for w, _ in rows}
    floor = min(freqs.values())  # for a board word wordfreq does not list at all
    for w in read_list(data_path("words", f"{lang}.txt")):
        if w not in present:
            rows.append((w, freqs.get(w, floor)))
            present.add(w)
    rows.sort(key=lambda r: (-r[1], r[0]))
    return rows


def format_tsv(rows: list[tuple[str, float]]) -> str:
    lines = ["word\tfrequency"]
    lines += [f"{w}\t{f:.6g}" for w, f in rows]
    return "\n".join(lines) + "\n"


def write(lang: str, out_dir: Path) -> Path:
    rows = build(lang)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{lang}.tsv"
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(format_tsv(rows))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.tools.build_vocab", description=__doc__.split("\n")[0])
    parser.add_argument("--lang", choices=(*LANGUAGES, "all"), default="all")
    parser.add_argument("--out", type=Path, default=data_path("vocab"), help="output folder (default: data/vocab)")
    args = parser.parse_args(argv)
    langs = LANGUAGES if args.lang == "all" else (args.lang,)
    for lang in langs:
        t0 = time.perf_counter()
        path = write(lang, args.out)
        n = sum(1 for _ in open(path, encoding="utf-8")) - 1
        print(f"{lang}: {n} words -> {path} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
