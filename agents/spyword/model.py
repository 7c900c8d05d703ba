"""What every Spy's Word bot of a process shares: the clue vocabulary, its unit vectors, the legal
masks and the neighbourhoods of the pack words (computed once per word, kept for the process).

Nothing here looks at a game: a `SpyWordModel` maps words to vectors and answers "which
vocabulary words may a player holding this word say" (the project clue filter, RULES 5.4 via
4.3/4.4) and "what are this word's nearest vocabulary words".
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from agents.embeddings import Embeddings, get_backend

HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def script_of(text: str) -> str:
    """"ko" for Hangul, "latin" for Latin letters, "other" else: a clue in another script than
    the word is a candidate translation (RULES 5.4)."""
    if HANGUL.search(text):
        return "ko"
    if any("LATIN" in unicodedata.name(ch, "") for ch in text if ch.isalpha()):
        return "latin"
    return "other"


def norm_key(text: str) -> str:
    """The engine's clue identity (case, accents, spacing, punctuation ignored), for "never repeat"."""
    from engine.spyword import normalize

    return normalize(text)


@dataclass
class WordView:
    """One word's neighbourhood in the vocabulary (see `SpyWordModel.word_view`)."""

    word: str
    vector: np.ndarray          # (d,)
    sims: np.ndarray            # (N,) cosine to every vocabulary word
    legal: np.ndarray           # (N,) bool: a holder of `word` may say it (filter + not a translation)
    neighbours: np.ndarray      # indices of the K nearest legal vocabulary words: the likely other words
    hub: float                  # mean cosine of `word` to the vocabulary sample (hubness)
    top: np.ndarray             # indices of the M most similar legal words: clue candidates
    reveal_rank: np.ndarray     # for each of `top`: how many vocabulary words are nearer the candidate than `word`
    specificity: np.ndarray     # for each of `top`: sim to word - max sim to a neighbour
    log_z: np.ndarray           # log sum_v exp(beta * cos(v, x)) for x = word, then each neighbour


