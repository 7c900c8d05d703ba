"""Where the project's data files live: found relative to the code, never the working directory."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def data_path(*parts: str) -> Path:
    """Path of a file under the project's `data/` folder."""
    return DATA_DIR.joinpath(*parts)
