"""The analysis notebook runs top to bottom on a small simulate + tournament output."""

import nbformat
from nbclient import NotebookClient

from engine.paths import DATA_DIR
from experiments.simulate import DuetRun, simulate
from experiments.tournament import tournament

NOTEBOOK = DATA_DIR.parent / "notebooks" / "duet_benchmark.ipynb"


def test_duet_benchmark_notebook_executes(tmp_path, monkeypatch):
    simulate(DuetRun(games=12, seed=0, spymaster="random", guesser="random"), out=tmp_path / "run", progress=False)
    tournament(["random"], ["random", "random?stop=0.5"], games=4, out=tmp_path / "tour", progress=False)
    monkeypatch.setenv("CNLAB_RESULTS", str(tmp_path / "run"))
    monkeypatch.setenv("CNLAB_TOURNAMENT", str(tmp_path / "tour"))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), "outputs are not committed"
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "12 games, win rate" in text
    assert "game 0:" in text
    assert not any(o.get("output_type") == "error" for c in nb.cells if c.cell_type == "code" for o in c.outputs)


PARTNER_NOTEBOOK = DATA_DIR.parent / "notebooks" / "partner_robustness.ipynb"


def test_partner_robustness_notebook_executes(tmp_path, monkeypatch):
    from agents.embeddings import FakeEmbeddings, register_backend
    from agents.embeddings import registry
    from experiments.crossplay import crossplay

    panel = ["fake-nb-a", "fake-nb-b", "fake-nb-c"]
    for seed, name in zip((0, 0, 7), panel):
        register_backend(name, lambda seed=seed, name=name: FakeEmbeddings(seed=seed, name=name), overwrite=True)
    try:
        crossplay(["random", "margin?vocab=300"], games=3, panel=panel, noise="0.05", human=False,
                  out=tmp_path / "cross", progress=False)
    finally:
        for name in panel:
            registry._REGISTRY.pop(name, None)
        registry.get_backend.cache_clear()
    monkeypatch.setenv("CNLAB_CROSSPLAY", str(tmp_path / "cross"))
    nb = nbformat.read(PARTNER_NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), "outputs are not committed"
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    text = "\n".join(o.get("text", "") for o in outputs)
    assert "crossplay: 2 algorithms x 6 partners, 3-3 games per pairing" in text
    assert "best algorithm (leave-one-out mean win rate):" in text
    assert sum(1 for o in outputs if "image/png" in o.get("data", {})) >= 3  # means, per partner, heatmap
    assert not any(o.get("output_type") == "error" for o in outputs)
