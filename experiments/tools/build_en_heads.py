"""Build `data/clues/en_bound_heads.tsv`: English words whose last part is a suffix, not the word.

    python -m experiments.tools.build_en_heads [--out PATH]

-ship is a suffix in FRIENDSHIP, HARDSHIP, LEADERSHIP, RELATIONSHIP (RULES 4.4: a bound affix does
not block, so SHIP and FRIENDSHIP do not block each other) and the word SHIP in SPACESHIP and
FLAGSHIP (a compound: SPACESHIP and SHIP do). Letters and sounds cannot tell them apart (both
keep a secondary stress on -ship), meaning can: a compound on ship is near ship, a word made with
the suffix is not. This tool decides, offline and once, which of the vocabulary's words end in a
suffix (`HEADS`) and writes them; the filter reads only the table (no model at run time) and
keeps those words' left part alone. Words it does not list keep the head as a part (the safer side:
BATTLESHIP, WARSHIP, which the vocabulary lacks).

Score: the whole's cosine to the head in glove-50 (context-trained word vectors, no sub-words) as
a z-score against the head's cosines to 2,000 fixed random vocabulary words, as for
`build_en_parts`. The suffix reading is taken below `HEAD_MAX` (2.0), chosen on the whole list:
the three ship compounds of the vocabulary score 2.3 (airship), 2.5 (flagship) and 3.3
(spaceship), the 53 suffix words at most 1.7 (ownership). -wise (STREETWISE 0.9 is wise by
meaning, CLOCKWISE -0.4 is not) and -man (both readings spread over the same range) stay parts.
"""

from __future__ import annotations

import argparse
import os
import sys

from experiments.tools.cli import one_line_errors, out_file

HEADS = ("ship",)
HEAD_MAX = 2.0


def candidates(an, words) -> list[tuple[str, str]]:
    """(word, head) for each word the analyser cuts before a head of `HEADS`."""
    return [(w, right) for w in words if w.isalpha()
            for left, right in an.compound_cuts(w) if right in HEADS]


@one_line_errors
def main(argv=None) -> int:
    os.environ["CNLAB_CLUE_CACHE"] = "off"
    from agents.wordlists import board_words, clue_vocabulary
    from engine.clues.english import EnglishAnalyzer
    from engine.paths import data_path
    from experiments.tools.build_en_parts import PartZ, glove_vectors

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(data_path("clues", "en_bound_heads.tsv")))
    args = ap.parse_args(argv)
    out = out_file(args.out)
    vocab = list(clue_vocabulary("en").words)
    words = sorted(set(vocab) | set(board_words("en")))
    an = EnglishAnalyzer()
    an.freq.preload()
    an._lemma_table.preload()
    G, gix, ref = glove_vectors(vocab)
    glove_z = PartZ(G, gix, ref)
    rows = []
    for w, head in candidates(an, words):
        if w in gix and head in gix:
            z = glove_z(w, head)
            if z < HEAD_MAX:
                rows.append((w, head, z))
    lines = [
        "# English words whose last part is a suffix, not the word (RULES 4.4): the filter keeps their",
        "# left part alone. Built by experiments/tools/build_en_heads.py (glove-50 z of word to head < %.1f)."
        % HEAD_MAX,
        "# word<TAB>head<TAB>glove z",
    ]
    lines += [f"{w}\t{h}\t{z:.2f}" for w, h, z in sorted(rows)]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(rows)} bound heads written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
