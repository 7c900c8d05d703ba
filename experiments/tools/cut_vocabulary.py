"""A partner on a smaller vocabulary: a model's vectors of its N commonest words, as a `.kv` file.

    python -m experiments.tools.cut_vocabulary --backend glove-50 --words 20000 --out /tmp/glove20k.kv

Why: every panel model reads any clue word (glove-50 400,000 of them), where a user's own word2vec
file, or a person, may not know `burrito` or `vulture`. The file holds the backend's unit vectors of
the first N words of wordfreq's list that it knows, plus every card of the board list it knows (so
that only clues go unread), and plays as `duet-bayes:/tmp/glove20k.kv` (docs/crossplay.md, "Partners
with smaller vocabularies"). An existing file is never overwritten.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import typer

from experiments.tools.cli import at_least, fail, one_line_errors, out_file


def cut_words(emb, size: int, language: str) -> list[str]:
    """The first `size` words of wordfreq's list for `language` that `emb` knows, then the board
    list's cards it knows (each word once, in that order)."""
    from wordfreq import top_n_list

    from agents.wordlists import board_words

    listed = top_n_list(language, 10**6)     # the whole list (English: 320,000 words; 0.3 s to check)
    common = [w for w, k in zip(listed, emb.covers(listed)) if k][:size]
    board = list(board_words(language))
    cards = [w for w, k in zip(board, emb.covers(board)) if k]
    return list(dict.fromkeys(common + cards))


@one_line_errors
def main(backend: str = typer.Option(..., help="a registered backend or a model's path"),
         words: int = typer.Option(..., help="how many of the commonest words to keep"),
         out: Path = typer.Option(..., help="the .kv file to write (never an existing one)"),
         lang: str = typer.Option("en", help="the language of the word list and the board list")) -> None:
    """Write BACKEND's vectors of its WORDS commonest words (and the board cards) to OUT."""
    from gensim.models import KeyedVectors

    from agents.embeddings import get_backend

    from agents.wordlists import LANGUAGES

    at_least(words, 1, "--words")
    if lang not in LANGUAGES:   # wordfreq's LookupError came only after the model loaded
        fail(f"--lang {lang!r}: use one of {', '.join(LANGUAGES)}")
    out = out_file(out)
    if out.suffix.lower() not in (".kv", ".model"):   # a model's path is read by its suffix
        fail(f"--out {out} must end in .kv (a gensim KeyedVectors file, read back by its suffix)")
    if out.exists():
        fail(f"--out {out} exists; name a new file (an existing one is never overwritten)")
    emb = get_backend(backend)
    if not emb.has_vectors:
        fail(f"{backend} gives no vectors (pairwise similarities only), so it cannot be written as a .kv file")
    kept = cut_words(emb, words, lang)
    if not kept:
        fail(f"{backend} knows none of the {lang} words or cards: nothing to write")
    kv = KeyedVectors(vector_size=emb.dim)
    kv.add_vectors(kept, np.asarray(emb.vectors(kept), dtype=np.float32))
    kv.save(str(out))
    typer.echo(f"wrote {out}: {len(kept)} words of {backend}")


if __name__ == "__main__":
    typer.run(main)
