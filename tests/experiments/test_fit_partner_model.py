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
