"""Precompute a sentence encoder's vectors for the toolkit's own English words, to ship.

    python -m experiments.tools.build_vector_table [--backend minilm] [--out data/vectors/minilm.npz]

The words: the English clue vocabulary, the board list and the picture cards' tags (everything
the default Duet, Codenames and Pictures bots embed). The table holds them and their unit vectors
as int8 codes with one float32 scale per word (10 MB; a cosine moves by about 0.0006), which
`agents.embeddings.backends.TabledEmbeddings` reads, so the default spymaster can read `minilm`
without torch; a word outside the table still loads the model. Needs the `st` extra.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import typer

from engine.paths import data_path
from experiments.tools.cli import fail, one_line_errors

SENTENCE_MODELS = ("minilm", "mpnet")  # what agents.embeddings.backends.load_sentence_model loads


def table_words() -> list[str]:
    """The English words every default bot embeds, in a fixed order (no duplicates)."""
    from agents.wordlists import board_words, clue_vocabulary

    words = list(clue_vocabulary("en").words) + list(board_words("en"))
    cards = json.loads(data_path("pictures", "cards.json").read_text(encoding="utf-8"))["cards"]
    words += [t for card in cards for t in card.get("tags", [])]
    return list(dict.fromkeys(w for w in words if w and w.strip()))


@one_line_errors
def main(backend: str = typer.Option("minilm", help="the sentence-encoder backend to tabulate"),
         out: Path = typer.Option(None, help="default: data/vectors/<backend>.npz")) -> None:
    from agents.embeddings.backends import load_sentence_model

    if backend not in SENTENCE_MODELS:
        fail(f"--backend {backend!r} is not a sentence encoder: use one of {', '.join(SENTENCE_MODELS)}")
    if out is not None and out.is_dir():
        fail(f"--out {out} is a folder; name the .npz file to write")
    if out is not None and out.suffix != ".npz":  # numpy would write NAME.npz instead
        fail(f"--out {out} must end in .npz")
    out = out or data_path("vectors", f"{backend}.npz")
    model = load_sentence_model(backend)
    words = table_words()
    codes, scale = quantise(model.vectors(words))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:  # a file object: written exactly where named
        np.savez_compressed(f, words=np.array(words), codes=codes, scale=scale, version=np.array(model.version))
    typer.echo(f"wrote {out}: {len(words)} words x {codes.shape[1]} ({out.stat().st_size / 1e6:.1f} MB)")


def quantise(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and a per-row scale: row i is about `codes[i] * scale[i]`."""
    v = np.asarray(vectors, dtype=np.float32)
    scale = np.abs(v).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    return np.round(v / scale[:, None]).astype(np.int8), scale.astype(np.float32)


if __name__ == "__main__":
    typer.run(main)
