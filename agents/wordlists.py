"""The shipped word lists: board words and candidate clue vocabularies.

    board_words("ko")          -> ("가방", "감기", ...)       # data/words/ko.txt
    vocab = clue_vocabulary("en")                           # data/vocab/en.tsv
    vocab.words[:3], vocab.frequencies[:3], "bank" in vocab, vocab.frequency("bank")

Both are read once per language and cached; the returned objects are immutable (a tuple, and a
frozen dataclass whose frequency array is read-only), so callers may share them freely.
The vocabulary files are built by `python -m experiments.tools.build_vocab`; see data/vocab/README.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from engine.paths import data_path

LANGUAGES = ("en", "ko")


def _check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: word lists exist for {', '.join(LANGUAGES)}")
    return language


@lru_cache(maxsize=None)
def board_words(language: str) -> tuple[str, ...]:
    """The board word list of `language` ("en" or "ko"), in file order."""
    path = data_path("words", f"{_check_language(language)}.txt")
    with open(path, encoding="utf-8") as fh:
        return tuple(w for w in (line.strip() for line in fh) if w and not w.startswith("#"))


@dataclass(frozen=True, eq=False)
class ClueVocabulary:
    """Candidate clue words with their wordfreq frequencies, most frequent first.

    `words[i]` has frequency `frequencies[i]` (float64, read-only, non-increasing).
    """

    language: str
    words: tuple[str, ...]
    frequencies: np.ndarray
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.words) != len(self.frequencies):
            raise ValueError("words and frequencies differ in length")
        object.__setattr__(self, "_index", {w: i for i, w in enumerate(self.words)})

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self._index

    def __iter__(self):
        return iter(self.words)

    def index(self, word: str) -> int:
        """Position of `word` (its frequency rank, 0 = most frequent); KeyError if absent."""
        return self._index[word]

    def frequency(self, word: str, default: float | None = None) -> float:
        """wordfreq frequency of `word`; `default` if absent (KeyError when no default given)."""
        i = self._index.get(word)
        if i is None:
            if default is None:
                raise KeyError(f"{word!r} is not in the {self.language} clue vocabulary")
            return default
        return float(self.frequencies[i])

    def top(self, n: int) -> tuple[str, ...]:
        """The `n` most frequent words."""
        return self.words[:n]

    def to_frame(self):
        """A fresh pandas DataFrame with columns `word` and `frequency`."""
        import pandas as pd

        return pd.DataFrame({"word": list(self.words), "frequency": self.frequencies.copy()})

    def __repr__(self) -> str:
        return f"<ClueVocabulary {self.language} {len(self.words)} words>"


@lru_cache(maxsize=None)
def clue_vocabulary(language: str) -> ClueVocabulary:
    """The candidate clue vocabulary of `language` ("en" or "ko"), read from data/vocab/."""
    path = data_path("vocab", f"{_check_language(language)}.tsv")
    words: list[str] = []
    freqs: list[float] = []
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n")
        if header != "word\tfrequency":
            raise ValueError(f"{path}: expected header 'word<TAB>frequency', got {header!r}")
        for lineno, line in enumerate(fh, start=2):
            line = line.rstrip("\n")
            if not line:
                continue
            try:
                word, freq = line.split("\t")
                freqs.append(float(freq))
            except ValueError:
                raise ValueError(f"{path}:{lineno}: malformed line {line!r}") from None
            words.append(word)
    array = np.asarray(freqs, dtype=np.float64)
    array.setflags(write=False)
    return ClueVocabulary(
        language=language,
        words=tuple(words),
        frequencies=array,
    )
