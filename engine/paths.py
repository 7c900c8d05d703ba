"""Where the project's data files live: the one loader every read goes through.

Installed from a wheel, data/ is the package `codenames_lab_data`; in a source checkout (and an
editable install) it is the `data/` folder beside the code. Never the working directory.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path


def _data_dir() -> Path:
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "data").is_dir():
        return root / "data"  # a checkout: its own data, even where another copy is installed
    if (root / "codenames_lab_data").is_dir():
        return root / "codenames_lab_data"  # installed: the data installed with this code, not a folder of the cwd
    spec = find_spec("codenames_lab_data")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if (root / "data").is_dir():
        return root / "data"
    raise FileNotFoundError("the codenames-lab data files are missing: reinstall the package")


DATA_DIR = _data_dir()


def data_path(*parts: str) -> Path:
    """Path of a file under the project's data folder."""
    return DATA_DIR.joinpath(*parts)
