"""fit_partner_model records each fitted backend's cosine spread and their ratio to the temperatures."""

from __future__ import annotations

import json

import pytest

from agents.embeddings import FakeEmbeddings
from agents.partner_model import card_spread


def test_spreads_only_records_the_spreads_and_leaves_every_temperature(tmp_path, monkeypatch):
    import agents.embeddings
    import experiments.evaluation.crossplay as crossplay
    from experiments.tools import fit_partner_model as tool

    backends = {"wide": FakeEmbeddings(dim=8, seed=1, name="wide"), "narrow": FakeEmbeddings(dim=64, seed=2, name="narrow")}
    monkeypatch.setattr(agents.embeddings, "get_backend", lambda name: backends[name] if isinstance(name, str) else name)
    monkeypatch.setattr(crossplay, "backend_missing", lambda name: None if name in backends else "not installed")
    out = tmp_path / "partner_model.json"
    temperatures = {"wide": 0.2, "narrow": 0.05, "gone": 0.07, "default": 0.09}
    out.write_text(json.dumps({"temperature": temperatures, "fits": {}}))
    assert tool.main(["--spreads-only", "--out", str(out)]) == 0
    model = json.loads(out.read_text())
    assert model["temperature"] == temperatures                       # nothing refitted
    spread = {name: card_spread(emb, "en") for name, emb in backends.items()}
    assert model["spread"] == {n: pytest.approx(s, abs=1e-5) for n, s in spread.items()}   # "gone" is not installed
    assert spread["wide"] > spread["narrow"]                         # 8 random dimensions spread wider than 64
    ratios = [0.2 / spread["wide"], 0.05 / spread["narrow"]]
    assert model["spread_ratio"] == pytest.approx(sum(ratios) / 2, abs=1e-4)        # the median of two


def test_a_backend_reads_one_fit_however_it_is_spelled(tmp_path, monkeypatch):
    """The fits were looked up by the spec's spelling: `duet-bayes:glove` (glove-50's alias) found no
    fitted temperature and played with its spread's instead (0.136, not glove-50's 0.124), robust
    weighed it as a model without human data, and a model fitted as `--backends ./my.txt` was
    unfitted when played as `/abs/my.txt`. Now a registered backend's fits are its own name's and
    a model's path is resolved, when fitted and when read."""
    from agents.partner_model import human_agreement, partner_temperature, temperature_for

    (tmp_path / "my.txt").write_text("ocean 1 0\nwave 0.5 1\n")
    monkeypatch.chdir(tmp_path)
    mine = str((tmp_path / "my.txt").resolve())
    params = {"temperature": {"glove-50": 0.12, mine: 0.03, "default": 0.09}, "spread_ratio": 0.85,
              "fits": {"human|glove-50": {"top1_accuracy": 0.3}, f"human|{mine}": {"top1_accuracy": 0.6}}}
    assert temperature_for("glove", params, spread=0.5) == temperature_for("glove-50", params) == 0.12
    assert temperature_for("my.txt", params, spread=0.5) == temperature_for(f"{tmp_path}/./my.txt", params) == 0.03
    assert human_agreement(["glove", "./my.txt"], params).tolist() == [0.3, 0.6]
    assert partner_temperature("glove", FakeEmbeddings(), "en") == partner_temperature("glove-50", FakeEmbeddings(), "en")


def test_fitting_keeps_a_model_path_under_its_resolved_name(tmp_path, monkeypatch):
    from experiments.tools import fit_partner_model as tool

    (tmp_path / "my.txt").write_text("ocean 1 0\nwave 0.5 1\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tool, "read_human", lambda path: [])
    monkeypatch.setattr(tool, "fit_temperature", lambda sets: {"temperature": 0.04, "n": 0})
    monkeypatch.setattr(tool, "record_spreads", lambda model: None)
    (tmp_path / "human.csv").write_text("x\n")
    out = tmp_path / "partner_model.json"
    assert tool.main(["--human", "human.csv", "--backends", "my.txt,./my.txt,fake", "--out", str(out)]) == 0
    model = json.loads(out.read_text())
    assert set(model["temperature"]) == {str((tmp_path / "my.txt").resolve()), "fake", "default"}