class SpyWordModel:
    """Vocabulary + vectors of one backend and language, shared by every bot of a process."""

    def __init__(self, emb: Embeddings, language: str, vocab_size: int = 20000,
                 words: Sequence[str] | None = None, frequencies: Sequence[float] | None = None,
                 neighbours: int = 12, candidates: int = 40, translation_threshold: float = 0.7,
                 beta: float = 20.0):
        self.emb = emb
        self.language = language
        self.k_neighbours = int(neighbours)
        self.m_candidates = int(candidates)
        self.translation_threshold = float(translation_threshold)
        self.beta = float(beta)
        if words is None:
            from agents.wordlists import clue_vocabulary

            vocab = clue_vocabulary(language)
            words, frequencies = list(vocab.words), list(vocab.frequencies)
        freq = {}
        for i, w in enumerate(words):
            if isinstance(w, str) and w.strip() and w not in freq:
                freq[w] = 1.0 if frequencies is None else float(frequencies[i])
        uniq = list(freq)
        covered = emb.covers(uniq)
        uniq = [w for w, ok in zip(uniq, covered) if ok]
        head = uniq[:int(vocab_size * 1.25) + 100]  # the filter drops few words: judge only a head
        base = _filter_mask(head, [], language)
        uniq = [w for w, ok in zip(head, base) if ok][:vocab_size]
        if not uniq:
            raise ValueError(f"no vocabulary word of {language!r} is covered by {emb.name}")
        self.words: list[str] = uniq
        # the filter's index of this exact candidate list, built now (before any fork: the Korean
        # analyser's thread pool does not survive a fork, see prepare())
        _filter_mask(uniq, [], language)
        self.index = {w: i for i, w in enumerate(uniq)}
        self.keys = [norm_key(w) for w in uniq]
        lf = np.log10(np.maximum(np.array([freq[w] for w in uniq], dtype=np.float64), 1e-12))
        span = max(float(lf.max() - lf.min()), 1e-9)
        self.rarity = ((lf.max() - lf) / span).astype(np.float32)  # 0 most frequent .. 1 rarest
        if emb.name.startswith("fake"):
            self.vectors = emb.vectors(uniq)
        else:
            from agents.embeddings import embedded_vocabulary

            ev = embedded_vocabulary(emb, uniq)
            assert ev.words == uniq
            self.vectors = ev.vectors
        sample = np.linspace(0, len(uniq) - 1, num=min(2000, len(uniq))).astype(int)
        self._sample = self.vectors[sample]
        self.hub = np.concatenate([(self.vectors[i:i + 4096] @ self._sample.T).mean(axis=1)
                                   for i in range(0, len(uniq), 4096)]).astype(np.float32)
        self.scripts = np.array([script_of(w) for w in uniq])
        self._memo: dict[str, np.ndarray] = {}
        self._log_z_memo: dict[int, float] = {}
        self.key_array = np.array(self.keys, dtype=object)
        self._views: "OrderedDict[str, WordView]" = OrderedDict()

    def __len__(self) -> int:
        return len(self.words)

    # ----- vectors -----------------------------------------------------------------------------
    def vec(self, text: str) -> np.ndarray:
        i = self.index.get(text)
        if i is not None:
            return self.vectors[i]
        v = self._memo.get(text)
        if v is None:
            if self.emb.covers([text])[0]:
                v = self.emb.vectors([text])[0]
            else:
                v = np.zeros(self.vectors.shape[1], dtype=np.float32)
            self._memo[text] = v
        return v

    def vecs(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.vectors.shape[1]), dtype=np.float32)
        return np.stack([self.vec(t) for t in texts])

    def said_mask(self, keys) -> np.ndarray:
        """Vocabulary words whose normalised form is one of `keys`."""
        keys = set(keys)
        if not keys:
            return np.zeros(len(self.words), dtype=bool)
        return np.fromiter((k in keys for k in self.keys), dtype=bool, count=len(self.keys))

    def hub_of(self, vector: np.ndarray) -> float:
        return float((self._sample @ vector).mean())

    def _log_z(self, sims: np.ndarray) -> np.ndarray:
        """Per row: log of the clue partition function sum_v exp(beta * cos(v, x)) over the vocabulary."""
        s = self.beta * sims.astype(np.float64)
        top = s.max(axis=1, keepdims=True)
        return (top[:, 0] + np.log(np.exp(s - top).sum(axis=1)))

    def log_z(self, indices: np.ndarray) -> np.ndarray:
        """The partition function of vocabulary words (by index), memoised per word. Computed one
        word at a time (the same matrix-vector product whatever was asked before), so a value never
        depends on the history of the process: games stay identical on any worker count."""
        for i in dict.fromkeys(int(i) for i in indices):
            if i not in self._log_z_memo:
                self._log_z_memo[i] = float(self._log_z((self.vectors @ self.vectors[i])[None, :])[0])
        return np.array([self._log_z_memo[int(i)] for i in indices], dtype=np.float64)

    def prepare(self, words) -> None:
        """Build the views of these words now (a simulator calls it with every pack word before
        forking its workers: they share the views, and never run the clue filter's batch analysis,
        whose Korean thread pool would deadlock in a forked child). The parts that take time (legal
        masks, neighbourhoods, candidate statistics) are kept in the on-disk cache, keyed by
        everything they depend on, so a later run loads them instead of rebuilding them."""
        words = list(dict.fromkeys(words))
        path = self._views_cache(words)
        if path is not None and self._load_views(path, words):
            return
        for w in words:
            self.word_view(w)
        if path is not None:
            self._save_views(path, words)

    VIEWS_FORMAT = 1

    def _views_cache(self, words: Sequence[str]):
        """The cache file of these words' views, or None for in-memory backends (tests)."""
        if self.emb.name.startswith("fake"):
            return None
        import hashlib
        import json

        from agents.embeddings.cache import default_cache_dir, package_version, vocab_hash

        ident = json.dumps([self.VIEWS_FORMAT, package_version(), self.emb.name, self.emb.version, self.language,
                            self.k_neighbours, self.m_candidates, self.translation_threshold, self.beta,
                            vocab_hash(self.words), vocab_hash(words)])
        return default_cache_dir() / "spyword-views" / (hashlib.sha256(ident.encode()).hexdigest()[:24] + ".npz")

    def _save_views(self, path, words: Sequence[str]) -> None:
        import os

        views = [self._views[w] for w in words]
        arrays = {"legal": np.packbits(np.stack([v.legal for v in views])),
                  "neighbours": np.stack([np.pad(v.neighbours, (0, self.k_neighbours - len(v.neighbours)),
                                                 constant_values=-1) for v in views]),
                  "top": np.stack([np.pad(v.top, (0, self.m_candidates - len(v.top)), constant_values=-1)
                                   for v in views]),
                  "reveal": np.stack([np.pad(v.reveal_rank, (0, self.m_candidates - len(v.reveal_rank)))
                                      for v in views]),
                  "spec": np.stack([np.pad(v.specificity, (0, self.m_candidates - len(v.specificity)))
                                    for v in views]),
                  "log_z": np.stack([np.pad(v.log_z, (0, self.k_neighbours + 1 - len(v.log_z)))
                                     for v in views])}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
            np.savez_compressed(tmp, **arrays)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written is only slower next time

    def _load_views(self, path, words: Sequence[str]) -> bool:
        try:
            with np.load(path) as data:
                arrays = {k: data[k] for k in data.files}
            legal = np.unpackbits(arrays["legal"], count=len(words) * len(self.words)).reshape(
                len(words), len(self.words)).astype(bool)
        except (OSError, ValueError, KeyError):
            return False  # missing or damaged: rebuilt (and rewritten) by the caller
        for j, w in enumerate(words):
            v = self.vec(w)
            top = arrays["top"][j][arrays["top"][j] >= 0]
            neighbours = arrays["neighbours"][j][arrays["neighbours"][j] >= 0]
            view = WordView(w, v, (self.vectors @ v).astype(np.float32), legal[j], neighbours, self.hub_of(v), top,
                            arrays["reveal"][j][:len(top)], arrays["spec"][j][:len(top)].astype(np.float32),
                            arrays["log_z"][j][:len(neighbours) + 1])
            for i, z in zip(neighbours, view.log_z[1:]):
                self._log_z_memo.setdefault(int(i), float(z))
            self._views[w] = view
        while len(self._views) > 4096:
            self._views.popitem(last=False)
        return True

    # ----- one word's neighbourhood -------------------------------------------------------------
    def word_view(self, word: str) -> WordView:
        view = self._views.get(word)
        if view is not None:
            self._views.move_to_end(word)
            return view
        v = self.vec(word)
        sims = (self.vectors @ v).astype(np.float32)
        legal = _filter_mask(self.words, [word], self.language)
        # a clue in another script this close to the word is its translation (RULES 5.4)
        foreign = self.scripts != script_of(word)
        legal &= ~(foreign & (sims > self.translation_threshold))
        key = norm_key(word)
        legal &= self.key_array != key
        order = np.argsort(-np.where(legal, sims, -np.inf), kind="stable")
        n_legal = int(legal.sum())
        neighbours = order[:min(self.k_neighbours, n_legal)]
        top = order[:min(self.m_candidates, n_legal)]
        cand = self.vectors[top] @ self.vectors.T                           # (M, N)
        reveal = (cand > sims[top][:, None]).sum(axis=1) - 1                # minus the candidate itself
        if len(neighbours):  # the best fit to another likely word, the candidate itself excluded
            near = self.vectors[top] @ self.vectors[neighbours].T
            near[top[:, None] == neighbours[None, :]] = -np.inf
            spec = sims[top] - near.max(axis=1)
        else:
            spec = np.zeros(len(top), dtype=np.float32)
        log_z = np.concatenate([[self._log_z(sims[None, :])[0]], self.log_z(neighbours)])
        view = WordView(word, v, sims, legal, neighbours, self.hub_of(v), top, np.maximum(reveal, 0),
                        spec.astype(np.float32), log_z)
        self._views[word] = view
        while len(self._views) > 4096:
            self._views.popitem(last=False)
        return view


