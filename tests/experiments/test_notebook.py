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
