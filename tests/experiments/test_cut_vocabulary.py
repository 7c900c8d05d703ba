"""`python -m experiments.tools.cut_vocabulary`: a model cut to its N commonest words (plus the board
cards it knows) as a `.kv` file, the partner on a smaller vocabulary of docs/crossplay.md."""

from __future__ import annotations

import numpy as np
import pytest
import typer
from typer.testing import CliRunner
from wordfreq import top_n_list

from agents.embeddings import get_backend
from agents.wordlists import board_words
from experiments.tools import cut_vocabulary as tool


def _app():
    app = typer.Typer()
    app.command()(tool.main)
    return app


@pytest.fixture
def model(tmp_path):
    """A closed vocabulary that lacks every third common word and every other board card."""
    from gensim.models import KeyedVectors

    common = [w for i, w in enumerate(top_n_list("en", 300)) if i % 3]
    cards = list(board_words("en"))[::2]
    words = list(dict.fromkeys(common + cards + ["zyzzyva"]))
    kv = KeyedVectors(vector_size=8)
    kv.add_vectors(words, np.random.default_rng(0).normal(size=(len(words), 8)).astype(np.float32))
    path = tmp_path / "model.kv"
    kv.save(str(path))
    return path, common, cards


def test_it_keeps_the_commonest_known_words_and_the_known_cards(model, tmp_path):
    from gensim.models import KeyedVectors

    path, common, cards = model
    out = tmp_path / "cut.kv"
    result = CliRunner().invoke(_app(), ["--backend", str(path), "--words", "50", "--out", str(out)])
    assert result.exit_code == 0, result.output
    kept = KeyedVectors.load(str(out)).index_to_key
    known = set(common) | set(cards)
    known_cards = [w for w in board_words("en") if w in known]
    assert kept == list(dict.fromkeys(common[:50] + known_cards))     # no rare word, every known card
    assert "zyzzyva" not in kept and set(cards) <= set(kept)
    emb, cut = get_backend(str(path)), get_backend(str(out))
    assert np.allclose(cut.similarity(cards[:5], common[:5]), emb.similarity(cards[:5], common[:5]), atol=1e-5)


@pytest.mark.parametrize("args, needle", [(["--words", "0"], "--words"), (["--words", "5", "--backend", "nosuch"], "nosuch"),
                                          (["--lang", "xx"], "--lang 'xx'")])
def test_bad_arguments_are_one_line(model, tmp_path, args, needle):
    path, _, _ = model
    base = {"--backend": str(path), "--words": "5", "--out": str(tmp_path / "x.kv")}
    for k, v in zip(args[::2], args[1::2]):
        base[k] = v
    result = CliRunner().invoke(_app(), [x for kv in base.items() for x in kv])
    assert result.exit_code == 2 and needle in result.output and not (tmp_path / "x.kv").exists()


@pytest.mark.parametrize("name", ["cut.txt", "cut.bin", "cut.vec.gz", "cut"])
def test_the_out_file_is_one_its_suffix_reads_back(model, tmp_path, name):
    """The file is a gensim KeyedVectors save whatever --out says, and a model's path is read by
    its suffix: --out cut.txt wrote a file that `duet-bayes:cut.txt` then refused as a bad text
    file. Now an --out not ending in .kv (or .model) is refused first, nothing written."""
    path, _, _ = model
    out = tmp_path / name
    result = CliRunner().invoke(_app(), ["--backend", str(path), "--words", "5", "--out", str(out)])
    assert result.exit_code == 2 and ".kv" in result.output and not out.exists()


def test_a_model_that_knows_no_word_of_the_lists_writes_nothing(tmp_path):
    """A model that knows none of the language's words wrote a .kv of no words ('wrote ...: 0 words'),
    a model that then knows nothing. Now one line, exit 2, nothing written."""
    path = tmp_path / "odd.txt"
    path.write_text("zzqxv 1 0\nqqzxw 0 1\n")
    out = tmp_path / "cut.kv"
    result = CliRunner().invoke(_app(), ["--backend", str(path), "--words", "5", "--out", str(out)])
    assert result.exit_code == 2 and "knows none of the en words" in result.output and not out.exists()


def test_an_existing_file_is_never_overwritten(model, tmp_path):
    path, _, _ = model
    out = tmp_path / "cut.kv"
    out.write_text("a result")
    result = CliRunner().invoke(_app(), ["--backend", str(path), "--words", "5", "--out", str(out)])
    assert result.exit_code == 2 and "exists" in result.output and out.read_text() == "a result"