def _filter_mask(words: Sequence[str], board: Sequence[str], language: str) -> np.ndarray:
    """The project clue filter's verdict on each word with `board` visible (RULES 4.3/4.4/4.6);
    a plain substring check when the filter is not installed."""
    try:
        from engine.clues import ClueFilter, FilterUnavailable

        try:
            return np.asarray(ClueFilter(board=list(board), language=language).legal_mask(list(words)), dtype=bool)
        except FilterUnavailable:
            pass
    except ImportError:
        pass
    out = np.array([bool(w.strip()) and not any(ch.isdigit() for ch in w) for w in words])
    for b in board:
        lb = b.lower()
        for j, w in enumerate(words):
            lw = w.lower()
            if lw == lb or (len(lb) >= 3 and lb in lw) or (len(lw) >= 3 and lw in lb):
                out[j] = False
    return out


_MODELS: "OrderedDict[tuple, SpyWordModel]" = OrderedDict()


def spyword_model(backend: str | Embeddings, language: str, vocab_size: int = 20000,
                  words: Sequence[str] | None = None, frequencies: Sequence[float] | None = None,
                  embeddings: Mapping[str, Embeddings] | None = None, **kwargs) -> SpyWordModel:
    """The process-wide model for (backend, language, vocabulary): built once, shared by all bots."""
    if isinstance(backend, str) and embeddings and backend in embeddings:
        emb = embeddings[backend]
    else:
        emb = get_backend(backend)
    key = (id(emb), emb.version, language, vocab_size, tuple(words) if words is not None else None,
           None if frequencies is None else tuple(map(float, frequencies)),   # rarity: not another's
           tuple(sorted(kwargs.items())))
    model = _MODELS.get(key)
    if model is None:
        model = SpyWordModel(emb, language, vocab_size, words=words, frequencies=frequencies, **kwargs)
        _MODELS[key] = model
        while len(_MODELS) > 4:
            _MODELS.popitem(last=False)
    return model
